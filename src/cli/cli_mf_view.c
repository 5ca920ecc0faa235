/*****************************************************************************\
 *  cli_mf_view.c - the explain view of `prism explain` under the
 *  multifactor policy (no policy= in PriorityParameters): for each
 *  pending job and each of its sprio rows (one per partition) the terms
 *  as the controller computed them, their factors, weights and inputs,
 *  their sum (prism_mf_sum) and, from the association records, the
 *  fair-share path from the root to the job's association with Fair
 *  Tree's rank and why (prism_mf_rank). Text for people, --json for
 *  scripts.
 *
 *  Only Slurm's public types are used here, no RPC and no libslurm call
 *  (cli_explain.c loads the records).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <pwd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/slurmdb.h>

#include "cli_diag.h"
#include "cli_mf_view.h"
#include "prism_buf.h"
#include "prism_cli.h"
#include "prism_idmap.h"
#include "prism_json.h"
#include "prism_mf_explain.h"

/* Room for one term's inputs and one association's name. */
#define INPUTS_LEN 256
#define NAME_LEN 192
/* Terms of one row: the seven weighted ones, site, nice, then TRES. */
#define FIXED_TERMS 8

/* One term of a row. */
typedef struct {
	char name[64];
	double factor;
	double weight;
	double value;
	bool weighted;		/* has a weight (site and nice: none) */
	char inputs[INPUTS_LEN];
} _term_t;

/* The association records as a tree for prism_mf_rank(). */
typedef struct {
	slurmdb_assoc_rec_t **rec;	/* by index */
	prism_mf_assoc_t *a;		/* same index */
	uint32_t n;
	prism_idmap_t *by_id;		/* association id -> index */
	bool complete;			/* root and every parent seen */
} _tree_t;

/* ---- small helpers ---------------------------------------------------- */

static const char *_s(const char *s)
{
	return s && *s ? s : "?";
}

/* 'secs' as [D-]HH:MM:SS into 'buf'. */
static void _duration(char *buf, size_t size, int64_t secs)
{
	if (secs < 0)
		secs = 0;
	if (secs >= 86400)
		snprintf(buf, size, "%" PRId64 "-%02d:%02d:%02d",
			 secs / 86400, (int) (secs % 86400 / 3600),
			 (int) (secs % 3600 / 60), (int) (secs % 60));
	else
		snprintf(buf, size, "%02d:%02d:%02d", (int) (secs / 3600),
			 (int) (secs % 3600 / 60), (int) (secs % 60));
}

/* The user of 'job': the name the controller sent, else the local one. */
static const char *_user(const slurm_job_info_t *job)
{
	struct passwd *pw;

	if (job->user_name && *job->user_name)
		return job->user_name;
	pw = getpwuid((uid_t) job->user_id);
	return pw ? pw->pw_name : "?";
}

static void _when(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, size, "%" PRId64, (int64_t) t);
}

/* Is 'v' one of Slurm's "not set" values (NO_VAL, INFINITE)? */
static bool _unset_ld(long double v)
{
	return fabsl(v - (long double) NO_VAL) < 1 ||
	       fabsl(v - (long double) INFINITE) < 1;
}

/* The QOS of sprio's row 'f' of 'job' (24.11 rows carry their own). */
static const char *_row_qos(const priority_factors_object_t *f,
			    const slurm_job_info_t *job)
{
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
	if (f->qos)
		return f->qos;
#endif
	return job->qos;
}

static const partition_info_t *_part(const cli_mf_explain_t *x,
				     const char *name)
{
	for (uint32_t i = 0; name && i < x->part_cnt; i++)
		if (x->parts[i].name && !strcmp(x->parts[i].name, name))
			return &x->parts[i];
	return NULL;
}

static const slurmdb_qos_rec_t *_qos(const cli_mf_explain_t *x,
				     const char *name)
{
	for (uint32_t i = 0; name && i < x->qos_cnt; i++)
		if (x->qos[i]->name && !strcmp(x->qos[i]->name, name))
			return x->qos[i];
	return NULL;
}

/* The value of TRES 'name' in the list "cpu=4,mem=1G" 'list' into 'buf'
 * ("" when absent). */
