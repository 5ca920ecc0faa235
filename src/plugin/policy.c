/*****************************************************************************\
 *  policy.c - the dispatcher: which policy computes priorities
 *  (PriorityParameters policy=), its instance's life, and every call from
 *  the entry points, the recalculation thread and sprio into it.
 *
 *  What every policy shares is done here once: an admin-set priority
 *  kept, a job without details refused, PriorityFlags=INCR_ONLY, the
 *  release of Prism's own hold, whether the instance is still in force.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <pthread.h>
#include <stdlib.h>

#include "src/common/assoc_mgr.h"
#include "src/common/xmalloc.h"

#include "hold.h"
#include "jobrec.h"
#include "policy.h"
#include "prism_file.h"
#include "prism_saved_policy.h"
#include "state_file.h"

/* The policy put in force last, kept for a restart by a reconfigure. */
#define SAVED_NAME "priority_prism_policy"

struct prism_policy_inst {
	const prism_policy_ops_t *ops;
	void *st;		/* ops->load()'s result */
	int refs;		/* the pointer in force holds one; each user one */
	/* the recalculation thread's only (policy.h) */
	prism_nss_t *names;	/* NULL: none noted */
	bool names_done;	/* a pass looked the names up */
};

/* The registry: one line per policy. */
static const prism_policy_ops_t *const registry[] = {
	&prism_multifactor_ops,
	&prism_moab_ops,
	&prism_gridengine_ops,
};

static pthread_mutex_t policy_lock = PTHREAD_MUTEX_INITIALIZER;
static prism_policy_inst_t *cur;	/* in force, under policy_lock */

/* Before the first load (and outside slurmctld): multifactor, stateless. */
static prism_policy_inst_t fallback = { .ops = &prism_multifactor_ops,
					 .refs = 1 };

static const prism_policy_ops_t *_ops_of(prism_policy_t kind)
{
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i]->kind == kind)
			return registry[i];
	return NULL;
}

/* The instance in force. Caller holds policy_lock. */
static prism_policy_inst_t *_cur(void)
{
	return cur ? cur : &fallback;
}

/* Drop a reference; the last one frees. Caller holds policy_lock. */
static void _unref(prism_policy_inst_t *inst)
{
	if (!inst || inst == &fallback || --inst->refs > 0)
		return;
	inst->ops->unload(inst->st);
	prism_nss_free(inst->names);
	xfree(inst);
}

/* What a load puts in force: the parameters, the file and its text. */
typedef struct {
	char params[PRISM_PARAMS_MAX + 1];	/* PriorityParameters */
	char path[PRISM_PARAMS_MAX + 64];	/* "": the policy reads none */
	char *text;				/* free() */
	size_t len;
	const prism_policy_ops_t *ops;
	prism_policy_t kind;
} source_t;

/*
 * The policy PriorityParameters 'params' select, and its file read into
 * 'src'. Returns SLURM_SUCCESS, or SLURM_ERROR with the reason in 'err'.
 */
static int _source_read(const char *params, source_t *src, prism_error_t *err)
{
	prism_params_t p;

	*src = (source_t) { .text = NULL };
	snprintf(src->params, sizeof(src->params), "%s", params ? params : "");
	if (prism_params_parse(params, &p, err))
		return SLURM_ERROR;
	src->kind = p.policy;
	if (!(src->ops = _ops_of(p.policy))) {
		prism_error_set(err, "policy=%s is not built in",
				prism_policy_name(p.policy));
		return SLURM_ERROR;
	}
	if (!src->ops->reads_file)
		return SLURM_SUCCESS;
	if (prism_params_config_path(&p, slurm_conf.slurm_conf, src->path,
				     sizeof(src->path), err) ||
	    prism_file_read(src->path, &src->text, &src->len, err))
		return SLURM_ERROR;
	return SLURM_SUCCESS;
}

/*
 * The policy in force before this process was started by a reconfigure
 * (slurmctld 23.11 and later restart for one), from the copy saved when
 * it was put in force, into 'src'. Returns SLURM_SUCCESS, or SLURM_ERROR
 * when there is none to go on with (logged).
 */
