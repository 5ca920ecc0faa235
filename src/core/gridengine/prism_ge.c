/*****************************************************************************\
 *  prism_ge.c - the Grid Engine priority model (see prism_ge.h).
 *
 *  A pass validates its input, grows its scratch space, then computes
 *  urgency, the three ticket policies in policy_hierarchy order, and the
 *  normalised weighted sum. The greedy "who would get most if it ran
 *  next" orderings of the override and functional policies keep their
 *  job categories in a max-heap whose keys only go down, re-evaluated
 *  lazily at the top. The share-tree ordering sorts each node's pending
 *  jobs inside a pre-order range, bottom up.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_buf.h"
#include "prism_ge.h"

#define _EPSILON 0.00001	/* GE's SGE_EPSILON */
#define _MIN_USAGE 1.0		/* GE's SGE_MIN_USAGE */
#define _BASE_PRIO 1024.0	/* GE's BASE_PRIORITY */
#define _NONE PRISM_GE_NONE

/* A pending job in a share-tree range. */
typedef struct {
	double key;		/* sort value, descending */
	double base;		/* acc when dependent, else 0 */
	double shr;		/* share at the last level */
	uint32_t job_id;
	uint32_t idx;		/* index into the pass's jobs */
} _tjob_t;

/* A pending job in a category of the override or functional policy. */
typedef struct {
	uint32_t user, account;	/* handles with a value, else NONE */
	uint32_t value;		/* the job's otickets or jobshare */
	double acc;		/* acc when dependent, else 0 */
	int64_t submit;
	uint32_t job_id;
	uint32_t idx;
} _cjob_t;

/* A category: jobs with the same user, account and job value. */
typedef struct {
	uint32_t first, end;	/* its remaining jobs in the _cjob_t array */
	double cand;		/* key last computed for the first job */
} _cat_t;

/* Per share-tree node. */
typedef struct {
	uint32_t first, next;	/* first child, next sibling */
	uint32_t size;		/* nodes in the subtree */
	uint32_t pos;		/* pre-order position */
	uint32_t at;		/* the node at pre-order position [index] */
	uint32_t pend;		/* pending jobs in the subtree */
	uint32_t direct;	/* pending jobs on the node */
	uint32_t start;		/* first slot of the subtree's jobs */
	uint32_t fill;
	uint64_t run;		/* running jobs in the subtree */
	double usage;		/* the subtree's usage */
	double oltt, stt, ostt, shr;
} _node_t;

struct prism_ge_pass {
	prism_ge_range_t range;
	size_t job_cap, node_cap, user_cap, acct_cap;
	double *acc;		/* tickets of the dependent policies so far */
	double *tix;		/* tickets of the policy at work */
	_tjob_t *tj;
	_cjob_t *cj;
	_cat_t *cat;
	uint32_t *heap;
	_node_t *node;
	uint64_t *ucnt, *acnt;
};

/* ---- small pure functions --------------------------------------------- */

extern double prism_ge_normalize(double v, double min, double max)
{
	if (!(max - min >= _EPSILON))
		return 0.5;
	return (v - min) / (max - min);
}

extern int32_t prism_ge_posix_prio(int64_t nice)
{
	if (nice >= -PRISM_GE_PPRI_MIN)
		return PRISM_GE_PPRI_MIN;
	if (nice <= -PRISM_GE_PPRI_MAX)
		return PRISM_GE_PPRI_MAX;
	return (int32_t) -nice;
}

extern double prism_ge_decay(double usage, double seconds,
			     uint32_t halftime)
{
	if (!halftime || !(seconds > 0.0))
		return usage;
	return usage * exp2(-seconds / (3600.0 * (double) halftime));
}

/* W of the notes, summed in the order the priority is. */
static double _w(const prism_ge_params_t *p)
{
	return p->weight_urgency + p->weight_ticket + p->weight_priority;
}

extern double prism_ge_slurm_scale(const prism_ge_policy_t *pol)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	double w;

	if (!p)
		return 0.0;
	w = _w(p);
	if (!(w > 0.0))
		return 0.0;
	return (double) (PRISM_GE_SLURM_MAX - 1) / w;
}

/* floor(v) as a uint32_t: 0 for NaN or below, UINT32_MAX above. */
static uint32_t _floor_u32(double v)
{
	if (!(v > 0.0))
		return 0;
	if (v >= (double) UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t) floor(v);
}

extern uint32_t prism_ge_to_slurm(const prism_ge_policy_t *pol, double prio)
{
	double s = prism_ge_slurm_scale(pol);
	uint32_t v;

	if (!(s > 0.0) || !(prio > 0.0))
		return 1;
	if (prio >= _w(prism_ge_policy_params(pol)))
		return PRISM_GE_SLURM_MAX;
	v = _floor_u32(prio * s);
	if (v > PRISM_GE_SLURM_MAX - 1)
		v = PRISM_GE_SLURM_MAX - 1;
	return 1 + v;
}

extern double prism_ge_from_slurm(const prism_ge_policy_t *pol,
				  uint32_t slurm)
{
	double s = prism_ge_slurm_scale(pol);

	if (!(s > 0.0) || slurm <= 1)
		return 0.0;
	if (slurm > PRISM_GE_SLURM_MAX)
		slurm = PRISM_GE_SLURM_MAX;
	return (double) (slurm - 1) / s;
}

