/*****************************************************************************\
 *  prism_fairtree.c - the Fair Tree fair-share algorithm (see
 *  prism_fairtree.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE	/* qsort_r */
#include <math.h>
#include <stdlib.h>

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
	prism_error_t *err;
} walk_t;

/* Level fair-share and usages of one node (Slurm's _calc_assoc_fs). */
static void _level_fs(prism_ft_node_t *nodes, prism_ft_node_t *node,
		      long double root_usage)
{
	const prism_ft_node_t *parent = node->fs_parent == PRISM_FT_NONE ?
					NULL : &nodes[node->fs_parent];
	long double s = node->shares_norm;
	long double u;

	if (!parent || parent->usage_raw == 0.0L)
		node->usage_efctv = 0.0L;
	else
		node->usage_efctv = node->usage_raw / parent->usage_raw;
	node->usage_norm = prism_fs_usage_norm(node->usage_raw, root_usage);
	u = node->usage_efctv;

	if (node->use_parent) {
		node->level_fs = node->is_user ? (long double) INFINITY :
						 PRISM_FT_NO_VAL;
		return;
	}
	/* U == 0 with S != 0 gives infinity: the most under-served */
	node->level_fs = s == 0.0L ? 0.0L : s / u;
}

/* Sort order: higher level_fs first, users before accounts on ties. */
static int _cmp_rank(const void *x, const void *y, void *arg)
{
	const prism_ft_node_t *nodes = arg;
	const prism_ft_node_t *a = &nodes[*(const uint32_t *) x];
	const prism_ft_node_t *b = &nodes[*(const uint32_t *) y];

	if (a->level_fs != b->level_fs)
		return a->level_fs < b->level_fs ? 1 : -1;
	if (a->is_user == b->is_user)
		return 0;
	return a->is_user ? -1 : 1;
}

static bool _slice_ok(const walk_t *w, const prism_ft_node_t *node)
{
	if ((size_t) node->first_child + node->n_children > w->n_children) {
		prism_error_set(w->err, "children slice out of range");
		return false;
	}
	for (uint32_t i = 0; i < node->n_children; i++)
		if (w->children[node->first_child + i] >= w->n) {
			prism_error_set(w->err, "child index %u out of range",
					w->children[node->first_child + i]);
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
	long double root_usage = w->nodes[0].usage_raw;

	if (depth > w->n) {
		prism_error_set(w->err, "the tree has a cycle");
		return -1;
	}
	if (!_slice_ok(w, parent))
		return -1;
	for (uint32_t i = 0; i < parent->n_children; i++)
		_level_fs(w->nodes, &w->nodes[kids[i]], root_usage);
	/* glibc's qsort is a stable merge sort here, as in Slurm */
	qsort_r(kids, parent->n_children, sizeof(*kids), _cmp_rank, w->nodes);

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

extern int prism_fairtree_run(prism_ft_node_t *nodes, size_t n,
			      uint32_t *children, size_t n_children_total,
			      uint32_t user_count, prism_error_t *err)
{
	walk_t w = {
		.nodes = nodes, .n = n, .children = children,
		.n_children = n_children_total, .user_count = user_count,
		.rank = user_count, .rank_no_ties = user_count, .err = err,
	};

	if (!n) {
		prism_error_set(err, "empty tree");
		return -1;
	}
	nodes[0].level_fs = PRISM_FT_NO_VAL;
	return _walk(&w, &nodes[0], false, 0);
}