static void _tres_req(const char *list, const char *name, char *buf,
		      size_t size)
{
	size_t n = strlen(name);
	const char *p = list;

	buf[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=') {
			p += n + 1;
			snprintf(buf, size, "%.*s", (int) strcspn(p, ","), p);
			return;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
}

/* ---- the association tree --------------------------------------------- */

static void _tree_free(_tree_t *t)
{
	free(t->rec);
	free(t->a);
	prism_idmap_free(t->by_id);
	memset(t, 0, sizeof(*t));
}

/* Index of the parent of 'rec' in 't', or PRISM_MF_NONE. */
static uint32_t _parent(const _tree_t *t, const slurmdb_assoc_rec_t *rec)
{
	uint32_t k;

	if (!rec->parent_id || !prism_idmap_get(t->by_id, rec->parent_id, &k))
		return PRISM_MF_NONE;
	return k;
}

static bool _is_root(const slurmdb_assoc_rec_t *rec)
{
	return !rec->user && rec->acct && !strcmp(rec->acct, "root") &&
	       !rec->parent_id;
}

/* The association records of 'x' into 't'; -1 when out of memory. */
static int _tree_build(const cli_mf_explain_t *x, _tree_t *t)
{
	uint32_t roots = 0;

	memset(t, 0, sizeof(*t));
	t->rec = calloc((size_t) x->assoc_cnt + 1, sizeof(*t->rec));
	t->a = calloc((size_t) x->assoc_cnt + 1, sizeof(*t->a));
	t->by_id = prism_idmap_create();
	if (!t->rec || !t->a || !t->by_id)
		return -1;
	for (uint32_t i = 0; i < x->assoc_cnt; i++) {
		if (prism_idmap_put(t->by_id, x->assocs[i]->id, t->n))
			return -1;
		t->rec[t->n++] = x->assocs[i];
	}
	t->complete = true;
	for (uint32_t i = 0; i < t->n; i++) {
		const slurmdb_assoc_usage_t *u = t->rec[i]->usage;

		t->a[i] = (prism_mf_assoc_t) {
			.parent = _parent(t, t->rec[i]),
			.is_user = t->rec[i]->user != NULL,
			.level_fs = u ? (double) u->level_fs : 0,
			.fs_factor = u ? u->fs_factor : 0,
		};
		if (_is_root(t->rec[i]))
			roots++;
		else if (t->a[i].parent == PRISM_MF_NONE)
			t->complete = false;
	}
	t->complete &= roots == 1;
	return 0;
}

/* "user (account)" or "account" of association 'i'. */
static void _assoc_name(const _tree_t *t, uint32_t i, char *buf, size_t size)
{
	const slurmdb_assoc_rec_t *rec = t->rec[i];

	if (rec->user)
		snprintf(buf, size, "%s (%s%s%s)", rec->user, _s(rec->acct),
			 rec->partition ? ", partition " : "",
			 rec->partition ? rec->partition : "");
	else
		snprintf(buf, size, "%s", _s(rec->acct));
}

/* Index of the job's association in 't', or PRISM_MF_NONE. */
static uint32_t _job_assoc(const _tree_t *t, const slurm_job_info_t *job)
{
	uint32_t k;

	if (!t->by_id || !job->assoc_id ||
	    !prism_idmap_get(t->by_id, job->assoc_id, &k))
		return PRISM_MF_NONE;
	return k;
}

/* ---- the terms of one row --------------------------------------------- */

static bool _flag(const cli_mf_explain_t *x, uint16_t flag)
{
	return x->conf->priority_flags & flag;
}

static void _term(_term_t *t, const char *name, double value, double weight,
		  bool weighted)
{
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->value = value;
	t->weight = weight;
	t->weighted = weighted;
	t->factor = weighted ? prism_mf_factor(value, weight) : 0;
	t->inputs[0] = '\0';
}

static void _age_inputs(const cli_mf_explain_t *x,
			const slurm_job_info_t *job, char *buf, size_t size)
{
	char when[64], ago[32], max[32];

	_duration(max, sizeof(max), x->conf->priority_max_age);
	if (!job->accrue_time) {
		snprintf(buf, size, "not accruing age yet; PriorityMaxAge %s%s",
			 max,
			 _flag(x, PRIORITY_FLAGS_ACCRUE_ALWAYS) ?
				 ", ACCRUE_ALWAYS" : "");
		return;
	}
	_when(when, sizeof(when), job->accrue_time);
	_duration(ago, sizeof(ago), (int64_t) (x->now - job->accrue_time));
	snprintf(buf, size, "accruing since %s (%s %s); PriorityMaxAge %s%s",
		 when, ago, x->pass_known ? "at the pass" : "ago", max,
		 _flag(x, PRIORITY_FLAGS_ACCRUE_ALWAYS) ? ", ACCRUE_ALWAYS" :
							  "");
}

static void _size_inputs(const cli_mf_explain_t *x,
			 const slurm_job_info_t *job, char *buf, size_t size)
{
	char limit[32] = "";
	uint32_t cpus = cli_job_cpus(job);

	if (_flag(x, PRIORITY_FLAGS_SIZE_RELATIVE))
		snprintf(limit, sizeof(limit), ", time limit %" PRIu32 " min",
			 job->time_limit);
	snprintf(buf, size, "%" PRIu32 " CPU%s, %" PRIu32 " node%s%s; %s%s",
		 cpus, cpus == 1 ? "" : "s", job->num_nodes,
		 job->num_nodes == 1 ? "" : "s", limit,
		 x->conf->priority_favor_small ? "PriorityFavorSmall" :
						 "favour large",
		 _flag(x, PRIORITY_FLAGS_SIZE_RELATIVE) ?
			 ", SMALL_RELATIVE_TO_TIME" : "");
}

static const char *_norm(const cli_mf_explain_t *x, uint16_t flag)
{
	return _flag(x, flag) ? "raw (NO_NORMAL flag)" : "over the highest";
}

static void _part_inputs(const cli_mf_explain_t *x,
			 const priority_factors_object_t *f, char *buf,
			 size_t size)
{
	const partition_info_t *p = _part(x, f->partition);

	if (!p) {
		snprintf(buf, size, "partition %s (not visible)",
			 _s(f->partition));
		return;
	}
	snprintf(buf, size, "partition %s PriorityJobFactor %u, %s", p->name,
		 (unsigned) p->priority_job_factor,
		 _norm(x, PRIORITY_FLAGS_NO_NORMAL_PART));
}

static void _qos_inputs(const cli_mf_explain_t *x, const char *name,
			char *buf, size_t size)
{
	const slurmdb_qos_rec_t *q = _qos(x, name);

	if (!q)
		snprintf(buf, size, "QOS %s (priority not visible)", _s(name));
	else
		snprintf(buf, size, "QOS %s priority %" PRIu32 ", %s", q->name,
			 q->priority, _norm(x, PRIORITY_FLAGS_NO_NORMAL_QOS));
}

static void _assoc_inputs(const cli_mf_explain_t *x, const _tree_t *t,
			  const slurm_job_info_t *job, char *buf, size_t size)
{
	uint32_t k = _job_assoc(t, job);
	char name[NAME_LEN];

	if (k == PRISM_MF_NONE) {
		snprintf(buf, size, "account %s (association not visible)",
			 _s(job->account));
		return;
	}
	_assoc_name(t, k, name, sizeof(name));
	if (t->rec[k]->priority == NO_VAL || t->rec[k]->priority == INFINITE)
		snprintf(buf, size, "%s: no priority set", name);
	else
		snprintf(buf, size, "%s priority %" PRIu32 ", %s", name,
			 t->rec[k]->priority,
			 _norm(x, PRIORITY_FLAGS_NO_NORMAL_ASSOC));
}

static void _fs_inputs(const _tree_t *t, const slurm_job_info_t *job,
		       char *buf, size_t size)
{
	uint32_t k = _job_assoc(t, job);
	char name[NAME_LEN];

	if (k == PRISM_MF_NONE) {
		snprintf(buf, size, "association not visible (see below)");
		return;
	}
	_assoc_name(t, k, name, sizeof(name));
	snprintf(buf, size, "%s: fair-share factor %.6f (path below)", name,
		 t->a[k].fs_factor);
}

/*
 * The terms of sprio's row 'f' of 'job' into 'terms' (room for
 * FIXED_TERMS + the row's TRES); returns how many.
 */
static uint32_t _terms(const cli_mf_explain_t *x, const _tree_t *t,
		       const slurm_job_info_t *job,
		       const priority_factors_object_t *f,
		       const prism_cols_t *c, _term_t *terms)
{
	const slurm_conf_t *cf = x->conf;
	char **names, req[64];
	double *weights;
	uint32_t n = 0;

	_term(&terms[n], "age", c->age, cf->priority_weight_age, true);
	_age_inputs(x, job, terms[n++].inputs, INPUTS_LEN);
	_term(&terms[n], "assoc", c->assoc, cf->priority_weight_assoc, true);
	_assoc_inputs(x, t, job, terms[n++].inputs, INPUTS_LEN);
	_term(&terms[n], "fairshare", c->fs, cf->priority_weight_fs, true);
	_fs_inputs(t, job, terms[n++].inputs, INPUTS_LEN);
	_term(&terms[n], "jobsize", c->js, cf->priority_weight_js, true);
	_size_inputs(x, job, terms[n++].inputs, INPUTS_LEN);
	_term(&terms[n], "partition", c->part, cf->priority_weight_part, true);
	_part_inputs(x, f, terms[n++].inputs, INPUTS_LEN);
	_term(&terms[n], "qos", c->qos, cf->priority_weight_qos, true);
	_qos_inputs(x, _row_qos(f, job), terms[n++].inputs, INPUTS_LEN);
	cli_row_tres(f, &names, &weights);
	for (uint32_t i = 0; c->tres && i < c->tres_cnt; i++) {
		char name[64];

		snprintf(name, sizeof(name), "tres %s",
			 names && names[i] ? names[i] : "?");
		_term(&terms[n], name, c->tres[i], weights ? weights[i] : 0,
		      true);
		_tres_req(job->tres_req_str, names && names[i] ? names[i] : "",
			  req, sizeof(req));
		snprintf(terms[n++].inputs, INPUTS_LEN, "requests %s, %s",
			 req[0] ? req : "none",
			 _norm(x, PRIORITY_FLAGS_NO_NORMAL_TRES));
	}
	_term(&terms[n], "site", (double) ((int64_t) c->site - NICE_OFFSET), 0,
	      false);
	snprintf(terms[n++].inputs, INPUTS_LEN, "site factor %" PRId64,
		 (int64_t) c->site - NICE_OFFSET);
	_term(&terms[n], "nice", (double) ((int64_t) NICE_OFFSET - c->nice),
	      0, false);
	snprintf(terms[n++].inputs, INPUTS_LEN, "nice %" PRId64,
		 (int64_t) c->nice - NICE_OFFSET);
	return n;
}

/* ---- one block: a job in one partition -------------------------------- */

typedef struct {
	const slurm_job_info_t *job;
	const priority_factors_object_t *f;
	uint32_t rows;			/* the job's rows in sprio */
	prism_cols_t c;
	prism_mf_sum_t sum;
	bool adds_up;
	_term_t *terms;
	uint32_t n;
} _block_t;

/* The fair-share path of association 'k': indexes from the root down
 * into 'path' (room for t->n); returns how many. */
static uint32_t _path(const _tree_t *t, uint32_t k, uint32_t *path)
{
	uint32_t n = 0;

	for (uint32_t i = k; i != PRISM_MF_NONE && n < t->n;
	     i = t->a[i].parent)
		path[n++] = i;
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t tmp = path[i];

		path[i] = path[n - 1 - i];
		path[n - 1 - i] = tmp;
	}
	return n;
}

