/*****************************************************************************\
 *  prism_fairtree.c - the Fair Tree fair-share algorithm (see
 *  prism_fairtree.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prism_fairtree.h"
#include "prism_fs.h"

typedef struct {
	prism_ft_node_t *nodes;
	size_t n;
	uint32_t *children;
	size_t n_children;
	uint32_t user_count;
	uint32_t rank;		/* current rank, starts at user_count */
	uint32_t rank_no_ties;	/* what the rank would be without ties */
	uint32_t *tmp;		/* room for the largest sibling set */
	struct ft_key *keys;	/* the same, twice (key, then merge room) */
	bool any_order;		/* slices in any order, ties by index */
	bool reshaped;		/* (any_order) a slice is not its range */
	prism_error_t *err;
} walk_t;

/* A node's usage over its parent's (Slurm's usage_efctv). */
static inline long double _efctv(const prism_ft_node_t *nodes,
				 const prism_ft_node_t *node)
{
	const prism_ft_node_t *parent = node->fs_parent == PRISM_FT_NONE ?
					NULL : &nodes[node->fs_parent];

	if (!parent || parent->usage_raw == 0.0L)
		return 0.0L;
	return node->usage_raw / parent->usage_raw;
}

extern void prism_fairtree_usages(const prism_ft_node_t *nodes, size_t i,
				  long double *usage_efctv,
				  long double *usage_norm)
{
	*usage_efctv = _efctv(nodes, &nodes[i]);
	*usage_norm = prism_fs_usage_norm(nodes[i].usage_raw,
					  nodes[0].usage_raw);
}

/* Level fair-share of one node (Slurm's _calc_assoc_fs). */
static void _level_fs(const prism_ft_node_t *nodes, prism_ft_node_t *node)
{
	long double s = node->shares_norm;
	long double u = _efctv(nodes, node);

	if (node->use_parent) {
		node->level_fs = node->is_user ? (long double) INFINITY :
						 PRISM_FT_NO_VAL;
		return;
	}
	/* U == 0 with S != 0 gives infinity: the most under-served */
	node->level_fs = s == 0.0L ? 0.0L : s / u;
}

/* Sort order: higher level_fs first, users before accounts on ties. */
static inline int _cmp_rank(const prism_ft_node_t *a, const prism_ft_node_t *b)
{
	if (a->level_fs != b->level_fs)
		return a->level_fs < b->level_fs ? 1 : -1;
	if (a->is_user == b->is_user)
		return 0;
	return a->is_user ? -1 : 1;
}

/*
 * Sort 'n' node indices by _cmp_rank(): the merge sort glibc's qsort runs
 * (as Slurm sorts siblings), step for step: halves of n / 2 and n - n / 2,
 * the left element first unless the right one sorts strictly before it.
 * The same comparisons give the same order, ties included, without a
 * call through a function pointer per comparison. 'tmp' has room for n.
 */
static void _sort_kids(uint32_t *b, size_t n, uint32_t *tmp,
		       const prism_ft_node_t *nodes)
{
	size_t n1 = n / 2, n2 = n - n1;
	uint32_t *b1 = b, *b2 = b + n1, *t = tmp;

	if (n <= 1)
		return;
	_sort_kids(b1, n1, tmp, nodes);
	_sort_kids(b2, n2, tmp, nodes);
	while (n1 > 0 && n2 > 0) {
		if (_cmp_rank(&nodes[*b1], &nodes[*b2]) <= 0) {
			*t++ = *b1++;
			n1--;
		} else {
			*t++ = *b2++;
			n2--;
		}
	}
	if (n1 > 0)
		memcpy(t, b1, n1 * sizeof(*b1));
	memcpy(b, tmp, (n - n2) * sizeof(*b));
}

/*
 * Sorting on keys. With x87's 80-bit long double, a level fair-share that
 * is not negative and not NaN is stored as a 15-bit exponent and a 64-bit
 * mantissa (its integer bit explicit) whose bytes, read as one unsigned
 * number, order as the values do; equal values have equal bytes. A key of
 * (exponent, mantissa, is_user) then orders siblings as _cmp_rank() does,
 * highest first, and ties are decided by 'pos', the place in list order:
 * the order of _sort_kids()'s merge sort (stable), ties included, without
 * an x87 compare and a load of two nodes per comparison. With 'pos' in
 * the key the order is total, so every sort gives it, from any starting
 * order. A level that is negative, -0, NaN or not a canonical encoding
 * (never computed: a guard) leaves the set to _sort_kids().
 */
typedef struct ft_key {
	uint64_t hi;		/* exponent, then the mantissa's top bit */
	uint64_t lo;		/* the mantissa's other 63 bits, is_user */
	uint32_t idx;
	uint32_t pos;		/* list order: ties, the lower first */
} ft_key_t;

