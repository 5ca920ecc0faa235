/*****************************************************************************\
 *  test_mf_explain.c - unit tests of prism_mf_explain: sprio's terms added
 *  up and clamped as Slurm does, the factor behind a term, and the Fair
 *  Tree rank reason (on Slurm's documented example, run through
 *  prism_fairtree first, and on hand-made trees).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <string.h>

#include "prism_fairtree.h"
#include "prism_mf_explain.h"
#include "test_core.h"

#define OFF PRISM_NICE_OFFSET
#define NONE PRISM_MF_NONE
#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* ---- the sum ---------------------------------------------------------- */

static const double tres2[] = { 100.5, 20.25 };

static const struct {
	const char *what;
	prism_cols_t c;
	double sum;
	uint32_t prio;
	int clamped;
} sum_rows[] = {
	{ "every term, no offset left",
	  { .age = 1000, .assoc = 200, .fs = 3000.5, .js = 40, .part = 500,
	    .qos = 60, .site = OFF, .nice = OFF },
	  4800.5, 4800, 0 },
	{ "site adds, nice subtracts",
	  { .age = 100, .site = OFF + 50, .nice = OFF + 30 }, 120, 120, 0 },
	{ "negative nice raises it",
	  { .age = 100, .site = OFF, .nice = OFF - 25 }, 125, 125, 0 },
	{ "TRES terms count",
	  { .age = 1, .site = OFF, .nice = OFF, .tres = tres2, .tres_cnt = 2 },
	  121.75, 121, 0 },
	{ "nothing at all is raised to 1 (0 means held)",
	  { .site = OFF, .nice = OFF }, 0, 1, -1 },
	{ "a large nice is raised to 1",
	  { .age = 500, .site = OFF, .nice = OFF + 10000 }, -9500, 1, -1 },
	{ "above 32 bits is lowered to 4294967295",
	  { .age = 4294967295.0, .qos = 10, .site = OFF, .nice = OFF },
	  4294967305.0, UINT32_MAX, 1 },
	{ "exactly 4294967295 is kept",
	  { .age = 4294967295.0, .site = OFF, .nice = OFF }, 4294967295.0,
	  UINT32_MAX, 0 },
};

START_TEST(test_sum)
{
	prism_mf_sum_t s;

	prism_mf_sum(&sum_rows[_i].c, &s);
	ck_assert_msg(fabs(s.sum - sum_rows[_i].sum) < 1e-9, "%s: sum %f",
		      sum_rows[_i].what, s.sum);
	ck_assert_msg(s.prio == sum_rows[_i].prio, "%s: prio %u",
		      sum_rows[_i].what, s.prio);
	ck_assert_msg(s.clamped == sum_rows[_i].clamped, "%s: clamped %d",
		      sum_rows[_i].what, s.clamped);
}
END_TEST

static const struct {
	const char *what;
	double sum;
	uint32_t prio;
	bool agrees;
} agree_rows[] = {
	{ "the same", 4800.5, 4800, true },
	{ "one above: another order of additions", 4800.99999, 4801, true },
	{ "one below", 4801.0, 4800, true },
	{ "two away", 4800.5, 4802, false },
	{ "clamped to 1: only 1", -5, 1, true },
	{ "clamped to 1: 2 is not it", -5, 2, false },
};

START_TEST(test_agrees)
{
	prism_cols_t c = { .age = agree_rows[_i].sum, .site = OFF,
			   .nice = OFF };
	prism_mf_sum_t s;

	prism_mf_sum(&c, &s);
	ck_assert_msg(prism_mf_sum_agrees(&s, agree_rows[_i].prio) ==
			      agree_rows[_i].agrees,
		      "%s", agree_rows[_i].what);
}
END_TEST

START_TEST(test_factor)
{
	ck_assert(fabs(prism_mf_factor(2500, 10000) - 0.25) < 1e-15);
	ck_assert(prism_mf_factor(0, 1000) == 0);
	ck_assert(prism_mf_factor(123, 0) == 0);
}
END_TEST

/* ---- the Fair Tree rank reason ---------------------------------------- */

/*
 * Slurm's Fair Tree document (doc/html/fair_tree.shtml): root => Acct1 =>
 * Acct12 => UserA and root => Acct1 => Acct16 => UserB; "Acct1 is the
 * first common ancestor of UserA and UserB. Check the Level FS values of
 * Acct12 and Acct16. If UserB has a higher FairShare value than UserA,
 * Acct16 has a higher Level FS value than Acct12." UserA used 30, UserB
 * 10, equal shares: Fair Tree (prism_fairtree) computes the values.
 */
enum { ROOT, ACCT1, ACCT12, ACCT16, USERA, USERB, DOC_N };

