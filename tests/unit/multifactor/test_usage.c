/*****************************************************************************\
 *  test_usage.c - unit tests of prism_usage: decay over known periods, the
 *  reset calendar around month and year ends and DST changes, a running
 *  job's charge, run-seconds underflow, the restart rebuild, and bad
 *  parameters. Expected values are Slurm 22.05 multifactor's, bit for bit
 *  where the test says '=='.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_usage.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

#define WEEK (7 * 24 * 3600)
#define T0 ((time_t) 1763700000) /* the harness's "now" */

/* ---- decay ---- */

static const struct {
	const char *what;
	uint32_t half_life;
	double want;
} factors[] = {
	{ "no half-life: no decay", 0, 1.0 },
	{ "7 days, Slurm's default", WEEK, 1 - (0.693 / 604800.0) },
	{ "1 hour", 3600, 1 - (0.693 / 3600.0) },
	{ "1 second", 1, 1 - 0.693 },
};

START_TEST(test_decay_factor)
{
	double f = prism_usage_decay_factor(factors[_i].half_life);

	ck_assert_msg(f == factors[_i].want, "%s: %.17g, want %.17g",
		      factors[_i].what, f, factors[_i].want);
}
END_TEST

static const struct {
	const char *what;
	uint32_t half_life;
	time_t last, now;
	double want;		/* exact */
	double near, tol;	/* a literal, for the reader */
} decays[] = {
	{ "one calc period of 300 s, half-life 7 days", WEEK, T0, T0 + 300,
	  0, 0.9996563088783914, 1e-15 },
	/* 0.693 < ln 2: one half-life leaves a bit more than a half */
	{ "one half-life", WEEK, T0, T0 + WEEK, 0, 0.5000733971527376,
	  1e-12 },
	{ "no half-life: 1 over a day", 0, T0, T0 + 86400, 1.0, 1.0, 0 },
	{ "never ran (last 0)", WEEK, 0, T0, 1.0, 1.0, 0 },
	{ "no time passed", WEEK, T0, T0, 1.0, 1.0, 0 },
	{ "clock went back", WEEK, T0, T0 - 10, 1.0, 1.0, 0 },
	{ "underflow clamped to DBL_MIN", 1, T0, T0 + 1000000, DBL_MIN,
	  DBL_MIN, 0 },
};

START_TEST(test_decay_between)
{
	double f = prism_usage_decay_factor(decays[_i].half_life);
	double want = decays[_i].want;
	prism_error_t err = { "" };
	double d = -1;

	if (!want)
		want = pow(f, difftime(decays[_i].now, decays[_i].last));
	ck_assert_int_eq(prism_usage_decay_between(f, decays[_i].last,
						   decays[_i].now, &d, &err),
			 0);
	ck_assert_msg(d == want, "%s: %.17g, want %.17g", decays[_i].what, d,
		      want);
	ck_assert_msg(fabs(d - decays[_i].near) <= decays[_i].tol,
		      "%s: %.17g, near %.17g", decays[_i].what, d,
		      decays[_i].near);
}
END_TEST

/* A week of 300 s passes decays like one step of a week. */
START_TEST(test_decay_passes)
{
	double f = prism_usage_decay_factor(WEEK);
	long double usage = 1.0L, tres[2] = { 2.0L, 0.0L };
	double wall = 100.0, d;
	prism_usage_rec_t rec = { &usage, tres, &wall, NULL };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_usage_decay_between(f, T0, T0 + 300, &d, &err),
			 0);
	for (int i = 0; i < WEEK / 300; i++)
		prism_usage_rec_decay(&rec, 2, d);
	ck_assert_msg(fabsl(usage - 0.5000733971527376L) < 1e-9L,
		      "usage %.17Lg", usage);
	ck_assert_msg(fabsl(tres[0] - 2 * usage) < 1e-15L, "tres %.17Lg",
		      tres[0]);
	ck_assert(tres[1] == 0.0L);
	ck_assert_msg(fabs(wall - 100 * (double) usage) < 1e-9, "wall %g",
		      wall);
}
END_TEST

