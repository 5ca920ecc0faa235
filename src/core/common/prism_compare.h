/*****************************************************************************\
 *  prism_compare.h - which terms decide the order of two jobs: the
 *  arithmetic of `prism compare`, for any policy whose priority is a sum
 *  of terms (sprio's columns under each of Prism's policies).
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_COMPARE_H
#define PRISM_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * Job A's priority is the sum of its terms a[i], job B's of b[i]. The
 * difference of the sums is the sum of the differences d[i] = a[i] - b[i].
 * A term "decides" when the order of the two sums turns, or becomes a tie,
 * without it: d[i] has the sign of the total and |d[i]| >= |total|. When
 * no term decides alone, the order comes from several terms together; the
 * largest differences in the winner's favour are then listed first.
 */

/* Terms one comparison holds at most. */
#define PRISM_COMPARE_MAX 64

typedef struct {
	size_t n;
	double diff[PRISM_COMPARE_MAX];		/* a[i] - b[i] */
	size_t order[PRISM_COMPARE_MAX];	/* by |diff|, largest first */
	bool decides[PRISM_COMPARE_MAX];	/* see the notes */
	double total;				/* sum of diff[] */
	double for_winner;	/* the sum of the differences in the winner's
				 * favour, and against it: */
	double against;
	size_t deciders;	/* how many terms decide alone */
} prism_compare_t;

/*
 * Compare the n terms a[] of job A with b[] of job B into 'out' (see the
 * notes; a tie decides nothing). Returns 0, or -1 with 'err' set when
 * n > PRISM_COMPARE_MAX or a value is not finite; 'out' is then unchanged.
 */
extern int prism_compare_terms(const double *a, const double *b, size_t n,
			       prism_compare_t *out, prism_error_t *err);

#endif /* PRISM_COMPARE_H */