static bool _fair_tree(const cli_mf_explain_t *x)
{
	return _flag(x, PRIORITY_FLAGS_FAIR_TREE) &&
	       !_flag(x, PRIORITY_FLAGS_DEPTH_OBLIVIOUS);
}

/* ---- text ------------------------------------------------------------- */

static void _txt_num_ld(FILE *out, long double v, int width)
{
	if (_unset_ld(v))
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.6Lf", width, v);
}

static void _txt_path_row(FILE *out, const _tree_t *t, uint32_t i)
{
	const slurmdb_assoc_rec_t *rec = t->rec[i];
	const slurmdb_assoc_usage_t *u = rec->usage;
	char name[NAME_LEN], shares[16];

	_assoc_name(t, i, name, sizeof(name));
	if (_is_root(rec))
		snprintf(shares, sizeof(shares), "-");
	else if (rec->shares_raw == SLURMDB_FS_USE_PARENT)
		snprintf(shares, sizeof(shares), "parent");
	else
		snprintf(shares, sizeof(shares), "%" PRIu32, rec->shares_raw);
	fprintf(out, "    %-24s %10s", name, shares);
	if (!u) {
		fprintf(out, "  (usage not sent)\n");
		return;
	}
	_txt_num_ld(out, u->shares_norm, 11);
	fprintf(out, " %13.0Lf", u->usage_raw);
	_txt_num_ld(out, u->usage_norm, 10);
	_txt_num_ld(out, u->usage_efctv, 11);
	if (rec->user)
		_txt_num_ld(out, u->fs_factor, 10);
	else
		fprintf(out, " %10s", "-");	/* accounts have none */
	_txt_num_ld(out, u->level_fs, 14);
	fputc('\n', out);
}

