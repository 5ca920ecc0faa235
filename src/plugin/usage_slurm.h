/*****************************************************************************\
 *  usage_slurm.h - Slurm's own usage accounting, kept under every policy:
 *  decay and reset of association and QOS usage, the charge of running
 *  jobs, and the run-seconds rebuilt after a restart.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_USAGE_SLURM_H
#define PRISM_USAGE_SLURM_H

#include "ctl.h"
#include "prism_state.h"
#include "prism_usnap.h"

/*
 * Re-read the usage settings (PriorityDecayHalfLife,
 * PriorityUsageResetPeriod, PriorityFlags=CALCULATE_RUNNING, whether
 * slurmdbd keeps accounting) from slurm_conf; called at init and
 * reconfig. The next periodic reset is recomputed; RESET_NOW resets once
 * more. Thread-safe.
 */
extern void prism_usage_conf_load(void);

/*
 * Whether slurmdbd keeps accounting, as prism_usage_conf_load() last read
 * it: the pass thread asks this, not slurm_conf, which a reconfigure of
 * Slurm before 24.11 frees and rereads in the running controller, under a
 * lock the pass does not hold (state_file.h). Thread-safe.
 */
extern bool prism_usage_with_dbd(void);

/*
 * Reset all association and QOS usage when PriorityUsageResetPeriod says
 * one is due at 'now' (NOW: once after start or reconfig); updates
 * st->last_reset (a zero one becomes 'now'). Does nothing without
 * slurmdbd. Takes the assoc_mgr assoc and QOS write locks itself; call it
 * without assoc_mgr locks held.
 */
extern void prism_usage_reset_if_due(prism_state_t *st, time_t now);

/* One pass's usage decay: the factor and the TRES count. */
typedef struct {
	double decay;
	int tres_cnt;
} prism_decay_t;

/*
 * The decay from 'last' to 'now' into *d (logged); false when there is
 * nothing to decay (no slurmdbd, not in slurmctld, no half-life, no time
 * passed, or an error, logged).
 */
extern bool prism_usage_decay_prepare(time_t last, time_t now,
				      prism_decay_t *d);

/* Decay of one association's usage (and of its deleted users'), unless a
 * deferred decay (below) did it already. Caller holds the association
 * write lock. */
extern void prism_usage_decay_assoc(const prism_decay_t *d,
				    slurmdb_assoc_rec_t *assoc);

/* The same whether or not a deferred decay did it already. */
extern void prism_usage_decay_assoc_now(const prism_decay_t *d,
					slurmdb_assoc_rec_t *assoc);

/*
 * Decay of every association's usage (unless 'assocs_done': the caller
 * decayed each one with prism_usage_decay_assoc()) and every QOS's; ends
 * a deferred decay (whose QOS were decayed when it began). Caller holds
 * the association and QOS write locks.
 */
extern void prism_usage_decay_locked(const prism_decay_t *d,
				     bool assocs_done);

/*
 * Fair Tree's decay, as prism_usage_decay() but deferred for the
 * associations: every QOS is decayed now, each association when a charge
 * first reaches it (a job the pass charges, or one that ends meanwhile)
 * or else by prism_usage_decay_assoc()/prism_usage_decay_locked() in the
 * fair-share walk that ends the deferral (whose tree reads each record's
 * usage as decayed: prism_usage_deferred()). So a pass reads each record once
 * instead of in a walk of its own; between the pass's slices a record
 * holds either its usage of the last pass or its usage of this one,
 * decayed and charged. The decay 'd' into *d; false when there is
 * nothing to decay (nothing deferred). Takes the assoc_mgr assoc and QOS
 * write locks itself; call it without assoc_mgr locks held.
 */
extern bool prism_usage_decay_defer(time_t last, time_t now,
				    prism_decay_t *d);

/*
 * A deferred decay as the fair-share walk reads it, each association
 * through prism_deferred_pending() (inline: every association asks).
 */
typedef struct {
	prism_decay_t d;
	bool all;		/* every association is decayed */
	const uint64_t *done;	/* a bit per association id decayed */
	uint32_t words;		/* of done[] */
} prism_deferred_t;

/* The deferred decay going on, NULL when none; valid while the caller
 * holds the association write lock. */
extern const prism_deferred_t *prism_usage_deferred(void);

/* Is association 'id' still to decay under 'v' (NULL: none)? */
static inline bool prism_deferred_pending(const prism_deferred_t *v,
					  uint32_t id)
{
	if (!v || v->all)
		return false;
	return (id / 64 >= v->words) ||
	       !(v->done[id / 64] & (UINT64_C(1) << (id % 64)));
}

/* Free what deferred decays kept (the recalculation thread stopped). */
extern void prism_usage_decay_fini(void);

