/*****************************************************************************\
 *  prism_usage.c - usage accounting arithmetic (see prism_usage.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "prism_usage.h"

#define SECS_PER_DAY (24 * 60 * 60)
#define SECS_PER_WEEK (7 * SECS_PER_DAY)

/* ln(2) as Slurm writes it; the factor must match to the last bit. */
#define HALF_LIFE_LN2 0.693

extern double prism_usage_decay_factor(uint32_t half_life)
{
	if (!half_life)
		return 1.0;
	return 1 - (HALF_LIFE_LN2 / (double) half_life);
}

static bool _factor_ok(double factor)
{
	return factor > 0.0 && factor <= 1.0;
}

extern int prism_usage_decay_between(double factor, time_t last, time_t now,
				     double *decay, prism_error_t *err)
{
	double seconds, d;

	if (!decay) {
		prism_error_set(err, "usage decay: no result");
		return -1;
	}
	if (!_factor_ok(factor)) {
		prism_error_set(err, "usage decay: factor %g not in (0,1]",
				factor);
		return -1;
	}
	if (!last || now <= last) {
		*decay = 1.0;
		return 0;
	}
	seconds = difftime(now, last);
	d = pow(factor, seconds);
	if (d < DBL_MIN)
		d = DBL_MIN;
	*decay = d;
	return 0;
}

extern void prism_usage_rec_decay(const prism_usage_rec_t *rec, int tres_cnt,
				  double decay)
{
	if (rec->usage_raw)
		*rec->usage_raw = prism_usage_raw_decayed(*rec->usage_raw,
							  decay);
	if (rec->usage_tres_raw)
		for (int i = 0; i < tres_cnt; i++)
			rec->usage_tres_raw[i] *= decay;
	if (rec->grp_used_wall)
		*rec->grp_used_wall *= decay;
}

extern void prism_usage_rec_clear(const prism_usage_rec_t *rec, int tres_cnt)
{
	if (rec->usage_raw)
		*rec->usage_raw = 0;
	if (rec->usage_tres_raw)
		for (int i = 0; i < tres_cnt; i++)
			rec->usage_tres_raw[i] = 0;
	if (rec->grp_used_wall)
		*rec->grp_used_wall = 0;
}

/* mktime() letting the C library decide about daylight saving time. */
static time_t _mktime(struct tm *tm)
{
	tm->tm_isdst = -1;
	return mktime(tm);
}

/*
 * DAILY and WEEKLY add seconds, not calendar days, to the midnight of
 * the last reset (so a DST change shifts them by an hour), as Slurm does.
 */
static time_t _next_by_seconds(time_t midnight, time_t first, time_t step,
			       time_t now)
{
	time_t t = midnight + first;

	while ((t + step) < now)
		t += step;
	return t;
}

/* Move 'tm' to the 1st of the next month, quarter or year. */
static void _first_of_next(struct tm *tm, prism_reset_t period)
{
	tm->tm_mday = 1;
	if (period == PRISM_RESET_MONTHLY && tm->tm_mon < 11) {
		tm->tm_mon++;
	} else if (period == PRISM_RESET_QUARTERLY && tm->tm_mon < 9) {
		tm->tm_mon = (tm->tm_mon / 3 + 1) * 3;
	} else {
		tm->tm_mon = 0;
		tm->tm_year++;
	}
}

extern int prism_usage_next_reset(prism_reset_t period, time_t last_reset,
				  time_t now, time_t *next,
				  prism_error_t *err)
{
	struct tm tm;
	time_t t;

	if (!next) {
		prism_error_set(err, "usage reset: no result");
		return -1;
	}
	if (period == PRISM_RESET_NONE || period == PRISM_RESET_NOW) {
		*next = 0;
		return 0;
	}
	if ((int) period < 0 || period > PRISM_RESET_YEARLY) {
		prism_error_set(err, "usage reset: unknown period %d",
				(int) period);
		return -1;
	}
	if (!localtime_r(&last_reset, &tm)) {
		prism_error_set(err, "usage reset: time %lld out of range",
				(long long) last_reset);
		return -1;
	}
	tm.tm_sec = 0;
	tm.tm_min = 0;
	tm.tm_hour = 0;
	if (period == PRISM_RESET_DAILY || period == PRISM_RESET_WEEKLY) {
		t = _mktime(&tm);
		if (t != (time_t) -1 && period == PRISM_RESET_DAILY)
			t = _next_by_seconds(t, SECS_PER_DAY, SECS_PER_DAY,
					     now);
		else if (t != (time_t) -1)
			t = _next_by_seconds(t,
					     SECS_PER_DAY * (7 - tm.tm_wday),
					     SECS_PER_WEEK, now);
	} else {
		_first_of_next(&tm, period);
		t = _mktime(&tm);
	}
	if (t == (time_t) -1) {
		prism_error_set(err, "usage reset: no date after %lld",
				(long long) last_reset);
		return -1;
	}
	*next = t;
	return 0;
}

