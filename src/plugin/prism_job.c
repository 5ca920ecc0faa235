/*****************************************************************************\
 *  prism_job.c - one job through the core: read its record into a
 *  prism_job_t, write back its priority, priority_array and the weighted
 *  factors sprio shows; and sprio's factor list.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "prism_adapter.h"
#include "prism_tres.h"

_Static_assert(PRISM_TRES_NO_CONSUME == NO_CONSUME_VAL64,
	       "the core's no-consume marker must be Slurm's");

/* The partition factor of 'part_ptr' as configured (normalised or raw). */
static double _part_factor(const prism_prio_conf_t *conf,
			   const part_record_t *part_ptr)
{
	if (!part_ptr || !part_ptr->priority_job_factor)
		return 0.0;
	return prism_pick_factor(conf->flags & PRISM_F_NO_NORMAL_PART,
				 part_ptr->norm_priority,
				 part_ptr->priority_job_factor);
}

extern uint32_t prism_job_cpus(const job_record_t *job_ptr)
{
	const struct job_details *details = job_ptr->details;

	if (job_ptr->total_cpus)
		return job_ptr->total_cpus;
	if (details->max_cpus != NO_VAL)
		return details->max_cpus;
	return details->min_cpus;
}

extern uint32_t prism_job_time_limit(const job_record_t *job_ptr)
{
	if (job_ptr->time_limit != NO_VAL)
		return job_ptr->time_limit;
	if (job_ptr->part_ptr)
		return job_ptr->part_ptr->max_time;
	return 1;
}

/* The number of TRES slurmctld tracks now (its arrays' length). */
static uint32_t _ctl_tres_cnt(void)
{
	if (!prism_ctl.tres_cnt || (*prism_ctl.tres_cnt < 0))
		return 0;
	return *prism_ctl.tres_cnt;
}

/* The TRES both the weights in 'conf' and slurmctld's arrays cover. */
static uint32_t _tres_cnt(const prism_prio_conf_t *conf)
{
	return MIN(conf->tres_cnt, _ctl_tres_cnt());
}

static prism_tres_use_t _tres_use(const job_record_t *job_ptr)
{
	return (prism_tres_use_t) { .alloc = job_ptr->tres_alloc_cnt,
				    .req = job_ptr->tres_req_cnt };
}

/* The weighted TRES term of 'job_ptr' in 'part_ptr'; 0 without weights. */
static double _tres_term(const job_record_t *job_ptr,
			 const part_record_t *part_ptr,
			 const prism_prio_conf_t *conf)
{
	prism_tres_use_t use = _tres_use(job_ptr);

	return prism_tres_term(&use, part_ptr ? part_ptr->tres_cnt : NULL,
			       conf->weight_tres, _tres_cnt(conf),
			       conf->flags & PRISM_F_NO_NORMAL_TRES);
}

/* Caller holds the assoc_mgr assoc and QOS read locks. */
static void _job_inputs(const job_record_t *job_ptr,
			const prism_prio_conf_t *conf, prism_job_t *in)
{
	const struct job_details *details = job_ptr->details;
	const slurmdb_assoc_rec_t *assoc = job_ptr->assoc_ptr;
	const slurmdb_qos_rec_t *qos = job_ptr->qos_ptr;

	*in = (prism_job_t) {
		.accrue_time = details->accrue_time,
		.cpus = prism_job_cpus(job_ptr),
		.min_nodes = details->min_nodes,
		.time_limit = prism_job_time_limit(job_ptr),
		.part_factor = _part_factor(conf, job_ptr->part_ptr),
		.site = job_ptr->site_factor,
		.nice = details->nice,
	};
	if (conf->weight_fs && assoc)
		in->fs_factor = prism_fs_job_factor((job_record_t *) job_ptr,
						    conf);
	if (assoc && assoc->usage)
		in->assoc_factor = prism_pick_factor(
			conf->flags & PRISM_F_NO_NORMAL_ASSOC,
			assoc->usage->priority_norm, assoc->priority);
	if (qos && qos->priority && qos->usage)
		in->qos_factor = prism_pick_factor(
			conf->flags & PRISM_F_NO_NORMAL_QOS,
			qos->usage->norm_priority, qos->priority);
}

