/*****************************************************************************\
 *  prism_mf_explain.c - the arithmetic of `prism explain` under the
 *  multifactor policy (see prism_mf_explain.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "prism_mf_explain.h"

extern void prism_mf_sum(const prism_cols_t *c, prism_mf_sum_t *out)
{
	double sum = c->age + c->assoc + c->fs + c->js + c->part + c->qos +
		     (double) ((int64_t) c->site - PRISM_NICE_OFFSET) -
		     (double) ((int64_t) c->nice - PRISM_NICE_OFFSET);

	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; c->tres && i < c->tres_cnt; i++) {
		out->tres += c->tres[i];
		sum += c->tres[i];
	}
	out->sum = sum;
	if (!(sum >= 1)) {
		out->prio = 1;
		out->clamped = -1;
	} else if (sum >= (double) UINT32_MAX + 1.0) {
		out->prio = UINT32_MAX;
		out->clamped = 1;
	} else {
		out->prio = (uint32_t) sum;
	}
}

extern bool prism_mf_sum_agrees(const prism_mf_sum_t *s, uint32_t prio)
{
	if (s->clamped)
		return prio == s->prio;
	return prio == s->prio || (prio > s->prio && prio - s->prio == 1) ||
	       (prio < s->prio && s->prio - prio == 1);
}

extern double prism_mf_factor(double term, double weight)
{
	if (weight == 0)
		return 0;
	return term / weight;
}

/* The depth of 'i' (the root's is 0) into *depth; -1 when a parent is out
 * of range or the parents loop. */
static int _depth(const prism_mf_assoc_t *a, size_t n, uint32_t i,
		  uint32_t *depth)
{
	uint32_t d = 0;

	while (a[i].parent != PRISM_MF_NONE) {
		if (a[i].parent >= n || d >= n)
			return -1;
		i = a[i].parent;
		d++;
	}
	*depth = d;
	return 0;
}

/* Order 'user' against 'other' at their first common ancestor. Both are
 * valid indexes (checked by the caller) and different leaves. */
static void _decide(const prism_mf_assoc_t *a, size_t n, uint32_t user,
		    uint32_t other, prism_mf_decider_t *d)
{
	uint32_t x = user, y = other, dx = 0, dy = 0;

	(void) _depth(a, n, x, &dx);
	(void) _depth(a, n, y, &dy);
	for (; dx > dy; dx--)
		x = a[x].parent;
	for (; dy > dx; dy--)
		y = a[y].parent;
	while (a[x].parent != a[y].parent) {
		x = a[x].parent;
		y = a[y].parent;
	}
	d->other = other;
	d->common = a[x].parent;
	d->mine = x;
	d->theirs = y;
	d->tie = a[x].level_fs == a[y].level_fs;
}

/* Check every parent index of 'a'; -1 with err set when one is bad. */
static int _check_tree(const prism_mf_assoc_t *a, size_t n,
		       prism_error_t *err)
{
	uint32_t d;

	for (size_t i = 0; i < n; i++)
		if (_depth(a, n, (uint32_t) i, &d)) {
			prism_error_set(err,
					"association %zu: its parents are out of range or loop",
					i);
			return -1;
		}
	return 0;
}

extern int prism_mf_rank(const prism_mf_assoc_t *a, size_t n, uint32_t user,
			 prism_mf_rank_t *out, prism_error_t *err)
{
	prism_mf_rank_t r = { .rank = 1 };
	double mine, above = INFINITY, below = -INFINITY;
	uint32_t up = PRISM_MF_NONE, down = PRISM_MF_NONE;

	if (!a || user >= n || !a[user].is_user) {
		prism_error_set(err, "association %u is not a user association",
				user);
		return -1;
	}
	if (_check_tree(a, n, err))
		return -1;
	mine = a[user].fs_factor;
	for (uint32_t i = 0; i < n; i++) {
		double f = a[i].fs_factor;

		if (!a[i].is_user)
			continue;
		r.users++;
		if (i == user)
			continue;
		if (f > mine)
			r.rank++;
		if (f == mine)
			r.tied++;
		if (f > mine && f < above) {
			above = f;
			up = i;
		}
		if (f < mine && f > below) {
			below = f;
			down = i;
		}
	}
	r.has_above = up != PRISM_MF_NONE;
	r.has_below = down != PRISM_MF_NONE;
	if (r.has_above)
		_decide(a, n, user, up, &r.above);
	if (r.has_below)
		_decide(a, n, user, down, &r.below);
	*out = r;
	return 0;
}

extern int prism_mf_diverge(const prism_mf_assoc_t *a, size_t n,
			    uint32_t user, uint32_t other,
			    prism_mf_decider_t *out, prism_error_t *err)
{
	if (!a || user >= n || other >= n || !a[user].is_user ||
	    !a[other].is_user || user == other) {
		prism_error_set(err, "associations %u and %u are not two user associations",
				user, other);
		return -1;
	}
	if (_check_tree(a, n, err))
		return -1;
	_decide(a, n, user, other, out);
	return 0;
}
