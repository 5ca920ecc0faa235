/*****************************************************************************\
 *  cli_metrics.c - `prism metrics`: the Prometheus text exposition
 *  (format 0.0.4) of the controller's fair-share (what sshare shows per
 *  association), its pending jobs per partition and account, the spread
 *  of their priorities and the mean of each of sprio's terms per
 *  partition, and the plugin's last pass (priority_prism_pass in
 *  StateSaveLocation, written by the plugin after every pass), from
 *  records already loaded (cli_metrics_cmd.c loads them).
 *
 *  Families and their units follow Prometheus' naming: base units,
 *  _seconds, _total for counters. No series per job.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_diag.h"
#include "cli_metrics.h"
#include "prism_file.h"
#include "prism_fs.h"
#include "prism_idmap.h"
#include "prism_marks.h"
#include "prism_mf_explain.h"

/* sprio's columns, in prism_cols_t's order, and the TRES terms summed. */
#define TERMS 9

/* ---- the text --------------------------------------------------------- */

/* A family's # HELP and # TYPE lines. */
static void _family(FILE *out, const char *name, const char *type,
		    const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* 'v' as the exposition writes a float: +Inf, -Inf, NaN or the shortest
 * text that reads back as the same double. */
static const char *_shortest(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.15g", v);
	return buf;
}

static void _num(FILE *out, double v)
{
	char buf[64];

	if (isnan(v))
		fputs("NaN", out);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", out);
	else if (strtod(_shortest(buf, sizeof(buf), v), NULL) == v)
		fputs(buf, out);
	else
		fprintf(out, "%.17g", v);
}

/* A label value, escaped (backslash, double quote, line feed). */
static void _label_value(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '"')
			fputs("\\\"", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* Up to three labels (a NULL name ends them early) and the value. */
typedef struct {
	const char *name[3];
	const char *value[3];
} _labels_t;

static void _sample(FILE *out, const char *family, const _labels_t *l,
		    double v)
{
	fputs(family, out);
	for (int i = 0; l && i < 3 && l->name[i]; i++) {
		fprintf(out, "%s%s=\"", i ? "," : "{", l->name[i]);
		_label_value(out, l->value[i]);
		fputc('"', out);
		if (i == 2 || !l->name[i + 1])
			fputc('}', out);
	}
	fputc(' ', out);
	_num(out, v);
	fputc('\n', out);
}

/* ---- prism_info and the pass ------------------------------------------- */

static void _info(const cli_metrics_in_t *in, FILE *out)
{
	_labels_t l = { { "version", "slurm", "policy" },
			{ in->version,
			  in->r->conf && in->r->conf->version ?
				  in->r->conf->version : "",
			  prism_policy_name(in->policy) } };

	_family(out, "prism_info", "gauge",
		"Prism's version, the controller's Slurm release and the policy in force (always 1).");
	_sample(out, "prism_info", &l, 1);
}

static void _pass(const prism_passinfo_t *p, FILE *out)
{
	static const struct {
		const char *name, *type, *help;
		size_t off;
		double scale;	/* the file's unit per base unit */
	} rows[] = {
#define R(n, t, f, s, h) { n, t, h, offsetof(prism_passinfo_t, f), s }
		R("prism_start_time_seconds", "gauge", plugin_start, 1,
		  "When the plugin (slurmctld) started, since the epoch; the _total counters count from then."),
		R("prism_last_pass_start_timestamp_seconds", "gauge",
		  pass_start, 1,
		  "When the plugin's last recalculation pass started (its \"now\"), since the epoch."),
		R("prism_last_pass_timestamp_seconds", "gauge", pass_end, 1,
		  "When the plugin's last recalculation pass ended, since the epoch."),
		R("prism_pass_duration_seconds", "gauge", duration_usec, 1e6,
		  "How long the last pass took (monotonic clock)."),
		R("prism_pass_jobs_computed", "gauge", jobs_computed, 1,
		  "Jobs whose priority the last pass computed."),
		R("prism_pass_jobs_charged", "gauge", jobs_charged, 1,
		  "Running jobs whose usage the last pass charged to their associations."),
		R("prism_pass_job_lock_hold_max_seconds", "gauge",
		  lock_hold_max_usec, 1e6,
		  "The longest the last pass held slurmctld's job write lock at once."),
		R("prism_passes_total", "counter", passes, 1,
		  "Recalculation passes since the plugin started."),
		R("prism_save_errors_total", "counter", save_errors, 1,
		  "Failed saves of Prism's files in StateSaveLocation since the plugin started."),
#undef R
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int64_t v = *(const int64_t *) ((const char *) p +
						rows[i].off);

		_family(out, rows[i].name, rows[i].type, rows[i].help);
		_sample(out, rows[i].name, NULL, (double) v / rows[i].scale);
	}
	_family(out, "prism_pass_usage_save_duration_seconds", "gauge",
		"How long the last pass's usage snapshot save took (no sample when it saved none).");
	if (p->usage_save_usec >= 0)
		_sample(out, "prism_pass_usage_save_duration_seconds", NULL,
			(double) p->usage_save_usec / 1e6);
}

/* ---- pending jobs ------------------------------------------------------ */

/* A count or sum per key (partition, or partition and account). */
typedef struct {
	char *part;
	char *acct;		/* NULL: per partition */
	uint64_t n;
	double min, max, sum;
	double term[TERMS];
} _group_t;

typedef struct {
	_group_t *g;
	size_t n, cap;
} _groups_t;

static void _groups_free(_groups_t *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].part);
		free(gs->g[i].acct);
	}
	free(gs->g);
	*gs = (_groups_t) { NULL, 0, 0 };
}

