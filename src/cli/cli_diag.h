/*****************************************************************************\
 *  cli_diag.h - explain's views (cli_diag.c): what the Moab, Grid
 *  Engine and multifactor views share (a job's state, CPUs and
 *  partitions, the order of the tables, sprio's rows read into the
 *  core's columns), and the Moab view (mdiag -p) and its whatif.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_DIAG_H
#define PRISM_CLI_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <slurm/slurm.h>

#include "prism_cols.h"
#include "prism_moab.h"
#include "prism_moab_conf.h"
#include "prism_whatif.h"

/*
 * Why job 'id' (its record 'job', NULL: not found) has no sprio row, as
 * one line "prism: job ID: ..." on 'err' (not found, not pending, held,
 * not eligible yet).
 */
extern void cli_job_why_unranked(const slurm_job_info_t *job, uint32_t id,
				 FILE *err);

/* Is 'job' pending? */
extern bool cli_job_pending(const slurm_job_info_t *job);

/*
 * The CPUs the plugin's prism_job_cpus() sizes 'job' by: for a pending
 * job its maximum when it gave one (sent as 0 when not), else its
 * minimum.
 */
extern uint32_t cli_job_cpus(const slurm_job_info_t *job);

/*
 * Pointers to the 'cnt' jobs of 'jobs', sorted by job id, in a new array
 * (room for cnt + 1) the caller frees. NULL when out of memory.
 */
extern const slurm_job_info_t **cli_jobs_by_id(const slurm_job_info_t *jobs,
					       uint32_t cnt);

/* The job 'id' among the 'cnt' of cli_jobs_by_id()'s 'sorted', or NULL. */
extern const slurm_job_info_t *cli_job_find(const slurm_job_info_t **sorted,
					    uint32_t cnt, uint32_t id);

/*
 * The order of both views' tables, for qsort(): Slurm priority 'prio_a'
 * of job 'id_a' before 'prio_b' of 'id_b' (< 0), after it (> 0) or the
 * same job (0): highest priority first, then lowest job id.
 */
extern int cli_rank_cmp(uint32_t prio_a, uint32_t id_a, uint32_t prio_b,
			uint32_t id_b);

/* Was job 'id' asked for among the 'cnt' 'ids' (none asked: every job)? */
extern bool cli_job_asked(const uint32_t *ids, uint32_t cnt, uint32_t id);

/* Is 'part' the first partition of the comma list 'list' (false: NULL)? */
extern bool cli_first_part(const char *list, const char *part);

/* The first partition of the comma list 'list' into 'buf' of 'size'. */
extern void cli_first_part_copy(char *buf, size_t size, const char *list);

/* sprio's row 'f' copied into the core's record 'c' (the columns, the
 * admin-set priority, the TRES columns), for a policy's decoder. */
extern void cli_cols_read(const priority_factors_object_t *f, prism_cols_t *c);

/* The TRES names and weights of sprio's row 'f' into *names and *weights
 * (the row's own arrays, or NULL; Slurm versions keep them apart). */
extern void cli_row_tres(const priority_factors_object_t *f, char ***names,
			 double **weights);

/* The Moab view: from the controller's records to mdiag -p. */

/* Everything the explain view is built from; the caller owns it all. */
typedef struct {
	const prism_moab_policy_t *pol;
	const char *pol_path;
	const prism_moab_usage_t *usage; /* NULL: fair-share usage unknown */
	int64_t now;			/* the plugin's last pass */
	const slurm_job_info_t *jobs;	/* every job the caller may see */
	uint32_t job_cnt;
	priority_factors_object_t *const *factors; /* sprio's rows */
	uint32_t factor_cnt;
	const partition_info_t *parts;
	uint32_t part_cnt;
	const uint32_t *ids;		/* the jobs asked for; none: all */
	uint32_t id_cnt;
	bool long_fmt;			/* prism_moab_explain() per job */
} cli_explain_t;

/*
 * Print the mdiag -p table of 'x' and its notes to 'out'. Returns
 * CLI_OK, or CLI_ERROR with a message on 'err' when out of memory or per
 * job asked for that has no row (the rows found are printed either way).
 */
extern int cli_explain_print(const cli_explain_t *x, FILE *out, FILE *err);

/*
 * prism whatif under a candidate Moab policy x->pol (cli_diag.c): each
 * pending sprio row of 'x' with its priority now (prism_moab_cols_decode())
 * and the one the plugin computes under x->pol at x->now with x->usage
 * (prism_moab_prio(): the job in the row's partition, an admin-set
 * priority as Moab's system priority; 0 when REJECTNEGPRIOJOBS would hold
 * it) into 'out' (room for x->factor_cnt), *cnt of them. CLI_OK, or
 * CLI_ERROR with one line on 'err' (a job the core refuses, out of
 * memory).
 */
extern int cli_moab_whatif(const cli_explain_t *x, prism_whatif_job_t *out,
			   uint32_t *cnt, FILE *err);

/* Per-job lookups shared over one explain run; opaque. */
typedef struct cli_jobmap cli_jobmap_t;

/*
 * New lookups for 'pol' (uid/gid to credential handles) and the per-user
 * totals of the active jobs among 'jobs'. NULL when out of memory; freed
 * with cli_jobmap_free().
 */
extern cli_jobmap_t *cli_jobmap_create(const prism_moab_policy_t *pol,
				       const slurm_job_info_t *jobs,
				       uint32_t job_cnt, int64_t now);
extern void cli_jobmap_free(cli_jobmap_t *m);

/*
 * Read 'job' in partition 'part' (NULL: none known) at 'now' into 'in'
 * and 'tot' the way the plugin reads a job record
 * (src/plugin/prism_moab_job.c), from the fields Slurm sends to clients;
 * 'direct_prio' is sprio's admin-set priority (0: none).
 */
extern void cli_job_inputs(cli_jobmap_t *m, const slurm_job_info_t *job,
			   const partition_info_t *part, double direct_prio,
			   prism_moab_job_t *in, prism_moab_totals_t *tot);

#endif /* PRISM_CLI_DIAG_H */
