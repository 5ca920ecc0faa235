/*****************************************************************************\
 *  test_prio.c - unit tests of prism_prio: age, job size, the weighted
 *  terms and the clamped total.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>

#include "prism_prio.h"
#include "test_core.h"

#define OFF PRISM_NICE_OFFSET
#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *what;
	int64_t accrue, now;
	uint32_t max_age;
	double want;
} age_rows[] = {
	{ "not accruing gives 0", 0, 1000, 100, 0.0 },
	{ "half of max age", 1000, 1050, 100, 0.5 },
	{ "exactly max age gives 1", 1000, 1100, 100, 1.0 },
	{ "beyond max age stays 1", 1000, 9000, 100, 1.0 },
	{ "accrue in the future gives 0", 2000, 1000, 100, 0.0 },
	{ "max age 0 gives 1", 1000, 1000, 0, 1.0 },
	{ "one week of 7 days", 1, 1 + 3 * 86400, 7 * 86400, 3.0 / 7.0 },
};

START_TEST(test_age)
{
	double got = prism_age_factor(age_rows[_i].accrue, age_rows[_i].now,
				      age_rows[_i].max_age);

	ck_assert_msg(fabs(got - age_rows[_i].want) < 1e-12, "%s: %f",
		      age_rows[_i].what, got);
}
END_TEST

/* A cluster of 4 nodes and 32 CPUs. */
static const prism_world_t world = { .cluster_cpus = 32, .node_count = 4 };

static const struct {
	const char *what;
	bool favor_small, relative;
	uint32_t cpus, nodes, time_limit;
	double want;
	bool floor;		/* small_node_floor (Slurm 24.11) */
} size_rows[] = {
	{ "large: 1 node 8 cpus", false, false, 8, 1, 60, (0.25 + 0.25) / 2,
	  false },
	{ "large: whole cluster", false, false, 32, 4, 60, 1.0, false },
	{ "large: unknown cpus counts nodes only", false, false, 0, 2, 60,
	  0.5, false },
	{ "small: 1 node 8 cpus", true, false, 8, 1, 60, (0.75 + 0.75) / 2,
	  false },
	{ "small: whole cluster", true, false, 32, 4, 60, 0.0, false },
	{ "relative: 8 cpus over 60 min", false, true, 8, 1, 60,
	  8.0 / 60 / 32, false },
	{ "relative: nodes worth more than cpus", false, true, 1, 2, 1,
	  16.0 / 32, false },
	{ "relative small: 8 cpus over 60 min", true, true, 8, 1, 60,
	  1.0 - 8.0 / 60 / 32, false },
	{ "relative: no time at all is the largest", false, true, 8, 1, 0,
	  1.0, false },
	{ "large: more nodes than the cluster is capped", false, false, 64,
	  8, 60, 1.0, false },
	{ "small: more nodes than the cluster wraps and caps (22.05)", true,
	  false, 8, 8, 60, 1.0, false },
	{ "small: more nodes than the cluster, node part 0 (24.11)", true,
	  false, 8, 8, 60, (0.0 + 0.75) / 2, true },
	{ "small: all the nodes, node part 0 either way (24.11)", true, false,
	  8, 4, 60, (0.0 + 0.75) / 2, true },
	{ "small: 1 node 8 cpus, same under 24.11", true, false, 8, 1, 60,
	  (0.75 + 0.75) / 2, true },
};

START_TEST(test_size)
{
	prism_prio_conf_t conf = {
		.favor_small = size_rows[_i].favor_small,
		.small_node_floor = size_rows[_i].floor,
		.flags = size_rows[_i].relative ? PRISM_F_SIZE_RELATIVE : 0,
	};
	prism_job_t job = { .cpus = size_rows[_i].cpus,
			    .min_nodes = size_rows[_i].nodes,
			    .time_limit = size_rows[_i].time_limit };
	double got = prism_size_factor(&conf, &world, &job);

	ck_assert_msg(fabs(got - size_rows[_i].want) < 1e-12, "%s: %f",
		      size_rows[_i].what, got);
}
END_TEST

START_TEST(test_size_empty_world)
{
	prism_prio_conf_t conf = { 0 };
	prism_world_t empty = { 0 };
	prism_job_t job = { .cpus = 4, .min_nodes = 1 };

	ck_assert(prism_size_factor(&conf, &empty, &job) == 0.0);
}
END_TEST