extern int prism_ge_sprio(const prism_ge_policy_t *pol,
			  const prism_ge_result_t *res, prism_ge_sprio_t *out,
			  prism_error_t *err)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	uint32_t budget;
	double s;

	if (!p || !res || !out) {
		prism_error_set(err, "prism_ge_sprio: NULL argument");
		return -1;
	}
	s = prism_ge_slurm_scale(pol);
	budget = res->slurm ? res->slurm - 1 : 0;
	out->urgency = _floor_u32(s * p->weight_urgency * res->nurg);
	if (out->urgency > budget)
		out->urgency = budget;
	budget -= out->urgency;
	out->tickets = _floor_u32(s * p->weight_ticket * res->ntckts);
	if (out->tickets > budget)
		out->tickets = budget;
	budget -= out->tickets;
	out->posix = _floor_u32(s * p->weight_priority * res->npprior);
	if (out->posix > budget)
		out->posix = budget;
	out->offset = res->slurm - out->urgency - out->tickets - out->posix;
	return 0;
}

extern void prism_ge_sprio_rebase(prism_ge_sprio_t *cols, uint32_t slurm)
{
	uint64_t keep;
	uint32_t budget;

	if (!cols)
		return;
	keep = (uint64_t) cols->tickets + cols->posix + cols->offset;
	if (slurm >= keep) {
		cols->urgency = slurm - (uint32_t) keep;
		return;
	}
	cols->urgency = 0;
	budget = slurm ? slurm - 1 : 0;
	if (cols->tickets > budget)
		cols->tickets = budget;
	budget -= cols->tickets;
	if (cols->posix > budget)
		cols->posix = budget;
	cols->offset = slurm - cols->tickets - cols->posix;
}

/* ---- urgency ---------------------------------------------------------- */

static void _urgency(const prism_ge_policy_t *pol,
		     const prism_ge_params_t *p, const prism_ge_job_t *job,
		     int64_t now, prism_ge_result_t *res)
{
	uint32_t nres = prism_ge_count(pol, PRISM_GE_RESOURCE);
	double rr = 0.0, wait, dl = 0.0;

	if (job->amount) {
		for (uint32_t r = 0; r < nres; r++) {
			double u = prism_ge_get(pol, PRISM_GE_RESOURCE, r)
					   ->urgency;

			if (u != 0.0 && job->amount[r] != 0.0)
				rr += u * job->amount[r];
		}
	}
	if (job->partition != _NONE)
		rr += prism_ge_get(pol, PRISM_GE_PARTITION, job->partition)
			      ->urgency;
	wait = (double) now - (double) job->submit;
	if (wait < 0.0)
		wait = 0.0;
	if (job->deadline) {
		double left = (double) job->deadline - (double) now;

		dl = p->weight_deadline / (left > 1.0 ? left : 1.0);
	}
	res->rrcontr = rr;
	res->wtcontr = p->weight_waiting_time * wait;
	res->dlcontr = dl;
	res->urg = res->wtcontr + res->dlcontr + res->rrcontr;
}

/* Are the job's handles and amounts good? -1 with err set if not. */
static int _check_job(const prism_ge_policy_t *pol, const prism_ge_job_t *job,
		      prism_error_t *err)
{
	static const prism_ge_kind_t kinds[] = {
		PRISM_GE_USER, PRISM_GE_ACCOUNT, PRISM_GE_PARTITION
	};
	uint32_t handle[] = { job->user, job->account, job->partition };
	uint32_t nres = prism_ge_count(pol, PRISM_GE_RESOURCE);

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (handle[k] == _NONE ||
		    handle[k] < prism_ge_count(pol, kinds[k]))
			continue;
		prism_error_set(err, "job %u: %s handle %u is out of range",
				(unsigned) job->job_id,
				prism_ge_kind_name(kinds[k]),
				(unsigned) handle[k]);
		return -1;
	}
	for (uint32_t r = 0; job->amount && r < nres; r++) {
		double a = job->amount[r];

		if (a >= 0.0 && a <= PRISM_GE_AMOUNT_MAX)
			continue;
		prism_error_set(err, "job %u: %s amount %g not in 0..1e18",
				(unsigned) job->job_id,
				prism_ge_get(pol, PRISM_GE_RESOURCE, r)->name,
				a);
		return -1;
	}
	return 0;
}

extern int prism_ge_urgency(const prism_ge_policy_t *pol,
			    const prism_ge_job_t *job, int64_t now,
			    prism_ge_result_t *res, prism_error_t *err)
{
	if (!pol || !job || !res) {
		prism_error_set(err, "prism_ge_urgency: NULL argument");
		return -1;
	}
	if (_check_job(pol, job, err))
		return -1;
	_urgency(pol, prism_ge_policy_params(pol), job, now, res);
	return 0;
}

/* 'v' bounded to 0..1 (NaN: 0). */
static double _unit(double v)
{
	if (!(v > 0.0))
		return 0.0;
	return v < 1.0 ? v : 1.0;
}

