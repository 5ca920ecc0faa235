/*****************************************************************************\
 *  prism_moab_job.c - one job through the Moab policy core: read its
 *  record into a prism_moab_job_t, write back its priority, the sprio
 *  columns and priority_array; charge its fair-share usage; hold a job
 *  whose priority is negative under REJECTNEGPRIOJOBS.
 *
 *  What each Slurm field stands for (README, "Moab/Maui policy"):
 *  user, group, account, QOS and partition are the USER, GROUP, ACCOUNT,
 *  QOS and CLASS credentials; the queue time is counted from the job's
 *  accrue time; nice is USERPRIO (negated); an admin-set priority is the
 *  system priority (SPRIO); node features are ATTR[], GRES and licenses
 *  are GRES[].
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"
#include "src/common/slurm_priority.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "prism_adapter.h"
#include "prism_idmap.h"
#include "prism_moab.h"

/* state_desc of a job Prism holds; how it knows its own holds again. */
#define HOLD_MARK "Prism: "

/* uid -> USER handle, gid -> GROUP handle of the policy in force. */
static prism_idmap_t *uid_handles, *gid_handles;
static uint64_t handles_gen;	/* prism_policy_generation() they are of */

/* Drop the cached handles when the policy changed. Caller holds policy_lock. */
static void _handles_check(void)
{
	if (handles_gen == prism_policy_generation())
		return;
	if (!uid_handles)
		uid_handles = prism_idmap_create();
	if (!gid_handles)
		gid_handles = prism_idmap_create();
	prism_idmap_clear(uid_handles);
	prism_idmap_clear(gid_handles);
	handles_gen = prism_policy_generation();
}

extern void prism_moab_job_fini(void)
{
	prism_idmap_free(uid_handles);
	prism_idmap_free(gid_handles);
	uid_handles = gid_handles = NULL;
	handles_gen = 0;
}

static uint32_t _user(const prism_moab_policy_t *p, uid_t uid)
{
	uint32_t h;

	if (prism_idmap_get(uid_handles, uid, &h))
		return h;
	h = prism_moab_cred_find(p, PRISM_MOAB_USER,
				 uid_to_string_cached(uid));
	(void) prism_idmap_put(uid_handles, uid, h);
	return h;
}

static uint32_t _group(const prism_moab_policy_t *p, gid_t gid)
{
	uint32_t h;
	char *name;

	if (prism_idmap_get(gid_handles, gid, &h))
		return h;
	name = gid_to_string_or_null(gid);
	h = name ? prism_moab_cred_find(p, PRISM_MOAB_GROUP, name) :
		   PRISM_MOAB_NONE;
	xfree(name);
	(void) prism_idmap_put(gid_handles, gid, h);
	return h;
}

static uint32_t _named(const prism_moab_policy_t *p, prism_moab_cred_kind_t k,
		       const char *name)
{
	return name ? prism_moab_cred_find(p, k, name) : PRISM_MOAB_NONE;
}

/* Moab's name for the state of 'job_ptr'. */
static prism_moab_state_t _state(const job_record_t *job_ptr, time_t now)
{
	if (IS_JOB_CONFIGURING(job_ptr))
		return PRISM_MOAB_STARTING;
	if (IS_JOB_RUNNING(job_ptr))
		return PRISM_MOAB_RUNNING;
	if (IS_JOB_SUSPENDED(job_ptr))
		return PRISM_MOAB_SUSPENDED;
	if (!job_ptr->priority)
		return PRISM_MOAB_HOLD;
	if (job_ptr->state_reason == WAIT_DEPENDENCY ||
	    (job_ptr->details && job_ptr->details->begin_time > now))
		return PRISM_MOAB_BLOCKED;
	return PRISM_MOAB_IDLE;
}

/* The GRES bits of every TRES request string and the licenses. */
static uint64_t _gres_mask(const prism_moab_policy_t *p,
			   const job_record_t *job_ptr)
{
	return prism_moab_gres_mask(p, job_ptr->tres_per_job) |
	       prism_moab_gres_mask(p, job_ptr->tres_per_node) |
	       prism_moab_gres_mask(p, job_ptr->tres_per_socket) |
	       prism_moab_gres_mask(p, job_ptr->tres_per_task) |
	       prism_moab_gres_mask(p, job_ptr->licenses);
}

/* The job's times and sizes in Slurm's units, for prism_moab_job_raw(). */
static prism_moab_raw_t _raw(const job_record_t *job_ptr, time_t now)
{
	const struct job_details *details = job_ptr->details;
	uint32_t limit = prism_job_time_limit(job_ptr);

	return (prism_moab_raw_t) {
		.now = now,
		.accrue_time = details->accrue_time,
		.start_time = job_ptr->start_time,
		.suspended = job_ptr->tot_sus_time,
		.time_limit = (limit == INFINITE || limit == NO_VAL) ? 0 : limit,
		.disk_per_node = details->pn_min_tmp_disk,
		.nice = (int64_t) details->nice - (int64_t) NICE_OFFSET,
	};
}

