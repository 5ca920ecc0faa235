/*****************************************************************************\
 *  test_cols.c - unit tests of prism_cols: what an sprio row stands for,
 *  sprio's priority as Slurm's 32-bit one, the core's copies of Slurm's
 *  special values, and NULL.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>

#include "prism_cols.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *what;
	prism_cols_t cols;
	prism_cols_kind_t want;
} kinds[] = {
	{ "all zero: the plugin could not compute the job", { .age = 0 },
	  PRISM_COLS_NONE },
	{ "columns without SITE and NICE are none",
	  { .age = 5, .assoc = 7, .qos = 1 }, PRISM_COLS_NONE },
	{ "NICE alone (offset): the policy's", { .nice = PRISM_NICE_OFFSET },
	  PRISM_COLS_POLICY },
	{ "SITE alone: the policy's", { .site = 1 }, PRISM_COLS_POLICY },
	{ "an admin-set priority wins over columns",
	  { .site = 9, .nice = PRISM_NICE_OFFSET, .direct_prio = 5 },
	  PRISM_COLS_ADMIN },
	{ "an admin-set priority without columns", { .direct_prio = 0.5 },
	  PRISM_COLS_ADMIN },
	{ "a negative direct_prio is none",
	  { .site = 3, .nice = 1, .direct_prio = -4 }, PRISM_COLS_POLICY },
};

START_TEST(test_kind)
{
	ck_assert_msg(prism_cols_kind(&kinds[_i].cols) == kinds[_i].want,
		      "%s", kinds[_i].what);
}
END_TEST

static const struct {
	const char *what;
	double v;
	uint32_t want;
} prios[] = {
	{ "zero", 0.0, 0 },
	{ "negative", -3.0, 0 },
	{ "NaN", NAN, 0 },
	{ "below one truncates to 0", 0.5, 0 },
	{ "one", 1.0, 1 },
	{ "a fraction truncates", 7.9, 7 },
	{ "just below the top", (double) UINT32_MAX - 1.0, UINT32_MAX - 1 },
	{ "the top", (double) UINT32_MAX, UINT32_MAX },
	{ "beyond 32 bits is bounded", 1e20, UINT32_MAX },
	{ "infinity is bounded", INFINITY, UINT32_MAX },
};

START_TEST(test_prio32)
{
	ck_assert_msg(prism_cols_prio32(prios[_i].v) == prios[_i].want,
		      "%s: %u", prios[_i].what,
		      (unsigned) prism_cols_prio32(prios[_i].v));
}
END_TEST

START_TEST(test_marks)
{
	/* the values of Slurm's slurm.h; the adapter asserts them too */
	ck_assert_uint_eq(PRISM_NICE_OFFSET, 2147483648u);
	ck_assert_uint_eq(PRISM_INFINITE, UINT32_MAX);
	ck_assert_uint_eq(PRISM_NO_VAL, UINT32_MAX - 1);
	ck_assert(PRISM_INFINITE64 == UINT64_MAX);
	ck_assert(PRISM_NO_VAL64 == UINT64_MAX - 1);
	ck_assert(PRISM_NO_CONSUME_VAL64 == UINT64_MAX - 2);
}
END_TEST

START_TEST(test_bad_param)
{
	ck_assert_int_eq(prism_cols_kind(NULL), PRISM_COLS_NONE);
}
END_TEST

extern Suite *cols_suite(void)
{
	Suite *s = suite_create("cols");
	TCase *tc = tcase_create("cols");

	tcase_add_loop_test(tc, test_kind, 0, N(kinds));
	tcase_add_loop_test(tc, test_prio32, 0, N(prios));
	tcase_add_test(tc, test_marks);
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
