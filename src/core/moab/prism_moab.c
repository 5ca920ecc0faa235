/*****************************************************************************\
 *  prism_moab.c - the Moab/Maui priority model and its fair-share usage
 *  windows (see prism_moab.h).
 *
 *  The usage text is:
 *      prism-moab-usage VERSION
 *      interval SECONDS
 *      depth N
 *      start EPOCH
 *      total W0 W1 ... W(N-1)
 *      KIND NAME W0 W1 ... W(N-1)     (one line per credential with usage)
 *      checksum HEX
 *  where KIND is user, group, account, qos or class and HEX is the 32-bit
 *  FNV-1a hash of everything before the checksum line.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_buf.h"
#include "prism_format.h"
#include "prism_idmap.h"
#include "prism_moab.h"
#include "prism_sumtext.h"

#define _DEPTH_MAX 32
#define _TARGET_KNEE 0.01	/* 1 - x where f(x) turns linear */
#define _USERPRIO_MIN (-1024)
#define _USERPRIO_MAX 1023

struct prism_moab_usage {
	const prism_moab_policy_t *pol;
	uint32_t depth;
	int64_t interval;
	int64_t start;			/* start of window 0 */
	double pw[_DEPTH_MAX];		/* FSDECAY^i */
	uint32_t n[PRISM_MOAB_CRED_CNT];
	double *win[PRISM_MOAB_CRED_CNT];	/* n * depth, window 0 first */
	double *sum[PRISM_MOAB_CRED_CNT];	/* decayed sums, per slot */
	double total[_DEPTH_MAX];
	double total_sum;
};

/* ---- the curves ------------------------------------------------------- */

extern double prism_moab_xfactor(int64_t queue_time, int64_t wclimit,
				 int64_t xf_min_wclimit)
{
	int64_t div = wclimit > xf_min_wclimit ? wclimit : xf_min_wclimit;

	if (div <= 0 || queue_time <= 0)
		return 1.0;
	return 1.0 + (double) queue_time / (double) div;
}

extern double prism_moab_target_curve(double x)
{
	double knee = 1.0 - _TARGET_KNEE;

	if (!(x > 0.0))
		x = 0.0;
	if (x <= knee)
		return 1.0 / ((1.0 - x) * (1.0 - x));
	return 1.0 / (_TARGET_KNEE * _TARGET_KNEE) +
	       2.0 / (_TARGET_KNEE * _TARGET_KNEE * _TARGET_KNEE) * (x - knee);
}

extern double prism_moab_fs_delta(prism_moab_fstarget_t type, double target,
				  double usage)
{
	double d = target - usage;

	switch (type) {
	case PRISM_MOAB_FST_TARGET:
		return d;
	case PRISM_MOAB_FST_FLOOR:
		return d > 0.0 ? d : 0.0;
	case PRISM_MOAB_FST_CEILING:
		return d < 0.0 ? d : 0.0;
	case PRISM_MOAB_FST_NONE:
	case PRISM_MOAB_FST_CAP:
		break;
	}
	return 0.0;
}

/* ---- subcomponent values ---------------------------------------------- */

static double _cap(double v, int64_t cap)
{
	if (cap <= 0)
		return v;
	if (v > (double) cap)
		return (double) cap;
	if (v < -(double) cap)
		return -(double) cap;
	return v;
}

static bool _active(prism_moab_state_t state)
{
	return state == PRISM_MOAB_STARTING || state == PRISM_MOAB_RUNNING ||
	       state == PRISM_MOAB_SUSPENDED;
}

static void _cred_values(const prism_moab_pass_t *pass,
			 const prism_moab_job_t *job,
			 const prism_moab_cred_t *const cr[],
			 prism_moab_result_t *out)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pass->pol);
	bool fs_on = p->fs_policy != PRISM_MOAB_FS_OFF;

	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		double pct = 0.0;

		out->value[PRISM_MS_USER + k] = cr[k] ? (double) cr[k]->prio
						      : 0.0;
		out->weight[PRISM_MS_FSUSER + k] +=
			cr[k] ? (double) cr[k]->fs_weight : 0.0;
		if (!fs_on || !cr[k])
			continue;
		if (pass->usage)
			pct = prism_moab_usage_pct(pass->usage,
						   (prism_moab_cred_kind_t) k,
						   job->cred[k]);
		out->value[PRISM_MS_FSUSER + k] =
			prism_moab_fs_delta(cr[k]->fs_type, cr[k]->fs_target,
					    pct);
	}
	if (!cr[PRISM_MOAB_CLASS] || !cr[PRISM_MOAB_CLASS]->prio_set)
		out->value[PRISM_MS_CLASS] = (double) job->class_prio;
	for (int g = 0; g < 3; g++)
		out->value[PRISM_MS_FSGUSER + g] = job->fs_global[g];
	out->value[PRISM_MS_FSJPU] = job->user_jobs;
	out->value[PRISM_MS_FSPPU] = job->user_procs;
	out->value[PRISM_MS_FSPSPU] = job->user_ps;
	out->value[PRISM_MS_WCACCURACY] = job->user_wcaccuracy;
}

