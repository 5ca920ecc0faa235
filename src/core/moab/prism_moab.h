/*****************************************************************************\
 *  prism_moab.h - the Moab/Maui priority model: per-job subcomponent
 *  values, weighted and capped components, the bounded total and its
 *  mapping onto Slurm's 32-bit priority; and the windowed fair-share
 *  usage (FSINTERVAL, FSDEPTH, FSDECAY) that feeds the FS component.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MOAB_H
#define PRISM_MOAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"
#include "prism_moab_conf.h"

/*
 * Notes
 *
 * The sum (seeds 000, 001, 002). For each component C:
 *     term[s] = weight[s] * value[s], bounded to -cap[s]..cap[s]
 *     comp[C] = CWEIGHT * (sum of term[s] of C, bounded to -CCAP..CCAP)
 * and the priority is the sum of comp[] plus the job's relative
 * adjustment, rounded down, then bounded to 0..MAX_PRIO_VAL, or to
 * -MAX_PRIO_VAL..MAX_PRIO_VAL with ENABLENEGJOBPRIORITY. A job with a
 * system priority (Slurm's admin-set priority, Moab's SPRIO) gets
 * MAX_PRIO_VAL + SPRIO, SPRIO bounded to 1..MAX_PRIO_VAL.
 *
 * Effective weights: QUEUETIMEWEIGHT + the QOS's QTWEIGHT, XFACTORWEIGHT
 * + the QOS's XFWEIGHT, FS<kind>WEIGHT + that credential's FSWEIGHT.
 *
 * Values: credential PRIORITY (CLASS: the partition's priority when its
 * CLASSCFG has none); fair-share delta = target - usage percent (floor
 * '+': only if positive; ceiling '-': only if negative; no target or
 * FSPOLICY unset: 0); QUEUETIME in minutes; XFACTOR = 1 + queue time /
 * MAX(XFMINWCLIMIT, wall-clock limit) (1 without either); PS = procs *
 * limit; PE = MAX over procs, memory, swap, disk of the requested share
 * of the partition's total, times its processors; USERPRIO bounded to
 * -1024..0 (-1024..1023 with ENABLEPOSUSERPRIORITY); SPVIOLATION 0/1;
 * USAGE values are 0 unless the job is starting, running or suspended.
 *
 * DEADLINE (the seed says only "increases linearly"): 100 times the
 * queue time over the time the job could wait and still end by its
 * deadline (deadline - limit - queued-since), that window being at least
 * one minute: 100 when the job must start now, growing on beyond.
 *
 * TARGET (the seed says only "small, then grows exponentially as the
 * target nears; after a miss keeps growing, not exponentially"): with
 * x = queue time / QTTARGET, or (XFACTOR - 1) / (XFTARGET - 1),
 *     f(x) = 1 / (1 - x)^2             for x <= 0.99   (1 at x = 0)
 *     f(x) = 10^4 + 2*10^6 (x - 0.99)  beyond          (linear, C1)
 *
 * Slurm mapping: Moab priorities P are integers in -M..2M (M =
 * MAX_PRIO_VAL <= PRISM_MOAB_MAX_PRIO_LIMIT). Slurm's priority is
 * P + M + 1 with ENABLENEGJOBPRIORITY, P + 1 without: exact, order
 * preserving, never 0 (0 means held), at most 3M + 1 <= UINT32_MAX.
 * Under REJECTNEGPRIOJOBS a negative P sets 'reject': Moab does not
 * start such a job; the adapter decides what that means in Slurm (hold
 * it or keep it last).
 */

/* Fair-share usage windows; opaque. */
typedef struct prism_moab_usage prism_moab_usage_t;

/* Version of the usage text written by this code. */
#define PRISM_MOAB_USAGE_VERSION 1

/* One partition's totals, for PE; refreshed once per pass. */
typedef struct {
	uint32_t procs;
	uint64_t mem_mb;
	uint64_t swap_mb;
	uint64_t disk_mb;
} prism_moab_totals_t;

/* What one pass shares between jobs. */
typedef struct {
	const prism_moab_policy_t *pol;
	const prism_moab_usage_t *usage;	/* NULL: every usage 0 */
	int64_t now;				/* epoch seconds */
} prism_moab_pass_t;

/*
 * One job, filled by the adapter. Credentials are handles from
 * prism_moab_cred_find() (PRISM_MOAB_NONE when the policy has no CFG for
 * them), resolved when the job or the policy changes, not per pass.
 */
