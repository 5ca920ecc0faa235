/*****************************************************************************\
 *  cli_ge_diag.h - explain's Grid Engine view, qstat -pri and -urg, and
 *  whatif under a candidate Grid Engine policy (cli_ge_diag.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_GE_DIAG_H
#define PRISM_CLI_GE_DIAG_H

#include <stdint.h>
#include <stdio.h>

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

#include "prism_ge.h"
#include "prism_ge_conf.h"
#include "prism_ge_usage.h"
#include "prism_whatif.h"

/* Everything the Grid Engine view is built from; the caller owns it all. */
typedef struct {
	const prism_ge_policy_t *pol;
	int64_t now;			/* the plugin's last pass */
	const slurm_job_info_t *jobs;	/* every job the caller may see */
	uint32_t job_cnt;
	priority_factors_object_t *const *factors; /* sprio's rows */
	uint32_t factor_cnt;
	const uint32_t *ids;		/* the jobs asked for; none: all */
	uint32_t id_cnt;
	/* prism whatif only: the share tree and its usage */
	slurmdb_assoc_rec_t *const *assocs; /* NULL: no share tree */
	uint32_t assoc_cnt;
	const prism_ge_usage_t *usage;	/* NULL: no usage */
} cli_ge_explain_t;

/*
 * Print the qstat -pri and -urg tables of 'x' and their notes to 'out'.
 * Returns CLI_OK, or CLI_ERROR with a message on 'err' (out of memory, a
 * job the core refuses, a job asked for that has no row: the rows found
 * are printed either way).
 */
extern int cli_ge_explain_print(const cli_ge_explain_t *x, FILE *out,
				FILE *err);

/*
 * Read 'job' in partition 'part' (NULL: none known) into 'in' and its
 * requests into 'amount' (prism_ge_count(pol, RESOURCE) of them) the way
 * the plugin reads a job record (src/plugin/prism_ge_job.c), from the
 * fields Slurm sends to clients: slots = CPUs, mem = MB, nodes, any other
 * resource = the TRES of that name in tres_req_str. in->amount points to
 * 'amount'.
 */
extern void cli_ge_job_inputs(const prism_ge_policy_t *pol,
			      const slurm_job_info_t *job, const char *part,
			      prism_ge_job_t *in, double *amount);

/*
 * prism whatif under a candidate Grid Engine policy x->pol
 * (cli_ge_diag.c): one pass over every pending job of x->jobs at x->now
 * as the plugin's pass runs it (prism_ge_pass_run(): the share tree of
 * x->assocs with the usage x->usage, the running jobs counted on their
 * association, user and account; held jobs and admin-set priorities left
 * out), then each pending sprio row of 'x' with its priority now
 * (prism_ge_cols_decode()) and under the candidate (in the row's
 * partition; an admin-set priority kept) into 'out' (room for
 * x->factor_cnt), *cnt of them. CLI_OK, or CLI_ERROR with one line on
 * 'err' (the core refuses the pass, out of memory).
 */
extern int cli_ge_whatif(const cli_ge_explain_t *x, prism_whatif_job_t *out,
			 uint32_t *cnt, FILE *err);

#endif /* PRISM_CLI_GE_DIAG_H */
