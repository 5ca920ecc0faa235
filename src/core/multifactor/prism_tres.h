/*****************************************************************************\
 *  prism_tres.h - the TRES priority term (PriorityWeightTRES): one factor
 *  per trackable resource and their weighted sum.
 *
 *  Part of Prism's core: pure C, no Slurm header. The adapter hands in
 *  Slurm's plain arrays (a job's allocated and requested counts, a
 *  partition's totals, the parsed weights); nothing here allocates.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_TRES_H
#define PRISM_TRES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Notes
 *
 * As Slurm's multifactor plugin defines it, for each TRES i:
 *   value     = allocated count, unless there is no allocation or it is
 *               PRISM_TRES_NO_CONSUME; then the requested count (0: none)
 *   factor[i] = value                       with NO_NORMAL_TRES,
 *             = value / partition total[i]  when both are non-zero,
 *             = (left as it was)            otherwise
 *   term      = sum over i, in index order, of factor[i] * weight[i]
 * The per-TRES weighted values are what sprio shows; the term adds into
 * the priority. "Left as it was" matters: Slurm recomputes sprio's row
 * for each partition of a multi-partition job over the already weighted
 * values of the job's own partition, and the entries it does not set are
 * weighted a second time. prism_tres_factors() keeps that behaviour so
 * sprio shows the same numbers; give it a zeroed array for plain factors.
 */

/* Slurm's NO_CONSUME_VAL64: a TRES the job holds but does not consume. */
#define PRISM_TRES_NO_CONSUME UINT64_C(0xfffffffffffffffd)

/* A job's TRES counts, each array indexed like the cluster's TRES. */
typedef struct {
	const uint64_t *alloc;	/* allocated (tres_alloc_cnt), NULL: none */
	const uint64_t *req;	/* requested (tres_req_cnt), NULL: none */
} prism_tres_use_t;

/*
 * PriorityWeightTRES as a pass weighs by: the weights, and their TRES in
 * an order that puts those of non-zero weight first, so that a job's
 * weighted values are computed only where they can be other than 0.
 */
typedef struct {
	const double *w;	/* cnt weights; NULL: none */
	const uint32_t *order;	/* cnt TRES indices: those of non-zero
				 * weight ascending, then the others
				 * ascending (prism_tres_wt_order());
				 * NULL: not built */
	uint32_t cnt;
	uint32_t on;		/* order[0..on): the non-zero weights' */
} prism_tres_wt_t;

/*
 * Fill order[0..cnt) for weights[0..cnt) as prism_tres_wt_t says and
 * return how many weights are not 0 (a NaN is not 0, -0 is). Never fails.
 */
extern uint32_t prism_tres_wt_order(const double *weights, uint32_t cnt,
				    uint32_t *order);

/*
 * The count of TRES 'i' the factor uses: allocated, else requested
 * (see Notes). A NULL 'use' or missing arrays give 0. Never fails.
 */
extern uint64_t prism_tres_value(const prism_tres_use_t *use, uint32_t i);

/*
 * Set factors[0..cnt) for 'use' in a partition whose totals are
 * 'part_tres' (NULL: the partition has none), raw when 'no_normal'.
 * Entries with no factor are left unchanged (see Notes). Writes nothing
 * when 'factors' is NULL. Never fails.
 */
extern void prism_tres_factors(const prism_tres_use_t *use,
			       const uint64_t *part_tres, uint32_t cnt,
			       bool no_normal, double *factors);

/*
 * prism_tres_factors() over factors[0..cnt) and then, where 'weights' is
 * not NULL, each of factors[0..wcnt) multiplied by its weight as
 * prism_tres_weigh() does (the sum is not wanted): the same numbers, bit
 * for bit, in one loop. Writes nothing when 'factors' is NULL. Never
 * fails.
 */
extern void prism_tres_factors_weigh(const prism_tres_use_t *use,
				     const uint64_t *part_tres, uint32_t cnt,
				     const double *weights, uint32_t wcnt,
				     bool no_normal, double *factors);

/*
 * Multiply factors[0..cnt) by weights[0..cnt) in place and return their
 * sum, added in index order like Slurm's. Returns 0 and leaves 'factors'
 * unchanged when 'weights' or 'factors' is NULL (no PriorityWeightTRES).
 */
extern double prism_tres_weigh(const double *weights, uint32_t cnt,
			       double *factors);

/*
 * Write out[0..cnt) = factor[i] * wt->w[i] for 'use' in a partition with
 * totals 'part_tres' and return their sum: the same numbers, bit for bit,
 * as prism_tres_factors() on a zeroed array followed by
 * prism_tres_weigh(), in one loop that computes no factor where the
 * weight is 0 (and, for a pending job normalised by its partition, with
 * wt->order over all wt->cnt TRES, meets only the TRES of non-zero weight
 * but to write 0 to the others). 'cnt' is at most wt->cnt. Returns 0 and
 * writes nothing when wt->w or 'out' is NULL. Never fails, allocates
 * nothing.
 */
extern double prism_tres_weighted(const prism_tres_use_t *use,
				  const uint64_t *part_tres,
				  const prism_tres_wt_t *wt, uint32_t cnt,
				  bool no_normal, double *out);

/*
 * The weighted TRES term of 'use' in a partition with totals 'part_tres'
 * without keeping the per-TRES values: the same number, bit for bit, as
 * prism_tres_factors() on a zeroed array followed by prism_tres_weigh().
 * Returns 0 when 'weights' is NULL. Never fails, allocates nothing.
 */
extern double prism_tres_term(const prism_tres_use_t *use,
			      const uint64_t *part_tres,
			      const double *weights, uint32_t cnt,
			      bool no_normal);

#endif /* PRISM_TRES_H */