typedef struct {
	uint32_t cred[PRISM_MOAB_CRED_CNT];	/* user, group, account, QOS,
						   class (partition) */
	int64_t class_prio;	/* partition PriorityJobFactor */
	const prism_moab_totals_t *part; /* for PE; NULL: PE is 0 */
	uint32_t nodes;
	uint32_t procs;
	uint64_t mem_mb;
	uint64_t swap_mb;
	uint64_t disk_mb;
	int64_t wclimit;	/* wall-clock limit, seconds; 0: none */
	int64_t queue_time;	/* effective queue time, seconds */
	uint32_t bypass;	/* times bypassed by backfill */
	uint32_t start_count;	/* starts and restarts */
	int64_t deadline;	/* epoch seconds, 0: none */
	int32_t user_prio;	/* user's priority (Slurm: -nice) */
	bool spviolation;	/* violates a soft limit */
	prism_moab_state_t state;
	int64_t exec_time;	/* seconds since start, if running */
	double hunger;		/* processors a dynamic job needs */
	uint32_t user_jobs;	/* FSJPU: the user's active jobs */
	uint32_t user_procs;	/* FSPPU: their processors */
	double user_ps;		/* FSPSPU: their proc-seconds */
	double user_wcaccuracy;	/* WCACCURACY, 0..1 */
	double fs_global[3];	/* FSGUSER, FSGGROUP, FSGACCOUNT deltas */
	uint64_t attr_mask;	/* bits from prism_moab_attr_bit() */
	uint64_t gres_mask;	/* bits from prism_moab_gres_bit() */
	int64_t rel_prio;	/* relative adjustment (mjobctl -p +N) */
	int64_t sys_prio;	/* system priority (SPRIO), 0: none */
} prism_moab_job_t;

/*
 * A job's times and sizes in the units Slurm keeps them, for
 * prism_moab_job_raw(): the adapter copies them, the core converts.
 */
typedef struct {
	int64_t now;		/* epoch seconds */
	int64_t accrue_time;	/* epoch seconds; 0: not accruing */
	int64_t start_time;	/* epoch seconds; 0: not started */
	int64_t suspended;	/* seconds suspended since the start */
	uint32_t time_limit;	/* minutes; 0: none */
	uint64_t disk_per_node;	/* tmp disk per node, MB */
	int64_t nice;		/* --nice, without Slurm's offset */
} prism_moab_raw_t;

/*
 * Set the fields of 'job' that come from 'raw': wclimit (seconds),
 * queue_time (now - accrue time, 0 if not accruing or in the future),
 * exec_time (now - start - suspended, only for a RUNNING or SUSPENDED
 * 'job->state', never negative), disk_mb (per node times 'job->nodes',
 * which must be set first) and user_prio (-nice, bounded to int32_t).
 * Other fields are left alone; NULL arguments do nothing.
 */
extern void prism_moab_job_raw(const prism_moab_raw_t *raw,
			       prism_moab_job_t *job);

/* The priority of one job and how it came about (mdiag -p). */
typedef struct {
	double value[PRISM_MS_CNT];	/* subcomponent values */
	double weight[PRISM_MS_CNT];	/* effective subcomponent weights */
	double term[PRISM_MS_CNT];	/* weight * value, capped */
	double comp_sum[PRISM_MC_CNT];	/* sum of term[] of each, capped */
	double comp[PRISM_MC_CNT];	/* CWEIGHT * comp_sum[] */
	double sum;			/* sum of comp[] + rel_prio */
	int64_t prio;			/* Moab priority, bounded */
	uint32_t slurm;			/* Slurm priority, never 0 */
	bool reject;			/* REJECTNEGPRIOJOBS and prio < 0 */
} prism_moab_result_t;

/*
 * Compute the priority of 'job' in 'pass' into 'out'. Allocates nothing.
 * Returns 0, or -1 with err set when an argument is NULL.
 */
extern int prism_moab_prio(const prism_moab_pass_t *pass,
			   const prism_moab_job_t *job,
			   prism_moab_result_t *out, prism_error_t *err);

/* The XFACTOR of a job queued 'queue_time' s with limit 'wclimit' s. */
extern double prism_moab_xfactor(int64_t queue_time, int64_t wclimit,
				 int64_t xf_min_wclimit);