static void _doc_tree(prism_mf_assoc_t *a)
{
	static const uint32_t parent[DOC_N] = { NONE, ROOT, ACCT1, ACCT1,
						ACCT12, ACCT16 };
	prism_ft_node_t nodes[DOC_N];
	uint32_t children[] = { ACCT1, ACCT12, ACCT16, USERA, USERB };
	prism_error_t err = { "" };

	memset(nodes, 0, sizeof(nodes));
	for (int i = 0; i < DOC_N; i++)
		nodes[i].fs_parent = parent[i] == NONE ? PRISM_FT_NONE
						       : parent[i];
	nodes[ROOT] = (prism_ft_node_t) { .first_child = 0, .n_children = 1,
					  .fs_parent = PRISM_FT_NONE,
					  .usage_raw = 40 };
	nodes[ACCT1].first_child = 1;
	nodes[ACCT1].n_children = 2;
	nodes[ACCT12].first_child = 3;
	nodes[ACCT12].n_children = 1;
	nodes[ACCT16].first_child = 4;
	nodes[ACCT16].n_children = 1;
	nodes[ACCT1].shares_norm = 1;
	nodes[ACCT12].shares_norm = 0.5;
	nodes[ACCT16].shares_norm = 0.5;
	nodes[USERA].shares_norm = 1;
	nodes[USERB].shares_norm = 1;
	nodes[ACCT1].usage_raw = 40;
	nodes[ACCT12].usage_raw = nodes[USERA].usage_raw = 30;
	nodes[ACCT16].usage_raw = nodes[USERB].usage_raw = 10;
	nodes[USERA].is_user = nodes[USERB].is_user = true;
	ck_assert_int_eq(prism_fairtree_run(nodes, DOC_N, children,
					    N(children), 2, &err),
			 0);
	for (int i = 0; i < DOC_N; i++)
		a[i] = (prism_mf_assoc_t) {
			.parent = parent[i],
			.is_user = nodes[i].is_user,
			.level_fs = (double) nodes[i].level_fs,
			.fs_factor = nodes[i].fs_factor,
		};
}

START_TEST(test_doc_example)
{
	prism_mf_assoc_t a[DOC_N];
	prism_mf_rank_t r;
	prism_error_t err = { "" };

	_doc_tree(a);
	ck_assert(a[ACCT16].level_fs > a[ACCT12].level_fs);
	ck_assert(a[USERB].fs_factor > a[USERA].fs_factor);

	ck_assert_int_eq(prism_mf_rank(a, DOC_N, USERA, &r, &err), 0);
	ck_assert_uint_eq(r.rank, 2);
	ck_assert_uint_eq(r.users, 2);
	ck_assert(r.has_above && !r.has_below);
	ck_assert_uint_eq(r.above.other, USERB);
	ck_assert_uint_eq(r.above.common, ACCT1);
	ck_assert_uint_eq(r.above.mine, ACCT12);
	ck_assert_uint_eq(r.above.theirs, ACCT16);
	ck_assert(!r.above.tie);

	ck_assert_int_eq(prism_mf_rank(a, DOC_N, USERB, &r, &err), 0);
	ck_assert_uint_eq(r.rank, 1);
	ck_assert(!r.has_above && r.has_below);
	ck_assert_uint_eq(r.below.other, USERA);
	ck_assert_uint_eq(r.below.common, ACCT1);
	ck_assert_uint_eq(r.below.mine, ACCT16);
	ck_assert_uint_eq(r.below.theirs, ACCT12);
}
END_TEST

/*
 * A hand-made tree (level_fs and fs_factor as the controller reports
 * them): root -> A (LF 2) -> a1 (LF 3, fs 4/5), a2 (LF 1, fs 3/5)
 *             -> B (LF 1) -> b1 (LF 2, fs 2/5), B2 (LF 1) -> b2 (fs 1/5)
 *             -> C (LF 1) -> c1 (fs 2/5: tied with b1)
 */
enum { R, A, B, C, A1, A2, B1, B2, BB2, C1, T_N };
static const prism_mf_assoc_t tree[T_N] = {
	[R] = { NONE, false, 0, 0 },
	[A] = { R, false, 2, 0 },
	[B] = { R, false, 1, 0 },
	[C] = { R, false, 1, 0 },
	[A1] = { A, true, 3, 0.8 },
	[A2] = { A, true, 1, 0.6 },
	[B1] = { B, true, 2, 0.4 },
	[B2] = { B, false, 1, 0 },
	[BB2] = { B2, true, 1, 0.2 },
	[C1] = { C, true, 1, 0.4 },
};

static const struct {
	const char *what;
	uint32_t user;
	uint32_t rank, tied;
	/* nearest above and below: other, common, mine, theirs, tie;
	 * other NONE: none */
	prism_mf_decider_t above, below;
} rank_rows[] = {
	{ "first: no one above, its sibling below at A", A1, 1, 0,
	  { NONE, 0, 0, 0, false }, { A2, A, A1, A2, false } },
	{ "second: sibling above at A; B1 below, A beat B at the root", A2, 2,
	  0, { A1, A, A2, A1, false }, { B1, R, A, B, false } },
	{ "tied with c1: A above decided at the root, b2 below at B", B1, 3,
	  1, { A2, R, B, A, false }, { BB2, B, B1, B2, false } },
	{ "tied with b1: B and C tie at the root (tree order)", C1, 3, 1,
	  { A2, R, C, A, false }, { BB2, R, C, B, true } },
	{ "last, deeper than the user above it", BB2, 5, 0,
	  { B1, B, B2, B1, false }, { NONE, 0, 0, 0, false } },
};