static void _txt_decider(FILE *out, const _tree_t *t, const char *side,
			 const prism_mf_decider_t *d)
{
	char other[NAME_LEN], common[NAME_LEN], mine[NAME_LEN],
		theirs[NAME_LEN];

	_assoc_name(t, d->other, other, sizeof(other));
	_assoc_name(t, d->mine, mine, sizeof(mine));
	_assoc_name(t, d->theirs, theirs, sizeof(theirs));
	if (d->common == PRISM_MF_NONE)
		snprintf(common, sizeof(common), "the top");
	else
		_assoc_name(t, d->common, common, sizeof(common));
	if (d->tie)
		fprintf(out, "    %s: %s; under %s, %s and %s have the same level fair-share %.6g: the tree's order decided\n",
			side, other, common, mine, theirs,
			t->a[d->mine].level_fs);
	else
		fprintf(out, "    %s: %s; under %s, %s has level fair-share %.6g %s %s's %.6g\n",
			side, other, common, mine, t->a[d->mine].level_fs,
			t->a[d->mine].level_fs < t->a[d->theirs].level_fs ?
				"<" : ">",
			theirs, t->a[d->theirs].level_fs);
}

static void _txt_rank(FILE *out, const _tree_t *t, uint32_t k)
{
	prism_error_t err = { "" };
	prism_mf_rank_t r;

	if (!t->complete) {
		fprintf(out, "  Fair Tree rank: not available (the association tree is not fully visible to you)\n");
		return;
	}
	if (prism_mf_rank(t->a, t->n, k, &r, &err)) {
		fprintf(out, "  Fair Tree rank: not available (%s)\n", err.text);
		return;
	}
	fprintf(out, "  Fair Tree rank %" PRIu32 " of %" PRIu32 " user associations (fair-share factor %.6f = %.0f/%" PRIu32 ")%s",
		r.rank, r.users, t->a[k].fs_factor,
		t->a[k].fs_factor * r.users, r.users, r.tied ? "" : "\n");
	if (r.tied)
		fprintf(out, ", shared with %" PRIu32 " other%s\n", r.tied,
			r.tied == 1 ? "" : "s");
	if (r.has_above)
		_txt_decider(out, t, "ranked above it", &r.above);
	if (r.has_below)
		_txt_decider(out, t, "ranked below it", &r.below);
}

static void _txt_fairshare(const cli_mf_explain_t *x, const _tree_t *t,
			   const _block_t *b, FILE *out)
{
	uint32_t k = _job_assoc(t, b->job), n, *path;

	if (!x->assocs_read) {
		fprintf(out, "  fair-share path: not available: %s\n",
			_s(x->assoc_err));
		return;
	}
	if (k == PRISM_MF_NONE) {
		fprintf(out, "  fair-share path: not available: association %" PRIu32 " of the job is not visible to you\n",
			b->job->assoc_id);
		return;
	}
	path = calloc((size_t) t->n + 1, sizeof(*path));
	if (!path) {
		fprintf(out, "  fair-share path: not available: out of memory\n");
		return;
	}
	n = _path(t, k, path);
	fprintf(out, "  fair-share path (%s):\n",
		_fair_tree(x) ? "Fair Tree" :
		"classic: factor 2^(-effective usage / norm shares)");
	fprintf(out, "    %-24s %10s %11s %13s %10s %11s %10s %14s\n",
		"association", "raw shares", "norm shares", "raw usage",
		"norm usage", "efctv usage", "fs factor", "level fs");
	for (uint32_t i = 0; i < n; i++)
		_txt_path_row(out, t, path[i]);
	if (!_is_root(t->rec[path[0]])) {
		char name[NAME_LEN];

		_assoc_name(t, path[0], name, sizeof(name));
		fprintf(out, "    (the associations above %s are not visible to you)\n",
			name);
	}
	free(path);
	if (_fair_tree(x))
		_txt_rank(out, t, k);
}

static void _txt_sum(const _block_t *b, FILE *out)
{
	uint32_t shown = 0;

	fprintf(out, "  %-14s", "sum");
	for (uint32_t i = 0; i < b->n; i++) {
		double v = b->terms[i].value;

		if (v == 0)
			continue;
		if (shown++)
			fprintf(out, " %c %.2f", v < 0 ? '-' : '+', fabs(v));
		else
			fprintf(out, "%.2f", v);
	}
	fprintf(out, "%s = %.2f", shown ? "" : "0", b->sum.sum);
	if (b->sum.clamped < 0)
		fprintf(out, ", raised to 1 (0 means held)");
	else if (b->sum.clamped > 0)
		fprintf(out, ", lowered to 4294967295");
	if (b->rows > 1)
		fprintf(out, " -> %" PRIu32 " in %s (the job's priority field holds one partition's: %" PRIu32 ")\n",
			b->sum.prio, _s(b->f->partition), b->job->priority);
	else
		fprintf(out, " -> %" PRIu32 "; controller %" PRIu32 ": %s\n",
			b->sum.prio, b->job->priority,
			b->adds_up ? "adds up" : "DIFFERS (recomputed since?)");
}

