/*****************************************************************************\
 *  prism_adapter.h - shared declarations of the priority/prism adapter:
 *  the bridge between slurmctld's records and Prism's core.
 *
 *  Nothing here computes a factor: the adapter reads Slurm's records into
 *  core structs, calls the core, and writes the results back.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_ADAPTER_H
#define PRISM_ADAPTER_H

#include <stdbool.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#include "prism_ge.h"
#include "prism_ge_usage.h"
#include "prism_moab.h"
#include "prism_params.h"
#include "prism_prio.h"
#include "prism_state.h"

/* "priority/prism", for messages. */
extern const char plugin_type[];

/*
 * Controller globals. They are looked up at init() rather than linked, so
 * the plugin also loads inside client commands (sshare loads the priority
 * plugin for its fair-share column) without defining or exporting them.
 */
typedef struct {
	List *job_list;
	uint32_t *cluster_cpus;
	int *tres_cnt;
	time_t *last_job_update;
	void **acct_db_conn;
} prism_ctl_t;

/* Filled by init(); all NULL when not running inside slurmctld. */
extern prism_ctl_t prism_ctl;

/* True when loaded by slurmctld (the controller globals were found). */
extern bool prism_in_controller(void);

/*
 * A consistent copy of the configuration (thread-safe). Its weight_tres
 * array is shared, stays valid and unchanged until fini(), and is not
 * released by the caller.
 */
extern void prism_conf_get(prism_prio_conf_t *conf);

/*
 * Re-read the configuration from slurm_conf; inside slurmctld also
 * PriorityWeightTRES, with Slurm's parser (fatal() on a bad string, as
 * multifactor).
 */
extern void prism_conf_load(void);

/* The cluster's size as the job-size factor needs it. */
extern void prism_world_get(prism_world_t *world);

/*
 * Compute the priority of 'job_ptr' at 'now' from the core, fill its
 * prio_factors (what sprio shows) and priority_array (one entry per
 * partition, PriorityTier order). Returns the priority for the job's
 * first partition; the caller applies INCR_ONLY to job_ptr->priority.
 * Caller holds the job write lock and the assoc_mgr QOS/assoc read locks.
 */
extern uint32_t prism_job_compute(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf,
				  const prism_world_t *world, time_t now);

/*
 * Build sprio's factor list for the jobs 'req_msg' selects that 'uid'
 * may see. Returns a list the caller frees, or NULL when there is none.
 * Takes the job read lock itself.
 */
extern List prism_job_factors_list(priority_factors_request_msg_t *req_msg,
				   uid_t uid);

/* The CPU count Slurm sizes a job by: allocated, else requested. */
extern uint32_t prism_job_cpus(const job_record_t *job_ptr);

/* The job's time limit in minutes (its partition's without one). */
extern uint32_t prism_job_time_limit(const job_record_t *job_ptr);

/*
 * Get job_ptr->priority_array ready for one priority per partition of
 * job_ptr->part_ptr_list (allocated when missing, entries kept) and sort
 * that list in PriorityTier order, the order of the array. Returns an
 * iterator over the partitions the caller destroys with
 * list_iterator_destroy(). Caller holds the job write lock.
 */
extern ListIterator prism_job_parts_begin(job_record_t *job_ptr);

/*
 * Empty job_ptr->prio_factors (creating it) but for 'tres_cnt' zeroed
 * per-TRES entries; returns it. prism_job_clear_factors() empties it
 * without creating one.
 */
extern priority_factors_object_t *prism_job_reset_factors(
	job_record_t *job_ptr, uint32_t tres_cnt);
extern void prism_job_clear_factors(job_record_t *job_ptr);

/* The entry points Slurm looks up (src/common/slurm_priority.c). */
extern int init(void);
extern int fini(void);
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr);
extern void priority_p_reconfig(bool assoc_clear);
extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm);
extern List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid);
extern void priority_p_job_end(job_record_t *job_ptr);

/* Start and stop the recalculation thread. */
extern int prism_recalc_start(void);
extern void prism_recalc_stop(void);

/* Recalculate every job now (one pass). */
extern void prism_recalc_pass(void);

/* End of the last recalculation pass, 0 when none ran yet. */
extern time_t prism_recalc_last_ran(void);

/* ---- usage accounting (prism_usage.c) ---- */

/*
 * Re-read the usage settings (PriorityDecayHalfLife,
 * PriorityUsageResetPeriod, PriorityFlags=CALCULATE_RUNNING, whether
 * slurmdbd keeps accounting) from slurm_conf; called at init and
 * reconfig. The next periodic reset is recomputed; RESET_NOW resets once
 * more. Thread-safe.
 */
