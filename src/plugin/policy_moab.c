/*****************************************************************************\
 *  policy_moab.c - the Moab/Maui policy: its file and fair-share usage
 *  (charged every pass, saved in StateSaveLocation), the per-user totals
 *  of active jobs; one job through the Moab core: its record's fields
 *  copied into the core's facts, which the core turns into its inputs,
 *  its priority, the sprio columns the core encodes and priority_array
 *  written back; a job whose priority is negative held under
 *  REJECTNEGPRIOJOBS.
 *
 *  What each Slurm field stands for: prism_moab_facts.h (prism-moab(5),
 *  "SUBCOMPONENT PARAMETERS AND VALUES"); `prism explain` reads the
 *  public record into the same facts and decodes sprio's columns with the
 *  same core.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "hold.h"
#include "jobrec.h"
#include "policy_ops.h"
#include "prism_format.h"
#include "prism_idmap.h"
#include "prism_moab.h"
#include "prism_moab_facts.h"

#define USAGE_NAME "priority_prism_moab_usage"

/* A Moab policy instance; everything under policy_lock. */
typedef struct {
	prism_moab_policy_t *pol;
	prism_moab_usage_t *usage;	/* its fair-share usage (adopt) */
	prism_moab_users_t *users;	/* per-user active jobs, last walk */
	prism_idmap_t *uid_handles;	/* uid -> USER handle */
	prism_idmap_t *gid_handles;	/* gid -> GROUP handle */
} moab_t;

/* Keep and return the USER handle of 'uid', whose name is 'name'. */
static uint32_t _user_keep(moab_t *m, uid_t uid, const char *name)
{
	uint32_t h = prism_moab_cred_find(m->pol, PRISM_MOAB_USER, name);

	(void) prism_idmap_put(m->uid_handles, uid, h);
	return h;
}

/* Keep and return the GROUP handle of 'gid', whose name is 'name' (NULL:
 * none). */
static uint32_t _group_keep(moab_t *m, gid_t gid, const char *name)
{
	uint32_t h = name ? prism_moab_cred_find(m->pol, PRISM_MOAB_GROUP,
						 name) :
			    PRISM_MOAB_NONE;

	(void) prism_idmap_put(m->gid_handles, gid, h);
	return h;
}

/* The USER handle of 'uid'; its name looked up here when no pass did
 * (nss.h: a job submitted since). */
static uint32_t _user(moab_t *m, uid_t uid)
{
	uint32_t h;

	if (prism_idmap_get(m->uid_handles, uid, &h))
		return h;
	return _user_keep(m, uid, uid_to_string_cached(uid));
}

static uint32_t _group(moab_t *m, gid_t gid)
{
	uint32_t h;
	char *name;

	if (prism_idmap_get(m->gid_handles, gid, &h))
		return h;
	name = gid_to_string_or_null(gid);
	h = _group_keep(m, gid, name);
	xfree(name);
	return h;
}

/*
 * The facts of 'job_ptr' at 'now', copied from its record for
 * prism_moab_job_from_facts() (USER and GROUP handles not looked up).
 * Caller holds the job lock; job_ptr->details is set.
 */