/*
 * Decay all association and QOS usage (usage_raw, usage_tres_raw,
 * grp_used_wall, and an account's leaf_usage; QOS with NoDecay excepted)
 * for the time from 'last' to 'now'. Nothing happens when last is 0 or
 * not before now, without a half-life, or without slurmdbd. Takes the
 * assoc_mgr assoc and QOS write locks itself; call it without assoc_mgr
 * locks held.
 */
extern void prism_usage_decay(time_t last, time_t now);

/*
 * Charge a running job's usage between 'start' and 'end' to its
 * association chain, its QOS and its partition's QOS (usage_raw,
 * usage_tres_raw, grp_used_wall, grp_used_tres_run_secs), with the
 * decay, billing weights and QOS UsageFactor applied. 'at_end': the job
 * ended (priority_p_job_end), settle its unused run-seconds once (sets
 * end_time_exp to NO_VAL). Without 'at_end' the job is filtered as
 * multifactor's decay_apply_new_usage() does: finished or completing
 * jobs return false; pending (unless CALCULATE_RUNNING), powering-up,
 * never started or association-less jobs are not charged but return true.
 * Returns false when the job needs no further processing.
 * Caller holds the job write lock and no assoc_mgr lock; the assoc and
 * QOS write locks and the TRES read lock are taken per job.
 */
extern bool prism_usage_charge_job(job_record_t *job_ptr, time_t start,
				   time_t end, bool at_end);

/*
 * The same for a caller that already holds the job write lock and the
 * assoc_mgr locks { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
 * .tres = READ_LOCK } (to charge all running jobs under one lock hold).
 */
extern bool prism_usage_charge_job_locked(job_record_t *job_ptr,
					  time_t start, time_t end,
					  bool at_end);

/*
 * The associations charged, for the usage snapshot's save: from
 * prism_usage_charged_start() (which forgets the last list) until
 * prism_usage_charged_stop(), every association a charge reaches (job and
 * parents, in the pass or at a job's end) is listed once, by id, with its
 * usage as of its last charge (copied while the charge holds the lock: a
 * record may be gone by the time the list is read), up to 'max' of them.
 * Start with the association write lock held, stop with the association
 * lock held (read or write; the charges hold the write lock).
 */
extern void prism_usage_charged_start(uint32_t max);

/*
 * Stop listing: the number listed into *n and their TRES count into
 * *tres_cnt. Returns false when the list is not whole (more than 'max'
 * charged; out of memory, logged; the TRES count changed; or it was not
 * started).
 */
extern bool prism_usage_charged_stop(uint32_t *n, uint32_t *tres_cnt);

/*
 * The i-th association listed (i < n of the last stop): its usage into *r;
 * returns its tres_cnt TRES usages (this module's, valid until the next
 * start; the caller needs no lock).
 */
extern const long double *prism_usage_charged_get(uint32_t i,
						  prism_usnap_rec_t *r);

/* Free the list; takes the association write lock (a job may still end on
 * another thread). */
extern void prism_usage_charged_fini(void);

/*
 * After a controller restart (or a reconfig that cleared the assoc_mgr
 * counters), remove from grp_used_tres_run_secs the run-seconds running
 * jobs used before 'last_ran' (slurmctld re-adds the whole time limit
 * when it restarts). Only with AccountingStorageEnforce=limits. Takes the
 * job read lock and the assoc_mgr locks itself; call it with none held.
 */
extern void prism_usage_init_run_secs(time_t last_ran);

/*
 * A walk over an array of association records prefetches the record
 * 3 * PRISM_ASSOC_STAGE records ahead, its usage record 2 * STAGE ahead
 * (prism_assoc_prefetch_usage) and its TRES usage array STAGE ahead
 * (prism_assoc_prefetch_tres); prism_assoc_list_walk() does the same on a
 * list.
 */
#define PRISM_ASSOC_STAGE 4

extern void prism_assoc_prefetch_usage(const slurmdb_assoc_rec_t *assoc);

extern void prism_assoc_prefetch_tres(const slurmdb_assoc_rec_t *assoc,
				      int tres_cnt);

/*
 * list_for_each() over a list of association records ('assocs', e.g.
 * assoc_mgr_assoc_list) calling fn(assoc, arg) for each, in list order,
 * with each record, its usage record and its 'tres_cnt' TRES usage
 * entries prefetched a few records ahead (the records are scattered; the
 * walks over every association are bound by their cache misses). fn's
 * return value is ignored. Caller holds the association lock fn needs.
 */
extern void prism_assoc_list_walk(list_t *assocs, int tres_cnt,
				  int (*fn)(void *x, void *arg),
				  void *arg);

#endif /* PRISM_USAGE_SLURM_H */
