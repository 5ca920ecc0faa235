/*****************************************************************************\
 *  sprio.c - sprio's factor list: the rows of the jobs a request selects
 *  and its user may see, one per partition, with the columns the policy
 *  in force filled.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "policy.h"
#include "sprio.h"

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
	return prism_is_coord(*prism_ctl.acct_db_conn, uid, job_ptr->account);
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

static bool _uint_in_list(list_t *list, uint32_t value)
{
	uint32_t *v;
	list_itr_t *itr;
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

static bool _part_wanted(list_t *part_filter, part_record_t *part_ptr)
{
	return !part_filter || list_find_first(part_filter, _same_ptr,
					       part_ptr);
}

/* What a factor list is built for. */
typedef struct {
	priority_factors_request_msg_t *req_msg;
	list_t *part_filter;
	prism_prio_conf_t conf;
	prism_policy_inst_t *inst;	/* whose columns */
} rows_t;

/*
 * Append the row of 'job_ptr' in 'part_ptr', its partition number 'i'
 * (-1: the job has one partition).
 */
static void _append_row(list_t *ret, const job_record_t *job_ptr,
			part_record_t *part_ptr, const rows_t *rows, int i)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	prism_policy_sprio_row(rows->inst, obj, job_ptr, part_ptr, i,
			       &rows->conf);
	obj->job_id = job_ptr->job_id;
	obj->partition = part_ptr->name;
	obj->user_id = job_ptr->user_id;
	list_append(ret, obj);
}

static void _add_job_rows(list_t *ret, const job_record_t *job_ptr,
			  const rows_t *rows)
{
	part_record_t *part_ptr;
	list_itr_t *itr;
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

static list_t *_part_filter(const char *names)
{
	list_t *filter;
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

extern list_t *prism_sprio_list(priority_factors_request_msg_t *req_msg,
				   uid_t uid)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
	rows_t rows = { .req_msg = req_msg, .inst = prism_policy_get() };
	list_t *ret = NULL;
	job_record_t *job_ptr;
	list_itr_t *itr;
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
	prism_policy_put(rows.inst);
	return ret;
}
