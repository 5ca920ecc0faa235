/*****************************************************************************\
 *  recalc.c - the recalculation thread. Every PriorityCalcPeriod it
 *  resets usage when due, decays usage, charges running jobs, updates
 *  fair-share over the association tree, has the policy in force
 *  recompute the priority of every job that needs it, and saves the
 *  usage snapshot and Prism's state. After every pass it leaves the
 *  pass's figures (prism_passinfo.h) in StateSaveLocation for `prism
 *  metrics`.
 *
 *  The steps and their order follow Slurm's multifactor plugin, so the
 *  usage and priorities agree with it pass for pass. A policy that
 *  computes all pending jobs at once (policy_ops.h: pass_batch) has them
 *  collected while usage is charged, computed without any lock, and
 *  written back in slices, each job found again by its id.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include "src/common/assoc_mgr.h"
#include "src/slurmctld/locks.h"

#include "ctl.h"
#include "fs_tree.h"
#include "hold.h"
#include "jobrec.h"
#include "policy.h"
#include "prism_passinfo.h"
#include "prism_slice.h"
#include "recalc.h"
#include "state_file.h"
#include "usage_slurm.h"
#include "usage_snap.h"

static pthread_t thread;
static bool thread_running;
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cond;
static bool stopping;

/* Written by the recalculation thread only; read under last_lock. */
static prism_state_t state;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;

/* The pass figures' counters: the recalculation thread's only. */
static time_t plugin_start;
static int64_t passes;

/* Job ids, in job_list's order. */
typedef struct {
	uint32_t *id;
	uint32_t n, cap;
} ids_t;

/*
 * The jobs a pass has charged, while it goes on: their usage (Slurm's and
 * the policy's) is charged up to the pass's time, charged_to, not the last
 * pass's end. The pass lets the job lock go between its slices, and a job
 * that ends there is charged by priority_p_job_end() from
 * prism_recalc_charged_from(): from charged_to for one of these, which
 * charging from the last pass's end would charge for the pass's period
 * twice (multifactor holds the job lock from its charge to the end of its
 * pass). Added to by the recalculation thread under the job write lock
 * (4 bytes a running job, kept between passes as 'want' is); read under
 * the job write lock and last_lock; emptied under last_lock when the
 * pass's time becomes the last pass's end.
 */
static ids_t charged;
static time_t charged_to;	/* 0: no pass charges now */

static void _ids_add(ids_t *ids, uint32_t id);

typedef struct {
	prism_pass_t p;		/* what the policy's hooks see */
	prism_policy_inst_t *inst;	/* the policy of this pass */
	bool in_force;		/* inst is in force (per slice) */
	bool with_dbd;		/* usage is only kept with slurmdbd */
	uint32_t changed;
	uint32_t slices;
	uint32_t computed;	/* jobs whose priority was computed */
	uint32_t charged;	/* running jobs charged */
	int64_t hold_max_usec;	/* longest job write lock hold */
	int64_t wait_max_usec;	/* longest wait for it */
	ids_t *want;		/* charging gathers here the jobs that need
				 * a priority (NULL: it does not) */
} pass_t;

/*
 * The job lock is held for slices (prism_slice.h: about 1.5 ms when the
 * lock was free, a tenth of the wait before when it was not), counted
 * from when the lock is taken, the first slice's setup and the assoc_mgr
 * locks included; the clock is read every PRISM_SLICE_CHECK jobs.
 */
#define PRISM_SLICE_CHECK 16
/* (a Grid Engine write-back looks each job up by id: read it more often) */
#define PRISM_SLICE_CHECK_STORE 4

extern time_t prism_recalc_last_ran(void)
{
	time_t last;

	slurm_mutex_lock(&last_lock);
	last = state.last_recalc;
	slurm_mutex_unlock(&last_lock);
	return last;
}

extern time_t prism_recalc_charged_from(const job_record_t *job_ptr)
{
	time_t from;

	slurm_mutex_lock(&last_lock);
	from = state.last_recalc;
	if (charged_to) {
		/* (a few running jobs end in a pass: a scan is enough) */
		for (uint32_t i = 0; i < charged.n; i++) {
			if (charged.id[i] == job_ptr->job_id) {
				from = charged_to;
				break;
			}
		}
	}
	slurm_mutex_unlock(&last_lock);
	return from;
}

