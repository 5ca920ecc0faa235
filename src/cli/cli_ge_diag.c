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

#include "cli_diag.h"
#include "cli_ge_diag.h"
#include "prism_cli.h"
#include "prism_ge_diag.h"
#include "prism_ge_facts.h"
#include "prism_idmap.h"

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
			cli_job_find(sorted, x->job_cnt, CLI_ROW_JOB_ID(f));
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

/* Errors for the jobs asked for without a row, or a note of the pending
 * jobs not ranked when none was asked for; returns how many asked for
 * have no row. */
static uint32_t _notes_missing(const cli_ge_explain_t *x,
			       const slurm_job_info_t **sorted,
			       const _entry_t *entries, uint32_t n, FILE *out,
			       FILE *err)
{
	uint32_t missing = 0, pending = 0;

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
		missing++;
		cli_job_why_unranked(job, x->ids[i], err);
	}
	return missing;
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
	rc = _notes_missing(x, sorted, entries, n, out, err) ? CLI_ERROR :
							       CLI_OK;
out:
	free(amount);
	free(entries);
	free(sorted);
	return rc;
}

/* ---- prism whatif under a candidate Grid Engine policy ---------------- */

/* What one whatif pass is built from; freed by _wi_free(). */
typedef struct {
	prism_ge_node_t *nodes;
	uint32_t node_cnt;
	prism_idmap_t *assoc_node;	/* association id -> node */
	uint32_t *user_running, *account_running;
	prism_idmap_t *admin;		/* job ids with an admin-set row */
	prism_idmap_t *index;		/* job id -> pass job */
	prism_ge_job_t *jobs;
	prism_ge_result_t *res;
	double *amount;
	uint32_t n;
	prism_ge_pass_t *core;
} _wi_t;

/* Free what 'w' holds (not 'w'). */
static void _wi_free(_wi_t *w)
{
	free(w->nodes);
	prism_idmap_free(w->assoc_node);
	free(w->user_running);
	free(w->account_running);
	prism_idmap_free(w->admin);
	prism_idmap_free(w->index);
	free(w->jobs);
	free(w->res);
	free(w->amount);
	prism_ge_pass_free(w->core);
}

/* Raw Fairshare as GE shares (parent or unset: 1), as the plugin. */
static uint32_t _shares(const slurmdb_assoc_rec_t *a)
{
	if (a->shares_raw == SLURMDB_FS_USE_PARENT ||
	    a->shares_raw == NO_VAL)
		return 1;
	return a->shares_raw;
}

/*
 * Add the association 'k' of x->assocs below node 'parent', then its
 * children (pre-order, a parent before its children, as the plugin walks
 * the association tree). Returns 0, or -1 when out of memory.
 */
static int _tree_add(const cli_ge_explain_t *x, _wi_t *w, uint32_t k,
		     uint32_t parent)
{
	const slurmdb_assoc_rec_t *a = x->assocs[k];
	uint32_t i = w->node_cnt++;
	bool user = a->user && a->user[0];

	w->nodes[i] = (prism_ge_node_t) {
		.parent = parent,
		.shares = _shares(a),
		.usage = x->usage ? prism_ge_usage_get(x->usage, a->id) : 0.0,
		.user = user,
	};
	if (prism_idmap_put(w->assoc_node, a->id, i))
		return -1;
	for (uint32_t c = 0; !user && c < x->assoc_cnt; c++)
		if (c != k && x->assocs[c]->parent_id == a->id &&
		    w->node_cnt < x->assoc_cnt && _tree_add(x, w, c, i))
			return -1;
	return 0;
}

/* The share tree of x->assocs (none without them). -1: out of memory. */
static int _tree(const cli_ge_explain_t *x, _wi_t *w)
{
	w->assoc_node = prism_idmap_create();
	w->nodes = calloc((size_t) x->assoc_cnt + 1, sizeof(*w->nodes));
	if (!w->assoc_node || !w->nodes)
		return -1;
	for (uint32_t k = 0; k < x->assoc_cnt; k++)
		if (!x->assocs[k]->parent_id && !w->node_cnt)
			return _tree_add(x, w, k, PRISM_GE_NONE);
	return 0;
}

/* The share-tree node of the association 'id', or PRISM_GE_NONE. */
static uint32_t _node(const _wi_t *w, uint32_t id)
{
	uint32_t i;

	if (!id || !prism_idmap_get(w->assoc_node, id, &i))
		return PRISM_GE_NONE;
	return i;
}

/* Count the running jobs on their association, user and account. */
static void _running(const cli_ge_explain_t *x, _wi_t *w)
{
	for (uint32_t i = 0; i < x->job_cnt; i++) {
		const slurm_job_info_t *job = &x->jobs[i];
		uint32_t node, h;

		if ((job->job_state & JOB_STATE_BASE) != JOB_RUNNING)
			continue;
		node = _node(w, job->assoc_id);
		if (node != PRISM_GE_NONE)
			w->nodes[node].running++;
		h = prism_ge_find(x->pol, PRISM_GE_USER, job->user_name);
		if (h != PRISM_GE_NONE)
			w->user_running[h]++;
		h = prism_ge_find(x->pol, PRISM_GE_ACCOUNT, job->account);
		if (h != PRISM_GE_NONE)
			w->account_running[h]++;
	}
}

/*
 * The pending jobs the plugin's pass computes (not held, no admin-set
 * priority) into w->jobs, in their first partition. -1: out of memory.
 */