static void _txt_block(const cli_mf_explain_t *x, const _tree_t *t,
		       const _block_t *b, FILE *out)
{
	fprintf(out, "job %" PRIu32 "  user %s  account %s  partition %s  QOS %s  priority %" PRIu32 "\n",
		b->job->job_id, _user(b->job), _s(b->job->account),
		_s(b->f->partition), _s(_row_qos(b->f, b->job)),
		b->rows > 1 ? b->sum.prio : b->job->priority);
	if (b->f->direct_prio > 0) {
		fprintf(out, "  priority set by an administrator (%.0f): no terms\n\n",
			b->f->direct_prio);
		return;
	}
	fprintf(out, "  %-14s %10s %10s %12s  %s\n", "term", "factor",
		"weight", "value", "inputs");
	for (uint32_t i = 0; i < b->n; i++) {
		const _term_t *tm = &b->terms[i];

		/* a TRES nobody weighs is left out (JSON has it) */
		if (!strncmp(tm->name, "tres ", 5) && !tm->weight && !tm->value)
			continue;
		if (tm->weighted)
			fprintf(out, "  %-14s %10.6f %10.0f %12.2f  %s\n",
				tm->name, tm->factor, tm->weight, tm->value,
				tm->inputs);
		else
			fprintf(out, "  %-14s %10s %10s %12.2f  %s\n",
				tm->name, "-", "-", tm->value, tm->inputs);
	}
	_txt_sum(b, out);
	_txt_fairshare(x, t, b, out);
	fputc('\n', out);
}

/* ---- JSON ------------------------------------------------------------- */

static void _jstr(FILE *out, const char *s)
{
	size_t size = (s ? strlen(s) * 6 : 0) + 8;
	char *text = malloc(size);
	prism_buf_t b;

	if (!text) {
		fputs("null", out);
		return;
	}
	prism_buf_init(&b, text, size);
	prism_json_str(&b, s);
	fputs(text, out);
	free(text);
}

static void _jnum(FILE *out, double v)
{
	char text[48];
	prism_buf_t b;

	prism_buf_init(&b, text, sizeof(text));
	prism_json_num(&b, v);
	fputs(text, out);
}

/* "KEY": then a string, a number or a long double that may be unset. */
static void _jkey_str(FILE *out, const char *key, const char *s)
{
	fprintf(out, "\"%s\":", key);
	_jstr(out, s);
}

static void _jkey_num(FILE *out, const char *key, double v)
{
	fprintf(out, "\"%s\":", key);
	_jnum(out, v);
}

static void _jkey_ld(FILE *out, const char *key, long double v)
{
	_jkey_num(out, key, _unset_ld(v) ? NAN : (double) v);
}

static void _json_terms(const _block_t *b, FILE *out)
{
	fprintf(out, "\"terms\":[");
	for (uint32_t i = 0; i < b->n; i++) {
		const _term_t *tm = &b->terms[i];

		fprintf(out, "%s{", i ? "," : "");
		_jkey_str(out, "term", tm->name);
		fputc(',', out);
		_jkey_num(out, "factor", tm->weighted ? tm->factor : NAN);
		fputc(',', out);
		_jkey_num(out, "weight", tm->weighted ? tm->weight : NAN);
		fputc(',', out);
		_jkey_num(out, "value", tm->value);
		fputc(',', out);
		_jkey_str(out, "inputs", tm->inputs);
		fputc('}', out);
	}
	fputc(']', out);
}

static void _json_assoc(FILE *out, const _tree_t *t, uint32_t i)
{
	const slurmdb_assoc_rec_t *rec = t->rec[i];
	const slurmdb_assoc_usage_t *u = rec->usage;

	fputc('{', out);
	_jkey_str(out, "account", rec->acct);
	fputc(',', out);
	_jkey_str(out, "user", rec->user);
	fputc(',', out);
	_jkey_str(out, "partition", rec->partition);
	fputc(',', out);
	_jkey_num(out, "shares_raw",
		  _is_root(rec) || rec->shares_raw == SLURMDB_FS_USE_PARENT ?
			  NAN : rec->shares_raw);
	if (u) {
		fputc(',', out);
		_jkey_ld(out, "shares_norm", u->shares_norm);
		fputc(',', out);
		_jkey_ld(out, "usage_raw", u->usage_raw);
		fputc(',', out);
		_jkey_ld(out, "usage_norm", u->usage_norm);
		fputc(',', out);
		_jkey_ld(out, "usage_efctv", u->usage_efctv);
		fputc(',', out);
		_jkey_ld(out, "fs_factor", u->fs_factor);
		fputc(',', out);
		_jkey_ld(out, "level_fs", u->level_fs);
	}
	fputc('}', out);
}

static void _json_decider(FILE *out, const _tree_t *t, const char *key,
			  bool has, const prism_mf_decider_t *d)
{
	fprintf(out, "\"%s\":", key);
	if (!has) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"other\":");
	_json_assoc(out, t, d->other);
	fprintf(out, ",\"common\":");
	if (d->common == PRISM_MF_NONE)
		fputs("null", out);
	else
		_json_assoc(out, t, d->common);
	fprintf(out, ",\"mine\":");
	_json_assoc(out, t, d->mine);
	fprintf(out, ",\"theirs\":");
	_json_assoc(out, t, d->theirs);
	fprintf(out, ",\"tie\":%s}", d->tie ? "true" : "false");
}