static int _source_saved(source_t *src)
{
	prism_saved_policy_t saved;
	prism_error_t err = { "" };
	prism_params_t p;
	char *buf = NULL;
	size_t len = 0;
	int rc = SLURM_ERROR;

	*src = (source_t) { .text = NULL };
	if (!prism_state_file_read(SAVED_NAME, &buf, &len))
		return SLURM_ERROR;
	if (prism_saved_policy_parse(buf, len, &saved, &err) ||
	    prism_params_parse(saved.params, &p, &err) ||
	    !(src->ops = _ops_of(p.policy))) {
		error("%s: %s/%s: %s", PRISM_PLUGIN_TYPE,
		      slurm_conf.state_save_location, SAVED_NAME,
		      err.text[0] ? err.text : "unknown policy");
		goto out;
	}
	src->kind = p.policy;
	snprintf(src->params, sizeof(src->params), "%s", saved.params);
	snprintf(src->path, sizeof(src->path), "%s", saved.path);
	if (saved.len && !(src->text = malloc(saved.len + 1)))
		goto out;
	if (saved.len) {
		memcpy(src->text, saved.text, saved.len);
		src->text[saved.len] = '\0';
	}
	src->len = saved.len;
	rc = SLURM_SUCCESS;
out:
	xfree(buf);
	return rc;
}

/*
 * The copy of the policy in force whose save failed (a full or read-only
 * StateSaveLocation): written again at the end of every pass until it is
 * whole, so that a restart after the fault finds this policy, not an
 * older one. copy_lock orders a new copy's save after a retry of the old;
 * slurmctld's state-file lock is not needed (it writes no such file) and
 * not taken, so that a retry is not one more state save in the pass.
 */
static pthread_mutex_t copy_lock = PTHREAD_MUTEX_INITIALIZER;
static char *copy_pending = NULL;	/* malloc()ed */
static size_t copy_pending_len = 0;

/* Write the copy 'buf' (malloc()ed, taken); kept for a retry on failure.
 * Caller holds copy_lock. */
static void _copy_write(char *buf, size_t len)
{
	free(copy_pending);
	copy_pending = NULL;
	if (prism_state_file_write_own(SAVED_NAME, buf, len) == SLURM_SUCCESS) {
		free(buf);
		return;
	}
	copy_pending = buf;
	copy_pending_len = len;
}

/* Keep what was put in force, for a restart by a reconfigure. */
static void _source_save(const source_t *src)
{
	prism_error_t err = { "" };
	size_t len = 0;
	char *buf = prism_saved_policy_format(src->params, src->path, src->text,
					      src->len, &len, &err);

	if (!buf) {
		error("%s: %s", PRISM_PLUGIN_TYPE, err.text);
		return;
	}
	slurm_mutex_lock(&copy_lock);
	_copy_write(buf, len);
	slurm_mutex_unlock(&copy_lock);
}

/* Was this slurmctld started by `scontrol reconfigure` (Slurm 23.11 and
 * later carry one out by starting a new process)? */
static bool _restarted_by_reconfigure(void)
{
#if PRISM_RECONF_IS_RESTART
	return getenv("SLURMCTLD_RECONF") != NULL;
#else
	return false;
#endif
}

/* Put 'src' in force. Returns SLURM_SUCCESS or SLURM_ERROR (logged). */
static int _put_in_force(const source_t *src)
{
	const prism_policy_ops_t *ops = src->ops;
	prism_policy_inst_t *inst, *old;
	int rc = SLURM_SUCCESS;
	char *saved = NULL;
	size_t saved_len = 0;
	void *st;

	/* the files are read without policy_lock: the policy's own, then
	 * its saved usage (adopt takes it up unless it carries usage over) */
	st = ops->load(src->text, src->len, ops->reads_file ? src->path : NULL);
	if (!st)
		return SLURM_ERROR;
	if (ops->usage_file &&
	    !prism_state_file_read(ops->usage_file, &saved, &saved_len))
		saved = NULL;
	inst = xmalloc(sizeof(*inst));
	*inst = (prism_policy_inst_t) { .ops = ops, .st = st, .refs = 1 };
	slurm_mutex_lock(&policy_lock);
	old = cur;
	if (ops->adopt)
		rc = ops->adopt(st, old ? old->ops : NULL, old ? old->st : NULL,
				saved, saved_len, time(NULL));
	if (rc == SLURM_SUCCESS) {
		cur = inst;
		_unref(old);
	} else {
		_unref(inst);
	}
	slurm_mutex_unlock(&policy_lock);
	xfree(saved);
	return rc;
}

static void _source_free(source_t *src)
{
	free(src->text);
	src->text = NULL;
}

