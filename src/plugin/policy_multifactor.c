/*****************************************************************************\
 *  policy_multifactor.c - the multifactor policy (Slurm's
 *  priority/multifactor): one job through the core, read into a
 *  prism_job_t; its priority, priority_array and the weighted factors
 *  sprio shows written back.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"

#include "fs_tree.h"
#include "jobrec.h"
#include "policy_ops.h"
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

/* The TRES both the weights in 'conf' and slurmctld's arrays cover. */
static uint32_t _tres_cnt(const prism_prio_conf_t *conf)
{
	return MIN(conf->tres_cnt, prism_ctl_tres_cnt());
}

static prism_tres_use_t _tres_use(const job_record_t *job_ptr)
{
	return (prism_tres_use_t) { .alloc = job_ptr->tres_alloc_cnt,
				    .req = job_ptr->tres_req_cnt };
}

/* The weighted TRES term of 'job_ptr' in 'part_ptr' over 'tres_cnt' TRES
 * (_tres_cnt()); 0 without weights. */
static double _tres_term(const job_record_t *job_ptr,
			 const part_record_t *part_ptr,
			 const prism_prio_conf_t *conf, uint32_t tres_cnt)
{
	prism_tres_use_t use = _tres_use(job_ptr);

	return prism_tres_term(&use, part_ptr ? part_ptr->tres_cnt : NULL,
			       conf->weight_tres, tres_cnt,
			       conf->flags & PRISM_F_NO_NORMAL_TRES);
}

/* Caller holds the assoc_mgr assoc and QOS read locks. 'pass': called by
 * the recalculation pass. */
static void _job_inputs(const job_record_t *job_ptr,
			const prism_prio_conf_t *conf, bool pass,
			prism_job_t *in)
{
	const job_details_t *details = job_ptr->details;
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
						    conf, pass);
	if (assoc && assoc->usage)
		in->assoc_factor = prism_pick_factor(
			conf->flags & PRISM_F_NO_NORMAL_ASSOC,
			assoc->usage->priority_norm, assoc->priority);
	if (qos && qos->priority && qos->usage)
		in->qos_factor = prism_pick_factor(
			conf->flags & PRISM_F_NO_NORMAL_QOS,
			qos->usage->norm_priority, qos->priority);
}

/*
 * Store the weighted terms 't' and, with PriorityWeightTRES, the per-TRES
 * weighted values of the job's own partition over 'tres_cnt' TRES (what
 * sprio shows). Returns the TRES term: the sum of those values, 0 without
 * weights.
 */
static double _store_factors(job_record_t *job_ptr,
			     const prism_prio_conf_t *conf,
			     const prism_terms_t *t, uint32_t tres_cnt)
{
	prism_factors_t *f = prism_job_reset_factors(job_ptr, tres_cnt);
	prism_tres_use_t use = _tres_use(job_ptr);
	part_record_t *part_ptr = job_ptr->part_ptr;
	prism_tres_wt_t wt = { .w = conf->weight_tres,
			       .order = conf->tres_order,
			       .cnt = conf->tres_cnt, .on = conf->tres_on };

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
	prism_job_weights_put(f, conf->weight_tres);
	return prism_tres_weighted(&use, part_ptr ? part_ptr->tres_cnt : NULL,
				   &wt, tres_cnt,
				   conf->flags & PRISM_F_NO_NORMAL_TRES,
				   f->priority_tres);
}

/* What a multi-partition job's entries are computed from. */
typedef struct {
	const prism_prio_conf_t *conf;
	const prism_terms_t *terms;
	uint32_t tres_cnt;	/* _tres_cnt() */
} part_arg_t;

/* The QOS term of an entry for 'qos_ptr' (NULL: the job's own). */
static double _entry_qos_term(const prism_prio_conf_t *conf,
			      const prism_terms_t *terms,
			      const slurmdb_qos_rec_t *qos_ptr)
{
	if (!qos_ptr)
		return terms->qos;
	return prism_entry_qos_term(
		conf, terms, qos_ptr->priority && qos_ptr->usage,
		qos_ptr->usage ?
			prism_pick_factor(conf->flags & PRISM_F_NO_NORMAL_QOS,
					  qos_ptr->usage->norm_priority,
					  qos_ptr->priority) :
			0.0);
}

/* The job's priority in 'part_ptr' with 'qos_ptr' (INCR_ONLY per
 * entry). */
