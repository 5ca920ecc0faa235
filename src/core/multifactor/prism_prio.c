/*****************************************************************************\
 *  prism_prio.c - the multifactor priority sum (see prism_prio.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "prism_prio.h"

extern double prism_age_factor(int64_t accrue_time, int64_t now,
			       uint32_t max_age)
{
	int64_t waited = 0;

	if (!accrue_time)
		return 0.0;
	if (now > accrue_time)
		waited = now - accrue_time;
	if (waited >= (int64_t) max_age)
		return 1.0;
	return (double) waited / (double) max_age;
}

static double _clamp01(double v)
{
	if (v < 0.0)
		return 0.0;
	if (v > 1.0)
		return 1.0;
	return v;
}

/* Job size relative to its time limit (SMALL_RELATIVE_TO_TIME). */
static double _size_relative(const prism_prio_conf_t *conf,
			     const prism_world_t *world,
			     const prism_job_t *job)
{
	double size = (double) job->min_nodes * (double) world->cluster_cpus /
		      (double) world->node_count;

	if (!job->time_limit)	/* no time at all: the largest job */
		return conf->favor_small ? 0.0 : 1.0;
	if ((double) job->cpus > size)
		size = (double) job->cpus;
	size /= job->time_limit;
	size /= world->cluster_cpus;
	if (conf->favor_small)
		size = 1.0 - size;
	return size;
}

extern double prism_size_factor(const prism_prio_conf_t *conf,
				const prism_world_t *world,
				const prism_job_t *job)
{
	double size;

	if (!world->node_count || !world->cluster_cpus)
		return 0.0;

	if (conf->flags & PRISM_F_SIZE_RELATIVE) {
		size = _size_relative(conf, world, job);
	} else if (conf->favor_small) {
		if (conf->small_node_floor && job->min_nodes >= world->node_count)
			size = 0.0;
		else
			size = (double) (world->node_count - job->min_nodes) /
			       (double) world->node_count;
		if (job->cpus) {
			size += (double) (world->cluster_cpus - job->cpus) /
				(double) world->cluster_cpus;
			size /= 2;
		}
	} else {
		size = (double) job->min_nodes / (double) world->node_count;
		if (job->cpus) {
			size += (double) job->cpus /
				(double) world->cluster_cpus;
			size /= 2;
		}
	}
	return _clamp01(size);
}

extern double prism_pick_factor(bool no_normal, double norm, double raw)
{
	return no_normal ? raw : norm;
}

extern double prism_part_term(const prism_prio_conf_t *conf, double factor)
{
	return factor * (double) conf->weight_part;
}

extern void prism_prio_terms(const prism_prio_conf_t *conf,
			     const prism_world_t *world,
			     const prism_job_t *job, int64_t now,
			     prism_terms_t *out)
{
	*out = (prism_terms_t) { .site = job->site, .nice = job->nice };

	if (conf->weight_age)
		out->age = prism_age_factor(job->accrue_time, now,
					    conf->max_age) *
			   (double) conf->weight_age;
	if (conf->weight_fs)
		out->fs = job->fs_factor * (double) conf->weight_fs;
	if (conf->weight_js)
		out->js = prism_size_factor(conf, world, job) *
			  (double) conf->weight_js;
	if (conf->weight_part)
		out->part = prism_part_term(conf, job->part_factor);
	if (conf->weight_assoc)
		out->assoc = job->assoc_factor * (double) conf->weight_assoc;
	if (conf->weight_qos)
		out->qos = job->qos_factor * (double) conf->weight_qos;
}

/* Site factor and nice relative to PRISM_NICE_OFFSET. */
static double _site(const prism_terms_t *t)
{
	return (double) ((int64_t) t->site - PRISM_NICE_OFFSET);
}

static double _nice(const prism_terms_t *t)
{
	return (double) ((int64_t) t->nice - PRISM_NICE_OFFSET);
}

extern int64_t prism_term_site(const prism_terms_t *t)
{
	return (int64_t) t->site - PRISM_NICE_OFFSET;
}

extern int64_t prism_term_nice(const prism_terms_t *t)
{
	return (int64_t) t->nice - PRISM_NICE_OFFSET;
}

static uint32_t _clamp_prio(double sum, bool *clamped_high)
{
	uint64_t whole;

	if (clamped_high)
		*clamped_high = false;
	if (sum < 1.0)
		return 1;
	whole = (uint64_t) sum;
	if (whole > PRISM_PRIO_MAX) {
		if (clamped_high)
			*clamped_high = true;
		return PRISM_PRIO_MAX;
	}
	return (uint32_t) whole;
}

/*
 * The order of the additions follows Slurm's, so that both plugins round
 * the same way and agree to the last unit.
 */
extern uint32_t prism_prio_total(const prism_terms_t *t, bool *clamped_high)
{
	double sum = t->age + t->assoc + t->fs + t->js + t->part + t->qos +
		     t->tres + _site(t) - _nice(t);

	return _clamp_prio(sum, clamped_high);
}

extern uint32_t prism_prio_total_in_part(const prism_terms_t *t,
					 double part_term, double tres_term,
					 bool *clamped_high)
{
	return prism_prio_total_in_entry(t, part_term, t->qos, tres_term,
					 clamped_high);
}

extern uint32_t prism_prio_total_in_entry(const prism_terms_t *t,
					  double part_term, double qos_term,
					  double tres_term, bool *clamped_high)
{
	double sum = part_term + (t->age + t->assoc + t->fs + t->js +
				  qos_term + tres_term + _site(t) - _nice(t));

	return _clamp_prio(sum, clamped_high);
}

extern double prism_entry_qos_term(const prism_prio_conf_t *conf,
				   const prism_terms_t *terms, bool has_prio,
				   double factor)
{
	if (!has_prio || !conf->weight_qos)
		return terms->qos;
	return factor * (double) conf->weight_qos;
}

extern uint32_t prism_prio_update(bool incr_only, uint32_t current,
				  uint32_t computed)
{
	if (incr_only && current >= computed)
		return current;
	return computed;
}
