/*****************************************************************************\
 *  test_ge.c - unit tests of prism_ge: the seed's urgency numbers and
 *  crossovers, urgency contributions, POSIX priority, normalisation edge
 *  cases, usage decay, share-tree tickets (entitlement, usage,
 *  compensation, pending-job ordering), functional and override tickets,
 *  policy_hierarchy, the mapping onto Slurm's priority, the sprio split,
 *  a job outside a pass (estimate, other partitions, rebased columns),
 *  the explanation, a cross-check of the greedy orderings against a
 *  naive one, a large pass, and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_ge.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define NONE PRISM_GE_NONE
#define HOUR 3600

static prism_ge_policy_t *_policy(const char *text)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(text, strlen(text), "ge.conf", &pol,
					   &err),
		      "%s", err.text);
	return pol;
}

/* A job with nothing the policy knows. */
static prism_ge_job_t _job(uint32_t id)
{
	prism_ge_job_t job = { .job_id = id, .node = NONE, .user = NONE,
			       .account = NONE, .partition = NONE };

	return job;
}

/* One pass on a fresh pass object; asserts success. */
static void _run(const prism_ge_input_t *in, const prism_ge_job_t *jobs,
		 uint32_t n, prism_ge_result_t *res)
{
	prism_error_t err = { "" };
	prism_ge_pass_t *pass = prism_ge_pass_create(&err);

	ck_assert_ptr_nonnull(pass);
	ck_assert_msg(!prism_ge_pass_run(pass, in, jobs, n, res, &err), "%s",
		      err.text);
	prism_ge_pass_free(pass);
}

static bool _near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1.0, fabs(b));
}

/* The text of slurm-conf-examples/'name' (see test_ge_conf.c). */
static char *_example(const char *name, size_t *len)
{
	const char *top = getenv("top_srcdir");
	const char *here = __FILE__, *cut = strstr(here, "tests/unit/");
	char path[4096];
	char *text;
	FILE *f;
	long n;

	if (top && *top)
		snprintf(path, sizeof(path), "%s/slurm-conf-examples/%s", top,
			 name);
	else
		snprintf(path, sizeof(path), "%.*sslurm-conf-examples/%s",
			 cut ? (int) (cut - here) : 0, here, name);
	f = fopen(path, "rb");
	ck_assert_msg(f, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	text = malloc((size_t) n + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(fread(text, 1, (size_t) n, f), (size_t) n);
	text[n] = '\0';
	fclose(f);
	*len = (size_t) n;
	return text;
}

/* ---- seed 004: urgency and the crossovers ----------------------------- */

/* The example file is the seed's site. */
static prism_ge_policy_t *_seed_policy(void)
{
	size_t len;
	char *text = _example("gridengine.conf", &len);
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(text, len, "gridengine.conf", &pol,
					   &err),
		      "%s", err.text);
	free(text);
	return pol;
}

/*
 * Does a 64-CPU job of an ordinary partition, submitted at 0, come before
 * a 2-CPU job of partition 'part' submitted at 'now'?
 */
static bool _big_first(const prism_ge_policy_t *pol, const char *part,
		       int64_t now)
{
	double big[3] = { 64, 0, 0 }, small[3] = { 2, 0, 0 };
	prism_ge_job_t jobs[2] = { _job(1), _job(2) };
	prism_ge_input_t in = { .pol = pol, .now = now };
	prism_ge_result_t res[2];

	jobs[0].amount = big;
	jobs[1].amount = small;
	jobs[1].submit = now;
	jobs[1].partition = prism_ge_find(pol, PRISM_GE_PARTITION, part);
	ck_assert_uint_ne(jobs[1].partition, NONE);
	_run(&in, jobs, 2, res);
	return res[0].slurm > res[1].slurm;
}

static const struct {
	const char *part;
	double hours;		/* the seed: "about N hours" */
	int64_t exact;		/* first second the 64-CPU job leads */
} crossover[] = {
	/* (40000 + 200 - 6400) / 0.278 = 121582.7 s = 33.77 h */
	{ "t2", 34, 121583 },
	/* (80000 + 200 - 6400) / 0.278 = 265467.6 s = 73.74 h */
	{ "u2", 74, 265468 },
};

START_TEST(test_seed_crossover)
{
	prism_ge_policy_t *pol = _seed_policy();
	int64_t lo = 0, hi = 30 * 24 * HOUR;

	ck_assert(!_big_first(pol, crossover[_i].part, lo));
	ck_assert(_big_first(pol, crossover[_i].part, hi));
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;

		if (_big_first(pol, crossover[_i].part, mid))
			hi = mid;
		else
			lo = mid;
	}
	ck_assert_int_eq(hi, crossover[_i].exact);
	ck_assert_msg(fabs(hi / 3600.0 - crossover[_i].hours) < 0.5,
		      "%s: %.2f h", crossover[_i].part, hi / 3600.0);
	prism_ge_policy_free(pol);
}
END_TEST

/* The seed's urgency contributions, job by job. */
START_TEST(test_seed_urgency)
{
	prism_ge_policy_t *pol = _seed_policy();
	double cpus[3] = { 0, 0, 0 };
	prism_ge_job_t job = _job(1);
	prism_ge_result_t res;
	prism_error_t err = { "" };
	static const struct {
		double cpus;
		const char *part;
		int64_t waited;
		double rr, wt;
	} rows[] = {
		{ 64, NULL, 0, 6400, 0 },
		{ 2, "t2", 0, 40200, 0 },
		{ 2, "u2", 0, 80200, 0 },
		{ 64, "t64", 0, 46400, 0 },
		{ 16, NULL, 16 * HOUR, 1600, 16012.8 },
		{ 1, NULL, 1, 100, 0.278 },
	};

	job.amount = cpus;
	for (int i = 0; i < N(rows); i++) {
		cpus[PRISM_GE_RES_SLOTS] = rows[i].cpus;
		job.partition = rows[i].part ?
			prism_ge_find(pol, PRISM_GE_PARTITION, rows[i].part) :
			NONE;
		job.submit = 1000;
		ck_assert_int_eq(prism_ge_urgency(pol, &job,
						  1000 + rows[i].waited, &res,
						  &err),
				 0);
		ck_assert_msg(_near(res.rrcontr, rows[i].rr) &&
				      _near(res.wtcontr, rows[i].wt) &&
				      res.dlcontr == 0.0 &&
				      _near(res.urg, rows[i].rr + rows[i].wt),
			      "row %d: rr %g wt %g", i, res.rrcontr,
			      res.wtcontr);
	}
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- urgency ---------------------------------------------------------- */

static const struct {
	const char *what;
	double amount[4];	/* slots, mem, nodes, gres/gpu */
	bool no_amount;
	const char *part;
	int64_t waited;		/* now - submit */
	int64_t deadline;	/* from now; 0: none */
	double rr, wt, dl;
} urg_rows[] = {
	{ "slots only", { 2, 0, 0, 0 }, false, NULL, 0, 0, 200, 0, 0 },
	{ "mem per MB", { 0, 4096, 0, 0 }, false, NULL, 0, 0, 2048, 0, 0 },
	{ "nodes", { 0, 0, 2, 0 }, false, NULL, 0, 0, 2000, 0, 0 },
	{ "a GRES", { 0, 0, 0, 4 }, false, NULL, 0, 0, 2000, 0, 0 },
	{ "all of them", { 8, 1000, 1, 1 }, false, NULL, 0, 0,
	  800 + 500 + 1000 + 500, 0, 0 },
	{ "partition", { 1, 0, 0, 0 }, false, "t2", 0, 0, 40100, 0, 0 },
	{ "no amounts", { 0 }, true, "t2", 0, 0, 40000, 0, 0 },
	{ "waited an hour", { 0 }, true, NULL, HOUR, 0, 0, 1000.8, 0 },
	{ "submitted in the future", { 0 }, true, NULL, -100, 0, 0, 0, 0 },
	{ "deadline in 100 s", { 0 }, true, NULL, 0, 100, 0, 0, 36000 },
	{ "deadline in 1 s", { 0 }, true, NULL, 0, 1, 0, 0, 3600000 },
	{ "deadline now", { 0 }, true, NULL, 0, -0, 0, 0, 0 },
	{ "deadline passed", { 0 }, true, NULL, 0, -50, 0, 0, 3600000 },
};

START_TEST(test_urgency)
{
	prism_ge_policy_t *pol = _policy("urgency_slots 100\n"
					 "urgency[mem] 0.5\n"
					 "urgency[nodes] 1000\n"
					 "urgency[gres/gpu] 500\n"
					 "urgency_partition[t2] 40000\n"
					 "weight_waiting_time 0.278\n"
					 "weight_deadline 3600000\n");
	prism_ge_job_t job = _job(7);
	prism_ge_result_t res = { .otckt = 5 };
	prism_error_t err = { "" };
	const int64_t now = 1700000000;

	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_RESOURCE, "gres/gpu"), 3);
	job.amount = urg_rows[_i].no_amount ? NULL : urg_rows[_i].amount;
	if (urg_rows[_i].part)
		job.partition = prism_ge_find(pol, PRISM_GE_PARTITION,
					      urg_rows[_i].part);
	job.submit = now - urg_rows[_i].waited;
	if (urg_rows[_i].deadline > 0)
		job.deadline = now + urg_rows[_i].deadline;
	else if (urg_rows[_i].deadline < 0)
		job.deadline = now + urg_rows[_i].deadline;
	ck_assert_int_eq(prism_ge_urgency(pol, &job, now, &res, &err), 0);
	ck_assert_msg(_near(res.rrcontr, urg_rows[_i].rr) &&
			      _near(res.wtcontr, urg_rows[_i].wt) &&
			      _near(res.dlcontr, urg_rows[_i].dl),
		      "%s: rr %g wt %g dl %g", urg_rows[_i].what, res.rrcontr,
		      res.wtcontr, res.dlcontr);
	ck_assert(_near(res.urg, res.rrcontr + res.wtcontr + res.dlcontr));
	ck_assert(res.otckt == 5);	/* untouched */
	prism_ge_policy_free(pol);
}
END_TEST

