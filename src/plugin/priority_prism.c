/*****************************************************************************\
 *  priority_prism.c - the priority/prism plugin: the symbols slurmctld
 *  looks up. The top of the adapter: it calls the other modules and
 *  nothing calls into it.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"

#include "ctl.h"
#include "fs_tree.h"
#include "jobrec.h"
#include "policy.h"
#include "prism_fs.h"
#include "recalc.h"
#include "sprio.h"
#include "state_file.h"
#include "usage_slurm.h"

#define PRISM_EXPORT __attribute__((visibility("default")))

PRISM_EXPORT const char plugin_name[] = "Priority PRISM plugin";
PRISM_EXPORT const char plugin_type[] = PRISM_PLUGIN_TYPE;
PRISM_EXPORT const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/*
 * The entry points Slurm looks up (the syms[] of the release's
 * src/interfaces/priority.c, or src/common/slurm_priority.c): the six of
 * every release, and the ones compat.h says the tree's interface has.
 * fini() returns int: the loader of every release calls it as void
 * (25.11's own plugins declare it void), and ignores the value.
 */
extern int init(void);
extern int fini(void);
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr);
extern void priority_p_reconfig(bool assoc_clear);
extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);
extern void priority_p_job_end(job_record_t *job_ptr);
#ifdef PRISM_SPRIO_UID_ONLY
extern list_t *priority_p_get_priority_factors_list(uid_t uid);
#else
extern list_t *priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid);
#endif
#ifdef PRISM_EXPORTS_CALC_FS_FACTOR
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm);
#endif
#ifdef PRISM_EXPORTS_RECOVER
extern uint32_t priority_p_recover(uint32_t prio_boost);
#endif
#ifdef PRISM_EXPORTS_THREAD_START
extern void priority_p_thread_start(void);
#endif

/* The TRES weights of the configuration loaded at start are those of the
 * jobs' factors that carry none (jobrec.h): no job has factors of this
 * plugin's yet. */
static void _weights_share(void)
{
	prism_prio_conf_t c;

	prism_conf_get(&c);
	prism_job_weights_share(c.weight_tres, c.tres_cnt);
}

PRISM_EXPORT extern int init(void)
{
	/* inside slurmctld, a controller symbol missing stops the load */
	if (prism_ctl_find() != SLURM_SUCCESS)
		return SLURM_ERROR;
	/* (before the policy's copy is saved) */
	prism_state_file_start();
	if (prism_in_controller() && prism_policy_load(true) != SLURM_SUCCESS) {
		prism_state_dir_free();
		return SLURM_ERROR;	/* slurmctld refuses to start */
	}
	prism_conf_load();
	if (!prism_in_controller()) {
		debug("%s loaded outside slurmctld", plugin_type);
		return SLURM_SUCCESS;
	}
	prism_usage_conf_load();
	_weights_share();
	prism_site_factor_init();
	/* a state file of a later Prism: refused, slurmctld does not start */
	if (prism_recalc_init() != SLURM_SUCCESS)
		goto fail;
#ifndef PRISM_EXPORTS_THREAD_START
	/* else in priority_p_thread_start() (the jobs are recovered) */
	if (prism_recalc_start() != SLURM_SUCCESS)
		goto fail;
#endif
	info("%s loaded", plugin_type);
	return SLURM_SUCCESS;
fail:
	prism_site_factor_fini();
	prism_policy_fini();
	prism_conf_free();
	prism_state_dir_free();
	return SLURM_ERROR;
}

PRISM_EXPORT extern int fini(void)
{
	if (prism_in_controller()) {
		prism_recalc_stop();
		prism_job_weights_share(NULL, 0);
		prism_site_factor_fini();
		prism_fs_tree_fini();
		prism_policy_save();
		prism_policy_fini();
	}
	prism_conf_free();
	prism_state_dir_free();
	return SLURM_SUCCESS;
}