extern void prism_job_clear_factors(job_record_t *job_ptr)
{
	priority_factors_object_t *f = job_ptr->prio_factors;

	if (!f)
		return;
	xfree(f->tres_weights);
	xfree(f->tres_names);
	xfree(f->priority_tres);
	memset(f, 0, sizeof(*f));
}

/*
 * Arrays of the right size are reused, so a recalculation pass does not
 * reallocate them for every job.
 */
extern priority_factors_object_t *prism_job_reset_factors(
	job_record_t *job_ptr, uint32_t tres_cnt)
{
	priority_factors_object_t *f = job_ptr->prio_factors;
	double *tres = NULL, *weights = NULL;

	if (!f) {
		f = xmalloc(sizeof(*f));
		job_ptr->prio_factors = f;
	}
	if (tres_cnt && (f->tres_cnt == tres_cnt) && f->priority_tres &&
	    f->tres_weights) {
		tres = f->priority_tres;
		weights = f->tres_weights;
		f->priority_tres = f->tres_weights = NULL;
		memset(tres, 0, sizeof(double) * tres_cnt);
	} else if (tres_cnt) {
		tres = xcalloc(tres_cnt, sizeof(double));
		weights = xcalloc(tres_cnt, sizeof(double));
	}
	prism_job_clear_factors(job_ptr);
	f->priority_tres = tres;
	f->tres_weights = weights;
	f->tres_cnt = tres_cnt;
	return f;
}

/*
 * Store the weighted terms 't' and, with PriorityWeightTRES, the per-TRES
 * weighted values of the job's own partition (what sprio shows). Returns
 * the TRES term: the sum of those values, 0 without weights.
 */
static double _store_factors(job_record_t *job_ptr,
			     const prism_prio_conf_t *conf,
			     const prism_terms_t *t)
{
	uint32_t tres_cnt = conf->weight_tres ? _tres_cnt(conf) : 0;
	priority_factors_object_t *f = prism_job_reset_factors(job_ptr, tres_cnt);
	prism_tres_use_t use = _tres_use(job_ptr);
	part_record_t *part_ptr = job_ptr->part_ptr;

	f->priority_age = t->age;
	f->priority_assoc = t->assoc;
	f->priority_fs = t->fs;
	f->priority_js = t->js;
	f->priority_part = t->part;
	f->priority_qos = t->qos;
	f->priority_site = t->site;
	f->nice = t->nice;
	if (!tres_cnt)
		return 0.0;
	memcpy(f->tres_weights, conf->weight_tres, sizeof(double) * tres_cnt);
	prism_tres_factors(&use, part_ptr ? part_ptr->tres_cnt : NULL,
			   tres_cnt, conf->flags & PRISM_F_NO_NORMAL_TRES,
			   f->priority_tres);
	return prism_tres_weigh(conf->weight_tres, tres_cnt,
				f->priority_tres);
}

extern ListIterator prism_job_parts_begin(job_record_t *job_ptr)
{
	if (!job_ptr->priority_array)
		job_ptr->priority_array =
			xcalloc(list_count(job_ptr->part_ptr_list) + 1,
				sizeof(uint32_t));
	list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
	return list_iterator_create(job_ptr->part_ptr_list);
}

/* One priority per partition of a multi-partition job, tier order. */
static void _store_priority_array(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf,
				  const prism_terms_t *t)
{
	bool incr_only = conf->flags & PRISM_F_INCR_ONLY;
	ListIterator itr = prism_job_parts_begin(job_ptr);
	part_record_t *part_ptr;
	int i = 0;

	while ((part_ptr = list_next(itr))) {
		double part_term =
			prism_part_term(conf, _part_factor(conf, part_ptr));
		double tres_term = _tres_term(job_ptr, part_ptr, conf);
		bool high = false;
		uint32_t prio = prism_prio_total_in_part(t, part_term,
							 tres_term, &high);

		if (high)
			error("%pJ priority in partition %s exceeds 32 bits, reduced to %u",
			      job_ptr, part_ptr->name, prio);
		job_ptr->priority_array[i] = prism_prio_update(
			incr_only, job_ptr->priority_array[i], prio);
		i++;
	}
	list_iterator_destroy(itr);
}

