/*****************************************************************************\
 *  test_tres.c - unit tests of prism_tres: the per-TRES factors, their
 *  weighted sum, and the partition term, against Slurm's definitions.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <string.h>

#include "prism_tres.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define NT 8			/* cpu mem energy node billing disk vmem pages */
#define NC PRISM_TRES_NO_CONSUME

/*
 * Expected values are written in the order Slurm computes them (factor,
 * then times the weight, then summed from index 0), so they compare with
 * == : the plugin must agree with multifactor to the last bit.
 */
static const struct {
	const char *what;
	uint32_t cnt;
	bool alloc_set, req_set, part_set, no_normal;
	uint64_t alloc[NT], req[NT], part[NT];
	double weights[NT];
	double want[NT];	/* weighted per-TRES values */
	double want_sum;
} rows[] = {
	{ "requested, normalised to the partition total", 2,
	  false, true, true, false,
	  { 0 }, { 4, 4000 }, { 32, 64000 }, { 200, 100 },
	  { 4.0 / 32 * 200, 4000.0 / 64000 * 100 },
	  4.0 / 32 * 200 + 4000.0 / 64000 * 100 },
	{ "NO_NORMAL_TRES: raw counts, partition ignored", 2,
	  false, true, true, true,
	  { 0 }, { 4, 4000 }, { 32, 64000 }, { 2, 0.001 },
	  { 4.0 * 2, 4000.0 * 0.001 }, 4.0 * 2 + 4000.0 * 0.001 },
	{ "NO_NORMAL_TRES without a partition total", 1,
	  false, true, false, true,
	  { 0 }, { 3 }, { 0 }, { 10 }, { 30 }, 30 },
	{ "allocated counts win over requested ones", 2,
	  true, true, true, false,
	  { 8, 8000 }, { 4, 4000 }, { 32, 64000 }, { 200, 100 },
	  { 8.0 / 32 * 200, 8000.0 / 64000 * 100 },
	  8.0 / 32 * 200 + 8000.0 / 64000 * 100 },
	{ "NO_CONSUME allocation falls back to the request", 2,
	  true, true, true, false,
	  { NC, 8000 }, { 4, 4000 }, { 32, 64000 }, { 200, 100 },
	  { 4.0 / 32 * 200, 8000.0 / 64000 * 100 },
	  4.0 / 32 * 200 + 8000.0 / 64000 * 100 },
	{ "NO_CONSUME allocation and no request count 0", 2,
	  true, false, true, false,
	  { NC, 8000 }, { 0 }, { 32, 64000 }, { 200, 100 },
	  { 0, 8000.0 / 64000 * 100 }, 8000.0 / 64000 * 100 },
	{ "no allocation and no request count 0, even raw", 2,
	  false, false, true, true,
	  { 0 }, { 0 }, { 32, 64000 }, { 200, 100 }, { 0, 0 }, 0 },
	{ "partition total 0: no factor for that TRES", 2,
	  false, true, true, false,
	  { 0 }, { 4, 4000 }, { 32, 0 }, { 200, 100 },
	  { 4.0 / 32 * 200, 0 }, 4.0 / 32 * 200 },
	{ "nothing requested or allocated, in a partition: 0", 2,
	  false, false, true, false,
	  { 0 }, { 0 }, { 32, 64000 }, { 200, 100 }, { 0, 0 }, 0 },
	{ "no partition totals at all: no factor", 2,
	  false, true, false, false,
	  { 0 }, { 4, 4000 }, { 0 }, { 200, 100 }, { 0, 0 }, 0 },
	{ "weight 0 gives a 0 term", 2,
	  false, true, true, false,
	  { 0 }, { 4, 4000 }, { 32, 64000 }, { 0, 100 },
	  { 0, 4000.0 / 64000 * 100 }, 4000.0 / 64000 * 100 },
	{ "several TRES, as slurmctld indexes them", NT,
	  false, true, true, false,
	  { 0 }, { 8, 2000, 0, 1, 16, 50, 0, 0 },
	  { 16, 32000, 0, 2, 48, 1000, 0, 7 },
	  { 200, 100, 5, 30, 3, 0.5, 1, 1 },
	  { 8.0 / 16 * 200, 2000.0 / 32000 * 100, 0, 1.0 / 2 * 30,
	    16.0 / 48 * 3, 50.0 / 1000 * 0.5, 0, 0 },
	  8.0 / 16 * 200 + 2000.0 / 32000 * 100 + 0 + 1.0 / 2 * 30 +
	  16.0 / 48 * 3 + 50.0 / 1000 * 0.5 + 0 + 0 },
	{ "pending: weights of 0 between the others", NT,
	  false, true, true, false,
	  { 0 }, { 8, 2000, 5, 1, 16, 50, 3, 9 },
	  { 16, 32000, 10, 2, 48, 1000, 6, 7 },
	  { 200, 0, 0, 30, 0, 0.5, 0, 1 },
	  { 8.0 / 16 * 200, 0, 0, 1.0 / 2 * 30, 0, 50.0 / 1000 * 0.5, 0,
	    9.0 / 7 * 1 },
	  8.0 / 16 * 200 + 1.0 / 2 * 30 + 50.0 / 1000 * 0.5 + 9.0 / 7 * 1 },
	{ "pending: a negative weight where the factor is 0, a weight of -0",
	  4, false, true, true, false,
	  { 0 }, { 0, 4, 2, 1 }, { 32, 64, 8, 0 }, { -5, -0.0, 2, -3 },
	  { -0.0, 0, 2.0 / 8 * 2, -0.0 }, 2.0 / 8 * 2 },
	{ "the sum runs from index 0: (1e16 + 1) - 1e16 is 0", 3,
	  false, true, false, true,
	  { 0 }, { 1, 1, 1 }, { 0 }, { 1e16, 1, -1e16 },
	  { 1e16, 1, -1e16 }, 0 },
	{ "a count above 2^53 converts like Slurm's", 1,
	  false, true, false, true,
	  { 0 }, { (UINT64_C(1) << 60) + 1 }, { 0 }, { 1 },
	  { (double) ((UINT64_C(1) << 60) + 1) },
	  (double) ((UINT64_C(1) << 60) + 1) },
};