/* The normalised values, prio and slurm of 'res' with 'range'. */
static void _in_range(const prism_ge_policy_t *pol,
		      const prism_ge_range_t *range, prism_ge_result_t *res)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);

	res->nurg = _unit(prism_ge_normalize(res->urg, range->urg_min,
					     range->urg_max));
	res->ntckts = _unit(prism_ge_normalize(res->tckts, 0.0,
					       range->tix_max));
	res->npprior = prism_ge_normalize(res->ppri + _BASE_PRIO, 0.0,
					   2.0 * _BASE_PRIO);
	res->prio = p->weight_urgency * res->nurg +
		    p->weight_ticket * res->ntckts +
		    p->weight_priority * res->npprior;
	res->slurm = prism_ge_to_slurm(pol, res->prio);
}

extern int prism_ge_estimate(const prism_ge_policy_t *pol,
			     const prism_ge_range_t *range,
			     const prism_ge_job_t *job, int64_t now,
			     prism_ge_result_t *res, prism_error_t *err)
{
	prism_ge_result_t r = { 0 };

	if (!pol || !range || !job || !res) {
		prism_error_set(err, "prism_ge_estimate: NULL argument");
		return -1;
	}
	if (_check_job(pol, job, err))
		return -1;
	_urgency(pol, prism_ge_policy_params(pol), job, now, &r);
	r.ppri = prism_ge_posix_prio(job->nice);
	r.otckt = job->otickets;
	if (job->user != _NONE)
		r.otckt += prism_ge_get(pol, PRISM_GE_USER, job->user)->oticket;
	if (job->account != _NONE)
		r.otckt += prism_ge_get(pol, PRISM_GE_ACCOUNT, job->account)
				   ->oticket;
	r.tckts = r.otckt;
	_in_range(pol, range, &r);
	*res = r;
	return 0;
}

/* The urgency of partition handle 'part' (0 for NONE). */
static double _part_urgency(const prism_ge_policy_t *pol, uint32_t part)
{
	if (part == _NONE)
		return 0.0;
	return prism_ge_get(pol, PRISM_GE_PARTITION, part)->urgency;
}

extern int prism_ge_in_partition(const prism_ge_policy_t *pol,
				 const prism_ge_range_t *range,
				 const prism_ge_result_t *res, uint32_t from,
				 uint32_t to, prism_ge_result_t *out,
				 prism_error_t *err)
{
	uint32_t nparts = prism_ge_count(pol, PRISM_GE_PARTITION);
	prism_ge_result_t r;
	double delta;

	if (!pol || !range || !res || !out) {
		prism_error_set(err, "prism_ge_in_partition: NULL argument");
		return -1;
	}
	if ((from != _NONE && from >= nparts) || (to != _NONE && to >= nparts)) {
		prism_error_set(err, "prism_ge_in_partition: partition handle %u or %u is out of range",
				(unsigned) from, (unsigned) to);
		return -1;
	}
	r = *res;
	delta = _part_urgency(pol, to) - _part_urgency(pol, from);
	if (delta != 0.0) {
		r.rrcontr += delta;
		r.urg = r.wtcontr + r.dlcontr + r.rrcontr;
		_in_range(pol, range, &r);
	}
	*out = r;
	return 0;
}

/* ---- the greedy orderings (override shared, functional) --------------- */

typedef struct {
	const prism_ge_policy_t *pol;
	const prism_ge_job_t *jobs;
	prism_ge_pass_t *pass;
	bool functional;
	bool dep;
	bool shared;
	double w_user, w_acct, w_job, pool;
	double su, sa, sj;		/* functional sums of shares */
	uint32_t ncat;
} _greedy_t;

static uint32_t _value(const prism_ge_entry_t *e, bool functional)
{
	if (!e)
		return 0;
	return functional ? e->fshare : e->oticket;
}

static int _cjob_cmp(const void *a, const void *b)
{
	const _cjob_t *x = a, *y = b;

	if (x->user != y->user)
		return x->user < y->user ? -1 : 1;
	if (x->account != y->account)
		return x->account < y->account ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->acc != y->acc)
		return x->acc > y->acc ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	if (x->job_id != y->job_id)
		return x->job_id < y->job_id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Tickets the first job of category 'c' would get if it ran next. */
static double _candidate(const _greedy_t *g, uint32_t c)
{
	const _cjob_t *j = &g->pass->cj[g->pass->cat[c].first];
	const uint64_t *ucnt = g->pass->ucnt, *acnt = g->pass->acnt;
	double v = 0.0;

	if (!g->functional) {
		if (j->user != _NONE)
			v += _value(prism_ge_get(g->pol, PRISM_GE_USER,
						 j->user), false) /
			     (double) (ucnt[j->user] + 1);
		if (j->account != _NONE)
			v += _value(prism_ge_get(g->pol, PRISM_GE_ACCOUNT,
						 j->account), false) /
			     (double) (acnt[j->account] + 1);
		return v + j->value;
	}
	if (j->user != _NONE) {
		double s = _value(prism_ge_get(g->pol, PRISM_GE_USER, j->user),
				  true);
		double f = g->shared ? s / (double) (ucnt[j->user] + 1) : s;
		double sum = g->shared ? g->su : g->su + s;

		v += g->w_user * f * g->pool / (sum + 0.001);
	}
	if (j->account != _NONE) {
		double s = _value(prism_ge_get(g->pol, PRISM_GE_ACCOUNT,
					       j->account), true);
		double f = g->shared ? s / (double) (acnt[j->account] + 1) : s;
		double sum = g->shared ? g->sa : g->sa + s;

		v += g->w_acct * f * g->pool / (sum + 0.001);
	}
	v += g->w_job * j->value * g->pool / (g->sj + j->value + 0.001);
	return v;
}

