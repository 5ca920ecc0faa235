/*****************************************************************************\
 *  cli_metrics.h - `prism metrics`: the controller's fair-share, its
 *  pending jobs per partition and the plugin's last pass in the
 *  Prometheus text exposition format (0.0.4), on stdout (for
 *  node_exporter's textfile collector).
 *
 *  Notes
 *
 *  The text is built from records already loaded (cli_records_t, the
 *  pass figures), so that a test can feed records of its own; the RPCs
 *  and the file read are cli_metrics()'s. Cardinality is bounded: no
 *  series per job, series per user only for associations, and those can
 *  be limited to users with pending jobs or left out.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_METRICS_H
#define PRISM_CLI_METRICS_H

#include <stdio.h>

#include "cli_explain.h"
#include "prism_ge_usage.h"
#include "prism_moab.h"
#include "prism_moab_conf.h"
#include "prism_passinfo.h"

/* Which user associations get series (--users). */
typedef enum {
	CLI_METRICS_USERS_ALL,		/* every user association */
	CLI_METRICS_USERS_PENDING,	/* those with a pending job */
	CLI_METRICS_USERS_NONE,		/* none: accounts only */
} cli_metrics_users_t;

/* What the exposition is made of. */
typedef struct {
	const cli_records_t *r;		/* conf, jobs, sprio rows, assocs */
	prism_policy_t policy;		/* the policy in force */
	const prism_passinfo_t *pass;	/* the plugin's last pass */
	const char *version;		/* Prism's version */
	cli_metrics_users_t users;
	/* policy=gridengine: the share-tree usage the plugin saved
	 * (priority_prism_ge_usage); NULL: none read */
	const prism_ge_usage_t *ge_usage;
	/* policy=moab: the policy in force and the fair-share usage the
	 * plugin saved (priority_prism_moab_usage); NULL: none read */
	const prism_moab_policy_t *moab;
	const prism_moab_usage_t *moab_usage;
} cli_metrics_in_t;

/*
 * Write the exposition of 'in' to 'out'. Returns CLI_OK, or CLI_ERROR
 * with 'err' set (out of memory); 'out' may then hold part of it.
 */
extern int cli_metrics_write(const cli_metrics_in_t *in, FILE *out,
			     prism_error_t *err);

/*
 * Read the pass figures StateSaveLocation/priority_prism_pass of the
 * directory 'dir' into 'pi'. Returns 0, or -1 with 'err' saying why
 * (the file missing, unreadable, damaged, of a later format).
 */
extern int cli_metrics_pass_read(const char *dir, prism_passinfo_t *pi,
				 prism_error_t *err);

/* `prism metrics [--users all|pending|none]`: the exposition on stdout;
 * CLI_ERROR after one line on stderr saying why not. */
extern int cli_metrics(int argc, char **argv);

#endif /* PRISM_CLI_METRICS_H */