/*
 * Does the pass recompute 'job_ptr'? Held jobs (priority 0) never, but for
 * those Prism itself holds (the Moab policy's REJECTNEGPRIOJOBS).
 */
static bool _needs_priority(const job_record_t *job_ptr, const pass_t *pass)
{
	if (!job_ptr->priority)
		return IS_JOB_PENDING(job_ptr) && prism_hold_is_ours(job_ptr);
	if (IS_JOB_POWER_UP_NODE(job_ptr))
		return false;
	if (IS_JOB_PENDING(job_ptr))
		return true;
	return pass->p.conf.flags & PRISM_F_CALCULATE_RUNNING;
}

/*
 * Charge the usage of a running job since the last pass: the policy's
 * own, then Slurm's. Returns false when the job is done with (finished,
 * or its end already settled). Caller holds the job write lock, the
 * assoc_mgr charge locks and policy_lock.
 */
static bool _charge(job_record_t *job_ptr, pass_t *pass)
{
	if (pass->in_force)
		prism_policy_charge(pass->inst, job_ptr, &pass->p);
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))
		return false;
	/* charged up to the pass's time, should it end during the pass */
	if (!IS_JOB_PENDING(job_ptr))
		_ids_add(&charged, job_ptr->job_id);
	if (!pass->with_dbd)
		return true;
	if (((pass->p.conf.flags & PRISM_F_CALCULATE_RUNNING) ||
	     !IS_JOB_PENDING(job_ptr)) &&
	    !IS_JOB_POWER_UP_NODE(job_ptr) && job_ptr->start_time &&
	    job_ptr->assoc_ptr) {
		pass->charged++;
		return prism_usage_charge_job_locked(job_ptr, pass->p.last,
						     pass->p.now, false);
	}
	return true;
}

/* Caller holds the job write lock, the assoc_mgr locks of the step and
 * policy_lock. */
static void _set_priority(job_record_t *job_ptr, pass_t *pass)
{
	if (!pass->in_force || !_needs_priority(job_ptr, pass))
		return;
	pass->computed++;
	if (prism_policy_compute(pass->inst, job_ptr, &pass->p))
		pass->changed++;
}

static void _charge_and_set(job_record_t *job_ptr, pass_t *pass)
{
	if (_charge(job_ptr, pass))
		_set_priority(job_ptr, pass);
}

/*
 * The jobs the Fair Tree walk recomputes (see _after_fs_step()): kept
 * between passes at the size the last pass needed (4 bytes a job), so
 * that a pass neither regrows nor faults it in again. The recalculation
 * thread's only.
 */
static ids_t want;

/* Room in 'ids' for 'n' ids in all; much more room than that is given
 * back. */
static void _ids_reserve(ids_t *ids, uint32_t n)
{
	if ((n <= ids->cap) && (ids->cap <= 2 * (uint64_t) n + 1024))
		return;
	ids->cap = n ? n : 1;
	xrealloc_nz(ids->id, ids->cap * sizeof(*ids->id));
}

/* Add 'id' to 'ids'. */
static void _ids_add(ids_t *ids, uint32_t id)
{
	if (ids->n == ids->cap)
		_ids_reserve(ids, 2 * ids->cap + 1024);
	ids->id[ids->n++] = id;
}

/* (the Fair Tree walk after it recomputes even finished jobs, as
 * multifactor does with CALCULATE_RUNNING) */
static void _charge_only(job_record_t *job_ptr, pass_t *pass)
{
	(void) _charge(job_ptr, pass);
	if (pass->want && _needs_priority(job_ptr, pass))
		_ids_add(pass->want, job_ptr->job_id);
}

/* One walk over all jobs: what to do per job and which locks it needs. */
typedef struct {
	void (*fn)(job_record_t *job_ptr, pass_t *pass);
	assoc_mgr_lock_t locks;
	bool site_update;	/* let the site factor plugin update first,
				 * in passes that decayed usage */
	bool reads_jobs;	/* the job read lock is enough */
	/* (at the end of the walk, in the hold of its last slice) */
	void (*done)(pass_t *pass);
} step_t;

/* Charging writes association and QOS usage and reads TRES. */
#define CHARGE_LOCKS { .assoc = WRITE_LOCK, .qos = WRITE_LOCK, \
		       .tres = READ_LOCK }