static prism_tres_use_t _use(int r)
{
	return (prism_tres_use_t) {
		.alloc = rows[r].alloc_set ? rows[r].alloc : NULL,
		.req = rows[r].req_set ? rows[r].req : NULL,
	};
}

START_TEST(test_factors_weighted)
{
	prism_tres_use_t use = _use(_i);
	const uint64_t *part = rows[_i].part_set ? rows[_i].part : NULL;
	double f[NT] = { 0 };
	double sum;

	prism_tres_factors(&use, part, rows[_i].cnt, rows[_i].no_normal, f);
	sum = prism_tres_weigh(rows[_i].weights, rows[_i].cnt, f);
	for (uint32_t i = 0; i < rows[_i].cnt; i++)
		ck_assert_msg(f[i] == rows[_i].want[i],
			      "%s: TRES %u is %.17g, want %.17g",
			      rows[_i].what, i, f[i], rows[_i].want[i]);
	ck_assert_msg(sum == rows[_i].want_sum, "%s: sum %.17g, want %.17g",
		      rows[_i].what, sum, rows[_i].want_sum);
}
END_TEST

/*
 * The one-loop form writes the same values and the same sum; with the
 * weights' order (the pass's), the same bits (a -0 stays -0, the sum's
 * sign too).
 */
START_TEST(test_weighted_matches)
{
	prism_tres_use_t use = _use(_i);
	const uint64_t *part = rows[_i].part_set ? rows[_i].part : NULL;
	uint32_t order[NT];
	prism_tres_wt_t plain = { .w = rows[_i].weights, .cnt = rows[_i].cnt };
	prism_tres_wt_t ordered = plain;
	double f[NT], g[NT];
	double sum, sum2;

	ordered.order = order;
	ordered.on = prism_tres_wt_order(rows[_i].weights, rows[_i].cnt,
					 order);
	memset(f, 0xff, sizeof(f));	/* every entry must be written */
	memset(g, 0xff, sizeof(g));
	sum = prism_tres_weighted(&use, part, &plain, rows[_i].cnt,
				  rows[_i].no_normal, f);
	sum2 = prism_tres_weighted(&use, part, &ordered, rows[_i].cnt,
				   rows[_i].no_normal, g);
	for (uint32_t i = 0; i < rows[_i].cnt; i++)
		ck_assert_msg(f[i] == rows[_i].want[i],
			      "%s: TRES %u is %.17g, want %.17g",
			      rows[_i].what, i, f[i], rows[_i].want[i]);
	ck_assert_msg(sum == rows[_i].want_sum, "%s: sum %.17g, want %.17g",
		      rows[_i].what, sum, rows[_i].want_sum);
	ck_assert_msg(!memcmp(f, g, sizeof(double) * rows[_i].cnt),
		      "%s: the ordered values differ", rows[_i].what);
	ck_assert_msg(!memcmp(&sum, &sum2, sizeof(sum)),
		      "%s: the ordered sum %.17g differs from %.17g",
		      rows[_i].what, sum2, sum);
	/* with fewer TRES than the order covers: the plain loop */
	if (rows[_i].cnt > 1) {
		memset(g, 0xff, sizeof(g));
		sum2 = prism_tres_weighted(&use, part, &ordered,
					   rows[_i].cnt - 1,
					   rows[_i].no_normal, g);
		uint64_t past;

		ck_assert(!memcmp(f, g, sizeof(double) * (rows[_i].cnt - 1)));
		memcpy(&past, &g[rows[_i].cnt - 1], sizeof(past));
		ck_assert(past == UINT64_MAX);	/* not written */
	}
}
END_TEST