static double _pe(const prism_moab_job_t *job)
{
	const prism_moab_totals_t *t = job->part;
	double share = 0.0;

	if (!t || !t->procs)
		return 0.0;
	share = (double) job->procs / t->procs;
	if (t->mem_mb && (double) job->mem_mb / t->mem_mb > share)
		share = (double) job->mem_mb / t->mem_mb;
	if (t->swap_mb && (double) job->swap_mb / t->swap_mb > share)
		share = (double) job->swap_mb / t->swap_mb;
	if (t->disk_mb && (double) job->disk_mb / t->disk_mb > share)
		share = (double) job->disk_mb / t->disk_mb;
	return share * t->procs;
}

static double _deadline(const prism_moab_job_t *job, int64_t now)
{
	int64_t window;

	if (!job->deadline)
		return 0.0;
	/* latest start - the time the job began to queue */
	window = job->deadline - job->wclimit - (now - job->queue_time);
	if (window < 60)
		window = 60;
	return 100.0 * (double) (job->queue_time > 0 ? job->queue_time : 0) /
	       (double) window;
}

static double _userprio(const prism_moab_params_t *p, int32_t v)
{
	int32_t max = p->enable_pos_userprio ? _USERPRIO_MAX : 0;

	if (v < _USERPRIO_MIN)
		return _USERPRIO_MIN;
	return v > max ? max : v;
}

static void _job_values(const prism_moab_pass_t *pass,
			const prism_moab_job_t *job,
			const prism_moab_cred_t *qos,
			prism_moab_result_t *out)
{
	const prism_moab_policy_t *pol = pass->pol;
	const prism_moab_params_t *p = prism_moab_policy_params(pol);
	double *v = out->value;
	double xf = prism_moab_xfactor(job->queue_time, job->wclimit,
				       p->xf_min_wclimit);

	v[PRISM_MS_NODE] = job->nodes;
	v[PRISM_MS_PROC] = job->procs;
	v[PRISM_MS_MEM] = (double) job->mem_mb;
	v[PRISM_MS_SWAP] = (double) job->swap_mb;
	v[PRISM_MS_DISK] = (double) job->disk_mb;
	v[PRISM_MS_PS] = (double) job->procs * (double) job->wclimit;
	v[PRISM_MS_PE] = _pe(job);
	v[PRISM_MS_WALLTIME] = (double) job->wclimit;

	v[PRISM_MS_QUEUETIME] = (double) job->queue_time / 60.0;
	v[PRISM_MS_XFACTOR] = xf;
	v[PRISM_MS_BYPASS] = job->bypass;
	v[PRISM_MS_STARTCOUNT] = job->start_count;
	v[PRISM_MS_DEADLINE] = _deadline(job, pass->now);
	v[PRISM_MS_SPVIOLATION] = job->spviolation ? 1.0 : 0.0;
	v[PRISM_MS_USERPRIO] = _userprio(p, job->user_prio);

	if (qos && qos->qt_target > 0)
		v[PRISM_MS_TARGETQUEUETIME] = prism_moab_target_curve(
			(double) job->queue_time / (double) qos->qt_target);
	if (qos && qos->xf_target > 1.0)
		v[PRISM_MS_TARGETXFACTOR] = prism_moab_target_curve(
			(xf - 1.0) / (qos->xf_target - 1.0));
	else if (qos && qos->xf_target > 0.0)
		v[PRISM_MS_TARGETXFACTOR] = prism_moab_target_curve(xf);

	if (_active(job->state)) {
		double exec = job->exec_time > 0 ? (double) job->exec_time : 0;
		double left = (double) job->wclimit - exec;

		v[PRISM_MS_CONSUMED] = job->procs * exec;
		v[PRISM_MS_HUNGER] = job->hunger;
		v[PRISM_MS_REMAINING] = left > 0 ? job->procs * left : 0.0;
		v[PRISM_MS_PERCENT] = job->wclimit > 0 ?
			100.0 * exec / (double) job->wclimit : 0.0;
		v[PRISM_MS_EXECUTIONTIME] = exec;
	}

	for (uint64_t m = job->attr_mask; m; m &= m - 1)
		v[PRISM_MS_ATTRATTR] += (double) prism_moab_attr_prio(
			pol, __builtin_ctzll(m));
	if ((unsigned) job->state < PRISM_MOAB_STATE_CNT)
		v[PRISM_MS_ATTRSTATE] = (double) p->state_prio[job->state];
	for (uint64_t m = job->gres_mask; m; m &= m - 1)
		v[PRISM_MS_ATTRGRES] += (double) prism_moab_gres_prio(
			pol, __builtin_ctzll(m));
}

