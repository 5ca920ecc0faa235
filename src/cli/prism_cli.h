/*****************************************************************************\
 *  prism_cli.h - what every part of the `prism` command shares: the
 *  exit statuses, the Slurm release differences of the public API, the
 *  names of Prism's files in StateSaveLocation; and the command's entry
 *  (prism.c): its usage text and usage errors. Each subcommand and view
 *  has its own header (cli_*.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_H
#define PRISM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

/*
 * What differs between the Slurm releases the command builds for (the
 * public <slurm/slurm.h> only), decided by configure's probes
 * (m4/prism_slurm.m4, -DPRISM_CLI_HAVE_...): from 23.02 the lists are
 * list_t and list_itr_t, a sprio row keeps its factors behind a pointer
 * (with its account and QOS), and sprio filters its rows in the client;
 * from 26.05 a row names its job by step_id, and slurm_free_ctl_conf is
 * slurm_free_conf.
 */
#ifndef PRISM_CLI_HAVE_LIST_T
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif
#ifdef PRISM_CLI_HAVE_ROW_STEP_ID
#define CLI_ROW_JOB_ID(row) ((row)->step_id.job_id)
#else
#define CLI_ROW_JOB_ID(row) ((row)->job_id)
#endif
/* slurm_load_ctl_conf()'s answer freed (slurm_free_conf from 26.05) */
#ifdef PRISM_CLI_HAVE_FREE_CONF
#define cli_free_ctl_conf(c) slurm_free_conf(c)
#else
#define cli_free_ctl_conf(c) slurm_free_ctl_conf(c)
#endif

/* Exit statuses of every subcommand. */
#define CLI_OK 0
#define CLI_ERROR 1
#define CLI_USAGE 2

/*
 * The configuration slurm_init() reads with Slurm's own parser (Include,
 * continuations, every time form). libslurm exports it (22.05 and 24.11:
 * src/common/read_config.c defines it, and libslurm's version script
 * exports every slurm_* symbol) but <slurm/slurm.h> does not declare it.
 */
extern slurm_conf_t slurm_conf;

/*
 * Slurm's reader of the time forms of slurm.conf ("30", "48:00:00",
 * "7-0"): minutes, NO_VAL when bad, INFINITE for "unlimited". libslurm
 * exports it (src/common/parse_time.c, 22.05 and 24.11); no public header
 * declares it.
 */
extern int slurm_time_str2mins(const char *string);

/* Names of Prism's files in StateSaveLocation (src/plugin/). */
#define CLI_STATE_NAME "priority_prism_state"
#define CLI_SAVED_POLICY_NAME "priority_prism_policy"
#define CLI_MOAB_USAGE_NAME "priority_prism_moab_usage"
#define CLI_GE_USAGE_NAME "priority_prism_ge_usage"

/*
 * The subcommands: 'argc'/'argv' start at the subcommand's name. Each
 * prints its results on stdout and its errors on stderr and returns an
 * exit status (cli_check(), cli_convert(), cli_explain(),
 * cli_compare(), cli_whatif(), cli_metrics()).
 */

/* Print the usage text to 'out'. */
extern void cli_usage(FILE *out);

/*
 * Print "prism: MESSAGE" and a pointer to --help on stderr; returns
 * CLI_USAGE.
 */
extern int cli_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* PRISM_CLI_H */