/* The key the heap orders by: the candidate, plus acc when dependent. */
static double _key(const _greedy_t *g, uint32_t c, double cand)
{
	const _cjob_t *j = &g->pass->cj[g->pass->cat[c].first];

	return g->functional && g->dep ? cand + j->acc : cand;
}

/* Should category a be taken before b? Ties as GE breaks them. */
static bool _before(const _greedy_t *g, uint32_t a, uint32_t b)
{
	const _cat_t *ca = &g->pass->cat[a], *cb = &g->pass->cat[b];
	const _cjob_t *x = &g->pass->cj[ca->first];
	const _cjob_t *y = &g->pass->cj[cb->first];
	double ka = _key(g, a, ca->cand), kb = _key(g, b, cb->cand);

	if (ka != kb)
		return ka > kb;
	if (g->functional && x->submit != y->submit)
		return x->submit < y->submit;
	if (x->job_id != y->job_id)
		return x->job_id < y->job_id;
	return x->idx < y->idx;
}

static void _heap_swap(uint32_t *h, uint32_t i, uint32_t k)
{
	uint32_t t = h[i];

	h[i] = h[k];
	h[k] = t;
}

static void _heap_down(const _greedy_t *g, uint32_t *h, uint32_t n,
		       uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, best = i;

		if (l < n && _before(g, h[l], h[best]))
			best = l;
		if (r < n && _before(g, h[r], h[best]))
			best = r;
		if (best == i)
			return;
		_heap_swap(h, i, best);
		i = best;
	}
}

/* Take job 'cj' as running: its counts, sums and final tickets. */
static double _take(_greedy_t *g, const _cjob_t *j, double cand)
{
	const prism_ge_job_t *job = &g->jobs[j->idx];
	uint64_t *ucnt = g->pass->ucnt, *acnt = g->pass->acnt;
	double uf = 0.0, af = 0.0, v = 0.0;

	if (job->user != _NONE)
		ucnt[job->user]++;
	if (job->account != _NONE)
		acnt[job->account]++;
	if (!g->functional)
		return cand;
	/* GE's calc_job_functional_tickets_pass1(), then pass2() */
	if (j->user != _NONE) {
		double s = _value(prism_ge_get(g->pol, PRISM_GE_USER, j->user),
				  true);

		uf = g->shared ? s / (double) ucnt[j->user] : s;
		if (!g->shared || ucnt[j->user] <= 1)
			g->su += uf;
	}
	if (j->account != _NONE) {
		double s = _value(prism_ge_get(g->pol, PRISM_GE_ACCOUNT,
					       j->account), true);

		af = g->shared ? s / (double) acnt[j->account] : s;
		if (!g->shared || acnt[j->account] <= 1)
			g->sa += af;
	}
	g->sj += j->value;
	if (j->user != _NONE && g->su != 0.0)
		v += g->w_user * uf * g->pool / g->su;
	if (j->account != _NONE && g->sa != 0.0)
		v += g->w_acct * af * g->pool / g->sa;
	if (g->sj != 0.0)
		v += g->w_job * j->value * g->pool / g->sj;
	return v;
}

/* Group the jobs with a value into categories; returns how many jobs. */
static uint32_t _categories(_greedy_t *g, uint32_t n)
{
	prism_ge_pass_t *pass = g->pass;
	uint32_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		const prism_ge_job_t *job = &g->jobs[i];
		_cjob_t *c = &pass->cj[m];
		uint32_t uv = 0, av = 0;

		if (job->user != _NONE)
			uv = _value(prism_ge_get(g->pol, PRISM_GE_USER,
						 job->user), g->functional);
		if (job->account != _NONE)
			av = _value(prism_ge_get(g->pol, PRISM_GE_ACCOUNT,
						 job->account), g->functional);
		c->value = g->functional ? job->jobshare : job->otickets;
		if (!uv && !av && !c->value)
			continue;
		c->user = uv ? job->user : _NONE;
		c->account = av ? job->account : _NONE;
		c->acc = g->dep ? pass->acc[i] : 0.0;
		c->submit = job->submit;
		c->job_id = job->job_id;
		c->idx = i;
		m++;
	}
	if (m > 1)
		qsort(pass->cj, m, sizeof(*pass->cj), _cjob_cmp);
	g->ncat = 0;
	for (uint32_t i = 0; i < m; i++) {
		const _cjob_t *a = &pass->cj[i];

		if (i && a->user == a[-1].user && a->account == a[-1].account &&
		    a->value == a[-1].value) {
			pass->cat[g->ncat - 1].end = i + 1;
			continue;
		}
		pass->cat[g->ncat].first = i;
		pass->cat[g->ncat].end = i + 1;
		g->ncat++;
	}
	return m;
}