/* ---- the sum ---------------------------------------------------------- */

static int64_t _bound(const prism_moab_params_t *p, double sum,
		      int64_t sys_prio)
{
	double lo = p->enable_neg ? -(double) p->max_prio : 0.0;
	double f = floor(sum);

	if (sys_prio > 0)
		return p->max_prio +
		       (sys_prio < p->max_prio ? sys_prio : p->max_prio);
	if (isnan(f) || f < lo)
		f = lo;
	if (f > (double) p->max_prio)
		f = (double) p->max_prio;
	return (int64_t) f;
}

extern uint32_t prism_moab_to_slurm(const prism_moab_policy_t *pol,
				    int64_t prio)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pol);
	int64_t lo = p->enable_neg ? -p->max_prio : 0;

	if (prio < lo)
		prio = lo;
	if (prio > 2 * p->max_prio)
		prio = 2 * p->max_prio;
	return (uint32_t) (prio - lo + 1);
}

extern int64_t prism_moab_from_slurm(const prism_moab_policy_t *pol,
				     uint32_t slurm)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pol);
	int64_t lo = p->enable_neg ? -p->max_prio : 0;

	return (int64_t) slurm - 1 + lo;
}

extern int prism_moab_prio(const prism_moab_pass_t *pass,
			   const prism_moab_job_t *job,
			   prism_moab_result_t *out, prism_error_t *err)
{
	const prism_moab_params_t *p;
	const prism_moab_cred_t *cr[PRISM_MOAB_CRED_CNT];

	if (!pass || !pass->pol || !job || !out) {
		prism_error_set(err, "prism_moab_prio: NULL argument");
		return -1;
	}
	p = prism_moab_policy_params(pass->pol);
	memset(out, 0, sizeof(*out));
	for (int s = 0; s < PRISM_MS_CNT; s++)
		out->weight[s] = (double) p->sub_weight[s];
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		cr[k] = prism_moab_cred_get(pass->pol,
					    (prism_moab_cred_kind_t) k,
					    job->cred[k]);
	if (cr[PRISM_MOAB_QOS]) {
		out->weight[PRISM_MS_QUEUETIME] +=
			(double) cr[PRISM_MOAB_QOS]->qt_weight;
		out->weight[PRISM_MS_XFACTOR] +=
			(double) cr[PRISM_MOAB_QOS]->xf_weight;
	}
	_cred_values(pass, job, cr, out);
	_job_values(pass, job, cr[PRISM_MOAB_QOS], out);

	for (int s = 0; s < PRISM_MS_CNT; s++) {
		if (out->weight[s] == 0.0)
			continue;
		out->term[s] = _cap(out->weight[s] * out->value[s],
				    p->sub_cap[s]);
		out->comp_sum[prism_moab_sub_comp((prism_moab_sub_t) s)] +=
			out->term[s];
	}
	out->sum = (double) job->rel_prio;
	for (int c = 0; c < PRISM_MC_CNT; c++) {
		out->comp_sum[c] = _cap(out->comp_sum[c], p->comp_cap[c]);
		out->comp[c] = (double) p->comp_weight[c] * out->comp_sum[c];
		out->sum += out->comp[c];
	}
	out->prio = _bound(p, out->sum, job->sys_prio);
	out->slurm = prism_moab_to_slurm(pass->pol, out->prio);
	out->reject = p->reject_neg && out->prio < 0;
	return 0;
}

/* ---- sprio columns, system priority, usage amount --------------------- */

#define _COL_MAX INT32_MAX
#define _COL_MIN (-(int64_t) INT32_MAX - 1)