/* One step is exactly x *= decay on every field, in long double. */
START_TEST(test_decay_rec)
{
	long double usage = 1000.0L, tres[3] = { 10.0L, 20.0L, 30.0L };
	double wall = 50.0, d = 0.9996563088783914;
	uint64_t secs[3] = { 7, 8, 9 };
	prism_usage_rec_t rec = { &usage, tres, &wall, secs };
	prism_usage_rec_t empty = { NULL, NULL, NULL, NULL };

	prism_usage_rec_decay(&rec, 3, d);
	ck_assert(usage == 1000.0L * d);
	for (int i = 0; i < 3; i++)
		ck_assert(tres[i] == (long double) (10 * (i + 1)) * d);
	ck_assert(wall == 50.0 * d);
	ck_assert(secs[0] == 7 && secs[1] == 8 && secs[2] == 9);
	prism_usage_rec_decay(&empty, 3, d); /* no field: nothing to do */

	prism_usage_rec_clear(&rec, 3);
	ck_assert(usage == 0.0L && wall == 0.0);
	for (int i = 0; i < 3; i++)
		ck_assert(tres[i] == 0.0L);
	ck_assert(secs[0] == 7);	/* run-seconds are not usage */
}
END_TEST

/* ---- reset calendar ---- */

#define UTC "UTC0"
#define CET "CET-1CEST,M3.5.0,M10.5.0/3"

static const struct {
	const char *what;
	const char *tz;
	prism_reset_t period;
	time_t last, now;
	time_t want;
} resets[] = {
	{ "NONE: no date", UTC, PRISM_RESET_NONE, 1738335600, 1738335600, 0 },
	{ "NOW: no date", UTC, PRISM_RESET_NOW, 1738335600, 1738335600, 0 },
	/* 2025-01-31 15:00 -> 2025-02-01 00:00 */
	{ "DAILY at a month end", UTC, PRISM_RESET_DAILY, 1738335600,
	  1738335600, 1738368000 },
	/* 2025-12-31 23:59:59 -> 2026-01-01 00:00 */
	{ "DAILY at a year end", UTC, PRISM_RESET_DAILY, 1767225599,
	  1767225599, 1767225600 },
	/* last 2025-01-01 12:00, now 2025-01-10 12:00 -> 2025-01-10 00:00 */
	{ "DAILY catches up to the last midnight", UTC, PRISM_RESET_DAILY,
	  1735732800, 1736510400, 1736467200 },
	/* Wed 2025-01-29 -> Sun 2025-02-02 */
	{ "WEEKLY across a month end", UTC, PRISM_RESET_WEEKLY, 1738137600,
	  1738137600, 1738454400 },
	/* Sun 2025-02-02 10:00 -> Sun 2025-02-09 */
	{ "WEEKLY from a Sunday: the next one", UTC, PRISM_RESET_WEEKLY,
	  1738490400, 1738490400, 1739059200 },
	/* Wed 2025-12-31 -> Sun 2026-01-04 */
	{ "WEEKLY across a year end", UTC, PRISM_RESET_WEEKLY, 1767139200,
	  1767139200, 1767484800 },
	/* 2025-01-29, now 2025-02-10 -> 2025-02-09 */
	{ "WEEKLY catches up", UTC, PRISM_RESET_WEEKLY, 1738137600,
	  1739145600, 1739059200 },
	{ "MONTHLY on the 31st", UTC, PRISM_RESET_MONTHLY, 1738335600,
	  1738335600, 1738368000 },
	{ "MONTHLY in December", UTC, PRISM_RESET_MONTHLY, 1765756800,
	  1765756800, 1767225600 },
	{ "MONTHLY on a leap day", UTC, PRISM_RESET_MONTHLY, 1709211600,
	  1709211600, 1709251200 },
	/* no catching up: the 1st after the last reset, however old */
	{ "MONTHLY does not catch up", UTC, PRISM_RESET_MONTHLY, 1736899200,
	  1746230400, 1738368000 },
	{ "QUARTERLY in February", UTC, PRISM_RESET_QUARTERLY, 1739145600,
	  1739145600, 1743465600 },
	{ "QUARTERLY at the end of March", UTC, PRISM_RESET_QUARTERLY,
	  1743462000, 1743462000, 1743465600 },
	{ "QUARTERLY on April 1st 00:00", UTC, PRISM_RESET_QUARTERLY,
	  1743465600, 1743465600, 1751328000 },
	{ "QUARTERLY on September 30th", UTC, PRISM_RESET_QUARTERLY,
	  1759190400, 1759190400, 1759276800 },
	{ "QUARTERLY in November", UTC, PRISM_RESET_QUARTERLY, 1764460800,
	  1764460800, 1767225600 },
	{ "YEARLY on December 31st", UTC, PRISM_RESET_YEARLY, 1767225599,
	  1767225599, 1767225600 },
	{ "YEARLY on January 1st 00:00", UTC, PRISM_RESET_YEARLY, 1735689600,
	  1735689600, 1767225600 },
	/*
	 * DAILY and WEEKLY add 86400 s to local midnight, as Slurm does:
	 * across a DST change the reset moves by an hour.
	 */
	{ "DAILY over spring forward: 01:00 CEST", CET, PRISM_RESET_DAILY,
	  1743328800, 1743328800, 1743375600 },
	{ "DAILY over fall back: 23:00 CET the same day", CET,
	  PRISM_RESET_DAILY, 1761472800, 1761472800, 1761516000 },
	{ "WEEKLY over fall back: Saturday 23:00 CET", CET,
	  PRISM_RESET_WEEKLY, 1761472800, 1761472800, 1762034400 },
	{ "MONTHLY over spring forward: April 1st 00:00 CEST", CET,
	  PRISM_RESET_MONTHLY, 1742040000, 1742040000, 1743458400 },
};