/* (the classic algorithm also fills a user's effective usage on demand) */
static const step_t charge_and_set = {
	.fn = _charge_and_set, .locks = CHARGE_LOCKS, .site_update = true };
static const step_t charge_only = {
	.fn = _charge_only, .locks = CHARGE_LOCKS, .site_update = true };
static const step_t set_fair_tree = {
	.fn = _set_priority, .locks = { .assoc = READ_LOCK, .qos = READ_LOCK } };

/* (the names a policy looks up, before the pass: policy.h) */
static void _note_names(job_record_t *job_ptr, pass_t *pass)
{
	if (pass->in_force)
		prism_policy_names_note(pass->inst, job_ptr);
}

static const step_t note_names = { .fn = _note_names, .reads_jobs = true };

/* (the TRES weights of the jobs' factors: jobrec.h) */
static void _keep_weights(job_record_t *job_ptr, pass_t *pass)
{
	prism_job_weights_keep(job_ptr);
}

static void _share_weights(pass_t *pass)
{
	prism_job_weights_share(pass->p.conf.weight_tres,
				pass->p.conf.tres_cnt);
}

static const step_t keep_weights = { .fn = _keep_weights,
				     .done = _share_weights };
#ifdef PRISM_STORE_FS_FACTOR
static void _store_fs_factor(job_record_t *job_ptr, pass_t *pass)
{
	prism_fs_store_job_factor(job_ptr);
}

static const step_t store_fs_factor = {
	.fn = _store_fs_factor, .locks = { .assoc = WRITE_LOCK } };
#endif

static int64_t _usec_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000;
}

/* A slice: when it took the job lock, and how long it may hold it. */
typedef struct {
	struct timespec t0;
	int64_t budget_usec;
} slice_t;

/* Take 'lock' (the job lock) for a slice of 'pass', timing the wait. */
static void _slice_lock(slurmctld_lock_t lock, slice_t *slice, pass_t *pass)
{
	struct timespec asked;
	int64_t wait;

	clock_gettime(CLOCK_MONOTONIC, &asked);
	lock_slurmctld(lock);
	/* the slice's time counts from the lock */
	clock_gettime(CLOCK_MONOTONIC, &slice->t0);
	wait = (slice->t0.tv_sec - asked.tv_sec) * 1000000 +
	       (slice->t0.tv_nsec - asked.tv_nsec) / 1000;
	if (wait > pass->wait_max_usec)
		pass->wait_max_usec = wait;
	slice->budget_usec = prism_slice_budget_usec(wait);
}

/*
 * Has 'slice', having handled 'n' jobs, run long enough? The clock is read
 * every 'every' jobs.
 */
static bool _slice_done(const slice_t *slice, uint32_t n, uint32_t every)
{
	return !(n % every) && _usec_since(&slice->t0) >= slice->budget_usec;
}

/* 'slice' lets the job lock go: keep the longest hold. */
static void _hold_done(const slice_t *slice, pass_t *pass)
{
	int64_t usec = _usec_since(&slice->t0);

	if (usec > pass->hold_max_usec)
		pass->hold_max_usec = usec;
}

/*
 * Jobs a walk has taken from the list but not yet handled: their records
 * are asked for (prefetched) a few jobs ahead, so that the cache misses
 * of several scattered job records overlap instead of stalling the walk
 * one after the other. Only within one slice: a job not handled before
 * the job lock is let go could be purged meanwhile.
 */
#define PRISM_AHEAD 8

/*
 * Where a walk's jobs come from: job_list, through one iterator kept
 * across slices, or the jobs of a list of ids, each found by
 * find_job_record() (slurmctld's hash of jobs by id: a few instructions
 * where list_next() takes and releases the list's own lock), skipping
 * those gone since.
 */
typedef struct {
	list_itr_t *itr;
	const ids_t *ids;	/* NULL: job_list */
	uint32_t next;		/* the next of ids */
} source_t;

typedef struct {
	job_record_t *job[PRISM_AHEAD];
	uint32_t head, n;
	bool end;		/* the source has no more jobs */
} ahead_t;

/* Ask for the lines of 'job_ptr' the pass reads first. */
static void _prefetch_job(const job_record_t *job_ptr)
{
	__builtin_prefetch(&job_ptr->job_state);
	__builtin_prefetch(&job_ptr->priority);
	__builtin_prefetch(&job_ptr->details);
	__builtin_prefetch(&job_ptr->assoc_ptr);
	__builtin_prefetch(&job_ptr->prio_factors);
}