/* 'v' truncated toward zero into a column; clears *exact if clipped. */
static int64_t _column(double v, bool *exact)
{
	if (isnan(v))
		return 0;
	if (v >= (double) _COL_MAX + 1.0 || v <= (double) _COL_MIN - 1.0) {
		*exact = false;
		return v > 0 ? _COL_MAX : _COL_MIN;
	}
	return (int64_t) v;
}

extern void prism_moab_columns(const prism_moab_result_t *res,
			       prism_moab_columns_t *out)
{
	prism_moab_columns_t c = { .exact = true };

	c.serv = _column(res->comp[PRISM_MC_SERV], &c.exact);
	c.cred = _column(res->comp[PRISM_MC_CRED], &c.exact);
	c.fs = _column(res->comp[PRISM_MC_FS], &c.exact);
	c.res = _column(res->comp[PRISM_MC_RES], &c.exact);
	c.attr = _column(res->comp[PRISM_MC_ATTR], &c.exact);
	c.target_usage = _column(res->comp[PRISM_MC_TARGET] +
					 res->comp[PRISM_MC_USAGE],
				 &c.exact);
	prism_moab_columns_rebase(&c, res->slurm);
	*out = c;
}

extern void prism_moab_columns_rebase(prism_moab_columns_t *c,
				      uint32_t slurm)
{
	/* each column is within 32 bits: the sum cannot overflow */
	int64_t rest = (int64_t) slurm - c->serv - c->cred - c->fs - c->res -
		       c->attr - c->target_usage;

	if (rest > _COL_MAX || rest < _COL_MIN) {
		c->exact = false;
		rest = rest > 0 ? _COL_MAX : _COL_MIN;
	}
	c->rest = rest;
}

extern int64_t prism_moab_sys_prio(const prism_moab_policy_t *pol,
				   uint32_t slurm)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pol);

	if (slurm > prism_moab_to_slurm(pol, p->max_prio))
		return prism_moab_from_slurm(pol, slurm) - p->max_prio;
	return slurm ? (int64_t) slurm : 1;
}

extern double prism_moab_usage_amount(const prism_moab_policy_t *pol,
				      const prism_moab_job_t *job,
				      double seconds)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pol);

	if (!job || !(seconds > 0.0) || !isfinite(seconds))
		return 0.0;
	switch (p->fs_policy) {
	case PRISM_MOAB_FS_OFF:
		return 0.0;
	case PRISM_MOAB_FS_DEDICATEDPES:
		return _pe(job) * seconds;
	default:
		return (double) job->procs * seconds;
	}
}

extern void prism_moab_job_raw(const prism_moab_raw_t *raw,
			       prism_moab_job_t *job)
{
	if (!raw || !job)
		return;
	job->wclimit = (int64_t) raw->time_limit * 60;
	job->queue_time = 0;
	if (raw->accrue_time > 0 && raw->now > raw->accrue_time)
		job->queue_time = raw->now - raw->accrue_time;
	job->exec_time = 0;
	if ((job->state == PRISM_MOAB_RUNNING ||
	     job->state == PRISM_MOAB_SUSPENDED) &&
	    raw->start_time > 0 && raw->now > raw->start_time) {
		int64_t ran = raw->now - raw->start_time - raw->suspended;

		job->exec_time = ran > 0 ? ran : 0;
	}
	if (job->nodes && raw->disk_per_node > UINT64_MAX / job->nodes)
		job->disk_mb = UINT64_MAX;
	else
		job->disk_mb = raw->disk_per_node * job->nodes;
	if (raw->nice <= -(int64_t) INT32_MAX)
		job->user_prio = INT32_MAX;
	else if (raw->nice >= -(int64_t) INT32_MIN)
		job->user_prio = INT32_MIN;
	else
		job->user_prio = (int32_t) -raw->nice;
}

/* ---- what Slurm has no data for; per-user totals ---------------------- */

extern const char *prism_moab_sub_no_data(prism_moab_sub_t sub)
{
	switch (sub) {
	case PRISM_MS_FSGUSER:
	case PRISM_MS_FSGGROUP:
	case PRISM_MS_FSGACCOUNT:
		return "Slurm has no grid-wide (global) fair-share usage";
	case PRISM_MS_WCACCURACY:
		return "Slurm keeps no per-user wall-clock accuracy in the controller";
	case PRISM_MS_SWAP:
		return "Slurm jobs request no swap";
	case PRISM_MS_BYPASS:
		return "Slurm does not count how often backfill passed a job over";
	case PRISM_MS_SPVIOLATION:
		return "Slurm has no soft limits";
	case PRISM_MS_HUNGER:
		return "Slurm has no dynamic jobs";
	default:
		return NULL;
	}
}

