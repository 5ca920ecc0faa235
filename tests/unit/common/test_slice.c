/*****************************************************************************\
 *  test_slice.c - unit tests of prism_slice: the job-lock budget of a
 *  pass's slice, 1.5 ms for a lock that was free, a tenth of the wait
 *  after a long one, and a pass's waits under a stream of readers.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "prism_slice.h"
#include "test_core.h"

START_TEST(test_free_lock)
{
	/* no wait, a short one, one whose tenth is still under 1.5 ms */
	ck_assert_int_eq(prism_slice_budget_usec(0), 1500);
	ck_assert_int_eq(prism_slice_budget_usec(40), 1500);
	ck_assert_int_eq(prism_slice_budget_usec(14999), 1500);
	ck_assert_int_eq(prism_slice_budget_usec(15000), 1500);
	/* a clock read out of order */
	ck_assert_int_eq(prism_slice_budget_usec(-20000), 1500);
}
END_TEST

START_TEST(test_long_wait)
{
	ck_assert_int_eq(prism_slice_budget_usec(15010), 1501);
	ck_assert_int_eq(prism_slice_budget_usec(200000), 20000);
	ck_assert_int_eq(prism_slice_budget_usec(5000000), 500000);
}
END_TEST

/*
 * A pass of W microseconds of work under readers that keep the lock
 * R microseconds at a time (a writer gets in only between two holds, so
 * each slice waits up to R): with the budget a tenth of the wait, the
 * pass takes about W / (R / 10) slices, and waits about ten times its
 * work, where 1.5 ms slices would wait W / 1500 times R.
 */
START_TEST(test_stream)
{
	const int64_t work = 3000000, reads = 200000;
	int64_t left = work, waited = 0, slices = 0;

	while (left > 0) {
		left -= prism_slice_budget_usec(reads);
		waited += reads;
		slices++;
	}
	ck_assert_int_eq(slices, 150);
	ck_assert_int_le(waited, 10 * work);
	ck_assert_int_ge(waited, 10 * work - reads);
	/* the hold never exceeds a tenth of the wait before it */
	ck_assert_int_le(prism_slice_budget_usec(reads) * 10, reads);
}
END_TEST

Suite *slice_suite(void)
{
	Suite *s = suite_create("slice");
	TCase *tc = tcase_create("budget");

	tcase_add_test(tc, test_free_lock);
	tcase_add_test(tc, test_long_wait);
	tcase_add_test(tc, test_stream);
	suite_add_tcase(s, tc);
	return s;
}
