/*****************************************************************************\
 *  jobrec.c - helpers on slurmctld's job record that every policy uses.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

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

/* (an array of the right size is reused by prism_job_reset_factors(), so
 * a recalculation pass does not reallocate it for every job; the weights
 * are the caller's: prism_job_weights_put()) */
extern prism_factors_t *prism_job_reset_factors_anew(
	job_record_t *job_ptr, uint32_t tres_cnt)
{
	prism_factors_t *f = job_ptr->prio_factors;
	double *tres = NULL;

	if (!f) {
		f = xmalloc(sizeof(*f));
		job_ptr->prio_factors = f;
	}
	if (tres_cnt)
		tres = xcalloc(tres_cnt, sizeof(double));
	prism_job_clear_factors(job_ptr);
	f->priority_tres = tres;
	f->tres_cnt = tres_cnt;
	return f;
}

prism_job_weights_t prism_job_weights;

extern void prism_job_weights_put_own(prism_factors_t *f, const double *w)
{
	if (w == prism_job_weights.w) {
		xfree(f->tres_weights);
		return;
	}
	if (!f->tres_weights)
		f->tres_weights = xcalloc(f->tres_cnt, sizeof(double));
	memcpy(f->tres_weights, w, sizeof(double) * f->tres_cnt);
}

extern void prism_job_weights_keep(job_record_t *job_ptr)
{
	prism_factors_t *f = job_ptr->prio_factors;
	const double *w;

	if (!f || f->tres_weights || !(w = prism_job_factors_weights(f)))
		return;
	f->tres_weights = xcalloc(f->tres_cnt, sizeof(double));
	memcpy(f->tres_weights, w, sizeof(double) * f->tres_cnt);
}

extern void prism_job_weights_share(const double *w, uint32_t cnt)
{
	prism_job_weights = (prism_job_weights_t) { .w = w, .cnt = cnt };
}

extern uint32_t prism_job_prio_entries(const job_record_t *job_ptr)
{
	list_t *qos_list = prism_job_qos_list(job_ptr);
	uint32_t n = 0;

	if (job_ptr->part_ptr_list)
		n = list_count(job_ptr->part_ptr_list);
	if (qos_list)
		n = (n ? n : 1) * list_count(qos_list);
	return n;
}

#ifdef PRISM_PRIO_MULT
/* The job's priority struct ready for 'n' entries ('n' 0: none). */
static uint32_t *_prio_array(job_record_t *job_ptr, uint32_t n)
{
	__typeof__(PRISM_JOB_PRIO_MULT(job_ptr)) pp =
		PRISM_JOB_PRIO_MULT(job_ptr);
	time_t parts_changed = prism_ctl.last_part_update ?
				       *prism_ctl.last_part_update : 0;

	if (!n) {
		if (pp) {
			xfree(pp->priority_array);
			xfree(PRISM_PRIO_NAMES(pp));
			xfree(PRISM_JOB_PRIO_MULT(job_ptr));
		}
		return NULL;
	}
	if (!pp)
		pp = PRISM_JOB_PRIO_MULT(job_ptr) = xmalloc(sizeof(*pp));
	/* as multifactor: anew when partitions changed; and when the
	 * number of entries changed (a QOS list Slurm did not reset) */
	if (!pp->priority_array || (pp->last_update < parts_changed) ||
	    (xsize(pp->priority_array) != n * sizeof(uint32_t))) {
		xfree(pp->priority_array);
		pp->priority_array = xcalloc(n, sizeof(uint32_t));
		xfree(PRISM_PRIO_NAMES(pp));
		if (job_ptr->part_ptr_list)
			PRISM_PRIO_NAMES(pp) =
				part_list_to_xstr(job_ptr->part_ptr_list);
		pp->last_update = time(NULL);
	}
	return pp->priority_array;
}
#else
/* job_ptr->priority_array ready for 'n' entries (one spare, as Slurm). */
static uint32_t *_prio_array(job_record_t *job_ptr, uint32_t n)
{
	if (!n)
		return NULL;
	if (!job_ptr->priority_array)
		job_ptr->priority_array = xcalloc(n + 1, sizeof(uint32_t));
	return job_ptr->priority_array;
}
#endif

/* What one partition's entries are filled with. */
typedef struct {
	prism_entry_prio_fn fn;
	void *arg;
	job_record_t *job_ptr;
	part_record_t *part_ptr;
	uint32_t *array;
	int i;
} fill_t;

static int _fill_qos(void *x, void *arg)
{
	fill_t *f = arg;

	f->array[f->i] = f->fn(f->arg, f->job_ptr, f->part_ptr, x, f->i,
			       f->array[f->i]);
	f->i++;
	return 0;
}

static void _fill_part(fill_t *f, part_record_t *part_ptr)
{
	list_t *qos_list = prism_job_qos_list(f->job_ptr);

	f->part_ptr = part_ptr;
	if (qos_list)
		(void) list_for_each(qos_list, _fill_qos, f);
	else
		(void) _fill_qos(NULL, f);
}

#if !PRISM_CTLD_SORTS_PARTS
/* Is a partition list in tier order already? Walked with one lock. */
static int _tier_order_step(void *x, void *arg)
{
	part_record_t **prev = arg;
	part_record_t *part_ptr = x;

	if (*prev && (priority_sort_part_tier(prev, &part_ptr) > 0))
		return -1;
	*prev = part_ptr;
	return 0;
}

static bool _in_tier_order(list_t *part_list)
{
	part_record_t *prev = NULL;

	return list_for_each(part_list, _tier_order_step, &prev) >= 0;
}
#endif

/* list_for_each() over a job's partitions: the entries of one. */
static int _fill_part_of(void *x, void *arg)
{
	_fill_part(arg, x);
	return 0;
}

extern void prism_job_prio_array_fill_some(job_record_t *job_ptr,
					   prism_entry_prio_fn fn, void *arg)
{
	fill_t f = { .fn = fn, .arg = arg, .job_ptr = job_ptr };

	if (!(f.array = _prio_array(job_ptr, prism_job_prio_entries(job_ptr))))
		return;
	if (!job_ptr->part_ptr_list) {
		_fill_part(&f, job_ptr->part_ptr);
		return;
	}
#if !PRISM_CTLD_SORTS_PARTS
	/* before 24.11 the plugin keeps the list in tier order (a stable
	 * sort: a list in order already is left as it is) */
	if (!_in_tier_order(job_ptr->part_ptr_list))
		list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
#endif
	/* (one lock of the list, and no iterator to allocate) */
	(void) list_for_each(job_ptr->part_ptr_list, _fill_part_of, &f);
}

extern void prism_job_cols_put(prism_factors_t *f, const prism_cols_t *c)
{
	f->priority_age = c->age;
	f->priority_assoc = c->assoc;
	f->priority_fs = c->fs;
	f->priority_js = c->js;
	f->priority_part = c->part;
	f->priority_qos = c->qos;
	f->priority_site = c->site;
	f->nice = c->nice;
}

extern void prism_job_cols_get(const prism_factors_t *f, prism_cols_t *c)
{
	*c = (prism_cols_t) {
		.age = f->priority_age,
		.assoc = f->priority_assoc,
		.fs = f->priority_fs,
		.js = f->priority_js,
		.part = f->priority_part,
		.qos = f->priority_qos,
		.site = f->priority_site,
		.nice = f->nice,
	};
}