static const prism_prio_conf_t weights = {
	.weight_age = 1000, .weight_assoc = 10, .weight_fs = 10000,
	.weight_js = 100, .weight_part = 5000, .weight_qos = 2000,
	.max_age = 1000,
};

static const struct {
	const char *what;
	prism_job_t job;
	uint32_t want;
} total_rows[] = {
	{ "nothing but site and nice at their offset gives 1",
	  { .site = OFF, .nice = OFF }, 1 },
	{ "age half way", { .accrue_time = 500, .site = OFF, .nice = OFF },
	  500 },
	{ "partition factor 0.1", { .part_factor = 0.1, .site = OFF,
				    .nice = OFF }, 500 },
	{ "every term", { .accrue_time = 500, .part_factor = 1.0,
			  .assoc_factor = 0.5, .qos_factor = 0.25,
			  .fs_factor = 0.125, .cpus = 16, .min_nodes = 2,
			  .site = OFF, .nice = OFF },
	  500 + 5 + 1250 + 50 + 5000 + 500 },
	{ "site factor adds", { .site = OFF + 77, .nice = OFF }, 77 },
	{ "positive nice subtracts", { .part_factor = 1.0, .site = OFF,
				       .nice = OFF + 100 }, 4900 },
	{ "negative nice adds", { .part_factor = 1.0, .site = OFF,
				  .nice = OFF - 100 }, 5100 },
	{ "below 1 clamps to 1", { .site = OFF, .nice = OFF + 1000 }, 1 },
	{ "above 32 bits clamps", { .accrue_time = 1, .site = 0xffffffffu,
				    .nice = 0 },
	  PRISM_PRIO_MAX },
};

START_TEST(test_total)
{
	prism_terms_t t;
	uint32_t got;

	prism_prio_terms(&weights, &world, &total_rows[_i].job, 1000, &t);
	got = prism_prio_total(&t, NULL);
	ck_assert_msg(got == total_rows[_i].want, "%s: got %u want %u",
		      total_rows[_i].what, got, total_rows[_i].want);
}
END_TEST

START_TEST(test_zero_weight_gives_zero_term)
{
	prism_prio_conf_t none = { .max_age = 1000 };
	prism_job_t job = { .accrue_time = 1, .part_factor = 1.0,
			    .assoc_factor = 1.0, .qos_factor = 1.0,
			    .fs_factor = 1.0, .cpus = 8, .min_nodes = 1,
			    .site = OFF, .nice = OFF };
	prism_terms_t t;

	prism_prio_terms(&none, &world, &job, 5000, &t);
	ck_assert(t.age == 0 && t.assoc == 0 && t.fs == 0 && t.js == 0 &&
		  t.part == 0 && t.qos == 0 && t.tres == 0);
	ck_assert_uint_eq(prism_prio_total(&t, NULL), 1);
}
END_TEST

START_TEST(test_clamp_reports_high)
{
	prism_terms_t t = { .age = 1000, .site = 0xffffffffu, .nice = 0 };
	bool high = false;

	ck_assert_uint_eq(prism_prio_total(&t, &high), PRISM_PRIO_MAX);
	ck_assert(high);
	t.site = OFF;
	t.nice = OFF;
	t.age = 10;
	ck_assert_uint_eq(prism_prio_total(&t, &high), 10);
	ck_assert(!high);
}
END_TEST

START_TEST(test_other_partition)
{
	prism_job_t job = { .accrue_time = 500, .part_factor = 0.1,
			    .site = OFF, .nice = OFF };
	prism_terms_t t;

	prism_prio_terms(&weights, &world, &job, 1000, &t);
	ck_assert_uint_eq(prism_prio_total(&t, NULL), 1000);
	/* the same job in a partition of factor 1.0 */
	ck_assert_uint_eq(prism_prio_total_in_part(
				  &t, prism_part_term(&weights, 1.0), 0, NULL),
			  5500);
	/* a partition with no factor: only the age term is left */
	ck_assert_uint_eq(prism_prio_total_in_part(&t, 0.0, 0, NULL), 500);
}
END_TEST

