/*****************************************************************************\
 *  prism_usage.h - usage accounting arithmetic: the decay of past usage,
 *  the PriorityUsageResetPeriod calendar, and what a running job adds to
 *  the usage records of its associations and QOS every pass.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  NOTES
 *  The numbers are those of Slurm 22.05's priority/multifactor, with its
 *  order of floating-point operations and its integer conversions:
 *  - the per-second decay factor is the linearised 1 - 0.693 / half-life;
 *    as 0.693 < ln 2, one half-life leaves 0.50007..., not 0.5;
 *  - a job's usage over a slice of 'd' seconds is d * factor^d (not the
 *    integral of the decay over the slice);
 *  - run-seconds (grp_used_tres_run_secs) are integers: the UsageFactor
 *    is applied to the seconds before they are multiplied by the count;
 *  - usage_tres_raw and grp_used_tres_run_secs are only touched when
 *    limits are enforced, and never for the energy TRES.
 *  Nothing here allocates; the per-TRES arrays are the caller's.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_USAGE_H
#define PRISM_USAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "prism_error.h"

/* ---- types ---- */

/* PriorityUsageResetPeriod. */
typedef enum {
	PRISM_RESET_NONE = 0,	/* never */
	PRISM_RESET_NOW,	/* once, at start or reconfig */
	PRISM_RESET_DAILY,	/* every midnight */
	PRISM_RESET_WEEKLY,	/* Sunday 00:00 */
	PRISM_RESET_MONTHLY,	/* the 1st, 00:00 */
	PRISM_RESET_QUARTERLY,	/* Jan, Apr, Jul, Oct 1st, 00:00 */
	PRISM_RESET_YEARLY,	/* Jan 1st, 00:00 */
} prism_reset_t;

/* Where the usage reset calendar stands. */
typedef struct {
	prism_reset_t period;	/* NOW turns into NONE once done */
	time_t last_reset;	/* the last reset */
	time_t next_reset;	/* the next one; 0: not computed yet */
} prism_reset_state_t;

/* A TRES count that is allocated but not consumed (Slurm's value). */
#define PRISM_USAGE_NO_CONSUME UINT64_C(0xfffffffffffffffd)

/* What the charge needs to know about a job; nothing is owned. */
typedef struct {
	time_t start_time;	/* when it started */
	time_t end_time;	/* when it ended; 0: unknown */
	time_t end_time_exp;	/* when it is expected to end */
	uint32_t time_limit;	/* minutes (may be INFINITE) */
	bool finished;		/* finished, completing or resizing */
	double usage_factor;	/* its QOS's UsageFactor; < 0: none */
	const uint64_t *tres_alloc; /* tres_cnt counts, or NULL */
	int tres_cnt;
} prism_usage_job_t;

/*
 * What a job adds over one period. The arrays belong to the caller and
 * hold tres_cnt entries each (the job's tres_cnt); the compute function
 * fills them.
 */
typedef struct {
	double run_delta;	/* seconds run in the period, >= 0 */
	double run_decay;	/* decayed seconds (x UsageFactor) */
	double run_nodecay;	/* seconds (x UsageFactor), for NoDecay */
	double real_decay;	/* decayed billable TRES-seconds */
	double real_nodecay;	/* billable TRES-seconds, for NoDecay */
	uint64_t tres_time_delta; /* run-seconds to release, per unit */
	uint64_t *tres_run_delta; /* run-seconds to release, per TRES */
	long double *tres_run_decay; /* decayed TRES-seconds */
	long double *tres_run_nodecay; /* TRES-seconds, for NoDecay */
} prism_usage_charge_t;

/*
 * One usage record (an association's or a QOS's), as pointers into it.
 * The arrays hold the caller's tres_cnt entries and may be NULL.
 */
typedef struct {
	long double *usage_raw;
	long double *usage_tres_raw;
	double *grp_used_wall;
	uint64_t *grp_used_tres_run_secs;
} prism_usage_rec_t;

/* A run-seconds counter that was smaller than what was released. */
typedef struct {
	int tres;		/* its index */
	uint64_t delta;		/* what was to be released */
	uint64_t remained;	/* what it held (it is now 0) */
} prism_usage_underflow_t;

/* ---- decay ---- */

/*
 * The per-second decay factor for a PriorityDecayHalfLife of 'half_life'
 * seconds: 1 - 0.693 / half_life, or 1 (no decay) when it is 0.
 */
extern double prism_usage_decay_factor(uint32_t half_life);

