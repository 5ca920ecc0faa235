/*****************************************************************************\
 *  cli_ge_diag.c - the Grid Engine view of `prism explain`
 *  (policy=gridengine): qstat -pri and qstat -urg of the pending jobs,
 *  built from records the controller sent. The normalised values come
 *  from the controller's sprio columns, read back by the code that wrote
 *  them (prism_ge_cols_decode()); each job's urgency and its parts are
 *  recomputed from the job through the same facts the plugin reads its
 *  job record into (prism_ge_facts.h), at the plugin's last pass;
 *  prism_ge_diag formats the lines.
 *
 *  Only Slurm's public types are used here, no RPC and no libslurm call,
 *  so tests/cli/test_cli_diag.c can feed it records of its own.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "prism_cli.h"
#include "prism_ge_diag.h"
#include "prism_ge_facts.h"

#define LINE_MAX_LEN 1024

/* The core has Slurm's special values as its own (prism_marks.h). */
_Static_assert(PRISM_NICE_OFFSET == NICE_OFFSET, "NICE_OFFSET");

/* One job of the tables. */
typedef struct {
	const slurm_job_info_t *job;
	const priority_factors_object_t *f;	/* its row in sprio */
	uint32_t rows;				/* its rows in sprio */
	prism_ge_diag_row_t row;
} _entry_t;

extern void cli_ge_job_inputs(const prism_ge_policy_t *pol,
			      const slurm_job_info_t *job, const char *part,
			      prism_ge_job_t *in, double *amount)
{
	prism_ge_facts_t f = {
		.job_id = job->job_id,
		.submit_time = job->submit_time,
		.deadline = job->deadline,
		.nice = job->nice,
		.user = prism_ge_find(pol, PRISM_GE_USER, job->user_name),
		.account = job->account,
		.partition = part,
		.cpus = cli_job_cpus(job),
		.nodes = job->num_nodes,
		.tres_req = job->tres_req_str,
	};

	(void) prism_ge_job_from_facts(pol, &f, in, amount, NULL);
}

/* Highest Slurm priority first, as qstat, then by job id. */
static int _cmp_entry(const void *a, const void *b)
{
	const _entry_t *x = a, *y = b;

	return cli_rank_cmp(x->row.slurm, x->job->job_id, y->row.slurm,
			    y->job->job_id);
}

/*
 * The entries of the tables (room for one per sprio row): one per
 * pending job asked for with a row in sprio, the row of its first
 * partition when it has several (the others are rebased on it). Returns
 * how many.
 */
static uint32_t _collect(const cli_ge_explain_t *x,
			 const slurm_job_info_t **sorted, _entry_t *entries)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < x->factor_cnt; i++) {
		const priority_factors_object_t *f = x->factors[i];
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, f->job_id);
		uint32_t k;

		if (!job || !cli_job_pending(job) ||
		    !cli_job_asked(x->ids, x->id_cnt, job->job_id))
			continue;
		for (k = 0; k < n && entries[k].job != job; k++)
			;
		if (k == n)
			entries[n++] = (_entry_t) { .job = job, .f = f };
		else if (cli_first_part(job->partition, f->partition) &&
			 !cli_first_part(job->partition,
					 entries[k].f->partition))
			entries[k].f = f;
		entries[k].rows++;
	}
	return n;
}

/*
 * sprio's row 'f' as the plugin's columns into 'cols' and the Slurm
 * priority they add up to into *slurm (prism_ge_cols_decode()). Returns
 * false when the row has no columns (an admin-set priority, or the plugin
 * could not compute it).
 */
static bool _columns(const priority_factors_object_t *f,
		     const slurm_job_info_t *job, prism_ge_sprio_t *cols,
		     uint32_t *slurm)
{
	prism_cols_t c;

	cli_cols_read(f, &c);
	return prism_ge_cols_decode(&c, job->priority, cols, slurm, NULL) ==
	       PRISM_COLS_POLICY;
}

/* Recompute the urgency of 'e' at the plugin's last pass; fill its row. */
static int _compute(const cli_ge_explain_t *x, _entry_t *e, double *amount,
		    FILE *err_out)
{
	const char *part = e->f->partition;
	char first[256], label[32];
	prism_ge_result_t res = { .urg = 0 };
	prism_error_t err = { "" };
	prism_ge_sprio_t cols;
	prism_ge_job_t in;
	uint32_t slurm;
	bool known;

	if (!part && e->job->partition) {
		cli_first_part_copy(first, sizeof(first), e->job->partition);
		part = first;
	}
	known = _columns(e->f, e->job, &cols, &slurm);
	cli_ge_job_inputs(x->pol, e->job, part, &in, amount);
	snprintf(label, sizeof(label), "%" PRIu32, e->job->job_id);
	if (prism_ge_urgency(x->pol, &in, x->now, &res, &err) ||
	    prism_ge_diag_row_fill(x->pol, label, slurm, known ? &cols : NULL,
				   &res, prism_ge_posix_prio(in.nice),
				   &e->row, &err)) {
		fprintf(err_out, "prism: job %" PRIu32 ": %s\n", e->job->job_id,
			err.text);
		return CLI_ERROR;
	}
	return CLI_OK;
}

