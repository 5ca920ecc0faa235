/*****************************************************************************\
 *  test_fairtree.c - unit tests of prism_fairtree: level fair-share,
 *  ranking, ties, zero shares, FairShare=parent, malformed trees.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prism_fairtree.h"
#include "test_core.h"

#define MAXN 16
#define PARENT -1.0	/* shares of a FairShare=parent association */

/* One association of a test tree; parent is an index, -1 for the root. */
typedef struct {
	const char *name;
	int parent;
	bool user;
	double shares;	/* raw shares, or PARENT */
	double usage;	/* raw usage of a user; accounts sum their children */
	double want_fs;	/* users: expected fs_factor */
} row_t;

typedef struct {
	prism_ft_node_t nodes[MAXN];
	uint32_t children[MAXN];
	size_t n;
	uint32_t users;
} tree_t;

/* Build nodes from rows: shares normalised among siblings, usage summed. */
static void _build(tree_t *t, const row_t *rows, size_t n)
{
	uint32_t next = 0;

	memset(t, 0, sizeof(*t));
	t->n = n + 1;
	t->nodes[0].fs_parent = PRISM_FT_NONE;
	for (size_t i = 0; i < n; i++) {
		prism_ft_node_t *node = &t->nodes[i + 1];

		node->fs_parent = rows[i].parent + 1;
		node->is_user = rows[i].user;
		node->use_parent = rows[i].shares == PARENT;
		if (rows[i].user) {
			t->users++;
			for (uint32_t p = node->fs_parent; p != PRISM_FT_NONE;
			     p = t->nodes[p].fs_parent)
				t->nodes[p].usage_raw += rows[i].usage;
			node->usage_raw += rows[i].usage;
		}
	}
	for (uint32_t p = 0; p < t->n; p++) {
		double total = 0;

		t->nodes[p].first_child = next;
		for (size_t i = 0; i < n; i++)
			if ((uint32_t) (rows[i].parent + 1) == p) {
				t->children[next++] = i + 1;
				if (rows[i].shares != PARENT)
					total += rows[i].shares;
			}
		t->nodes[p].n_children = next - t->nodes[p].first_child;
		for (size_t i = 0; i < n; i++)
			if ((uint32_t) (rows[i].parent + 1) == p &&
			    rows[i].shares != PARENT && total > 0)
				t->nodes[i + 1].shares_norm =
					rows[i].shares / total;
	}
}

static void _check(const row_t *rows, size_t n, const char *what)
{
	tree_t t;
	prism_error_t err = { "" };

	_build(&t, rows, n);
	ck_assert_msg(prism_fairtree_run(t.nodes, t.n, t.children, n, t.users,
					 &err) == 0,
		      "%s: %s", what, err.text);
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].user)
			continue;
		ck_assert_msg(fabs(t.nodes[i + 1].fs_factor - rows[i].want_fs) <
				      1e-12,
			      "%s: %s has fs_factor %f, want %f", what,
			      rows[i].name, t.nodes[i + 1].fs_factor,
			      rows[i].want_fs);
	}
}

/* Slurm's Fair Tree document: UserB's account Acct16 is less used than
 * UserA's Acct12, so UserB ranks above UserA. */
static const row_t doc_example[] = {
	{ "Acct1", -1, false, 1, 0, 0 },
	{ "Acct12", 0, false, 1, 0, 0 },
	{ "Acct16", 0, false, 1, 0, 0 },
	{ "UserA", 1, true, 1, 30, 0.5 },
	{ "UserB", 2, true, 1, 10, 1.0 },
};

/* Every user of a better-served account ranks below every user of a less
 * served one, whatever their own usage. */
static const row_t accounts_first[] = {
	{ "A", -1, false, 50, 0, 0 },
	{ "B", -1, false, 50, 0, 0 },
	{ "a1", 0, true, 1, 70, 1.0 / 4 },
	{ "a2", 0, true, 1, 10, 2.0 / 4 },
	{ "b1", 1, true, 1, 15, 3.0 / 4 },
	{ "b2", 1, true, 3, 5, 4.0 / 4 },
};

