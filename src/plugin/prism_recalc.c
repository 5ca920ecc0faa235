/*****************************************************************************\
 *  prism_recalc.c - the recalculation thread. Every PriorityCalcPeriod it
 *  resets usage when due, decays usage, charges running jobs, updates
 *  fair-share over the association tree, recomputes the priority of every
 *  job that needs it, and saves Prism's state.
 *
 *  The steps and their order follow Slurm's multifactor plugin, so the
 *  usage and priorities agree with it pass for pass. Under the Grid
 *  Engine policy the priority step is different: one walk collects the
 *  pending jobs (while charging usage), the core computes them all at
 *  once without any lock, and the results are written back in slices,
 *  each job found again by its id.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include "src/common/assoc_mgr.h"
#include "src/common/site_factor.h"
#include "src/slurmctld/locks.h"

#include "prism_adapter.h"

static pthread_t thread;
static bool thread_running;
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cond;
static bool stopping;

/* Written by the recalculation thread only; read under last_lock. */
static prism_state_t state;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
	prism_prio_conf_t conf;
	prism_world_t world;
	time_t now;
	time_t last;		/* end of the previous pass, 0: none */
	bool with_dbd;		/* usage is only kept with slurmdbd */
	bool decayed;		/* time passed since the last pass */
	bool moab;		/* the Moab policy computes priorities (set
				 * per slice, under policy_lock) */
	const prism_ge_policy_t *ge;	/* the Grid Engine policy of this
					 * pass (prism_ge_policy_get()) */
	bool ge_in_force;	/* a Grid Engine policy is in force and it is
				 * pass->ge (per slice, under policy_lock) */
	bool ge_other;		/* another Grid Engine policy is in force */
	uint32_t changed;
	uint32_t slices;
} pass_t;

/*
 * The job lock is held for slices of about PRISM_SLICE_USEC microseconds;
 * the clock is read every PRISM_SLICE_CHECK jobs.
 */
#define PRISM_SLICE_USEC 2000
#define PRISM_SLICE_CHECK 32
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

/*
 * Does the pass recompute 'job_ptr'? Held jobs (priority 0) never, but for
 * those Prism itself holds under the Moab policy's REJECTNEGPRIOJOBS.
 */
static bool _needs_priority(const job_record_t *job_ptr, const pass_t *pass)
{
	if (!job_ptr->priority)
		return IS_JOB_PENDING(job_ptr) && prism_moab_held(job_ptr);
	if (IS_JOB_POWER_UP_NODE(job_ptr))
		return false;
	if (IS_JOB_PENDING(job_ptr))
		return true;
	return pass->conf.flags & PRISM_F_CALCULATE_RUNNING;
}

/*
 * Charge the usage of a running job since the last pass. Returns false
 * when the job is done with (finished, or its end already settled).
 * Caller holds the job write lock and the assoc_mgr charge locks.
 */
static bool _charge(job_record_t *job_ptr, const pass_t *pass)
{
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))
		return false;
	if (pass->moab) {
		if (pass->decayed && !IS_JOB_PENDING(job_ptr))
			prism_moab_charge(job_ptr, pass->last, pass->now);
		prism_moab_count_active(job_ptr);
	}
	if (!pass->with_dbd)
		return true;
	if (((pass->conf.flags & PRISM_F_CALCULATE_RUNNING) ||
	     !IS_JOB_PENDING(job_ptr)) &&
	    !IS_JOB_POWER_UP_NODE(job_ptr) && job_ptr->start_time &&
	    job_ptr->assoc_ptr)
		return prism_usage_charge_job_locked(job_ptr, pass->last,
						     pass->now, false);
	return true;
}

/* Caller holds the job write lock and the assoc_mgr locks of the step. */
static void _set_priority(job_record_t *job_ptr, pass_t *pass)
{
	uint32_t prio;

	/* reconfigured to the Grid Engine policy since the pass began */
	if (pass->ge_in_force || pass->ge_other)
		return;
	if (!_needs_priority(job_ptr, pass))
		return;
	if (pass->moab) {
		prio = prism_moab_job_compute(job_ptr, pass->now);
	} else {
		prio = prism_job_compute(job_ptr, &pass->conf, &pass->world,
					 pass->now);
		prio = prism_prio_update(pass->conf.flags & PRISM_F_INCR_ONLY,
					 job_ptr->priority, prio);
		/* held by the Moab policy before a reconfigure */
		if (prio)
			prism_moab_release(job_ptr);
	}
	if (prio != job_ptr->priority) {
		job_ptr->priority = prio;
		pass->changed++;
	}
}

