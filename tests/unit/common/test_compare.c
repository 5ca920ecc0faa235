/*****************************************************************************\
 *  test_compare.c - unit tests of prism_compare: the differences add up,
 *  the deciding terms (alone, none alone, at the boundary), the order of
 *  the differences, ties, bad input.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <string.h>

#include "prism_compare.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* Four terms per job; 'decides' as a string of 0/1, 'first' the term with
 * the largest difference. */
static const struct {
	const char *what;
	double a[4], b[4];
	double total;
	const char *decides;
	size_t first;
	double for_winner, against;
} rows[] = {
	{ "one term decides", { 100, 50, 0, 0 }, { 100, 10, 0, 0 }, 40,
	  "0100", 1, 40, 0 },
	{ "B wins on fair-share despite age", { 900, 10, 0, 0 },
	  { 100, 1000, 0, 0 }, -190, "0100", 1, 990, 800 },
	{ "each of two decides against a larger one", { 60, 60, 0, 0 },
	  { 0, 0, 100, 0 }, 20, "1100", 2, 120, 100 },
	{ "no term alone: two together", { 10, 10, 0, 0 }, { 0, 0, 0, 0 },
	  20, "0000", 0, 20, 0 },
	{ "boundary: removing the term ties", { 50, 0, 0, 0 },
	  { 0, 0, 0, 0 }, 50, "1000", 0, 50, 0 },
	{ "equal sums: nothing decides", { 10, 20, 0, 0 }, { 20, 10, 0, 0 },
	  0, "0000", 0, 0, 0 },
	{ "identical jobs", { 5, 5, 5, 5 }, { 5, 5, 5, 5 }, 0, "0000", 0, 0,
	  0 },
	{ "negative terms (nice) count the same way", { 0, 0, 0, -100 },
	  { 0, 0, 0, 0 }, -100, "0001", 3, 100, 0 },
};

START_TEST(test_rows)
{
	prism_compare_t c;
	prism_error_t err = { "" };
	char got[5] = "";

	ck_assert_int_eq(prism_compare_terms(rows[_i].a, rows[_i].b, 4, &c,
					     &err), 0);
	for (int i = 0; i < 4; i++)
		got[i] = c.decides[i] ? '1' : '0';
	ck_assert_msg(fabs(c.total - rows[_i].total) < 1e-9, "%s: total %g",
		      rows[_i].what, c.total);
	ck_assert_msg(!strcmp(got, rows[_i].decides), "%s: decides %s",
		      rows[_i].what, got);
	ck_assert_msg(c.order[0] == rows[_i].first, "%s: first %zu",
		      rows[_i].what, c.order[0]);
	ck_assert_msg(fabs(c.for_winner - rows[_i].for_winner) < 1e-9 &&
			      fabs(c.against - rows[_i].against) < 1e-9,
		      "%s: for %g against %g", rows[_i].what, c.for_winner,
		      c.against);
	ck_assert_uint_eq(c.deciders,
			  (unsigned) ((rows[_i].decides[0] == '1') +
				      (rows[_i].decides[1] == '1') +
				      (rows[_i].decides[2] == '1') +
				      (rows[_i].decides[3] == '1')));
}
END_TEST

START_TEST(test_order_stable)
{
	double a[] = { 1, 3, -3, 2 }, b[] = { 0, 0, 0, 0 };
	prism_compare_t c;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_compare_terms(a, b, 4, &c, &err), 0);
	/* |3| = |-3|: index order kept */
	ck_assert_uint_eq(c.order[0], 1);
	ck_assert_uint_eq(c.order[1], 2);
	ck_assert_uint_eq(c.order[2], 3);
	ck_assert_uint_eq(c.order[3], 0);
}
END_TEST

START_TEST(test_bad)
{
	double a[PRISM_COMPARE_MAX + 1] = { 0 }, b[PRISM_COMPARE_MAX + 1] = {
		0 };
	prism_compare_t c = { .n = 7 };
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_compare_terms(a, b, PRISM_COMPARE_MAX + 1, &c,
					     &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "at most"));
	a[2] = NAN;
	ck_assert_int_eq(prism_compare_terms(a, b, 4, &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "term 2"));
	ck_assert_uint_eq(c.n, 7);	/* unchanged on failure */
}
END_TEST

extern Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_loop_test(tc, test_rows, 0, N(rows));
	tcase_add_test(tc, test_order_stable);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return s;
}
