/*****************************************************************************\
 *  priority_prism.c - the priority/prism plugin: the symbols slurmctld
 *  looks up, and the configuration the rest of the adapter reads.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "src/common/assoc_mgr.h"
#include "src/common/site_factor.h"
#include "src/common/slurm_priority.h"

#include "prism_adapter.h"
#include "prism_fs.h"

#define PRISM_EXPORT __attribute__((visibility("default")))

PRISM_EXPORT const char plugin_name[] = "Priority PRISM plugin";
PRISM_EXPORT const char plugin_type[] = "priority/prism";
PRISM_EXPORT const uint32_t plugin_version = SLURM_VERSION_NUMBER;

prism_ctl_t prism_ctl;

static pthread_mutex_t conf_lock = PTHREAD_MUTEX_INITIALIZER;
static prism_prio_conf_t conf;

/*
 * PriorityWeightTRES arrays. conf.weight_tres points to the newest; every
 * snapshot prism_conf_get() handed out shares it without a reference, and
 * a recalculation pass may use its snapshot long after a reconfig. So an
 * array is never changed or freed once published: a reconfig that changes
 * the weights publishes a new one and keeps the old one here until fini().
 * A reconfig with the same weights publishes nothing, so this list only
 * grows when an operator edits PriorityWeightTRES.
 */
static List tres_weight_arrays;	/* of double[], under conf_lock */

/* Slurm's PriorityFlags bits and the core's names for them. */
static const struct {
	uint16_t slurm;
	uint32_t core;
} flag_map[] = {
	{ PRIORITY_FLAGS_ACCRUE_ALWAYS, PRISM_F_ACCRUE_ALWAYS },
	{ PRIORITY_FLAGS_MAX_TRES, PRISM_F_MAX_TRES },
	{ PRIORITY_FLAGS_SIZE_RELATIVE, PRISM_F_SIZE_RELATIVE },
	{ PRIORITY_FLAGS_DEPTH_OBLIVIOUS, PRISM_F_DEPTH_OBLIVIOUS },
	{ PRIORITY_FLAGS_CALCULATE_RUNNING, PRISM_F_CALCULATE_RUNNING },
	{ PRIORITY_FLAGS_FAIR_TREE, PRISM_F_FAIR_TREE },
	{ PRIORITY_FLAGS_INCR_ONLY, PRISM_F_INCR_ONLY },
	{ PRIORITY_FLAGS_NO_NORMAL_ASSOC, PRISM_F_NO_NORMAL_ASSOC },
	{ PRIORITY_FLAGS_NO_NORMAL_PART, PRISM_F_NO_NORMAL_PART },
	{ PRIORITY_FLAGS_NO_NORMAL_QOS, PRISM_F_NO_NORMAL_QOS },
	{ PRIORITY_FLAGS_NO_NORMAL_TRES, PRISM_F_NO_NORMAL_TRES },
};

static uint32_t _core_flags(uint16_t slurm_flags)
{
	uint32_t core = 0;

	for (size_t i = 0; i < sizeof(flag_map) / sizeof(flag_map[0]); i++)
		if (slurm_flags & flag_map[i].slurm)
			core |= flag_map[i].core;
	return core;
}

/* Are the weights 'a' and 'b' of 'cnt' TRES the same? */
static bool _same_weights(const double *a, const double *b, uint32_t cnt)
{
	return !memcmp(a, b, sizeof(double) * cnt);
}

/*
 * Publish the PriorityWeightTRES array 'w' of 'tres_cnt' entries (taken
 * over; NULL: not set) into 'c'. Caller holds conf_lock.
 */
static void _tres_weights_publish(prism_prio_conf_t *c, double *w,
				  uint32_t tres_cnt)
{
	if (!w)
		return;
	if (conf.weight_tres && (conf.tres_cnt == tres_cnt) &&
	    _same_weights(conf.weight_tres, w, tres_cnt)) {
		xfree(w);
		w = (double *) conf.weight_tres;
	} else {
		if (!tres_weight_arrays)
			tres_weight_arrays = list_create(xfree_ptr);
		list_append(tres_weight_arrays, w);
	}
	c->weight_tres = w;
	c->tres_cnt = tres_cnt;
}

