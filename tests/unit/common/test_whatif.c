/*****************************************************************************\
 *  test_whatif.c - unit tests of prism_whatif (ranks before and after,
 *  ties by job id and partition, the largest moves first, the summary per
 *  account) and of prism_mf_whatif (settings read, terms rescaled, factors
 *  from the job's inputs where a weight was 0, refusals).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prism_mf_whatif.h"
#include "prism_whatif.h"
#include "test_core.h"

START_TEST(test_rank)
{
	/* priority before, after; ties broken by id, then partition */
	prism_whatif_job_t j[] = {
		{ .id = 10, .account = "phys", .before = 500, .after = 100 },
		{ .id = 11, .account = "chem", .before = 400, .after = 900 },
		{ .id = 12, .account = "phys", .before = 400, .after = 400 },
		{ .id = 9, .partition = "b", .account = "bio", .before = 100,
		  .after = 400 },
		{ .id = 9, .partition = "a", .account = "bio", .before = 100,
		  .after = 400 },
	};
	prism_error_t err = { "" };
	size_t order[5];
	prism_whatif_account_t *a;
	size_t n;

	ck_assert_int_eq(prism_whatif_rank(j, 5, &err), 0);
	/* before: 10(500) 11(400) 12(400) 9/a 9/b */
	ck_assert_uint_eq(j[0].rank_before, 1);
	ck_assert_uint_eq(j[1].rank_before, 2);
	ck_assert_uint_eq(j[2].rank_before, 3);
	ck_assert_uint_eq(j[4].rank_before, 4);
	ck_assert_uint_eq(j[3].rank_before, 5);
	/* after: 11(900) 9/a(400) 9/b(400) 12(400) 10(100) */
	ck_assert_uint_eq(j[1].rank_after, 1);
	ck_assert_uint_eq(j[4].rank_after, 2);
	ck_assert_uint_eq(j[3].rank_after, 3);
	ck_assert_uint_eq(j[2].rank_after, 4);
	ck_assert_uint_eq(j[0].rank_after, 5);

	/* moves: 10 by 4; 9/b by 2, 9/a by 2 (rank after 2 first); 11 and
	 * 12 by 1 (11 first: rank after 1) */
	ck_assert_uint_eq(prism_whatif_moves(j, 5, order), 5);
	ck_assert_uint_eq(order[0], 0);
	ck_assert_uint_eq(order[1], 4);
	ck_assert_uint_eq(order[2], 3);
	ck_assert_uint_eq(order[3], 1);
	ck_assert_uint_eq(order[4], 2);

	ck_assert_int_eq(prism_whatif_accounts(j, 5, &a, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(a[0].account, "bio");
	ck_assert_uint_eq(a[0].jobs, 2);
	ck_assert_uint_eq(a[0].up, 2);
	ck_assert(fabs(a[0].mean_before - 4.5) < 1e-9);
	ck_assert(fabs(a[0].mean_after - 2.5) < 1e-9);
	ck_assert_str_eq(a[1].account, "chem");
	ck_assert_uint_eq(a[1].up, 1);
	ck_assert_str_eq(a[2].account, "phys");
	ck_assert_uint_eq(a[2].jobs, 2);
	ck_assert_uint_eq(a[2].down, 2);
	ck_assert_uint_eq(a[2].up, 0);
	free(a);
}
END_TEST

START_TEST(test_unchanged)
{
	prism_whatif_job_t j[] = {
		{ .id = 3, .before = 7, .after = 7 },
		{ .id = 1, .before = 7, .after = 7 },
	};
	prism_error_t err = { "" };
	size_t order[2];
	prism_whatif_account_t *a;
	size_t n;

	ck_assert_int_eq(prism_whatif_rank(j, 2, &err), 0);
	ck_assert_uint_eq(j[1].rank_before, 1);
	ck_assert_uint_eq(j[1].rank_after, 1);
	ck_assert_uint_eq(prism_whatif_moves(j, 2, order), 0);
	ck_assert_int_eq(prism_whatif_accounts(j, 2, &a, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(a[0].account, "");	/* no account: "" */
	free(a);
	ck_assert_int_eq(prism_whatif_rank(NULL, 0, &err), 0);
	ck_assert_int_eq(prism_whatif_accounts(NULL, 0, &a, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	free(a);
}
END_TEST

/* Slurm's reader of time forms, in minutes, enough for the tests. */
static long _mins(const char *s)
{
	if (!strcmp(s, "7-0"))
		return 7 * 24 * 60;
	if (!strcmp(s, "48:00:00"))
		return 48 * 60;
	if (!strcmp(s, "30"))
		return 30;
	return -1;
}

static const struct {
	const char *in;
	const char *err;	/* NULL: accepted */
} reads[] = {
	{ "PriorityWeightAge=1000", NULL },
	{ "priorityweightfairshare=0", NULL },
	{ "PriorityWeightQOS=4294967295", NULL },
	{ "PriorityWeightQOS=4294967296", "not a weight" },
	{ "PriorityWeightQOS=-1", "not a weight" },
	{ "PriorityWeightQOS=", "not a weight" },
	{ "PriorityWeightQOS=1e3", "not a weight" },
	{ "PriorityWeightFairShare=12x", "not a weight" },
	{ "PriorityWeightFairshar=1", "did you mean PriorityWeightFairshare" },
	{ "PriorityWeightBogus=1", "unknown setting 'PriorityWeightBogus'" },
	{ "SchedulerType=sched/backfill", "unknown setting" },
	{ "PriorityWeightAge", "not SETTING=VALUE" },
	{ "=5", "not SETTING=VALUE" },
	{ "PriorityMaxAge=7-0", NULL },
	{ "PriorityMaxAge=48:00:00", NULL },
	{ "PriorityMaxAge=soon", "not a time" },
	{ "PriorityMaxAge=", "not a time" },
	{ "PriorityWeightTRES=CPU=1000,Mem=2000,GRES/gpu=5000", NULL },
	{ "PriorityWeightTRES=CPU=0.5", NULL },
	{ "PriorityWeightTRES=CPU", "not TYPE[/NAME]=NUMBER" },
	{ "PriorityWeightTRES=CPU=x", "not TYPE[/NAME]=NUMBER" },
	{ "PriorityWeightTRES=CPU=-3", "not TYPE[/NAME]=NUMBER" },
	{ "PriorityWeightTRES==3", "not TYPE[/NAME]=NUMBER" },
};

START_TEST(test_read)
{
	prism_mf_change_t ch;
	prism_error_t err = { "" };
	int rc;

	memset(&ch, 0, sizeof(ch));
	rc = prism_mf_change_read(reads[_i].in, _mins, &ch, &err);
	if (!reads[_i].err) {
		ck_assert_msg(rc == 0, "%s: %s", reads[_i].in, err.text);
		return;
	}
	ck_assert_msg(rc == -1, "%s accepted", reads[_i].in);
	ck_assert_msg(strstr(err.text, reads[_i].err), "%s: '%s'",
		      reads[_i].in, err.text);
}
END_TEST

START_TEST(test_read_values)
{
	prism_mf_change_t ch;
	prism_error_t err = { "" };

	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityMaxAge=48:00:00", _mins,
					      &ch, &err), 0);
	ck_assert(ch.max_age_set);
	ck_assert_uint_eq(ch.max_age, 48 * 3600);
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightJobSize=77",
					      _mins, &ch, &err), 0);
	ck_assert(ch.w_set[PRISM_MF_W_JS]);
	ck_assert(ch.w[PRISM_MF_W_JS] == 77);
	ck_assert(!ch.w_set[PRISM_MF_W_AGE]);
	ck_assert_int_eq(prism_mf_change_read(
				 "PriorityWeightTRES=CPU=1000,GRES/gpu=2.5",
				 _mins, &ch, &err), 0);
	ck_assert_uint_eq(ch.tres_cnt, 2);
	ck_assert_str_eq(ch.tres_name[1], "GRES/gpu");
	ck_assert(ch.tres_w[1] == 2.5);
	ck_assert_str_eq(prism_mf_w_name(PRISM_MF_W_FS),
			 "PriorityWeightFairshare");
}
END_TEST

/* A row: weights age 1000, fs 10000, js 0, part 100, qos 0, assoc 0. */
static prism_cols_t _row(const double *tres, uint32_t tres_cnt)
{
	prism_cols_t c = {
		.age = 250,		/* factor 0.25 */
		.fs = 5000,		/* factor 0.5 */
		.part = 100,		/* factor 1 */
		.site = PRISM_NICE_OFFSET,
		.nice = PRISM_NICE_OFFSET,
		.tres = tres,
		.tres_cnt = tres_cnt,
	};
	return c;
}

static const prism_mf_now_t now = {
	.w = { [PRISM_MF_W_AGE] = 1000, [PRISM_MF_W_FS] = 10000,
	       [PRISM_MF_W_PART] = 100 },
	.max_age = 4 * 3600,
};

static prism_mf_inputs_t _inputs(void)
{
	prism_mf_inputs_t in = { .age_secs = 3600 };

	for (int w = 0; w < PRISM_MF_W_CNT; w++)
		in.factor[w] = NAN;
	return in;
}

START_TEST(test_prio)
{
	double tres[] = { 300 };	/* CPU weight 600: factor 0.5 */
	const char *names[] = { "CPU" };
	double tres_w[] = { 600 };
	prism_cols_t c = _row(tres, 1);
	prism_mf_inputs_t in = _inputs();
	prism_mf_change_t ch;
	prism_mf_sum_t s;
	prism_error_t err = { "" };

	/* nothing changed: the sum as it is */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_whatif_prio(&c, names, tres_w, &now, &in,
					      &ch, &s, &err), 0);
	ck_assert_uint_eq(s.prio, 250 + 5000 + 100 + 300);

	/* fair-share weight 10000 -> 2000; age 0; CPU 600 -> 1200 */
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightFairshare=2000",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightAge=0", _mins,
					      &ch, &err), 0);
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightTRES=cpu=1200",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, names, tres_w, &now, &in,
					      &ch, &s, &err), 0);
	ck_assert_uint_eq(s.prio, 1000 + 100 + 600);

	/* PriorityMaxAge 4 h -> 30 min: one hour of age is the full factor */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityMaxAge=30", _mins, &ch,
					      &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, names, tres_w, &now, &in,
					      &ch, &s, &err), 0);
	ck_assert_uint_eq(s.prio, 1000 + 5000 + 100 + 300);
	in.age_secs = -1;	/* not accruing: factor 0 */
	ck_assert_int_eq(prism_mf_whatif_prio(&c, names, tres_w, &now, &in,
					      &ch, &s, &err), 0);
	ck_assert_uint_eq(s.prio, 5000 + 100 + 300);

	/* PriorityWeightTRES without CPU: the CPU term goes */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightTRES=Mem=0",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, names, tres_w, &now, &in,
					      &ch, &s, &err), 0);
	ck_assert_uint_eq(s.prio, 250 + 5000 + 100);
}
END_TEST