/* One table: its header, then a row per entry. */
static int _table(const _entry_t *entries, uint32_t n,
		  int (*head)(char *, size_t, prism_error_t *),
		  int (*row)(const prism_ge_diag_row_t *, char *, size_t,
			     prism_error_t *),
		  FILE *out, FILE *err_out)
{
	prism_error_t err = { "" };
	char line[LINE_MAX_LEN];

	if (head(line, sizeof(line), &err) < 0)
		goto fail;
	fputs(line, out);
	for (uint32_t k = 0; k < n; k++) {
		if (row(&entries[k].row, line, sizeof(line), &err) < 0)
			goto fail;
		fputs(line, out);
	}
	return CLI_OK;
fail:
	fprintf(err_out, "prism: %s\n", err.text);
	return CLI_ERROR;
}

static void _notes(const _entry_t *entries, uint32_t n, FILE *out)
{
	for (uint32_t k = 0; k < n; k++) {
		const _entry_t *e = &entries[k];

		if (e->rows > 1)
			fprintf(out, "job %" PRIu32 ": pending in %s; shown in %s (sprio shows one row per partition)\n",
				e->job->job_id, e->job->partition,
				e->f->partition ? e->f->partition : "?");
		if (e->f->direct_prio > 0)
			fprintf(out, "job %" PRIu32 ": priority %" PRIu32 " set by an administrator: not computed by the policy\n",
				e->job->job_id, e->row.slurm);
		else if (!e->row.known)
			fprintf(out, "job %" PRIu32 ": the controller has no factors for it (see slurmctld's log)\n",
				e->job->job_id);
	}
}

/* Notes for the jobs asked for without a row, or the pending jobs not
 * ranked when none was asked for. */
static void _notes_missing(const cli_ge_explain_t *x,
			   const slurm_job_info_t **sorted,
			   const _entry_t *entries, uint32_t n, FILE *out)
{
	uint32_t pending = 0;

	for (uint32_t i = 0; !x->id_cnt && i < x->job_cnt; i++)
		pending += cli_job_pending(&x->jobs[i]);
	if (!x->id_cnt && pending > n)
		fprintf(out, "%" PRIu32 " pending job%s held or not eligible yet: not ranked, not shown (ask for one by its id)\n",
			pending - n, pending - n == 1 ? " is" : "s are");
	for (uint32_t i = 0; i < x->id_cnt; i++) {
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, x->ids[i]);
		bool shown = false;

		for (uint32_t k = 0; job && k < n; k++)
			shown |= entries[k].job == job;
		if (shown)
			continue;
		if (!job)
			fprintf(out, "job %" PRIu32 ": not found (or not visible to you)\n",
				x->ids[i]);
		else if (!cli_job_pending(job))
			fprintf(out, "job %" PRIu32 ": not pending\n",
				x->ids[i]);
		else if (!job->priority)
			fprintf(out, "job %" PRIu32 ": held (priority 0), not ranked\n",
				x->ids[i]);
		else
			fprintf(out, "job %" PRIu32 ": pending but not ranked by the controller (not eligible yet: begin time or dependency)\n",
				x->ids[i]);
	}
}

extern int cli_ge_explain_print(const cli_ge_explain_t *x, FILE *out,
				FILE *err)
{
	uint32_t nres = prism_ge_count(x->pol, PRISM_GE_RESOURCE);
	const slurm_job_info_t **sorted;
	_entry_t *entries;
	double *amount;
	uint32_t n = 0;
	int rc = CLI_ERROR;

	sorted = cli_jobs_by_id(x->jobs, x->job_cnt);
	entries = calloc((size_t) x->factor_cnt + 1, sizeof(*entries));
	amount = calloc((size_t) nres + 1, sizeof(*amount));
	if (!sorted || !entries || !amount) {
		fprintf(err, "prism: out of memory\n");
		goto out;
	}
	n = _collect(x, sorted, entries);
	for (uint32_t k = 0; k < n; k++)
		if (_compute(x, &entries[k], amount, err))
			goto out;
	qsort(entries, n, sizeof(*entries), _cmp_entry);
	if (n) {
		fputs("qstat -pri (prior, nurg, npprior, ntckts from the controller's sprio columns; ppri from the job's nice)\n",
		      out);
		if (_table(entries, n, prism_ge_diag_pri_header,
			   prism_ge_diag_pri_row, out, err))
			goto out;
		fputs("\nqstat -urg (urg and its parts recomputed from the job at the plugin's last pass)\n",
		      out);
		if (_table(entries, n, prism_ge_diag_urg_header,
			   prism_ge_diag_urg_row, out, err))
			goto out;
	} else {
		fputs("no pending job to show\n", out);
	}
	if (n || x->id_cnt)
		fputs("\n", out);
	_notes(entries, n, out);
	_notes_missing(x, sorted, entries, n, out);
	rc = CLI_OK;
out:
	free(amount);
	free(entries);
	free(sorted);
	return rc;
}
