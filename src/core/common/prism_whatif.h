/*****************************************************************************\
 *  prism_whatif.h - the order of a pending queue before and after a
 *  change of policy: each job's rank under its priority now and under the
 *  priority the change gives it, the jobs that move most, and a summary
 *  per account. The arithmetic of `prism whatif`, for every policy: the
 *  policy computes the priorities, this file orders them.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_WHATIF_H
#define PRISM_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * A queue is ordered as sprio and the scheduler order it: the highest
 * priority first, equal priorities by the lowest job id, then by the
 * partition name (a job pending in several partitions has one entry per
 * partition). Ranks count from 1, one per entry.
 */

/* One entry of the pending queue: a job in one partition. */
typedef struct {
	uint32_t id;
	const char *partition;		/* NULL: "" */
	const char *account;		/* NULL: "" */
	uint32_t before;		/* its priority now */
	uint32_t after;			/* ... and under the change */
	/* Set by prism_whatif_rank(): */
	uint32_t rank_before;
	uint32_t rank_after;
} prism_whatif_job_t;

/* What the change does to one account's entries. */
typedef struct {
	const char *account;		/* the entries' own string */
	uint32_t jobs;
	uint32_t up;			/* entries that rank higher */
	uint32_t down;			/* ... and lower */
	double mean_before;		/* mean rank */
	double mean_after;
} prism_whatif_account_t;

/*
 * Set rank_before and rank_after of the 'n' entries of 'jobs' (see the
 * notes). Returns 0, or -1 with 'err' set when out of memory.
 */
extern int prism_whatif_rank(prism_whatif_job_t *jobs, size_t n,
			     prism_error_t *err);

/*
 * The indexes of the 'n' ranked entries of 'jobs' into 'order' (room for
 * n): the largest move (|rank_after - rank_before|) first, equal moves by
 * rank_after. Returns how many entries move at all (they come first).
 */
extern size_t prism_whatif_moves(const prism_whatif_job_t *jobs, size_t n,
				 size_t *order);

/*
 * One summary per account of the 'n' ranked entries of 'jobs' into a new
 * array *out (freed by the caller) of *cnt, by account name. Returns 0,
 * or -1 with 'err' set when out of memory (*out NULL, *cnt 0).
 */
extern int prism_whatif_accounts(const prism_whatif_job_t *jobs, size_t n,
				 prism_whatif_account_t **out, size_t *cnt,
				 prism_error_t *err);

#endif /* PRISM_WHATIF_H */
