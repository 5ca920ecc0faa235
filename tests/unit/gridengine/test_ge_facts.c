/*****************************************************************************\
 *  test_ge_facts.c - unit tests of prism_ge_facts: a pending job's facts
 *  into the core's job and its requests (the controller's counts and the
 *  public record's string, Slurm's markers of none, the bound), both
 *  records' forms of the same job giving the same inputs, the POSIX
 *  priority from nice, sprio's columns written and read back (round
 *  trip, another partition's row, rows without columns), and bad
 *  parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "prism_ge_facts.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define NONE PRISM_GE_NONE
#define OFF PRISM_NICE_OFFSET
#define NOW 1000000

/* Resources: slots, mem, nodes, then gres/gpu (3) and license/x (4). */
static const char *conf =
	"weight_priority 1\nurgency_slots 100\nurgency[mem] 0.5\n"
	"urgency[gres/gpu] 1000\nurgency[license/x] 10\n"
	"urgency_partition[fast] 40000\n"
	"override_tickets_user[bob] 10\n"
	"override_tickets_account[chem] 500\n";

static prism_ge_policy_t *_policy(const char *text)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(text, strlen(text), "ge.conf", &pol,
					   &err),
		      "%s", err.text);
	return pol;
}

/* ---- the job and its requests ----------------------------------------- */

/* The controller's TRES counts: cpu, mem, energy, node, billing, gpu. */
static const uint64_t counts[] = { 4, 2048, 0, 2, 40, 2 };
static const int pos_gpu[] = { -1, 1, -1, 5, -1 };	/* x untracked */
static const int pos_far[] = { -1, 1, -1, 9, 1 };	/* beyond the counts */
static const uint64_t marks[] = { 4, PRISM_NO_VAL64, PRISM_INFINITE64,
				  PRISM_NO_CONSUME_VAL64, (uint64_t) 1 << 62 };
static const int pos_marks[] = { -1, 1, -1, 2, 3 };
static const int pos_big[] = { -1, 4, -1, -1, -1 };

static const struct {
	const char *what;
	prism_ge_facts_t f;
	double want[5];	/* slots, mem, nodes, gres/gpu, license/x */
} requests[] = {
	{ "the controller's counts by position",
	  { .cpus = 4, .nodes = 2, .tres_cnt = counts, .tres_len = 6,
	    .tres_pos = pos_gpu }, { 4, 2048, 2, 2, 0 } },
	{ "the public record's string by name",
	  { .cpus = 4, .nodes = 2,
	    .tres_req = "cpu=4,mem=2G,node=2,billing=40,gres/gpu=2" },
	  { 4, 2048, 2, 2, 0 } },
	{ "the string wins over counts",
	  { .cpus = 1, .nodes = 1, .tres_cnt = counts, .tres_len = 6,
	    .tres_pos = pos_gpu, .tres_req = "license/x=3" },
	  { 1, 0, 1, 0, 3 } },
	{ "an unreadable entry is 0",
	  { .cpus = 1, .nodes = 1, .tres_req = "mem=lots,gres/gpu=1" },
	  { 1, 0, 1, 1, 0 } },
	{ "a position beyond the counts is 0",
	  { .cpus = 1, .nodes = 1, .tres_cnt = counts, .tres_len = 6,
	    .tres_pos = pos_far }, { 1, 2048, 1, 0, 2048 } },
	{ "no counts (no request): 0",
	  { .cpus = 1, .nodes = 1, .tres_len = 6, .tres_pos = pos_gpu },
	  { 1, 0, 1, 0, 0 } },
	{ "no positions (nothing tracked): 0",
	  { .cpus = 1, .nodes = 1, .tres_cnt = counts, .tres_len = 6 },
	  { 1, 0, 1, 0, 0 } },
	{ "Slurm's markers of none are 0",
	  { .cpus = 1, .nodes = 1, .tres_cnt = marks, .tres_len = 5,
	    .tres_pos = pos_marks }, { 1, 0, 1, 0, 0 } },
	{ "beyond the bound: the bound",
	  { .cpus = 1, .nodes = 1, .tres_cnt = marks, .tres_len = 5,
	    .tres_pos = pos_big }, { 1, PRISM_GE_AMOUNT_MAX, 1, 0, 0 } },
	{ "beyond the bound in a string: the bound",
	  { .cpus = 1, .nodes = 1, .tres_req = "mem=2000000000000000000" },
	  { 1, PRISM_GE_AMOUNT_MAX, 1, 0, 0 } },
};

