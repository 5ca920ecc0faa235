/*****************************************************************************\
 *  cli_policy.h - the prism command's table of policies (cli_policy.c):
 *  what check, explain and whatif do under each.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_POLICY_H
#define PRISM_CLI_POLICY_H

#include "cli_explain.h"
#include "prism_params.h"
#include "prism_whatif.h"

/*
 * What the prism command does for each policy: one entry per policy
 * (cli_policy.c), found by the kind PriorityParameters names; check and
 * explain call the entry, never a named policy.
 */
typedef struct cli_policy {
	prism_policy_t kind;
	bool reads_file;		/* takes a policy file (config=) */
	/* prism check of the policy file 'path': prints its notices and
	 * "OK"; CLI_OK, or CLI_ERROR after printing why. NULL iff
	 * !reads_file. */
	int (*check)(const char *path);
	/* prism explain of the records 'r' under the file 'path' (--json:
	 * 'json', only when json_ok); NULL: sprio shows it all, explain_hint
	 * says so. */
	int (*explain)(const cli_records_t *r, const char *path,
		       const uint32_t *ids, uint32_t id_cnt, bool long_fmt,
		       bool json);
	const char *explain_hint;
	bool json_ok;			/* explain takes --json */
	bool reads_assocs;		/* explain needs r->assocs */
	/*
	 * prism whatif: the priority of each pending row of 'r' now and
	 * under the change (multifactor: the 'nset' slurm.conf settings
	 * 'set'; the others: the candidate policy file 'cand', their file
	 * in force being 'path') into a new array *out (freed by the
	 * caller; its strings point into 'r') of *cnt. CLI_OK, or
	 * CLI_ERROR after printing why on stderr.
	 */
	int (*whatif)(const cli_records_t *r, const char *path,
		      char *const *set, int nset, const char *cand,
		      prism_whatif_job_t **out, uint32_t *cnt);
	bool whatif_file;		/* whatif takes --policy-file */
	bool whatif_assocs;		/* whatif needs r->assocs */
} cli_policy_t;

/* The entry of 'kind' (never NULL: an unknown kind gets multifactor's). */
extern const cli_policy_t *cli_policy_find(prism_policy_t kind);

#endif /* PRISM_CLI_POLICY_H */