/* The TARGET curve f(x) of the notes (x < 0 is taken as 0). */
extern double prism_moab_target_curve(double x);

/*
 * Fair-share delta of a credential with target kind 'type' at 'target'
 * percent and actual usage 'usage' percent.
 */
extern double prism_moab_fs_delta(prism_moab_fstarget_t type, double target,
				  double usage);

/* Slurm's priority for the bounded Moab priority 'prio' under 'pol'. */
extern uint32_t prism_moab_to_slurm(const prism_moab_policy_t *pol,
				    int64_t prio);

/* The Moab priority behind Slurm's 'slurm' under 'pol' (inverse). */
extern int64_t prism_moab_from_slurm(const prism_moab_policy_t *pol,
				     uint32_t slurm);

/*
 * sprio's columns. Slurm's sprio shows a job's priority as the sum of its
 * columns, so Prism puts the Moab components there:
 *     AGE = SERV, ASSOC = CRED, FAIRSHARE = FS, JOBSIZE = RES,
 *     PARTITION = ATTR, QOS = TARGET + USAGE,
 *     SITE = the rest: the mapping's offset (1, or MAX_PRIO_VAL + 1 with
 *            ENABLENEGJOBPRIORITY), the fractions dropped from each
 *            column, the relative adjustment and any bounding of the sum.
 * Each component is truncated toward zero; the rest is the Slurm
 * priority minus the others, so the columns add up to it exactly. A
 * column beyond Slurm's 32-bit signed column range is clipped and 'exact'
 * is false (the explain view has the full figures).
 */
typedef struct {
	int64_t serv, cred, fs, res, attr, target_usage, rest;
	bool exact;
} prism_moab_columns_t;

/* The sprio columns of 'res' (from prism_moab_prio()) into 'out'. */
extern void prism_moab_columns(const prism_moab_result_t *res,
			       prism_moab_columns_t *out);

/*
 * Make the columns 'c' add up to 'slurm' (another partition's priority of
 * the same job) by changing only the rest; clears 'exact' if the rest
 * does not fit.
 */
extern void prism_moab_columns_rebase(prism_moab_columns_t *c,
				      uint32_t slurm);

/*
 * The system priority (SPRIO) a job with Slurm's admin-set priority
 * 'slurm' has: the admin's value, or, for a value above every computed
 * priority (one Prism already mapped, or an admin's value that high), the
 * system priority behind it, so that recomputing never moves it. Always
 * at least 1.
 */
extern int64_t prism_moab_sys_prio(const prism_moab_policy_t *pol,
				   uint32_t slurm);

/*
 * The fair-share usage a job adds in 'seconds' under FSPOLICY: its
 * processors (DEDICATEDPS; also UTILIZEDPS, PDEDICATEDPS and SDEDICATEDPS,
 * for which Slurm has no utilisation or processor-speed data) or its
 * processor equivalents (DEDICATEDPES) times 'seconds'; 0 with fair-share
 * off or for seconds <= 0.
 */
extern double prism_moab_usage_amount(const prism_moab_policy_t *pol,
				      const prism_moab_job_t *job,
				      double seconds);

/*
 * Subcomponents Slurm gives no data for, with the reason (for notices
 * when a policy weighs them): NULL when Slurm has the data.
 */
extern const char *prism_moab_sub_no_data(prism_moab_sub_t sub);

/*
 * Per-user totals of the active jobs (FSJPU, FSPPU, FSPSPU), gathered by
 * one walk over the jobs each pass; opaque.
 */
typedef struct prism_moab_users prism_moab_users_t;

/* New empty totals, freed with prism_moab_users_free(); NULL if no memory. */
extern prism_moab_users_t *prism_moab_users_create(void);
extern void prism_moab_users_free(prism_moab_users_t *u);

/* Forget every user (start of a walk). */
extern void prism_moab_users_clear(prism_moab_users_t *u);

/*
 * Count an active job of user 'uid' with 'procs' processors and a limit
 * of 'wclimit' seconds. Returns 0, or -1 when out of memory (the job is
 * not counted).
 */
extern int prism_moab_users_add(prism_moab_users_t *u, uint32_t uid,
				uint32_t procs, int64_t wclimit);

/* Copy user 'uid''s totals into job->user_jobs, user_procs, user_ps. */
extern void prism_moab_users_fill(const prism_moab_users_t *u, uint32_t uid,
				  prism_moab_job_t *job);

