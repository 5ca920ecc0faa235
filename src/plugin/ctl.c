/*****************************************************************************\
 *  ctl.c - the controller's globals, the multifactor configuration
 *  snapshot (weights, flags, PriorityWeightTRES) and the cluster's size.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "src/common/assoc_mgr.h"
#include "src/common/xmalloc.h"

#include "ctl.h"
#include "prism_tres.h"

prism_ctl_t prism_ctl;

static pthread_mutex_t conf_lock = PTHREAD_MUTEX_INITIALIZER;
static prism_prio_conf_t conf;
static uint32_t calc_period;	/* PriorityCalcPeriod, seconds */

/*
 * PriorityWeightTRES arrays. conf.weight_tres points to the newest; every
 * snapshot prism_conf_get() handed out shares it without a reference, and
 * a recalculation pass may use its snapshot long after a reconfig. So an
 * array is never changed or freed once published: a reconfig that changes
 * the weights publishes a new one and keeps the old one here until fini().
 * A reconfig with the same weights publishes nothing, so this list only
 * grows when an operator edits PriorityWeightTRES.
 */
static list_t *tres_weight_arrays;	/* of double[], under conf_lock */

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
 * over; NULL: not set) into 'c', with the order of its TRES (kept with
 * it). Caller holds conf_lock.
 */
static void _tres_weights_publish(prism_prio_conf_t *c, double *w,
				  uint32_t tres_cnt)
{
	if (!w)
		return;
	if (conf.weight_tres && (conf.tres_cnt == tres_cnt) &&
	    _same_weights(conf.weight_tres, w, tres_cnt)) {
		xfree(w);
		c->weight_tres = conf.weight_tres;
		c->tres_order = conf.tres_order;
		c->tres_on = conf.tres_on;
	} else {
		uint32_t *order = xcalloc(tres_cnt ? tres_cnt : 1,
					  sizeof(*order));

		c->tres_on = prism_tres_wt_order(w, tres_cnt, order);
		if (!tres_weight_arrays)
			tres_weight_arrays = list_create(xfree_ptr);
		list_append(tres_weight_arrays, w);
		list_append(tres_weight_arrays, order);
		c->weight_tres = w;
		c->tres_order = order;
	}
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
		.small_node_floor = PRISM_JS_NODE_FLOOR,
	};
	double *weight_tres = NULL;
	uint32_t tres_cnt = 0;
	uint32_t period = slurm_conf.priority_calc_period;

	/*
	 * Only slurmctld has TRES to weigh; elsewhere (sshare) Slurm's parser
	 * would find none and fail. Parsed outside conf_lock: the parser
	 * takes assoc_mgr's TRES lock, and conf_lock stays a leaf lock.
	 */
	if (prism_ctl_tres_cnt() > 0) {
		tres_cnt = prism_ctl_tres_cnt();
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
	calc_period = period;
	slurm_mutex_unlock(&conf_lock);
}

extern void prism_conf_free(void)
{
	slurm_mutex_lock(&conf_lock);
	conf = (prism_prio_conf_t) { 0 };
	calc_period = 0;
	FREE_NULL_LIST(tres_weight_arrays);
	slurm_mutex_unlock(&conf_lock);
}

extern void prism_conf_get(prism_prio_conf_t *out)
{
	slurm_mutex_lock(&conf_lock);
	*out = conf;
	slurm_mutex_unlock(&conf_lock);
}

extern uint32_t prism_conf_calc_period(void)
{
	uint32_t period;

	slurm_mutex_lock(&conf_lock);
	period = calc_period;
	slurm_mutex_unlock(&conf_lock);
	return period ? period : 1;
}

extern void prism_world_get(prism_world_t *world)
{
	world->cluster_cpus = prism_ctl.cluster_cpus ?
			      *prism_ctl.cluster_cpus : 0;
	world->node_count = prism_node_count();
}

extern bool prism_in_controller(void)
{
	return prism_ctl.job_list != NULL;
}

extern bool prism_ctl_control_given_away(time_t now)
{
	const slurmctld_config_t *c = prism_ctl.config;
	time_t asked;

	/* (two plain words another thread writes: a stale read only moves
	 * the moment by one save) */
	if (!c || !c->resume_backup || !c->shutdown_time)
		return false;
	asked = c->shutdown_time;
	return now >= asked + CONTROL_TIMEOUT - 1 - PRISM_HANDOVER_MARGIN;
}

extern int prism_ctl_find(void)
{
	const struct {
		const char *name;
		void **where;
		bool needed;	/* outside slurmctld too */
	} syms[] = {
		{ "job_list", (void **) &prism_ctl.job_list, true },
		{ "cluster_cpus", (void **) &prism_ctl.cluster_cpus, true },
		{ "last_job_update", (void **) &prism_ctl.last_job_update,
		  true },
		{ "acct_db_conn", (void **) &prism_ctl.acct_db_conn, true },
		{ "slurmctld_tres_cnt", (void **) &prism_ctl.tres_cnt, false },
		{ "last_part_update", (void **) &prism_ctl.last_part_update,
		  false },
		{ "slurmctld_config", (void **) &prism_ctl.config, false },
	};
	bool in_ctld = prism_running_in_slurmctld(), found = true;

	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].where = dlsym(RTLD_DEFAULT, syms[i].name);
		if (*syms[i].where)
			continue;
		if (in_ctld) {
			error("%s: this slurmctld (Slurm %s) has no symbol '%s' that the plugin reads: it cannot compute priorities here and is not loaded",
			      PRISM_PLUGIN_TYPE, SLURM_VERSION_STRING,
			      syms[i].name);
			prism_ctl = (prism_ctl_t) { 0 };
			return SLURM_ERROR;
		}
		if (syms[i].needed)
			found = false;
	}
	if (!found)
		prism_ctl = (prism_ctl_t) { 0 };
	return SLURM_SUCCESS;
}
