/*****************************************************************************\
 *  cli_diag.c - the explain view of `prism explain` built from records the
 *  controller sent: each pending job read into the Moab core's job
 *  through the same facts the plugin reads its job record into
 *  (prism_moab_facts.h), its priority recomputed, sprio's columns read
 *  back by the code that wrote them, and the mdiag -p table of
 *  prism_moab_diag. It also holds what the Grid Engine view
 *  (cli_ge_diag.c) shares with it: job lookups, the pending test, sprio's
 *  columns as the core's record and the order of the tables.
 *
 *  Only Slurm's public types are used here, no RPC and no libslurm call,
 *  so tests/cli/test_cli_diag.c can feed it records of its own.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_diag.h"
#include "prism_cli.h"
#include "prism_idmap.h"
#include "prism_moab_diag.h"
#include "prism_moab_facts.h"

/* The core has Slurm's special values as its own (prism_marks.h). */
_Static_assert(PRISM_NICE_OFFSET == NICE_OFFSET, "NICE_OFFSET");
_Static_assert(PRISM_INFINITE == INFINITE, "INFINITE");
_Static_assert(PRISM_NO_VAL == NO_VAL, "NO_VAL");

/* Room for one line of the table and for one job's --long text. */
#define LINE_MAX_LEN 4096
#define EXPLAIN_MAX_LEN 16384

struct cli_jobmap {
	const prism_moab_policy_t *pol;
	prism_idmap_t *uids, *gids;	/* to USER, GROUP handles */
	prism_moab_users_t *users;	/* active jobs per user */
	int64_t now;
};

static uint32_t _base_state(const slurm_job_info_t *job)
{
	return job->job_state & JOB_STATE_BASE;
}

/* ---- shared by the explain views (prism_cli.h) ------------------------ */

extern bool cli_job_pending(const slurm_job_info_t *job)
{
	return _base_state(job) == JOB_PENDING;
}

extern uint32_t cli_job_cpus(const slurm_job_info_t *job)
{
	if (cli_job_pending(job) && job->max_cpus)
		return job->max_cpus;
	return job->num_cpus;
}

static int _cmp_job_id(const void *a, const void *b)
{
	const slurm_job_info_t *x = *(const slurm_job_info_t *const *) a;
	const slurm_job_info_t *y = *(const slurm_job_info_t *const *) b;

	return (x->job_id > y->job_id) - (x->job_id < y->job_id);
}

extern const slurm_job_info_t **cli_jobs_by_id(const slurm_job_info_t *jobs,
					       uint32_t cnt)
{
	const slurm_job_info_t **sorted =
		calloc((size_t) cnt + 1, sizeof(*sorted));

	if (!sorted)
		return NULL;
	for (uint32_t i = 0; i < cnt; i++)
		sorted[i] = &jobs[i];
	qsort(sorted, cnt, sizeof(*sorted), _cmp_job_id);
	return sorted;
}

extern const slurm_job_info_t *cli_job_find(const slurm_job_info_t **sorted,
					    uint32_t cnt, uint32_t id)
{
	slurm_job_info_t key = { .job_id = id };
	const slurm_job_info_t *kp = &key, **hit;

	hit = bsearch(&kp, sorted, cnt, sizeof(*sorted), _cmp_job_id);
	return hit ? *hit : NULL;
}

extern int cli_rank_cmp(uint32_t prio_a, uint32_t id_a, uint32_t prio_b,
			uint32_t id_b)
{
	if (prio_a != prio_b)
		return prio_a > prio_b ? -1 : 1;
	return (id_a > id_b) - (id_a < id_b);
}

extern bool cli_job_asked(const uint32_t *ids, uint32_t cnt, uint32_t id)
{
	if (!cnt)
		return true;
	for (uint32_t i = 0; i < cnt; i++)
		if (ids[i] == id)
			return true;
	return false;
}

extern bool cli_first_part(const char *list, const char *part)
{
	size_t n;

	if (!list || !part)
		return false;
	n = strcspn(list, ",");
	return strlen(part) == n && !strncmp(list, part, n);
}

extern void cli_first_part_copy(char *buf, size_t size, const char *list)
{
	snprintf(buf, size, "%.*s", (int) strcspn(list, ","), list);
}