#if LDBL_MANT_DIG == 64 && LDBL_MAX_EXP == 16384 && \
	(defined(__x86_64__) || defined(__i386__))
#define FT_KEYS 1
#else
#define FT_KEYS 0
#endif

/* The key of node 'idx', 'pos' in list order; false when its level has
 * none. */
static bool _key_of(const prism_ft_node_t *nodes, uint32_t idx, uint32_t pos,
		    ft_key_t *k)
{
#if FT_KEYS
	unsigned char b[sizeof(long double)];
	uint64_t mant;
	uint16_t se, exp;
	bool integer_bit;

	memcpy(b, &nodes[idx].level_fs, sizeof(b));
	memcpy(&mant, b, sizeof(mant));
	memcpy(&se, b + 8, sizeof(se));
	exp = se & 0x7fff;
	integer_bit = mant >> 63;
	if ((se & 0x8000) ||				/* negative, -0 */
	    (exp && !integer_bit) || (!exp && integer_bit) ||
	    ((exp == 0x7fff) && (mant << 1)))		/* NaN */
		return false;
	k->hi = ((uint64_t) exp << 1) | integer_bit;
	k->lo = (mant << 1) | nodes[idx].is_user;
	k->idx = idx;
	k->pos = pos;
	return true;
#else
	return false;
#endif
}

static inline bool _key_before(const ft_key_t *a, const ft_key_t *b)
{
	if (a->hi != b->hi)
		return a->hi > b->hi;
	if (a->lo != b->lo)
		return a->lo > b->lo;
	return a->pos < b->pos;
}

/*
 * Sorts by key (a total order: any sort gives the same result). Short
 * runs are sorted by insertion (no call and no copy per element), longer
 * ones merged. A set that comes nearly in order (last pass's ranking,
 * where few levels moved) is sorted by insertion as far as a budget of
 * element moves allows, then merged. 'tmp' has room for n.
 */
#define FT_INSERTION 12

/* Insertion sort of b[0..n-1], giving up (false) after 'budget' moves;
 * b[] is then a permutation of what it was. */
static bool _insertion_keys(ft_key_t *b, size_t n, size_t budget)
{
	for (size_t i = 1; i < n; i++) {
		ft_key_t k = b[i];
		size_t j = i;

		while (j > 0 && _key_before(&k, &b[j - 1])) {
			if (!budget--) {
				b[j] = k;
				return false;
			}
			b[j] = b[j - 1];
			j--;
		}
		b[j] = k;
	}
	return true;
}

static void _sort_keys(ft_key_t *b, size_t n, ft_key_t *tmp)
{
	size_t n1 = n / 2, n2 = n - n1;
	ft_key_t *b1 = b, *b2 = b + n1, *t = tmp;

	if (n <= FT_INSERTION) {
		(void) _insertion_keys(b, n, SIZE_MAX);
		return;
	}
	_sort_keys(b1, n1, tmp);
	_sort_keys(b2, n2, tmp);
	while (n1 > 0 && n2 > 0) {
		if (!_key_before(b2, b1)) {
			*t++ = *b1++;
			n1--;
		} else {
			*t++ = *b2++;
			n2--;
		}
	}
	if (n1 > 0)
		memcpy(t, b1, n1 * sizeof(*b1));
	memcpy(b, tmp, (n - n2) * sizeof(*b));
}

static int _cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

/*
 * Sort the 'n' node indices of 'kids' by rank: on keys when every node
 * has one ('keys' has room for 2n), else with _sort_kids() ('tmp' has
 * room for n). 'any_order': kids come in any order and list order is
 * the order of their indices (else kids come in list order). Returns
 * whether keys were used.
 */
static bool _sort_siblings(const prism_ft_node_t *nodes, uint32_t *kids,
			   size_t n, uint32_t *tmp, ft_key_t *keys,
			   bool any_order)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!_key_of(nodes, kids[i], any_order ? kids[i] : (uint32_t) i,
			     &keys[i]))
			break;
	if (i < n) {
		/* rare (a level never computed): list order, then compare */
		if (any_order)
			qsort(kids, n, sizeof(*kids), _cmp_u32);
		_sort_kids(kids, n, tmp, nodes);
		return false;
	}
	if (!any_order || (n <= FT_INSERTION) ||
	    !_insertion_keys(keys, n, 2 * n))
		_sort_keys(keys, n, keys + n);
	for (i = 0; i < n; i++)
		kids[i] = keys[i].idx;
	return true;
}

