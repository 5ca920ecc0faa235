/*****************************************************************************\
 *  cli_release.h - the Slurm release the plugin was built for, and the
 *  releases the command meets: the slurmctld installed on this machine
 *  (prism check) and the one that answers (explain, compare, whatif).
 *  Slurm loads a plugin only into the exact release it was built for:
 *  after a Slurm upgrade without a Prism rebuilt for it, slurmctld
 *  refuses priority/prism at start.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_RELEASE_H
#define PRISM_CLI_RELEASE_H

/* The release priority_prism.so was built for ("22.05.8"): the plugin's
 * Slurm tree, or (built without the plugin) the command's libslurm. */
extern const char *cli_release_built(void);

/*
 * Compare the slurmctld installed here (slurmctld -V; $PRISM_SLURMCTLD
 * names another program) with the release the plugin was built for, and
 * say which on stdout. Returns 0 when they are the same or no slurmctld
 * is installed (a login node), CLI_ERROR after printing on stderr why
 * slurmctld would refuse the plugin.
 */
extern int cli_release_check_installed(void);

/* Warn on stderr when the answering slurmctld runs another release than
 * the plugin's ('version' as slurm_load_ctl_conf() gives it). */
extern void cli_release_warn_running(const char *version);

#endif /* PRISM_CLI_RELEASE_H */
