/*****************************************************************************\
 *  prism_fairtree.h - the Fair Tree fair-share algorithm (Slurm's
 *  default): level fair-share S/U per sibling set, a depth-first ranking
 *  of the tree, and fs_factor = rank / number of user associations.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_FAIRTREE_H
#define PRISM_FAIRTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * The tree is an array of nodes, node 0 the root. The children of a node
 * are a slice of a shared index array, in the order the association
 * manager lists them (the fair-share parent's children_list): that order
 * decides between ties exactly as it does for Slurm. A node's children
 * are its fair-share children, so an account with FairShare=parent has
 * none: its children hang from its own fair-share parent.
 *
 * Per sibling set, each node's level fair-share is LF = S / U, with S its
 * normalised shares and U its usage over its fair-share parent's usage.
 * Siblings are ranked by LF (highest first; users before accounts on
 * equal LF), users get fs_factor = rank / user_count as the walk meets
 * them; sibling users with equal LF share a rank, and an account tied
 * with the sibling before it passes the tie to its first child. Users
 * with FairShare=parent rank first (LF infinite); accounts with
 * FairShare=parent get LF = PRISM_FT_NO_VAL and are skipped.
 */

/* Slurm's NO_VAL as a level fair-share: "not used". */
#define PRISM_FT_NO_VAL 4294967294.0L

/* No fair-share parent (the root). */
#define PRISM_FT_NONE UINT32_MAX

typedef struct {
	/* inputs */
	uint32_t first_child;	/* into the children index array */
	uint32_t n_children;
	uint32_t fs_parent;	/* node index, PRISM_FT_NONE for the root */
	bool is_user;
	bool use_parent;	/* FairShare=parent */
	double shares_norm;	/* a double in Slurm's record too */
	long double usage_raw;
	/* results (Slurm's association usage fields; its usage_efctv and
	 * usage_norm are not kept: prism_fairtree_usages()) */
	long double level_fs;
	double fs_factor;		/* users only */
} prism_ft_node_t;	/* 64 bytes on x86-64: a cache line */

/*
 * Run Fair Tree over 'nodes' (n of them, node 0 the root) whose children
 * are listed in 'children'; 'user_count' is the number of user
 * associations (the rank's denominator). Fills the result fields of every
 * node below the root and the root's level_fs; reorders each node's slice
 * of 'children' by rank. Returns 0, or -1 with err set when the tree is
 * malformed (an index out of range); nodes are then partly updated.
 */
extern int prism_fairtree_run(prism_ft_node_t *nodes, size_t n,
			      uint32_t *children, size_t n_children_total,
			      uint32_t user_count, prism_error_t *err);

/*
 * The same, for a tree whose children are numbered in list order (each
 * node's children have ascending indices in its children_list's order,
 * as a breadth-first numbering gives), with each slice of 'children' in
 * any order: ties are decided by index. From the order the last run left
 * (the ranking of a tree of the same shape), a sibling set whose levels
 * kept their order costs one comparison per node instead of a sort.
 * The results, and the slices' order after the run, are those of
 * prism_fairtree_run() on the slices in list order. Each node's slice
 * must hold its children's range of indices (first_child + 1 ..
 * first_child + n_children), as the last run of a tree of the same shape
 * and node count left it: when one does not (the tree changed shape),
 * returns 1, with the nodes and slices partly updated, for a run from
 * list order. So a caller needs to keep only the last ranking and its
 * node count.
 */
extern int prism_fairtree_rerun(prism_ft_node_t *nodes, size_t n,
				uint32_t *children, size_t n_children_total,
				uint32_t user_count, prism_error_t *err);
/*
 * Slurm's usage_efctv (the usage over the parent's) and usage_norm (over
 * the root's, at most 1) of node 'i' (not the root), from the usages the
 * tree was run on: the values the run ranked with, bit for bit.
 */
extern void prism_fairtree_usages(const prism_ft_node_t *nodes, size_t i,
				  long double *usage_efctv,
				  long double *usage_norm);

/*
 * Sort the 'n' node indices of 'kids' by rank (highest level fair-share
 * first, users before accounts on ties, otherwise in their order), as
 * prism_fairtree_run() sorts each sibling set: on integer keys made of
 * the levels' bytes when 'by_key' and every level has one (returns true),
 * else by comparing the levels. Both ways give the same order; this entry
 * is for the tests that check it.
 */
extern bool prism_fairtree_sort(const prism_ft_node_t *nodes,
				uint32_t *kids, size_t n, bool by_key);

#endif /* PRISM_FAIRTREE_H */