static void _charge_and_set(job_record_t *job_ptr, pass_t *pass)
{
	if (_charge(job_ptr, pass))
		_set_priority(job_ptr, pass);
}

static void _charge_only(job_record_t *job_ptr, pass_t *pass)
{
	(void) _charge(job_ptr, pass);
}

static void _charge_and_collect(job_record_t *job_ptr, pass_t *pass)
{
	(void) _charge(job_ptr, pass);
	if (pass->ge_in_force)
		prism_ge_collect(job_ptr, pass->decayed ? pass->last : 0);
}

/* One walk over all jobs: what to do per job and which locks it needs. */
typedef struct {
	void (*fn)(job_record_t *job_ptr, pass_t *pass);
	assoc_mgr_lock_t locks;
	bool site_update;	/* let the site factor plugin update first,
				 * in passes that decayed usage */
} step_t;

/* Charging writes association and QOS usage and reads TRES. */
#define CHARGE_LOCKS { .assoc = WRITE_LOCK, .qos = WRITE_LOCK, \
		       .tres = READ_LOCK }

/* (the classic algorithm also fills a user's effective usage on demand) */
static const step_t charge_and_set = { _charge_and_set, CHARGE_LOCKS, true };
static const step_t charge_only = { _charge_only, CHARGE_LOCKS, true };
static const step_t charge_and_collect = { _charge_and_collect, CHARGE_LOCKS,
					   true };
static const step_t set_fair_tree = {
	_set_priority, { .assoc = READ_LOCK, .qos = READ_LOCK }, false };

static int64_t _usec_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000;
}

/* What the policy in force is, for a slice. Caller holds policy_lock. */
static void _policy_check(pass_t *pass)
{
	const prism_ge_policy_t *ge = prism_ge_policy();

	pass->moab = prism_moab_policy() != NULL;
	pass->ge_in_force = ge && ge == pass->ge;
	pass->ge_other = ge && ge != pass->ge;
}

/*
 * Has a slice that started at 't0' and handled 'n' jobs run long enough?
 * The clock is read every 'every' jobs.
 */
static bool _slice_done(const struct timespec *t0, uint32_t n, uint32_t every)
{
	return !(n % every) && _usec_since(t0) >= PRISM_SLICE_USEC;
}

/*
 * Walk every job in short slices: each slice takes the job write lock and
 * the step's assoc_mgr locks, handles jobs until PRISM_SLICE_USEC has
 * passed, and lets go, so that RPCs waiting for the job lock get in
 * between. The walk keeps one iterator on job_list across slices: Slurm's
 * list moves an iterator past a node that is removed and never reorders
 * job_list, so jobs submitted or purged between slices are handled
 * safely (a purged job is simply not met; a record is only touched while
 * the job lock is held).
 */
static void _walk_jobs(const step_t *step, pass_t *pass)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	assoc_mgr_lock_t locks = step->locks;
	ListIterator itr = NULL;
	bool done = false;

	while (!done) {
		struct timespec t0;
		uint32_t n = 0;

		lock_slurmctld(job_write_lock);
		if (!itr) {
			if (!*prism_ctl.job_list) {
				unlock_slurmctld(job_write_lock);
				return;
			}
			itr = list_iterator_create(*prism_ctl.job_list);
			prism_world_get(&pass->world);
			if (step->site_update && pass->decayed)
				site_factor_g_update();
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assoc_mgr_lock(&locks);
		prism_policy_lock();
		_policy_check(pass);
		while (true) {
			job_record_t *job_ptr;

			if (_slice_done(&t0, ++n, PRISM_SLICE_CHECK))
				break;
			if (!(job_ptr = list_next(itr))) {
				done = true;
				break;
			}
			step->fn(job_ptr, pass);
		}
		prism_policy_unlock();
		assoc_mgr_unlock(&locks);
		if (done)
			list_iterator_destroy(itr);
		if (pass->changed)
			*prism_ctl.last_job_update = time(NULL);
		unlock_slurmctld(job_write_lock);
		pass->slices++;
		if (!done)
			sched_yield();
	}
}

/*
 * Write the Grid Engine results back in slices as _walk_jobs() walks the
 * jobs; stops when the policy of the pass is no longer in force.
 */
