/*****************************************************************************\
 *  jobrec.h - helpers on slurmctld's job record that every policy uses:
 *  the sizes Slurm judges a job by, the weighted factors sprio shows, and
 *  one priority per partition of a multi-partition job.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_JOBREC_H
#define PRISM_JOBREC_H

#include "ctl.h"

/* The CPU count Slurm sizes a job by: allocated, else requested. The job
 * has details. */
extern uint32_t prism_job_cpus(const job_record_t *job_ptr);

/* The job's time limit in minutes (its partition's without one). */
extern uint32_t prism_job_time_limit(const job_record_t *job_ptr);

/*
 * Empty job_ptr->prio_factors (creating it) but for 'tres_cnt' zeroed
 * per-TRES entries; returns it (owned by the job). Arrays of the right
 * size are reused. prism_job_clear_factors() empties it without creating
 * one. Caller holds the job write lock.
 */
extern prism_factors_t *prism_job_reset_factors(
	job_record_t *job_ptr, uint32_t tres_cnt);
extern void prism_job_clear_factors(job_record_t *job_ptr);

/*
 * The priority of a multi-partition job in one of its partitions: 'arg'
 * is the caller's, 'i' the entry's index, 'prev' what the entry holds
 * now (0 when new). Returns the entry's new value.
 */
typedef uint32_t (*prism_part_prio_fn)(void *arg, job_record_t *job_ptr,
					part_record_t *part_ptr, int i,
					uint32_t prev);

/*
 * Fill job_ptr->priority_array, one entry per partition of
 * job_ptr->part_ptr_list in PriorityTier order (the list is sorted so;
 * the array is allocated when missing, entries kept), each from 'fn'.
 * Nothing happens for a job of one partition. Caller holds the job write
 * lock.
 */
extern void prism_job_parts_fill(job_record_t *job_ptr, prism_part_prio_fn fn,
				 void *arg);

#endif /* PRISM_JOBREC_H */