extern void prism_usage_conf_load(void);

/*
 * Reset all association and QOS usage when PriorityUsageResetPeriod says
 * one is due at 'now' (NOW: once after start or reconfig); updates
 * st->last_reset (a zero one becomes 'now'). Does nothing without
 * slurmdbd. Takes the assoc_mgr assoc and QOS write locks itself; call it
 * without assoc_mgr locks held.
 */
extern void prism_usage_reset_if_due(prism_state_t *st, time_t now);

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
 * After a controller restart (or a reconfig that cleared the assoc_mgr
 * counters), remove from grp_used_tres_run_secs the run-seconds running
 * jobs used before 'last_ran' (slurmctld re-adds the whole time limit
 * when it restarts). Only with AccountingStorageEnforce=limits. Takes the
 * job read lock and the assoc_mgr locks itself; call it with none held.
 */
extern void prism_usage_init_run_secs(time_t last_ran);

/* ---- fair-share over the association tree (prism_fs_tree.c) ---- */

/*
 * Recompute the fair-share fields of every association (usage_norm,
 * usage_efctv, level_fs, fs_factor) for the configured algorithm.
 * Takes the assoc_mgr write lock itself.
 */
extern void prism_fs_tree_update(const prism_prio_conf_t *conf);

/* Free what the fair-share pass keeps between passes. */
extern void prism_fs_tree_fini(void);

/*
 * Set usage_norm and (classic, DEPTH_OBLIVIOUS, FairShare=parent)
 * usage_efctv of one association from its raw usage, as
 * priority_p_set_assoc_usage does. 'flags' are PRISM_F_* bits. Caller
 * holds the assoc_mgr assoc write lock.
 */
extern void prism_fs_set_assoc_usage(slurmdb_assoc_rec_t *assoc,
				     uint32_t flags);

/*
 * The fair-share factor in [0,1] of 'job_ptr'. Caller holds the assoc_mgr
 * assoc read lock (write lock for the classic algorithm, which fills a
 * user's effective usage on first use).
 */
extern double prism_fs_job_factor(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf);

/*
 * Read Prism's state file from StateSaveLocation into 'st'; a missing or
 * damaged file is reported and gives a fresh (zero) state.
 */
extern void prism_state_load(prism_state_t *st);

/* Write 'st' atomically. Returns SLURM_SUCCESS or SLURM_ERROR (logged). */
extern int prism_state_save(const prism_state_t *st);

/*
 * Write 'len' bytes of 'buf' as StateSaveLocation/'name' (atomically:
 * temporary file, flush, rename). Returns SLURM_SUCCESS or SLURM_ERROR
 * (logged).
 */
extern int prism_state_file_write(const char *name, const char *buf,
				  size_t len);

/*
 * Read StateSaveLocation/'name' into a new NUL-terminated buffer *buf
 * (xfree()) of *len bytes. False when it does not exist or cannot be
 * read (logged).
 */
extern bool prism_state_file_read(const char *name, char **buf, size_t *len);

/* ---- the policy in force (prism_policy.c, prism_moab_job.c) ---- */

/*
 * Read PriorityParameters and, for policy=moab, its file; put them in
 * force. Returns SLURM_SUCCESS, or SLURM_ERROR with the reason logged and
 * the previous policy still in force ('at_start': slurmctld refuses to
 * start).
 */
extern int prism_policy_load(bool at_start);

/* Forget the policy (fini). */
extern void prism_policy_fini(void);

/* The policy in force (thread-safe). */
extern prism_policy_t prism_policy_kind(void);

/* How many times a policy was put in force (policy_lock held): caches of
 * per-policy lookups compare it to know they are stale. */
extern uint64_t prism_policy_generation(void);

/*
 * policy_lock guards the policy in force (Moab or Grid Engine), its usage,
 * the Moab per-user totals and the Grid Engine adapter's caches. It is a
 * leaf: taken after the job lock and the assoc_mgr locks.
 */
extern void prism_policy_lock(void);
extern void prism_policy_unlock(void);

/* With policy_lock held: the Moab policy in force (NULL: another policy),
 * its fair-share usage, the per-user totals of active jobs. */
extern const prism_moab_policy_t *prism_moab_policy(void);
extern prism_moab_usage_t *prism_moab_usage(void);
extern prism_moab_users_t *prism_moab_users(void);

/* Start a pass at 'now': roll the usage windows, forget the per-user
 * totals. Takes policy_lock. */
extern void prism_moab_roll(time_t now);

/* Save the Moab usage in StateSaveLocation. Takes policy_lock. */
extern void prism_moab_usage_save(void);