START_TEST(test_requests)
{
	prism_ge_policy_t *pol = _policy(conf);
	double amount[5] = { -1, -1, -1, -1, -1 };
	prism_ge_job_t job;
	prism_error_t err = { "" };

	ck_assert_uint_eq(prism_ge_count(pol, PRISM_GE_RESOURCE), 5);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_RESOURCE, "gres/gpu"), 3);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_RESOURCE, "license/x"),
			  4);
	ck_assert_int_eq(prism_ge_job_from_facts(pol, &requests[_i].f, &job,
						 amount, &err), 0);
	ck_assert_ptr_eq(job.amount, amount);
	for (int r = 0; r < 5; r++)
		ck_assert_msg(amount[r] == requests[_i].want[r],
			      "%s: resource %d: %g", requests[_i].what, r,
			      amount[r]);
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_job)
{
	prism_ge_policy_t *pol = _policy(conf);
	uint32_t bob = prism_ge_find(pol, PRISM_GE_USER, "bob");
	prism_ge_facts_t f = {
		.job_id = 21, .submit_time = NOW - 3600, .deadline = NOW + 60,
		.nice = OFF - 100, .user = bob, .account = "chem",
		.partition = "fast", .cpus = 4, .nodes = 2,
	};
	double amount[5];
	prism_ge_job_t job;

	ck_assert_uint_ne(bob, NONE);
	ck_assert_int_eq(prism_ge_job_from_facts(pol, &f, &job, amount, NULL),
			 0);
	ck_assert_uint_eq(job.job_id, 21);
	ck_assert_int_eq(job.submit, NOW - 3600);
	ck_assert_int_eq(job.deadline, NOW + 60);
	ck_assert_int_eq(job.nice, -100);
	ck_assert_uint_eq(job.node, NONE);
	ck_assert_uint_eq(job.user, bob);
	ck_assert_uint_eq(job.account,
			  prism_ge_find(pol, PRISM_GE_ACCOUNT, "chem"));
	ck_assert_uint_ne(job.account, NONE);
	ck_assert_uint_eq(job.partition,
			  prism_ge_find(pol, PRISM_GE_PARTITION, "fast"));
	ck_assert_uint_ne(job.partition, NONE);
	ck_assert_uint_eq(job.jobshare, 0);
	ck_assert_uint_eq(job.otickets, 0);
	/* names the policy does not know, or none */
	f.account = "phys";
	f.partition = NULL;
	ck_assert_int_eq(prism_ge_job_from_facts(pol, &f, &job, amount, NULL),
			 0);
	ck_assert_uint_eq(job.account, NONE);
	ck_assert_uint_eq(job.partition, NONE);
	f.account = NULL;
	ck_assert_int_eq(prism_ge_job_from_facts(pol, &f, &job, amount, NULL),
			 0);
	ck_assert_uint_eq(job.account, NONE);
	prism_ge_policy_free(pol);
}
END_TEST