extern void cli_cols_read(const priority_factors_object_t *row,
			  prism_cols_t *c)
{
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
	static const priority_factors_t none;
	const priority_factors_t *f = row->prio_factors ? row->prio_factors :
							  &none;
#else
	const priority_factors_object_t *f = row;
#endif

	*c = (prism_cols_t) {
		.age = f->priority_age,
		.assoc = f->priority_assoc,
		.fs = f->priority_fs,
		.js = f->priority_js,
		.part = f->priority_part,
		.qos = f->priority_qos,
		.site = f->priority_site,
		.nice = f->nice,
		.direct_prio = row->direct_prio,
		.tres = f->priority_tres,
		.tres_cnt = f->tres_cnt,
	};
	/*
	 * An admin-set priority: Slurm sends the row without factors (site
	 * and nice 0, not NICE_OFFSET), and sprio shows site and nice 0.
	 */
	if (row->direct_prio > 0)
		*c = (prism_cols_t) { .site = NICE_OFFSET, .nice = NICE_OFFSET,
				      .direct_prio = row->direct_prio };
}

/* ---- the Moab view ---------------------------------------------------- */

/*
 * The facts of 'job' at 'now', copied from the public record for
 * prism_moab_job_from_facts() (USER and GROUP handles not looked up; no
 * admin-set priority: sprio has it). Slurm sends the partition's limit
 * for a job without one, and eligible_time is the job's begin time.
 */
static void _facts(const slurm_job_info_t *job, int64_t now,
		   prism_moab_facts_t *f)
{
	*f = (prism_moab_facts_t) {
		.now = now,
		.uid = job->user_id,
		.pending = cli_job_pending(job),
		.configuring = job->job_state & JOB_CONFIGURING,
		.running = _base_state(job) == JOB_RUNNING,
		.suspended = _base_state(job) == JOB_SUSPENDED,
		.held = !job->priority,
		.dependency = job->state_reason == WAIT_DEPENDENCY,
		.begin_time = job->eligible_time,
		.accrue_time = job->accrue_time,
		.start_time = job->start_time,
		.tot_sus_time = -1,	/* not in the public record */
		.pre_sus_time = job->pre_sus_time,
		.suspend_time = job->suspend_time,
		.time_limit = job->time_limit,
		.deadline = job->deadline,
		.cpus = cli_job_cpus(job),
		.min_nodes = job->num_nodes,
		.node_cnt = job->num_nodes,
		.tres_req = job->tres_req_str,
		.disk_per_node = job->pn_min_tmp_disk,
		.nice = job->nice,
		.restart_cnt = job->restart_cnt,
		.user = PRISM_MOAB_NONE,
		.group = PRISM_MOAB_NONE,
		.account = job->account,
		.qos = job->qos,
		.features = job->features,
		.tres_per_job = job->tres_per_job,
		.tres_per_node = job->tres_per_node,
		.tres_per_socket = job->tres_per_socket,
		.tres_per_task = job->tres_per_task,
		.licenses = job->licenses,
	};
}

extern cli_jobmap_t *cli_jobmap_create(const prism_moab_policy_t *pol,
				       const slurm_job_info_t *jobs,
				       uint32_t job_cnt, int64_t now)
{
	cli_jobmap_t *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->pol = pol;
	m->now = now;
	m->uids = prism_idmap_create();
	m->gids = prism_idmap_create();
	m->users = prism_moab_users_create();
	if (!m->uids || !m->gids || !m->users) {
		cli_jobmap_free(m);
		return NULL;
	}
	/* FSJPU, FSPPU, FSPSPU: the user's running and suspended jobs */
	for (uint32_t i = 0; i < job_cnt; i++) {
		prism_moab_facts_t f;

		_facts(&jobs[i], now, &f);
		if (prism_moab_users_count(m->users, &f)) {
			cli_jobmap_free(m);
			return NULL;
		}
	}
	return m;
}

extern void cli_jobmap_free(cli_jobmap_t *m)
{
	if (!m)
		return;
	prism_idmap_free(m->uids);
	prism_idmap_free(m->gids);
	prism_moab_users_free(m->users);
	free(m);
}

/* USER handle: the name the controller sent, else the local one, else
 * "nobody", as Slurm's uid_to_string() gives the plugin. */
static uint32_t _user(cli_jobmap_t *m, const slurm_job_info_t *job)
{
	const char *name = job->user_name;
	struct passwd *pw;
	uint32_t h;

	if (prism_idmap_get(m->uids, job->user_id, &h))
		return h;
	if (!name || !*name) {
		pw = getpwuid((uid_t) job->user_id);
		name = pw ? pw->pw_name : "nobody";
	}
	h = prism_moab_cred_find(m->pol, PRISM_MOAB_USER, name);
	(void) prism_idmap_put(m->uids, job->user_id, h);
	return h;
}

