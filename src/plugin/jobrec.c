/*****************************************************************************\
 *  jobrec.c - helpers on slurmctld's job record that every policy uses.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/xmalloc.h"

#include "jobrec.h"

extern uint32_t prism_job_cpus(const job_record_t *job_ptr)
{
	const job_details_t *details = job_ptr->details;

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

extern void prism_job_clear_factors(job_record_t *job_ptr)
{
	prism_factors_t *f = job_ptr->prio_factors;

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
extern prism_factors_t *prism_job_reset_factors(
	job_record_t *job_ptr, uint32_t tres_cnt)
{
	prism_factors_t *f = job_ptr->prio_factors;
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

extern void prism_job_parts_fill(job_record_t *job_ptr, prism_part_prio_fn fn,
				 void *arg)
{
	part_record_t *part_ptr;
	list_itr_t *itr;
	int i = 0;

	if (!job_ptr->part_ptr_list)
		return;
	if (!job_ptr->priority_array)
		job_ptr->priority_array =
			xcalloc(list_count(job_ptr->part_ptr_list) + 1,
				sizeof(uint32_t));
	list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
	itr = list_iterator_create(job_ptr->part_ptr_list);
	while ((part_ptr = list_next(itr))) {
		job_ptr->priority_array[i] =
			fn(arg, job_ptr, part_ptr, i, job_ptr->priority_array[i]);
		i++;
	}
	list_iterator_destroy(itr);
}