/* Counts from the running jobs; the functional sums from them too. */
static void _running(_greedy_t *g, const prism_ge_input_t *in)
{
	uint32_t nu = prism_ge_count(g->pol, PRISM_GE_USER);
	uint32_t na = prism_ge_count(g->pol, PRISM_GE_ACCOUNT);

	g->su = g->sa = g->sj = 0.0;
	for (uint32_t u = 0; u < nu; u++) {
		uint32_t r = in->user_running ? in->user_running[u] : 0;
		double s = _value(prism_ge_get(g->pol, PRISM_GE_USER, u), true);

		g->pass->ucnt[u] = r;
		if (r)
			g->su += g->shared ? s : s * r;
	}
	for (uint32_t a = 0; a < na; a++) {
		uint32_t r = in->account_running ? in->account_running[a] : 0;
		double s = _value(prism_ge_get(g->pol, PRISM_GE_ACCOUNT, a),
				  true);

		g->pass->acnt[a] = r;
		if (r)
			g->sa += g->shared ? s : s * r;
	}
}

/*
 * Take up to 'limit' jobs, each time the category whose first job would
 * get most; write the tickets into 'tix'. Jobs past the limit get what
 * their category's first job would get next.
 */
static void _greedy(_greedy_t *g, uint32_t limit, double *tix)
{
	prism_ge_pass_t *pass = g->pass;
	uint32_t *h = pass->heap, hn = g->ncat;

	for (uint32_t c = 0; c < g->ncat; c++) {
		pass->cat[c].cand = _candidate(g, c);
		h[c] = c;
	}
	for (uint32_t i = hn / 2; i-- > 0;)
		_heap_down(g, h, hn, i);
	while (limit && hn) {
		uint32_t c = h[0];
		_cat_t *cat = &pass->cat[c];
		double fresh = _candidate(g, c);
		const _cjob_t *j;

		if (fresh != cat->cand) {
			/* stale: keys only go down */
			cat->cand = fresh;
			_heap_down(g, h, hn, 0);
			continue;
		}
		j = &pass->cj[cat->first];
		tix[j->idx] = _take(g, j, fresh);
		limit--;
		if (++cat->first == cat->end) {
			h[0] = h[--hn];
			_heap_down(g, h, hn, 0);
			continue;
		}
		cat->cand = _candidate(g, c);
		_heap_down(g, h, hn, 0);
	}
	for (uint32_t k = 0; k < hn; k++) {
		_cat_t *cat = &pass->cat[h[k]];
		double v = _candidate(g, h[k]);

		for (uint32_t i = cat->first; i < cat->end; i++)
			tix[pass->cj[i].idx] = v;
	}
}

/* ---- the three ticket policies ---------------------------------------- */

static void _override(prism_ge_pass_t *pass, const prism_ge_input_t *in,
		      const prism_ge_job_t *jobs, uint32_t n, bool dep,
		      double *tix)
{
	const prism_ge_policy_t *pol = in->pol;
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	_greedy_t g = { .pol = pol, .jobs = jobs, .pass = pass,
			.functional = false, .dep = dep, .shared = true };
	uint32_t m;

	if (!p->share_override_tickets) {
		for (uint32_t i = 0; i < n; i++) {
			const prism_ge_job_t *job = &jobs[i];
			double v = job->otickets;

			if (job->user != _NONE)
				v += prism_ge_get(pol, PRISM_GE_USER,
						  job->user)->oticket;
			if (job->account != _NONE)
				v += prism_ge_get(pol, PRISM_GE_ACCOUNT,
						  job->account)->oticket;
			tix[i] = v;
		}
		return;
	}
	_running(&g, in);
	m = _categories(&g, n);
	_greedy(&g, m, tix);
}

static void _functional(prism_ge_pass_t *pass, const prism_ge_input_t *in,
			const prism_ge_job_t *jobs, uint32_t n, bool dep,
			double *tix)
{
	const prism_ge_policy_t *pol = in->pol;
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	_greedy_t g = { .pol = pol, .jobs = jobs, .pass = pass,
			.functional = true, .dep = dep,
			.shared = p->share_functional_shares,
			.pool = p->weight_tickets_functional };
	double sum = p->weight_user + p->weight_department +
		     p->weight_project + p->weight_job;
	uint32_t m;

	if (!p->weight_tickets_functional || !(sum > 0.0))
		return;
	g.w_user = p->weight_user / sum;
	g.w_acct = p->weight_project / sum;
	g.w_job = p->weight_job / sum;
	_running(&g, in);
	m = _categories(&g, n);
	_greedy(&g, m < p->max_functional_jobs ? m : p->max_functional_jobs,
		tix);
}

static int _tjob_cmp(const void *a, const void *b)
{
	const _tjob_t *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (x->job_id != y->job_id)
		return x->job_id < y->job_id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Sizes, counts, usage and pre-order positions of the tree. */
static void _tree_layout(prism_ge_pass_t *pass, const prism_ge_input_t *in,
			 const prism_ge_job_t *jobs, uint32_t n)
{
	const prism_ge_node_t *nodes = in->nodes;
	_node_t *ns = pass->node;
	uint32_t cnt = in->node_cnt, at = 0;

	for (uint32_t i = 0; i < cnt; i++) {
		memset(&ns[i], 0, sizeof(ns[i]));
		ns[i].first = ns[i].next = _NONE;
		ns[i].size = 1;
		ns[i].run = nodes[i].running;
		ns[i].usage = nodes[i].usage;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (jobs[i].node != _NONE)
			ns[jobs[i].node].direct++;
	}
	for (uint32_t i = cnt; i-- > 1;) {
		_node_t *par = &ns[nodes[i].parent];

		ns[i].next = par->first;
		par->first = i;
	}
	for (uint32_t i = cnt; i-- > 0;) {
		ns[i].pend += ns[i].direct;
		if (!i)
			break;
		ns[nodes[i].parent].size += ns[i].size;
		ns[nodes[i].parent].pend += ns[i].pend;
		ns[nodes[i].parent].run += ns[i].run;
		ns[nodes[i].parent].usage += ns[i].usage;
	}
	ns[0].pos = 0;
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t next = ns[i].pos + 1;

		ns[ns[i].pos].at = i;
		for (uint32_t c = ns[i].first; c != _NONE; c = ns[c].next) {
			ns[c].pos = next;
			next += ns[c].size;
		}
	}
	for (uint32_t q = 0; q < cnt; q++) {
		_node_t *x = &ns[ns[q].at];

		x->start = x->fill = at;
		at += x->direct;
	}
}