static void _facts(const job_record_t *job_ptr, time_t now,
		   prism_moab_facts_t *f)
{
	const job_details_t *details = job_ptr->details;
	const slurmdb_qos_rec_t *qos = job_ptr->qos_ptr;

	*f = (prism_moab_facts_t) {
		.now = now,
		.uid = job_ptr->user_id,
		.pending = IS_JOB_PENDING(job_ptr),
		.configuring = IS_JOB_CONFIGURING(job_ptr),
		.running = IS_JOB_RUNNING(job_ptr),
		.suspended = IS_JOB_SUSPENDED(job_ptr),
		.held = !job_ptr->priority,
		.dependency = job_ptr->state_reason == WAIT_DEPENDENCY,
		.begin_time = details->begin_time,
		.admin_prio = job_ptr->direct_set_prio ? job_ptr->priority : 0,
		.accrue_time = details->accrue_time,
		.start_time = job_ptr->start_time,
		.tot_sus_time = job_ptr->tot_sus_time,
		.pre_sus_time = job_ptr->pre_sus_time,
		.suspend_time = job_ptr->suspend_time,
		.time_limit = prism_job_time_limit(job_ptr),
		.deadline = job_ptr->deadline,
		.cpus = prism_job_cpus(job_ptr),
		.min_nodes = details->min_nodes,
		.node_cnt = job_ptr->node_cnt,
		.mem_mb = job_ptr->tres_req_cnt ?
				  job_ptr->tres_req_cnt[TRES_ARRAY_MEM] : 0,
		.disk_per_node = details->pn_min_tmp_disk,
		.nice = details->nice,
		.restart_cnt = job_ptr->restart_cnt,
		.user = PRISM_MOAB_NONE,
		.group = PRISM_MOAB_NONE,
		.account = job_ptr->account,
		.qos = qos ? qos->name : NULL,
		.features = details->features,
		.tres_per_job = job_ptr->tres_per_job,
		.tres_per_node = job_ptr->tres_per_node,
		.tres_per_socket = job_ptr->tres_per_socket,
		.tres_per_task = job_ptr->tres_per_task,
		.licenses = job_ptr->licenses,
	};
}

/*
 * The inputs that depend on the partition 'part_ptr' (NULL: none): CLASS,
 * its PriorityJobFactor and its totals for PE (kept in 'tot', which 'in'
 * then points to).
 */
static void _in_part_inputs(const prism_moab_policy_t *p,
			    const part_record_t *part_ptr,
			    prism_moab_job_t *in, prism_moab_totals_t *tot)
{
	prism_moab_part_facts_t part;

	if (!part_ptr) {
		(void) prism_moab_job_part(p, NULL, tot, in, NULL);
		return;
	}
	part = (prism_moab_part_facts_t) {
		.name = part_ptr->name,
		.prio_job_factor = part_ptr->priority_job_factor,
		.total_cpus = part_ptr->total_cpus,
		.mem_mb = part_ptr->tres_cnt ?
				  part_ptr->tres_cnt[TRES_ARRAY_MEM] : 0,
	};
	(void) prism_moab_job_part(p, &part, tot, in, NULL);
}

/*
 * Read 'job_ptr' in partition 'part_ptr' into 'in' ('tot' holds the
 * partition's totals). Caller holds the job lock, the assoc_mgr QOS read
 * lock and policy_lock.
 */
static void _inputs(moab_t *m, job_record_t *job_ptr,
		    const part_record_t *part_ptr, time_t now,
		    prism_moab_job_t *in, prism_moab_totals_t *tot)
{
	prism_moab_facts_t f;

	_facts(job_ptr, now, &f);
	f.user = _user(m, job_ptr->user_id);
	f.group = _group(m, job_ptr->group_id);
	(void) prism_moab_job_from_facts(m->pol, &f, in, NULL);
	_in_part_inputs(m->pol, part_ptr, in, tot);
	prism_moab_users_fill(m->users, job_ptr->user_id, in);
}

/* REJECTNEGPRIOJOBS: keep the job pending, held, with a reason. */
static void _hold(job_record_t *job_ptr, const prism_moab_result_t *res)
{
	char why[128];

	snprintf(why, sizeof(why),
		 "Moab priority %" PRId64 " is negative and REJECTNEGPRIOJOBS is set",
		 res->prio);
	prism_hold_set(job_ptr, why);
}

/* sprio's columns (priority_prism(5), "SPRIO COLUMNS": which column
 * carries which component). */
static void _store_columns(job_record_t *job_ptr,
			   const prism_moab_columns_t *c)
{
	prism_cols_t cols;

	(void) prism_moab_cols_encode(c, &cols, NULL);
	prism_job_cols_put(prism_job_reset_factors(job_ptr, 0), &cols);
}

/* sprio's row for another entry (partition, QOS): the columns of the
 * job's own; this entry's priority 'slurm' differs in the rest (SITE). */