/* The source's next job, or NULL when it has no more. */
static job_record_t *_source_next(source_t *src)
{
	if (!src->ids)
		return list_next(src->itr);
	while (src->next < src->ids->n) {
		job_record_t *job_ptr =
			find_job_record(src->ids->id[src->next++]);

		if (job_ptr)
			return job_ptr;
	}
	return NULL;
}

/* The next job to handle, or NULL when the source has no more. */
static job_record_t *_next_job(source_t *src, ahead_t *a)
{
	job_record_t *job_ptr;

	while (!a->end && (a->n < PRISM_AHEAD)) {
		if (!(job_ptr = _source_next(src))) {
			a->end = true;
			break;
		}
		_prefetch_job(job_ptr);
		a->job[(a->head + a->n++) % PRISM_AHEAD] = job_ptr;
	}
	if (!a->n)
		return NULL;
	job_ptr = a->job[a->head];
	a->head = (a->head + 1) % PRISM_AHEAD;
	a->n--;
	return job_ptr;
}

/* Handle the jobs taken ahead, before the slice lets the lock go. */
static void _drain(ahead_t *a, const step_t *step, pass_t *pass)
{
	while (a->n) {
		job_record_t *job_ptr = a->job[a->head];

		a->head = (a->head + 1) % PRISM_AHEAD;
		a->n--;
		step->fn(job_ptr, pass);
	}
}

/*
 * Walk every job ('ids' NULL), or the jobs of 'ids' still there, in short
 * slices: each slice takes the job write lock (the read lock for a step
 * that reads_jobs) and the step's assoc_mgr locks, handles jobs until its
 * budget (prism_slice.h) has passed, and lets go, so that RPCs waiting
 * for the job lock get in between. A walk of every job keeps one iterator
 * on job_list across slices: Slurm's list moves an iterator past a node
 * that is removed and never reorders job_list, so jobs submitted or
 * purged between slices are handled safely (a purged job is simply not
 * met; a record is only touched while the job lock is held, and the jobs
 * taken ahead are handled before it is let go). A walk of ids finds each
 * job again by id, in the slice that handles it.
 */
static void _walk_jobs(const step_t *step, const ids_t *ids, pass_t *pass)
{
	slurmctld_lock_t job_lock = { .job = step->reads_jobs ? READ_LOCK :
								WRITE_LOCK,
				      .node = READ_LOCK,
				      .part = READ_LOCK };
	assoc_mgr_lock_t locks = step->locks;
	source_t src = { .ids = ids };
	bool begun = false;
	ahead_t ahead = { .n = 0 };

	while (!ahead.end) {
		slice_t slice;
		uint32_t n = 0;

		_slice_lock(job_lock, &slice, pass);
		if (!begun) {
			if (!*prism_ctl.job_list) {
				if (step->done)
					step->done(pass);
				unlock_slurmctld(job_lock);
				return;
			}
			begun = true;
			/* (room for every job there is now: no regrowing) */
			if (pass->want)
				_ids_reserve(pass->want,
					     list_count(*prism_ctl.job_list));
			if (!ids)
				src.itr = list_iterator_create(
					*prism_ctl.job_list);
			prism_world_get(&pass->p.world);
			if (step->site_update && pass->p.decayed)
				site_factor_g_update();
		}
		assoc_mgr_lock(&locks);
		pass->in_force = prism_policy_slice_begin(pass->inst);
		while (!_slice_done(&slice, ++n, PRISM_SLICE_CHECK)) {
			job_record_t *job_ptr = _next_job(&src, &ahead);

			if (!job_ptr)
				break;
			step->fn(job_ptr, pass);
		}
		_drain(&ahead, step, pass);
		if (ahead.end && step->done)
			step->done(pass);
		prism_policy_slice_end();
		assoc_mgr_unlock(&locks);
		if (ahead.end && src.itr)
			list_iterator_destroy(src.itr);
		if (pass->changed && !step->reads_jobs)
			*prism_ctl.last_job_update = time(NULL);
		_hold_done(&slice, pass);
		unlock_slurmctld(job_lock);
		pass->slices++;
		if (!ahead.end)
			sched_yield();
	}
}

/*
 * Write the results of a batched policy back in slices as _walk_jobs()
 * walks the jobs; stops when the policy of the pass is no longer in
 * force.
 */