static uint32_t _group(cli_jobmap_t *m, uint32_t gid)
{
	struct group *gr;
	uint32_t h;

	if (prism_idmap_get(m->gids, gid, &h))
		return h;
	gr = getgrgid((gid_t) gid);
	h = gr ? prism_moab_cred_find(m->pol, PRISM_MOAB_GROUP, gr->gr_name)
	       : PRISM_MOAB_NONE;
	(void) prism_idmap_put(m->gids, gid, h);
	return h;
}

extern void cli_job_inputs(cli_jobmap_t *m, const slurm_job_info_t *job,
			   const partition_info_t *part, double direct_prio,
			   prism_moab_job_t *in, prism_moab_totals_t *tot)
{
	prism_moab_part_facts_t pf = { .name = NULL };
	prism_moab_facts_t f;

	_facts(job, m->now, &f);
	f.user = _user(m, job);
	f.group = _group(m, job->group_id);
	f.admin_prio = direct_prio;
	(void) prism_moab_job_from_facts(m->pol, &f, in, NULL);
	if (part)
		pf = (prism_moab_part_facts_t) {
			.name = part->name,
			.prio_job_factor = part->priority_job_factor,
			.total_cpus = part->total_cpus,
			.tres = part->tres_fmt_str,
		};
	(void) prism_moab_job_part(m->pol, part ? &pf : NULL, tot, in, NULL);
	prism_moab_users_fill(m->users, job->user_id, in);
}

/* ---- the table -------------------------------------------------------- */

/* One job of the table. */
typedef struct {
	const slurm_job_info_t *job;
	const priority_factors_object_t *f;	/* its row in sprio */
	const partition_info_t *part;
	uint32_t rows;				/* its rows in sprio */
	prism_moab_result_t res;		/* recomputed */
	prism_moab_diag_row_t row;
} _entry_t;

/* Highest Slurm priority first, as mdiag -p, then by job id. */
static int _cmp_entry(const void *a, const void *b)
{
	const _entry_t *x = a, *y = b;

	return cli_rank_cmp(x->row.slurm, x->job->job_id, y->row.slurm,
			    y->job->job_id);
}

static const partition_info_t *_find_part(const cli_explain_t *x,
					  const char *name)
{
	for (uint32_t i = 0; name && i < x->part_cnt; i++)
		if (x->parts[i].name && !strcmp(x->parts[i].name, name))
			return &x->parts[i];
	return NULL;
}

/*
 * The Slurm priority of sprio's row 'f' and its columns into 'cols'
 * (prism_moab_cols_decode()); an admin-set priority marks the row.
 * Returns false when the row carries no columns (the plugin could not
 * compute the job).
 */
static bool _columns(const priority_factors_object_t *f,
		     const slurm_job_info_t *job, prism_moab_diag_row_t *row,
		     prism_moab_columns_t *cols)
{
	prism_cols_t c;
	int kind;

	cli_cols_read(f, &c);
	kind = prism_moab_cols_decode(&c, job->priority, cols, &row->slurm,
				      NULL);
	row->sys = kind == PRISM_COLS_ADMIN;
	return kind == PRISM_COLS_ADMIN || kind == PRISM_COLS_POLICY;
}

/* Recompute 'e' at the plugin's last pass and fill its table row. */
static int _compute(const cli_explain_t *x, cli_jobmap_t *m, _entry_t *e,
		    FILE *err_out)
{
	const prism_moab_params_t *p = prism_moab_policy_params(x->pol);
	prism_moab_pass_t pass = { .pol = x->pol, .usage = x->usage,
				   .now = x->now };
	prism_moab_totals_t tot;
	prism_moab_job_t in;
	prism_moab_columns_t cols;
	prism_error_t err = { "" };
	bool known;

	memset(&e->row, 0, sizeof(e->row));
	snprintf(e->row.label, sizeof(e->row.label), "%" PRIu32,
		 e->job->job_id);
	known = _columns(e->f, e->job, &e->row, &cols);
	cli_job_inputs(m, e->job, e->part, e->f->direct_prio, &in, &tot);
	if (prism_moab_prio(&pass, &in, &e->res, &err)) {
		fprintf(err_out, "prism: job %" PRIu32 ": %s\n", e->job->job_id,
			err.text);
		return CLI_ERROR;
	}
	prism_moab_diag_row_fill(&e->row, x->pol, &e->res, &cols);
	e->row.comp_known = known;
	if (!x->usage && p->fs_policy != PRISM_MOAB_FS_OFF)
		for (int s = PRISM_MS_FSUSER; s <= PRISM_MS_FSCLASS; s++)
			e->row.unknown[s] = true;
	return CLI_OK;
}