extern bool prism_fairtree_sort(const prism_ft_node_t *nodes,
				uint32_t *kids, size_t n, bool by_key)
{
	uint32_t *tmp = malloc(sizeof(*tmp) * (n + 1));
	ft_key_t *keys = by_key ? malloc(sizeof(*keys) * 2 * (n + 1)) : NULL;
	bool used = false;

	if (!tmp || (by_key && !keys))
		abort();	/* (for tests) */
	if (by_key)
		used = _sort_siblings(nodes, kids, n, tmp, keys, false);
	else
		_sort_kids(kids, n, tmp, nodes);
	free(tmp);
	free(keys);
	return used;
}

/*
 * Is the slice of 'node' in range? Any order (a rerun): does it hold only
 * the node's own children, first_child + 1 .. first_child + n_children (the
 * numbering's range)? A slice that does not was ranked in a tree of
 * another shape: w->reshaped is set, no error.
 */
static bool _slice_ok(walk_t *w, const prism_ft_node_t *node)
{
	const uint32_t *kids = w->children + node->first_child;

	if ((size_t) node->first_child + node->n_children > w->n_children) {
		prism_error_set(w->err, "children slice out of range");
		return false;
	}
	if (w->any_order) {
		for (uint32_t i = 0; i < node->n_children; i++)
			if (kids[i] - node->first_child - 1 >=
			    node->n_children) {
				w->reshaped = true;
				return false;
			}
		return true;
	}
	for (uint32_t i = 0; i < node->n_children; i++)
		if (kids[i] >= w->n) {
			prism_error_set(w->err, "child index %u out of range",
					kids[i]);
			return false;
		}
	return true;
}

/*
 * Rank the children of 'parent' and walk them depth first. Slurm 22.05
 * never merges tied sibling accounts (its count of tied accounts stops at
 * the first account), so a tie only carries through 'tied'.
 */
static int _walk(walk_t *w, prism_ft_node_t *parent, bool account_tied,
		 unsigned depth)
{
	uint32_t *kids = w->children + parent->first_child;
	long double prev = PRISM_FT_NO_VAL;

	if (depth > w->n) {
		prism_error_set(w->err, "the tree has a cycle");
		return -1;
	}
	if (!_slice_ok(w, parent))
		return -1;
	for (uint32_t i = 0; i < parent->n_children; i++)
		_level_fs(w->nodes, &w->nodes[kids[i]]);
	(void) _sort_siblings(w->nodes, kids, parent->n_children, w->tmp,
			      w->keys, w->any_order);

	for (uint32_t i = 0; i < parent->n_children; i++) {
		prism_ft_node_t *node = &w->nodes[kids[i]];
		bool tied = (i == 0 && account_tied) ? true :
			    prev == node->level_fs;

		if (node->is_user) {
			if (!tied)
				w->rank = w->rank_no_ties;
			node->fs_factor = w->rank / (double) w->user_count;
			w->rank_no_ties--;
		} else if (_walk(w, node, tied, depth + 1)) {
			return -1;
		}
		prev = node->level_fs;
	}
	return 0;
}

/* The largest sibling set of the tree (slices not yet checked). */
static uint32_t _max_children(const prism_ft_node_t *nodes, size_t n)
{
	uint32_t max = 0;

	for (size_t i = 0; i < n; i++)
		if (nodes[i].n_children > max)
			max = nodes[i].n_children;
	return max;
}

static int _run(prism_ft_node_t *nodes, size_t n, uint32_t *children,
		size_t n_children_total, uint32_t user_count, bool any_order,
		prism_error_t *err)
{
	walk_t w = {
		.nodes = nodes, .n = n, .children = children,
		.n_children = n_children_total, .user_count = user_count,
		.rank = user_count, .rank_no_ties = user_count,
		.any_order = any_order, .err = err,
	};
	size_t max;
	int rc;

	if (!n) {
		prism_error_set(err, "empty tree");
		return -1;
	}
	max = (size_t) _max_children(nodes, n) + 1;
	w.tmp = malloc(sizeof(*w.tmp) * max);
	w.keys = malloc(sizeof(*w.keys) * 2 * max);
	if (!w.tmp || !w.keys) {
		free(w.tmp);
		free(w.keys);
		prism_error_set(err, "out of memory");
		return -1;
	}
	nodes[0].level_fs = PRISM_FT_NO_VAL;
	rc = _walk(&w, &nodes[0], false, 0);
	free(w.tmp);
	free(w.keys);
	return w.reshaped ? 1 : rc;
}

extern int prism_fairtree_run(prism_ft_node_t *nodes, size_t n,
			      uint32_t *children, size_t n_children_total,
			      uint32_t user_count, prism_error_t *err)
{
	return _run(nodes, n, children, n_children_total, user_count, false,
		    err);
}

extern int prism_fairtree_rerun(prism_ft_node_t *nodes, size_t n,
				uint32_t *children, size_t n_children_total,
				uint32_t user_count, prism_error_t *err)
{
	return _run(nodes, n, children, n_children_total, user_count, true,
		    err);
}