/* One pending job, as each record has it: the same inputs. */
START_TEST(test_both_records)
{
	prism_ge_policy_t *pol = _policy(conf);
	static const uint64_t req[] = { 4, 3072, 0, 1, 4, 2 };
	static const int pos[] = { -1, 1, -1, 5, -1 };
	prism_ge_facts_t ctl = {
		.job_id = 7, .submit_time = NOW - 60, .nice = OFF + 5,
		.account = "chem", .partition = "fast", .cpus = 4, .nodes = 1,
		.tres_cnt = req, .tres_len = 6, .tres_pos = pos,
	};
	prism_ge_facts_t pub = ctl;
	double a[5], b[5];
	prism_ge_job_t x, y;

	pub.tres_cnt = NULL;
	pub.tres_pos = NULL;
	pub.tres_req = "cpu=4,mem=3G,node=1,billing=4,gres/gpu=2";
	ck_assert(!prism_ge_job_from_facts(pol, &ctl, &x, a, NULL));
	ck_assert(!prism_ge_job_from_facts(pol, &pub, &y, b, NULL));
	ck_assert(x.job_id == y.job_id && x.submit == y.submit &&
		  x.deadline == y.deadline && x.nice == y.nice &&
		  x.node == y.node && x.user == y.user &&
		  x.account == y.account && x.partition == y.partition);
	for (int r = 0; r < 5; r++)
		ck_assert_msg(a[r] == b[r], "resource %d: %g != %g", r, a[r],
			      b[r]);
	ck_assert(a[PRISM_GE_RES_MEM] == 3072 && a[3] == 2);
	prism_ge_policy_free(pol);
}
END_TEST

/* nice, offset as Slurm keeps it, to GE's POSIX priority (bounded). */
static const struct {
	const char *what;
	uint32_t nice;
	int64_t want_nice;
	int32_t ppri;
} nices[] = {
	{ "nice 0", OFF, 0, 0 },
	{ "nice -100: ppri 100", OFF - 100, -100, 100 },
	{ "nice 100: ppri -100", OFF + 100, 100, -100 },
	{ "nice -5000: ppri bounded to 1024", OFF - 5000, -5000, 1024 },
	{ "nice 5000: ppri bounded to -1023", OFF + 5000, 5000, -1023 },
	{ "a raw nice of 0", 0, -(int64_t) OFF, 1024 },
};