/* The order: the TRES of non-zero weight (a NaN is not 0, -0 is) first,
 * then the others, each ascending. */
START_TEST(test_wt_order)
{
	const double w[] = { 0, 3, -0.0, NAN, 0, -1 };
	const uint32_t want[] = { 1, 3, 5, 0, 2, 4 };
	uint32_t order[6];

	ck_assert_uint_eq(prism_tres_wt_order(w, 6, order), 3);
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(order[i], want[i]);
	ck_assert_uint_eq(prism_tres_wt_order(w, 0, order), 0);
}
END_TEST

/* The partition term is the same number without the per-TRES array. */
START_TEST(test_term_matches_sum)
{
	prism_tres_use_t use = _use(_i);
	const uint64_t *part = rows[_i].part_set ? rows[_i].part : NULL;
	double got = prism_tres_term(&use, part, rows[_i].weights,
				     rows[_i].cnt, rows[_i].no_normal);

	ck_assert_msg(got == rows[_i].want_sum, "%s: term %.17g, want %.17g",
		      rows[_i].what, got, rows[_i].want_sum);
}
END_TEST

/*
 * Entries without a factor keep what the array held: Slurm recomputes a
 * multi-partition job's sprio row over the job's weighted values.
 */
/*
 * The one-loop form for another partition's row gives what the two steps
 * give, bit for bit, over an array that already holds weighted values
 * (the entries with no factor are weighted again), with all weights and
 * with fewer weights than TRES.
 */