static uint32_t _in_entry(void *arg, job_record_t *job_ptr,
			  part_record_t *part_ptr, slurmdb_qos_rec_t *qos_ptr,
			  int i, uint32_t prev)
{
	const part_arg_t *a = arg;
	double part_term =
		prism_part_term(a->conf, _part_factor(a->conf, part_ptr));
	/* the job's own partition's: the term its own priority has */
	double tres_term = part_ptr == job_ptr->part_ptr ?
				   a->terms->tres :
				   _tres_term(job_ptr, part_ptr, a->conf,
					      a->tres_cnt);
	double qos_term = _entry_qos_term(a->conf, a->terms, qos_ptr);
	bool high = false;
	uint32_t prio = prism_prio_total_in_entry(a->terms, part_term,
						  qos_term, tres_term, &high);

	if (high)
		error("%pJ priority in partition %s exceeds 32 bits, reduced to %u",
		      job_ptr, part_ptr->name, prio);
	return prism_prio_update(a->conf->flags & PRISM_F_INCR_ONLY, prev,
				 prio);
}

static uint32_t _job_compute(void *st, job_record_t *job_ptr,
			     const prism_pass_t *pass)
{
	const prism_prio_conf_t *conf = &pass->conf;
	prism_job_t in;
	prism_terms_t terms;
	part_arg_t arg = { .conf = conf, .terms = &terms,
			   .tres_cnt = _tres_cnt(conf) };
	uint32_t prio;
	bool high = false;

	_job_inputs(job_ptr, conf, pass->recalc, &in);
	prism_prio_terms(conf, &pass->world, &in, pass->now, &terms);
	terms.tres = _store_factors(job_ptr, conf, &terms,
				    conf->weight_tres ? arg.tres_cnt : 0);
	prio = prism_prio_total(&terms, &high);
	if (high)
		error("%pJ priority exceeds 32 bits, reduced to %u", job_ptr,
		      prio);
	log_flag(PRIO, "%pJ priority: site %" PRId64 " + age %.2f + assoc %.2f + fairshare %.2f + jobsize %.2f + partition %.2f + qos %.2f + tres %.2f - nice %" PRId64 " = %u",
		 job_ptr, prism_term_site(&terms), terms.age, terms.assoc,
		 terms.fs, terms.js, terms.part, terms.qos, terms.tres,
		 prism_term_nice(&terms), prio);
	prism_job_prio_array_fill(job_ptr, _in_entry, &arg);
	return prio;
}

/*
 * Turn the copied per-TRES values in 'obj' into those of 'part_ptr', the
 * way multifactor builds sprio's row for each partition of a job: over
 * the job's weighted values, so an entry that gets no factor in
 * 'part_ptr' keeps the job's value and is weighted once more.
 */
static void _tres_in_part(prism_factors_t *obj,
			  const job_record_t *job_ptr,
			  const part_record_t *part_ptr,
			  const prism_prio_conf_t *conf)
{
	prism_tres_use_t use = _tres_use(job_ptr);
	uint32_t cnt = MIN(obj->tres_cnt, prism_ctl_tres_cnt());

	prism_tres_factors_weigh(&use, part_ptr->tres_cnt, cnt,
				 conf->weight_tres, MIN(cnt, conf->tres_cnt),
				 conf->flags & PRISM_F_NO_NORMAL_TRES,
				 obj->priority_tres);
}

/* sprio's row for an entry of several: the partition and TRES terms of
 * another partition, the QOS term of another QOS. */
static void _sprio_entry_row(prism_factors_t *f, const job_record_t *job_ptr,
			     part_record_t *part_ptr,
			     slurmdb_qos_rec_t *qos_ptr, uint32_t entry,
			     const prism_prio_conf_t *conf)
{
	if (part_ptr) {
		f->priority_part =
			prism_part_term(conf, _part_factor(conf, part_ptr));
		if (f->priority_tres)
			_tres_in_part(f, job_ptr, part_ptr, conf);
	}
	if (qos_ptr) {
		prism_terms_t own = { .qos = f->priority_qos };

		f->priority_qos = _entry_qos_term(conf, &own, qos_ptr);
	}
}

static bool _after_fs(const prism_pass_t *pass)
{
	return pass->conf.flags & PRISM_F_FAIR_TREE;
}

/* Multifactor keeps no state of its own: a token stands for it. */
static char mf_state;

static void *_load(const char *text, size_t len, const char *path)
{
	return &mf_state;
}

static void _unload(void *st)
{
}

const prism_policy_ops_t prism_multifactor_ops = {
	.kind = PRISM_POLICY_MULTIFACTOR,
	.reads_file = false,
	.load = _load,
	.unload = _unload,
	.keeps_admin_prio = true,
	.incr_only = true,
	.job_compute = _job_compute,
	.after_fs = _after_fs,
	.sprio_entry_row = _sprio_entry_row,
	.sprio_own_columns = false,
};