/*
 * The inputs that depend on the partition: CLASS, its PriorityJobFactor
 * and its totals for PE (kept in 'tot', which 'in' then points to).
 */
static void _in_part(const prism_moab_policy_t *p,
		     const part_record_t *part_ptr, prism_moab_job_t *in,
		     prism_moab_totals_t *tot)
{
	in->cred[PRISM_MOAB_CLASS] = _named(p, PRISM_MOAB_CLASS,
					    part_ptr ? part_ptr->name : NULL);
	in->class_prio = 0;
	in->part = NULL;
	if (!part_ptr)
		return;
	in->class_prio = part_ptr->priority_job_factor;
	*tot = (prism_moab_totals_t) {
		.procs = part_ptr->total_cpus,
		.mem_mb = part_ptr->tres_cnt ?
			  part_ptr->tres_cnt[TRES_ARRAY_MEM] : 0,
	};
	in->part = tot;
}

/*
 * Read 'job_ptr' in partition 'part_ptr' into 'in' ('tot' holds the
 * partition's totals). Caller holds the job lock, the assoc_mgr QOS read
 * lock and policy_lock.
 */
static void _inputs(const prism_moab_policy_t *p, job_record_t *job_ptr,
		    const part_record_t *part_ptr, time_t now,
		    prism_moab_job_t *in, prism_moab_totals_t *tot)
{
	const struct job_details *details = job_ptr->details;
	const slurmdb_qos_rec_t *qos = job_ptr->qos_ptr;
	prism_moab_raw_t raw = _raw(job_ptr, now);

	*in = (prism_moab_job_t) {
		.procs = prism_job_cpus(job_ptr),
		.start_count = job_ptr->restart_cnt,
		.deadline = job_ptr->deadline,
		.state = _state(job_ptr, now),
		.attr_mask = prism_moab_attr_mask(p, details->features),
		.gres_mask = _gres_mask(p, job_ptr),
	};
	in->cred[PRISM_MOAB_USER] = _user(p, job_ptr->user_id);
	in->cred[PRISM_MOAB_GROUP] = _group(p, job_ptr->group_id);
	in->cred[PRISM_MOAB_ACCOUNT] = _named(p, PRISM_MOAB_ACCOUNT,
					      job_ptr->account);
	in->cred[PRISM_MOAB_QOS] = _named(p, PRISM_MOAB_QOS,
					  qos ? qos->name : NULL);
	_in_part(p, part_ptr, in, tot);
	in->nodes = IS_JOB_PENDING(job_ptr) ? details->min_nodes :
					      job_ptr->node_cnt;
	if (job_ptr->tres_req_cnt)
		in->mem_mb = job_ptr->tres_req_cnt[TRES_ARRAY_MEM];
	prism_moab_job_raw(&raw, in);
	if (job_ptr->direct_set_prio && job_ptr->priority)
		in->sys_prio = prism_moab_sys_prio(p, job_ptr->priority);
	prism_moab_users_fill(prism_moab_users(), job_ptr->user_id, in);
}

extern bool prism_moab_held(const job_record_t *job_ptr)
{
	return !job_ptr->priority && job_ptr->state_reason == WAIT_HELD &&
	       !xstrncmp(job_ptr->state_desc, HOLD_MARK, strlen(HOLD_MARK));
}

/* REJECTNEGPRIOJOBS: keep the job pending, held, with a reason. */
static void _hold(job_record_t *job_ptr, const prism_moab_result_t *res)
{
	job_ptr->state_reason = WAIT_HELD;
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup_printf(
		HOLD_MARK "Moab priority %" PRId64 " is negative and REJECTNEGPRIOJOBS is set",
		res->prio);
}

extern void prism_moab_release(job_record_t *job_ptr)
{
	if (!prism_moab_held(job_ptr))
		return;
	job_ptr->state_reason = WAIT_NO_REASON;
	xfree(job_ptr->state_desc);
}

/* sprio's columns (README: which column carries which component). */
static void _store_columns(job_record_t *job_ptr,
			   const prism_moab_columns_t *c)
{
	priority_factors_object_t *f = prism_job_reset_factors(job_ptr, 0);

	f->priority_age = c->serv;
	f->priority_assoc = c->cred;
	f->priority_fs = c->fs;
	f->priority_js = c->res;
	f->priority_part = c->attr;
	f->priority_qos = c->target_usage;
	f->priority_site = (uint32_t) (c->rest + (int64_t) NICE_OFFSET);
	f->nice = NICE_OFFSET;
}

extern void prism_moab_factors_rebase(priority_factors_object_t *f,
				      uint32_t slurm)
{
	prism_moab_columns_t c = {
		.serv = f->priority_age, .cred = f->priority_assoc,
		.fs = f->priority_fs, .res = f->priority_js,
		.attr = f->priority_part, .target_usage = f->priority_qos,
	};

	prism_moab_columns_rebase(&c, slurm);
	f->priority_site = (uint32_t) (c.rest + (int64_t) NICE_OFFSET);
}