static void _walk_ge_results(uint32_t n, pass_t *pass)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	uint32_t i = 0;

	while (i < n) {
		struct timespec t0;
		uint32_t k = 0;
		bool in_force;

		lock_slurmctld(job_write_lock);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		prism_policy_lock();
		_policy_check(pass);
		in_force = pass->ge_in_force;
		while (in_force && i < n &&
		       !_slice_done(&t0, ++k, PRISM_SLICE_CHECK_STORE)) {
			if (prism_ge_store(i++))
				pass->changed++;
		}
		prism_policy_unlock();
		if (pass->changed)
			*prism_ctl.last_job_update = time(NULL);
		unlock_slurmctld(job_write_lock);
		pass->slices++;
		if (!in_force)
			return;
		if (i < n)
			sched_yield();
	}
}

/*
 * The Grid Engine priority step: collect the pending jobs while charging
 * usage, update fair-share (what sshare shows), compute, write back.
 */
static void _ge_step(pass_t *pass)
{
	uint32_t n;

	pass->ge = prism_ge_policy_get();
	prism_ge_pass_begin(pass->ge, pass->now);
	_walk_jobs(&charge_and_collect, pass);
	prism_fs_tree_update(&pass->conf);
	n = prism_ge_pass_compute();
	if (n)
		_walk_ge_results(n, pass);
	prism_ge_policy_put(pass->ge);
	pass->ge = NULL;
}

extern void prism_recalc_pass(void)
{
	pass_t pass = { .now = time(NULL), .last = prism_recalc_last_ran(),
			.with_dbd = slurm_with_slurmdbd() };
	prism_state_t next = state;
	prism_policy_t kind = prism_policy_kind();
	bool moab = kind == PRISM_POLICY_MOAB;
	bool ge = kind == PRISM_POLICY_GRIDENGINE;
	bool fair_tree;

	prism_conf_get(&pass.conf);
	/* the Moab and Grid Engine policies charge, then compute, as Fair
	 * Tree does */
	fair_tree = (pass.conf.flags & PRISM_F_FAIR_TREE) || moab || ge;
	if (moab)
		prism_moab_roll(pass.now);
	prism_usage_reset_if_due(&next, pass.now);
	if (!fair_tree)
		prism_fs_tree_update(&pass.conf);
	pass.decayed = pass.last && pass.now > pass.last;
	if (pass.decayed) {
		prism_usage_decay(pass.last, pass.now);
		if (!fair_tree)
			_walk_jobs(&charge_and_set, &pass);
	}
	if (ge) {
		_ge_step(&pass);
	} else if (fair_tree) {
		_walk_jobs(&charge_only, &pass);
		prism_fs_tree_update(&pass.conf);
		_walk_jobs(&set_fair_tree, &pass);
	}
	log_flag(PRIO, "%s: pass done in %u slices, %u priorities changed",
		 "priority/prism", pass.slices, pass.changed);

	next.last_recalc = pass.now;
	slurm_mutex_lock(&last_lock);
	state = next;
	slurm_mutex_unlock(&last_lock);
	prism_moab_usage_save();
	prism_ge_usage_save();
	(void) prism_state_save(&next);
	/*
	 * slurmctld itself saves association usage only every 5 minutes and
	 * at shutdown: a controller killed in between would come back with
	 * older usage while Prism's state says it was charged. Saving it
	 * after every pass that charged keeps the two within one pass.
	 */
	if (pass.decayed && pass.with_dbd) {
		struct timespec t0;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		(void) dump_assoc_mgr_state();
		log_flag(PRIO, "%s: association usage saved in %" PRId64 " us",
			 "priority/prism", _usec_since(&t0));
	}
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
		prism_recalc_pass();
		slurm_mutex_lock(&wake_lock);
		next.tv_sec += slurm_conf.priority_calc_period ?
			       slurm_conf.priority_calc_period : 1;
		while (!stopping &&
		       pthread_cond_timedwait(&wake_cond, &wake_lock, &next) !=
			       ETIMEDOUT)
			;
	}
	slurm_mutex_unlock(&wake_lock);
	return NULL;
}

extern int prism_recalc_start(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	pthread_condattr_t attr;
	int rc;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wake_cond, &attr);
	pthread_condattr_destroy(&attr);
	stopping = false;
	prism_state_load(&state);
	assoc_mgr_lock(&locks);
	if (assoc_mgr_root_assoc && assoc_mgr_root_assoc->usage)
		assoc_mgr_root_assoc->usage->usage_efctv = 1.0;
	assoc_mgr_unlock(&locks);
	rc = pthread_create(&thread, NULL, _recalc_loop, NULL);
	if (rc) {
		error("%s: cannot start the recalculation thread: %s",
		      "priority/prism", strerror(rc));
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
}