/* Sibling users with the same level fair-share share a rank. */
static const row_t tied_users[] = {
	{ "acct", -1, false, 1, 0, 0 },
	{ "u1", 0, true, 1, 0, 1.0 },
	{ "u2", 0, true, 1, 0, 1.0 },
	{ "u3", 0, true, 2, 50, 1.0 / 3 },
};

/* A user tied with a sibling account (both LF 1.0) is visited first and
 * the account's highest user (u3, no usage) shares its rank. */
static const row_t user_tied_with_account[] = {
	{ "top", -1, false, 1, 0, 0 },
	{ "u1", 0, true, 1, 10, 1.0 },
	{ "sub", 0, false, 1, 0, 0 },
	{ "u2", 2, true, 1, 10, 1.0 / 3 },
	{ "u3", 2, true, 1, 0, 1.0 },
};

/* Zero shares rank last; no usage (LF infinite) ties with a
 * FairShare=parent user (always infinite) at the top. */
static const row_t edges[] = {
	{ "acct", -1, false, 1, 0, 0 },
	{ "zero", 0, true, 0, 0, 1.0 / 4 },
	{ "idle", 0, true, 1, 0, 4.0 / 4 },
	{ "busy", 0, true, 1, 40, 2.0 / 4 },
	{ "inherit", 0, true, PARENT, 40, 4.0 / 4 },
};

START_TEST(test_trees)
{
	_check(doc_example, 5, "document example");
	_check(accounts_first, 6, "accounts first");
	_check(tied_users, 4, "tied users");
	_check(user_tied_with_account, 5, "user tied with account");
	_check(edges, 5, "zero shares, idle, FairShare=parent");
}
END_TEST

START_TEST(test_level_fs_values)
{
	tree_t t;
	prism_error_t err = { "" };
	long double efctv, norm;

	_build(&t, accounts_first, 6);
	ck_assert_int_eq(prism_fairtree_run(t.nodes, t.n, t.children, 6,
					    t.users, &err), 0);
	/* A: S 0.5, U 80/100 */
	ck_assert(fabsl(t.nodes[1].level_fs - 0.5L / 0.8L) < 1e-15L);
	prism_fairtree_usages(t.nodes, 1, &efctv, &norm);
	ck_assert(fabsl(efctv - 0.8L) < 1e-15L);
	ck_assert(fabsl(norm - 0.8L) < 1e-15L);
	/* b2: U 5 of its parent's 20, of the root's 100 */
	prism_fairtree_usages(t.nodes, 6, &efctv, &norm);
	ck_assert(fabsl(efctv - 0.25L) < 1e-15L);
	ck_assert(fabsl(norm - 0.05L) < 1e-15L);
	/* b2: S 3/4, U 5/20 */
	ck_assert(fabsl(t.nodes[6].level_fs - 3.0L) < 1e-15L);
	/* the root carries "not used" */
	ck_assert(t.nodes[0].level_fs == PRISM_FT_NO_VAL);
}
END_TEST

START_TEST(test_no_usage_anywhere)
{
	tree_t t;
	prism_error_t err = { "" };
	long double efctv, norm;

	_build(&t, tied_users, 4);
	for (size_t i = 0; i < t.n; i++)
		t.nodes[i].usage_raw = 0;
	ck_assert_int_eq(prism_fairtree_run(t.nodes, t.n, t.children, 4,
					    t.users, &err), 0);
	/* every user is infinitely under-served and all tie at the top */
	for (size_t i = 2; i < t.n; i++) {
		/* valgrind's long double turns infinity into LDBL_MAX */
		ck_assert(isinf(t.nodes[i].level_fs) ||
			  t.nodes[i].level_fs > 1e300L);
		ck_assert(t.nodes[i].fs_factor == 1.0);
		prism_fairtree_usages(t.nodes, i, &efctv, &norm);
		ck_assert(efctv == 0.0L && norm == 0.0L);
	}
}
END_TEST