static void _sprio_entry_row(prism_factors_t *f, const job_record_t *job_ptr,
			     part_record_t *part_ptr,
			     slurmdb_qos_rec_t *qos_ptr, uint32_t slurm,
			     const prism_prio_conf_t *conf)
{
	prism_cols_t cols;

	prism_job_cols_get(f, &cols);
	(void) prism_moab_cols_rebase(&cols, slurm, NULL);
	prism_job_cols_put(f, &cols);
}

/* The Moab result of 'job_ptr' from its inputs 'in'; false on a core
 * error. */
static bool _result(moab_t *m, job_record_t *job_ptr,
		    const prism_moab_job_t *in, time_t now,
		    prism_moab_result_t *res)
{
	prism_moab_pass_t pass = { .pol = m->pol, .usage = m->usage,
				   .now = now };
	prism_error_t err;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	if (prism_moab_prio(&pass, in, res, &err)) {
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
		return false;
	}
	return true;
}

/* What a multi-partition job's entries are computed from. */
typedef struct {
	moab_t *m;
	const prism_moab_job_t *in;	/* the job's inputs */
	time_t now;
} part_arg_t;

/* The job's priority in 'part_ptr' with 'qos_ptr' (NULL: its own QOS): its
 * inputs with the partition's part and the QOS credential put in. */
static uint32_t _in_entry(void *arg, job_record_t *job_ptr,
			  part_record_t *part_ptr, slurmdb_qos_rec_t *qos_ptr,
			  int i, uint32_t prev)
{
	const part_arg_t *a = arg;
	prism_moab_job_t in_part = *a->in;
	prism_moab_totals_t tot;
	prism_moab_result_t res;

	_in_part_inputs(a->m->pol, part_ptr, &in_part, &tot);
	if (qos_ptr)
		in_part.cred[PRISM_MOAB_QOS] = prism_moab_cred_find(
			a->m->pol, PRISM_MOAB_QOS, qos_ptr->name);
	if (!_result(a->m, job_ptr, &in_part, a->now, &res) || res.reject)
		return 0;
	return res.slurm;
}

static uint32_t _job_compute(void *st, job_record_t *job_ptr,
			     const prism_pass_t *pass)
{
	moab_t *m = st;
	prism_moab_result_t res;
	prism_moab_columns_t cols;
	prism_moab_totals_t tot;
	prism_moab_job_t in;
	part_arg_t arg = { .m = m, .in = &in, .now = pass->now };

	_inputs(m, job_ptr, job_ptr->part_ptr, pass->now, &in, &tot);
	if (!_result(m, job_ptr, &in, pass->now, &res)) {
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
	prism_hold_release(job_ptr);
	prism_moab_columns(&res, &cols);
	_store_columns(job_ptr, &cols);
	log_flag(PRIO, "%pJ Moab priority: cred %.2f + fs %.2f + res %.2f + serv %.2f + target %.2f + usage %.2f + attr %.2f = %" PRId64 " (slurm %u)",
		 job_ptr, res.comp[PRISM_MC_CRED], res.comp[PRISM_MC_FS],
		 res.comp[PRISM_MC_RES], res.comp[PRISM_MC_SERV],
		 res.comp[PRISM_MC_TARGET], res.comp[PRISM_MC_USAGE],
		 res.comp[PRISM_MC_ATTR], res.prio, res.slurm);
	prism_job_prio_array_fill(job_ptr, _in_entry, &arg);
	return res.slurm;
}

/* Charge the Moab usage of 'job_ptr' from 'start' to 'end' (running
 * jobs). */
static void _charge(moab_t *m, job_record_t *job_ptr, time_t start,
		    time_t end)
{
	const prism_moab_policy_t *p = m->pol;
	prism_moab_usage_t *u = m->usage;
	prism_moab_totals_t tot;
	prism_moab_job_t in;
	prism_error_t err;
	double amount;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	if (!p || !u || !job_ptr->details || !job_ptr->start_time)
		return;
	if (start < job_ptr->start_time)
		start = job_ptr->start_time;
	if (end <= start)
		return;
	_inputs(m, job_ptr, job_ptr->part_ptr, end, &in, &tot);
	amount = prism_moab_usage_amount(p, &in, (double) (end - start));
	if (amount > 0.0 &&
	    prism_moab_usage_charge(u, in.cred, amount, &err))
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
}

/* Count 'job_ptr' in its user's active totals if it is running. */
static void _count_active(moab_t *m, job_record_t *job_ptr, time_t now)
{
	prism_moab_facts_t f;

	if (!job_ptr->details)
		return;
	_facts(job_ptr, now, &f);
	(void) prism_moab_users_count(m->users, &f);
}

/* ---- life cycle ---------------------------------------------------------- */

/* Log the parser's notices and what the policy weighs without data. */
static void _notices(const prism_moab_policy_t *p, const char *path)
{
	const prism_moab_params_t *params = prism_moab_policy_params(p);

	for (size_t i = 0; i < prism_moab_policy_notice_count(p); i++)
		info("%s: %s", PRISM_PLUGIN_TYPE,
		     prism_moab_policy_notice(p, i));
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		const char *why = prism_moab_sub_no_data((prism_moab_sub_t) s);

		if (why && params->sub_weight[s])
			info("%s: %s: %sWEIGHT: %s; its value is always 0",
			     PRISM_PLUGIN_TYPE, path,
			     prism_moab_sub_name((prism_moab_sub_t) s), why);
	}
}