extern int prism_usage_reset_step(prism_reset_state_t *rs, time_t now,
				  bool *due, prism_error_t *err)
{
	prism_reset_state_t n;
	bool d = false;

	if (!rs || !due) {
		prism_error_set(err, "usage reset: no state");
		return -1;
	}
	n = *rs;
	if (!n.last_reset)
		n.last_reset = now;
	switch (n.period) {
	case PRISM_RESET_NONE:
		break;
	case PRISM_RESET_NOW:
		d = true;
		n.period = PRISM_RESET_NONE;
		n.last_reset = now;
		break;
	case PRISM_RESET_DAILY:
	case PRISM_RESET_WEEKLY:
	case PRISM_RESET_MONTHLY:
	case PRISM_RESET_QUARTERLY:
	case PRISM_RESET_YEARLY:
		if (!n.next_reset &&
		    prism_usage_next_reset(n.period, n.last_reset, now,
					   &n.next_reset, err))
			return -1;
		if (now < n.next_reset)
			break;
		d = true;
		n.last_reset = n.next_reset;
		if (prism_usage_next_reset(n.period, n.last_reset, now,
					   &n.next_reset, err))
			return -1;
		break;
	default:
		prism_error_set(err, "usage reset: unknown period %d",
				(int) n.period);
		return -1;
	}
	*rs = n;
	*due = d;
	return 0;
}

extern time_t prism_usage_period_start(const prism_usage_job_t *job,
				       time_t start)
{
	return job->start_time > start ? job->start_time : start;
}

/*
 * Run-seconds of the period to release from grp_used_tres_run_secs, per
 * unit of TRES: slurmctld added them up to the job's time limit when it
 * started, so nothing past the limit; all that is left of it when the job
 * is finished; otherwise the seconds run, but not past the expected end.
 */
static uint64_t _time_delta(const prism_usage_job_t *job, time_t p_start,
			    time_t p_end, double run_delta)
{
	uint64_t limit_ends = (uint64_t) job->start_time +
			      (uint64_t) job->time_limit * 60;
	double d;

	if ((uint64_t) p_start >= limit_ends)
		return 0;
	if (job->finished)
		return limit_ends - (uint64_t) p_start;
	if (p_end <= job->end_time_exp)
		return (uint64_t) run_delta;
	/* Slurm goes through an int here */
	d = difftime(job->end_time_exp, p_start);
	if (d >= INT_MAX)
		return INT_MAX;
	if ((int) d > 0)
		return (uint64_t) (int) d;
	return 0;
}

static int _charge_check(const prism_usage_job_t *job,
			 const prism_usage_charge_t *c, double decay_factor,
			 double billable, prism_error_t *err)
{
	if (!job || !c) {
		prism_error_set(err, "usage charge: no job or no result");
		return -1;
	}
	if (job->tres_cnt < 0) {
		prism_error_set(err, "usage charge: TRES count %d",
				job->tres_cnt);
		return -1;
	}
	if (job->tres_cnt && (!c->tres_run_delta || !c->tres_run_decay ||
			      !c->tres_run_nodecay)) {
		prism_error_set(err, "usage charge: no per-TRES arrays");
		return -1;
	}
	if (!_factor_ok(decay_factor)) {
		prism_error_set(err, "usage charge: decay %g not in (0,1]",
				decay_factor);
		return -1;
	}
	if (isnan(billable)) {
		prism_error_set(err, "usage charge: billable TRES is NaN");
		return -1;
	}
	return 0;
}