/*
 * Write an mdiag -p style explanation of 'res' under 'pol' into 'buf' of
 * 'size' bytes: the total, then each component with a non-zero term and
 * its subcomponents. Returns the length, or -1 with err set when 'buf'
 * is too small or an argument is NULL.
 */
extern int prism_moab_explain(const prism_moab_policy_t *pol,
			      const prism_moab_result_t *res, char *buf,
			      size_t size, prism_error_t *err);

/*
 * Fair-share usage. Windows of FSINTERVAL seconds, FSDEPTH of them,
 * window 0 the current one; a credential's usage percent is
 *     100 * sum(FSDECAY^i * used[i]) / sum(FSDECAY^i * total[i])
 * kept up to date on every add and roll (a lookup is O(1)). Windows are
 * aligned on multiples of FSINTERVAL since the epoch. There is one slot
 * per credential of the policy; usage of credentials the policy does not
 * name counts in the total only. The adapter, per pass: roll to now, add
 * each running job's usage since the last pass (FSPOLICY says in what
 * unit), then compute priorities. Across restarts and reconfigurations:
 * format, then parse against the (new) policy.
 */

/*
 * A new usage for 'pol' (which must outlive it), every window empty, the
 * current one holding 'now'. Returns NULL with err set (out of memory,
 * NULL 'pol'). Free with prism_moab_usage_free().
 */
extern prism_moab_usage_t *prism_moab_usage_create(
	const prism_moab_policy_t *pol, int64_t now, prism_error_t *err);

/* Free 'u'; NULL is ignored. */
extern void prism_moab_usage_free(prism_moab_usage_t *u);

/*
 * Move to the window holding 'now': windows older than FSDEPTH drop out.
 * Returns how many windows moved (0 when 'now' is in the current one or
 * earlier: a clock going back changes nothing).
 */
extern int64_t prism_moab_usage_roll(prism_moab_usage_t *u, int64_t now);

/*
 * Add 'amount' (>= 0, finite) to the current window of credential 'idx'
 * of 'kind' (not to the total). Returns 0, or -1 with err set for a bad
 * kind, handle or amount; 'u' is unchanged on failure.
 */
extern int prism_moab_usage_add(prism_moab_usage_t *u,
				prism_moab_cred_kind_t kind, uint32_t idx,
				double amount, prism_error_t *err);

/* Add 'amount' (>= 0, finite) to the total; -1 with err if bad. */
extern int prism_moab_usage_add_total(prism_moab_usage_t *u, double amount,
				      prism_error_t *err);

/*
 * Charge a job: 'amount' to each of its credentials in 'cred' (handles,
 * PRISM_MOAB_NONE skipped) and to the total. -1 with err if bad.
 */
extern int prism_moab_usage_charge(prism_moab_usage_t *u,
				   const uint32_t cred[PRISM_MOAB_CRED_CNT],
				   double amount, prism_error_t *err);

/* Usage percent of credential 'idx' of 'kind'; 0 if unknown or no total. */
extern double prism_moab_usage_pct(const prism_moab_usage_t *u,
				   prism_moab_cred_kind_t kind, uint32_t idx);

/* Start (epoch seconds) of the current window. */
extern int64_t prism_moab_usage_start(const prism_moab_usage_t *u);

/* An upper bound of the length prism_moab_usage_format() needs. */
extern size_t prism_moab_usage_format_size(const prism_moab_usage_t *u);

/*
 * Write 'u' as versioned, checksummed text into 'buf' of 'size' bytes,
 * NUL-terminated. Returns the length, or -1 with err set when 'buf' is
 * too small.
 */
extern int prism_moab_usage_format(const prism_moab_usage_t *u, char *buf,
				   size_t size, prism_error_t *err);

/*
 * Read the text 'buf' of 'len' bytes into a new usage for 'pol': windows
 * beyond pol's FSDEPTH and credentials pol does not name are dropped.
 * Returns 0 and sets *out (freed by the caller), or -1 with err saying
 * what is wrong (truncated, checksum, version, bad line); *out is left
 * untouched on failure.
 */
extern int prism_moab_usage_parse(const char *buf, size_t len,
				  const prism_moab_policy_t *pol,
				  prism_moab_usage_t **out, prism_error_t *err);

#endif /* PRISM_MOAB_H */