typedef struct {
	uint32_t jobs;
	uint32_t procs;
	double ps;
} _user_t;

struct prism_moab_users {
	prism_idmap_t *map;	/* uid -> index into v */
	_user_t *v;
	uint32_t n, cap;
};

extern prism_moab_users_t *prism_moab_users_create(void)
{
	prism_moab_users_t *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->map = prism_idmap_create();
	if (!u->map) {
		free(u);
		return NULL;
	}
	return u;
}

extern void prism_moab_users_free(prism_moab_users_t *u)
{
	if (!u)
		return;
	prism_idmap_free(u->map);
	free(u->v);
	free(u);
}

extern void prism_moab_users_clear(prism_moab_users_t *u)
{
	if (!u)
		return;
	prism_idmap_clear(u->map);
	u->n = 0;
}

extern int prism_moab_users_add(prism_moab_users_t *u, uint32_t uid,
				uint32_t procs, int64_t wclimit)
{
	uint32_t i;

	if (!u)
		return -1;
	if (!prism_idmap_get(u->map, uid, &i)) {
		if (u->n == u->cap) {
			uint32_t cap = u->cap ? 2 * u->cap : 64;
			_user_t *v = realloc(u->v, sizeof(*v) * cap);

			if (!v)
				return -1;
			u->v = v;
			u->cap = cap;
		}
		if (prism_idmap_put(u->map, uid, u->n))
			return -1;
		i = u->n++;
		u->v[i] = (_user_t) { 0 };
	}
	u->v[i].jobs++;
	u->v[i].procs += procs;
	u->v[i].ps += (double) procs * (double) (wclimit > 0 ? wclimit : 0);
	return 0;
}

extern void prism_moab_users_fill(const prism_moab_users_t *u, uint32_t uid,
				  prism_moab_job_t *job)
{
	uint32_t i;

	job->user_jobs = 0;
	job->user_procs = 0;
	job->user_ps = 0.0;
	if (!u || !prism_idmap_get(u->map, uid, &i))
		return;
	job->user_jobs = u->v[i].jobs;
	job->user_procs = u->v[i].procs;
	job->user_ps = u->v[i].ps;
}

/* ---- explain ---------------------------------------------------------- */

static bool _in_comp(int sub, int comp)
{
	return (int) prism_moab_sub_comp((prism_moab_sub_t) sub) == comp;
}

extern int prism_moab_explain(const prism_moab_policy_t *pol,
			      const prism_moab_result_t *res, char *buf,
			      size_t size, prism_error_t *err)
{
	const prism_moab_params_t *p;
	prism_buf_t o;

	if (!pol || !res || !buf || !size) {
		prism_error_set(err, "prism_moab_explain: bad parameter");
		return -1;
	}
	p = prism_moab_policy_params(pol);
	prism_buf_init(&o, buf, size);
	prism_buf_put(&o, "priority %" PRId64 " (slurm %" PRIu32 ")%s\n",
		      res->prio, res->slurm,
		      res->reject ? " reject: negative priority" : "");
	for (int c = 0; c < PRISM_MC_CNT; c++) {
		bool any = false;

		for (int s = 0; s < PRISM_MS_CNT; s++)
			any |= _in_comp(s, c) && res->weight[s] != 0.0;
		if (!any)
			continue;
		prism_buf_put(&o, "  %s: %" PRId64 " * %.6g = %.6g\n",
			      prism_moab_comp_name((prism_moab_comp_t) c),
			      p->comp_weight[c], res->comp_sum[c],
			      res->comp[c]);
		for (int s = 0; s < PRISM_MS_CNT; s++) {
			if (!_in_comp(s, c) || res->weight[s] == 0.0)
				continue;
			prism_buf_put(&o, "    %s: %.6g * %.6g = %.6g\n",
				      prism_moab_sub_name((prism_moab_sub_t) s),
				      res->weight[s], res->value[s],
				      res->term[s]);
		}
	}
	return prism_buf_end(&o, "explain", err);
}

/* ---- usage windows ---------------------------------------------------- */