static void _check_decider(const char *what, const char *side, bool has,
			   const prism_mf_decider_t *got,
			   const prism_mf_decider_t *want)
{
	ck_assert_msg(has == (want->other != NONE), "%s: %s present", what,
		      side);
	if (!has)
		return;
	ck_assert_msg(got->other == want->other &&
			      got->common == want->common &&
			      got->mine == want->mine &&
			      got->theirs == want->theirs &&
			      got->tie == want->tie,
		      "%s: %s: other %u common %u mine %u theirs %u tie %d",
		      what, side, got->other, got->common, got->mine,
		      got->theirs, got->tie);
}

START_TEST(test_rank)
{
	prism_mf_rank_t r;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_mf_rank(tree, T_N, rank_rows[_i].user, &r,
				       &err),
			 0);
	ck_assert_msg(r.rank == rank_rows[_i].rank, "%s: rank %u",
		      rank_rows[_i].what, r.rank);
	ck_assert_uint_eq(r.users, 5);
	ck_assert_msg(r.tied == rank_rows[_i].tied, "%s: tied %u",
		      rank_rows[_i].what, r.tied);
	_check_decider(rank_rows[_i].what, "above", r.has_above, &r.above,
		       &rank_rows[_i].above);
	_check_decider(rank_rows[_i].what, "below", r.has_below, &r.below,
		       &rank_rows[_i].below);
}
END_TEST

START_TEST(test_rank_bad_param)
{
	prism_mf_assoc_t loop[] = { { 1, false, 0, 0 }, { 0, true, 1, 1 } };
	prism_mf_assoc_t out_of_range[] = { { NONE, false, 0, 0 },
					     { 7, true, 1, 1 } };
	prism_mf_rank_t r = { .rank = 99 };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_mf_rank(tree, T_N, A, &r, &err), -1);
	ck_assert(strstr(err.text, "not a user"));
	ck_assert_int_eq(prism_mf_rank(tree, T_N, T_N, &r, &err), -1);
	ck_assert_int_eq(prism_mf_rank(NULL, 0, 0, &r, &err), -1);
	ck_assert_int_eq(prism_mf_rank(loop, 2, 1, &r, &err), -1);
	ck_assert(strstr(err.text, "loop"));
	ck_assert_int_eq(prism_mf_rank(out_of_range, 2, 1, &r, &err), -1);
	ck_assert_uint_eq(r.rank, 99);	/* unchanged on failure */
}
END_TEST

/* Two users anywhere in the tree: where their paths part, and how. */
static const struct {
	const char *what;
	uint32_t user, other;
	prism_mf_decider_t want;
} diverge_rows[] = {
	{ "siblings", A1, A2, { A2, A, A1, A2, false } },
	{ "cousins: A beats B at the root", A2, B1, { B1, R, A, B, false } },
	{ "uneven depths", BB2, A1, { A1, R, B, A, false } },
	{ "B and C tie at the root", C1, B1, { B1, R, C, B, true } },
	{ "under B, one level apart", B1, BB2, { BB2, B, B1, B2, false } },
};

START_TEST(test_diverge)
{
	prism_mf_decider_t d;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_mf_diverge(tree, T_N, diverge_rows[_i].user,
					  diverge_rows[_i].other, &d, &err),
			 0);
	_check_decider(diverge_rows[_i].what, "diverge", true, &d,
		       &diverge_rows[_i].want);
}
END_TEST

START_TEST(test_diverge_bad_param)
{
	prism_mf_assoc_t loop[] = { { 2, false, 0, 0 }, { 0, true, 1, 1 },
				    { 0, true, 1, 1 } };
	prism_mf_decider_t d = { .other = 99 };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_mf_diverge(tree, T_N, A1, A1, &d, &err), -1);
	ck_assert_int_eq(prism_mf_diverge(tree, T_N, A1, A, &d, &err), -1);
	ck_assert(strstr(err.text, "not two user associations"));
	ck_assert_int_eq(prism_mf_diverge(tree, T_N, A1, T_N, &d, &err), -1);
	ck_assert_int_eq(prism_mf_diverge(NULL, 0, 0, 1, &d, &err), -1);
	ck_assert_int_eq(prism_mf_diverge(loop, 3, 1, 2, &d, &err), -1);
	ck_assert(strstr(err.text, "loop"));
	ck_assert_uint_eq(d.other, 99);	/* unchanged on failure */
}
END_TEST

extern Suite *mf_explain_suite(void)
{
	Suite *s = suite_create("mf_explain");
	TCase *tc = tcase_create("mf_explain");

	tcase_add_loop_test(tc, test_sum, 0, N(sum_rows));
	tcase_add_loop_test(tc, test_agrees, 0, N(agree_rows));
	tcase_add_test(tc, test_factor);
	tcase_add_test(tc, test_doc_example);
	tcase_add_loop_test(tc, test_rank, 0, N(rank_rows));
	tcase_add_test(tc, test_rank_bad_param);
	tcase_add_loop_test(tc, test_diverge, 0, N(diverge_rows));
	tcase_add_test(tc, test_diverge_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