extern int prism_policy_load(bool at_start)
{
	prism_error_t err = { "" };
	source_t src;
	int rc;

	if (_source_read(slurm_conf.priority_params, &src, &err)) {
		error("%s: %s", PRISM_PLUGIN_TYPE, err.text);
		rc = SLURM_ERROR;
	} else {
		rc = _put_in_force(&src);
	}
	if (rc != SLURM_SUCCESS && at_start && _restarted_by_reconfigure()) {
		_source_free(&src);
		if (_source_saved(&src) != SLURM_SUCCESS ||
		    _put_in_force(&src) != SLURM_SUCCESS) {
			_source_free(&src);
			return SLURM_ERROR;
		}
		error("%s: reconfigure: the new PriorityParameters or policy file is refused (above); the policy in force before stays: policy=%s%s%s",
		      PRISM_PLUGIN_TYPE, prism_policy_name(src.kind),
		      src.path[0] ? " from a copy of " : "", src.path);
		_source_free(&src);
		return SLURM_SUCCESS;
	}
	if (rc != SLURM_SUCCESS) {
		_source_free(&src);
		return SLURM_ERROR;
	}
	_source_save(&src);
	if (src.ops->reads_file)
		info("%s: policy=%s from %s%s", PRISM_PLUGIN_TYPE,
		     prism_policy_name(src.kind), src.path,
		     at_start ? "" : " (reconfigured)");
	else if (!at_start)
		debug("%s: policy=%s", PRISM_PLUGIN_TYPE,
		      prism_policy_name(src.kind));
	_source_free(&src);
	return SLURM_SUCCESS;
}

extern void prism_policy_save(void)
{
	const prism_policy_ops_t *ops;
	char *buf = NULL;
	size_t len = 0;

	/* the copy of the policy in force, if its save had failed */
	slurm_mutex_lock(&copy_lock);
	if (copy_pending) {
		buf = copy_pending;
		copy_pending = NULL;
		_copy_write(buf, copy_pending_len);
		buf = NULL;
	}
	slurm_mutex_unlock(&copy_lock);

	slurm_mutex_lock(&policy_lock);
	ops = _cur()->ops;
	if (ops->usage_format)
		buf = ops->usage_format(_cur()->st, &len);
	slurm_mutex_unlock(&policy_lock);
	if (!buf)
		return;
	(void) prism_state_file_write(ops->usage_file, buf, len);
	xfree(buf);
}

extern void prism_policy_fini(void)
{
	slurm_mutex_lock(&copy_lock);
	free(copy_pending);
	copy_pending = NULL;
	slurm_mutex_unlock(&copy_lock);
	slurm_mutex_lock(&policy_lock);
	_unref(cur);
	cur = NULL;
	slurm_mutex_unlock(&policy_lock);
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i]->fini)
			registry[i]->fini();
}

extern prism_policy_inst_t *prism_policy_get(void)
{
	prism_policy_inst_t *inst;

	slurm_mutex_lock(&policy_lock);
	inst = _cur();
	inst->refs++;
	slurm_mutex_unlock(&policy_lock);
	return inst;
}

extern void prism_policy_put(prism_policy_inst_t *inst)
{
	slurm_mutex_lock(&policy_lock);
	_unref(inst);
	slurm_mutex_unlock(&policy_lock);
}

/*
 * The priority of 'job' under 'inst', with what every policy shares.
 * Locks as ops->job_compute().
 */
static uint32_t _compute(prism_policy_inst_t *inst, job_record_t *job,
			 const prism_pass_t *pass)
{
	if (inst->ops->keeps_admin_prio && job->direct_set_prio &&
	    job->priority) {
		prism_job_clear_factors(job);
		return job->priority;
	}
	if (!job->details) {
		error("%s: %pJ has no details, cannot set its priority",
		      PRISM_PLUGIN_TYPE, job);
		prism_job_clear_factors(job);
		return 0;
	}
	return inst->ops->job_compute(inst->st, job, pass);
}

extern uint32_t prism_policy_submit(job_record_t *job, const prism_pass_t *pass)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };
	uint32_t prio;

	assoc_mgr_lock(&locks);
	slurm_mutex_lock(&policy_lock);
	prio = _compute(_cur(), job, pass);
	slurm_mutex_unlock(&policy_lock);
	assoc_mgr_unlock(&locks);
	return prio;
}