static void _usage_resum(prism_moab_usage_t *u)
{
	u->total_sum = 0.0;
	for (uint32_t i = 0; i < u->depth; i++)
		u->total_sum += u->pw[i] * u->total[i];
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		for (uint32_t j = 0; j < u->n[k]; j++) {
			const double *row = u->win[k] + (size_t) j * u->depth;
			double s = 0.0;

			for (uint32_t i = 0; i < u->depth; i++)
				s += u->pw[i] * row[i];
			u->sum[k][j] = s;
		}
	}
}

extern prism_moab_usage_t *prism_moab_usage_create(
	const prism_moab_policy_t *pol, int64_t now, prism_error_t *err)
{
	const prism_moab_params_t *p;
	prism_moab_usage_t *u;

	if (!pol) {
		prism_error_set(err, "prism_moab_usage_create: NULL policy");
		return NULL;
	}
	p = prism_moab_policy_params(pol);
	u = calloc(1, sizeof(*u));
	if (!u)
		goto oom;
	u->pol = pol;
	u->depth = p->fs_depth > _DEPTH_MAX ? _DEPTH_MAX : p->fs_depth;
	if (!u->depth)
		u->depth = 1;
	u->interval = p->fs_interval > 0 ? p->fs_interval : 1;
	u->start = now - (((now % u->interval) + u->interval) % u->interval);
	u->pw[0] = 1.0;
	for (uint32_t i = 1; i < u->depth; i++)
		u->pw[i] = u->pw[i - 1] * p->fs_decay;
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		size_t n = prism_moab_cred_count(pol,
						 (prism_moab_cred_kind_t) k);

		u->n[k] = (uint32_t) n;
		u->win[k] = calloc(n ? n * u->depth : 1, sizeof(double));
		u->sum[k] = calloc(n ? n : 1, sizeof(double));
		if (!u->win[k] || !u->sum[k])
			goto oom;
	}
	return u;
oom:
	prism_moab_usage_free(u);
	prism_error_set(err, "fair-share usage: out of memory");
	return NULL;
}

extern void prism_moab_usage_free(prism_moab_usage_t *u)
{
	if (!u)
		return;
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		free(u->win[k]);
		free(u->sum[k]);
	}
	free(u);
}

static void _shift(double *row, uint32_t depth, uint32_t by)
{
	memmove(row + by, row, (depth - by) * sizeof(double));
	memset(row, 0, by * sizeof(double));
}

extern int64_t prism_moab_usage_roll(prism_moab_usage_t *u, int64_t now)
{
	int64_t k, since;
	uint32_t by;

	/* no overflow whatever the saved start: it may come from a file */
	if (!u || __builtin_sub_overflow(now, u->start, &since) ||
	    since < u->interval)
		return 0;
	k = since / u->interval;
	by = k >= u->depth ? u->depth : (uint32_t) k;
	_shift(u->total, u->depth, by);
	for (int c = 0; c < PRISM_MOAB_CRED_CNT; c++) {
		for (uint32_t j = 0; j < u->n[c]; j++)
			_shift(u->win[c] + (size_t) j * u->depth, u->depth,
			       by);
	}
	u->start += k * u->interval;
	_usage_resum(u);
	return k;
}

static int _check_amount(double amount, prism_error_t *err)
{
	if (!isfinite(amount) || amount < 0.0) {
		prism_error_set(err, "fair-share usage: bad amount %g",
				amount);
		return -1;
	}
	return 0;
}

extern int prism_moab_usage_add(prism_moab_usage_t *u,
				prism_moab_cred_kind_t kind, uint32_t idx,
				double amount, prism_error_t *err)
{
	if (!u || (unsigned) kind >= PRISM_MOAB_CRED_CNT ||
	    idx >= u->n[kind]) {
		prism_error_set(err, "fair-share usage: bad credential");
		return -1;
	}
	if (_check_amount(amount, err))
		return -1;
	u->win[kind][(size_t) idx * u->depth] += amount;
	u->sum[kind][idx] += amount;
	return 0;
}

extern int prism_moab_usage_add_total(prism_moab_usage_t *u, double amount,
				      prism_error_t *err)
{
	if (!u) {
		prism_error_set(err, "fair-share usage: NULL usage");
		return -1;
	}
	if (_check_amount(amount, err))
		return -1;
	u->total[0] += amount;
	u->total_sum += amount;
	return 0;
}

extern int prism_moab_usage_charge(prism_moab_usage_t *u,
				   const uint32_t cred[PRISM_MOAB_CRED_CNT],
				   double amount, prism_error_t *err)
{
	if (!u || !cred) {
		prism_error_set(err, "fair-share usage: NULL argument");
		return -1;
	}
	if (_check_amount(amount, err))
		return -1;
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		if (cred[k] >= u->n[k])
			continue;
		u->win[k][(size_t) cred[k] * u->depth] += amount;
		u->sum[k][cred[k]] += amount;
	}
	u->total[0] += amount;
	u->total_sum += amount;
	return 0;
}