START_TEST(test_prio_from_zero)
{
	prism_cols_t c = _row(NULL, 0);
	prism_mf_inputs_t in = _inputs();
	prism_mf_change_t ch;
	prism_mf_sum_t s = { .prio = 7 };
	prism_error_t err = { "" };

	/* QOS weight 0 now: its factor must come from the records */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightQOS=1000", _mins,
					      &ch, &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "PriorityWeightQOS is 0 now"));
	ck_assert_uint_eq(s.prio, 7);		/* unchanged */
	in.factor[PRISM_MF_W_QOS] = 0.75;
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), 0);
	ck_assert_uint_eq(s.prio, 250 + 5000 + 100 + 750);

	/* a TRES the controller does not weigh now */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightTRES=GRES/gpu=9",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "GRES/gpu is not weighed"));

	/* PriorityMaxAge 0 */
	memset(&ch, 0, sizeof(ch));
	ch.max_age_set = true;
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "PriorityMaxAge"));
}
END_TEST

START_TEST(test_prio_clamp_admin)
{
	prism_cols_t c = _row(NULL, 0);
	prism_mf_inputs_t in = _inputs();
	prism_mf_change_t ch;
	prism_mf_sum_t s;
	prism_error_t err = { "" };

	/* every weight 0: Slurm raises the sum to 1 */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightAge=0", _mins,
					      &ch, &err), 0);
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightFairshare=0",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightPartition=0",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), 0);
	ck_assert_uint_eq(s.prio, 1);
	/* past 32 bits: lowered to the top */
	memset(&ch, 0, sizeof(ch));
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightFairshare=4294967295",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_change_read("PriorityWeightPartition=4294967295",
					      _mins, &ch, &err), 0);
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), 0);
	ck_assert_uint_eq(s.prio, UINT32_MAX);
	/* an admin-set priority stays */
	c.direct_prio = 12345;
	ck_assert_int_eq(prism_mf_whatif_prio(&c, NULL, NULL, &now, &in, &ch,
					      &s, &err), 0);
	ck_assert_uint_eq(s.prio, 12345);
}
END_TEST

extern Suite *whatif_suite(void)
{
	Suite *s = suite_create("whatif");
	TCase *tc = tcase_create("whatif");

	tcase_add_test(tc, test_rank);
	tcase_add_test(tc, test_unchanged);
	tcase_add_loop_test(tc, test_read, 0,
			    (int) (sizeof(reads) / sizeof(reads[0])));
	tcase_add_test(tc, test_read_values);
	tcase_add_test(tc, test_prio);
	tcase_add_test(tc, test_prio_from_zero);
	tcase_add_test(tc, test_prio_clamp_admin);
	suite_add_tcase(s, tc);
	return s;
}