static const char *_state_name(const slurm_job_info_t *job)
{
	static const char *names[] = {
		"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED",
		"FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
		"DEADLINE", "OUT_OF_MEMORY",
	};
	uint32_t st = _base_state(job);

	return st < sizeof(names) / sizeof(names[0]) ? names[st] : "UNKNOWN";
}

extern void cli_job_why_unranked(const slurm_job_info_t *job, uint32_t id,
				 FILE *err)
{
	if (!job)
		fprintf(err, "prism: job %" PRIu32 ": not found (or not visible to you)\n",
			id);
	else if (!cli_job_pending(job))
		fprintf(err, "prism: job %" PRIu32 ": not pending (%s)\n", id,
			_state_name(job));
	else if (!job->priority)
		fprintf(err, "prism: job %" PRIu32 ": held (priority 0), not ranked%s%s\n",
			id, job->state_desc ? ": " : "",
			job->state_desc ? job->state_desc : "");
	else
		fprintf(err, "prism: job %" PRIu32 ": pending but not ranked by the controller (not eligible yet: begin time or dependency)\n",
			id);
}

/*
 * Errors for the jobs asked for that have no row ('shown' flags the jobs
 * of x->jobs that have one), or, when none was asked for, a note of how
 * many pending jobs are not ranked. Returns how many jobs asked for have
 * no row.
 */
static uint32_t _notes_missing(const cli_explain_t *x,
			       const slurm_job_info_t **sorted,
			       const bool *shown, FILE *out, FILE *err)
{
	uint32_t missing = 0, hidden = 0;

	for (uint32_t i = 0; !x->id_cnt && i < x->job_cnt; i++)
		hidden += cli_job_pending(&x->jobs[i]) && !shown[i];
	if (hidden)
		fprintf(out, "%" PRIu32 " pending job%s held or not eligible yet: not ranked, not shown (ask for one by its id)\n",
			hidden, hidden == 1 ? " is" : "s are");
	for (uint32_t i = 0; i < x->id_cnt; i++) {
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, x->ids[i]);

		if (job && shown[job - x->jobs])
			continue;
		missing++;
		cli_job_why_unranked(job, x->ids[i], err);
	}
	return missing;
}

/* Why the recomputed priority of 'e' may differ from the controller's. */
static const char *_why(const cli_explain_t *x, const _entry_t *e)
{
	if (!e->row.comp_known)
		return "the controller has no factors for it (see slurmctld's log)";
	if (e->row.unknown[PRISM_MS_FSUSER])
		return "fair-share usage unknown here";
	if (e->job->submit_time > x->now)
		return "submitted after the plugin's last pass";
	return "the job, its partition or the policy changed since the plugin's last pass";
}

static void _notes(const cli_explain_t *x, const _entry_t *entries,
		   uint32_t n, FILE *out)
{
	for (uint32_t k = 0; k < n; k++) {
		const _entry_t *e = &entries[k];

		if (e->rows > 1)
			fprintf(out, "job %" PRIu32 ": pending in %s; shown in %s (sprio shows one row per partition)\n",
				e->job->job_id, e->job->partition,
				e->f->partition ? e->f->partition : "?");
		if (e->res.reject)
			fprintf(out, "job %" PRIu32 ": recomputed Moab priority %" PRId64 " is negative and REJECTNEGPRIOJOBS holds it, controller %" PRIu32 ": %s\n",
				e->job->job_id, e->res.prio, e->row.slurm,
				_why(x, e));
		else if (e->res.slurm != e->row.slurm)
			fprintf(out, "job %" PRIu32 ": recomputed %" PRIu32 ", controller %" PRIu32 ": %s\n",
				e->job->job_id, e->res.slurm, e->row.slurm,
				_why(x, e));
	}
}