static int _pending(const cli_ge_explain_t *x, _wi_t *w, uint32_t nres)
{
	w->jobs = calloc((size_t) x->job_cnt + 1, sizeof(*w->jobs));
	w->res = calloc((size_t) x->job_cnt + 1, sizeof(*w->res));
	w->amount = calloc((size_t) x->job_cnt * nres + 1,
			   sizeof(*w->amount));
	w->index = prism_idmap_create();
	if (!w->jobs || !w->res || !w->amount || !w->index)
		return -1;
	for (uint32_t i = 0; i < x->job_cnt; i++) {
		const slurm_job_info_t *job = &x->jobs[i];
		prism_ge_job_t *in = &w->jobs[w->n];
		char first[256];
		uint32_t h;

		if (!cli_job_pending(job) || !job->priority ||
		    prism_idmap_get(w->admin, job->job_id, &h))
			continue;
		if (job->partition)
			cli_first_part_copy(first, sizeof(first),
					    job->partition);
		cli_ge_job_inputs(x->pol, job,
				  job->partition ? first : NULL, in,
				  w->amount + (size_t) w->n * nres);
		in->node = _node(w, job->assoc_id);
		if (in->node != PRISM_GE_NONE && !w->nodes[in->node].user)
			in->node = PRISM_GE_NONE;
		if (prism_idmap_put(w->index, job->job_id, w->n))
			return -1;
		w->n++;
	}
	return 0;
}

/* The inputs of the pass; -1: out of memory. */
static int _wi_build(const cli_ge_explain_t *x, _wi_t *w)
{
	uint32_t nres = prism_ge_count(x->pol, PRISM_GE_RESOURCE);

	w->user_running = calloc(
		(size_t) prism_ge_count(x->pol, PRISM_GE_USER) + 1,
		sizeof(*w->user_running));
	w->account_running = calloc(
		(size_t) prism_ge_count(x->pol, PRISM_GE_ACCOUNT) + 1,
		sizeof(*w->account_running));
	w->admin = prism_idmap_create();
	if (!w->user_running || !w->account_running || !w->admin ||
	    _tree(x, w))
		return -1;
	for (uint32_t i = 0; i < x->factor_cnt; i++)
		if (x->factors[i]->direct_prio > 0 &&
		    prism_idmap_put(w->admin, CLI_ROW_JOB_ID(x->factors[i]), 1))
			return -1;
	_running(x, w);
	return _pending(x, w, nres);
}

/* The Slurm priority under the candidate of 'job''s row 'f' ('before':
 * the controller's now). -1 with 'err' set when the core refuses. */
static int _after(const cli_ge_explain_t *x, const _wi_t *w,
		  const slurm_job_info_t *job,
		  const priority_factors_object_t *f, uint32_t before,
		  uint32_t *after, prism_error_t *err)
{
	prism_ge_result_t r;
	uint32_t k, to;

	*after = before;
	if (f->direct_prio > 0 || !prism_idmap_get(w->index, job->job_id, &k))
		return 0;	/* admin-set: kept; not in the pass: as now */
	to = f->partition ? prism_ge_find(x->pol, PRISM_GE_PARTITION,
					  f->partition)
			  : w->jobs[k].partition;
	if (prism_ge_in_partition(x->pol, prism_ge_pass_range(w->core),
				  &w->res[k], w->jobs[k].partition, to, &r,
				  err))
		return -1;
	*after = r.slurm;
	return 0;
}

extern int cli_ge_whatif(const cli_ge_explain_t *x, prism_whatif_job_t *out,
			 uint32_t *cnt, FILE *err_out)
{
	uint32_t nres = prism_ge_count(x->pol, PRISM_GE_RESOURCE);
	const slurm_job_info_t **sorted = cli_jobs_by_id(x->jobs, x->job_cnt);
	prism_error_t err = { "" };
	prism_ge_input_t in;
	_wi_t w;
	int rc = CLI_ERROR;

	memset(&w, 0, sizeof(w));
	*cnt = 0;
	if (!sorted || _wi_build(x, &w) ||
	    !(w.core = prism_ge_pass_create(&err))) {
		fprintf(err_out, "prism: out of memory\n");
		goto out;
	}
	for (uint32_t i = 0; i < w.n; i++)
		w.jobs[i].amount = w.amount + (size_t) i * nres;
	in = (prism_ge_input_t) {
		.pol = x->pol,
		.now = x->now,
		.nodes = w.node_cnt ? w.nodes : NULL,
		.node_cnt = w.node_cnt,
		.user_running = w.user_running,
		.account_running = w.account_running,
	};
	if (prism_ge_pass_run(w.core, &in, w.jobs, w.n, w.res, &err)) {
		fprintf(err_out, "prism: whatif: Grid Engine pass: %s\n",
			err.text);
		goto out;
	}
	for (uint32_t i = 0; i < x->factor_cnt; i++) {
		const priority_factors_object_t *f = x->factors[i];
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, CLI_ROW_JOB_ID(f));
		prism_ge_sprio_t cols;
		uint32_t before, after;

		if (!job || !cli_job_pending(job))
			continue;
		(void) _columns(f, job, &cols, &before);
		if (_after(x, &w, job, f, before, &after, &err)) {
			fprintf(err_out, "prism: job %" PRIu32 ": %s\n",
				job->job_id, err.text);
			goto out;
		}
		out[(*cnt)++] = (prism_whatif_job_t) {
			.id = job->job_id,
			.partition = f->partition,
			.account = job->account,
			.before = before,
			.after = after,
		};
	}
	rc = CLI_OK;
out:
	_wi_free(&w);
	free(sorted);
	return rc;
}