extern void prism_conf_load(void)
{
	prism_prio_conf_t c = {
		.weight_age = slurm_conf.priority_weight_age,
		.weight_assoc = slurm_conf.priority_weight_assoc,
		.weight_fs = slurm_conf.priority_weight_fs,
		.weight_js = slurm_conf.priority_weight_js,
		.weight_part = slurm_conf.priority_weight_part,
		.weight_qos = slurm_conf.priority_weight_qos,
		.max_age = slurm_conf.priority_max_age,
		.flags = _core_flags(slurm_conf.priority_flags),
		.favor_small = slurm_conf.priority_favor_small,
	};
	double *weight_tres = NULL;
	uint32_t tres_cnt = 0;

	/*
	 * Only slurmctld has TRES to weigh; elsewhere (sshare) Slurm's parser
	 * would find none and fail. Parsed outside conf_lock: the parser
	 * takes assoc_mgr's TRES lock, and conf_lock stays a leaf lock.
	 */
	if (prism_ctl.tres_cnt && (*prism_ctl.tres_cnt > 0)) {
		tres_cnt = *prism_ctl.tres_cnt;
		weight_tres = slurm_get_tres_weight_array(
			slurm_conf.priority_weight_tres, tres_cnt, true);
	}

	/* As Slurm's plugin: age and fair-share need slurmdbd's data. */
	if (prism_in_controller() && !slurm_with_slurmdbd()) {
		if (c.weight_age)
			error("PriorityWeightAge can only be used with SlurmDBD, ignoring");
		if (c.weight_fs)
			error("PriorityWeightFairshare can only be used with SlurmDBD, ignoring");
		c.weight_age = 0;
		c.weight_fs = 0;
	}

	slurm_mutex_lock(&conf_lock);
	_tres_weights_publish(&c, weight_tres, tres_cnt);
	conf = c;
	slurm_mutex_unlock(&conf_lock);
}

/* Forget the configuration; no snapshot may be in use any more. */
static void _conf_free(void)
{
	slurm_mutex_lock(&conf_lock);
	conf = (prism_prio_conf_t) { 0 };
	FREE_NULL_LIST(tres_weight_arrays);
	slurm_mutex_unlock(&conf_lock);
}

extern void prism_conf_get(prism_prio_conf_t *out)
{
	slurm_mutex_lock(&conf_lock);
	*out = conf;
	slurm_mutex_unlock(&conf_lock);
}

extern void prism_world_get(prism_world_t *world)
{
	world->cluster_cpus = prism_ctl.cluster_cpus ?
			      *prism_ctl.cluster_cpus : 0;
	world->node_count = node_record_count > 0 ? node_record_count : 0;
}

extern bool prism_in_controller(void)
{
	return prism_ctl.job_list != NULL;
}

static void _find_controller(void)
{
	prism_ctl.job_list = dlsym(RTLD_DEFAULT, "job_list");
	prism_ctl.cluster_cpus = dlsym(RTLD_DEFAULT, "cluster_cpus");
	prism_ctl.tres_cnt = dlsym(RTLD_DEFAULT, "slurmctld_tres_cnt");
	prism_ctl.last_job_update = dlsym(RTLD_DEFAULT, "last_job_update");
	prism_ctl.acct_db_conn = dlsym(RTLD_DEFAULT, "acct_db_conn");
	if (!prism_ctl.job_list || !prism_ctl.cluster_cpus ||
	    !prism_ctl.tres_cnt || !prism_ctl.last_job_update ||
	    !prism_ctl.acct_db_conn)
		prism_ctl = (prism_ctl_t) { 0 };
}