static int _long(const cli_explain_t *x, const _entry_t *entries, uint32_t n,
		 FILE *out, FILE *err_out)
{
	char *buf = malloc(EXPLAIN_MAX_LEN);
	prism_error_t err = { "" };

	if (!buf) {
		fprintf(err_out, "prism: out of memory\n");
		return CLI_ERROR;
	}
	for (uint32_t k = 0; k < n; k++) {
		const _entry_t *e = &entries[k];

		if (prism_moab_explain(x->pol, &e->res, buf, EXPLAIN_MAX_LEN,
				       &err) < 0) {
			fprintf(err_out, "prism: job %" PRIu32 ": %s\n",
				e->job->job_id, err.text);
			free(buf);
			return CLI_ERROR;
		}
		fprintf(out, "\njob %" PRIu32 " in %s, recomputed: %s",
			e->job->job_id,
			e->part && e->part->name ? e->part->name : "?", buf);
	}
	free(buf);
	return CLI_OK;
}

/* Print the table of the 'n' 'entries'. */
static int _table(const cli_explain_t *x, const _entry_t *entries,
		  uint32_t n, FILE *out, FILE *err_out)
{
	prism_moab_diag_cols_t cols;
	prism_moab_diag_sum_t sum;
	prism_error_t err = { "" };
	char line[LINE_MAX_LEN];
	bool sys = false;

	memset(&sum, 0, sizeof(sum));
	prism_moab_diag_cols(x->pol, &cols);
	fprintf(out, "diagnosing job priority information (partition: ALL)\n\n");
	if (prism_moab_diag_header(&cols, line, sizeof(line), &err) < 0)
		goto fail;
	fputs(line, out);
	if (prism_moab_diag_weights(&cols, x->pol, line, sizeof(line),
				    &err) < 0)
		goto fail;
	fputs(line, out);
	fputs("\n", out);
	for (uint32_t k = 0; k < n; k++) {
		if (prism_moab_diag_row(&cols, &entries[k].row, line,
					sizeof(line), &err) < 0)
			goto fail;
		fputs(line, out);
		prism_moab_diag_add(&sum, x->pol, &entries[k].row);
		sys |= entries[k].row.sys;
	}
	if (prism_moab_diag_footer(&cols, &sum, line, sizeof(line), &err) < 0)
		goto fail;
	fputs("\n", out);
	fputs(line, out);
	if (sys)
		fputs("\n* indicates system prio set on job\n", out);
	return CLI_OK;
fail:
	fprintf(err_out, "prism: %s\n", err.text);
	return CLI_ERROR;
}

/* The partition of 'e': its sprio row's, else the job's first. */
static const partition_info_t *_entry_part(const cli_explain_t *x,
					   const _entry_t *e)
{
	const partition_info_t *part = _find_part(x, e->f->partition);
	char first[256];

	if (part || !e->job->partition)
		return part;
	cli_first_part_copy(first, sizeof(first), e->job->partition);
	return _find_part(x, first);
}

/*
 * The jobs of the table into 'entries' (room for one per sprio row): one
 * per pending job asked for with a row in sprio, the row of its first
 * partition when it has several. Returns how many, or -1 when out of
 * memory.
 */
static int64_t _collect(const cli_explain_t *x,
			const slurm_job_info_t **sorted, _entry_t *entries)
{
	prism_idmap_t *index = prism_idmap_create();	/* job id -> entry */
	uint32_t n = 0;

	if (!index)
		return -1;
	for (uint32_t i = 0; i < x->factor_cnt; i++) {
		const priority_factors_object_t *f = x->factors[i];
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, CLI_ROW_JOB_ID(f));
		uint32_t k;
		bool better;

		if (!job || !cli_job_pending(job) ||
		    !cli_job_asked(x->ids, x->id_cnt, job->job_id))
			continue;
		if (!prism_idmap_get(index, job->job_id, &k)) {
			if (prism_idmap_put(index, job->job_id, n)) {
				prism_idmap_free(index);
				return -1;
			}
			k = n++;
			entries[k] = (_entry_t) { .job = job, .f = f };
		}
		better = cli_first_part(job->partition, f->partition) &&
			 !cli_first_part(job->partition,
					 entries[k].f->partition);
		if (better)
			entries[k].f = f;
		entries[k].rows++;
	}
	prism_idmap_free(index);
	for (uint32_t k = 0; k < n; k++)
		entries[k].part = _entry_part(x, &entries[k]);
	return n;
}