/* One entry of a multi-QOS job: a QOS with a priority brings its own
 * term, one without keeps the job's (Slurm 24.11's multifactor). */
static const struct {
	const char *what;
	double job_qos_factor;	/* the job's own QOS */
	bool has_prio;		/* the entry's QOS has a priority */
	double factor;		/* ... of this normalised value */
	uint32_t weight_qos;
	uint32_t want;		/* age 500 + part 500 + the QOS term */
} entry_rows[] = {
	{ "entry QOS with a priority replaces the job's", 0.5, true, 0.25,
	  2000, 1500 },
	{ "entry QOS without a priority keeps the job's", 0.5, false, 0.25,
	  2000, 2000 },
	{ "entry QOS of factor 0 with a priority gives 0", 0.5, true, 0.0,
	  2000, 1000 },
	{ "no QOS weight: the job's term (0) stays", 0.5, true, 1.0, 0,
	  1000 },
};

START_TEST(test_entry_qos)
{
	prism_prio_conf_t w = weights;
	prism_job_t job = { .accrue_time = 500, .part_factor = 0.1,
			    .qos_factor = entry_rows[_i].job_qos_factor,
			    .site = OFF, .nice = OFF };
	prism_terms_t t;
	double q;

	w.weight_qos = entry_rows[_i].weight_qos;
	prism_prio_terms(&w, &world, &job, 1000, &t);
	q = prism_entry_qos_term(&w, &t, entry_rows[_i].has_prio,
				 entry_rows[_i].factor);
	ck_assert_msg(prism_prio_total_in_entry(&t, t.part, q, 0, NULL) ==
			      entry_rows[_i].want,
		      "%s: got %u", entry_rows[_i].what,
		      prism_prio_total_in_entry(&t, t.part, q, 0, NULL));
	/* the job's own QOS in the entry: the job's priority */
	ck_assert_uint_eq(prism_prio_total_in_entry(&t, t.part, t.qos, 0,
						    NULL),
			  prism_prio_total(&t, NULL));
}
END_TEST

static const struct {
	const char *what;
	bool incr_only;
	uint32_t current, computed, want;
} update_rows[] = {
	{ "plain update goes down", false, 500, 400, 400 },
	{ "plain update goes up", false, 400, 500, 500 },
	{ "incr_only keeps a higher value", true, 500, 400, 500 },
	{ "incr_only takes a higher value", true, 400, 500, 500 },
};

START_TEST(test_update)
{
	uint32_t got = prism_prio_update(update_rows[_i].incr_only,
					 update_rows[_i].current,
					 update_rows[_i].computed);

	ck_assert_msg(got == update_rows[_i].want, "%s: %u",
		      update_rows[_i].what, got);
}
END_TEST

START_TEST(test_site_and_nice_without_offset)
{
	prism_terms_t t = { .site = OFF + 5, .nice = OFF - 20 };

	ck_assert(prism_term_site(&t) == 5);
	ck_assert(prism_term_nice(&t) == -20);
	t.site = 0;
	ck_assert(prism_term_site(&t) == -(int64_t) OFF);
}
END_TEST

START_TEST(test_pick_factor)
{
	ck_assert(prism_pick_factor(false, 0.5, 7.0) == 0.5);
	ck_assert(prism_pick_factor(true, 0.5, 7.0) == 7.0);
}
END_TEST

extern Suite *prio_suite(void)
{
	Suite *s = suite_create("prio");
	TCase *tc = tcase_create("factors");

	tcase_add_loop_test(tc, test_age, 0, N(age_rows));
	tcase_add_loop_test(tc, test_size, 0, N(size_rows));
	tcase_add_test(tc, test_size_empty_world);
	tcase_add_loop_test(tc, test_total, 0, N(total_rows));
	tcase_add_test(tc, test_zero_weight_gives_zero_term);
	tcase_add_test(tc, test_clamp_reports_high);
	tcase_add_test(tc, test_other_partition);
	tcase_add_loop_test(tc, test_entry_qos, 0,
			    sizeof(entry_rows) / sizeof(entry_rows[0]));
	tcase_add_loop_test(tc, test_update, 0, N(update_rows));
	tcase_add_test(tc, test_pick_factor);
	tcase_add_test(tc, test_site_and_nice_without_offset);
	suite_add_tcase(s, tc);
	return s;
}