/* A deadline of exactly "now" is GE's MAX(time_left, 1) too. */
START_TEST(test_deadline_now)
{
	prism_ge_policy_t *pol = _policy("weight_deadline 1000\n");
	prism_ge_job_t job = _job(1);
	prism_ge_result_t res;

	job.deadline = 500;
	ck_assert_int_eq(prism_ge_urgency(pol, &job, 500, &res, NULL), 0);
	ck_assert(res.dlcontr == 1000.0);
	job.deadline = 0;	/* none */
	ck_assert_int_eq(prism_ge_urgency(pol, &job, 500, &res, NULL), 0);
	ck_assert(res.dlcontr == 0.0);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- POSIX priority and normalisation --------------------------------- */

static const struct {
	int64_t nice;
	int32_t ppri;
	double npprior;
} posix[] = {
	{ 0, 0, 0.5 },
	{ 100, -100, 924.0 / 2048 },
	{ -100, 100, 1124.0 / 2048 },
	{ 1023, -1023, 1.0 / 2048 },
	{ 1024, -1023, 1.0 / 2048 },
	{ -1024, 1024, 1.0 },
	{ -5000, 1024, 1.0 },
	{ INT64_MAX, -1023, 1.0 / 2048 },
	{ INT64_MIN, 1024, 1.0 },
};

START_TEST(test_posix)
{
	prism_ge_policy_t *pol = _policy("weight_priority 1\n"
					 "weight_urgency 0\n"
					 "weight_ticket 0\n");
	prism_ge_job_t job = _job(1);
	prism_ge_input_t in = { .pol = pol };
	prism_ge_result_t res;

	ck_assert_int_eq(prism_ge_posix_prio(posix[_i].nice), posix[_i].ppri);
	job.nice = posix[_i].nice;
	_run(&in, &job, 1, &res);
	ck_assert_int_eq(res.ppri, posix[_i].ppri);
	ck_assert(res.npprior == posix[_i].npprior);
	ck_assert(res.prio == posix[_i].npprior);
	prism_ge_policy_free(pol);
}
END_TEST

static const struct {
	double v, min, max, want;
} norm[] = {
	{ 5, 0, 10, 0.5 },
	{ 0, 0, 2, 0.0 },
	{ 2, 0, 2, 1.0 },
	{ 3, 3, 3, 0.5 },		/* no range */
	{ 1, 1, 1 + 1e-6, 0.5 },	/* below GE's SGE_EPSILON */
	{ 1e-5, 0, 1e-5, 1.0 },		/* at it */
	{ 7, 10, 0, 0.5 },		/* reversed */
	{ 1, NAN, 2, 0.5 },
};

START_TEST(test_normalize)
{
	ck_assert_msg(prism_ge_normalize(norm[_i].v, norm[_i].min,
					 norm[_i].max) == norm[_i].want,
		      "row %d", _i);
}
END_TEST

/* Normalisation across a pass: one job, all equal, and ranges. */
static const struct {
	const char *what;
	int n;
	double cpus[4];
	double nurg[4];
	double ntckts[4];
} pass_norm[] = {
	{ "one job", 1, { 4 }, { 0.5 }, { 0.5 } },
	{ "all equal", 3, { 2, 2, 2 }, { 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 } },
	{ "two", 2, { 1, 3 }, { 0, 1 }, { 0.5, 0.5 } },
	{ "three", 3, { 1, 2, 4 }, { 0, 1.0 / 3, 1 }, { 0.5, 0.5, 0.5 } },
};

START_TEST(test_pass_normalize)
{
	prism_ge_policy_t *pol = _policy("urgency_slots 100\n");
	prism_ge_job_t jobs[4];
	double amount[4][3];
	prism_ge_input_t in = { .pol = pol, .now = 0 };
	prism_ge_result_t res[4];
	prism_error_t err = { "" };
	prism_ge_pass_t *pass = prism_ge_pass_create(&err);
	const prism_ge_range_t *r;
	int n = pass_norm[_i].n;

	for (int i = 0; i < n; i++) {
		jobs[i] = _job(i + 1);
		amount[i][0] = pass_norm[_i].cpus[i];
		amount[i][1] = amount[i][2] = 0;
		jobs[i].amount = amount[i];
	}
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, jobs, n, res, &err), 0);
	for (int i = 0; i < n; i++) {
		ck_assert_msg(_near(res[i].nurg, pass_norm[_i].nurg[i]) &&
				      res[i].ntckts == pass_norm[_i].ntckts[i],
			      "%s: job %d: nurg %g ntckts %g",
			      pass_norm[_i].what, i, res[i].nurg,
			      res[i].ntckts);
		/* prio = 0.5 nurg + 0.5 ntckts (the defaults) */
		ck_assert(res[i].prio ==
			  0.5 * res[i].nurg + 0.5 * res[i].ntckts);
	}
	r = prism_ge_pass_range(pass);
	ck_assert_uint_eq(r->jobs, n);
	ck_assert(r->urg_min == 100 * pass_norm[_i].cpus[0]);
	ck_assert(r->tix_max == 0.0);
	prism_ge_pass_free(pass);
	prism_ge_policy_free(pol);
}
END_TEST