START_TEST(test_account_use_parent)
{
	static const row_t rows[] = {
		{ "acct", -1, false, PARENT, 0, 0 },
		{ "u", -1, true, 1, 5, 1.0 },
	};
	tree_t t;
	prism_error_t err = { "" };

	_build(&t, rows, 2);
	ck_assert_int_eq(prism_fairtree_run(t.nodes, t.n, t.children, 2,
					    t.users, &err), 0);
	ck_assert(t.nodes[1].level_fs == PRISM_FT_NO_VAL);
}
END_TEST

START_TEST(test_bad_trees)
{
	prism_ft_node_t nodes[2] = {
		{ .fs_parent = PRISM_FT_NONE, .first_child = 0,
		  .n_children = 1 },
		{ .fs_parent = 0, .is_user = true },
	};
	uint32_t children[1] = { 7 };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_fairtree_run(nodes, 2, children, 1, 1, &err),
			 -1);
	ck_assert(strstr(err.text, "out of range"));
	nodes[0].n_children = 3;
	ck_assert_int_eq(prism_fairtree_run(nodes, 2, children, 1, 1, &err),
			 -1);
	ck_assert(strstr(err.text, "slice"));
	ck_assert_int_eq(prism_fairtree_run(nodes, 0, children, 1, 1, &err),
			 -1);
	/* a node that lists itself as its child */
	nodes[0].n_children = 1;
	children[0] = 0;
	ck_assert_int_eq(prism_fairtree_run(nodes, 2, children, 1, 1, &err),
			 -1);
	ck_assert(strstr(err.text, "cycle"));
}
END_TEST

/*
 * Siblings sorted on keys and by comparing levels come out in the same
 * order: random sets with many ties (a few distinct levels), zero,
 * infinity, FairShare=parent's level, the smallest and largest values,
 * users and accounts mixed.
 */
START_TEST(test_sort_keys_same_order)
{
	const long double levels[] = {
		0.0L, INFINITY, PRISM_FT_NO_VAL, LDBL_MIN / 8, LDBL_MIN,
		LDBL_MAX, 1.0L, 1.0L / 3, 2.0L / 3, 0.5L, 3.0L, 1e-300L,
		1.0L + LDBL_EPSILON,
	};
	const size_t nl = sizeof(levels) / sizeof(levels[0]);
	enum { N = 300 };
	prism_ft_node_t *nodes = calloc(N, sizeof(*nodes));
	uint32_t a[N], b[N];
	unsigned seed = 12345;

	ck_assert(nodes);
	for (int round = 0; round < 400; round++) {
		size_t n = 1 + rand_r(&seed) % N;
		size_t distinct = 1 + rand_r(&seed) % nl;

		for (size_t i = 0; i < n; i++) {
			nodes[i].level_fs = levels[rand_r(&seed) % distinct];
			nodes[i].is_user = rand_r(&seed) % 2;
			a[i] = b[i] = (uint32_t) ((i * 7) % n);	/* not in index order */
		}
		bool keyed = prism_fairtree_sort(nodes, a, n, true);

#if defined(__x86_64__) || defined(__i386__)
		ck_assert(keyed);	/* x87 long double: keys */
#endif
		ck_assert(!prism_fairtree_sort(nodes, b, n, false));
		ck_assert_mem_eq(a, b, n * sizeof(*a));
		/* and the order is the rank's: highest first, users first */
		for (size_t i = 1; i < n; i++) {
			const prism_ft_node_t *p = &nodes[a[i - 1]], *q = &nodes[a[i]];

			ck_assert(p->level_fs >= q->level_fs);
			if (p->level_fs == q->level_fs)
				ck_assert(p->is_user >= q->is_user);
		}
	}
	/* a level without a key (NaN, negative): compared, same order */
	nodes[0].level_fs = NAN;
	nodes[1].level_fs = -1.0L;
	nodes[2].level_fs = 2.0L;
	for (uint32_t i = 0; i < 3; i++)
		a[i] = b[i] = i;
	ck_assert(!prism_fairtree_sort(nodes, a, 3, true));
	prism_fairtree_sort(nodes, b, 3, false);
	ck_assert_mem_eq(a, b, 3 * sizeof(*a));
	free(nodes);
}
END_TEST