static void _walk_results(uint32_t n, pass_t *pass)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	uint32_t i = 0;

	while (i < n) {
		slice_t slice;
		uint32_t k = 0;
		bool in_force;

		_slice_lock(job_write_lock, &slice, pass);
		in_force = prism_policy_slice_begin(pass->inst);
		while (in_force && i < n &&
		       !_slice_done(&slice, ++k, PRISM_SLICE_CHECK_STORE)) {
			if (prism_policy_store(pass->inst, i++, &pass->p))
				pass->changed++;
		}
		prism_policy_slice_end();
		if (pass->changed)
			*prism_ctl.last_job_update = time(NULL);
		_hold_done(&slice, pass);
		unlock_slurmctld(job_write_lock);
		pass->slices++;
		if (!in_force)
			return;
		if (i < n)
			sched_yield();
	}
}

/*
 * The priority step of a policy that computes after fair-share: charge
 * (and collect), update fair-share (what sshare shows; with 'd', a
 * deferred decay, the associations no charge reached are decayed there),
 * then compute per job, or all at once and write back.
 */
static void _after_fs_step(pass_t *pass, bool began, const prism_decay_t *d)
{
	uint32_t n;

	/*
	 * Charging meets every job: it notes those the walk after fair-share
	 * recomputes, which then finds each by id instead of walking
	 * job_list again. A job submitted after charging has passed the end
	 * of job_list keeps the priority slurmctld had Prism give it at
	 * submission (priority_p_set()) until the next pass, as one submitted
	 * just after the pass does.
	 */
	want.n = 0;
	if (!prism_policy_batched(pass->inst))
		pass->want = &want;
	_walk_jobs(&charge_only, NULL, pass);
	pass->want = NULL;
	prism_fs_tree_update(&pass->p.conf, d);
	if (!prism_policy_batched(pass->inst)) {
		_walk_jobs(&set_fair_tree, &want, pass);
		return;
	}
	if (!began)
		return;
	n = prism_policy_batch(pass->inst, &pass->p);
	pass->computed += n;
	if (n)
		_walk_results(n, pass);
}

/*
 * Save the figures of the pass that started at 't0' (monotonic), whose
 * usage snapshot took 'save_usec' (-1: none saved), as
 * StateSaveLocation/PRISM_PASSINFO_NAME, for `prism metrics`. Only this
 * thread writes the file: no state-file lock. A failed save is logged
 * (and counted) by state_file.c.
 */
static void _save_figures(const pass_t *pass, const struct timespec *t0,
			  int64_t save_usec)
{
	prism_passinfo_t pi = {
		.plugin_start = plugin_start,
		.pass_start = pass->p.now,
		.pass_end = time(NULL),
		.duration_usec = _usec_since(t0),
		.jobs_computed = pass->computed,
		.jobs_charged = pass->charged,
		.lock_hold_max_usec = pass->hold_max_usec,
		.usage_save_usec = save_usec,
		.passes = passes,
		.save_errors = (int64_t) prism_state_file_failures(),
	};
	prism_error_t err = { "" };
	char buf[1024];
	int len = prism_passinfo_format(&pi, buf, sizeof(buf), &err);

	if (len < 0) {
		error("%s: cannot format the pass figures: %s",
		      PRISM_PLUGIN_TYPE, err.text);
		return;
	}
	(void) prism_state_file_write_own(PRISM_PASSINFO_NAME, buf, len);
}

/* The jobs in job_list now (0: none), under the job read lock. */
static uint32_t _job_count(void)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK };
	uint32_t n = 0;

	lock_slurmctld(job_read_lock);
	if (*prism_ctl.job_list)
		n = list_count(*prism_ctl.job_list);
	unlock_slurmctld(job_read_lock);
	return n;
}