/* Run with TZ set to 'tz', then restore it. */
static void _set_tz(const char *tz, char *saved, size_t size)
{
	const char *old = getenv("TZ");

	saved[0] = '\0';
	if (old)
		snprintf(saved, size, "%s", old);
	setenv("TZ", tz, 1);
	tzset();
}

static void _restore_tz(const char *saved)
{
	if (saved[0])
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	tzset();
}

START_TEST(test_next_reset)
{
	prism_error_t err = { "" };
	time_t next = -1;
	char saved[128];
	int rc;

	_set_tz(resets[_i].tz, saved, sizeof(saved));
	rc = prism_usage_next_reset(resets[_i].period, resets[_i].last,
				    resets[_i].now, &next, &err);
	_restore_tz(saved);
	ck_assert_msg(rc == 0, "%s: %s", resets[_i].what, err.text);
	ck_assert_msg(next == resets[_i].want, "%s: %lld, want %lld",
		      resets[_i].what, (long long) next,
		      (long long) resets[_i].want);
}
END_TEST

static const struct {
	const char *what;
	prism_reset_state_t in;
	time_t now;
	bool due;
	prism_reset_state_t out;
} steps[] = {
	{ "NONE: never due", { PRISM_RESET_NONE, 1738335600, 0 }, 1738339200,
	  false, { PRISM_RESET_NONE, 1738335600, 0 } },
	{ "NOW: due once, then NONE", { PRISM_RESET_NOW, 1738335600, 0 },
	  1738339200, true, { PRISM_RESET_NONE, 1738339200, 0 } },
	{ "a zero last reset is now", { PRISM_RESET_DAILY, 0, 0 },
	  1738335600, false, { PRISM_RESET_DAILY, 1738335600, 1738368000 } },
	{ "DAILY before midnight: computes the next",
	  { PRISM_RESET_DAILY, 1738335600, 0 }, 1738339200, false,
	  { PRISM_RESET_DAILY, 1738335600, 1738368000 } },
	{ "DAILY at midnight: due, next one a day later",
	  { PRISM_RESET_DAILY, 1738335600, 1738368000 }, 1738368000, true,
	  { PRISM_RESET_DAILY, 1738368000, 1738454400 } },
	/* last 2025-01-15, now 2025-05-03: Feb 1st, then March 1st next */
	{ "MONTHLY months behind: one month per step",
	  { PRISM_RESET_MONTHLY, 1736899200, 0 }, 1746230400, true,
	  { PRISM_RESET_MONTHLY, 1738368000, 1740787200 } },
	{ "YEARLY not due", { PRISM_RESET_YEARLY, 1748736000, 0 },
	  1748822400, false, { PRISM_RESET_YEARLY, 1748736000, 1767225600 } },
};