extern int cli_explain_print(const cli_explain_t *x, FILE *out, FILE *err)
{
	const slurm_job_info_t **sorted = NULL;
	_entry_t *entries = NULL;
	cli_jobmap_t *m = NULL;
	bool *shown = NULL;
	uint32_t n, missing;
	int64_t got;
	int rc = CLI_ERROR;

	sorted = cli_jobs_by_id(x->jobs, x->job_cnt);
	shown = calloc(x->job_cnt + 1, sizeof(*shown));
	entries = calloc(x->factor_cnt + 1, sizeof(*entries));
	m = cli_jobmap_create(x->pol, x->jobs, x->job_cnt, x->now);
	if (!sorted || !shown || !entries || !m) {
		fprintf(err, "prism: out of memory\n");
		goto out;
	}
	got = _collect(x, sorted, entries);
	if (got < 0) {
		fprintf(err, "prism: out of memory\n");
		goto out;
	}
	n = (uint32_t) got;
	for (uint32_t k = 0; k < n; k++) {
		shown[entries[k].job - x->jobs] = true;
		if (_compute(x, m, &entries[k], err))
			goto out;
	}
	qsort(entries, n, sizeof(*entries), _cmp_entry);

	if (n && _table(x, entries, n, out, err))
		goto out;
	if (!n)
		fprintf(out, "no pending job to show\n");
	if (n || x->id_cnt)
		fputs("\n", out);
	_notes(x, entries, n, out);
	missing = _notes_missing(x, sorted, shown, out, err);
	rc = x->long_fmt ? _long(x, entries, n, out, err) : CLI_OK;
	if (!rc && missing)
		rc = CLI_ERROR;
out:
	cli_jobmap_free(m);
	free(entries);
	free(shown);
	free(sorted);
	return rc;
}

/* The TRES names and weights of sprio's row 'f' (Slurm versions differ). */
extern void cli_row_tres(const priority_factors_object_t *f, char ***names,
			 double **weights)
{
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
	*names = f->prio_factors ? f->prio_factors->tres_names : NULL;
	*weights = f->prio_factors ? f->prio_factors->tres_weights : NULL;
#else
	*names = f->tres_names;
	*weights = f->tres_weights;
#endif
}

/* ---- prism whatif under a candidate Moab policy ----------------------- */

/*
 * The partition of sprio's row 'f' of 'job': the row's, else the job's
 * first.
 */
static const partition_info_t *_row_part(const cli_explain_t *x,
					 const priority_factors_object_t *f,
					 const slurm_job_info_t *job)
{
	const partition_info_t *part = _find_part(x, f->partition);
	char first[256];

	if (part || !job->partition)
		return part;
	cli_first_part_copy(first, sizeof(first), job->partition);
	return _find_part(x, first);
}

extern int cli_moab_whatif(const cli_explain_t *x, prism_whatif_job_t *out,
			   uint32_t *cnt, FILE *err_out)
{
	const slurm_job_info_t **sorted = cli_jobs_by_id(x->jobs, x->job_cnt);
	prism_moab_pass_t pass = { .pol = x->pol, .usage = x->usage,
				   .now = x->now };
	cli_jobmap_t *m = cli_jobmap_create(x->pol, x->jobs, x->job_cnt,
					    x->now);
	int rc = CLI_ERROR;

	*cnt = 0;
	if (!sorted || !m) {
		fprintf(err_out, "prism: out of memory\n");
		goto out;
	}
	for (uint32_t i = 0; i < x->factor_cnt; i++) {
		const priority_factors_object_t *f = x->factors[i];
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, CLI_ROW_JOB_ID(f));
		prism_moab_diag_row_t row;
		prism_moab_columns_t cols;
		prism_moab_result_t res;
		prism_moab_totals_t tot;
		prism_moab_job_t in;
		prism_error_t err = { "" };

		if (!job || !cli_job_pending(job))
			continue;
		memset(&row, 0, sizeof(row));
		(void) _columns(f, job, &row, &cols);
		/* the plugin's inputs of the job in this row's partition,
		 * an admin-set priority as Moab's system priority */
		cli_job_inputs(m, job, _row_part(x, f, job), f->direct_prio,
			       &in, &tot);
		if (prism_moab_prio(&pass, &in, &res, &err)) {
			fprintf(err_out, "prism: job %" PRIu32 ": %s\n",
				job->job_id, err.text);
			goto out;
		}
		out[(*cnt)++] = (prism_whatif_job_t) {
			.id = job->job_id,
			.partition = f->partition,
			.account = job->account,
			.before = row.slurm,
			/* REJECTNEGPRIOJOBS: the plugin holds it (0) */
			.after = res.reject ? 0 : res.slurm,
		};
	}
	rc = CLI_OK;
out:
	cli_jobmap_free(m);
	free(sorted);
	return rc;
}