static void _json_rank(FILE *out, const _tree_t *t, uint32_t k)
{
	prism_error_t err = { "" };
	prism_mf_rank_t r;

	fprintf(out, ",\"rank\":");
	if (!t->complete || prism_mf_rank(t->a, t->n, k, &r, &err)) {
		fprintf(out, "null,\"rank_error\":");
		_jstr(out, t->complete ? err.text :
			"the association tree is not fully visible to you");
		return;
	}
	fprintf(out, "{\"rank\":%" PRIu32 ",\"users\":%" PRIu32 ",\"tied\":%" PRIu32 ",",
		r.rank, r.users, r.tied);
	_json_decider(out, t, "above", r.has_above, &r.above);
	fputc(',', out);
	_json_decider(out, t, "below", r.has_below, &r.below);
	fputc('}', out);
}

static void _json_fairshare(const cli_mf_explain_t *x, const _tree_t *t,
			    const _block_t *b, FILE *out)
{
	uint32_t k = _job_assoc(t, b->job), n, *path = NULL;
	bool ft = _fair_tree(x);

	fprintf(out, "\"fairshare\":{\"algorithm\":\"%s\",",
		ft ? "fair_tree" : "classic");
	if (!x->assocs_read || k == PRISM_MF_NONE ||
	    !(path = calloc((size_t) t->n + 1, sizeof(*path)))) {
		const char *why = "out of memory";

		if (!x->assocs_read)
			why = _s(x->assoc_err);
		else if (k == PRISM_MF_NONE)
			why = "the job's association is not visible to you";
		_jkey_str(out, "error", why);
		fprintf(out, ",\"path\":null,\"rank\":null}");
		return;
	}
	n = _path(t, k, path);
	fprintf(out, "\"error\":null,\"path\":[");
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		_json_assoc(out, t, path[i]);
	}
	fputc(']', out);
	free(path);
	if (ft)
		_json_rank(out, t, k);
	else
		fprintf(out, ",\"rank\":null");
	fputc('}', out);
}

static void _json_block(const cli_mf_explain_t *x, const _tree_t *t,
			const _block_t *b, bool first, FILE *out)
{
	fprintf(out, "%s{\"job_id\":%" PRIu32 ",", first ? "" : ",",
		b->job->job_id);
	_jkey_str(out, "user", _user(b->job));
	fputc(',', out);
	_jkey_str(out, "account", b->job->account);
	fputc(',', out);
	_jkey_str(out, "partition", b->f->partition);
	fputc(',', out);
	_jkey_str(out, "qos", _row_qos(b->f, b->job));
	fprintf(out, ",\"job_priority\":%" PRIu32 ",\"rows\":%" PRIu32 ",",
		b->job->priority, b->rows);
	_jkey_num(out, "admin_priority",
		  b->f->direct_prio > 0 ? b->f->direct_prio : NAN);
	fputc(',', out);
	_json_terms(b, out);
	fputc(',', out);
	_jkey_num(out, "sum", b->sum.sum);
	fprintf(out, ",\"priority\":%" PRIu32 ",\"clamped\":%d,\"adds_up\":%s,",
		b->sum.prio, b->sum.clamped, b->adds_up ? "true" : "false");
	_json_fairshare(x, t, b, out);
	fputc('}', out);
}

/* ---- the view --------------------------------------------------------- */

static const char *_state_name(const slurm_job_info_t *job)
{
	static const char *names[] = {
		"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED",
		"FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
		"DEADLINE", "OUT_OF_MEMORY",
	};
	uint32_t st = job->job_state & JOB_STATE_BASE;

	return st < sizeof(names) / sizeof(names[0]) ? names[st] : "UNKNOWN";
}

/* The number of sprio rows of job 'id'. */
static uint32_t _rows_of(const cli_mf_explain_t *x, uint32_t id)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < x->factor_cnt; i++)
		n += CLI_ROW_JOB_ID(x->factors[i]) == id;
	return n;
}

/*
 * An error on 'err' for each job asked for that has no row; returns how
 * many.
 */
static uint32_t _missing(const cli_mf_explain_t *x,
			 const slurm_job_info_t **sorted, FILE *err)
{
	uint32_t bad = 0;

	for (uint32_t i = 0; i < x->id_cnt; i++) {
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, x->ids[i]);

		if (job && cli_job_pending(job) && _rows_of(x, x->ids[i]))
			continue;
		bad++;
		if (!job)
			fprintf(err, "prism: job %" PRIu32 ": not found (or not visible to you)\n",
				x->ids[i]);
		else if (!cli_job_pending(job))
			fprintf(err, "prism: job %" PRIu32 ": not pending (%s): only pending jobs have priority terms\n",
				x->ids[i], _state_name(job));
		else if (!job->priority)
			fprintf(err, "prism: job %" PRIu32 ": held (priority 0), not ranked\n",
				x->ids[i]);
		else
			fprintf(err, "prism: job %" PRIu32 ": pending but not ranked by the controller (not eligible yet: begin time or dependency)\n",
				x->ids[i]);
	}
	return bad;
}

/* Fill block 'b' for row 'f' of 'job'; -1 when out of memory. */
static int _block(const cli_mf_explain_t *x, const _tree_t *t,
		  const slurm_job_info_t *job,
		  const priority_factors_object_t *f, _block_t *b)
{
	memset(b, 0, sizeof(*b));
	b->job = job;
	b->f = f;
	b->rows = _rows_of(x, job->job_id);
	cli_cols_read(f, &b->c);
	b->terms = calloc((size_t) FIXED_TERMS + b->c.tres_cnt + 1,
			  sizeof(*b->terms));
	if (!b->terms)
		return -1;
	b->n = _terms(x, t, job, f, &b->c, b->terms);
	prism_mf_sum(&b->c, &b->sum);
	if (f->direct_prio > 0) {	/* an admin-set priority, no terms */
		b->sum.sum = f->direct_prio;
		b->sum.prio = prism_cols_prio32(f->direct_prio);
		b->sum.clamped = 0;
	}
	b->adds_up = prism_mf_sum_agrees(&b->sum, job->priority);
	return 0;
}