START_TEST(test_reset_step)
{
	prism_reset_state_t rs = steps[_i].in;
	prism_error_t err = { "" };
	bool due = !steps[_i].due;
	char saved[128];
	int rc;

	_set_tz(UTC, saved, sizeof(saved));
	rc = prism_usage_reset_step(&rs, steps[_i].now, &due, &err);
	_restore_tz(saved);
	ck_assert_msg(rc == 0, "%s: %s", steps[_i].what, err.text);
	ck_assert_msg(due == steps[_i].due, "%s: due %d", steps[_i].what,
		      due);
	ck_assert_msg(rs.period == steps[_i].out.period, "%s: period %d",
		      steps[_i].what, rs.period);
	ck_assert_msg(rs.last_reset == steps[_i].out.last_reset,
		      "%s: last %lld", steps[_i].what,
		      (long long) rs.last_reset);
	ck_assert_msg(rs.next_reset == steps[_i].out.next_reset,
		      "%s: next %lld", steps[_i].what,
		      (long long) rs.next_reset);
}
END_TEST

/* ---- a running job's charge ---- */

#define NTRES 5
#define NO_CONSUME PRISM_USAGE_NO_CONSUME
#define BILLABLE 4.0
#define NOEND -1		/* no end_time */

static const uint64_t alloc[NTRES] = { 4, 1000, 0, 2, NO_CONSUME };

/* Times are relative to T0; the period is T0 .. T0 + 'end'. */
static const struct {
	const char *what;
	int start;		/* job start */
	uint32_t limit;		/* minutes */
	int end_time;		/* NOEND: none */
	int end_exp;
	bool finished, at_end;
	double uf;		/* < 0: no UsageFactor */
	int end;		/* period end */
	double want_run;	/* run_delta */
	uint64_t want_ttd;	/* tres_time_delta */
} charges[] = {
	{ "running through the period", -3600, 120, NOEND, 3600, false,
	  false, -1, 300, 300, 300 },
	{ "started in the period", 100, 120, NOEND, 7300, false, false, -1,
	  300, 200, 200 },
	{ "UsageFactor 2", -3600, 120, NOEND, 3600, false, false, 2.0, 300,
	  300, 600 },
	{ "UsageFactor 0.5 truncates run-seconds", -3600, 120, NOEND, 3600,
	  false, false, 0.5, 301, 301, 150 },
	{ "UsageFactor 0 charges nothing", -3600, 120, NOEND, 3600, false,
	  false, 0.0, 300, 300, 0 },
	{ "over its time limit: usage, no run-seconds", -7200, 60, NOEND,
	  -3600, false, false, -1, 300, 300, 0 },
	{ "reaches its time limit in the period", -3500, 60, NOEND, 100,
	  false, false, -1, 300, 300, 100 },
	{ "at its end: stops at end_time, releases the rest", -3600, 120,
	  120, 3600, true, true, -1, 300, 120, 3600 },
	{ "end_time ignored unless at its end", -3600, 120, 120, 3600, false,
	  false, -1, 300, 300, 300 },
	{ "at its end after the period", -3600, 120, 500, 3600, true, true,
	  -1, 300, 300, 3600 },
	{ "at its end, over its limit", -7200, 60, 100, -3600, true, true,
	  -1, 300, 100, 0 },
	{ "finished (requeue) not at its end", -3600, 120, NOEND, 3600, true,
	  false, -1, 300, 300, 3600 },
	{ "starts after the period", 400, 120, NOEND, 7600, false, false, -1,
	  300, 0, 0 },
	{ "INFINITE time limit", -3600, 0xffffffff, NOEND, 365 * 86400,
	  false, false, -1, 300, 300, 300 },
};