PRISM_EXPORT extern int init(void)
{
	_find_controller();
	if (prism_in_controller() && prism_policy_load(true) != SLURM_SUCCESS)
		return SLURM_ERROR;	/* slurmctld refuses to start */
	prism_conf_load();
	if (!prism_in_controller()) {
		debug("%s loaded outside slurmctld", plugin_type);
		return SLURM_SUCCESS;
	}
	prism_usage_conf_load();
	site_factor_plugin_init();
	if (prism_recalc_start() != SLURM_SUCCESS) {
		site_factor_plugin_fini();
		prism_policy_fini();
		_conf_free();
		return SLURM_ERROR;
	}
	info("%s loaded", plugin_type);
	return SLURM_SUCCESS;
}

PRISM_EXPORT extern int fini(void)
{
	if (prism_in_controller()) {
		prism_recalc_stop();
		site_factor_plugin_fini();
		prism_fs_tree_fini();
		prism_moab_usage_save();
		prism_ge_usage_save();
		prism_policy_fini();
		prism_moab_job_fini();
		prism_ge_job_fini();
	}
	_conf_free();
	return SLURM_SUCCESS;
}

/* Submit path: called with the job write lock held. */
PRISM_EXPORT extern uint32_t priority_p_set(uint32_t last_prio,
					    job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };
	prism_prio_conf_t c;
	prism_world_t world;
	uint32_t prio;

	site_factor_g_set(job_ptr);
	prism_conf_get(&c);
	prism_world_get(&world);
	assoc_mgr_lock(&locks);
	prism_policy_lock();
	if (prism_moab_policy())
		prio = prism_moab_job_compute(job_ptr, time(NULL));
	else if (prism_ge_policy())
		prio = prism_ge_job_compute(job_ptr, time(NULL));
	else
		prio = prism_job_compute(job_ptr, &c, &world, time(NULL));
	prism_policy_unlock();
	assoc_mgr_unlock(&locks);
	debug2("%s: initial priority for %pJ is %u", plugin_type, job_ptr,
	       prio);
	return prio;
}

/* Normalise the shares of 'children' and their subtrees again. */
static void _normalize_shares(List children)
{
	slurmdb_assoc_rec_t *assoc;
	ListIterator itr;

	if (!children)
		return;
	itr = list_iterator_create(children);
	while ((assoc = list_next(itr))) {
		assoc_mgr_normalize_assoc_shares(assoc);
		if (!assoc->user)
			_normalize_shares(assoc->usage->children_list);
	}
	list_iterator_destroy(itr);
}

PRISM_EXPORT extern void priority_p_reconfig(bool assoc_clear)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	prism_prio_conf_t before, after;

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
	if ((before.flags ^ after.flags) & PRISM_F_FAIR_TREE) {
		assoc_mgr_lock(&locks);
		if (assoc_mgr_root_assoc)
			_normalize_shares(
				assoc_mgr_root_assoc->usage->children_list);
		assoc_mgr_unlock(&locks);
	}
	/* slurmctld rebuilt the run-seconds counters of running jobs */
	if (assoc_clear)
		prism_usage_init_run_secs(prism_recalc_last_ran());
	site_factor_g_reconfig();
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

PRISM_EXPORT extern double priority_p_calc_fs_factor(long double usage_efctv,
						     long double shares_norm)
{
	if (fuzzy_equal(usage_efctv, NO_VAL))
		return 0.0;
	return prism_fs_factor(usage_efctv, shares_norm,
			       slurm_conf.fs_dampening_factor);
}

PRISM_EXPORT extern List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	if (!prism_in_controller())
		return NULL;
	return prism_job_factors_list(req_msg, uid);
}

/*
 * Called when a job ends, with the job write lock held: charge its usage
 * since the last pass and settle its unused run-seconds.
 */
PRISM_EXPORT extern void priority_p_job_end(job_record_t *job_ptr)
{
	time_t last = prism_recalc_last_ran(), now = time(NULL);

	log_flag(PRIO, "%s: %pJ ended", plugin_type, job_ptr);
	prism_policy_lock();
	if (prism_moab_policy() && last)
		prism_moab_charge(job_ptr, last, now);
	prism_ge_charge(job_ptr, last, now);
	prism_policy_unlock();
	(void) prism_usage_charge_job(job_ptr, last, now, true);
}