static bool _active(const _node_t *x)
{
	return x->pend || x->run;
}

/* GE's sge_calc_node_targets() for the children of node 'i'. */
static void _targets(prism_ge_pass_t *pass, const prism_ge_input_t *in,
		     uint32_t i)
{
	const prism_ge_node_t *nodes = in->nodes;
	_node_t *ns = pass->node, *par = &ns[i];
	double cf = prism_ge_policy_params(in->pol)->compensation_factor;
	double sum_shares = 0.0, sum = 0.0;
	bool comp = false;

	for (uint32_t c = par->first; c != _NONE; c = ns[c].next) {
		if (_active(&ns[c]))
			sum_shares += nodes[c].shares;
	}
	for (uint32_t c = par->first; c != _NONE; c = ns[c].next) {
		double s = nodes[c].shares, ltt;

		if (!_active(&ns[c]))
			continue;
		ltt = sum_shares > 0.0 ? s / sum_shares : 0.0;
		ns[c].oltt = par->oltt * ltt;
		ns[c].shr = 0.0;
		if (ns[c].oltt > 0.0)
			ns[c].shr = s * s / fmax(ns[c].usage,
						 _MIN_USAGE * ns[c].oltt);
		sum += ns[c].shr;
	}
	for (uint32_t c = par->first; c != _NONE; c = ns[c].next) {
		if (!_active(&ns[c]))
			continue;
		ns[c].stt = sum > 0.0 ? ns[c].shr / sum : 0.0;
		ns[c].ostt = par->ostt * ns[c].stt;
	}
	if (cf == 0.0)
		return;
	sum = 0.0;
	for (uint32_t c = par->first; c != _NONE; c = ns[c].next) {
		double s = nodes[c].shares;

		if (!_active(&ns[c]))
			continue;
		if (ns[c].oltt > 0.0 && ns[c].ostt > cf * ns[c].oltt) {
			ns[c].shr = s * s /
				    (fmax(ns[c].usage,
					  _MIN_USAGE * ns[c].oltt) *
				     (ns[c].ostt / (cf * ns[c].oltt)));
			comp = true;
		}
		sum += ns[c].shr;
	}
	if (!comp || !(sum > 0.0))
		return;
	for (uint32_t c = par->first; c != _NONE; c = ns[c].next) {
		if (!_active(&ns[c]))
			continue;
		ns[c].stt = ns[c].shr / sum;
		ns[c].ostt = par->ostt * ns[c].stt;
	}
}

/* The highest node below which the pending jobs branch (or sit). */
static uint32_t _branch_root(const _node_t *ns)
{
	uint32_t r = 0;

	for (;;) {
		uint32_t one = _NONE, cnt = 0;

		if (ns[r].direct)
			return r;
		for (uint32_t c = ns[r].first; c != _NONE; c = ns[c].next) {
			if (ns[c].pend) {
				one = c;
				cnt++;
			}
		}
		if (cnt != 1)
			return r;
		r = one;
	}
}

static void _sharetree(prism_ge_pass_t *pass, const prism_ge_input_t *in,
		       const prism_ge_job_t *jobs, uint32_t n, bool dep,
		       double *tix)
{
	const prism_ge_params_t *p = prism_ge_policy_params(in->pol);
	double pool = p->weight_tickets_share;
	_node_t *ns = pass->node;
	uint32_t root;

	if (!pool || !in->node_cnt)
		return;
	_tree_layout(pass, in, jobs, n);
	if (!ns[0].pend)
		return;
	ns[0].oltt = ns[0].stt = ns[0].ostt = 1.0;
	for (uint32_t i = 0; i < in->node_cnt; i++) {
		if (!i || _active(&ns[i]))
			_targets(pass, in, i);
	}
	for (uint32_t i = 0; i < n; i++) {
		const prism_ge_job_t *job = &jobs[i];
		_tjob_t *t;

		if (job->node == _NONE)
			continue;
		t = &pass->tj[ns[job->node].fill++];
		t->base = dep ? pass->acc[i] : 0.0;
		t->key = dep ? pass->acc[i] + 0.01 * job->jobshare
			     : job->jobshare;
		t->shr = 0.0;
		t->job_id = job->job_id;
		t->idx = i;
	}
	root = _branch_root(ns);
	for (uint32_t i = in->node_cnt; i-- > root;) {
		_node_t *x = &ns[i];
		_tjob_t *t = &pass->tj[x->start];
		double count = (double) x->run;

		if (!x->pend || x->pos < ns[root].pos ||
		    x->pos >= ns[root].pos + ns[root].size ||
		    (i == root && !x->direct))
			continue;
		if (x->pend > 1)
			qsort(t, x->pend, sizeof(*t), _tjob_cmp);
		for (uint32_t k = 0; k < x->pend; k++) {
			count += 1.0;
			t[k].shr = x->stt / count;
			t[k].key = t[k].base + t[k].shr * pool;
		}
	}
	for (uint32_t k = 0; k < ns[root].pend; k++) {
		const _tjob_t *t = &pass->tj[ns[root].start + k];

		tix[t->idx] = t->shr * pool;
	}
}