/* Print every row asked for, in sprio's order; -1 when out of memory. */
static int _print_rows(const cli_mf_explain_t *x, const _tree_t *t,
		       const slurm_job_info_t **sorted, FILE *out,
		       uint32_t *shown)
{
	for (uint32_t i = 0; i < x->factor_cnt; i++) {
		const priority_factors_object_t *f = x->factors[i];
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, CLI_ROW_JOB_ID(f));
		_block_t b;

		if (!job || !cli_job_pending(job) ||
		    !cli_job_asked(x->ids, x->id_cnt, job->job_id))
			continue;
		if (_block(x, t, job, f, &b))
			return -1;
		if (x->json)
			_json_block(x, t, &b, !*shown, out);
		else
			_txt_block(x, t, &b, out);
		(*shown)++;
		free(b.terms);
	}
	return 0;
}

static void _txt_header(const cli_mf_explain_t *x, FILE *out)
{
	char when[64];

	_when(when, sizeof(when), x->now);
	if (x->pass_known)
		fprintf(out, "Prism policy=multifactor (Slurm's multifactor terms as the controller computed them; sprio -l shows the same), at the plugin's last pass, %s: ages are measured to it.\n",
			when);
	else
		fprintf(out, "Prism policy=multifactor (Slurm's multifactor terms as the controller computed them; sprio -l shows the same), %s.\nnote: %s; ages are measured to now, the terms are of the plugin's last pass.\n",
			when, _s(x->pass_note));
	if (!x->assocs_read)
		fprintf(out, "note: the association records could not be read (%s): fair-share paths are not shown.\n",
			_s(x->assoc_err));
	fputc('\n', out);
}

/* The user association of pending job 'id' in 't', or PRISM_MF_NONE. */
static uint32_t _id_assoc(const cli_mf_explain_t *x, const _tree_t *t,
			  uint32_t id)
{
	for (uint32_t i = 0; i < x->job_cnt; i++)
		if (x->jobs[i].job_id == id)
			return _job_assoc(t, &x->jobs[i]);
	return PRISM_MF_NONE;
}

/* Where Fair Tree ordered the associations 'ka' and 'kb' (valid, users). */
static void _txt_diverge(const _tree_t *t, uint32_t ka, uint32_t kb,
			 FILE *out)
{
	prism_error_t err = { "" };
	prism_mf_decider_t d;
	char a[NAME_LEN], b[NAME_LEN];

	_assoc_name(t, ka, a, sizeof(a));
	_assoc_name(t, kb, b, sizeof(b));
	fprintf(out, "  fair-share (Fair Tree): %s %.6f, %s %.6f\n", a,
		t->a[ka].fs_factor, b, t->a[kb].fs_factor);
	if (prism_mf_diverge(t->a, t->n, ka, kb, &d, &err))
		fprintf(out, "    why: not available (%s)\n", err.text);
	else
		_txt_decider(out, t, "why", &d);
}

extern int cli_mf_fairshare_why(const cli_mf_explain_t *x, uint32_t a,
				uint32_t b, FILE *out)
{
	_tree_t t = { .n = 0 };
	uint32_t ka, kb;

	if (!x->assocs_read) {
		fprintf(out, "  fair-share: the association records could not be read (%s)\n",
			_s(x->assoc_err));
		return CLI_OK;
	}
	if (_tree_build(x, &t)) {
		_tree_free(&t);
		return CLI_ERROR;
	}
	ka = _id_assoc(x, &t, a);
	kb = _id_assoc(x, &t, b);
	if (ka == PRISM_MF_NONE || kb == PRISM_MF_NONE || !t.complete)
		fprintf(out, "  fair-share: the association tree is not fully visible to you\n");
	else if (ka == kb)
		fprintf(out, "  fair-share: both jobs run under the same association\n");
	else if (_fair_tree(x))
		_txt_diverge(&t, ka, kb, out);
	_tree_free(&t);
	return CLI_OK;
}

extern int cli_mf_explain_print(const cli_mf_explain_t *x, FILE *out,
				FILE *err)
{
	const slurm_job_info_t **sorted = cli_jobs_by_id(x->jobs, x->job_cnt);
	uint32_t shown = 0, bad;
	_tree_t t = { .n = 0 };
	int rc = CLI_ERROR;

	if (!sorted || _tree_build(x, &t)) {
		fprintf(err, "prism: out of memory\n");
		goto out;
	}
	if (x->json && x->pass_known)
		fprintf(out, "{\"policy\":\"multifactor\",\"time\":%" PRId64 ",\"pass_time\":%" PRId64 ",\"jobs\":[",
			(int64_t) x->now, (int64_t) x->now);
	else if (x->json)
		fprintf(out, "{\"policy\":\"multifactor\",\"time\":%" PRId64 ",\"pass_time\":null,\"jobs\":[",
			(int64_t) x->now);
	else
		_txt_header(x, out);
	if (_print_rows(x, &t, sorted, out, &shown)) {
		fprintf(err, "prism: out of memory\n");
		goto out;
	}
	if (x->json)
		fprintf(out, "]}\n");
	else if (!shown)
		fprintf(out, "no pending job to show\n");
	bad = _missing(x, sorted, err);
	rc = bad ? CLI_ERROR : CLI_OK;
out:
	_tree_free(&t);
	free(sorted);
	return rc;
}

