/*****************************************************************************\
 *  jobrec.h - helpers on slurmctld's job record that every policy uses:
 *  the sizes Slurm judges a job by, the weighted factors sprio shows, and
 *  one priority per partition of a multi-partition job.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_JOBREC_H
#define PRISM_JOBREC_H

#include <string.h>

#include "ctl.h"
#include "prism_cols.h"

/* The CPU count Slurm sizes a job by: allocated, else requested. The job
 * has details. */
extern uint32_t prism_job_cpus(const job_record_t *job_ptr);

/* The job's time limit in minutes (its partition's without one). */
extern uint32_t prism_job_time_limit(const job_record_t *job_ptr);

/*
 * Empty job_ptr->prio_factors (creating it) and give it new, zeroed arrays
 * for 'tres_cnt' per-TRES values and weights (none for 0); returns it
 * (owned by the job). prism_job_clear_factors() empties it without
 * creating one. Caller holds the job write lock.
 */
extern prism_factors_t *prism_job_reset_factors_anew(
	job_record_t *job_ptr, uint32_t tres_cnt);
extern void prism_job_clear_factors(job_record_t *job_ptr);

/*
 * prism_job_reset_factors_anew(), but the per-TRES array of the right size
 * is kept as it is, so that a pass does not reallocate it for every job:
 * the caller writes every value. The TRES weights, if the factors have
 * their own, are kept too (see prism_job_weights_put()). (Inline: a pass
 * meets most jobs with them.)
 */
static inline prism_factors_t *prism_job_reset_factors(
	job_record_t *job_ptr, uint32_t tres_cnt)
{
	prism_factors_t *f = job_ptr->prio_factors;
	double *tres, *weights;

	if (!f || !tres_cnt || (f->tres_cnt != tres_cnt) ||
	    !f->priority_tres || f->tres_names)
		return prism_job_reset_factors_anew(job_ptr, tres_cnt);
	tres = f->priority_tres;
	weights = f->tres_weights;
	memset(f, 0, sizeof(*f));
	f->priority_tres = tres;
	f->tres_weights = weights;
	f->tres_cnt = tres_cnt;
	return f;
}

/*
 * The TRES weights of the jobs' factors. Every job computed with the same
 * PriorityWeightTRES would carry the same array of weights beside its
 * per-TRES values (what sprio divides them by), written every pass: the
 * factors carry none (tres_weights NULL) when they were computed with the
 * shared weights, the array of the configuration in force when they were
 * last set (ctl.h, prism_conf_get(): kept until prism_conf_free()), and a
 * copy of their own only when computed with others. A pass whose
 * configuration has other weights (a reconfigure changed them) first has
 * every job whose factors have none of their own keep a copy of the
 * shared ones, and makes its own weights the shared ones in the same
 * hold of the job write lock as the last of those jobs: at no moment does
 * a job's factors show weights they were not computed with. The shared
 * weights and the factors' own change under the job write lock (share()
 * also at start and after the recalculation thread stopped) and are read
 * under the job lock.
 */
typedef struct {
	const double *w;	/* NULL: none */
	uint32_t cnt;		/* entries of w */
} prism_job_weights_t;

extern prism_job_weights_t prism_job_weights;

/* Are 'w' of 'cnt' TRES not the shared weights? */
static inline bool prism_job_weights_differ(const double *w, uint32_t cnt)
{
	return (w != prism_job_weights.w) || (cnt != prism_job_weights.cnt);
}

/* The factors 'f', computed with the first f->tres_cnt of 'w', carry
 * them: none of their own when 'w' are the shared weights (inline: every
 * pending job's, every pass). */
extern void prism_job_weights_put_own(prism_factors_t *f, const double *w);
static inline void prism_job_weights_put(prism_factors_t *f, const double *w)
{
	if ((w == prism_job_weights.w) && !f->tres_weights)
		return;
	prism_job_weights_put_own(f, w);
}

/* 'job_ptr''s factors keep a copy of the shared weights if they have
 * none of their own: a walk of every job before they change. */
extern void prism_job_weights_keep(job_record_t *job_ptr);

/* Make 'w' of 'cnt' TRES the shared weights: at start (no job has factors
 * of Prism's yet), and once every job has kept the old ones. */
extern void prism_job_weights_share(const double *w, uint32_t cnt);

/* The weights 'f''s per-TRES values were computed with (its own or the
 * shared ones), or NULL. */
static inline const double *prism_job_factors_weights(const prism_factors_t *f)
{
	if (f->tres_weights)
		return f->tres_weights;
	if (f->priority_tres && f->tres_cnt &&
	    (f->tres_cnt <= prism_job_weights.cnt))
		return prism_job_weights.w;
	return NULL;
}

/*
 * The priority of a job in one entry of its priority array: partition
 * 'part_ptr' and QOS 'qos_ptr' (NULL: the job asked for one QOS, its
 * own). 'arg' is the caller's, 'i' the entry's index, 'prev' what the
 * entry holds now (0 when new). Returns the entry's new value.
 */
typedef uint32_t (*prism_entry_prio_fn)(void *arg, job_record_t *job_ptr,
					 part_record_t *part_ptr,
					 slurmdb_qos_rec_t *qos_ptr, int i,
					 uint32_t prev);

/*
 * Fill the job's priority array, one entry per partition of a
 * multi-partition job (PriorityTier order) and, from Slurm 24.11 on, per
 * QOS of a multi-QOS job (partition-major, the order the scheduler reads
 * them in), each from 'fn'. The array is allocated when missing or of
 * another size, entries kept otherwise; a job of one partition and one
 * QOS has none. Caller holds the job write lock and the assoc_mgr QOS
 * read lock.
 */
static inline void prism_job_prio_array_fill(job_record_t *job_ptr,
					     prism_entry_prio_fn fn, void *arg);
/* (the jobs with entries, or a struct to give up; most jobs have neither,
 * and that case is inline) */
extern void prism_job_prio_array_fill_some(job_record_t *job_ptr,
					   prism_entry_prio_fn fn, void *arg);

static inline void prism_job_prio_array_fill(job_record_t *job_ptr,
					     prism_entry_prio_fn fn, void *arg)
{
	if (job_ptr->part_ptr_list || prism_job_qos_list(job_ptr) ||
	    prism_job_prio_struct(job_ptr))
		prism_job_prio_array_fill_some(job_ptr, fn, arg);
}

/* sprio's eight columns between the factors 'f' and the core's record. */
extern void prism_job_cols_put(prism_factors_t *f, const prism_cols_t *c);
extern void prism_job_cols_get(const prism_factors_t *f, prism_cols_t *c);

/* Number of entries of the job's priority array (0: none). */
extern uint32_t prism_job_prio_entries(const job_record_t *job_ptr);

#endif /* PRISM_JOBREC_H */