/*
 * The Moab priority of 'job_ptr' at 'now' (0: held under
 * REJECTNEGPRIOJOBS, with a reason), its sprio columns and
 * priority_array. Caller holds the job write lock, the assoc_mgr QOS read
 * lock and policy_lock, and a Moab policy is in force.
 */
extern uint32_t prism_moab_job_compute(job_record_t *job_ptr, time_t now);

/* Charge the Moab usage of 'job_ptr' from 'start' to 'end' (running
 * jobs). Caller holds the job lock and policy_lock. */
extern void prism_moab_charge(job_record_t *job_ptr, time_t start,
			      time_t end);

/* Count 'job_ptr' in its user's active totals if it is running. Caller
 * holds the job lock and policy_lock. */
extern void prism_moab_count_active(job_record_t *job_ptr);

/* Is 'job_ptr' held by Prism under REJECTNEGPRIOJOBS? Job lock held. */
extern bool prism_moab_held(const job_record_t *job_ptr);

/* Forget Prism's REJECTNEGPRIOJOBS hold of 'job_ptr', if it has one. */
extern void prism_moab_release(job_record_t *job_ptr);

/* Make the sprio columns of a Moab job's row 'f' add up to 'slurm'. */
extern void prism_moab_factors_rebase(priority_factors_object_t *f,
				      uint32_t slurm);

/* Free the Moab adapter's caches (fini). */
extern void prism_moab_job_fini(void);

/* ---- the Grid Engine policy (prism_policy.c, prism_ge_job.c) ---- */

/* With policy_lock held: the Grid Engine policy in force (NULL: another
 * policy) and its share-tree usage per association id. */
extern const prism_ge_policy_t *prism_ge_policy(void);
extern prism_ge_usage_t *prism_ge_usage(void);

/*
 * The Grid Engine policy in force (NULL: another policy), for a
 * recalculation pass to use without policy_lock: it stays valid until
 * prism_ge_policy_put(), even when a reconfigure replaces it meanwhile
 * (then prism_ge_policy() differs from it). One pass at a time. Both take
 * policy_lock.
 */
extern const prism_ge_policy_t *prism_ge_policy_get(void);
extern void prism_ge_policy_put(const prism_ge_policy_t *pol);

/* Save the share-tree usage in StateSaveLocation. Takes policy_lock. */
extern void prism_ge_usage_save(void);

/*
 * A pass at 'now' under 'pol' (from prism_ge_policy_get()), in four
 * steps, all in the recalculation thread:
 * begin: decay the share-tree usage, build the share tree from the
 *   association tree, forget the last pass's jobs. Takes the assoc_mgr
 *   assoc and TRES read locks and policy_lock itself.
 * collect: per job, with the job write lock, the assoc_mgr locks and
 *   policy_lock held and 'pol' still in force: charge a running job's
 *   CPU-seconds since 'last' (0: none) and count it; keep a pending,
 *   not held, not admin-set job's inputs.
 * compute: with no lock held, the priorities of the jobs kept; returns
 *   how many (0 also when the core refused, logged).
 * store: result 'i' into its job, found again by id, when it is still
 *   pending, not held and not admin-set: priority, sprio columns,
 *   priority_array. Caller holds the job write lock (part read) and
 *   policy_lock, 'pol' still in force. True when the priority changed.
 */
extern void prism_ge_pass_begin(const prism_ge_policy_t *pol, time_t now);
extern void prism_ge_collect(job_record_t *job_ptr, time_t last);
extern uint32_t prism_ge_pass_compute(void);
extern bool prism_ge_store(uint32_t i);

/*
 * The Grid Engine priority of 'job_ptr' outside a pass (submission),
 * never 0, its sprio columns and priority_array; an admin-set priority is
 * kept. Caller holds the job write lock, the assoc_mgr TRES read lock and
 * policy_lock, and a Grid Engine policy is in force.
 */
extern uint32_t prism_ge_job_compute(job_record_t *job_ptr, time_t now);

/* Charge the share-tree usage of 'job_ptr' from 'start' to 'end' (a job
 * that ended). Caller holds the job lock and policy_lock. */
extern void prism_ge_charge(job_record_t *job_ptr, time_t start, time_t end);

/* Make the sprio columns of a Grid Engine job's row 'f' add up to
 * 'slurm', its priority in another partition. */
extern void prism_ge_factors_rebase(priority_factors_object_t *f,
				    uint32_t slurm);

/* Free the Grid Engine adapter's arrays and caches (fini). */
extern void prism_ge_job_fini(void);

#endif /* PRISM_ADAPTER_H */