/* ---- whatif: the rows under changed settings -------------------------- */

/* The highest PriorityJobFactor of the visible partitions (at least 1). */
static double _part_max(const cli_mf_explain_t *x)
{
	double m = 0;

	for (uint32_t i = 0; i < x->part_cnt; i++)
		if (x->parts[i].priority_job_factor > m)
			m = x->parts[i].priority_job_factor;
	return m > 0 ? m : 1;
}

/* The highest QOS priority (at least 1). */
static double _qos_max(const cli_mf_explain_t *x)
{
	double m = 0;

	for (uint32_t i = 0; i < x->qos_cnt; i++)
		if (x->qos[i]->priority != NO_VAL &&
		    x->qos[i]->priority != INFINITE && x->qos[i]->priority > m)
			m = x->qos[i]->priority;
	return m > 0 ? m : 1;
}

/*
 * What the records say of the factors of row 'f' of 'job' that a weight
 * of 0 keeps the controller from computing (Slurm's normalisations:
 * PriorityJobFactor over the highest one, QOS priority over the highest
 * one, unless NO_NORMAL_*; Fair Tree's fs_factor of the association).
 */
static void _whatif_inputs(const cli_mf_explain_t *x, const _tree_t *t,
			   const slurm_job_info_t *job,
			   const priority_factors_object_t *f,
			   prism_mf_inputs_t *in)
{
	const partition_info_t *p = _part(x, f->partition);
	const slurmdb_qos_rec_t *q = _qos(x, _row_qos(f, job));
	time_t since = job->accrue_time;
	uint32_t k = _job_assoc(t, job);

	for (int w = 0; w < PRISM_MF_W_CNT; w++)
		in->factor[w] = NAN;
	if (_flag(x, PRIORITY_FLAGS_ACCRUE_ALWAYS) && job->eligible_time)
		since = job->eligible_time;
	in->age_secs = since && x->now > since ? (int64_t) (x->now - since) :
		       since ? 0 : -1;
	if (in->age_secs >= 0 && x->conf->priority_max_age)
		in->factor[PRISM_MF_W_AGE] =
			in->age_secs >= (int64_t) x->conf->priority_max_age ?
				1.0 :
				(double) in->age_secs /
					x->conf->priority_max_age;
	else if (in->age_secs < 0)
		in->factor[PRISM_MF_W_AGE] = 0;
	if (p)
		in->factor[PRISM_MF_W_PART] =
			_flag(x, PRIORITY_FLAGS_NO_NORMAL_PART) ?
				p->priority_job_factor :
				p->priority_job_factor / _part_max(x);
	if (q && q->priority != NO_VAL && q->priority != INFINITE)
		in->factor[PRISM_MF_W_QOS] =
			_flag(x, PRIORITY_FLAGS_NO_NORMAL_QOS) ?
				q->priority :
				q->priority / _qos_max(x);
	if (k != PRISM_MF_NONE && _fair_tree(x))
		in->factor[PRISM_MF_W_FS] = t->a[k].fs_factor;
}

extern int cli_mf_whatif(const cli_mf_explain_t *x, const prism_mf_change_t *ch,
			 prism_whatif_job_t *out, uint32_t *cnt, FILE *err)
{
	const slurm_job_info_t **sorted = cli_jobs_by_id(x->jobs, x->job_cnt);
	const slurm_conf_t *cf = x->conf;
	const prism_mf_now_t now = {
		.w = {
			[PRISM_MF_W_AGE] = cf->priority_weight_age,
			[PRISM_MF_W_ASSOC] = cf->priority_weight_assoc,
			[PRISM_MF_W_FS] = cf->priority_weight_fs,
			[PRISM_MF_W_JS] = cf->priority_weight_js,
			[PRISM_MF_W_PART] = cf->priority_weight_part,
			[PRISM_MF_W_QOS] = cf->priority_weight_qos,
		},
		.max_age = cf->priority_max_age,
	};
	_tree_t t = { .n = 0 };
	int rc = CLI_ERROR;

	*cnt = 0;
	if (!sorted || _tree_build(x, &t)) {
		fprintf(err, "prism: out of memory\n");
		goto out;
	}
	for (uint32_t i = 0; i < x->factor_cnt; i++) {
		const priority_factors_object_t *f = x->factors[i];
		const slurm_job_info_t *job =
			cli_job_find(sorted, x->job_cnt, CLI_ROW_JOB_ID(f));
		prism_error_t perr = { "" };
		prism_mf_inputs_t in;
		prism_mf_sum_t before, after;
		prism_cols_t c;
		char **names;
		double *weights;

		if (!job || !cli_job_pending(job))
			continue;
		cli_cols_read(f, &c);
		cli_row_tres(f, &names, &weights);
		_whatif_inputs(x, &t, job, f, &in);
		prism_mf_sum(&c, &before);
		if (f->direct_prio > 0)
			before.prio = prism_cols_prio32(f->direct_prio);
		if (prism_mf_whatif_prio(&c, (const char *const *) names,
					 weights, &now, &in, ch, &after,
					 &perr)) {
			fprintf(err, "prism: job %" PRIu32 ": %s\n",
				job->job_id, perr.text);
			goto out;
		}
		out[(*cnt)++] = (prism_whatif_job_t) {
			.id = job->job_id,
			.partition = f->partition,
			.account = job->account,
			.before = before.prio,
			.after = after.prio,
		};
	}
	rc = CLI_OK;
out:
	_tree_free(&t);
	free(sorted);
	return rc;
}
