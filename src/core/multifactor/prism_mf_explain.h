/*****************************************************************************\
 *  prism_mf_explain.h - the arithmetic behind `prism explain` under the
 *  multifactor policy: a job's weighted terms added up the way Slurm does
 *  (and clamped to its 32-bit priority), the factor behind each term, and
 *  why Fair Tree ranks a user association where it does (the first common
 *  ancestor with the user ranked next to it, and which two siblings there
 *  decided).
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MF_EXPLAIN_H
#define PRISM_MF_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_cols.h"
#include "prism_error.h"

/*
 * Notes
 *
 * The sum is sprio's: age + assoc + fairshare + jobsize + partition + qos
 * + (site - NICE_OFFSET) - (nice - NICE_OFFSET) + each TRES term, in that
 * order. Slurm's multifactor adds the same terms in a slightly different
 * order, then raises a sum below 1 to 1 (0 means held) and lowers one
 * above 4294967295 to it. Two orders of addition can round apart by a
 * fraction, so a priority one away from the sum is still "adds up".
 *
 * Fair Tree gives each user association fs_factor = rank / user count,
 * ranking in a depth-first walk of the tree sorted by level fair-share
 * (highest first) at each level. Two users are thus ordered at their
 * first common ancestor, by the level fair-share of its two children on
 * their paths; equal level fair-shares leave the order to the tree.
 */

/* No association (the parent of the root). */
#define PRISM_MF_NONE UINT32_MAX

/* A job's terms added up. */
typedef struct {
	double tres;		/* the TRES terms */
	double sum;		/* all the terms, as sprio prints it */
	uint32_t prio;		/* 'sum' clamped as Slurm stores it */
	int clamped;		/* -1: raised to 1, 1: lowered, 0: not */
} prism_mf_sum_t;

/* One association of the fair-share tree, as the controller reports it. */
typedef struct {
	uint32_t parent;	/* index of its parent, PRISM_MF_NONE: root */
	bool is_user;
	double level_fs;	/* Fair Tree's level fair-share */
	double fs_factor;	/* users: the fair-share factor */
} prism_mf_assoc_t;

/* Why a user association is ordered against another one. */
typedef struct {
	uint32_t other;		/* the other user association */
	uint32_t common;	/* their first common ancestor */
	uint32_t mine;		/* child of 'common' on the user's path */
	uint32_t theirs;	/* ... and on the other's path */
	bool tie;		/* equal level_fs: the tree order decided */
} prism_mf_decider_t;

/* A user association's Fair Tree rank and why. */
typedef struct {
	uint32_t rank;		/* 1: first; equal fs_factor, same rank */
	uint32_t users;		/* user associations in the tree */
	uint32_t tied;		/* other users with the same fs_factor */
	bool has_above;		/* some user ranks above it: 'above' */
	bool has_below;		/* some user ranks below it: 'below' */
	prism_mf_decider_t above;	/* the nearest user above */
	prism_mf_decider_t below;	/* the nearest user below */
} prism_mf_rank_t;

/* Add up the terms of sprio's row 'c' into 'out' (see the notes). */
extern void prism_mf_sum(const prism_cols_t *c, prism_mf_sum_t *out);

/*
 * Does the controller's priority 'prio' agree with 's' (equal, or one
 * away from rounding: see the notes)?
 */
extern bool prism_mf_sum_agrees(const prism_mf_sum_t *s, uint32_t prio);

/*
 * The factor behind a weighted 'term' of weight 'weight' (what sprio -n
 * shows): term / weight. Returns 0 when 'weight' is 0.
 */
extern double prism_mf_factor(double term, double weight);

/*
 * The Fair Tree rank of user association 'user' among the 'n' of 'a'
 * (every user association of the tree), and the deciding siblings
 * against the nearest user above and below it. Returns 0, or -1 with err
 * set when 'user' is out of range or not a user, or a parent index is out
 * of range or loops ('out' is then unchanged).
 */
extern int prism_mf_rank(const prism_mf_assoc_t *a, size_t n, uint32_t user,
			 prism_mf_rank_t *out, prism_error_t *err);

/*
 * Why Fair Tree orders user association 'user' against user association
 * 'other' of 'a' (n of them): their first common ancestor and its two
 * children on their paths, into 'out'. Returns 0, or -1 with err set when
 * either is out of range or not a user, they are the same, or a parent
 * index is out of range or loops ('out' is then unchanged).
 */
extern int prism_mf_diverge(const prism_mf_assoc_t *a, size_t n,
			    uint32_t user, uint32_t other,
			    prism_mf_decider_t *out, prism_error_t *err);

#endif /* PRISM_MF_EXPLAIN_H */
