/*****************************************************************************\
 *  test_fs.c - unit tests of prism_fs: the seed's worked fair-share
 *  example (Slurm's multifactor document, Figure 3) and edge cases.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <string.h>

#include "prism_fs.h"
#include "test_core.h"

/*
 * The example tree: A(40) {B(30) {user1}, C(10) {user2(1), user3(1)}},
 * D(60) {E(25) {user4}, F(35) {user5}}; usage u1 .2, u2 .25, u4 .25.
 * Each row walks one user's chain down from the first tier.
 */
static const struct {
	const char *what;
	double tier1_ua;	/* first tier: UE = UA */
	double acct_ua;
	uint32_t acct_shares, acct_siblings;
	double user_ua;
	uint32_t user_shares, user_siblings;
	double shares_norm;
	double want_acct_ue, want_user_ue, want_factor;
} example[] = {
	{ "user 1 under B", 0.45, 0.2, 30, 40, 0.2, 1, 1, 0.3,
	  0.3875, 0.3875, 0.408479 },
	{ "user 2 under C", 0.45, 0.25, 10, 40, 0.25, 1, 2, 0.05,
	  0.3, 0.275, 0.022097 },
	{ "user 3 under C, no usage", 0.45, 0.25, 10, 40, 0.0, 1, 2, 0.05,
	  0.3, 0.15, 0.125 },
	{ "user 4 under E", 0.25, 0.25, 25, 60, 0.25, 1, 1, 0.25,
	  0.25, 0.25, 0.5 },
	{ "user 5 under F, no usage", 0.25, 0.0, 35, 60, 0.0, 1, 1, 0.35,
	  0.145833, 0.145833, 0.749154 },
};

START_TEST(test_seed_example)
{
	long double acct_ue, user_ue;
	double f;

	acct_ue = prism_fs_usage_efctv(example[_i].acct_ua,
				       example[_i].tier1_ua,
				       example[_i].acct_shares,
				       example[_i].acct_siblings);
	ck_assert_msg(fabsl(acct_ue - example[_i].want_acct_ue) < 1e-6,
		      "%s: account UE %Lf", example[_i].what, acct_ue);
	user_ue = prism_fs_usage_efctv(example[_i].user_ua, acct_ue,
				       example[_i].user_shares,
				       example[_i].user_siblings);
	ck_assert_msg(fabsl(user_ue - example[_i].want_user_ue) < 1e-6,
		      "%s: user UE %Lf", example[_i].what, user_ue);
	f = prism_fs_factor(user_ue, example[_i].shares_norm, 1);
	ck_assert_msg(fabs(f - example[_i].want_factor) < 1e-6,
		      "%s: factor %f, want %f", example[_i].what, f,
		      example[_i].want_factor);
}
END_TEST

static const struct {
	const char *what;
	long double raw, root;
	long double want;
} norm_rows[] = {
	{ "root without usage gives 0", 5.0L, 0.0L, 0.0L },
	{ "plain ratio", 25.0L, 100.0L, 0.25L },
	{ "more than the root is capped at 1", 150.0L, 100.0L, 1.0L },
	{ "no usage", 0.0L, 100.0L, 0.0L },
};

START_TEST(test_usage_norm)
{
	long double got = prism_fs_usage_norm(norm_rows[_i].raw,
					      norm_rows[_i].root);

	ck_assert_msg(fabsl(got - norm_rows[_i].want) < 1e-12, "%s: %Lf",
		      norm_rows[_i].what, got);
}
END_TEST

static const struct {
	const char *what;
	long double ue, shares_norm;
	uint32_t damp;
	double want;
} factor_rows[] = {
	{ "no shares gives 0", 0.5L, 0.0L, 1, 0.0 },
	{ "negative shares give 0", 0.5L, -1.0L, 1, 0.0 },
	{ "no usage gives 1", 0.0L, 0.2L, 1, 1.0 },
	{ "usage equal to shares gives 0.5", 0.2L, 0.2L, 1, 0.5 },
	{ "dampening 2 halves the exponent", 0.2L, 0.2L, 2, 0.707107 },
	{ "dampening 0 is taken as 1", 0.2L, 0.2L, 0, 0.5 },
};

START_TEST(test_factor)
{
	double got = prism_fs_factor(factor_rows[_i].ue,
				     factor_rows[_i].shares_norm,
				     factor_rows[_i].damp);

	ck_assert_msg(fabs(got - factor_rows[_i].want) < 1e-6, "%s: %f",
		      factor_rows[_i].what, got);
}
END_TEST

START_TEST(test_efctv_no_sibling_shares)
{
	/* accounts whose users hold no shares inherit the parent's UE */
	ck_assert(prism_fs_usage_efctv(0.1L, 0.7L, 0, 0) == 0.7L);
}
END_TEST

/* DEPTH_OBLIVIOUS rows; expected values worked out by hand from
 * R = ratio_p * ratio_l^k, k = 1 / (1 + (5 ln ratio_p)^2) when the logs
 * have opposite signs, else 1. */
