/*****************************************************************************\
 *  prism_recalc.c - the recalculation thread: every PriorityCalcPeriod,
 *  recompute the priority of every job that needs it.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <pthread.h>
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
static prism_state_t state;	/* owned by the recalculation thread */

typedef struct {
	prism_prio_conf_t conf;
	prism_world_t world;
	time_t now;
	uint32_t changed;
} pass_t;

/* Does the pass recompute 'job_ptr'? Held jobs (priority 0) never. */
static bool _needs_priority(const job_record_t *job_ptr, const pass_t *pass)
{
	if (!job_ptr->priority || IS_JOB_POWER_UP_NODE(job_ptr))
		return false;
	if (IS_JOB_PENDING(job_ptr))
		return true;
	return (pass->conf.flags & PRISM_F_CALCULATE_RUNNING) &&
	       !IS_JOB_FINISHED(job_ptr) && !IS_JOB_COMPLETING(job_ptr);
}

static int _recalc_job(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	pass_t *pass = arg;
	uint32_t prio;

	if (!_needs_priority(job_ptr, pass))
		return 0;
	prio = prism_job_compute(job_ptr, &pass->conf, &pass->world,
				 pass->now);
	prio = prism_prio_update(pass->conf.flags & PRISM_F_INCR_ONLY,
				 job_ptr->priority, prio);
	if (prio != job_ptr->priority) {
		job_ptr->priority = prio;
		pass->changed++;
	}
	return 0;
}

extern void prism_recalc_pass(void)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK };
	pass_t pass = { .now = time(NULL) };

	prism_conf_get(&pass.conf);
	lock_slurmctld(job_write_lock);
	prism_world_get(&pass.world);
	site_factor_g_update();
	assoc_mgr_lock(&locks);
	if (*prism_ctl.job_list)
		list_for_each(*prism_ctl.job_list, _recalc_job, &pass);
	assoc_mgr_unlock(&locks);
	if (pass.changed)
		*prism_ctl.last_job_update = pass.now;
	unlock_slurmctld(job_write_lock);
	log_flag(PRIO, "%s: pass done, %u priorities changed",
		 "priority/prism", pass.changed);
	state.last_recalc = pass.now;
	(void) prism_state_save(&state);
}

static void *_recalc_loop(void *arg)
{
	struct timespec next;

	prctl(PR_SET_NAME, "prism_recalc", NULL, NULL, NULL);
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
	pthread_condattr_t attr;
	int rc;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wake_cond, &attr);
	pthread_condattr_destroy(&attr);
	stopping = false;
	prism_state_load(&state);
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