static prism_usage_job_t _job(int row, const uint64_t *tres)
{
	return (prism_usage_job_t) {
		.start_time = T0 + charges[row].start,
		.end_time = charges[row].end_time == NOEND ?
				    0 : T0 + charges[row].end_time,
		.end_time_exp = T0 + charges[row].end_exp,
		.time_limit = charges[row].limit,
		.finished = charges[row].finished,
		.usage_factor = charges[row].uf,
		.tres_alloc = tres,
		.tres_cnt = NTRES,
	};
}

START_TEST(test_charge)
{
	double f = prism_usage_decay_factor(WEEK);
	prism_usage_job_t job = _job(_i, alloc);
	uint64_t delta[NTRES];
	long double dec[NTRES], nodec[NTRES];
	prism_usage_charge_t c = { .tres_run_delta = delta,
				   .tres_run_decay = dec,
				   .tres_run_nodecay = nodec };
	prism_error_t err = { "" };
	double rd = charges[_i].want_run, uf = charges[_i].uf;
	double run_decay, real_decay, real_nodecay, run_nodecay;
	const char *what = charges[_i].what;

	ck_assert_int_eq(prism_usage_charge_compute(&job, T0,
						    T0 + charges[_i].end,
						    charges[_i].at_end, f,
						    BILLABLE, &c, &err),
			 0);
	ck_assert_msg(c.run_delta == rd, "%s: run_delta %g", what,
		      c.run_delta);
	ck_assert_msg(c.tres_time_delta == charges[_i].want_ttd,
		      "%s: tres_time_delta %llu", what,
		      (unsigned long long) c.tres_time_delta);

	/* multifactor's operations, in its order */
	run_decay = rd * pow(f, rd);
	real_decay = run_decay * BILLABLE;
	real_nodecay = rd * BILLABLE;
	run_nodecay = rd;
	if (uf >= 0) {
		real_decay *= uf;
		run_decay *= uf;
		real_nodecay *= uf;
		run_nodecay *= uf;
	}
	ck_assert_msg(c.run_decay == run_decay, "%s: run_decay", what);
	ck_assert_msg(c.real_decay == real_decay, "%s: real_decay", what);
	ck_assert_msg(c.real_nodecay == real_nodecay, "%s: real_nodecay",
		      what);
	ck_assert_msg(c.run_nodecay == run_nodecay, "%s: run_nodecay", what);

	for (int i = 0; i < NTRES; i++) {
		bool counted = alloc[i] && alloc[i] != NO_CONSUME;
		uint64_t cnt = counted ? alloc[i] : 0;

		ck_assert_msg(delta[i] == c.tres_time_delta * cnt,
			      "%s: TRES %d run-seconds", what, i);
		ck_assert_msg(dec[i] == (long double) run_decay * cnt,
			      "%s: TRES %d decayed", what, i);
		ck_assert_msg(nodec[i] == (long double) run_nodecay * cnt,
			      "%s: TRES %d not decayed", what, i);
	}
}
END_TEST

/* The first row in numbers, for the reader. */
START_TEST(test_charge_numbers)
{
	prism_usage_job_t job = _job(0, alloc);
	uint64_t delta[NTRES];
	long double dec[NTRES], nodec[NTRES];
	prism_usage_charge_t c = { .tres_run_delta = delta,
				   .tres_run_decay = dec,
				   .tres_run_nodecay = nodec };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_usage_charge_compute(
				 &job, T0, T0 + 300, false,
				 prism_usage_decay_factor(WEEK), BILLABLE, &c,
				 &err),
			 0);
	ck_assert(fabs(c.run_decay - 299.8968926635174) < 1e-9);
	ck_assert(fabs(c.real_decay - 1199.5875706540697) < 1e-9);
	ck_assert(c.real_nodecay == 1200.0);
	ck_assert(delta[0] == 1200 && delta[1] == 300000 && delta[3] == 600);
	ck_assert(delta[2] == 0 && delta[4] == 0);
	ck_assert(fabsl(dec[1] - 299896.8926635174L) < 1e-6L);
}
END_TEST