/*
 * A random tree numbered breadth first (each node's children a range of
 * ascending indices, in list order), usages and shares from small sets
 * (many ties), some FairShare=parent users. Returns the node count.
 */
#define RN 400
static size_t _random_bfs(prism_ft_node_t *nodes, uint32_t *children,
			  uint32_t *users, unsigned *seed)
{
	static const long double usages[] = { 0, 1, 2, 3, 10, 10, 100 };
	static const long double shares[] = { 0, 0.25L, 0.5L, 1.0L / 3 };
	size_t n = 1;

	memset(nodes, 0, sizeof(*nodes) * RN);
	nodes[0].fs_parent = PRISM_FT_NONE;
	*users = 0;
	for (size_t p = 0; p < n; p++) {
		uint32_t kids = (p == 0 || !nodes[p].is_user) ?
					rand_r(seed) % 9 : 0;

		nodes[p].first_child = n - 1;
		for (uint32_t k = 0; k < kids && n < RN; k++, n++) {
			prism_ft_node_t *c = &nodes[n];

			children[n - 1] = n;
			nodes[p].n_children++;
			c->fs_parent = p;
			c->is_user = (n > 60) || (rand_r(seed) % 3 == 0);
			c->use_parent = c->is_user && (rand_r(seed) % 17 == 0);
			c->shares_norm = shares[rand_r(seed) % 4];
			if (c->is_user)
				(*users)++;
		}
	}
	for (size_t i = n - 1; i > 0; i--) {
		if (nodes[i].is_user)
			nodes[i].usage_raw = usages[rand_r(seed) % 7];
		nodes[nodes[i].fs_parent].usage_raw += nodes[i].usage_raw;
	}
	return n;
}

/*
 * Ranking again from the last ranking (or any order of each sibling set)
 * gives what ranking from list order gives: the same results and the
 * same order of every set, after usages changed a little (levels that
 * kept their order), a lot, or not at all.
 */
START_TEST(test_rerun_same_as_run)
{
	static prism_ft_node_t a[RN], b[RN];
	static uint32_t ca[RN], cb[RN];
	unsigned seed = 4242;

	for (int round = 0; round < 300; round++) {
		uint32_t users;
		size_t n = _random_bfs(a, ca, &users, &seed);
		prism_error_t err = { "" };

		if (n < 2)
			continue;
		ck_assert_int_eq(prism_fairtree_run(a, n, ca, n - 1, users,
						    &err), 0);
		/* the next pass: a few (or many) users charged */
		memcpy(cb, ca, sizeof(*cb) * (n - 1));
		for (int k = rand_r(&seed) % (round % 3 ? 4 : 100); k > 0;
		     k--) {
			uint32_t i = 1 + rand_r(&seed) % (n - 1);

			if (!a[i].is_user)
				continue;
			for (uint32_t p = i; p != PRISM_FT_NONE;
			     p = a[p].fs_parent)
				a[p].usage_raw += 5;
		}
		if (round % 5 == 4) {
			/* any order: each slice reversed */
			for (size_t p = 0; p < n; p++) {
				uint32_t *s = cb + a[p].first_child;

				for (uint32_t i = 0; i < a[p].n_children / 2;
				     i++) {
					uint32_t t = s[i];

					s[i] = s[a[p].n_children - 1 - i];
					s[a[p].n_children - 1 - i] = t;
				}
			}
		}
		memcpy(b, a, sizeof(*b) * n);
		for (size_t i = 0; i < n - 1; i++)
			ca[i] = i + 1;	/* list order */
		ck_assert_int_eq(prism_fairtree_run(a, n, ca, n - 1, users,
						    &err), 0);
		ck_assert_int_eq(prism_fairtree_rerun(b, n, cb, n - 1, users,
						      &err), 0);
		ck_assert_mem_eq(ca, cb, sizeof(*ca) * (n - 1));
		for (size_t i = 1; i < n; i++) {
			ck_assert(a[i].level_fs == b[i].level_fs ||
				  (isnan(a[i].level_fs) &&
				   isnan(b[i].level_fs)));
			if (a[i].is_user)
				ck_assert_msg(a[i].fs_factor == b[i].fs_factor,
					      "round %d node %zu: %g vs %g",
					      round, i, a[i].fs_factor,
					      b[i].fs_factor);
		}
	}
}
END_TEST