extern void prism_policy_job_end(job_record_t *job, time_t last, time_t now)
{
	prism_policy_inst_t *inst;

	slurm_mutex_lock(&policy_lock);
	inst = _cur();
	if (inst->ops->job_end)
		inst->ops->job_end(inst->st, job, last, now);
	slurm_mutex_unlock(&policy_lock);
}

extern bool prism_policy_after_fs(const prism_policy_inst_t *inst,
				  const prism_pass_t *pass)
{
	return inst->ops->after_fs(pass);
}

extern bool prism_policy_batched(const prism_policy_inst_t *inst)
{
	return inst->ops->pass_batch != NULL;
}

extern bool prism_policy_names_wanted(const prism_policy_inst_t *inst)
{
	return inst->ops->names_note && !inst->names_done;
}

extern void prism_policy_names_note(prism_policy_inst_t *inst,
				    const job_record_t *job)
{
	if (!inst->names)
		inst->names = prism_nss_create();
	inst->ops->names_note(inst->st, job, inst->names);
}

extern void prism_policy_names_resolve(prism_policy_inst_t *inst)
{
	inst->names_done = true;
	if (!inst->names)
		return;
	prism_nss_lookup(inst->names);
	slurm_mutex_lock(&policy_lock);
	if (inst == _cur())
		inst->ops->names_keep(inst->st, inst->names);
	slurm_mutex_unlock(&policy_lock);
	prism_nss_free(inst->names);
	inst->names = NULL;
}

extern bool prism_policy_pass_begin(prism_policy_inst_t *inst,
				    const prism_pass_t *pass)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .tres = READ_LOCK };
	bool in_force;

	assoc_mgr_lock(&locks);
	slurm_mutex_lock(&policy_lock);
	in_force = inst == _cur();
	if (in_force && inst->ops->pass_begin)
		inst->ops->pass_begin(inst->st, pass);
	slurm_mutex_unlock(&policy_lock);
	assoc_mgr_unlock(&locks);
	return in_force;
}

extern bool prism_policy_slice_begin(const prism_policy_inst_t *inst)
{
	slurm_mutex_lock(&policy_lock);
	return inst == _cur();
}

extern void prism_policy_slice_end(void)
{
	slurm_mutex_unlock(&policy_lock);
}

extern void prism_policy_charge(prism_policy_inst_t *inst, job_record_t *job,
				const prism_pass_t *pass)
{
	if (inst->ops->pass_charge)
		inst->ops->pass_charge(inst->st, job, pass);
}

extern bool prism_policy_compute(prism_policy_inst_t *inst, job_record_t *job,
				 const prism_pass_t *pass)
{
	uint32_t prio = _compute(inst, job, pass);

	if (inst->ops->incr_only)
		prio = prism_prio_update(pass->conf.flags & PRISM_F_INCR_ONLY,
					 job->priority, prio);
	/* held by the Moab policy before a reconfigure */
	if (prio)
		prism_hold_release(job);
	if (prio == job->priority)
		return false;
	job->priority = prio;
	return true;
}

extern bool prism_policy_store(prism_policy_inst_t *inst, uint32_t i,
			       const prism_pass_t *pass)
{
	return inst->ops->pass_store(inst->st, i, pass);
}

extern uint32_t prism_policy_batch(prism_policy_inst_t *inst,
				   const prism_pass_t *pass)
{
	return inst->ops->pass_batch(inst->st, pass);
}

extern void prism_policy_pass_end(prism_policy_inst_t *inst,
				  const prism_pass_t *pass)
{
	if (!inst->ops->pass_end)
		return;
	slurm_mutex_lock(&policy_lock);
	if (inst == _cur())
		inst->ops->pass_end(inst->st, pass);
	slurm_mutex_unlock(&policy_lock);
}

extern bool prism_policy_own_columns(const prism_policy_inst_t *inst)
{
	return inst->ops->sprio_own_columns;
}

extern void prism_policy_sprio_entry(const prism_policy_inst_t *inst,
				     prism_factors_t *f,
				     const job_record_t *job,
				     part_record_t *part,
				     slurmdb_qos_rec_t *qos, int i,
				     const prism_prio_conf_t *conf)
{
	const uint32_t *array = prism_job_prio_array(job);
	uint32_t entry = array ? array[i] : 0;

	/* the policy's own columns: the entry's priority, if there is one */
	if (inst->ops->sprio_own_columns && !array)
		return;
	inst->ops->sprio_entry_row(f, job, part, qos, entry, conf);
}