/* Tickets are normalised over 0..max, not min..max (GE's tix range). */
START_TEST(test_ticket_normalize)
{
	prism_ge_policy_t *pol = _policy("weight_tickets_share 10000\n");
	prism_ge_node_t nodes[3] = {
		{ .parent = NONE, .shares = 1 },
		{ .parent = 0, .shares = 100, .usage = 300, .user = true },
		{ .parent = 0, .shares = 100, .usage = 100, .user = true },
	};
	prism_ge_job_t jobs[2] = { _job(1), _job(2) };
	prism_ge_input_t in = { .pol = pol, .nodes = nodes, .node_cnt = 3 };
	prism_ge_result_t res[2];

	jobs[0].node = 1;
	jobs[1].node = 2;
	_run(&in, jobs, 2, res);
	ck_assert(_near(res[0].tckts, 2500) && _near(res[1].tckts, 7500));
	ck_assert(_near(res[0].ntckts, 1.0 / 3) && res[1].ntckts == 1.0);
	ck_assert(res[0].nurg == 0.5 && res[1].nurg == 0.5);
	ck_assert(res[0].slurm < res[1].slurm);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- usage decay ------------------------------------------------------ */

static const struct {
	double usage, seconds;
	uint32_t halftime;
	double want;
} decay[] = {
	{ 1000, 168.0 * HOUR, 168, 500 },
	{ 1000, 2 * 168.0 * HOUR, 168, 250 },
	{ 1000, 14 * 24.0 * HOUR, 336, 500 },	/* the seed: 14 days */
	{ 1000, 7 * 24.0 * HOUR, 336, 1000 / M_SQRT2 },
	{ 1000, 1e9, 0, 1000 },			/* halftime 0: no decay */
	{ 1000, 0, 168, 1000 },
	{ 1000, -HOUR, 168, 1000 },		/* clock back: unchanged */
	{ 0, HOUR, 1, 0 },
	{ 1000, 1e12, 1, 0 },
};

START_TEST(test_decay)
{
	double got = prism_ge_decay(decay[_i].usage, decay[_i].seconds,
				    decay[_i].halftime);

	ck_assert_msg(_near(got, decay[_i].want), "row %d: %g", _i, got);
}
END_TEST

/* Decayed usage drives the share tree like the usage it decays to. */
START_TEST(test_share_decay)
{
	prism_ge_policy_t *pol = _policy("weight_tickets_share 10000\n"
					 "halftime 336\n");
	uint32_t ht = prism_ge_policy_params(pol)->halftime;
	prism_ge_node_t nodes[3] = {
		{ .parent = NONE, .shares = 1 },
		{ .parent = 0, .shares = 100, .user = true },
		{ .parent = 0, .shares = 100, .user = true },
	};
	prism_ge_job_t jobs[2] = { _job(1), _job(2) };
	prism_ge_input_t in = { .pol = pol, .nodes = nodes, .node_cnt = 3 };
	prism_ge_result_t res[2];

	/* 1200 two weeks ago is 600 now; 400 four weeks ago is 100 */
	nodes[1].usage = prism_ge_decay(1200, 14 * 24.0 * HOUR, ht);
	nodes[2].usage = prism_ge_decay(400, 28 * 24.0 * HOUR, ht);
	jobs[0].node = 1;
	jobs[1].node = 2;
	_run(&in, jobs, 2, res);
	/* shr = shares^2 / usage: 1/600 : 1/100 */
	ck_assert(_near(res[0].stckt, 10000.0 / 7));
	ck_assert(_near(res[1].stckt, 60000.0 / 7));
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- the share tree --------------------------------------------------- */

typedef struct {
	int parent;		/* -1: the root */
	uint32_t shares;
	double usage;
	uint32_t running;
	bool user;
} _n_t;

typedef struct {
	int node;		/* -1: none */
	uint32_t id;
	uint32_t js;		/* jobshare */
} _j_t;

/* Table shorthands: the root, an inner node, a user leaf, a job. */
#define ROOT { .parent = -1, .shares = 1 }
#define INNER(p, s) { .parent = (p), .shares = (s) }
#define USER(p, s, u, r) \
	{ .parent = (p), .shares = (s), .usage = (u), .running = (r), \
	  .user = true }
#define J(n, i) { .node = (n), .id = (i) }
#define JS(n, i, s) { .node = (n), .id = (i), .js = (s) }

static const struct {
	const char *what;
	double cf;
	int nn;
	_n_t n[8];
	int nj;
	_j_t j[6];
	double want[6];
} trees[] = {
	{ "entitlement 2:1, no usage", 5, 3,
	  { ROOT, USER(0, 200, 0, 0), USER(0, 100, 0, 0) },
	  2, { J(1, 1), J(2, 2) }, { 20000.0 / 3, 10000.0 / 3 } },
	{ "usage 3:1, equal shares", 5, 3,
	  { ROOT, USER(0, 100, 300, 0), USER(0, 100, 100, 0) },
	  2, { J(1, 1), J(2, 2) }, { 2500, 7500 } },
	{ "entitlement and usage", 5, 3,
	  { ROOT, USER(0, 200, 400, 0), USER(0, 100, 400, 0) },
	  2, { J(1, 1), J(2, 2) }, { 8000, 2000 } },
	{ "a sibling without jobs takes no share", 5, 4,
	  { ROOT, USER(0, 100, 0, 0), USER(0, 100, 0, 0),
	    USER(0, 100, 0, 0) },
	  2, { J(1, 1), J(2, 2) }, { 5000, 5000 } },
	{ "a user's jobs: stt / k", 5, 3,
	  { ROOT, USER(0, 100, 0, 0), USER(0, 100, 0, 0) },
	  4, { J(1, 1), J(1, 2), J(1, 3), J(2, 4) },
	  { 5000, 2500, 5000.0 / 3, 5000 } },
	{ "running jobs come first", 5, 3,
	  { ROOT, USER(0, 100, 0, 1), USER(0, 100, 0, 0) },
	  3, { J(1, 1), J(1, 2), J(2, 3) }, { 2500, 5000.0 / 3, 5000 } },
	{ "a node with running jobs only is active", 5, 3,
	  { ROOT, USER(0, 100, 0, 2), USER(0, 100, 0, 0) },
	  1, { J(2, 1) }, { 5000 } },
	{ "jobshare orders a user's jobs", 5, 2,
	  { ROOT, USER(0, 100, 0, 0) },
	  2, { JS(1, 1, 0), JS(1, 2, 10) }, { 5000, 10000 } },
	{ "ties by job id", 5, 2,
	  { ROOT, USER(0, 100, 0, 0) },
	  2, { J(1, 9), J(1, 3) }, { 5000, 10000 } },
	{ "projects order their users' jobs", 5, 6,
	  { ROOT, INNER(0, 100), USER(1, 50, 0, 0),
	    USER(1, 50, 0, 0), INNER(0, 100), USER(4, 100, 0, 0) },
	  3, { J(2, 1), J(3, 2), J(5, 3) }, { 5000, 2500, 5000 } },
	{ "a single branch: the user's stt is 1", 5, 3,
	  { ROOT, INNER(0, 1), USER(1, 1, 0, 0) },
	  2, { J(2, 1), J(2, 2) }, { 10000, 5000 } },
	{ "subtree usage", 5, 6,
	  { ROOT, INNER(0, 100), USER(1, 50, 100, 0),
	    USER(1, 50, 200, 0), INNER(0, 100), USER(4, 100, 100, 0) },
	  2, { J(2, 1), J(5, 2) }, { 2500, 7500 } },
	{ "compensation factor 1", 1, 3,
	  { ROOT, USER(0, 100, 1, 0), USER(0, 100, 2, 0) },
	  2, { J(1, 1), J(2, 2) }, { 6000, 4000 } },
	{ "compensation factor 0: off", 0, 3,
	  { ROOT, USER(0, 100, 1, 0), USER(0, 100, 2, 0) },
	  2, { J(1, 1), J(2, 2) }, { 20000.0 / 3, 10000.0 / 3 } },
	{ "compensation factor 5: no effect here", 5, 3,
	  { ROOT, USER(0, 100, 1, 0), USER(0, 100, 2, 0) },
	  2, { J(1, 1), J(2, 2) }, { 20000.0 / 3, 10000.0 / 3 } },
	{ "usage below the minimum", 5, 3,
	  { ROOT, USER(0, 100, 0.1, 0), USER(0, 100, 0.2, 0) },
	  2, { J(1, 1), J(2, 2) }, { 5000, 5000 } },
	{ "zero shares", 5, 3,
	  { ROOT, USER(0, 0, 0, 0), USER(0, 100, 0, 0) },
	  2, { J(1, 1), J(2, 2) }, { 0, 10000 } },
	{ "a job without node", 5, 2,
	  { ROOT, USER(0, 100, 0, 0) },
	  2, { J(-1, 1), J(1, 2) }, { 0, 10000 } },
	{ "the root as the only user", 5, 1, { USER(-1, 1, 0, 0) },
	  2, { J(0, 1), J(0, 2) }, { 10000, 5000 } },
};

START_TEST(test_share_tree)
{
	char text[128];
	prism_ge_policy_t *pol;
	prism_ge_node_t nodes[8];
	prism_ge_job_t jobs[6];
	prism_ge_result_t res[6];
	prism_ge_input_t in = { .nodes = nodes, .node_cnt = trees[_i].nn };

	snprintf(text, sizeof(text),
		 "weight_tickets_share 10000\ncompensation_factor %g\n",
		 trees[_i].cf);
	pol = _policy(text);
	in.pol = pol;
	for (int i = 0; i < trees[_i].nn; i++) {
		const _n_t *x = &trees[_i].n[i];

		nodes[i] = (prism_ge_node_t) {
			.parent = x->parent < 0 ? NONE : (uint32_t) x->parent,
			.shares = x->shares, .usage = x->usage,
			.running = x->running, .user = x->user
		};
	}
	for (int i = 0; i < trees[_i].nj; i++) {
		jobs[i] = _job(trees[_i].j[i].id);
		jobs[i].node = trees[_i].j[i].node < 0 ?
			NONE : (uint32_t) trees[_i].j[i].node;
		jobs[i].jobshare = trees[_i].j[i].js;
	}
	_run(&in, jobs, trees[_i].nj, res);
	for (int i = 0; i < trees[_i].nj; i++) {
		ck_assert_msg(_near(res[i].stckt, trees[_i].want[i]),
			      "%s: job %d: %g, want %g", trees[_i].what, i,
			      res[i].stckt, trees[_i].want[i]);
		ck_assert(res[i].otckt == 0.0 && res[i].ftckt == 0.0);
		ck_assert(res[i].tckts == res[i].stckt);
	}
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- functional tickets ----------------------------------------------- */

typedef struct {
	int user, account;	/* uN / aN, -1: none */
	uint32_t js;
	int64_t submit;
} _fj_t;

#define FJ(u, a, s, t) \
	{ .user = (u), .account = (a), .js = (s), .submit = (t) }
#define U0 FJ(0, -1, 0, 0)
#define U1 FJ(1, -1, 0, 0)

static const char _fbase[] = "weight_tickets_functional 1000\n"
			     "weight_user 1\nweight_project 0\n"
			     "weight_department 0\nweight_job 0\n";

static const struct {
	const char *what;
	const char *conf;	/* after _fbase */
	uint32_t user_running[3], account_running[3];
	int nj;
	_fj_t j[4];
	double want[4];
} func_rows[] = {
	{ "shares 2:1",
	  "functional_shares_user[u0] 200\nfunctional_shares_user[u1] 100\n",
	  { 0 }, { 0 }, 2, { U0, U1 }, { 1000, 1000.0 / 3 } },
	{ "shared among a user's jobs",
	  "functional_shares_user[u0] 100\nfunctional_shares_user[u1] 100\n",
	  { 0 }, { 0 }, 3, { U0, U0, U1 }, { 1000, 250, 500 } },
	{ "not shared",
	  "share_functional_shares FALSE\n"
	  "functional_shares_user[u0] 100\nfunctional_shares_user[u1] 100\n",
	  { 0 }, { 0 }, 3, { U0, U0, U1 }, { 1000, 500, 1000.0 / 3 } },
	{ "GE's default weights dilute",
	  "weight_user 0.25\nweight_project 0.25\nweight_department 0.25\n"
	  "weight_job 0.25\nfunctional_shares_user[u0] 100\n",
	  { 0 }, { 0 }, 1, { U0 }, { 250 } },
	{ "accounts",
	  "weight_user 0\nweight_project 1\n"
	  "functional_shares_account[a0] 100\n"
	  "functional_shares_account[a1] 100\n",
	  { 0 }, { 0 }, 3,
	  { FJ(-1, 0, 0, 0), FJ(-1, 0, 0, 0), FJ(-1, 1, 0, 0) },
	  { 1000, 250, 500 } },
	{ "users and accounts",
	  "weight_user 0.5\nweight_project 0.5\n"
	  "functional_shares_user[u0] 100\nfunctional_shares_user[u1] 100\n"
	  "functional_shares_account[a0] 100\n",
	  { 0 }, { 0 }, 2, { FJ(0, 0, 0, 0), FJ(1, 0, 0, 0) }, { 1000, 500 } },
	{ "running jobs",
	  "functional_shares_user[u0] 100\nfunctional_shares_user[u1] 100\n",
	  { 1, 0 }, { 0 }, 2, { U0, U1 }, { 250, 500 } },
	{ "job shares", "weight_user 0\nweight_job 1\n", { 0 }, { 0 }, 2,
	  { FJ(-1, -1, 10, 0), FJ(-1, -1, 30, 0) }, { 250, 1000 } },
	{ "no shares, no tickets", "functional_shares_user[u0] 100\n",
	  { 0 }, { 0 }, 2, { U0, FJ(-1, -1, 0, 0) }, { 1000, 0 } },
	{ "ties by submit time",
	  "functional_shares_user[u0] 100\nfunctional_shares_user[u1] 100\n",
	  { 0 }, { 0 }, 2, { FJ(0, -1, 0, 50), FJ(1, -1, 0, 10) },
	  { 500, 1000 } },
	{ "past max_functional_jobs_to_schedule",
	  "max_functional_jobs_to_schedule 1\n"
	  "functional_shares_user[u0] 100\nfunctional_shares_user[u1] 100\n"
	  "functional_shares_user[u2] 100\n",
	  { 0 }, { 0 }, 3, { U0, U1, FJ(2, -1, 0, 0) },
	  { 1000, 100000.0 / 100.001, 100000.0 / 100.001 } },
	{ "no pool",
	  "weight_tickets_functional 0\nfunctional_shares_user[u0] 100\n",
	  { 0 }, { 0 }, 1, { U0 }, { 0 } },
};

/* uN, aN: the handles of the names the row's conf gives (or NONE). */
static uint32_t _handle(const prism_ge_policy_t *pol, prism_ge_kind_t kind,
			int i)
{
	char name[16];

	if (i < 0)
		return NONE;
	snprintf(name, sizeof(name), "%c%d",
		 kind == PRISM_GE_USER ? 'u' : 'a', i);
	return prism_ge_find(pol, kind, name);
}

/*
 * 'base' then 'over' into 'out': the lines of 'base' whose parameter
 * 'over' sets too are left out (a parameter may not change its value).
 */
static void _conf_over(const char *base, const char *over, char *out,
		       size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	while (*base) {
		size_t n = strcspn(base, "\n") + 1, k = strcspn(base, " ");
		const char *at = over;
		bool set = false;

		for (; at && *at; at = strchr(at, '\n'), at = at ? at + 1 : at)
			set |= !strncmp(at, base, k) && at[k] == ' ';
		if (!set)
			len += snprintf(out + len, size - len, "%.*s", (int) n,
					base);
		base += n;
	}
	snprintf(out + len, size - len, "%s", over);
}

START_TEST(test_functional)
{
	char text[1024];
	prism_ge_policy_t *pol;
	prism_ge_job_t jobs[4];
	prism_ge_result_t res[4];
	uint32_t urun[3], arun[3];
	prism_ge_input_t in = { .user_running = urun,
				.account_running = arun };

	_conf_over(_fbase, func_rows[_i].conf, text, sizeof(text));
	pol = _policy(text);
	in.pol = pol;
	for (int k = 0; k < 3; k++) {
		urun[k] = arun[k] = 0;
		if ((uint32_t) k < prism_ge_count(pol, PRISM_GE_USER))
			urun[k] = func_rows[_i].user_running[k];
		if ((uint32_t) k < prism_ge_count(pol, PRISM_GE_ACCOUNT))
			arun[k] = func_rows[_i].account_running[k];
	}
	for (int i = 0; i < func_rows[_i].nj; i++) {
		jobs[i] = _job(i + 1);
		jobs[i].user = _handle(pol, PRISM_GE_USER,
				       func_rows[_i].j[i].user);
		jobs[i].account = _handle(pol, PRISM_GE_ACCOUNT,
					  func_rows[_i].j[i].account);
		jobs[i].jobshare = func_rows[_i].j[i].js;
		jobs[i].submit = func_rows[_i].j[i].submit;
	}
	_run(&in, jobs, func_rows[_i].nj, res);
	for (int i = 0; i < func_rows[_i].nj; i++) {
		ck_assert_msg(_near(res[i].ftckt, func_rows[_i].want[i]),
			      "%s: job %d: %g, want %g", func_rows[_i].what,
			      i, res[i].ftckt, func_rows[_i].want[i]);
		ck_assert(res[i].otckt == 0.0 && res[i].stckt == 0.0);
	}
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- override tickets ------------------------------------------------- */

static const struct {
	const char *what;
	const char *conf;
	uint32_t user_running[2];
	int nj;
	_fj_t j[3];
	uint32_t ot[3];		/* the jobs' own override tickets */
	double want[3];
} ovr_rows[] = {
	{ "not shared: user + account + job",
	  "share_override_tickets FALSE\noverride_tickets_user[u0] 100\n"
	  "override_tickets_account[a0] 50\n",
	  { 0 }, 2, { FJ(0, 0, 0, 0), FJ(0, 0, 0, 0) }, { 7, 7 },
	  { 157, 157 } },
	{ "shared among a user's jobs", "override_tickets_user[u0] 100\n",
	  { 0 }, 2, { U0, U0 }, { 0 }, { 100, 50 } },
	{ "shared, with a running job", "override_tickets_user[u0] 100\n",
	  { 1 }, 2, { U0, U0 }, { 0 }, { 50, 100.0 / 3 } },
	{ "shared by user and account",
	  "override_tickets_user[u0] 100\noverride_tickets_user[u1] 0\n"
	  "override_tickets_account[a0] 60\n",
	  { 0 }, 3, { FJ(0, 0, 0, 0), FJ(0, 0, 0, 0), FJ(1, 0, 0, 0) }, { 0 },
	  { 160, 80, 20 } },
	{ "a job's own tickets are its own", "override_tickets_user[u0] 0\n",
	  { 0 }, 2, { U0, U0 }, { 30, 30 }, { 30, 30 } },
	{ "no tickets", "override_tickets_user[u0] 0\n", { 0 }, 1, { U0 },
	  { 0 }, { 0 } },
};

START_TEST(test_override)
{
	prism_ge_policy_t *pol = _policy(ovr_rows[_i].conf);
	prism_ge_job_t jobs[3];
	prism_ge_result_t res[3];
	uint32_t urun[2] = { 0, 0 };
	prism_ge_input_t in = { .pol = pol, .user_running = urun };

	for (uint32_t k = 0; k < prism_ge_count(pol, PRISM_GE_USER); k++)
		urun[k] = ovr_rows[_i].user_running[k];
	for (int i = 0; i < ovr_rows[_i].nj; i++) {
		jobs[i] = _job(i + 1);
		jobs[i].user = _handle(pol, PRISM_GE_USER,
				       ovr_rows[_i].j[i].user);
		jobs[i].account = _handle(pol, PRISM_GE_ACCOUNT,
					  ovr_rows[_i].j[i].account);
		jobs[i].otickets = ovr_rows[_i].ot[i];
	}
	_run(&in, jobs, ovr_rows[_i].nj, res);
	for (int i = 0; i < ovr_rows[_i].nj; i++)
		ck_assert_msg(_near(res[i].otckt, ovr_rows[_i].want[i]),
			      "%s: job %d: %g, want %g", ovr_rows[_i].what, i,
			      res[i].otckt, ovr_rows[_i].want[i]);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- policy_hierarchy ------------------------------------------------- */

static const struct {
	const char *what;
	const char *hier;
	bool functional;	/* else share tree */
	double want[2];		/* job 1's and job 2's S or F tickets */
} hier_rows[] = {
	{ "OFS: the share tree sees override", "OFS", false, { 500, 1000 } },
	{ "OS", "OS", false, { 500, 1000 } },
	{ "NONE: it does not", "NONE", false, { 1000, 500 } },
	{ "S: override comes after", "S", false, { 1000, 500 } },
	{ "SO", "SO", false, { 1000, 500 } },
	{ "OF: functional sees override", "OF", true, { 500, 1000 } },
	{ "FO", "FO", true, { 1000, 500 } },
	{ "NONE, functional", "NONE", true, { 1000, 500 } },
};

START_TEST(test_hierarchy)
{
	char text[512];
	prism_ge_policy_t *pol;
	prism_ge_node_t nodes[2] = {
		{ .parent = NONE, .shares = 1 },
		{ .parent = 0, .shares = 100, .user = true },
	};
	prism_ge_job_t jobs[2] = { _job(1), _job(2) };
	prism_ge_result_t res[2];
	prism_ge_input_t in = { .nodes = nodes, .node_cnt = 2 };

	snprintf(text, sizeof(text),
		 "share_override_tickets FALSE\npolicy_hierarchy %s\n%s",
		 hier_rows[_i].hier,
		 hier_rows[_i].functional ?
			 "weight_tickets_functional 1000\nweight_user 1\n"
			 "weight_project 0\nweight_department 0\n"
			 "weight_job 0\nfunctional_shares_user[u0] 100\n"
			 "functional_shares_user[u1] 100\n" :
			 "weight_tickets_share 1000\n");
	pol = _policy(text);
	in.pol = pol;
	if (hier_rows[_i].functional) {
		jobs[0].user = _handle(pol, PRISM_GE_USER, 0);
		jobs[1].user = _handle(pol, PRISM_GE_USER, 1);
	} else {
		jobs[0].node = jobs[1].node = 1;
	}
	jobs[1].otickets = 100;
	_run(&in, jobs, 2, res);
	for (int i = 0; i < 2; i++) {
		double got = hier_rows[_i].functional ? res[i].ftckt
						      : res[i].stckt;

		ck_assert_msg(_near(got, hier_rows[_i].want[i]),
			      "%s: job %d: %g", hier_rows[_i].what, i, got);
	}
	ck_assert(res[0].otckt == 0.0 && res[1].otckt == 100.0);
	ck_assert(_near(res[1].tckts, res[1].otckt + res[1].ftckt +
					      res[1].stckt));
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- the greedy orderings against a naive one ------------------------- */

/* A small deterministic generator (tests need no global state either). */
static uint32_t _rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t) (*s >> 33);
}

typedef struct {
	uint32_t u, a, v;	/* category: user, account, job value */
	bool ok;		/* the job has a category */
} _key_t;

static uint32_t _obj(const prism_ge_policy_t *pol, prism_ge_kind_t kind,
		     uint32_t h, bool functional)
{
	const prism_ge_entry_t *e = prism_ge_get(pol, kind, h);

	if (!e)
		return 0;
	return functional ? e->fshare : e->oticket;
}

/* Is job a before job b inside their category? */
static bool _first(const prism_ge_job_t *jobs, const double *acc, bool dep,
		   int a, int b)
{
	double x = dep ? acc[a] : 0.0, y = dep ? acc[b] : 0.0;

	if (x != y)
		return x > y;
	if (jobs[a].submit != jobs[b].submit)
		return jobs[a].submit < jobs[b].submit;
	if (jobs[a].job_id != jobs[b].job_id)
		return jobs[a].job_id < jobs[b].job_id;
	return a < b;
}

/*
 * GE's loop straight: every round, the first job of every category is
 * evaluated and the best taken; no heap, no laziness.
 */
static void _naive(const prism_ge_policy_t *pol, const prism_ge_job_t *jobs,
		   int n, const double *acc, bool dep, bool functional,
		   const uint32_t *urun, const uint32_t *arun, double *out)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	bool shared = functional ? p->share_functional_shares : true;
	double ws = p->weight_user + p->weight_department + p->weight_project +
		    p->weight_job;
	double wu = p->weight_user / ws, wa = p->weight_project / ws;
	double wj = p->weight_job / ws, pool = p->weight_tickets_functional;
	double su = 0, sa = 0, sj = 0;
	uint64_t ucnt[8] = { 0 }, acnt[8] = { 0 };
	_key_t key[16];
	bool taken[16] = { false };
	int limit = functional ? (int) p->max_functional_jobs : n;

	for (uint32_t u = 0; u < prism_ge_count(pol, PRISM_GE_USER); u++) {
		double s = _obj(pol, PRISM_GE_USER, u, true);

		ucnt[u] = urun[u];
		su += urun[u] ? (shared ? s : s * urun[u]) : 0;
	}
	for (uint32_t a = 0; a < prism_ge_count(pol, PRISM_GE_ACCOUNT); a++) {
		double s = _obj(pol, PRISM_GE_ACCOUNT, a, true);

		acnt[a] = arun[a];
		sa += arun[a] ? (shared ? s : s * arun[a]) : 0;
	}
	for (int i = 0; i < n; i++) {
		uint32_t uv = jobs[i].user == NONE ? 0 :
			_obj(pol, PRISM_GE_USER, jobs[i].user, functional);
		uint32_t av = jobs[i].account == NONE ? 0 :
			_obj(pol, PRISM_GE_ACCOUNT, jobs[i].account,
			     functional);

		key[i].u = uv ? jobs[i].user : NONE;
		key[i].a = av ? jobs[i].account : NONE;
		key[i].v = functional ? jobs[i].jobshare : jobs[i].otickets;
		key[i].ok = uv || av || key[i].v;
		out[i] = 0.0;
	}
	for (int round = 0;; round++) {
		int first[16], best = -1;
		double cand[16], bestkey = 0;

		/* the first job of each category */
		for (int i = 0; i < n; i++) {
			first[i] = 0;
			if (!key[i].ok || taken[i])
				continue;
			first[i] = 1;
			for (int k = 0; k < n; k++) {
				if (k == i || !key[k].ok || taken[k] ||
				    key[k].u != key[i].u ||
				    key[k].a != key[i].a ||
				    key[k].v != key[i].v)
					continue;
				if (_first(jobs, acc, dep, k, i))
					first[i] = 0;
			}
		}
		for (int i = 0; i < n; i++) {
			double v = 0.0;

			if (!first[i])
				continue;
			if (!functional) {
				if (key[i].u != NONE)
					v += _obj(pol, PRISM_GE_USER, key[i].u,
						  false) /
					     (double) (ucnt[key[i].u] + 1);
				if (key[i].a != NONE)
					v += _obj(pol, PRISM_GE_ACCOUNT,
						  key[i].a, false) /
					     (double) (acnt[key[i].a] + 1);
				v += key[i].v;
			} else {
				if (key[i].u != NONE) {
					double s = _obj(pol, PRISM_GE_USER,
							key[i].u, true);
					double f = shared ?
						s / (ucnt[key[i].u] + 1.0) : s;

					v += wu * f * pool /
					     ((shared ? su : su + s) + 0.001);
				}
				if (key[i].a != NONE) {
					double s = _obj(pol, PRISM_GE_ACCOUNT,
							key[i].a, true);
					double f = shared ?
						s / (acnt[key[i].a] + 1.0) : s;

					v += wa * f * pool /
					     ((shared ? sa : sa + s) + 0.001);
				}
				v += wj * key[i].v * pool /
				     (sj + key[i].v + 0.001);
			}
			cand[i] = v;
			if (round >= limit) {
				out[i] = v;	/* past the limit */
				continue;
			}
			v += functional && dep ? acc[i] : 0.0;
			if (best < 0 || v > bestkey ||
			    (v == bestkey &&
			     ((functional &&
			       jobs[i].submit != jobs[best].submit) ?
				      jobs[i].submit < jobs[best].submit :
			      jobs[i].job_id != jobs[best].job_id ?
				      jobs[i].job_id < jobs[best].job_id :
				      i < best))) {
				best = i;
				bestkey = v;
			}
		}
		if (round >= limit) {
			/* the rest of each category gets its first's */
			for (int i = 0; i < n; i++) {
				if (!key[i].ok || taken[i] || first[i])
					continue;
				for (int k = 0; k < n; k++) {
					if (first[k] && key[k].u == key[i].u &&
					    key[k].a == key[i].a &&
					    key[k].v == key[i].v)
						out[i] = cand[k];
				}
			}
			return;
		}
		if (best < 0)
			return;
		taken[best] = true;
		if (jobs[best].user != NONE)
			ucnt[jobs[best].user]++;
		if (jobs[best].account != NONE)
			acnt[jobs[best].account]++;
		if (!functional) {
			out[best] = cand[best];
			continue;
		}
		{
			double uf = 0, af = 0, v = 0;

			if (key[best].u != NONE) {
				double s = _obj(pol, PRISM_GE_USER, key[best].u,
						true);

				uf = shared ? s / ucnt[key[best].u] : s;
				if (!shared || ucnt[key[best].u] <= 1)
					su += uf;
			}
			if (key[best].a != NONE) {
				double s = _obj(pol, PRISM_GE_ACCOUNT,
						key[best].a, true);

				af = shared ? s / acnt[key[best].a] : s;
				if (!shared || acnt[key[best].a] <= 1)
					sa += af;
			}
			sj += key[best].v;
			if (key[best].u != NONE && su != 0)
				v += wu * uf * pool / su;
			if (key[best].a != NONE && sa != 0)
				v += wa * af * pool / sa;
			if (sj != 0)
				v += wj * key[best].v * pool / sj;
			out[best] = v;
		}
	}
}

/*
 * The tickets the dependent policies before 'which' gave (into acc);
 * returns whether 'which' is dependent itself.
 */
static bool _acc_before(const prism_ge_params_t *p, prism_ge_tpolicy_t which,
			const prism_ge_result_t *res, int n, double *acc)
{
	for (int i = 0; i < n; i++)
		acc[i] = 0.0;
	for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
		if (p->order[k] == which)
			return p->dependent[k];
		if (!p->dependent[k])
			continue;
		for (int i = 0; i < n; i++)
			acc[i] += p->order[k] == PRISM_GE_OVERRIDE ?
					  res[i].otckt :
				  p->order[k] == PRISM_GE_FUNCTIONAL ?
					  res[i].ftckt :
					  res[i].stckt;
	}
	return false;
}

START_TEST(test_greedy_naive)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull + (uint64_t) _i;

	for (int round = 0; round < 200; round++) {
		char text[2048];
		size_t len = 0;
		prism_ge_policy_t *pol;
		prism_ge_job_t jobs[14];
		prism_ge_result_t res[14];
		uint32_t urun[4], arun[3];
		double acc[14], want[14];
		int n = 1 + (int) (_rand(&seed) % 14);
		bool shared = _rand(&seed) & 1;
		static const char *hiers[] = { "OF", "FO", "NONE", "F" };
		const char *hier = hiers[_rand(&seed) % 4];
		prism_ge_input_t in = { .user_running = urun,
					.account_running = arun };
		const prism_ge_params_t *p;

		len += snprintf(text + len, sizeof(text) - len,
				"weight_tickets_functional %u\n"
				"weight_user 0.%u\nweight_project 0.%u\n"
				"weight_job 0.%u\nweight_department 0.1\n"
				"share_functional_shares %s\n"
				"share_override_tickets %s\n"
				"max_functional_jobs_to_schedule %u\n"
				"policy_hierarchy %s\n",
				1000 + _rand(&seed) % 9000,
				1 + _rand(&seed) % 9, _rand(&seed) % 10,
				_rand(&seed) % 10, shared ? "TRUE" : "FALSE",
				_rand(&seed) % 4 ? "TRUE" : "FALSE",
				_rand(&seed) % 16, hier);
		for (int u = 0; u < 4; u++)
			len += snprintf(text + len, sizeof(text) - len,
					"functional_shares_user[u%d] %u\n"
					"override_tickets_user[u%d] %u\n",
					u, _rand(&seed) % 3 * 50, u,
					_rand(&seed) % 3 * 40);
		for (int a = 0; a < 3; a++)
			len += snprintf(text + len, sizeof(text) - len,
					"functional_shares_account[a%d] %u\n"
					"override_tickets_account[a%d] %u\n",
					a, _rand(&seed) % 3 * 30, a,
					_rand(&seed) % 3 * 20);
		pol = _policy(text);
		p = prism_ge_policy_params(pol);
		in.pol = pol;
		for (int u = 0; u < 4; u++)
			urun[u] = _rand(&seed) % 3 == 0 ? _rand(&seed) % 3 : 0;
		for (int a = 0; a < 3; a++)
			arun[a] = _rand(&seed) % 3 == 0 ? _rand(&seed) % 3 : 0;
		for (int i = 0; i < n; i++) {
			jobs[i] = _job(1 + _rand(&seed) % 20);
			jobs[i].user = _rand(&seed) % 5 == 0 ?
				NONE : _rand(&seed) % 4;
			jobs[i].account = _rand(&seed) % 4 == 0 ?
				NONE : _rand(&seed) % 3;
			jobs[i].jobshare = _rand(&seed) % 3 == 0 ? 20 : 0;
			jobs[i].otickets = _rand(&seed) % 4 == 0 ? 25 : 0;
			jobs[i].submit = _rand(&seed) % 4;
		}
		_run(&in, jobs, n, res);

		if (p->share_override_tickets) {
			bool dep = _acc_before(p, PRISM_GE_OVERRIDE, res, n,
					       acc);

			_naive(pol, jobs, n, acc, dep, false, urun, arun,
			       want);
			for (int i = 0; i < n; i++)
				ck_assert_msg(_near(res[i].otckt, want[i]),
					      "round %d job %d: otckt %g, "
					      "naive %g (%s)", round, i,
					      res[i].otckt, want[i], text);
		}
		{
			bool dep = _acc_before(p, PRISM_GE_FUNCTIONAL, res, n,
					       acc);

			_naive(pol, jobs, n, acc, dep, true, urun, arun, want);
			for (int i = 0; i < n; i++)
				ck_assert_msg(_near(res[i].ftckt, want[i]),
					      "round %d job %d: ftckt %g, "
					      "naive %g (%s)", round, i,
					      res[i].ftckt, want[i], text);
		}
		prism_ge_policy_free(pol);
	}
}
END_TEST

/* ---- the Slurm mapping ------------------------------------------------ */

START_TEST(test_mapping)
{
	prism_ge_policy_t *pol = _policy("weight_priority 0.2\n"
					 "weight_urgency 0.3\n"
					 "weight_ticket 0.5\n");
	double w = 0.3 + 0.5 + 0.2, s = prism_ge_slurm_scale(pol);
	uint32_t prev = 0;
	uint64_t seed = 1;
	double prio = 0.0;

	ck_assert(s == (double) (PRISM_GE_SLURM_MAX - 1) / w);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, 0.0), 1);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, -1.0), 1);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, NAN), 1);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, w), PRISM_GE_SLURM_MAX);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, 7.0), PRISM_GE_SLURM_MAX);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, INFINITY),
			  PRISM_GE_SLURM_MAX);
	ck_assert_uint_lt(PRISM_GE_SLURM_MAX, 0xfffffffeu);	/* NO_VAL */
	ck_assert_uint_eq(prism_ge_to_slurm(pol, w / 2),
			  1 + (uint32_t) floor(w / 2 * s));
	ck_assert(prism_ge_from_slurm(pol, 0) == 0.0);
	ck_assert(prism_ge_from_slurm(pol, 1) == 0.0);
	ck_assert(_near(prism_ge_from_slurm(pol, PRISM_GE_SLURM_MAX), w));
	ck_assert(prism_ge_from_slurm(pol, UINT32_MAX) ==
		  prism_ge_from_slurm(pol, PRISM_GE_SLURM_MAX));
	/* order preserved, never 0, invertible to the bucket */
	for (int i = 0; i < 20000; i++) {
		uint32_t v;
		double back;

		prio += w * (_rand(&seed) % 1000) / 2e7;
		if (prio > w)
			break;
		v = prism_ge_to_slurm(pol, prio);
		ck_assert_uint_ge(v, prev);
		ck_assert_uint_ge(v, 1);
		ck_assert_uint_le(v, PRISM_GE_SLURM_MAX);
		back = prism_ge_from_slurm(pol, v);
		ck_assert(back <= prio * (1 + 1e-12));
		ck_assert(prio < back + 1.0 / s + 1e-12);
		prev = v;
	}
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_mapping_zero_weights)
{
	prism_ge_policy_t *pol = _policy("weight_priority 0\n"
					 "weight_urgency 0\n"
					 "weight_ticket 0\n");
	prism_ge_job_t jobs[2] = { _job(1), _job(2) };
	prism_ge_input_t in = { .pol = pol };
	prism_ge_result_t res[2];

	ck_assert(prism_ge_slurm_scale(pol) == 0.0);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, 0.0), 1);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, 1.0), 1);
	ck_assert(prism_ge_from_slurm(pol, 1234) == 0.0);
	jobs[1].nice = -10;
	_run(&in, jobs, 2, res);
	ck_assert_uint_eq(res[0].slurm, 1);
	ck_assert_uint_eq(res[1].slurm, 1);
	ck_assert(prism_ge_slurm_scale(NULL) == 0.0);
	prism_ge_policy_free(pol);
}
END_TEST