/* Without allocated TRES the per-TRES arrays are all zero. */
START_TEST(test_charge_no_tres)
{
	prism_usage_job_t job = _job(0, NULL);
	uint64_t delta[NTRES];
	long double dec[NTRES], nodec[NTRES];
	prism_usage_charge_t c = { .tres_run_delta = delta,
				   .tres_run_decay = dec,
				   .tres_run_nodecay = nodec };
	prism_error_t err = { "" };

	memset(delta, 0xff, sizeof(delta));
	memset(dec, 0xff, sizeof(dec));
	memset(nodec, 0xff, sizeof(nodec));
	ck_assert_int_eq(prism_usage_charge_compute(
				 &job, T0, T0 + 300, false,
				 prism_usage_decay_factor(WEEK), 0.0, &c,
				 &err),
			 0);
	ck_assert(c.run_delta == 300 && c.real_decay == 0.0);
	for (int i = 0; i < NTRES; i++)
		ck_assert(delta[i] == 0 && dec[i] == 0.0L &&
			  nodec[i] == 0.0L);
}
END_TEST

/* ---- charging a record ---- */

#define SKIP 2			/* the energy TRES */

static const struct {
	const char *what;
	bool no_decay, limits;
	int want_clamped;
} recs[] = {
	{ "association, limits enforced", false, true, 2 },
	{ "NoDecay QOS, limits enforced", true, true, 2 },
	{ "limits not enforced: no TRES usage, no run-seconds", false, false,
	  0 },
	{ "NoDecay QOS, limits not enforced", true, false, 0 },
};

START_TEST(test_rec_charge)
{
	prism_usage_job_t job = _job(0, alloc);
	uint64_t delta[NTRES];
	long double dec[NTRES], nodec[NTRES];
	prism_usage_charge_t c = { .tres_run_delta = delta,
				   .tres_run_decay = dec,
				   .tres_run_nodecay = nodec };
	long double usage = 10.0L, tres[NTRES] = { 1, 1, 1, 1, 1 };
	uint64_t secs[NTRES] = { 10000, 100000, 50, 300, 0 };
	double wall = 5.0;
	prism_usage_rec_t rec = { &usage, tres, &wall, secs };
	prism_usage_underflow_t uf[NTRES];
	prism_error_t err = { "" };
	const long double *add;
	const char *what = recs[_i].what;
	int n;

	ck_assert_int_eq(prism_usage_charge_compute(
				 &job, T0, T0 + 300, false,
				 prism_usage_decay_factor(WEEK), BILLABLE, &c,
				 &err),
			 0);
	n = prism_usage_rec_charge(&rec, &c, NTRES, recs[_i].no_decay,
				   recs[_i].limits, SKIP, uf);
	ck_assert_msg(n == recs[_i].want_clamped, "%s: %d clamped", what, n);
	if (recs[_i].no_decay) {
		ck_assert(usage == 10.0L + (long double) c.real_nodecay);
		ck_assert(wall == 5.0 + c.run_nodecay);
		add = nodec;
	} else {
		ck_assert(usage == 10.0L + (long double) c.real_decay);
		ck_assert(wall == 5.0 + c.run_decay);
		add = dec;
	}
	ck_assert_msg(tres[SKIP] == 1 && secs[SKIP] == 50,
		      "%s: energy touched", what);
	if (!recs[_i].limits) {
		for (int i = 0; i < NTRES; i++)
			ck_assert_msg(tres[i] == 1, "%s: TRES usage", what);
		ck_assert(secs[0] == 10000 && secs[1] == 100000 &&
			  secs[3] == 300 && secs[4] == 0);
		return;
	}
	ck_assert_msg(tres[0] == 1 + add[0] && tres[1] == 1 + add[1] &&
			      tres[3] == 1 + add[3] && tres[4] == 1,
		      "%s: TRES usage", what);
	/* 1200 of 10000 released; 300000 of 100000 and 600 of 300 clamp */
	ck_assert(secs[0] == 8800 && secs[1] == 0 && secs[3] == 0 &&
		  secs[4] == 0);
	ck_assert(uf[0].tres == 1 && uf[0].delta == 300000 &&
		  uf[0].remained == 100000);
	ck_assert(uf[1].tres == 3 && uf[1].delta == 600 &&
		  uf[1].remained == 300);
}
END_TEST