START_TEST(test_nice)
{
	prism_ge_policy_t *pol = _policy("# defaults\n");
	prism_ge_facts_t f = { .nice = nices[_i].nice };
	double amount[3];
	prism_ge_job_t job;

	ck_assert(!prism_ge_job_from_facts(pol, &f, &job, amount, NULL));
	ck_assert_msg(job.nice == nices[_i].want_nice &&
			      prism_ge_posix_prio(job.nice) == nices[_i].ppri,
		      "%s: nice %" PRId64 " ppri %d", nices[_i].what, job.nice,
		      prism_ge_posix_prio(job.nice));
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- sprio columns ---------------------------------------------------- */

static const struct {
	const char *what;
	prism_ge_sprio_t c;
	prism_cols_t want;
} encodes[] = {
	{ "urgency, tickets, posix; the offset in SITE",
	  { .urgency = 10, .tickets = 20, .posix = 30, .offset = 3 },
	  { .age = 10, .assoc = 20, .qos = 30, .site = OFF + 3,
	    .nice = OFF } },
	{ "an offset beyond SITE's room is bounded",
	  { .offset = UINT32_MAX }, { .site = UINT32_MAX, .nice = OFF } },
};

START_TEST(test_encode)
{
	prism_cols_t got;

	memset(&got, 0xff, sizeof(got));
	ck_assert_int_eq(prism_ge_cols_encode(&encodes[_i].c, &got, NULL), 0);
	ck_assert_msg(got.age == encodes[_i].want.age &&
			      got.assoc == encodes[_i].want.assoc &&
			      got.qos == encodes[_i].want.qos &&
			      !got.fs && !got.js && !got.part &&
			      got.site == encodes[_i].want.site &&
			      got.nice == encodes[_i].want.nice &&
			      !got.direct_prio && !got.tres && !got.tres_cnt,
		      "%s: site %u", encodes[_i].what, (unsigned) got.site);
}
END_TEST

/* Results through the Slurm mapping, their columns written and read
 * back. */
static const struct {
	const char *what;
	const char *conf;
	double nurg, ntckts, npprior;
} trips[] = {
	{ "defaults", "# defaults\n", 1.0, 0.5, 0.5 },
	{ "all three weights", "weight_priority 1\n", 0.25, 0.75, 0.6 },
	{ "stock Grid Engine's weights",
	  "weight_priority 0.1\nweight_urgency 1\nweight_ticket 0.01\n", 0.0,
	  1.0, 0.5 },
	{ "the lowest priority", "weight_priority 1\n", 0.0, 0.0, 0.0 },
};

START_TEST(test_round_trip)
{
	prism_ge_policy_t *pol = _policy(trips[_i].conf);
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	prism_ge_result_t r = { .nurg = trips[_i].nurg,
				.ntckts = trips[_i].ntckts,
				.npprior = trips[_i].npprior };
	prism_ge_sprio_t c, back, moved;
	prism_error_t err = { "" };
	prism_cols_t cols;
	uint32_t slurm = 0;

	r.prio = p->weight_urgency * r.nurg + p->weight_ticket * r.ntckts +
		 p->weight_priority * r.npprior;
	r.slurm = prism_ge_to_slurm(pol, r.prio);
	ck_assert(!prism_ge_sprio(pol, &r, &c, &err));
	ck_assert_int_eq(prism_ge_cols_encode(&c, &cols, &err), 0);
	ck_assert_int_eq(prism_ge_cols_decode(&cols, 42, &back, &slurm, &err),
			 PRISM_COLS_POLICY);
	ck_assert_msg(slurm == r.slurm, "%s: %u != %u", trips[_i].what,
		      (unsigned) slurm, (unsigned) r.slurm);
	ck_assert_msg(back.urgency == c.urgency && back.tickets == c.tickets &&
			      back.posix == c.posix && back.offset == c.offset,
		      "%s: columns differ", trips[_i].what);
	/* another partition's row: as prism_ge_sprio_rebase(), read back */
	for (int d = -1; d <= 1; d += 2) {
		uint32_t to = d < 0 ? r.slurm / 2 : r.slurm + 1000;
		prism_cols_t rebased = cols;

		moved = c;
		prism_ge_sprio_rebase(&moved, to);
		ck_assert_int_eq(prism_ge_cols_rebase(&rebased, to, &err), 0);
		ck_assert_int_eq(prism_ge_cols_decode(&rebased, 42, &back,
						      &slurm, &err),
				 PRISM_COLS_POLICY);
		ck_assert_msg(back.urgency == moved.urgency &&
				      back.tickets == moved.tickets &&
				      back.posix == moved.posix &&
				      back.offset == moved.offset,
			      "%s: rebased to %u", trips[_i].what,
			      (unsigned) to);
		ck_assert_uint_eq(slurm, to ? to : 42);
		ck_assert_uint_eq(rebased.nice, OFF);
	}
	prism_ge_policy_free(pol);
}
END_TEST

static const struct {
	const char *what;
	prism_cols_t in;
	int kind;
	uint32_t slurm;		/* the job's priority is 42 */
	uint32_t offset;
} decodes[] = {
	{ "no columns: the job's priority", { .age = 5 }, PRISM_COLS_NONE,
	  42, 0 },
	{ "an admin-set priority: no columns",
	  { .direct_prio = 77.0, .site = OFF + 1, .nice = OFF },
	  PRISM_COLS_ADMIN, 77, 0 },
	{ "an admin-set priority beyond 32 bits: bounded",
	  { .direct_prio = 1e12 }, PRISM_COLS_ADMIN, UINT32_MAX, 0 },
	{ "SITE below the offset: offset 0",
	  { .age = 9, .site = 5, .nice = OFF }, PRISM_COLS_POLICY, 9, 0 },
	{ "the four columns add up",
	  { .age = 9, .assoc = 20, .qos = 300, .site = OFF + 2,
	    .nice = OFF }, PRISM_COLS_POLICY, 331, 2 },
	{ "a sum of 0: the job's priority",
	  { .site = OFF, .nice = OFF }, PRISM_COLS_POLICY, 42, 0 },
	{ "a sum beyond 32 bits: the job's priority",
	  { .age = 4e9, .assoc = 4e9, .site = OFF + 1, .nice = OFF },
	  PRISM_COLS_POLICY, 42, 1 },
};

START_TEST(test_decode)
{
	prism_ge_sprio_t c;
	uint32_t slurm = 0;

	memset(&c, 0xff, sizeof(c));
	ck_assert_msg(prism_ge_cols_decode(&decodes[_i].in, 42, &c, &slurm,
					   NULL) == decodes[_i].kind,
		      "%s: kind", decodes[_i].what);
	ck_assert_msg(slurm == decodes[_i].slurm, "%s: %u", decodes[_i].what,
		      (unsigned) slurm);
	ck_assert_msg(c.offset == decodes[_i].offset, "%s: offset %u",
		      decodes[_i].what, (unsigned) c.offset);
	if (decodes[_i].kind != PRISM_COLS_POLICY)
		ck_assert_msg(!c.urgency && !c.tickets && !c.posix,
			      "%s: columns not zero", decodes[_i].what);
}
END_TEST

/* ---- bad parameters --------------------------------------------------- */

START_TEST(test_bad_param)
{
	prism_ge_policy_t *pol = _policy("# defaults\n");
	prism_ge_facts_t f = { .cpus = 1 };
	prism_ge_job_t job = { .job_id = 99 };
	double amount[3] = { -1, -1, -1 };
	prism_ge_sprio_t c = { .offset = 1 };
	prism_cols_t cols = { .site = 1 };
	prism_error_t err = { "" };
	uint32_t slurm = 5;

	ck_assert_int_eq(prism_ge_job_from_facts(NULL, &f, &job, amount, &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_ge_job_from_facts: NULL argument");
	ck_assert_int_eq(prism_ge_job_from_facts(pol, NULL, &job, amount,
						 &err), -1);
	ck_assert_int_eq(prism_ge_job_from_facts(pol, &f, NULL, amount, &err),
			 -1);
	ck_assert_int_eq(prism_ge_job_from_facts(pol, &f, &job, NULL, NULL),
			 -1);
	ck_assert_uint_eq(job.job_id, 99);	/* untouched */
	ck_assert(amount[0] == -1);
	ck_assert_int_eq(prism_ge_cols_encode(NULL, &cols, &err), -1);
	ck_assert_str_eq(err.text, "prism_ge_cols_encode: NULL argument");
	ck_assert_int_eq(prism_ge_cols_encode(&c, NULL, &err), -1);
	ck_assert_int_eq(prism_ge_cols_rebase(NULL, 5, &err), -1);
	ck_assert_str_eq(err.text, "prism_ge_cols_rebase: NULL argument");
	ck_assert_int_eq(prism_ge_cols_decode(NULL, 1, &c, &slurm, &err), -1);
	ck_assert_str_eq(err.text, "prism_ge_cols_decode: NULL argument");
	ck_assert_int_eq(prism_ge_cols_decode(&cols, 1, NULL, &slurm, &err),
			 -1);
	ck_assert_int_eq(prism_ge_cols_decode(&cols, 1, &c, NULL, &err), -1);
	ck_assert_uint_eq(slurm, 5);
	ck_assert_uint_eq(c.offset, 1);
	prism_ge_policy_free(pol);
}
END_TEST

extern Suite *ge_facts_suite(void)
{
	Suite *s = suite_create("ge_facts");
	TCase *tc = tcase_create("facts");

	tcase_add_loop_test(tc, test_requests, 0, N(requests));
	tcase_add_test(tc, test_job);
	tcase_add_test(tc, test_both_records);
	tcase_add_loop_test(tc, test_nice, 0, N(nices));
	tcase_add_loop_test(tc, test_encode, 0, N(encodes));
	tcase_add_loop_test(tc, test_round_trip, 0, N(trips));
	tcase_add_loop_test(tc, test_decode, 0, N(decodes));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
