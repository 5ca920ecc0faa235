/*****************************************************************************\
 *  prism_compare.c - which terms decide the order of two jobs (see
 *  prism_compare.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <string.h>

#include "prism_compare.h"

static int _sign(double v)
{
	return (v > 0) - (v < 0);
}

/* Insertion sort of out->order by |diff|, largest first (stable). */
static void _order(prism_compare_t *out)
{
	for (size_t i = 0; i < out->n; i++) {
		size_t j = i;

		out->order[i] = i;
		while (j > 0 && fabs(out->diff[out->order[j - 1]]) <
				fabs(out->diff[i])) {
			out->order[j] = out->order[j - 1];
			j--;
		}
		out->order[j] = i;
	}
}

static int _check(const double *a, const double *b, size_t n,
		  prism_error_t *err)
{
	if (n > PRISM_COMPARE_MAX) {
		prism_error_set(err, "%zu terms: at most %d can be compared",
				n, PRISM_COMPARE_MAX);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!isfinite(a[i]) || !isfinite(b[i])) {
			prism_error_set(err, "term %zu is not a finite number",
					i);
			return -1;
		}
	return 0;
}

extern int prism_compare_terms(const double *a, const double *b, size_t n,
			       prism_compare_t *out, prism_error_t *err)
{
	prism_compare_t r;
	int s;

	if (_check(a, b, n, err))
		return -1;
	memset(&r, 0, sizeof(r));
	r.n = n;
	for (size_t i = 0; i < n; i++) {
		r.diff[i] = a[i] - b[i];
		r.total += r.diff[i];
	}
	s = _sign(r.total);
	for (size_t i = 0; i < n; i++) {
		if (s && _sign(r.diff[i]) == s)
			r.for_winner += fabs(r.diff[i]);
		else if (s && _sign(r.diff[i]) == -s)
			r.against += fabs(r.diff[i]);
		r.decides[i] = s && _sign(r.diff[i]) == s &&
			       fabs(r.diff[i]) >= fabs(r.total);
		r.deciders += r.decides[i];
	}
	_order(&r);
	*out = r;
	return 0;
}