/* Release with underflow, no TRES usage added, no report buffer. */
START_TEST(test_release_underflow)
{
	uint64_t secs[4] = { 100, 50, 7, 0 };
	const uint64_t delta[4] = { 30, 80, 5, 1 };
	long double tres[4] = { 1, 2, 3, 4 };
	prism_usage_rec_t rec = { NULL, tres, NULL, secs };
	prism_usage_rec_t none = { NULL, NULL, NULL, NULL };
	prism_usage_underflow_t uf[4];

	ck_assert_int_eq(prism_usage_rec_release(&rec, NULL, delta, 4, 2, uf),
			 2);
	ck_assert(secs[0] == 70 && secs[1] == 0 && secs[2] == 7 &&
		  secs[3] == 0);
	ck_assert(uf[0].tres == 1 && uf[0].delta == 80 &&
		  uf[0].remained == 50);
	ck_assert(uf[1].tres == 3 && uf[1].delta == 1 && uf[1].remained == 0);
	ck_assert(tres[0] == 1 && tres[3] == 4);

	/* again, energy too: counters at 0 clamp again, no report buffer */
	ck_assert_int_eq(prism_usage_rec_release(&rec, NULL, delta, 4, -1,
						 NULL),
			 2);
	ck_assert(secs[0] == 40 && secs[1] == 0 && secs[2] == 2 &&
		  secs[3] == 0);
	ck_assert_int_eq(prism_usage_rec_release(&none, tres, delta, 4, -1,
						 uf),
			 0);
}
END_TEST

/* ---- run-seconds used before a restart ---- */

static const uint64_t init_alloc[4] = { 4, 1000, NO_CONSUME, 2 };

static const struct {
	const char *what;
	int start;		/* relative to last_ran */
	double uf;
	int want_rc;
	uint64_t want[4];
} inits[] = {
	{ "an hour, no UsageFactor", -3600, -1, 0, { 14400, 3600000, 0,
						       7200 } },
	{ "an hour, UsageFactor 2", -3600, 2.0, 0, { 28800, 7200000, 0,
						      14400 } },
	/* 0.35 * 1001 = 350.34999...: 1000 x that truncates to 350349 */
	{ "UsageFactor 0.35 truncates", -1001, 0.35, 0, { 1401, 350349, 0,
							  700 } },
	{ "started at last_ran: nothing", 0, -1, 0, { 0, 0, 0, 0 } },
	{ "started after last_ran: skipped", 10, -1, 1, { 9, 9, 9, 9 } },
};

START_TEST(test_init_delta)
{
	prism_usage_job_t job = { .start_time = T0 + inits[_i].start,
				  .usage_factor = inits[_i].uf,
				  .tres_alloc = init_alloc,
				  .tres_cnt = 4 };
	uint64_t delta[4] = { 9, 9, 9, 9 };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_usage_init_delta(&job, T0, delta, &err),
			 inits[_i].want_rc);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(delta[i] == inits[_i].want[i],
			      "%s: TRES %d: %llu", inits[_i].what, i,
			      (unsigned long long) delta[i]);
}
END_TEST

/* ---- bad parameters ---- */