/* Recalculate every job now (one pass). */
static void _pass(void)
{
	pass_t pass = { .p = { .recalc = true },
			.with_dbd = prism_usage_with_dbd() };
	prism_state_t next = state;
	bool after_fs, began, save_usage;
	struct timespec t0, save_t0;
	int64_t save_usec = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pass.inst = prism_policy_get();
	/*
	 * The first pass of a policy state that matches users or groups by
	 * name has them looked up with no lock held (nss.h), before the
	 * pass's time: the lookups can take long.
	 */
	if (prism_policy_names_wanted(pass.inst)) {
		_walk_jobs(&note_names, NULL, &pass);
		prism_policy_names_resolve(pass.inst);
	}
	pass.p.now = time(NULL);
	pass.p.last = prism_recalc_last_ran();
	/*
	 * This controller gives control to the one that asked for it, and
	 * slurmctld may answer it before this pass would end: from then on
	 * Prism writes no file here (state_file.h), yet slurmctld saves its
	 * usage after it answers (Slurm 25.11 and 26.05: always after its
	 * 29-s wait), and the other controller goes on from that save with
	 * Prism's files of the last pass. A pass charging now would be
	 * charged there again: none begins.
	 */
	if (prism_ctl_control_given_away(pass.p.now)) {
		info("%s: control is being given to the controller that asked for it: no pass here any more",
		     PRISM_PLUGIN_TYPE);
		prism_policy_put(pass.inst);
		return;
	}
	passes++;
	slurm_mutex_lock(&last_lock);
	charged_to = pass.p.now;
	slurm_mutex_unlock(&last_lock);
	prism_conf_get(&pass.p.conf);
	pass.p.decayed = pass.p.last && pass.p.now > pass.p.last;
	/* PriorityWeightTRES changed: the jobs keep the old weights before
	 * the pass's become the shared ones (jobrec.h) */
	if (prism_job_weights_differ(pass.p.conf.weight_tres,
				     pass.p.conf.tres_cnt))
		_walk_jobs(&keep_weights, NULL, &pass);
	/*
	 * slurmctld saves its usage every 5 minutes whatever a pass is doing:
	 * a save made between two of this pass's slices holds its decay and
	 * some of its charges. The mark says, should the controller stop
	 * before this pass's snapshot and state are written, that such a
	 * save is not to be gone on from (usage_snap.c); it is on disk
	 * before any usage changes.
	 */
	if (pass.with_dbd && pass.p.decayed)
		(void) prism_state_begun_save(pass.p.now);
	/* (a batched policy makes room for every job before the walk) */
	if (prism_policy_batched(pass.inst))
		pass.p.jobs = _job_count();
	after_fs = prism_policy_after_fs(pass.inst, &pass.p);
	began = prism_policy_pass_begin(pass.inst, &pass.p);
	prism_usage_reset_if_due(&next, pass.p.now);
	/* a pass that charged or reset usage saves it (below) */
	save_usage = pass.with_dbd &&
		     (pass.p.decayed || (next.last_reset != state.last_reset));
	/* fair-share's walk copies it, the save what was charged since */
	prism_usage_snap_stage_want(save_usage);
	if (after_fs) {
		/* Fair Tree: each association decayed when first reached */
		prism_decay_t d;
		bool deferred = false;

		if (pass.p.decayed && (pass.p.conf.flags & PRISM_F_FAIR_TREE))
			deferred = prism_usage_decay_defer(pass.p.last,
							   pass.p.now, &d);
		else if (pass.p.decayed)
			prism_usage_decay(pass.p.last, pass.p.now);
		_after_fs_step(&pass, began, deferred ? &d : NULL);
	} else {
		/* fair-share of the usage so far, then decay, one walk */
		prism_decay_t d;
		bool decay = pass.p.decayed &&
			     prism_usage_decay_prepare(pass.p.last,
						       pass.p.now, &d);

		prism_fs_tree_update(&pass.p.conf, decay ? &d : NULL);
		if (pass.p.decayed)
			_walk_jobs(&charge_and_set, NULL, &pass);
	}
#ifdef PRISM_STORE_FS_FACTOR
	/* classic fair-share's factor where sshare and the usage_thres
	 * check read it, for every job's association (25.11 on) */
	if (pass.with_dbd && !(pass.p.conf.flags & PRISM_F_FAIR_TREE))
		_walk_jobs(&store_fs_factor, NULL, &pass);
#endif
	prism_fs_tree_pass_done();
	prism_policy_pass_end(pass.inst, &pass.p);
	prism_policy_put(pass.inst);
	log_flag(PRIO, "%s: pass done in %u slices (longest wait for the job lock %" PRId64 " us, longest hold %" PRId64 " us), %u priorities changed",
		 PRISM_PLUGIN_TYPE, pass.slices, pass.wait_max_usec,
		 pass.hold_max_usec, pass.changed);

	next.last_recalc = pass.p.now;
	slurm_mutex_lock(&last_lock);
	state = next;
	/* a job ending from now on is charged from the pass's time */
	charged.n = 0;
	charged_to = 0;
	slurm_mutex_unlock(&last_lock);
	/*
	 * slurmctld itself saves association usage only every 5 minutes and
	 * at shutdown: a controller killed in between would come back with
	 * older usage while Prism's state says it was charged. The usage
	 * snapshot of every pass that charged or reset usage keeps the two
	 * within one pass; it is written before the state file (see
	 * usage_snap.c on the order).
	 */
	if (save_usage) {
		clock_gettime(CLOCK_MONOTONIC, &save_t0);
		prism_usage_snap_save(&next);
		save_usec = _usec_since(&save_t0);
	}
	/*
	 * The figures before the state file: a reader that saw this pass's
	 * state saved (the harness's end of a pass) finds them; the state
	 * file's own small write is not in the duration.
	 */
	_save_figures(&pass, &t0, save_usec);
	(void) prism_state_save(&next);
	/*
	 * The policy's own usage (Moab, Grid Engine) after the state file,
	 * whose pass it holds: killed between the two, the restart goes on
	 * from this pass with the last pass's policy usage (this pass's
	 * charge to it lost); before the state file, it would be charged
	 * again from the last pass's end.
	 */
	prism_policy_save();
}