static const struct {
	const char *what;
	long double un, sn, pe, ps;
	long double sib[3];
	size_t nsib;
	long double want;
} oblivious_rows[] = {
	{ "no usage keeps usage_norm", 0.0L, 0.25L, 0.5L, 0.5L,
	  { 0.0L, 0.3L }, 2, 0.0L },
	{ "no shares keeps usage_norm", 0.2L, 0.0L, 0.5L, 0.5L,
	  { 0.2L, 0.3L }, 2, 0.2L },
	{ "parent without usage keeps usage_norm", 0.2L, 0.25L, 0.0L, 0.5L,
	  { 0.2L, 0.3L }, 2, 0.2L },
	{ "parent at its share: k = 1", 0.2L, 0.25L, 0.5L, 0.5L,
	  { 0.2L, 0.3L }, 2, 0.2L },
	{ "parent over-used, child under its siblings", 0.2L, 0.25L, 0.6L,
	  0.3L, { 0.2L, 0.4L }, 2, 0.465999959275L },
	{ "parent under-used, child over its siblings", 0.3L, 0.2L, 0.1L,
	  0.5L, { 0.3L, 0.1L }, 2, 0.040384214829L },
};

START_TEST(test_depth_oblivious)
{
	long double got = prism_fs_usage_efctv_depth_oblivious(
		oblivious_rows[_i].un, oblivious_rows[_i].sn,
		oblivious_rows[_i].pe, oblivious_rows[_i].ps,
		oblivious_rows[_i].sib, oblivious_rows[_i].nsib);

	ck_assert_msg(fabsl(got - oblivious_rows[_i].want) < 1e-9L,
		      "%s: %.12Lf", oblivious_rows[_i].what, got);
}
END_TEST

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/*
 * The memo of classic factors gives prism_fs_factor()'s bits whatever its
 * slots hold: more keys than slots (probes run out), a key's inputs
 * changing within a pass (usage, shares, each alone), a new pass, the
 * damping changing within a pass, zeros, negative zeros and NaN; before
 * and after it grows.
 */
START_TEST(test_factor_memo)
{
	prism_fs_memo_t m = { .slot = NULL };
	static const double shares[] = { 0.0, -0.0, 0.05, 0.3, 0.3 + 1e-17,
					 1.0 / 3.0 };
	/* 0.15 and 0.3: the same significand (the slot's low bits), 0.3 and
	 * 0.275 the same exponent (its high bits) */
	static const long double usage[] = { 0.0L, -0.0L, 0.15L, 0.3L,
					     0.275L, 1.0L };
	char keys[1000];
	uint32_t checked = 0;

	for (int round = 0; round < 4; round++) {
		/* 64 slots for 1000 keys, then room for them all */
		ck_assert(prism_fs_memo_begin(&m, round < 2 ? 1 : N(keys)));
		ck_assert_uint_eq(m.mask + 1, round < 2 ? 64 : 2048);
		/* from one r to the next, the shares change or the usage
		 * does, not both; the last pass: the same inputs, the
		 * damping changing */
		for (int r = 0; r < 6; r++)
		for (uint32_t k = 0; k < N(keys); k++) {
			int ue_v = round == 3 ? 0 : r / 2;
			int sn_v = round == 3 ? 0 : (r + 1) / 2;
			uint32_t damp = (round == 3) && (r & 1) ? 3 : 1;
			long double ue = usage[(k + ue_v) % N(usage)];
			double sn = shares[(k / 3 + sn_v) % N(shares)];
			double want = prism_fs_factor(ue, sn, damp);
			double got = prism_fs_factor_memo(&m, &keys[k], &ue,
							  sn, damp);

			ck_assert_msg(!memcmp(&got, &want, sizeof(got)),
				      "key %u round %d/%d: %a, want %a", k,
				      round, r, got, want);
			checked++;
		}
	}
	/* NaN usage: never a stored slot's, computed each time */
	for (int i = 0; i < 2; i++) {
		long double nan_ue = NAN;
		double got = prism_fs_factor_memo(&m, keys, &nan_ue, 0.5, 1);

		ck_assert(isnan(got));
	}
	ck_assert_uint_eq(checked, 4 * 6 * N(keys));
	/* no table: computed */
	prism_fs_memo_free(&m);
	ck_assert_ptr_null(m.slot);
	ck_assert(prism_fs_factor_memo(&m, keys, &usage[4], 0.05, 1) ==
		  prism_fs_factor(usage[4], 0.05, 1));
	ck_assert(prism_fs_factor_memo(NULL, keys, &usage[4], 0.05, 1) ==
		  prism_fs_factor(usage[4], 0.05, 1));
}
END_TEST

extern Suite *fs_suite(void)
{
	Suite *s = suite_create("fs");
	TCase *tc = tcase_create("classic");

	tcase_add_loop_test(tc, test_seed_example, 0, N(example));
	tcase_add_loop_test(tc, test_usage_norm, 0, N(norm_rows));
	tcase_add_loop_test(tc, test_factor, 0, N(factor_rows));
	tcase_add_test(tc, test_efctv_no_sibling_shares);
	tcase_add_test(tc, test_factor_memo);
	tcase_add_loop_test(tc, test_depth_oblivious, 0, N(oblivious_rows));
	suite_add_tcase(s, tc);
	return s;
}