/*
 * The decay 'factor'^(now - last), never below DBL_MIN, into *decay; 1
 * (nothing to do) when 'last' is 0 or not before 'now'. Returns 0, or -1
 * with err set when factor is not in (0,1] or decay is NULL.
 */
extern int prism_usage_decay_between(double factor, time_t last, time_t now,
				     double *decay, prism_error_t *err);

/* 'usage_raw' decayed by 'decay', as prism_usage_rec_decay() decays it
 * (inline: a walk over every association asks). */
static inline long double prism_usage_raw_decayed(long double usage_raw,
						  double decay)
{
	return usage_raw * decay;
}

/* Multiply the usage, TRES usage and wall time of 'rec' by 'decay'. */
extern void prism_usage_rec_decay(const prism_usage_rec_t *rec, int tres_cnt,
				  double decay);

/* Zero the usage, TRES usage and wall time of 'rec' (a usage reset). */
extern void prism_usage_rec_clear(const prism_usage_rec_t *rec, int tres_cnt);

/* ---- reset calendar ---- */

/*
 * When the reset after 'last_reset' falls for 'period', in local time:
 * the next midnight (DAILY), the next Sunday 00:00 (WEEKLY) or the 1st
 * of the next month, quarter or year at 00:00. DAILY and WEEKLY skip
 * ahead to the last one not more than a period before 'now'. *next is 0
 * for NONE and NOW. Returns 0, or -1 with err set (unknown period, time
 * out of range); *next is untouched on failure.
 */
extern int prism_usage_next_reset(prism_reset_t period, time_t last_reset,
				  time_t now, time_t *next,
				  prism_error_t *err);

/*
 * One step of the reset calendar at 'now': sets *due when usage must be
 * reset now and advances 'rs' past it (NOW becomes NONE). A zero
 * rs->last_reset is taken as 'now'. Returns 0, or -1 with err set; 'rs'
 * and *due are untouched on failure.
 */
extern int prism_usage_reset_step(prism_reset_state_t *rs, time_t now,
				  bool *due, prism_error_t *err);

/* ---- charging a job ---- */

/*
 * The start of the period from 'start' that 'job' is charged for: the
 * later of 'start' and the job's start (the time its billable TRES are
 * looked up at).
 */
extern time_t prism_usage_period_start(const prism_usage_job_t *job,
				       time_t start);

/*
 * What 'job' adds for the period 'start'..'end' into 'c' (its arrays
 * sized job->tres_cnt): the period begins at the job's start at the
 * earliest and, when 'at_end', stops at its end_time; 'decay_factor' is
 * the per-second factor, 'billable' the job's billable TRES. Returns 0,
 * or -1 with err set on bad parameters ('c' then unspecified).
 */
extern int prism_usage_charge_compute(const prism_usage_job_t *job,
				      time_t start, time_t end, bool at_end,
				      double decay_factor, double billable,
				      prism_usage_charge_t *c,
				      prism_error_t *err);

/*
 * Add the charge 'c' to 'rec': the NoDecay values when 'no_decay'; the
 * TRES usage and the release of run-seconds only when 'limits' (limits
 * enforced). TRES 'skip' (energy; -1: none) is left alone. Returns the
 * number of run-seconds counters clamped to 0, described in 'uf' (room
 * for tres_cnt entries, or NULL).
 */
extern int prism_usage_rec_charge(const prism_usage_rec_t *rec,
				  const prism_usage_charge_t *c, int tres_cnt,
				  bool no_decay, bool limits, int skip,
				  prism_usage_underflow_t *uf);

/*
 * For every TRES but 'skip': add 'tres_add[i]' (NULL: nothing) to the
 * TRES usage of 'rec' and release 'delta[i]' run-seconds, clamping at 0.
 * Returns the number of clamped counters, described in 'uf' (room for
 * tres_cnt entries, or NULL).
 */
extern int prism_usage_rec_release(const prism_usage_rec_t *rec,
				   const long double *tres_add,
				   const uint64_t *delta, int tres_cnt,
				   int skip, prism_usage_underflow_t *uf);

/*
 * The run-seconds a running job used from its start until 'last_ran'
 * (count x UsageFactor x seconds, per TRES), which slurmctld puts back
 * when it restarts. Fills 'delta' (job->tres_cnt entries) and returns 0;
 * returns 1 (delta untouched) when the job started after 'last_ran', -1
 * with err set on bad parameters.
 */
extern int prism_usage_init_delta(const prism_usage_job_t *job,
				  time_t last_ran, uint64_t *delta,
				  prism_error_t *err);

#endif /* PRISM_USAGE_H */