/* The largest weights still map into 32 bits. */
START_TEST(test_mapping_big_weights)
{
	prism_ge_policy_t *pol = _policy("weight_priority 1e9\n"
					 "weight_urgency 1e9\n"
					 "weight_ticket 1e9\n");

	ck_assert_uint_eq(prism_ge_to_slurm(pol, 3e9), PRISM_GE_SLURM_MAX);
	ck_assert_uint_ge(prism_ge_to_slurm(pol, 1.5e9),
			  (PRISM_GE_SLURM_MAX - 1) / 2);
	ck_assert_uint_le(prism_ge_to_slurm(pol, 1.5e9),
			  1 + (PRISM_GE_SLURM_MAX - 1) / 2);
	ck_assert_uint_eq(prism_ge_to_slurm(pol, 1.0), 2);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- sprio columns ---------------------------------------------------- */

START_TEST(test_sprio)
{
	prism_ge_policy_t *pol = _policy("weight_priority 0.2\n"
					 "weight_urgency 0.3\n"
					 "weight_ticket 0.5\n"
					 "weight_tickets_share 10000\n"
					 "urgency_slots 100\n");
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	double s = prism_ge_slurm_scale(pol);
	prism_ge_node_t nodes[4] = {
		{ .parent = NONE, .shares = 1 },
		{ .parent = 0, .shares = 100, .usage = 10, .user = true },
		{ .parent = 0, .shares = 300, .usage = 50, .user = true },
		{ .parent = 0, .shares = 200, .usage = 1, .user = true },
	};
	prism_ge_job_t jobs[12];
	double amount[12][3];
	prism_ge_result_t res[12];
	prism_ge_input_t in = { .pol = pol, .now = 100000, .nodes = nodes,
				.node_cnt = 4 };

	for (int i = 0; i < 12; i++) {
		jobs[i] = _job(i + 1);
		jobs[i].node = 1 + i % 3;
		jobs[i].nice = (i * 377) % 2000 - 1000;
		jobs[i].submit = i * 1000;
		amount[i][0] = 1 + i * 3;
		amount[i][1] = amount[i][2] = 0;
		jobs[i].amount = amount[i];
	}
	_run(&in, jobs, 12, res);
	for (int i = 0; i < 12; i++) {
		prism_ge_sprio_t col;

		ck_assert_int_eq(prism_ge_sprio(pol, &res[i], &col, NULL), 0);
		ck_assert_uint_eq((uint64_t) col.urgency + col.tickets +
					  col.posix + col.offset,
				  res[i].slurm);
		ck_assert_uint_ge(col.offset, 1);
		ck_assert_uint_le(col.offset, 3);
		ck_assert(fabs(col.urgency - s * p->weight_urgency *
						     res[i].nurg) <= 1.0);
		ck_assert(fabs(col.tickets - s * p->weight_ticket *
						     res[i].ntckts) <= 1.0);
		ck_assert(fabs(col.posix - s * p->weight_priority *
						   res[i].npprior) <= 1.0);
	}
	prism_ge_policy_free(pol);
}
END_TEST

/* Results that do not add up are cut so the sum stays exact. */
START_TEST(test_sprio_edges)
{
	prism_ge_policy_t *pol = _policy("weight_priority 1\n");
	prism_ge_result_t res = { .nurg = 1, .ntckts = 1, .npprior = 1 };
	prism_ge_sprio_t col;
	prism_error_t err = { "" };

	res.slurm = 1;
	ck_assert_int_eq(prism_ge_sprio(pol, &res, &col, &err), 0);
	ck_assert(col.urgency == 0 && col.tickets == 0 && col.posix == 0 &&
		  col.offset == 1);
	res.slurm = 0;
	ck_assert_int_eq(prism_ge_sprio(pol, &res, &col, &err), 0);
	ck_assert(col.urgency == 0 && col.tickets == 0 && col.posix == 0 &&
		  col.offset == 0);
	res.slurm = 1000;
	ck_assert_int_eq(prism_ge_sprio(pol, &res, &col, &err), 0);
	ck_assert_uint_eq(col.urgency, 999);
	ck_assert_uint_eq(col.urgency + col.tickets + col.posix + col.offset,
			  1000);
	res.nurg = NAN;
	ck_assert_int_eq(prism_ge_sprio(pol, &res, &col, &err), 0);
	ck_assert_uint_eq(col.urgency, 0);
	ck_assert_int_eq(prism_ge_sprio(NULL, &res, &col, &err), -1);
	ck_assert_str_eq(err.text, "prism_ge_sprio: NULL argument");
	ck_assert_int_eq(prism_ge_sprio(pol, NULL, &col, &err), -1);
	ck_assert_int_eq(prism_ge_sprio(pol, &res, NULL, &err), -1);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- outside a pass: estimate, other partitions, rebased columns ----- */

/*
 * A policy with partition urgencies and override tickets; the ranges of a
 * pass are given per row. Each row: a job (CPUs, seconds waited, whether
 * it is user u's with 300 override tickets) estimated with the ranges,
 * and the normalised values expected.
 */
static const struct {
	const char *what;
	double urg_min, urg_max, tix_max;
	uint32_t jobs;
	double cpus;
	int64_t waited;
	bool tickets;
	double nurg, ntckts;
} est[] = {
	{ "no pass yet: both halfway", 0, 0, 0, 0, 1, 0, false, 0.5, 0.5 },
	{ "inside the range", 0, 1000, 600, 4, 5, 0, false, 0.5, 0 },
	{ "waiting counts", 100, 1100, 600, 4, 1, 1000, false,
	  (100 + 278 - 100) / 1000.0, 0 },
	{ "above the range: 1", 0, 100, 600, 4, 5, 0, false, 1, 0 },
	{ "below the range: 0", 1000, 2000, 600, 4, 5, 0, false, 0, 0 },
	{ "override tickets of the user", 0, 1000, 600, 4, 5, 0, true, 0.5,
	  0.5 },
	{ "more tickets than the pass's most: 1", 0, 1000, 200, 4, 5, 0, true,
	  0.5, 1 },
	{ "no ticket range: halfway", 0, 1000, 0, 4, 5, 0, true, 0.5, 0.5 },
};

START_TEST(test_estimate)
{
	prism_ge_policy_t *pol = _policy("urgency_slots 100\n"
					 "weight_priority 0.1\n"
					 "override_tickets_user[u] 300\n");
	prism_ge_range_t range = { .jobs = est[_i].jobs,
				   .urg_min = est[_i].urg_min,
				   .urg_max = est[_i].urg_max,
				   .tix_max = est[_i].tix_max };
	double amount[3] = { est[_i].cpus, 0, 0 };
	prism_ge_job_t job = _job(7);
	prism_ge_result_t res;
	prism_error_t err = { "" };

	job.amount = amount;
	job.submit = 50000 - est[_i].waited;
	job.nice = -10;
	if (est[_i].tickets)
		job.user = prism_ge_find(pol, PRISM_GE_USER, "u");
	ck_assert_msg(!prism_ge_estimate(pol, &range, &job, 50000, &res, &err),
		      "%s", err.text);
	ck_assert_msg(_near(res.nurg, est[_i].nurg), "%s: nurg %g, not %g",
		      est[_i].what, res.nurg, est[_i].nurg);
	ck_assert_msg(_near(res.ntckts, est[_i].ntckts),
		      "%s: ntckts %g, not %g", est[_i].what, res.ntckts,
		      est[_i].ntckts);
	ck_assert(res.otckt == (est[_i].tickets ? 300.0 : 0.0));
	ck_assert(res.ftckt == 0.0 && res.stckt == 0.0);
	ck_assert_int_eq(res.ppri, 10);
	ck_assert(_near(res.npprior, 1034.0 / 2048));
	ck_assert(_near(res.prio, 0.5 * res.nurg + 0.5 * res.ntckts +
					  0.1 * res.npprior));
	ck_assert_uint_eq(res.slurm, prism_ge_to_slurm(pol, res.prio));
	ck_assert_uint_ge(res.slurm, 1);
	prism_ge_policy_free(pol);
}
END_TEST

/* A job of a pass, estimated with that pass's ranges, gets its priority. */
START_TEST(test_estimate_pass)
{
	prism_ge_policy_t *pol = _seed_policy();
	double amount[4][3] = { { 64 }, { 2 }, { 8 }, { 1 } };
	prism_ge_job_t jobs[4];
	prism_ge_result_t res[4], one;
	prism_ge_input_t in = { .pol = pol, .now = 40 * HOUR };
	prism_error_t err = { "" };
	prism_ge_pass_t *pass = prism_ge_pass_create(&err);

	for (int i = 0; i < 4; i++) {
		jobs[i] = _job(i + 1);
		jobs[i].amount = amount[i];
		jobs[i].submit = i * 7 * HOUR;
	}
	jobs[1].partition = prism_ge_find(pol, PRISM_GE_PARTITION, "t2");
	ck_assert(!prism_ge_pass_run(pass, &in, jobs, 4, res, &err));
	for (int i = 0; i < 4; i++) {
		ck_assert(!prism_ge_estimate(pol, prism_ge_pass_range(pass),
					     &jobs[i], in.now, &one, &err));
		ck_assert(one.urg == res[i].urg);
		ck_assert(one.nurg == res[i].nurg);
		ck_assert_uint_eq(one.slurm, res[i].slurm);
	}
	prism_ge_pass_free(pass);
	prism_ge_policy_free(pol);
}
END_TEST

/*
 * The job of a pass in another partition (seed policy: t2 and t64 40000,
 * u2 80000, batch none). Each row: from, to, the urgency expected with
 * the pass's range 0..100000.
 */
static const struct {
	const char *from, *to;
	double urg;
	bool same;	/* the very result */
} moves[] = {
	{ "t2", "t2", 40300, true },
	{ "t2", "t64", 40300, true },
	{ "t2", "u2", 80300, false },
	{ "t2", "batch", 300, false },
	{ "batch", "t2", 80300, false },
	{ "batch", "batch", 40300, true },	/* from == to: kept */
	{ "u2", "t2", 300, false },
};

START_TEST(test_in_partition)
{
	prism_ge_policy_t *pol = _seed_policy();
	prism_ge_range_t range = { .jobs = 3, .urg_min = 0,
				   .urg_max = 100000 };
	uint32_t from = prism_ge_find(pol, PRISM_GE_PARTITION,
				      moves[_i].from);
	uint32_t to = prism_ge_find(pol, PRISM_GE_PARTITION, moves[_i].to);
	prism_ge_result_t res = { .rrcontr = 40200, .wtcontr = 100,
				  .urg = 40300, .nurg = 0.403, .ntckts = 0.5,
				  .tckts = 5 }, out;
	prism_error_t err = { "" };

	res.prio = 0.5 * res.nurg + 0.5 * res.ntckts;
	res.slurm = prism_ge_to_slurm(pol, res.prio);
	ck_assert_msg(!prism_ge_in_partition(pol, &range, &res, from, to, &out,
					     &err),
		      "%s", err.text);
	if (moves[_i].same) {
		ck_assert(out.urg == res.urg && out.nurg == res.nurg &&
			  out.prio == res.prio);
		ck_assert_uint_eq(out.slurm, res.slurm);
	} else {
		ck_assert(_near(out.urg, moves[_i].urg));
		ck_assert(_near(out.nurg, moves[_i].urg / 100000));
		ck_assert(out.ntckts == res.ntckts);
		ck_assert_uint_eq(out.slurm, prism_ge_to_slurm(pol, out.prio));
	}
	/* in place */
	ck_assert(!prism_ge_in_partition(pol, &range, &res, from, to, &res,
					 &err));
	ck_assert(out.urg == res.urg && out.nurg == res.nurg &&
		  out.prio == res.prio);
	ck_assert_uint_eq(out.slurm, res.slurm);
	prism_ge_policy_free(pol);
}
END_TEST

/* Each row: the columns, the other partition's priority, what they become. */
static const struct {
	const char *what;
	prism_ge_sprio_t in;
	uint32_t slurm;
	prism_ge_sprio_t out;
} rebase[] = {
	{ "urgency grows", { 10, 20, 30, 2 }, 100, { 48, 20, 30, 2 } },
	{ "urgency shrinks", { 500, 20, 30, 2 }, 60, { 8, 20, 30, 2 } },
	{ "urgency to 0", { 500, 20, 30, 2 }, 52, { 0, 20, 30, 2 } },
	{ "offset cut", { 500, 20, 30, 3 }, 51, { 0, 20, 30, 1 } },
	{ "posix cut", { 5, 20, 30, 1 }, 41, { 0, 20, 20, 1 } },
	{ "tickets cut", { 5, 20, 30, 1 }, 11, { 0, 10, 0, 1 } },
	{ "priority 1", { 5, 20, 30, 1 }, 1, { 0, 0, 0, 1 } },
	{ "priority 0", { 5, 20, 30, 1 }, 0, { 0, 0, 0, 0 } },
	{ "no overflow", { 0, 0xfffffff0u, 0xfffffff0u, 1 }, 0xfffffffdu,
	  { 0, 0xfffffff0u, 0xc, 1 } },
};

START_TEST(test_sprio_rebase)
{
	prism_ge_sprio_t c = rebase[_i].in;

	prism_ge_sprio_rebase(&c, rebase[_i].slurm);
	ck_assert_msg(!memcmp(&c, &rebase[_i].out, sizeof(c)),
		      "%s: %u %u %u %u", rebase[_i].what, c.urgency, c.tickets,
		      c.posix, c.offset);
	ck_assert_uint_eq((uint64_t) c.urgency + c.tickets + c.posix +
				  c.offset,
			  rebase[_i].slurm);
	prism_ge_sprio_rebase(NULL, 5);
}
END_TEST

START_TEST(test_outside_bad_param)
{
	prism_ge_policy_t *pol = _policy("urgency_partition[p] 5\n");
	prism_ge_range_t range = { 0 };
	prism_ge_job_t job = _job(1);
	prism_ge_result_t res = { 0 }, out;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_ge_estimate(NULL, &range, &job, 0, &res, &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_ge_estimate: NULL argument");
	ck_assert_int_eq(prism_ge_estimate(pol, NULL, &job, 0, &res, &err),
			 -1);
	ck_assert_int_eq(prism_ge_estimate(pol, &range, NULL, 0, &res, &err),
			 -1);
	ck_assert_int_eq(prism_ge_estimate(pol, &range, &job, 0, NULL, &err),
			 -1);
	job.partition = 1;
	ck_assert_int_eq(prism_ge_estimate(pol, &range, &job, 0, &res, &err),
			 -1);
	ck_assert_str_eq(err.text, "job 1: partition handle 1 is out of range");
	ck_assert_int_eq(prism_ge_in_partition(NULL, &range, &res, 0, 0, &out,
					       &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_ge_in_partition: NULL argument");
	ck_assert_int_eq(prism_ge_in_partition(pol, &range, &res, 0, 1, &out,
					       &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_ge_in_partition: partition handle 0 or 1 is out of range");
	ck_assert_int_eq(prism_ge_in_partition(pol, &range, &res, NONE, 0,
					       &out, &err),
			 0);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- explain ---------------------------------------------------------- */

START_TEST(test_explain)
{
	prism_ge_policy_t *pol = _seed_policy();
	double small[3] = { 2, 0, 0 }, big[3] = { 64, 0, 0 };
	prism_ge_job_t jobs[2] = { _job(1), _job(2) };
	prism_ge_input_t in = { .pol = pol, .now = 4 * HOUR };
	prism_ge_result_t res[2];
	prism_error_t err = { "" };
	char buf[1024];
	int n;
	const char *want =
		"prior 0.75000 (slurm 3221225470) = 0.5 * nurg + 0.5 * ntckts"
		" + 0 * npprior\n"
		"  qstat -pri: prior 0.75000 nurg 1.00000 npprior 0.50000"
		" ntckts 0.50000 ppri 0\n"
		"  qstat -urg: urg 40200 rrcontr 40200 wtcontr 0"
		" dlcontr 0\n"
		"  qstat -ext: tckts 0 otckt 0 ftckt 0 stckt 0\n"
		"  sprio: urgency 2147483646 tickets 1073741823 posix 0"
		" offset 1\n";

	jobs[0].amount = big;
	jobs[1].amount = small;
	jobs[1].submit = 4 * HOUR;
	jobs[1].partition = prism_ge_find(pol, PRISM_GE_PARTITION, "t2");
	_run(&in, jobs, 2, res);
	n = prism_ge_explain(pol, &res[1], buf, sizeof(buf), &err);
	ck_assert_int_eq(n, (int) strlen(want));
	ck_assert_str_eq(buf, want);
	/* too small: an error, never a cut text */
	ck_assert_int_eq(prism_ge_explain(pol, &res[1], buf, 40, &err), -1);
	ck_assert_str_eq(err.text, "explain buffer of 40 bytes is too small");
	ck_assert_int_eq(prism_ge_explain(pol, &res[1], buf, (size_t) n, &err),
			 -1);
	ck_assert_int_eq(prism_ge_explain(pol, &res[1], buf, (size_t) n + 1,
					  &err),
			 n);
	ck_assert_int_eq(prism_ge_explain(NULL, &res[1], buf, 10, &err), -1);
	ck_assert_str_eq(err.text, "prism_ge_explain: bad parameter");
	ck_assert_int_eq(prism_ge_explain(pol, NULL, buf, 10, &err), -1);
	ck_assert_int_eq(prism_ge_explain(pol, &res[1], NULL, 10, &err), -1);
	ck_assert_int_eq(prism_ge_explain(pol, &res[1], buf, 0, &err), -1);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- a large pass, reused --------------------------------------------- */

START_TEST(test_large_pass)
{
	enum { USERS = 2000, ACCTS = 50, JOBS = 20000 };
	size_t size = (USERS + ACCTS) * 120 + 512, len = 0;
	char *text = malloc(size);
	prism_ge_policy_t *pol;
	prism_ge_node_t *nodes = calloc(1 + ACCTS + USERS, sizeof(*nodes));
	prism_ge_job_t *jobs = calloc(JOBS, sizeof(*jobs));
	prism_ge_result_t *res = calloc(JOBS, sizeof(*res));
	prism_ge_result_t *again = calloc(JOBS, sizeof(*again));
	double (*amount)[3] = calloc(JOBS, sizeof(*amount));
	uint32_t *urun = calloc(USERS, sizeof(*urun));
	prism_ge_input_t in;
	prism_error_t err = { "" };
	prism_ge_pass_t *pass = prism_ge_pass_create(&err);
	uint64_t seed = 42;
	double w;

	ck_assert(text && nodes && jobs && res && again && amount && urun);
	len += snprintf(text + len, size - len,
			"weight_priority 0.1\nweight_tickets_share 10000\n"
			"weight_tickets_functional 10000\n"
			"urgency_slots 100\n");
	for (int u = 0; u < USERS; u++)
		len += snprintf(text + len, size - len,
				"functional_shares_user[u%d] %d\n"
				"override_tickets_user[u%d] %d\n",
				u, 1 + u % 7, u, u % 13 ? 0 : 100);
	for (int a = 0; a < ACCTS; a++)
		len += snprintf(text + len, size - len,
				"functional_shares_account[a%d] %d\n", a,
				10 + a);
	pol = _policy(text);
	nodes[0] = (prism_ge_node_t) { .parent = NONE, .shares = 1 };
	for (int a = 0; a < ACCTS; a++)
		nodes[1 + a] = (prism_ge_node_t) { .parent = 0,
						    .shares = 10 + a % 5 };
	for (int u = 0; u < USERS; u++) {
		nodes[1 + ACCTS + u] = (prism_ge_node_t) {
			.parent = 1 + u % ACCTS, .shares = 1 + u % 3,
			.usage = (double) (_rand(&seed) % 100000),
			.running = _rand(&seed) % 4 == 0, .user = true
		};
		urun[u] = nodes[1 + ACCTS + u].running;
	}
	for (int i = 0; i < JOBS; i++) {
		uint32_t u = _rand(&seed) % USERS;

		jobs[i] = _job(i + 1);
		jobs[i].node = 1 + ACCTS + u;
		jobs[i].user = u;
		jobs[i].account = u % ACCTS;
		jobs[i].submit = _rand(&seed) % 100000;
		jobs[i].nice = (int64_t) (_rand(&seed) % 200) - 100;
		amount[i][0] = 1 + _rand(&seed) % 128;
		jobs[i].amount = amount[i];
	}
	in = (prism_ge_input_t) { .pol = pol, .now = 200000, .nodes = nodes,
				  .node_cnt = 1 + ACCTS + USERS,
				  .user_running = urun };
	w = 0.5 + 0.5 + 0.1;
	ck_assert_msg(!prism_ge_pass_run(pass, &in, jobs, JOBS, res, &err),
		      "%s", err.text);
	for (int i = 0; i < JOBS; i++) {
		/* one assertion per job would make Check slow */
		if (isfinite(res[i].prio) && res[i].prio >= 0 &&
		    res[i].prio <= w && res[i].stckt >= 0 &&
		    res[i].stckt <= 10000 && res[i].ftckt >= 0 &&
		    res[i].otckt >= 0 && res[i].slurm >= 1 &&
		    res[i].slurm <= PRISM_GE_SLURM_MAX)
			continue;
		ck_abort_msg("job %d: prio %g stckt %g ftckt %g otckt %g "
			     "slurm %u", i, res[i].prio, res[i].stckt,
			     res[i].ftckt, res[i].otckt, res[i].slurm);
	}
	/* reused for a smaller pass, then the same one: the same results */
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, jobs, 10, again, &err),
			 0);
	ck_assert_uint_eq(prism_ge_pass_range(pass)->jobs, 10);
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, jobs, JOBS, again, &err),
			 0);
	ck_assert(!memcmp(res, again, JOBS * sizeof(*res)));
	prism_ge_pass_free(pass);
	prism_ge_policy_free(pol);
	free(text);
	free(nodes);
	free(jobs);
	free(res);
	free(again);
	free(amount);
	free(urun);
}
END_TEST

/* ---- bad parameters --------------------------------------------------- */

static const struct {
	const char *what;
	int nn;
	_n_t n[3];
	int node;		/* job 7's node, -1: none */
	uint32_t user, account, partition;
	double amount;		/* of slots */
	const char *want;
} bad[] = {
	{ "root with a parent", 2, { INNER(1, 1), USER(0, 1, 0, 0) }, -1,
	  NONE, NONE, NONE, 0,
	  "share tree: node 0 (parent 1): the root has a parent" },
	{ "parent not earlier", 3,
	  { ROOT, USER(2, 1, 0, 0), INNER(0, 1) }, -1, NONE, NONE,
	  NONE, 0,
	  "share tree: node 1 (parent 2): the parent is not an earlier "
	  "node" },
	{ "parent is itself", 2, { ROOT, INNER(1, 1) }, -1, NONE, NONE,
	  NONE, 0,
	  "share tree: node 1 (parent 1): the parent is not an earlier "
	  "node" },
	{ "user with children", 3,
	  { ROOT, USER(0, 1, 0, 0), USER(1, 1, 0, 0) }, -1,
	  NONE, NONE, NONE, 0,
	  "share tree: node 2 (parent 1): the parent is a user leaf" },
	{ "negative usage", 2, { ROOT, USER(0, 1, -1, 0) }, -1,
	  NONE, NONE, NONE, 0,
	  "share tree: node 1 (parent 0): the usage is not finite and >= 0" },
	{ "infinite usage", 2, { ROOT, USER(0, 1, INFINITY, 0) }, -1,
	  NONE, NONE, NONE, 0,
	  "share tree: node 1 (parent 0): the usage is not finite and >= 0" },
	{ "job node past the tree", 2, { ROOT, USER(0, 1, 0, 0) }, 2,
	  NONE, NONE, NONE, 0, "job 7: node 2 is not a user leaf" },
	{ "job node not a user", 2, { ROOT, USER(0, 1, 0, 0) }, 0,
	  NONE, NONE, NONE, 0, "job 7: node 0 is not a user leaf" },
	{ "job node without a tree", 0, { { 0 } }, 0, NONE, NONE, NONE, 0,
	  "job 7: node 0 is not a user leaf" },
	{ "user handle", 0, { { 0 } }, -1, 1, NONE, NONE, 0,
	  "job 7: user handle 1 is out of range" },
	{ "account handle", 0, { { 0 } }, -1, NONE, 5, NONE, 0,
	  "job 7: account handle 5 is out of range" },
	{ "partition handle", 0, { { 0 } }, -1, NONE, NONE, 1, 0,
	  "job 7: partition handle 1 is out of range" },
	{ "negative amount", 0, { { 0 } }, -1, NONE, NONE, NONE, -1,
	  "job 7: slots amount -1 not in 0..1e18" },
	{ "NaN amount", 0, { { 0 } }, -1, NONE, NONE, NONE, NAN,
	  "job 7: slots amount nan not in 0..1e18" },
	{ "huge amount", 0, { { 0 } }, -1, NONE, NONE, NONE, 1e19,
	  "job 7: slots amount 1e+19 not in 0..1e18" },
};

START_TEST(test_bad_input)
{
	prism_ge_policy_t *pol = _policy("functional_shares_user[u0] 1\n"
					 "urgency_partition[p] 1\n");
	prism_ge_node_t nodes[3];
	prism_ge_job_t jobs[2] = { _job(6), _job(7) };
	double amount[3] = { bad[_i].amount, 0, 0 };
	prism_ge_input_t in = { .pol = pol, .nodes = nodes,
				.node_cnt = bad[_i].nn };
	prism_ge_input_t good = { .pol = pol };
	prism_ge_result_t res[2], old[2];
	prism_error_t err = { "" };
	prism_ge_pass_t *pass = prism_ge_pass_create(&err);

	for (int i = 0; i < bad[_i].nn; i++)
		nodes[i] = (prism_ge_node_t) {
			.parent = bad[_i].n[i].parent < 0 ?
				NONE : (uint32_t) bad[_i].n[i].parent,
			.shares = bad[_i].n[i].shares,
			.usage = bad[_i].n[i].usage,
			.user = bad[_i].n[i].user
		};
	/* a good pass first: its ranges must survive the bad one */
	ck_assert_int_eq(prism_ge_pass_run(pass, &good, jobs, 0, res, &err),
			 0);
	jobs[1].node = bad[_i].node < 0 ? NONE : (uint32_t) bad[_i].node;
	jobs[1].user = bad[_i].user;
	jobs[1].account = bad[_i].account;
	jobs[1].partition = bad[_i].partition;
	jobs[1].amount = amount;
	memset(res, 0x5a, sizeof(res));
	memcpy(old, res, sizeof(res));
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, jobs, 2, res, &err), -1);
	ck_assert_str_eq(err.text, bad[_i].want);
	ck_assert(!memcmp(res, old, sizeof(res)));	/* no side effect */
	ck_assert_uint_eq(prism_ge_pass_range(pass)->jobs, 0);
	/* the single-job check says the same */
	if (bad[_i].nn == 0 && bad[_i].node < 0) {
		ck_assert_int_eq(prism_ge_urgency(pol, &jobs[1], 0, res, &err),
				 -1);
		ck_assert_str_eq(err.text, bad[_i].want);
	}
	prism_ge_pass_free(pass);
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_bad_param)
{
	prism_ge_policy_t *pol = _policy("#\n");
	prism_ge_pass_t *pass = prism_ge_pass_create(NULL);
	prism_ge_job_t job = _job(1);
	prism_ge_input_t in = { .pol = pol }, nopol = { .pol = NULL };
	prism_ge_input_t notree = { .pol = pol, .node_cnt = 3 };
	prism_ge_result_t res;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_ge_pass_run(NULL, &in, &job, 1, &res, &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_ge_pass_run: NULL argument");
	ck_assert_int_eq(prism_ge_pass_run(pass, NULL, &job, 1, &res, &err),
			 -1);
	ck_assert_int_eq(prism_ge_pass_run(pass, &nopol, &job, 1, &res, &err),
			 -1);
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, NULL, 1, &res, &err),
			 -1);
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, &job, 1, NULL, &err),
			 -1);
	ck_assert_int_eq(prism_ge_pass_run(pass, &notree, &job, 1, &res, &err),
			 -1);
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, &job, 1, &res, NULL),
			 0);
	/* no jobs: fine, with NULL arrays */
	ck_assert_int_eq(prism_ge_pass_run(pass, &in, NULL, 0, NULL, &err), 0);
	ck_assert_uint_eq(prism_ge_pass_range(pass)->jobs, 0);
	ck_assert_ptr_nonnull(prism_ge_pass_range(NULL));
	ck_assert_int_eq(prism_ge_urgency(NULL, &job, 0, &res, &err), -1);
	ck_assert_str_eq(err.text, "prism_ge_urgency: NULL argument");
	ck_assert_int_eq(prism_ge_urgency(pol, NULL, 0, &res, &err), -1);
	ck_assert_int_eq(prism_ge_urgency(pol, &job, 0, NULL, &err), -1);
	ck_assert_uint_eq(prism_ge_to_slurm(NULL, 0.5), 1);
	ck_assert(prism_ge_from_slurm(NULL, 5) == 0.0);
	prism_ge_pass_free(pass);
	prism_ge_pass_free(NULL);
	prism_ge_policy_free(pol);
}
END_TEST

