/*****************************************************************************\
 *  prism_tres.c - the TRES priority term (see prism_tres.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stddef.h>

#include "prism_tres.h"

extern uint32_t prism_tres_wt_order(const double *weights, uint32_t cnt,
				    uint32_t *order)
{
	uint32_t on = 0, k;

	for (uint32_t i = 0; i < cnt; i++)
		if (weights[i] != 0.0)
			order[on++] = i;
	k = on;
	for (uint32_t i = 0; i < cnt; i++)
		if (!(weights[i] != 0.0))
			order[k++] = i;
	return on;
}

extern uint64_t prism_tres_value(const prism_tres_use_t *use, uint32_t i)
{
	if (!use)
		return 0;
	if (use->alloc && (use->alloc[i] != PRISM_TRES_NO_CONSUME))
		return use->alloc[i];
	if (use->req)
		return use->req[i];
	return 0;
}

/*
 * The factor of TRES 'i' into *factor; *factor is left alone when Slurm
 * sets none (nothing to normalise by).
 */
static inline void _factor(const prism_tres_use_t *use,
			   const uint64_t *part_tres, uint32_t i,
			   bool no_normal, double *factor)
{
	uint64_t value = prism_tres_value(use, i);

	if (no_normal) {
		*factor = (double) value;
		return;
	}
	if (value && part_tres && part_tres[i])
		*factor = (double) value / (double) part_tres[i];
}

/*
 * _factor() for a job with nothing allocated (a pending job: the
 * requested counts 'req', not NULL), normalised by the partition's totals
 * 'part_tres' (not NULL), with the arrays in the caller's registers
 * instead of read through 'use' for every TRES.
 */
static inline void _pending_factor(const uint64_t *req,
				   const uint64_t *part_tres, uint32_t i,
				   double *factor)
{
	uint64_t value = req[i];

	if (value && part_tres[i])
		*factor = (double) value / (double) part_tres[i];
}

/* The weighted value of TRES 'i' of such a job. */
static inline double _pending_weighted(const uint64_t *req,
				       const uint64_t *part_tres,
				       const double *weights, uint32_t i)
{
	double weighted = 0.0;

	_pending_factor(req, part_tres, i, &weighted);
	return weighted * weights[i];
}

/* The common case of a pending job in a partition, normalised (a job
 * that requests nothing either takes the general way: all 0). */
static bool _pending_normal(const prism_tres_use_t *use,
			    const uint64_t *part_tres, bool no_normal)
{
	return use && !use->alloc && use->req && part_tres && !no_normal;
}

extern void prism_tres_factors(const prism_tres_use_t *use,
			       const uint64_t *part_tres, uint32_t cnt,
			       bool no_normal, double *factors)
{
	if (!factors)
		return;
	for (uint32_t i = 0; i < cnt; i++)
		_factor(use, part_tres, i, no_normal, &factors[i]);
}

extern void prism_tres_factors_weigh(const prism_tres_use_t *use,
				     const uint64_t *part_tres, uint32_t cnt,
				     const double *weights, uint32_t wcnt,
				     bool no_normal, double *factors)
{
	uint32_t i = 0;

	if (!factors)
		return;
	if (!weights)
		wcnt = 0;
	if (_pending_normal(use, part_tres, no_normal)) {
		const uint64_t *req = use->req;

		for (; i < cnt; i++) {
			_pending_factor(req, part_tres, i, &factors[i]);
			if (i < wcnt)
				factors[i] *= weights[i];
		}
		return;
	}
	for (; i < cnt; i++) {
		_factor(use, part_tres, i, no_normal, &factors[i]);
		if (i < wcnt)
			factors[i] *= weights[i];
	}
}

extern double prism_tres_weigh(const double *weights, uint32_t cnt,
			       double *factors)
{
	double sum = 0.0;

	if (!weights || !factors)
		return 0.0;
	for (uint32_t i = 0; i < cnt; i++) {
		factors[i] *= weights[i];
		sum += factors[i];
	}
	return sum;
}

/*
 * prism_tres_weighted() for a pending job normalised by its partition,
 * over the order of 'wt' (all its TRES): the same values and sum, as a
 * weight of 0 gives 0 and adding 0 changes no sum (one that starts at +0
 * is never -0).
 */
static double _pending_weighted_ordered(const uint64_t *req,
					const uint64_t *part_tres,
					const prism_tres_wt_t *wt, double *out)
{
	double sum = 0.0;
	uint32_t k;

	for (k = 0; k < wt->on; k++) {
		uint32_t i = wt->order[k];
		double weighted = _pending_weighted(req, part_tres, wt->w, i);

		out[i] = weighted;
		sum += weighted;
	}
	for (; k < wt->cnt; k++)
		out[wt->order[k]] = 0.0;
	return sum;
}

extern double prism_tres_weighted(const prism_tres_use_t *use,
				  const uint64_t *part_tres,
				  const prism_tres_wt_t *wt, uint32_t cnt,
				  bool no_normal, double *out)
{
	const double *weights = wt->w;
	double sum = 0.0;

	if (!weights || !out)
		return 0.0;
	if (_pending_normal(use, part_tres, no_normal)) {
		const uint64_t *req = use->req;

		if (wt->order && (cnt == wt->cnt))
			return _pending_weighted_ordered(req, part_tres, wt,
							 out);
		for (uint32_t i = 0; i < cnt; i++) {
			double weighted = 0.0;

			if (weights[i] != 0.0)
				weighted = _pending_weighted(req, part_tres,
							     weights, i);
			out[i] = weighted;
			sum += weighted;
		}
		return sum;
	}
	for (uint32_t i = 0; i < cnt; i++) {
		double weighted = 0.0;

		/* a weight of 0 gives 0 whatever the (finite) factor */
		if (weights[i] != 0.0) {
			_factor(use, part_tres, i, no_normal, &weighted);
			weighted *= weights[i];
		}
		out[i] = weighted;
		sum += weighted;
	}
	return sum;
}

extern double prism_tres_term(const prism_tres_use_t *use,
			      const uint64_t *part_tres,
			      const double *weights, uint32_t cnt,
			      bool no_normal)
{
	double sum = 0.0;

	if (!weights)
		return 0.0;
	if (_pending_normal(use, part_tres, no_normal)) {
		const uint64_t *req = use->req;

		for (uint32_t i = 0; i < cnt; i++)
			if (weights[i] != 0.0)
				sum += _pending_weighted(req, part_tres,
							 weights, i);
		return sum;
	}
	for (uint32_t i = 0; i < cnt; i++) {
		double weighted = 0.0;

		if (weights[i] == 0.0)
			continue;	/* adds 0 */
		_factor(use, part_tres, i, no_normal, &weighted);
		weighted *= weights[i];
		sum += weighted;
	}
	return sum;
}