START_TEST(test_bad_params)
{
	prism_usage_job_t job = _job(0, alloc);
	uint64_t delta[NTRES];
	long double dec[NTRES], nodec[NTRES];
	prism_usage_charge_t c = { .tres_run_delta = delta,
				   .tres_run_decay = dec,
				   .tres_run_nodecay = nodec };
	prism_usage_charge_t no_arrays = { 0 };
	prism_reset_state_t rs = { PRISM_RESET_DAILY, T0, 0 };
	prism_reset_state_t bad_rs = { (prism_reset_t) 42, T0, 0 };
	prism_error_t err = { "" };
	time_t next = 7;
	double d = 7;
	bool due = false;

	ck_assert_int_eq(prism_usage_decay_between(0.0, 1, 2, &d, &err), -1);
	ck_assert(strstr(err.text, "not in (0,1]") && d == 7);
	ck_assert_int_eq(prism_usage_decay_between(1.5, 1, 2, &d, &err), -1);
	ck_assert_int_eq(prism_usage_decay_between(NAN, 1, 2, &d, &err), -1);
	ck_assert_int_eq(prism_usage_decay_between(0.5, 1, 2, NULL, &err),
			 -1);

	ck_assert_int_eq(prism_usage_next_reset((prism_reset_t) 42, T0, T0,
						&next, &err),
			 -1);
	ck_assert(strstr(err.text, "unknown period") && next == 7);
	ck_assert_int_eq(prism_usage_next_reset(PRISM_RESET_DAILY, T0, T0,
						NULL, &err),
			 -1);
	ck_assert_int_eq(prism_usage_reset_step(&bad_rs, T0, &due, &err), -1);
	ck_assert(bad_rs.period == 42 && bad_rs.next_reset == 0 && !due);
	ck_assert_int_eq(prism_usage_reset_step(NULL, T0, &due, &err), -1);
	ck_assert_int_eq(prism_usage_reset_step(&rs, T0, NULL, &err), -1);

	ck_assert_int_eq(prism_usage_charge_compute(NULL, T0, T0, false, 0.5,
						    1, &c, &err),
			 -1);
	ck_assert_int_eq(prism_usage_charge_compute(&job, T0, T0, false, 0.5,
						    1, NULL, &err),
			 -1);
	ck_assert_int_eq(prism_usage_charge_compute(&job, T0, T0, false, 0.5,
						    1, &no_arrays, &err),
			 -1);
	ck_assert(strstr(err.text, "arrays"));
	ck_assert_int_eq(prism_usage_charge_compute(&job, T0, T0, false, 0.0,
						    1, &c, &err),
			 -1);
	ck_assert_int_eq(prism_usage_charge_compute(&job, T0, T0, false, 0.5,
						    NAN, &c, &err),
			 -1);
	ck_assert(strstr(err.text, "NaN"));
	job.tres_cnt = -1;
	ck_assert_int_eq(prism_usage_charge_compute(&job, T0, T0, false, 0.5,
						    1, &c, &err),
			 -1);
	ck_assert_int_eq(prism_usage_init_delta(&job, T0, delta, &err), -1);
	job.tres_cnt = NTRES;
	ck_assert_int_eq(prism_usage_init_delta(&job, T0, NULL, &err), -1);
	ck_assert_int_eq(prism_usage_init_delta(NULL, T0, delta, &err), -1);

	/* a NULL error buffer is allowed */
	ck_assert_int_eq(prism_usage_decay_between(0.0, 1, 2, &d, NULL), -1);
}
END_TEST

extern Suite *usage_suite(void)
{
	Suite *s = suite_create("usage");
	TCase *tc = tcase_create("decay");

	tcase_add_loop_test(tc, test_decay_factor, 0, N(factors));
	tcase_add_loop_test(tc, test_decay_between, 0, N(decays));
	tcase_add_test(tc, test_decay_passes);
	tcase_add_test(tc, test_decay_rec);
	suite_add_tcase(s, tc);

	tc = tcase_create("reset");
	tcase_add_loop_test(tc, test_next_reset, 0, N(resets));
	tcase_add_loop_test(tc, test_reset_step, 0, N(steps));
	suite_add_tcase(s, tc);

	tc = tcase_create("charge");
	tcase_add_loop_test(tc, test_charge, 0, N(charges));
	tcase_add_test(tc, test_charge_numbers);
	tcase_add_test(tc, test_charge_no_tres);
	tcase_add_loop_test(tc, test_rec_charge, 0, N(recs));
	tcase_add_test(tc, test_release_underflow);
	tcase_add_loop_test(tc, test_init_delta, 0, N(inits));
	suite_add_tcase(s, tc);

	tc = tcase_create("bad parameters");
	tcase_add_test(tc, test_bad_params);
	suite_add_tcase(s, tc);
	return s;
}