extern uint32_t prism_job_compute(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf,
				  const prism_world_t *world, time_t now)
{
	prism_job_t in;
	prism_terms_t terms;
	uint32_t prio;
	bool high = false;

	if (job_ptr->direct_set_prio && job_ptr->priority) {
		prism_job_clear_factors(job_ptr);
		return job_ptr->priority;
	}
	if (!job_ptr->details) {
		error("%s: %pJ has no details, cannot set its priority",
		      "priority/prism", job_ptr);
		prism_job_clear_factors(job_ptr);
		return 0;
	}

	_job_inputs(job_ptr, conf, &in);
	prism_prio_terms(conf, world, &in, now, &terms);
	terms.tres = _store_factors(job_ptr, conf, &terms);
	prio = prism_prio_total(&terms, &high);
	if (high)
		error("%pJ priority exceeds 32 bits, reduced to %u", job_ptr,
		      prio);
	log_flag(PRIO, "%pJ priority: site %" PRId64 " + age %.2f + assoc %.2f + fairshare %.2f + jobsize %.2f + partition %.2f + qos %.2f + tres %.2f - nice %" PRId64 " = %u",
		 job_ptr, prism_term_site(&terms), terms.age, terms.assoc,
		 terms.fs, terms.js, terms.part, terms.qos, terms.tres,
		 prism_term_nice(&terms), prio);
	if (job_ptr->part_ptr_list)
		_store_priority_array(job_ptr, conf, &terms);
	return prio;
}

/* May 'uid' see 'job_ptr' under PrivateData=jobs? */
static bool _may_see(const job_record_t *job_ptr, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS))
		return true;
	if (job_ptr->user_id == uid || validate_operator(uid))
		return true;
	if (slurm_mcs_get_privatedata() == 1)
		return mcs_g_check_mcs_label(uid, job_ptr->mcs_label, false) ==
		       0;
	return assoc_mgr_is_user_acct_coord(*prism_ctl.acct_db_conn, uid,
					    job_ptr->account);
}

/* Is 'job_ptr' one sprio lists at 'now'? */
static bool _listed(const job_record_t *job_ptr,
		    const prism_prio_conf_t *conf, time_t now)
{
	time_t eligible;

	if (!(conf->flags & PRISM_F_CALCULATE_RUNNING) &&
	    !IS_JOB_PENDING(job_ptr))
		return false;
	if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
		return false;
	eligible = (conf->flags & PRISM_F_ACCRUE_ALWAYS) ?
		   job_ptr->details->submit_time :
		   job_ptr->details->begin_time;
	if (!eligible || eligible > now)
		return false;
	return job_ptr->priority != 0;	/* held */
}

static bool _uint_in_list(List list, uint32_t value)
{
	uint32_t *v;
	ListIterator itr;
	bool found = false;

	if (!list)
		return true;
	itr = list_iterator_create(list);
	while ((v = list_next(itr)))
		if (*v == value) {
			found = true;
			break;
		}
	list_iterator_destroy(itr);
	return found;
}

static int _same_ptr(void *x, void *key)
{
	return x == key;
}

static bool _part_wanted(List part_filter, part_record_t *part_ptr)
{
	return !part_filter || list_find_first(part_filter, _same_ptr,
					       part_ptr);
}

/*
 * Turn the copied per-TRES values in 'obj' into those of 'part_ptr', the
 * way multifactor builds sprio's row for each partition of a job: over
 * the job's weighted values, so an entry that gets no factor in
 * 'part_ptr' keeps the job's value and is weighted once more.
 */
static void _tres_in_part(priority_factors_object_t *obj,
			  const job_record_t *job_ptr,
			  const part_record_t *part_ptr,
			  const prism_prio_conf_t *conf)
{
	prism_tres_use_t use = _tres_use(job_ptr);
	uint32_t cnt = MIN(obj->tres_cnt, _ctl_tres_cnt());

	prism_tres_factors(&use, part_ptr->tres_cnt, cnt,
			   conf->flags & PRISM_F_NO_NORMAL_TRES,
			   obj->priority_tres);
	(void) prism_tres_weigh(conf->weight_tres, MIN(cnt, conf->tres_cnt),
				obj->priority_tres);
}

/* What a factor list is built for. */
typedef struct {
	priority_factors_request_msg_t *req_msg;
	List part_filter;
	prism_prio_conf_t conf;
	bool moab;		/* the Moab policy's columns */
	bool ge;		/* the Grid Engine policy's columns */
} rows_t;