/* The Moab result of 'job_ptr' from its inputs 'in'; false on a core
 * error. */
static bool _result(const prism_moab_policy_t *p, job_record_t *job_ptr,
		    const prism_moab_job_t *in, time_t now,
		    prism_moab_result_t *res)
{
	prism_moab_pass_t pass = { .pol = p, .usage = prism_moab_usage(),
				   .now = now };
	prism_error_t err = { "" };

	if (prism_moab_prio(&pass, in, res, &err)) {
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
		return false;
	}
	return true;
}

/*
 * One priority per partition of a multi-partition job, tier order: the
 * job's inputs 'in' with each partition's part put in.
 */
static void _priority_array(const prism_moab_policy_t *p,
			    job_record_t *job_ptr, const prism_moab_job_t *in,
			    time_t now)
{
	ListIterator itr = prism_job_parts_begin(job_ptr);
	part_record_t *part_ptr;
	int i = 0;

	while ((part_ptr = list_next(itr))) {
		prism_moab_job_t in_part = *in;
		prism_moab_totals_t tot;
		prism_moab_result_t res;

		_in_part(p, part_ptr, &in_part, &tot);
		if (!_result(p, job_ptr, &in_part, now, &res) || res.reject)
			job_ptr->priority_array[i] = 0;
		else
			job_ptr->priority_array[i] = res.slurm;
		i++;
	}
	list_iterator_destroy(itr);
}

extern uint32_t prism_moab_job_compute(job_record_t *job_ptr, time_t now)
{
	const prism_moab_policy_t *p = prism_moab_policy();
	prism_moab_result_t res;
	prism_moab_columns_t cols;
	prism_moab_totals_t tot;
	prism_moab_job_t in;

	if (!job_ptr->details) {
		error("%s: %pJ has no details, cannot set its priority",
		      plugin_type, job_ptr);
		prism_job_clear_factors(job_ptr);
		return 0;
	}
	_handles_check();
	_inputs(p, job_ptr, job_ptr->part_ptr, now, &in, &tot);
	if (!_result(p, job_ptr, &in, now, &res)) {
		prism_job_clear_factors(job_ptr);
		return job_ptr->priority;
	}
	if (res.reject) {
		log_flag(PRIO, "%pJ Moab priority %" PRId64 " < 0: held (REJECTNEGPRIOJOBS)",
			 job_ptr, res.prio);
		_hold(job_ptr, &res);
		prism_job_clear_factors(job_ptr);
		return 0;
	}
	prism_moab_release(job_ptr);
	prism_moab_columns(&res, &cols);
	_store_columns(job_ptr, &cols);
	log_flag(PRIO, "%pJ Moab priority: cred %.2f + fs %.2f + res %.2f + serv %.2f + target %.2f + usage %.2f + attr %.2f = %" PRId64 " (slurm %u)",
		 job_ptr, res.comp[PRISM_MC_CRED], res.comp[PRISM_MC_FS],
		 res.comp[PRISM_MC_RES], res.comp[PRISM_MC_SERV],
		 res.comp[PRISM_MC_TARGET], res.comp[PRISM_MC_USAGE],
		 res.comp[PRISM_MC_ATTR], res.prio, res.slurm);
	if (job_ptr->part_ptr_list)
		_priority_array(p, job_ptr, &in, now);
	return res.slurm;
}

extern void prism_moab_charge(job_record_t *job_ptr, time_t start,
			      time_t end)
{
	const prism_moab_policy_t *p = prism_moab_policy();
	prism_moab_usage_t *u = prism_moab_usage();
	prism_moab_totals_t tot;
	prism_moab_job_t in;
	prism_error_t err = { "" };
	double amount;

	if (!p || !u || !job_ptr->details || !job_ptr->start_time)
		return;
	if (start < job_ptr->start_time)
		start = job_ptr->start_time;
	if (end <= start)
		return;
	_handles_check();
	_inputs(p, job_ptr, job_ptr->part_ptr, end, &in, &tot);
	amount = prism_moab_usage_amount(p, &in, (double) (end - start));
	if (amount > 0.0 &&
	    prism_moab_usage_charge(u, in.cred, amount, &err))
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
}

extern void prism_moab_count_active(job_record_t *job_ptr)
{
	prism_moab_raw_t raw;
	prism_moab_job_t in = { 0 };

	if (!prism_moab_policy() || !job_ptr->details ||
	    !(IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)))
		return;
	raw = _raw(job_ptr, time(NULL));
	prism_moab_job_raw(&raw, &in);	/* the limit in seconds */
	(void) prism_moab_users_add(prism_moab_users(), job_ptr->user_id,
				    prism_job_cpus(job_ptr), in.wclimit);
}
