/*****************************************************************************\
 *  prism_whatif.c - the order of a pending queue before and after a
 *  change of policy (see prism_whatif.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "prism_whatif.h"

static const char *_s(const char *s)
{
	return s ? s : "";
}

/* The order of the notes for priorities 'pa' of entry 'a', 'pb' of 'b'. */
static int _queue_cmp(uint32_t pa, const prism_whatif_job_t *a, uint32_t pb,
		      const prism_whatif_job_t *b)
{
	if (pa != pb)
		return pa > pb ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return strcmp(_s(a->partition), _s(b->partition));
}

static int _cmp_before(const void *x, const void *y)
{
	const prism_whatif_job_t *a = *(prism_whatif_job_t *const *) x;
	const prism_whatif_job_t *b = *(prism_whatif_job_t *const *) y;

	return _queue_cmp(a->before, a, b->before, b);
}

static int _cmp_after(const void *x, const void *y)
{
	const prism_whatif_job_t *a = *(prism_whatif_job_t *const *) x;
	const prism_whatif_job_t *b = *(prism_whatif_job_t *const *) y;

	return _queue_cmp(a->after, a, b->after, b);
}

extern int prism_whatif_rank(prism_whatif_job_t *jobs, size_t n,
			     prism_error_t *err)
{
	prism_whatif_job_t **p;

	if (!n)
		return 0;
	p = calloc(n, sizeof(*p));
	if (!p) {
		prism_error_set(err, "out of memory ranking %zu jobs", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = &jobs[i];
	qsort(p, n, sizeof(*p), _cmp_before);
	for (size_t r = 0; r < n; r++)
		p[r]->rank_before = (uint32_t) r + 1;
	qsort(p, n, sizeof(*p), _cmp_after);
	for (size_t r = 0; r < n; r++)
		p[r]->rank_after = (uint32_t) r + 1;
	free(p);
	return 0;
}

static uint32_t _move(const prism_whatif_job_t *j)
{
	return j->rank_after > j->rank_before ?
		       j->rank_after - j->rank_before :
		       j->rank_before - j->rank_after;
}

/* Largest move first, then by rank after (unique: a total order). */
static int _cmp_move(const void *x, const void *y)
{
	const prism_whatif_job_t *a = *(prism_whatif_job_t *const *) x;
	const prism_whatif_job_t *b = *(prism_whatif_job_t *const *) y;

	if (_move(a) != _move(b))
		return _move(a) > _move(b) ? -1 : 1;
	return (a->rank_after > b->rank_after) - (a->rank_after < b->rank_after);
}

extern size_t prism_whatif_moves(const prism_whatif_job_t *jobs, size_t n,
				 size_t *order)
{
	const prism_whatif_job_t **p = calloc(n ? n : 1, sizeof(*p));
	size_t moved = 0;

	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		moved += _move(&jobs[i]) != 0;
	}
	if (!p)		/* out of memory: the queue order, moves unsorted */
		return moved;
	for (size_t i = 0; i < n; i++)
		p[i] = &jobs[i];
	qsort(p, n, sizeof(*p), _cmp_move);
	for (size_t i = 0; i < n; i++)
		order[i] = (size_t) (p[i] - jobs);
	free(p);
	return moved;
}

static int _cmp_job_acct(const void *x, const void *y)
{
	const prism_whatif_job_t *a = *(prism_whatif_job_t *const *) x;
	const prism_whatif_job_t *b = *(prism_whatif_job_t *const *) y;

	return strcmp(_s(a->account), _s(b->account));
}

extern int prism_whatif_accounts(const prism_whatif_job_t *jobs, size_t n,
				 prism_whatif_account_t **out, size_t *cnt,
				 prism_error_t *err)
{
	prism_whatif_account_t *a = calloc(n ? n : 1, sizeof(*a));
	const prism_whatif_job_t **p = calloc(n ? n : 1, sizeof(*p));
	size_t k = 0;

	*out = NULL;
	*cnt = 0;
	if (!a || !p) {
		free(a);
		free(p);
		prism_error_set(err, "out of memory summing %zu jobs", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = &jobs[i];
	qsort(p, n, sizeof(*p), _cmp_job_acct);
	for (size_t i = 0; i < n; i++) {
		const prism_whatif_job_t *j = p[i];

		if (!k || strcmp(a[k - 1].account, _s(j->account)))
			a[k++].account = _s(j->account);
		a[k - 1].jobs++;
		a[k - 1].up += j->rank_after < j->rank_before;
		a[k - 1].down += j->rank_after > j->rank_before;
		a[k - 1].mean_before += j->rank_before;
		a[k - 1].mean_after += j->rank_after;
	}
	for (size_t m = 0; m < k; m++) {
		a[m].mean_before /= a[m].jobs;
		a[m].mean_after /= a[m].jobs;
	}
	free(p);
	*out = a;
	*cnt = k;
	return 0;
}