extern Suite *ge_suite(void)
{
	Suite *s = suite_create("ge");
	TCase *seed = tcase_create("seed");
	TCase *model = tcase_create("model");
	TCase *tickets = tcase_create("tickets");

	tcase_add_loop_test(seed, test_seed_crossover, 0, N(crossover));
	tcase_add_test(seed, test_seed_urgency);
	tcase_add_loop_test(model, test_urgency, 0, N(urg_rows));
	tcase_add_test(model, test_deadline_now);
	tcase_add_loop_test(model, test_posix, 0, N(posix));
	tcase_add_loop_test(model, test_normalize, 0, N(norm));
	tcase_add_loop_test(model, test_pass_normalize, 0, N(pass_norm));
	tcase_add_test(model, test_ticket_normalize);
	tcase_add_loop_test(model, test_decay, 0, N(decay));
	tcase_add_test(model, test_mapping);
	tcase_add_test(model, test_mapping_zero_weights);
	tcase_add_test(model, test_mapping_big_weights);
	tcase_add_test(model, test_sprio);
	tcase_add_test(model, test_sprio_edges);
	tcase_add_loop_test(model, test_estimate, 0, N(est));
	tcase_add_test(model, test_estimate_pass);
	tcase_add_loop_test(model, test_in_partition, 0, N(moves));
	tcase_add_loop_test(model, test_sprio_rebase, 0, N(rebase));
	tcase_add_test(model, test_outside_bad_param);
	tcase_add_test(model, test_explain);
	tcase_add_loop_test(model, test_bad_input, 0, N(bad));
	tcase_add_test(model, test_bad_param);
	tcase_add_test(tickets, test_share_decay);
	tcase_add_loop_test(tickets, test_share_tree, 0, N(trees));
	tcase_add_loop_test(tickets, test_functional, 0, N(func_rows));
	tcase_add_loop_test(tickets, test_override, 0, N(ovr_rows));
	tcase_add_loop_test(tickets, test_hierarchy, 0, N(hier_rows));
	tcase_add_loop_test(tickets, test_greedy_naive, 0, 8);
	tcase_add_test(tickets, test_large_pass);
	suite_add_tcase(s, seed);
	suite_add_tcase(s, model);
	suite_add_tcase(s, tickets);
	return s;
}