/*
 * Append the row of 'job_ptr' in 'part_ptr', its partition number 'i'
 * (-1: the job has one partition).
 */
static void _append_row(List ret, const job_record_t *job_ptr,
			part_record_t *part_ptr, const rows_t *rows, int i)
{
	const prism_prio_conf_t *conf = &rows->conf;
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));
	bool one_part = i < 0, own = rows->moab || rows->ge;

	if ((one_part || own) && job_ptr->direct_set_prio)
		obj->direct_prio = job_ptr->priority;
	else
		slurm_copy_priority_factors_object(obj, job_ptr->prio_factors);
	if (!one_part && rows->moab) {
		/* the columns of the job's partition; this partition's
		 * priority differs in the rest (SITE) */
		if (!obj->direct_prio && job_ptr->priority_array)
			prism_moab_factors_rebase(obj,
						  job_ptr->priority_array[i]);
	} else if (!one_part && rows->ge) {
		/* this partition's priority differs in the urgency (AGE) */
		if (!obj->direct_prio && job_ptr->priority_array)
			prism_ge_factors_rebase(obj,
						job_ptr->priority_array[i]);
	} else if (!one_part) {
		obj->priority_part =
			prism_part_term(conf, _part_factor(conf, part_ptr));
		if (obj->priority_tres)
			_tres_in_part(obj, job_ptr, part_ptr, conf);
	}
	obj->job_id = job_ptr->job_id;
	obj->partition = part_ptr->name;
	obj->user_id = job_ptr->user_id;
	list_append(ret, obj);
}

static void _add_job_rows(List ret, const job_record_t *job_ptr,
			  const rows_t *rows)
{
	part_record_t *part_ptr;
	ListIterator itr;
	int i = 0;

	if (!_uint_in_list(rows->req_msg->job_id_list, job_ptr->job_id) ||
	    !_uint_in_list(rows->req_msg->uid_list, job_ptr->user_id))
		return;
	if (!job_ptr->part_ptr_list) {
		if (job_ptr->part_ptr &&
		    _part_wanted(rows->part_filter, job_ptr->part_ptr))
			_append_row(ret, job_ptr, job_ptr->part_ptr, rows, -1);
		return;
	}
	itr = list_iterator_create(job_ptr->part_ptr_list);
	while ((part_ptr = list_next(itr))) {
		if (_part_wanted(rows->part_filter, part_ptr))
			_append_row(ret, job_ptr, part_ptr, rows, i);
		i++;
	}
	list_iterator_destroy(itr);
}

static List _part_filter(const char *names)
{
	List filter;
	char *copy, *tok, *save = NULL;

	if (!names)
		return NULL;
	filter = list_create(NULL);
	copy = xstrdup(names);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		part_record_t *part_ptr = find_part_record(tok);

		if (part_ptr)
			list_append(filter, part_ptr);
	}
	xfree(copy);
	return filter;
}

extern List prism_job_factors_list(priority_factors_request_msg_t *req_msg,
				   uid_t uid)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
	prism_policy_t kind = prism_policy_kind();
	rows_t rows = { .req_msg = req_msg,
			.moab = kind == PRISM_POLICY_MOAB,
			.ge = kind == PRISM_POLICY_GRIDENGINE };
	List ret = NULL;
	job_record_t *job_ptr;
	ListIterator itr;
	time_t now = time(NULL);

	prism_conf_get(&rows.conf);
	lock_slurmctld(job_read_lock);
	rows.part_filter = _part_filter(req_msg->partitions);
	if (*prism_ctl.job_list) {
		ret = list_create(slurm_destroy_priority_factors_object);
		itr = list_iterator_create(*prism_ctl.job_list);
		while ((job_ptr = list_next(itr)))
			if (_listed(job_ptr, &rows.conf, now) &&
			    _may_see(job_ptr, uid))
				_add_job_rows(ret, job_ptr, &rows);
		list_iterator_destroy(itr);
		if (!list_count(ret))
			FREE_NULL_LIST(ret);
	}
	unlock_slurmctld(job_read_lock);
	FREE_NULL_LIST(rows.part_filter);
	return ret;
}