/* ---- the pass --------------------------------------------------------- */

extern prism_ge_pass_t *prism_ge_pass_create(prism_error_t *err)
{
	prism_ge_pass_t *pass = calloc(1, sizeof(*pass));

	if (!pass)
		prism_error_set(err, "grid engine pass: out of memory");
	return pass;
}

extern void prism_ge_pass_free(prism_ge_pass_t *pass)
{
	if (!pass)
		return;
	free(pass->acc);
	free(pass->tix);
	free(pass->tj);
	free(pass->cj);
	free(pass->cat);
	free(pass->heap);
	free(pass->node);
	free(pass->ucnt);
	free(pass->acnt);
	free(pass);
}

extern const prism_ge_range_t *prism_ge_pass_range(
	const prism_ge_pass_t *pass)
{
	static const prism_ge_range_t none;

	return pass ? &pass->range : &none;
}

/* realloc() the array whose address is 'pp' to 'count' elements. */
static int _resize(void *pp, size_t count, size_t elem)
{
	void *old, *p;

	memcpy(&old, pp, sizeof(old));
	p = realloc(old, count * elem);
	if (!p)
		return -1;
	memcpy(pp, &p, sizeof(p));
	return 0;
}

/* Grow the 'k' arrays at 'arr' (element sizes 'elem') to 'need' slots. */
static int _grow(void *const arr[], const size_t elem[], int k, size_t *cap,
		 size_t need)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 128)
			return -1;
		c *= 2;
	}
	for (int i = 0; i < k; i++) {
		if (_resize(arr[i], c, elem[i]))
			return -1;
	}
	*cap = c;
	return 0;
}

static int _reserve(prism_ge_pass_t *pass, const prism_ge_input_t *in,
		    uint32_t n, prism_error_t *err)
{
	void *const jarr[] = { &pass->acc, &pass->tix, &pass->tj, &pass->cj,
			       &pass->cat, &pass->heap };
	const size_t jel[] = { sizeof(*pass->acc), sizeof(*pass->tix),
			       sizeof(*pass->tj), sizeof(*pass->cj),
			       sizeof(*pass->cat), sizeof(*pass->heap) };
	void *const narr[] = { &pass->node };
	const size_t nel[] = { sizeof(*pass->node) };
	void *const uarr[] = { &pass->ucnt };
	void *const aarr[] = { &pass->acnt };
	const size_t cel[] = { sizeof(uint64_t) };

	if (_grow(jarr, jel, 6, &pass->job_cap, n) ||
	    _grow(narr, nel, 1, &pass->node_cap, in->node_cnt) ||
	    _grow(uarr, cel, 1, &pass->user_cap,
		  prism_ge_count(in->pol, PRISM_GE_USER)) ||
	    _grow(aarr, cel, 1, &pass->acct_cap,
		  prism_ge_count(in->pol, PRISM_GE_ACCOUNT))) {
		prism_error_set(err, "grid engine pass: out of memory");
		return -1;
	}
	return 0;
}

static int _check_node(const prism_ge_node_t *nodes, uint32_t i,
		       prism_error_t *err)
{
	const prism_ge_node_t *x = &nodes[i];
	const char *what = NULL;

	if (!i && x->parent != _NONE)
		what = "the root has a parent";
	else if (i && x->parent >= i)
		what = "the parent is not an earlier node";
	else if (i && nodes[x->parent].user)
		what = "the parent is a user leaf";
	else if (!isfinite(x->usage) || x->usage < 0.0)
		what = "the usage is not finite and >= 0";
	if (!what)
		return 0;
	prism_error_set(err, "share tree: node %u (parent %u): %s",
			(unsigned) i, (unsigned) x->parent, what);
	return -1;
}

static int _check_job_node(const prism_ge_input_t *in,
			   const prism_ge_job_t *job, prism_error_t *err)
{
	if (job->node == _NONE ||
	    (job->node < in->node_cnt && in->nodes[job->node].user))
		return 0;
	prism_error_set(err, "job %u: node %u is not a user leaf",
			(unsigned) job->job_id, (unsigned) job->node);
	return -1;
}

static int _check(const prism_ge_input_t *in, const prism_ge_job_t *jobs,
		  uint32_t n, prism_error_t *err)
{
	for (uint32_t i = 0; i < in->node_cnt; i++) {
		if (_check_node(in->nodes, i, err))
			return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (_check_job_node(in, &jobs[i], err) ||
		    _check_job(in->pol, &jobs[i], err))
			return -1;
	}
	return 0;
}