static void _unload(void *st)
{
	moab_t *m = st;

	if (!m)
		return;
	prism_moab_usage_free(m->usage);
	prism_moab_policy_free(m->pol);
	prism_moab_users_free(m->users);
	prism_idmap_free(m->uid_handles);
	prism_idmap_free(m->gid_handles);
	xfree(m);
}

/* Parse the file 'path' (its 'len' bytes in 'text'), log its notices. */
static void *_load(const char *text, size_t len, const char *path)
{
	prism_error_t err = { "" };
	moab_t *m = xmalloc(sizeof(*m));

	if (prism_moab_conf_parse(text, len, path, &m->pol, &err)) {
		error("%s: %s", PRISM_PLUGIN_TYPE, err.text);
		m->pol = NULL;
		_unload(m);
		return NULL;
	}
	_notices(m->pol, path);
	m->users = prism_moab_users_create();
	m->uid_handles = prism_idmap_create();
	m->gid_handles = prism_idmap_create();
	return m;
}

/*
 * The usage saved in StateSaveLocation ('saved', 'len' bytes; NULL: none)
 * for 'm', or a fresh one (a damaged file is reported). NULL only when
 * out of memory.
 */
static prism_moab_usage_t *_usage_saved(moab_t *m, const char *saved,
					size_t len, time_t now)
{
	prism_moab_usage_t *u = NULL;
	prism_error_t err = { "" };
	int rc;

	if (saved && (rc = prism_moab_usage_parse(saved, len, m->pol, &u,
						   &err))) {
		if (rc == PRISM_FORMAT_NEWER) {
			/* refused, and so not written over */
			error("%s: %s/%s: %s; the Moab policy is not put in force",
			      PRISM_PLUGIN_TYPE,
			      slurm_conf.state_save_location, USAGE_NAME,
			      err.text);
			return NULL;
		}
		error("%s: %s/%s is damaged (%s); Moab fair-share usage starts afresh",
		      PRISM_PLUGIN_TYPE, slurm_conf.state_save_location,
		      USAGE_NAME, err.text);
		u = NULL;
	}
	if (!u && !(u = prism_moab_usage_create(m->pol, now, &err)))
		error("%s: %s", PRISM_PLUGIN_TYPE, err.text);
	return u;
}

/*
 * Carry the usage 'old' (of the Moab policy being replaced) over to 'm':
 * what 'm' still names keeps its windows.
 */
static prism_moab_usage_t *_usage_carry(const prism_moab_usage_t *old,
					moab_t *m, time_t now)
{
	prism_moab_usage_t *u = NULL;
	prism_error_t err = { "" };
	size_t size = prism_moab_usage_format_size(old);
	char *buf = xmalloc(size);
	int len = prism_moab_usage_format(old, buf, size, &err);

	if ((len < 0) || prism_moab_usage_parse(buf, len, m->pol, &u, &err)) {
		error("%s: cannot carry the Moab fair-share usage over (%s); it starts afresh",
		      PRISM_PLUGIN_TYPE, err.text);
		u = prism_moab_usage_create(m->pol, now, &err);
	}
	xfree(buf);
	return u;
}