extern int prism_usage_charge_compute(const prism_usage_job_t *job,
				      time_t start, time_t end, bool at_end,
				      double decay_factor, double billable,
				      prism_usage_charge_t *c,
				      prism_error_t *err)
{
	time_t p_start, p_end = end;
	double uf;
	int n;

	if (_charge_check(job, c, decay_factor, billable, err))
		return -1;
	n = job->tres_cnt;
	p_start = prism_usage_period_start(job, start);
	if (job->end_time && at_end && (p_end > job->end_time))
		p_end = job->end_time;

	c->run_delta = difftime(p_end, p_start);
	if (c->run_delta < 0)
		c->run_delta = 0;
	c->tres_time_delta = _time_delta(job, p_start, p_end, c->run_delta);

	/* the same operations in the same order as multifactor */
	c->run_decay = c->run_delta * pow(decay_factor, c->run_delta);
	c->real_decay = c->run_decay * billable;
	c->real_nodecay = c->run_delta * billable;
	c->run_nodecay = c->run_delta;
	uf = job->usage_factor;
	if (uf >= 0) {
		c->real_decay *= uf;
		c->run_decay *= uf;
		c->real_nodecay *= uf;
		c->run_nodecay *= uf;
		c->tres_time_delta = (uint64_t) (c->tres_time_delta * uf);
	}

	if (!n)
		return 0;
	memset(c->tres_run_delta, 0, n * sizeof(*c->tres_run_delta));
	memset(c->tres_run_decay, 0, n * sizeof(*c->tres_run_decay));
	memset(c->tres_run_nodecay, 0, n * sizeof(*c->tres_run_nodecay));
	if (!job->tres_alloc)
		return 0;
	for (int i = 0; i < n; i++) {
		uint64_t cnt = job->tres_alloc[i];

		if (!cnt || cnt == PRISM_USAGE_NO_CONSUME)
			continue;
		c->tres_run_delta[i] = c->tres_time_delta * cnt;
		c->tres_run_decay[i] = (long double) c->run_decay *
				       (long double) cnt;
		c->tres_run_nodecay[i] = (long double) c->run_nodecay *
					 (long double) cnt;
	}
	return 0;
}

extern int prism_usage_rec_release(const prism_usage_rec_t *rec,
				   const long double *tres_add,
				   const uint64_t *delta, int tres_cnt,
				   int skip, prism_usage_underflow_t *uf)
{
	uint64_t *secs = rec->grp_used_tres_run_secs;
	int clamped = 0;

	for (int i = 0; i < tres_cnt; i++) {
		if (i == skip)
			continue;
		if (tres_add && rec->usage_tres_raw)
			rec->usage_tres_raw[i] += tres_add[i];
		if (!delta || !secs)
			continue;
		if (delta[i] <= secs[i]) {
			secs[i] -= delta[i];
			continue;
		}
		if (uf)
			uf[clamped] = (prism_usage_underflow_t) {
				.tres = i, .delta = delta[i],
				.remained = secs[i] };
		clamped++;
		secs[i] = 0;
	}
	return clamped;
}

extern int prism_usage_rec_charge(const prism_usage_rec_t *rec,
				  const prism_usage_charge_t *c, int tres_cnt,
				  bool no_decay, bool limits, int skip,
				  prism_usage_underflow_t *uf)
{
	const long double *tres_add;

	if (no_decay) {
		if (rec->grp_used_wall)
			*rec->grp_used_wall += c->run_nodecay;
		if (rec->usage_raw)
			*rec->usage_raw += (long double) c->real_nodecay;
		tres_add = c->tres_run_nodecay;
	} else {
		if (rec->grp_used_wall)
			*rec->grp_used_wall += c->run_decay;
		if (rec->usage_raw)
			*rec->usage_raw += (long double) c->real_decay;
		tres_add = c->tres_run_decay;
	}
	if (!limits)
		return 0;
	return prism_usage_rec_release(rec, tres_add, c->tres_run_delta,
				       tres_cnt, skip, uf);
}

extern int prism_usage_init_delta(const prism_usage_job_t *job,
				  time_t last_ran, uint64_t *delta,
				  prism_error_t *err)
{
	double factor = 1.0;

	if (!job || job->tres_cnt < 0 || (job->tres_cnt && !delta)) {
		prism_error_set(err, "usage init: bad job or no result");
		return -1;
	}
	if (job->start_time > last_ran)
		return 1;
	if (job->usage_factor >= 0)
		factor = job->usage_factor;
	factor *= (double) (last_ran - job->start_time);
	for (int i = 0; i < job->tres_cnt; i++) {
		uint64_t cnt = job->tres_alloc ? job->tres_alloc[i] : 0;

		/* Slurm leaves these unset; nothing is released for them */
		if (cnt == PRISM_USAGE_NO_CONSUME)
			delta[i] = 0;
		else
			delta[i] = (uint64_t) (cnt * factor);
	}
	return 0;
}