extern double prism_moab_usage_pct(const prism_moab_usage_t *u,
				   prism_moab_cred_kind_t kind, uint32_t idx)
{
	if (!u || (unsigned) kind >= PRISM_MOAB_CRED_CNT ||
	    idx >= u->n[kind] || !(u->total_sum > 0.0))
		return 0.0;
	return 100.0 * u->sum[kind][idx] / u->total_sum;
}

extern int64_t prism_moab_usage_start(const prism_moab_usage_t *u)
{
	return u ? u->start : 0;
}

extern size_t prism_moab_usage_format_size(const prism_moab_usage_t *u)
{
	size_t size = 160 + 8 + (size_t) u->depth * PRISM_SUMTEXT_REAL_MAX;

	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		for (uint32_t j = 0; j < u->n[k]; j++) {
			const prism_moab_cred_t *c = prism_moab_cred_get(
				u->pol, (prism_moab_cred_kind_t) k, j);

			size += 16 + strlen(c->name) +
				(size_t) u->depth * PRISM_SUMTEXT_REAL_MAX;
		}
	}
	return size;
}

static void _put_row(prism_buf_t *o, const double *row, uint32_t depth)
{
	for (uint32_t i = 0; i < depth; i++)
		prism_sumtext_put_real(o, row[i]);
	prism_buf_put(o, "\n");
}

extern int prism_moab_usage_format(const prism_moab_usage_t *u, char *buf,
				   size_t size, prism_error_t *err)
{
	prism_buf_t o;

	if (!u || !buf || !size) {
		prism_error_set(err, "fair-share usage: bad parameter");
		return -1;
	}
	prism_buf_init(&o, buf, size);
	prism_buf_put(&o,
		      "prism-moab-usage %d\ninterval %" PRId64
		      "\ndepth %" PRIu32 "\nstart %" PRId64 "\ntotal",
		      PRISM_MOAB_USAGE_VERSION, u->interval, u->depth,
		      u->start);
	_put_row(&o, u->total, u->depth);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		prism_moab_cred_kind_t kind = (prism_moab_cred_kind_t) k;

		for (uint32_t j = 0; j < u->n[k]; j++) {
			const double *row = u->win[k] + (size_t) j * u->depth;
			const char *name;
			bool any = false;

			for (uint32_t i = 0; i < u->depth; i++)
				any |= row[i] != 0.0;
			if (!any)
				continue;
			name = prism_moab_cred_get(u->pol, kind, j)->name;
			prism_buf_put(&o, "%s %s",
				      prism_moab_cred_kind_name(kind), name);
			_put_row(&o, row, u->depth);
		}
	}
	prism_sumtext_put_checksum(&o);
	return prism_buf_end(&o, "usage", err);
}

/* ---- usage parse ------------------------------------------------------ */

static int _field(char *line, const char *name, int64_t min, int64_t max,
		  int64_t *out, prism_error_t *err)
{
	size_t n = strlen(name);

	if (!line || strncmp(line, name, n) || line[n] != ' ') {
		prism_error_set(err, "usage state: expected '%s'", name);
		return -1;
	}
	if (prism_sumtext_int(line + n + 1, min, max, out)) {
		prism_error_set(err, "usage state: bad value for '%s'", name);
		return -1;
	}
	return 0;
}

/* Read 'depth' numbers of 'cur' into 'row' (first 'keep' kept). */
static int _row(char *cur, uint32_t depth, double *row, uint32_t keep,
		prism_error_t *err)
{
	for (uint32_t i = 0; i < depth; i++) {
		char *end;
		double v;

		if (prism_sumtext_real(cur, 0.0, DBL_MAX, &end, &v) ||
		    (*end != ' ' && *end != '\0'))
			goto bad;
		if (i < keep && row)
			row[i] = v;
		cur = end;
	}
	if (*cur == '\0')
		return 0;
bad:
	prism_error_set(err, "usage state: bad window values");
	return -1;
}