static void *_recalc_loop(void *arg)
{
	struct timespec next;

	prctl(PR_SET_NAME, "prism_recalc", NULL, NULL, NULL);
	prism_usage_init_run_secs(prism_recalc_last_ran());
	clock_gettime(CLOCK_MONOTONIC, &next);
	slurm_mutex_lock(&wake_lock);
	while (!stopping) {
		slurm_mutex_unlock(&wake_lock);
		_pass();
		slurm_mutex_lock(&wake_lock);
		next.tv_sec += prism_conf_calc_period();
		while (!stopping &&
		       pthread_cond_timedwait(&wake_cond, &wake_lock, &next) !=
			       ETIMEDOUT)
			;
	}
	slurm_mutex_unlock(&wake_lock);
	return NULL;
}

extern int prism_recalc_init(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };

	plugin_start = time(NULL);
	passes = 0;
	if ((prism_state_load(&state) != SLURM_SUCCESS) ||
	    (prism_usage_snap_load(&state) != SLURM_SUCCESS))
		return SLURM_ERROR;
	assoc_mgr_lock(&locks);
	if (assoc_mgr_root_assoc && assoc_mgr_root_assoc->usage)
		assoc_mgr_root_assoc->usage->usage_efctv = 1.0;
	assoc_mgr_unlock(&locks);
	return SLURM_SUCCESS;
}

extern int prism_recalc_start(void)
{
	pthread_condattr_t attr;
	int rc;

	if (thread_running)
		return SLURM_SUCCESS;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wake_cond, &attr);
	pthread_condattr_destroy(&attr);
	stopping = false;
	rc = pthread_create(&thread, NULL, _recalc_loop, NULL);
	if (rc) {
		error("%s: cannot start the recalculation thread: %s",
		      PRISM_PLUGIN_TYPE, strerror(rc));
		return SLURM_ERROR;
	}
	thread_running = true;
	return SLURM_SUCCESS;
}

extern void prism_recalc_stop(void)
{
	if (!thread_running)
		return;
	slurm_mutex_lock(&wake_lock);
	stopping = true;
	pthread_cond_broadcast(&wake_cond);
	slurm_mutex_unlock(&wake_lock);
	pthread_join(thread, NULL);
	thread_running = false;
	pthread_cond_destroy(&wake_cond);
	/*
	 * slurmctld's last save of its usage, as it stops, comes before
	 * fini(): a pass that was running then ended after it (the classic
	 * pass charges after the fair-share walk whose time its snapshot
	 * has), and a job that ended since was charged after it. At start
	 * that save, newer than the pass's snapshot, would be gone on from,
	 * and those charges lost. A snapshot taken now holds them all (no
	 * file once control is given away: state_file.h).
	 */
	if (slurm_with_slurmdbd())
		prism_usage_snap_save(&state);
	xfree(want.id);
	want.cap = want.n = 0;
	xfree(charged.id);
	charged.cap = charged.n = 0;
	prism_usage_snap_fini();
	prism_usage_decay_fini();
}