START_TEST(test_factors_weigh_matches)
{
	prism_tres_use_t use = _use(_i);
	const uint64_t *part = rows[_i].part_set ? rows[_i].part : NULL;
	uint32_t cnt = rows[_i].cnt;

	for (uint32_t wcnt = 0; wcnt <= cnt; wcnt++) {
		double a[NT], b[NT];

		for (uint32_t i = 0; i < NT; i++)
			a[i] = b[i] = rows[_i].want[i] + 0.5 * i;
		prism_tres_factors(&use, part, cnt, rows[_i].no_normal, a);
		(void) prism_tres_weigh(rows[_i].weights, wcnt, a);
		prism_tres_factors_weigh(&use, part, cnt, rows[_i].weights,
					 wcnt, rows[_i].no_normal, b);
		ck_assert_msg(!memcmp(a, b, sizeof(a)),
			      "%s: weights for %u TRES: differ", rows[_i].what,
			      wcnt);
	}
	/* no weights: the factors only */
	{
		double a[NT] = { 1, 2, 3 }, b[NT] = { 1, 2, 3 };

		prism_tres_factors(&use, part, cnt, rows[_i].no_normal, a);
		prism_tres_factors_weigh(&use, part, cnt, NULL, cnt,
					 rows[_i].no_normal, b);
		ck_assert(!memcmp(a, b, sizeof(a)));
		prism_tres_factors_weigh(&use, part, cnt, NULL, cnt,
					 rows[_i].no_normal, NULL);
	}
}
END_TEST

START_TEST(test_unset_entries_kept)
{
	const uint64_t req[] = { 4, 4000, 0 };
	const uint64_t part[] = { 32, 0, 10 };
	prism_tres_use_t use = { .req = req };
	double f[] = { 7, 7, 7 };

	prism_tres_factors(&use, part, 3, false, f);
	ck_assert(f[0] == 4.0 / 32);
	ck_assert(f[1] == 7);	/* partition total 0 */
	ck_assert(f[2] == 7);	/* nothing requested */
}
END_TEST

START_TEST(test_value)
{
	const uint64_t alloc[] = { NC, 5, 0 };
	const uint64_t req[] = { 3, 9, 9 };
	prism_tres_use_t both = { .alloc = alloc, .req = req };
	prism_tres_use_t req_only = { .req = req };

	ck_assert_uint_eq(prism_tres_value(&both, 0), 3);
	ck_assert_uint_eq(prism_tres_value(&both, 1), 5);
	ck_assert_uint_eq(prism_tres_value(&both, 2), 0);
	ck_assert_uint_eq(prism_tres_value(&req_only, 2), 9);
}
END_TEST

START_TEST(test_bad_parameters)
{
	const uint64_t req[] = { 4 };
	const uint64_t part[] = { 8 };
	const double w[] = { 100 };
	prism_tres_use_t use = { .req = req };
	prism_tres_use_t none = { 0 };
	double f[] = { 0.5 };

	ck_assert_uint_eq(prism_tres_value(NULL, 0), 0);
	ck_assert_uint_eq(prism_tres_value(&none, 0), 0);

	prism_tres_factors(&use, part, 1, false, NULL);	/* no crash */
	prism_tres_factors(NULL, part, 1, false, f);	/* value 0 */
	ck_assert(f[0] == 0.5);

	ck_assert(prism_tres_weigh(NULL, 1, f) == 0.0);
	ck_assert(f[0] == 0.5);				/* untouched */
	ck_assert(prism_tres_weigh(w, 1, NULL) == 0.0);
	ck_assert(prism_tres_weigh(w, 0, f) == 0.0);
	ck_assert(f[0] == 0.5);

	ck_assert(prism_tres_term(&use, part, NULL, 1, false) == 0.0);
	ck_assert(prism_tres_term(&use, part, w, 0, false) == 0.0);
	ck_assert(prism_tres_term(NULL, part, w, 1, true) == 0.0);
}
END_TEST

extern Suite *tres_suite(void)
{
	Suite *s = suite_create("tres");
	TCase *tc = tcase_create("tres");

	tcase_add_loop_test(tc, test_factors_weighted, 0, N(rows));
	tcase_add_loop_test(tc, test_term_matches_sum, 0, N(rows));
	tcase_add_loop_test(tc, test_weighted_matches, 0, N(rows));
	tcase_add_test(tc, test_wt_order);
	tcase_add_loop_test(tc, test_factors_weigh_matches, 0, N(rows));
	tcase_add_test(tc, test_unset_entries_kept);
	tcase_add_test(tc, test_value);
	tcase_add_test(tc, test_bad_parameters);
	suite_add_tcase(s, tc);
	return s;
}