static int _usage_line(prism_moab_usage_t *u, char *line, uint32_t depth,
		       prism_error_t *err)
{
	uint32_t keep = depth < u->depth ? depth : u->depth;
	char *sp = strchr(line, ' '), *name, *rest;
	int kind = -1;
	uint32_t idx;

	if (!sp) {
		prism_error_set(err, "usage state: bad line");
		return -1;
	}
	*sp = '\0';
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		if (!strcmp(line, prism_moab_cred_kind_name(
					  (prism_moab_cred_kind_t) k)))
			kind = k;
	}
	if (kind < 0) {
		*sp = ' ';
		prism_error_set(err, "usage state: unknown kind in line '%s'",
				line);
		return -1;
	}
	name = sp + 1;
	rest = strchr(name, ' ');
	if (!rest || rest == name) {
		prism_error_set(err, "usage state: bad line");
		return -1;
	}
	*rest++ = '\0';
	idx = prism_moab_cred_find(u->pol, (prism_moab_cred_kind_t) kind,
				   name);
	if (idx == PRISM_MOAB_NONE)	/* no longer in the policy: drop */
		return _row(rest, depth, NULL, 0, err);
	return _row(rest, depth, u->win[kind] + (size_t) idx * u->depth, keep,
		    err);
}

static int _usage_body(prism_moab_usage_t *u, char *body, size_t len,
		       prism_error_t *err)
{
	int64_t version, interval, depth, start;
	size_t pos = 0;
	char *line;

	if (_field(prism_sumtext_line(body, len, &pos), "prism-moab-usage", 0,
		   INT32_MAX, &version, err))
		return -1;
	if (version != PRISM_MOAB_USAGE_VERSION) {
		prism_error_set(err, "usage state: version %" PRId64
				" is not %d", version,
				PRISM_MOAB_USAGE_VERSION);
		return -1;
	}
	if (_field(prism_sumtext_line(body, len, &pos), "interval", 1,
		   INT64_MAX, &interval, err) ||
	    _field(prism_sumtext_line(body, len, &pos), "depth", 1, _DEPTH_MAX,
		   &depth, err) ||
	    _field(prism_sumtext_line(body, len, &pos), "start", 0,
		   INT64_MAX / 2, &start, err))
		return -1;
	u->start = start;
	line = prism_sumtext_line(body, len, &pos);
	if (!line || strncmp(line, "total ", 6)) {
		prism_error_set(err, "usage state: expected 'total'");
		return -1;
	}
	if (_row(line + 6, (uint32_t) depth, u->total,
		 (uint32_t) depth < u->depth ? (uint32_t) depth : u->depth,
		 err))
		return -1;
	while ((line = prism_sumtext_line(body, len, &pos))) {
		if (_usage_line(u, line, (uint32_t) depth, err))
			return -1;
	}
	return 0;
}

extern int prism_moab_usage_parse(const char *buf, size_t len,
				  const prism_moab_policy_t *pol,
				  prism_moab_usage_t **out, prism_error_t *err)
{
	prism_sumtext_rc_t open_rc;
	prism_moab_usage_t *u;
	char *body = NULL;
	size_t body_len = 0;
	int64_t v;
	int rc;

	if (!buf || !pol || !out) {
		prism_error_set(err, "usage state: bad parameter");
		return -1;
	}
	if (!len) {
		prism_error_set(err, "usage state: empty");
		return -1;
	}
	if (len < 5 || strncmp(buf, "prism-moab-usage ", len < 17 ? len : 17)) {
		prism_error_set(err, "usage state: not a usage state");
		return -1;
	}
	/* a later format, whatever follows its first line */
	if (!prism_format_first_line(buf, len, "prism-moab-usage", "", &v,
				     NULL) &&
	    (v > PRISM_MOAB_USAGE_VERSION))
		return prism_format_check("Moab usage state", v,
					  PRISM_MOAB_USAGE_VERSION,
					  PRISM_MOAB_USAGE_VERSION, err);
	open_rc = prism_sumtext_open(buf, len, &body, &body_len);
	/* a checksum line of another length has always read as a mismatch */
	if (open_rc == PRISM_SUMTEXT_BAD_LENGTH)
		open_rc = PRISM_SUMTEXT_MISMATCH;
	if (open_rc != PRISM_SUMTEXT_OK) {
		prism_error_set(err, "usage state: %s",
				prism_sumtext_why(open_rc));
		return -1;
	}
	u = prism_moab_usage_create(pol, 0, err);
	rc = u ? _usage_body(u, body, body_len, err) : -1;
	free(body);
	if (rc) {
		prism_moab_usage_free(u);
		return -1;
	}
	_usage_resum(u);
	*out = u;
	return 0;
}