/*
 * A ranking left by a tree of another shape with as many nodes (a child
 * moved from one account to the next): the rerun says so (1) when a slice
 * holds another node's child, and then a run from list order gives the
 * right results; when every slice still holds its own range, its results
 * are the run's.
 */
START_TEST(test_rerun_reshaped)
{
	static prism_ft_node_t a[RN], b[RN];
	static uint32_t ca[RN], cb[RN];
	unsigned seed = 777;
	int said = 0, fit = 0;

	for (int round = 0; round < 300; round++) {
		uint32_t users;
		size_t n = _random_bfs(a, ca, &users, &seed);
		prism_error_t err = { "" };
		size_t p;
		int rc;

		for (p = 0; p + 1 < n; p++)
			if (!a[p].is_user && !a[p + 1].is_user &&
			    (a[p].n_children >= 2) &&
			    (a[p + 1].first_child ==
			     a[p].first_child + a[p].n_children))
				break;
		if (p + 1 >= n)
			continue;
		ck_assert_int_eq(prism_fairtree_run(a, n, ca, n - 1, users,
						    &err), 0);
		/* the last child of p moves to p + 1 (first of its set) */
		a[p].n_children--;
		a[p + 1].first_child--;
		a[p + 1].n_children++;
		a[a[p + 1].first_child + 1].fs_parent = p + 1;
		for (size_t i = n - 1; i > 0; i--)
			if (!a[i].is_user)
				a[i].usage_raw = 0;
		for (size_t i = n - 1; i > 0; i--)
			a[a[i].fs_parent].usage_raw += a[i].usage_raw;
		memcpy(b, a, sizeof(*b) * n);
		memcpy(cb, ca, sizeof(*cb) * (n - 1));
		rc = prism_fairtree_rerun(b, n, cb, n - 1, users, &err);
		ck_assert_msg(rc == 0 || rc == 1, "round %d: %d (%s)", round,
			      rc, err.text);
		for (size_t i = 0; i < n - 1; i++)
			ca[i] = i + 1;
		ck_assert_int_eq(prism_fairtree_run(a, n, ca, n - 1, users,
						    &err), 0);
		if (rc == 1) {
			said++;
			/* (on the nodes the rerun left partly updated) */
			for (size_t i = 0; i < n - 1; i++)
				cb[i] = i + 1;
			ck_assert_int_eq(prism_fairtree_run(b, n, cb, n - 1,
							    users, &err), 0);
		} else {
			fit++;
		}
		ck_assert_mem_eq(ca, cb, sizeof(*ca) * (n - 1));
		for (size_t i = 1; i < n; i++)
			if (a[i].is_user)
				ck_assert(a[i].fs_factor == b[i].fs_factor);
	}
	/* both ways were taken */
	ck_assert_int_gt(said, 10);
	ck_assert_int_gt(fit, 0);
}
END_TEST

extern Suite *fairtree_suite(void)
{
	Suite *s = suite_create("fairtree");
	TCase *tc = tcase_create("rank");

	tcase_add_test(tc, test_trees);
	tcase_add_test(tc, test_level_fs_values);
	tcase_add_test(tc, test_no_usage_anywhere);
	tcase_add_test(tc, test_account_use_parent);
	tcase_add_test(tc, test_bad_trees);
	tcase_add_test(tc, test_sort_keys_same_order);
	tcase_add_test(tc, test_rerun_same_as_run);
	tcase_add_test(tc, test_rerun_reshaped);
	suite_add_tcase(s, tc);
	return s;
}