static int _adopt(void *st, const prism_policy_ops_t *prev_ops, void *prev,
		  const char *saved, size_t saved_len, time_t now)
{
	moab_t *m = st, *old = (prev_ops == &prism_moab_ops) ? prev : NULL;

	if (old && old->usage)
		m->usage = _usage_carry(old->usage, m, now);
	else
		m->usage = _usage_saved(m, saved, saved_len, now);
	if (!m->usage)
		return SLURM_ERROR;
	/* the per-user totals stay until the next pass counts again */
	if (old) {
		prism_moab_users_free(m->users);
		m->users = old->users;
		old->users = NULL;
	}
	return SLURM_SUCCESS;
}

static char *_usage_format(void *st, size_t *len)
{
	moab_t *m = st;
	prism_error_t err = { "" };
	size_t size;
	char *buf;
	int n;

	if (!m->usage)
		return NULL;
	size = prism_moab_usage_format_size(m->usage);
	buf = xmalloc(size);
	n = prism_moab_usage_format(m->usage, buf, size, &err);
	if (n < 0) {
		error("%s: cannot format the Moab fair-share usage: %s",
		      PRISM_PLUGIN_TYPE, err.text);
		xfree(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* ---- passes ------------------------------------------------------------- */

/* Roll the usage windows, forget the per-user totals. */
static void _pass_begin(void *st, const prism_pass_t *pass)
{
	moab_t *m = st;

	if (m->usage)
		(void) prism_moab_usage_roll(m->usage, pass->now);
	prism_moab_users_clear(m->users);
}

static void _pass_charge(void *st, job_record_t *job_ptr,
			 const prism_pass_t *pass)
{
	moab_t *m = st;

	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))
		return;
	if (pass->decayed && !IS_JOB_PENDING(job_ptr))
		_charge(m, job_ptr, pass->last, pass->now);
	_count_active(m, job_ptr, pass->now);
}

static void _job_end(void *st, job_record_t *job_ptr, time_t last,
		     time_t now)
{
	if (last)
		_charge(st, job_ptr, last, now);
}

static bool _after_fs(const prism_pass_t *pass)
{
	return true;
}

/* ---- names (nss.h) ----------------------------------------------------- */

/* The user and group of a job a pass charges or computes. */
static void _names_note(void *st, const job_record_t *job_ptr,
			prism_nss_t *names)
{
	moab_t *m = st;
	uint32_t h;

	if (!job_ptr->details || IS_JOB_FINISHED(job_ptr) ||
	    IS_JOB_COMPLETING(job_ptr))
		return;
	if (!prism_idmap_get(m->uid_handles, job_ptr->user_id, &h))
		prism_nss_want(names, PRISM_NSS_USER, job_ptr->user_id);
	if (!prism_idmap_get(m->gid_handles, job_ptr->group_id, &h))
		prism_nss_want(names, PRISM_NSS_GROUP, job_ptr->group_id);
}

static void _name_keep(prism_nss_kind_t kind, uint32_t id, const char *name,
		       void *st)
{
	if (kind == PRISM_NSS_USER)
		(void) _user_keep(st, id, name);
	else
		(void) _group_keep(st, id, name);
}

static void _names_keep(void *st, const prism_nss_t *names)
{
	prism_nss_each(names, _name_keep, st);
}

const prism_policy_ops_t prism_moab_ops = {
	.kind = PRISM_POLICY_MOAB,
	.reads_file = true,
	.load = _load,
	.adopt = _adopt,
	.unload = _unload,
	.usage_file = USAGE_NAME,
	.usage_format = _usage_format,
	.keeps_admin_prio = false,
	.incr_only = false,
	.job_compute = _job_compute,
	.after_fs = _after_fs,
	.pass_begin = _pass_begin,
	.pass_charge = _pass_charge,
	.names_note = _names_note,
	.names_keep = _names_keep,
	.job_end = _job_end,
	.sprio_entry_row = _sprio_entry_row,
	.sprio_own_columns = true,
};
