/*****************************************************************************\
 *  cli_check.h - prism check (cli_check.c): the subcommand, the Moab and
 *  Grid Engine files' checks, their readers and notices, and the
 *  locator of a slurm.conf key's line.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_CHECK_H
#define PRISM_CLI_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "prism_ge_conf.h"
#include "prism_moab_conf.h"
#include "prism_params.h"

/* The policies' checks: print the file's notices and "OK"; CLI_OK, or
 * CLI_ERROR after printing why. */
extern int cli_check_moab(const char *path);
extern int cli_check_gridengine(const char *path);

/* Where a slurm.conf key is set: the last line that sets it. */
typedef struct {
	const char *key;	/* as slurm.conf spells it, case ignored */
	char file[4096];	/* "" when no line sets it (the default) */
	unsigned line;
	char *text;		/* the value as written there, NULL: none */
} cli_conf_loc_t;

/*
 * Find the last line of the slurm.conf 'conf_path' and its Include files
 * that sets each of the 'cnt' keys of 'locs', and the value as written
 * there (freed with cli_conf_locs_free(), on failure too). A locator:
 * the values come from Slurm's parser, the text only where Slurm keeps
 * none (PriorityFlags: Slurm drops the names it does not know). CLI_OK,
 * or CLI_ERROR after printing why a file cannot be read.
 */
extern int cli_conf_locate(const char *conf_path, cli_conf_loc_t *locs,
			   size_t cnt);
extern void cli_conf_locs_free(cli_conf_loc_t *locs, size_t cnt);

extern int cli_check(int argc, char **argv);

/*
 * Print the notices of the Moab policy 'pol' read from 'path' to 'out':
 * the parser's, then one per weighted subcomponent Slurm has no data for
 * (the plugin logs the same lines).
 */
extern void cli_moab_notices(const prism_moab_policy_t *pol,
			     const char *path, FILE *out);

/*
 * Read and parse the Moab policy file 'path'. Returns the policy (freed
 * by the caller), or NULL with the reason ("file:line: ...") in err.
 */
extern prism_moab_policy_t *cli_moab_read(const char *path,
					  prism_error_t *err);

/*
 * Read and parse the Grid Engine policy file 'path'. Returns the policy
 * (freed by the caller), or NULL with the reason ("file:line: ...") in
 * err.
 */
extern prism_ge_policy_t *cli_ge_read(const char *path, prism_error_t *err);

/*
 * Whether nothing in the policy file 'path' reads as a 'kind' policy
 * (moab or gridengine) while the other file policy reads something in it:
 * a file of the other policy. False when 'path' cannot be read.
 */
extern bool cli_file_lookalike(prism_policy_t kind, const char *path);

/*
 * Print on 'out' one line: 'lead', that nothing in 'path' was understood
 * as a 'kind' policy (with its 'notices' when not 0), that it looks like
 * a file of the other policy (cli_file_lookalike()) or asks whether it is
 * one, then 'tail'.
 */
extern void cli_not_understood(FILE *out, const char *lead,
			       prism_policy_t kind, const char *path,
			       size_t notices, const char *tail);

#endif /* PRISM_CLI_CHECK_H */