/* Submit path: called with the job write lock held. */
PRISM_EXPORT extern uint32_t priority_p_set(uint32_t last_prio,
					    job_record_t *job_ptr)
{
	prism_pass_t pass = { .now = time(NULL) };
	uint32_t prio;

	site_factor_g_set(job_ptr);
	prism_conf_get(&pass.conf);
	prism_world_get(&pass.world);
	prio = prism_policy_submit(job_ptr, &pass);
	debug2("%s: initial priority for %pJ is %u", plugin_type, job_ptr,
	       prio);
	return prio;
}

PRISM_EXPORT extern void priority_p_reconfig(bool assoc_clear)
{
	prism_prio_conf_t before, after;

	prism_state_dir_load();
	/*
	 * A bad PriorityParameters or policy file keeps the policy in force.
	 * Only a real reconfigure (assoc_clear) re-reads the file: the other
	 * callers (scontrol setdebugflags, FairShareDampeningFactor) hold
	 * the controller's locks and change nothing the file says.
	 */
	if (prism_in_controller() && assoc_clear &&
	    prism_policy_load(false) != SLURM_SUCCESS) {
		error("%s: reconfigure ignored, the previous settings stay in force",
		      plugin_type);
		return;
	}
	prism_conf_get(&before);
	prism_conf_load();
	prism_conf_get(&after);
	if (!prism_in_controller())
		return;
	prism_usage_conf_load();
	/* Fair Tree normalises shares its own way */
	if ((before.flags ^ after.flags) & PRISM_F_FAIR_TREE)
		prism_fs_tree_renormalize();
	/* slurmctld rebuilt the run-seconds counters of running jobs */
	if (assoc_clear)
		prism_usage_init_run_secs(prism_recalc_last_ran());
	prism_site_factor_reconfig();
	debug2("%s reconfigured", plugin_type);
}

/* Called by assoc_mgr with its association write lock held. */
PRISM_EXPORT extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	prism_prio_conf_t c;

	if (!assoc_mgr_root_assoc || !assoc->usage)
		return;
	prism_conf_get(&c);
	prism_fs_set_assoc_usage(assoc, c.flags);
}

#ifdef PRISM_EXPORTS_CALC_FS_FACTOR
PRISM_EXPORT extern double priority_p_calc_fs_factor(long double usage_efctv,
						     long double shares_norm)
{
	if (fuzzy_equal(usage_efctv, NO_VAL))
		return 0.0;
	return prism_fs_factor(usage_efctv, shares_norm,
			       slurm_conf.fs_dampening_factor);
}
#endif

#ifdef PRISM_SPRIO_UID_ONLY
/* The caller holds the job, node and partition read locks and the
 * assoc_mgr QOS read lock. */
PRISM_EXPORT extern list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	if (!prism_in_controller())
		return NULL;
	return prism_sprio_list(uid);
}
#else
PRISM_EXPORT extern list_t *priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	if (!prism_in_controller())
		return NULL;
	return prism_sprio_list(req_msg, uid);
}
#endif

#ifdef PRISM_EXPORTS_THREAD_START
/* After the jobs are recovered, under the controller's config lock. */
PRISM_EXPORT extern void priority_p_thread_start(void)
{
	if (prism_in_controller() && prism_recalc_start() != SLURM_SUCCESS)
		fatal("%s: cannot start the recalculation thread",
		      plugin_type);
}
#endif

#ifdef PRISM_EXPORTS_RECOVER
/*
 * After the controller synchronised job priorities, no lock held. Every
 * job already got its priority from priority_p_set(); the first pass,
 * right after the thread started, recomputes them. Nothing to add to the
 * lowest priority.
 */
PRISM_EXPORT extern uint32_t priority_p_recover(uint32_t prio_boost)
{
	return 0;
}
#endif

/*
 * Called when a job ends, with the job write lock held: charge its usage
 * since the last pass (or since the pass going on, if that charged it
 * already) and settle its unused run-seconds.
 */
PRISM_EXPORT extern void priority_p_job_end(job_record_t *job_ptr)
{
	time_t last = prism_recalc_charged_from(job_ptr), now = time(NULL);

	log_flag(PRIO, "%s: %pJ ended", plugin_type, job_ptr);
	prism_policy_job_end(job_ptr, last, now);
	(void) prism_usage_charge_job(job_ptr, last, now, true);
}