/* The group of 'part' ('acct' NULL: of the partition alone), added when
 * new; NULL when out of memory. 'plen' bytes of 'part' are the name. */
static _group_t *_group(_groups_t *gs, const char *part, size_t plen,
			const char *acct)
{
	_group_t *g;

	for (size_t i = 0; i < gs->n; i++) {
		g = &gs->g[i];
		if (strlen(g->part) == plen && !strncmp(g->part, part, plen) &&
		    (acct ? g->acct && !strcmp(g->acct, acct) : !g->acct))
			return g;
	}
	if (gs->n == gs->cap) {
		size_t cap = gs->cap ? 2 * gs->cap : 16;
		_group_t *grown = realloc(gs->g, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		gs->g = grown;
		gs->cap = cap;
	}
	g = &gs->g[gs->n];
	*g = (_group_t) { .part = strndup(part, plen),
			  .acct = acct ? strdup(acct) : NULL };
	if (!g->part || (acct && !g->acct)) {
		free(g->part);
		free(g->acct);
		return NULL;
	}
	gs->n++;
	return g;
}

static int _by_name(const void *a, const void *b)
{
	const _group_t *x = a, *y = b;
	int c = strcmp(x->part, y->part);

	if (c || !x->acct || !y->acct)
		return c;
	return strcmp(x->acct, y->acct);
}

/*
 * Pending jobs per partition and account: a job that asks for several
 * partitions counts in each (as `squeue -t PD -p PART` lists it); held
 * jobs count (squeue lists them pending).
 */
static int _pending_count(const cli_records_t *r, _groups_t *gs)
{
	for (uint32_t i = 0; r->jobs && i < r->jobs->record_count; i++) {
		const slurm_job_info_t *job = &r->jobs->job_array[i];
		const char *p = job->partition ? job->partition : "";

		if (!cli_job_pending(job))
			continue;
		do {
			size_t len = strcspn(p, ",");
			_group_t *g = _group(gs, p, len,
					     job->account ? job->account : "");

			if (!g)
				return -1;
			g->n++;
			p += len + (p[len] == ',');
		} while (*p);
	}
	return 0;
}

/* sprio's row 'f' as the TERMS terms and the priority they add up to. */
static double _row_terms(const priority_factors_object_t *f, double *t)
{
	prism_cols_t c;
	prism_mf_sum_t s;

	cli_cols_read(f, &c);
	t[0] = c.age;
	t[1] = c.assoc;
	t[2] = c.fs;
	t[3] = c.js;
	t[4] = c.part;
	t[5] = c.qos;
	t[6] = (double) ((int64_t) c.site - PRISM_NICE_OFFSET);
	t[7] = (double) ((int64_t) c.nice - PRISM_NICE_OFFSET);
	t[8] = 0;
	for (uint32_t k = 0; c.tres && k < c.tres_cnt; k++)
		t[8] += c.tres[k];
	if (c.direct_prio > 0)
		return c.direct_prio;
	prism_mf_sum(&c, &s);
	return s.prio;
}

/* sprio's rows per partition: the priorities' spread, each term's sum. */
static int _rows_per_part(const cli_records_t *r, _groups_t *gs)
{
	for (uint32_t i = 0; i < r->factor_cnt; i++) {
		const priority_factors_object_t *f = r->factors[i];
		const char *p = f->partition ? f->partition : "";
		_group_t *g = _group(gs, p, strlen(p), NULL);
		double t[TERMS], prio;

		if (!g)
			return -1;
		prio = _row_terms(f, t);
		if (!g->n || prio < g->min)
			g->min = prio;
		if (!g->n || prio > g->max)
			g->max = prio;
		g->sum += prio;
		for (int k = 0; k < TERMS; k++)
			g->term[k] += t[k];
		g->n++;
	}
	return 0;
}

/* Each term's name under 'policy' (what the policy puts in the column). */
static const char *_term_name(prism_policy_t policy, int k)
{
	static const char *mf[TERMS] = {
		"age", "assoc", "fairshare", "jobsize", "partition", "qos",
		"site", "nice", "tres",
	};
	static const char *moab[TERMS] = {
		"serv", "cred", "fs", "res", "attr", "target_usage", "rest",
		"nice", "tres",
	};
	static const char *ge[TERMS] = {
		"urgency", "tickets", "fairshare", "jobsize", "partition",
		"posix_priority", "offset", "nice", "tres",
	};

	if (policy == PRISM_POLICY_MOAB)
		return moab[k];
	if (policy == PRISM_POLICY_GRIDENGINE)
		return ge[k];
	return mf[k];
}

static const char *_term_help(prism_policy_t policy)
{
	if (policy == PRISM_POLICY_MOAB)
		return "Mean of each Moab component over the partition's pending jobs, as sprio shows them (serv=AGE, cred=ASSOC, fs=FAIRSHARE, res=JOBSIZE, attr=PARTITION, target_usage=QOS, rest=SITE; nice subtracted).";
	if (policy == PRISM_POLICY_GRIDENGINE)
		return "Mean of each Grid Engine component over the partition's pending jobs, as sprio shows them (urgency=AGE, tickets=ASSOC, posix_priority=QOS, offset=SITE; nice subtracted).";
	return "Mean of each multifactor term over the partition's pending jobs, as sprio shows them (nice is subtracted from the sum; tres is the TRES terms added).";
}

static int _pending(const cli_metrics_in_t *in, FILE *out,
		    prism_error_t *err)
{
	_groups_t jobs = { NULL, 0, 0 }, rows = { NULL, 0, 0 };
	int rc = CLI_ERROR;

	if (_pending_count(in->r, &jobs) || _rows_per_part(in->r, &rows)) {
		prism_error_set(err, "out of memory");
		goto out;
	}
	qsort(jobs.g, jobs.n, sizeof(*jobs.g), _by_name);
	qsort(rows.g, rows.n, sizeof(*rows.g), _by_name);
	_family(out, "prism_pending_jobs", "gauge",
		"Pending jobs (held ones too) per partition and account; a job that asks for several partitions counts in each.");
	for (size_t i = 0; i < jobs.n; i++) {
		_labels_t l = { { "partition", "account" },
				{ jobs.g[i].part, jobs.g[i].acct } };

		_sample(out, "prism_pending_jobs", &l, (double) jobs.g[i].n);
	}
	_family(out, "prism_pending_priority_rows", "gauge",
		"Pending jobs the controller ranks in the partition (sprio's rows: held jobs have none).");
	for (size_t i = 0; i < rows.n; i++) {
		_labels_t l = { { "partition" }, { rows.g[i].part } };

		_sample(out, "prism_pending_priority_rows", &l,
			(double) rows.g[i].n);
	}
	for (int s = 0; s < 3; s++) {
		static const char *name[] = { "prism_pending_priority_min",
					      "prism_pending_priority_max",
					      "prism_pending_priority_mean" };
		static const char *help[] = {
			"Lowest priority of a pending job in the partition (sprio's terms added up, or the priority an administrator set).",
			"Highest priority of a pending job in the partition (sprio's terms added up, or the priority an administrator set).",
			"Mean priority of the pending jobs in the partition (sprio's terms added up, or the priority an administrator set).",
		};

		_family(out, name[s], "gauge", help[s]);
		for (size_t i = 0; i < rows.n; i++) {
			const _group_t *g = &rows.g[i];
			_labels_t l = { { "partition" }, { g->part } };
			double v = s == 0 ? g->min :
				   s == 1 ? g->max : g->sum / (double) g->n;

			_sample(out, name[s], &l, v);
		}
	}
	_family(out, "prism_pending_term_mean", "gauge",
		_term_help(in->policy));
	for (size_t i = 0; i < rows.n; i++) {
		for (int k = 0; k < TERMS; k++) {
			_labels_t l = { { "partition", "term" },
					{ rows.g[i].part,
					  _term_name(in->policy, k) } };

			_sample(out, "prism_pending_term_mean", &l,
				rows.g[i].term[k] / (double) rows.g[i].n);
		}
	}
	rc = CLI_OK;
out:
	_groups_free(&jobs);
	_groups_free(&rows);
	return rc;
}

/* ---- associations ------------------------------------------------------ */

/* The association records indexed, and what sshare would compute. */
typedef struct {
	slurmdb_assoc_rec_t **rec;
	uint32_t n;
	prism_idmap_t *by_id;		/* id -> index */
	prism_idmap_t *pending;		/* ids with a pending job */
	double *ue;			/* effective usage; NAN: unknown */
	double *users_fs;		/* Fair Tree: users' fs, descending */
	uint32_t user_cnt;
	bool fair_tree;
} _assocs_t;

static void _assocs_free(_assocs_t *a)
{
	prism_idmap_free(a->by_id);
	prism_idmap_free(a->pending);
	free(a->ue);
	free(a->users_fs);
}

static bool _unset(long double v)
{
	return fabsl(v - (long double) NO_VAL) < 1 ||
	       fabsl(v - (long double) INFINITE) < 1;
}

static const slurmdb_assoc_rec_t *_parent(const _assocs_t *a,
					  const slurmdb_assoc_rec_t *rec)
{
	uint32_t i;

	if (!rec->parent_id || !prism_idmap_get(a->by_id, rec->parent_id, &i))
		return NULL;
	return a->rec[i];
}

/*
 * The effective usage of user association 'k' as the classic algorithm
 * computes it when sshare asks (the controller leaves a user's unset
 * until then): usage normalised by the root's, then against its
 * fair-share parent's (the nearest ancestor that is not FairShare=parent).
 * NAN when the records do not give it (DEPTH_OBLIVIOUS, a parent
 * missing).
 */
static double _user_efctv(const _assocs_t *a, uint32_t k, long double root_raw,
			  uint32_t flags)
{
	const slurmdb_assoc_rec_t *rec = a->rec[k];
	const slurmdb_assoc_rec_t *p = _parent(a, rec);
	long double un;

	if (!rec->usage)
		return NAN;
	un = prism_fs_usage_norm(rec->usage->usage_raw, root_raw);
	while (p && p->shares_raw == SLURMDB_FS_USE_PARENT && _parent(a, p))
		p = _parent(a, p);
	if (!p || !p->usage)
		return NAN;
	if (!p->parent_id)	/* the root */
		return (double) un;
	if (rec->shares_raw == SLURMDB_FS_USE_PARENT)
		return _unset(p->usage->usage_efctv) ?
			       NAN : (double) p->usage->usage_efctv;
	if ((flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS) ||
	    _unset(p->usage->usage_efctv))
		return NAN;
	return (double) prism_fs_usage_efctv(un, p->usage->usage_efctv,
					     rec->shares_raw,
					     rec->usage->level_shares);
}

static int _desc(const void *x, const void *y)
{
	double a = *(const double *) x, b = *(const double *) y;

	return (a < b) - (a > b);
}

static int _assocs_index(const cli_metrics_in_t *in, _assocs_t *a)
{
	const cli_records_t *r = in->r;
	uint32_t flags = r->conf ? r->conf->priority_flags : 0;
	long double root_raw = 0;

	a->rec = r->assoc_recs;
	a->n = r->assoc_cnt;
	a->fair_tree = flags & PRIORITY_FLAGS_FAIR_TREE;
	a->by_id = prism_idmap_create();
	a->pending = prism_idmap_create();
	a->ue = calloc((size_t) a->n + 1, sizeof(*a->ue));
	a->users_fs = calloc((size_t) a->n + 1, sizeof(*a->users_fs));
	if (!a->by_id || !a->pending || !a->ue || !a->users_fs)
		return -1;
	for (uint32_t i = 0; i < a->n; i++) {
		if (prism_idmap_put(a->by_id, a->rec[i]->id, i))
			return -1;
		if (!a->rec[i]->parent_id && a->rec[i]->usage)
			root_raw = a->rec[i]->usage->usage_raw;
	}
	for (uint32_t i = 0; r->jobs && i < r->jobs->record_count; i++) {
		const slurm_job_info_t *job = &r->jobs->job_array[i];

		if (cli_job_pending(job) &&
		    prism_idmap_put(a->pending, job->assoc_id, 1))
			return -1;
	}
	for (uint32_t i = 0; i < a->n; i++) {
		const slurmdb_assoc_rec_t *rec = a->rec[i];

		a->ue[i] = NAN;
		if (!rec->usage)
			continue;
		if (!_unset(rec->usage->usage_efctv))
			a->ue[i] = (double) rec->usage->usage_efctv;
		else if (rec->user && !a->fair_tree)
			a->ue[i] = _user_efctv(a, i, root_raw, flags);
		if (rec->user)
			a->users_fs[a->user_cnt++] = rec->usage->fs_factor;
	}
	qsort(a->users_fs, a->user_cnt, sizeof(*a->users_fs), _desc);
	return 0;
}

/* Fair Tree's rank of a user with factor 'fs': 1 + users above it. */
static uint32_t _rank(const _assocs_t *a, double fs)
{
	uint32_t lo = 0, hi = a->user_cnt;

	while (lo < hi) {	/* the first not above 'fs' */
		uint32_t mid = lo + (hi - lo) / 2;

		if (a->users_fs[mid] > fs)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo + 1;
}

/* Does association 'i' get series under in->users? */
static bool _shown(const cli_metrics_in_t *in, const _assocs_t *a,
		   uint32_t i)
{
	const slurmdb_assoc_rec_t *rec = a->rec[i];
	uint32_t dummy;

	if (!rec->usage)
		return false;
	if (!rec->user)
		return true;
	if (in->users == CLI_METRICS_USERS_NONE)
		return false;
	if (in->users == CLI_METRICS_USERS_PENDING)
		return prism_idmap_get(a->pending, rec->id, &dummy);
	return true;
}

/* The value of family 'f' for association 'i'; false: no sample. */
typedef bool (*_assoc_value_fn)(const cli_metrics_in_t *in,
				const _assocs_t *a, uint32_t i, double *v);

/* sshare's FairShare column: Fair Tree's factor of a user (blank for an
 * account); the classic factor of effective usage and shares for all. */
static bool _v_fairshare(const cli_metrics_in_t *in, const _assocs_t *a,
			 uint32_t i, double *v)
{
	const slurmdb_assoc_rec_t *rec = a->rec[i];

	if (a->fair_tree) {
		*v = rec->usage->fs_factor;
		return rec->user != NULL;
	}
	if (isnan(a->ue[i]))
		return false;
	*v = prism_fs_factor(a->ue[i], rec->usage->shares_norm,
			     in->r->conf ? in->r->conf->fs_dampening_factor :
					   1);
	return true;
}

/* sshare's LevelFS: blank for FairShare=parent; inf shows as +Inf. */
static bool _v_level_fs(const cli_metrics_in_t *in, const _assocs_t *a,
			uint32_t i, double *v)
{
	(void) in;
	*v = (double) a->rec[i]->usage->level_fs;
	return a->fair_tree &&
	       a->rec[i]->shares_raw != SLURMDB_FS_USE_PARENT;
}

static bool _v_shares_norm(const cli_metrics_in_t *in, const _assocs_t *a,
			   uint32_t i, double *v)
{
	(void) in;
	*v = a->rec[i]->usage->shares_norm;
	return true;
}

static bool _v_usage_raw(const cli_metrics_in_t *in, const _assocs_t *a,
			 uint32_t i, double *v)
{
	(void) in;
	*v = (double) a->rec[i]->usage->usage_raw;
	return true;
}

static bool _v_usage_efctv(const cli_metrics_in_t *in, const _assocs_t *a,
			   uint32_t i, double *v)
{
	(void) in;
	*v = a->ue[i];
	return !isnan(*v);
}

/* Grid Engine's share-tree usage of the node (association). */
static bool _v_ge_usage(const cli_metrics_in_t *in, const _assocs_t *a,
			uint32_t i, double *v)
{
	*v = prism_ge_usage_get(in->ge_usage, a->rec[i]->id);
	return true;
}

static bool _v_rank(const cli_metrics_in_t *in, const _assocs_t *a,
		    uint32_t i, double *v)
{
	(void) in;
	if (!a->fair_tree || !a->rec[i]->user)
		return false;
	*v = _rank(a, a->rec[i]->usage->fs_factor);
	return true;
}

static void _assoc_family(const cli_metrics_in_t *in, const _assocs_t *a,
			  FILE *out, const char *name, const char *help,
			  _assoc_value_fn fn)
{
	_family(out, name, "gauge", help);
	for (uint32_t i = 0; i < a->n; i++) {
		const slurmdb_assoc_rec_t *rec = a->rec[i];
		_labels_t l = { { "account", "user", "partition" },
				{ rec->acct ? rec->acct : "",
				  rec->user ? rec->user : "",
				  rec->partition } };
		double v;

		if (!_shown(in, a, i) || !fn(in, a, i, &v))
			continue;
		if (!rec->partition || !*rec->partition)
			l.name[2] = NULL;
		_sample(out, name, &l, v);
	}
}

static int _assocs(const cli_metrics_in_t *in, FILE *out, prism_error_t *err)
{
	_assocs_t a = { NULL };
	int rc = CLI_OK;

	if (_assocs_index(in, &a)) {
		prism_error_set(err, "out of memory");
		rc = CLI_ERROR;
		goto out;
	}
	_assoc_family(in, &a, out, "prism_assoc_fairshare",
		      "Fair-share factor as sshare's FairShare column shows it (Fair Tree: user associations only).",
		      _v_fairshare);
	_assoc_family(in, &a, out, "prism_assoc_level_fairshare",
		      "Fair Tree's level fair-share (sshare's LevelFS; +Inf where it says inf; none for FairShare=parent).",
		      _v_level_fs);
	_assoc_family(in, &a, out, "prism_assoc_shares_norm",
		      "Normalised shares (sshare's NormShares).",
		      _v_shares_norm);
	_assoc_family(in, &a, out, "prism_assoc_usage_raw",
		      "Raw usage, decayed TRES-billing-seconds (sshare's RawUsage).",
		      _v_usage_raw);
	_assoc_family(in, &a, out, "prism_assoc_usage_effective",
		      "Effective usage (sshare's EffectvUsage).",
		      _v_usage_efctv);
	_assoc_family(in, &a, out, "prism_assoc_fairtree_rank",
		      "Fair Tree rank of the user association (1: first; equal fair-share factors, equal rank).",
		      _v_rank);
	if (in->ge_usage)
		_assoc_family(in, &a, out, "prism_ge_share_tree_usage",
			      "Grid Engine share-tree usage of the node (association) as the plugin saved it at its last pass: CPU-seconds decayed with the policy's halftime.",
			      _v_ge_usage);
out:
	_assocs_free(&a);
	return rc;
}

/* ---- Moab's fair-share usage ------------------------------------------ */

/* Does a pending job belong to the user 'name'? */
static bool _user_pending(const cli_records_t *r, const char *name)
{
	for (uint32_t i = 0; r->jobs && i < r->jobs->record_count; i++) {
		const slurm_job_info_t *job = &r->jobs->job_array[i];

		if (cli_job_pending(job) && job->user_name &&
		    !strcmp(job->user_name, name))
			return true;
	}
	return false;
}

/*
 * The usage share of each credential the Moab policy names (its CFG
 * lines: the plugin keeps usage only for those), in the current FSINTERVAL
 * windows as the plugin saved them; users as --users says.
 */
static void _moab_usage(const cli_metrics_in_t *in, FILE *out)
{
	static const char *fam = "prism_moab_fairshare_usage_ratio";

	_family(out, fam, "gauge",
		"Moab fair-share usage of each credential the policy names, as a share of all usage (Moab's usage percent / 100), over its FSINTERVAL windows as the plugin saved them at its last pass.");
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		uint32_t n = prism_moab_cred_count(in->moab, k);

		if (k == PRISM_MOAB_USER &&
		    in->users == CLI_METRICS_USERS_NONE)
			continue;
		for (uint32_t i = 0; i < n; i++) {
			const prism_moab_cred_t *c =
				prism_moab_cred_get(in->moab, k, i);
			_labels_t l = { { "kind", "credential" },
					{ prism_moab_cred_kind_name(k),
					  c ? c->name : "" } };

			if (!c || !c->name)
				continue;
			if (k == PRISM_MOAB_USER &&
			    in->users == CLI_METRICS_USERS_PENDING &&
			    !_user_pending(in->r, c->name))
				continue;
			_sample(out, fam, &l,
				prism_moab_usage_pct(in->moab_usage, k, i) /
					100.0);
		}
	}
}

/* ---- the whole text ---------------------------------------------------- */

extern int cli_metrics_write(const cli_metrics_in_t *in, FILE *out,
			     prism_error_t *err)
{
	_info(in, out);
	_pass(in->pass, out);
	if (_pending(in, out, err))
		return CLI_ERROR;
	if (in->r->assocs && _assocs(in, out, err))
		return CLI_ERROR;
	if (in->moab && in->moab_usage)
		_moab_usage(in, out);
	return CLI_OK;
}

extern int cli_metrics_pass_read(const char *dir, prism_passinfo_t *pi,
				 prism_error_t *err)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".",
		 PRISM_PASSINFO_NAME);
	if (prism_file_read(path, &buf, &len, err))
		return -1;
	rc = prism_passinfo_parse(buf, len, pi, err);
	free(buf);
	if (rc) {
		prism_error_t why = *err;

		prism_error_set(err, "%s: %s", path, why.text);
		return -1;
	}
	return 0;
}