/* The ticket policies in policy_hierarchy order. */
static void _tickets(prism_ge_pass_t *pass, const prism_ge_input_t *in,
		     const prism_ge_job_t *jobs, uint32_t n,
		     prism_ge_result_t *out)
{
	const prism_ge_params_t *p = prism_ge_policy_params(in->pol);
	double *tix = pass->tix;

	for (uint32_t i = 0; i < n; i++)
		pass->acc[i] = 0.0;
	for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
		bool dep = p->dependent[k];

		for (uint32_t i = 0; i < n; i++)
			tix[i] = 0.0;
		switch (p->order[k]) {
		case PRISM_GE_OVERRIDE:
			_override(pass, in, jobs, n, dep, tix);
			break;
		case PRISM_GE_FUNCTIONAL:
			_functional(pass, in, jobs, n, dep, tix);
			break;
		default:
			_sharetree(pass, in, jobs, n, dep, tix);
			break;
		}
		for (uint32_t i = 0; i < n; i++) {
			if (p->order[k] == PRISM_GE_OVERRIDE)
				out[i].otckt = tix[i];
			else if (p->order[k] == PRISM_GE_FUNCTIONAL)
				out[i].ftckt = tix[i];
			else
				out[i].stckt = tix[i];
			if (dep)
				pass->acc[i] += tix[i];
		}
	}
}

extern int prism_ge_pass_run(prism_ge_pass_t *pass,
			     const prism_ge_input_t *in,
			     const prism_ge_job_t *jobs, uint32_t n,
			     prism_ge_result_t *out, prism_error_t *err)
{
	const prism_ge_params_t *p;
	prism_ge_range_t range = { .jobs = n };
	double umin = 0.0, umax = 0.0;

	if (!pass || !in || !in->pol || (n && (!jobs || !out)) ||
	    (in->node_cnt && !in->nodes)) {
		prism_error_set(err, "prism_ge_pass_run: NULL argument");
		return -1;
	}
	if (_check(in, jobs, n, err) || _reserve(pass, in, n, err))
		return -1;
	p = prism_ge_policy_params(in->pol);
	for (uint32_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		_urgency(in->pol, p, &jobs[i], in->now, &out[i]);
		if (!i || out[i].urg < umin)
			umin = out[i].urg;
		if (!i || out[i].urg > umax)
			umax = out[i].urg;
		out[i].ppri = prism_ge_posix_prio(jobs[i].nice);
	}
	_tickets(pass, in, jobs, n, out);
	for (uint32_t i = 0; i < n; i++) {
		out[i].tckts = out[i].otckt + out[i].ftckt + out[i].stckt;
		if (out[i].tckts > range.tix_max)
			range.tix_max = out[i].tckts;
	}
	range.urg_min = umin;
	range.urg_max = umax;
	for (uint32_t i = 0; i < n; i++) {
		prism_ge_result_t *r = &out[i];

		r->nurg = prism_ge_normalize(r->urg, umin, umax);
		r->ntckts = prism_ge_normalize(r->tckts, 0.0, range.tix_max);
		r->npprior = prism_ge_normalize(r->ppri + _BASE_PRIO, 0.0,
						2.0 * _BASE_PRIO);
		r->prio = p->weight_urgency * r->nurg +
			  p->weight_ticket * r->ntckts +
			  p->weight_priority * r->npprior;
		r->slurm = prism_ge_to_slurm(in->pol, r->prio);
	}
	pass->range = range;
	return 0;
}

/* ---- explain ---------------------------------------------------------- */

extern int prism_ge_explain(const prism_ge_policy_t *pol,
			    const prism_ge_result_t *res, char *buf,
			    size_t size, prism_error_t *err)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	prism_ge_sprio_t col;
	prism_buf_t o;

	if (!p || !res || !buf || !size) {
		prism_error_set(err, "prism_ge_explain: bad parameter");
		return -1;
	}
	prism_buf_init(&o, buf, size);
	prism_ge_sprio(pol, res, &col, NULL);
	prism_buf_put(&o, "prior %.5f (slurm %u)", res->prio,
		      (unsigned) res->slurm);
	prism_buf_put(&o, " = %g * nurg + %g * ntckts + %g * npprior\n",
		      p->weight_urgency, p->weight_ticket, p->weight_priority);
	prism_buf_put(&o, "  qstat -pri: prior %.5f nurg %.5f npprior %.5f",
		      res->prio, res->nurg, res->npprior);
	prism_buf_put(&o, " ntckts %.5f ppri %d\n", res->ntckts,
		      (int) res->ppri);
	prism_buf_put(&o, "  qstat -urg: urg %.0f rrcontr %.0f wtcontr %.0f",
		      res->urg, res->rrcontr, res->wtcontr);
	prism_buf_put(&o, " dlcontr %.0f\n", res->dlcontr);
	prism_buf_put(
		&o,
		"  qstat -ext: tckts %.0f otckt %.0f ftckt %.0f stckt %.0f\n",
		res->tckts, res->otckt, res->ftckt, res->stckt);
	prism_buf_put(&o, "  sprio: urgency %u tickets %u posix %u offset %u\n",
		      (unsigned) col.urgency, (unsigned) col.tickets,
		      (unsigned) col.posix, (unsigned) col.offset);
	return prism_buf_end(&o, "explain", err);
}
