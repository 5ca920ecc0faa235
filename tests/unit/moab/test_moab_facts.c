/*****************************************************************************\
 *  test_moab_facts.c - unit tests of prism_moab_facts: a job's facts
 *  into the core's job (state, times, sizes, credentials, masks, system
 *  priority), both records' forms of the same job giving the same inputs,
 *  the partition, the per-user totals, sprio's columns written and read
 *  back (round trip, another partition's row, rows without columns), and
 *  bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "prism_moab_facts.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define NOW 1000000
#define OFF PRISM_NICE_OFFSET

/* A pending job at NOW (other fields 0: a raw nice of 0, no limit). */
#define PENDING .now = NOW, .pending = true

static const char *conf =
	"USERCFG[alice] PRIORITY=1\n"
	"ACCOUNTCFG[chem] PRIORITY=2\n"
	"QOSCFG[high] PRIORITY=3\n"
	"CLASSCFG[batch] PRIORITY=4\n"
	"JOBPRIOF ATTR[fast]=10 ATTR[big]=20 GRES[gpu]=5 GRES[matlab]=7\n";

static prism_moab_policy_t *_policy(const char *text)
{
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_conf_parse(text, strlen(text), "moab.cfg",
					     &pol, &err),
		      "%s", err.text);
	return pol;
}

static prism_moab_job_t _inputs(const prism_moab_policy_t *pol,
				const prism_moab_facts_t *f)
{
	prism_moab_job_t job;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_job_from_facts(pol, f, &job, &err), "%s",
		      err.text);
	return job;
}

/* ---- the state -------------------------------------------------------- */

static const struct {
	const char *what;
	prism_moab_facts_t f;
	prism_moab_state_t want;
} states[] = {
	{ "pending, eligible: idle", { PENDING }, PRISM_MOAB_IDLE },
	{ "priority 0: hold", { PENDING, .held = true }, PRISM_MOAB_HOLD },
	{ "a dependency: blocked", { PENDING, .dependency = true },
	  PRISM_MOAB_BLOCKED },
	{ "a begin time ahead: blocked", { PENDING, .begin_time = NOW + 1 },
	  PRISM_MOAB_BLOCKED },
	{ "a begin time now: idle", { PENDING, .begin_time = NOW },
	  PRISM_MOAB_IDLE },
	{ "held and blocked: hold first",
	  { PENDING, .held = true, .dependency = true }, PRISM_MOAB_HOLD },
	{ "running", { .now = NOW, .running = true }, PRISM_MOAB_RUNNING },
	{ "suspended", { .now = NOW, .suspended = true },
	  PRISM_MOAB_SUSPENDED },
	{ "nodes booting: starting, though running",
	  { .now = NOW, .running = true, .configuring = true },
	  PRISM_MOAB_STARTING },
	{ "running with priority 0 (held while running): running",
	  { .now = NOW, .running = true, .held = true }, PRISM_MOAB_RUNNING },
};

START_TEST(test_state)
{
	prism_moab_policy_t *pol = _policy("");
	prism_moab_job_t job = _inputs(pol, &states[_i].f);

	ck_assert_msg(job.state == states[_i].want, "%s: %d",
		      states[_i].what, job.state);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- times and sizes -------------------------------------------------- */

static const struct {
	const char *what;
	prism_moab_facts_t f;
	int64_t wclimit, queue_time, exec_time;
	int32_t user_prio;
	uint32_t nodes;
	uint64_t disk_mb, mem_mb;
} times[] = {
	{ "limit in seconds, queue time from the accrue time",
	  { PENDING, .time_limit = 30, .accrue_time = NOW - 600 },
	  1800, 600, 0, INT32_MAX, 0, 0, 0 },
	{ "no limit: 0", { PENDING }, 0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "no limit: INFINITE", { PENDING, .time_limit = PRISM_INFINITE },
	  0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "no limit: NO_VAL", { PENDING, .time_limit = PRISM_NO_VAL },
	  0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "accrue time ahead: no queue time",
	  { PENDING, .accrue_time = NOW + 5 }, 0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "nice -50 is USERPRIO 50", { PENDING, .nice = OFF - 50 },
	  0, 0, 0, 50, 0, 0, 0 },
	{ "nice 50 is USERPRIO -50", { PENDING, .nice = OFF + 50 },
	  0, 0, 0, -50, 0, 0, 0 },
	{ "nice 0 (Slurm's offset itself)", { PENDING, .nice = OFF },
	  0, 0, 0, 0, 0, 0, 0 },
	{ "a raw nice of 0 is bounded", { PENDING },
	  0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "pending: the nodes asked for, disk per node times them",
	  { PENDING, .min_nodes = 3, .node_cnt = 9, .disk_per_node = 100 },
	  0, 0, 0, INT32_MAX, 3, 300, 0 },
	{ "running: the nodes allocated",
	  { .now = NOW, .running = true, .nice = OFF, .min_nodes = 3,
	    .node_cnt = 2, .disk_per_node = 100, .start_time = NOW - 10 },
	  0, 0, 10, 0, 2, 200, 0 },
	{ "controller's record: run time less the time suspended",
	  { .now = NOW, .running = true, .nice = OFF, .start_time = NOW - 500,
	    .tot_sus_time = 50, .pre_sus_time = 1, .suspend_time = NOW - 2 },
	  0, 0, 450, 0, 0, 0, 0 },
	{ "controller's record: suspended longer than it ran",
	  { .now = NOW, .suspended = true, .nice = OFF,
	    .start_time = NOW - 100, .tot_sus_time = 500 },
	  0, 0, 0, 0, 0, 0, 0 },
	{ "public record: running, never suspended",
	  { .now = NOW, .running = true, .nice = OFF, .start_time = NOW - 600,
	    .tot_sus_time = -1 },
	  0, 0, 600, 0, 0, 0, 0 },
	{ "public record: running since a resume",
	  { .now = NOW, .running = true, .nice = OFF, .start_time = NOW - 600,
	    .tot_sus_time = -1, .pre_sus_time = 200,
	    .suspend_time = NOW - 100 },
	  0, 0, 300, 0, 0, 0, 0 },
	{ "public record: suspended, what ran before",
	  { .now = NOW, .suspended = true, .nice = OFF,
	    .start_time = NOW - 600, .tot_sus_time = -1, .pre_sus_time = 200,
	    .suspend_time = NOW - 100 },
	  0, 0, 200, 0, 0, 0, 0 },
	{ "public record: pending, no run time",
	  { PENDING, .start_time = NOW - 600, .tot_sus_time = -1,
	    .pre_sus_time = 200 },
	  0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "memory: the controller's count",
	  { PENDING, .mem_mb = 3072 }, 0, 0, 0, INT32_MAX, 0, 0, 3072 },
	{ "memory: the public record's string wins",
	  { PENDING, .mem_mb = 7, .tres_req = "cpu=4,mem=3G,node=2" },
	  0, 0, 0, INT32_MAX, 0, 0, 3072 },
	{ "memory: an unreadable string is 0",
	  { PENDING, .mem_mb = 7, .tres_req = "cpu=4,mem=lots" },
	  0, 0, 0, INT32_MAX, 0, 0, 0 },
	{ "memory: a string without it is 0",
	  { PENDING, .tres_req = "cpu=4" }, 0, 0, 0, INT32_MAX, 0, 0, 0 },
};

START_TEST(test_times)
{
	prism_moab_policy_t *pol = _policy("");
	prism_moab_job_t job = _inputs(pol, &times[_i].f);

	ck_assert_msg(job.wclimit == times[_i].wclimit &&
			      job.queue_time == times[_i].queue_time &&
			      job.exec_time == times[_i].exec_time &&
			      job.user_prio == times[_i].user_prio &&
			      job.nodes == times[_i].nodes &&
			      job.disk_mb == times[_i].disk_mb &&
			      job.mem_mb == times[_i].mem_mb,
		      "%s: wclimit %" PRId64 " queue %" PRId64
		      " exec %" PRId64 " userprio %d nodes %u disk %" PRIu64
		      " mem %" PRIu64,
		      times[_i].what, job.wclimit, job.queue_time,
		      job.exec_time, job.user_prio, (unsigned) job.nodes,
		      job.disk_mb, job.mem_mb);
	prism_moab_policy_free(pol);
}
END_TEST

/* Are the inputs 'a' and 'b' the same (field by field)? */
static bool _same(const prism_moab_job_t *a, const prism_moab_job_t *b)
{
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		if (a->cred[k] != b->cred[k])
			return false;
	return a->class_prio == b->class_prio && a->part == b->part &&
	       a->nodes == b->nodes && a->procs == b->procs &&
	       a->mem_mb == b->mem_mb && a->disk_mb == b->disk_mb &&
	       a->wclimit == b->wclimit && a->queue_time == b->queue_time &&
	       a->start_count == b->start_count &&
	       a->deadline == b->deadline && a->user_prio == b->user_prio &&
	       a->state == b->state && a->exec_time == b->exec_time &&
	       a->attr_mask == b->attr_mask && a->gres_mask == b->gres_mask &&
	       a->sys_prio == b->sys_prio;
}

/* One running job, as each record has it: the same inputs. */
START_TEST(test_both_records)
{
	prism_moab_policy_t *pol = _policy(conf);
	prism_moab_facts_t ctl = {
		.now = NOW, .running = true, .nice = OFF - 3, .cpus = 8,
		.time_limit = 60, .accrue_time = NOW - 900,
		.start_time = NOW - 600, .tot_sus_time = 100,
		.pre_sus_time = 200, .suspend_time = NOW - 300,
		.min_nodes = 1, .node_cnt = 2, .mem_mb = 2048,
		.disk_per_node = 10, .restart_cnt = 1, .deadline = NOW + 60,
		.account = "chem", .qos = "high", .features = "fast",
		.tres_per_node = "gres:gpu:1", .licenses = "matlab:1",
	};
	prism_moab_facts_t pub = ctl;
	prism_moab_job_t a, b;

	pub.tot_sus_time = -1;
	pub.mem_mb = 0;
	pub.tres_req = "cpu=8,mem=2G,node=2";
	a = _inputs(pol, &ctl);
	b = _inputs(pol, &pub);
	ck_assert_int_eq(a.exec_time, 500);
	ck_assert_uint_eq(a.mem_mb, 2048);
	ck_assert(_same(&a, &b));
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- credentials, masks, system priority ------------------------------ */

START_TEST(test_creds)
{
	prism_moab_policy_t *pol = _policy(conf);
	prism_moab_facts_t f = {
		PENDING, .cpus = 6, .restart_cnt = 2, .deadline = NOW + 3600,
		.account = "chem", .qos = "high", .features = "fast&big",
		.tres_per_node = "gres:gpu:2", .licenses = "matlab:1",
	};
	prism_moab_job_t job;
	prism_moab_totals_t tot = { .procs = 99 };

	f.user = prism_moab_cred_find(pol, PRISM_MOAB_USER, "alice");
	f.group = 12345;	/* copied as it is */
	job = _inputs(pol, &f);
	ck_assert_uint_ne(job.cred[PRISM_MOAB_USER], PRISM_MOAB_NONE);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_USER], f.user);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_GROUP], 12345);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_ACCOUNT],
			  prism_moab_cred_find(pol, PRISM_MOAB_ACCOUNT,
					       "chem"));
	ck_assert_uint_ne(job.cred[PRISM_MOAB_ACCOUNT], PRISM_MOAB_NONE);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_QOS],
			  prism_moab_cred_find(pol, PRISM_MOAB_QOS, "high"));
	ck_assert_uint_eq(job.cred[PRISM_MOAB_CLASS], PRISM_MOAB_NONE);
	ck_assert_ptr_null(job.part);
	ck_assert_uint_eq(job.procs, 6);
	ck_assert_uint_eq(job.start_count, 2);
	ck_assert_int_eq(job.deadline, NOW + 3600);
	ck_assert_uint_eq(job.attr_mask,
			  (1ull << prism_moab_attr_bit(pol, "fast")) |
				  (1ull << prism_moab_attr_bit(pol, "big")));
	ck_assert_uint_eq(job.gres_mask,
			  (1ull << prism_moab_gres_bit(pol, "gpu")) |
				  (1ull << prism_moab_gres_bit(pol, "matlab")));
	ck_assert_int_eq(job.sys_prio, 0);
	/* no account, an empty QOS, a GRES per task */
	f.account = NULL;
	f.qos = "";
	f.tres_per_node = NULL;
	f.licenses = NULL;
	f.tres_per_task = "gres:gpu:1";
	job = _inputs(pol, &f);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_ACCOUNT], PRISM_MOAB_NONE);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_QOS], PRISM_MOAB_NONE);
	ck_assert_uint_eq(job.gres_mask,
			  1ull << prism_moab_gres_bit(pol, "gpu"));
	/* the partition, then none */
	ck_assert_int_eq(prism_moab_job_part(pol,
				&(prism_moab_part_facts_t) {
					.name = "batch", .prio_job_factor = 9,
					.total_cpus = 16,
					.tres = "cpu=16,mem=64000M" },
				&tot, &job, NULL), 0);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_CLASS],
			  prism_moab_cred_find(pol, PRISM_MOAB_CLASS, "batch"));
	ck_assert_uint_ne(job.cred[PRISM_MOAB_CLASS], PRISM_MOAB_NONE);
	ck_assert_int_eq(job.class_prio, 9);
	ck_assert_ptr_eq(job.part, &tot);
	ck_assert_uint_eq(tot.procs, 16);
	ck_assert_uint_eq(tot.mem_mb, 64000);
	ck_assert_int_eq(prism_moab_job_part(pol,
				&(prism_moab_part_facts_t) {
					.name = "other", .mem_mb = 512 },
				&tot, &job, NULL), 0);
	ck_assert_uint_eq(job.cred[PRISM_MOAB_CLASS], PRISM_MOAB_NONE);
	ck_assert_uint_eq(tot.mem_mb, 512);	/* the count: no string */
	ck_assert_int_eq(prism_moab_job_part(pol, NULL, &tot, &job, NULL), 0);
	ck_assert_ptr_null(job.part);
	ck_assert_int_eq(job.class_prio, 0);
	ck_assert_uint_eq(tot.procs, 0);
	prism_moab_policy_free(pol);
}
END_TEST

static const struct {
	const char *what;
	double admin_prio;
	int64_t want;	/* -1: prism_moab_sys_prio() of the value */
} admins[] = {
	{ "none", 0.0, 0 },
	{ "negative: none", -5.0, 0 },
	{ "an admin's value is the system priority", 7.0, 7 },
	{ "a value Prism mapped reads back (MAX_PRIO_VAL + 7)",
	  1000000008.0, 7 },
	{ "below one: at least 1", 0.5, 1 },
	{ "beyond 32 bits: bounded first", 1e12, -1 },
};

START_TEST(test_admin)
{
	prism_moab_policy_t *pol = _policy("");
	prism_moab_facts_t f = { PENDING,
				 .admin_prio = admins[_i].admin_prio };
	prism_moab_job_t job = _inputs(pol, &f);
	int64_t want = admins[_i].want;

	if (want < 0)
		want = prism_moab_sys_prio(pol, UINT32_MAX);
	ck_assert_msg(job.sys_prio == want, "%s: %" PRId64, admins[_i].what,
		      job.sys_prio);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- per-user totals -------------------------------------------------- */

static const struct {
	const char *what;
	prism_moab_facts_t f;
	uint32_t jobs, procs;
	double ps;
} actives[] = {
	{ "running: counted with its limit",
	  { .uid = 7, .running = true, .cpus = 4, .time_limit = 30 },
	  1, 4, 4.0 * 1800 },
	{ "suspended: counted",
	  { .uid = 7, .suspended = true, .cpus = 2, .time_limit = 1 },
	  1, 2, 2.0 * 60 },
	{ "booting: counted (it runs)",
	  { .uid = 7, .running = true, .configuring = true, .cpus = 1,
	    .time_limit = 1 }, 1, 1, 60.0 },
	{ "no limit: no proc-seconds",
	  { .uid = 7, .running = true, .cpus = 4,
	    .time_limit = PRISM_INFINITE }, 1, 4, 0.0 },
	{ "pending: not counted", { .uid = 7, .pending = true, .cpus = 4 },
	  0, 0, 0.0 },
};

START_TEST(test_users_count)
{
	prism_moab_users_t *u = prism_moab_users_create();
	prism_moab_job_t job = { .user_jobs = 99 };

	ck_assert_int_eq(prism_moab_users_count(u, &actives[_i].f), 0);
	prism_moab_users_fill(u, 7, &job);
	ck_assert_msg(job.user_jobs == actives[_i].jobs &&
			      job.user_procs == actives[_i].procs &&
			      job.user_ps == actives[_i].ps,
		      "%s: %u jobs, %u procs, %g ps", actives[_i].what,
		      (unsigned) job.user_jobs, (unsigned) job.user_procs,
		      job.user_ps);
	prism_moab_users_free(u);
}
END_TEST

/* ---- sprio columns ---------------------------------------------------- */

static const struct {
	const char *what;
	prism_moab_columns_t c;
	prism_cols_t want;
} encodes[] = {
	{ "each component in its column, the rest in SITE",
	  { .serv = 1, .cred = 2, .fs = 3, .res = 4, .attr = 5,
	    .target_usage = 6, .rest = 7, .exact = true },
	  { .age = 1, .assoc = 2, .fs = 3, .js = 4, .part = 5, .qos = 6,
	    .site = OFF + 7, .nice = OFF } },
	{ "negative components and rest",
	  { .cred = -20, .fs = -5, .rest = -1000, .exact = true },
	  { .assoc = -20, .fs = -5, .site = OFF - 1000, .nice = OFF } },
	{ "the bounds of a column",
	  { .serv = INT32_MAX, .rest = INT32_MIN },
	  { .age = INT32_MAX, .site = 0, .nice = OFF } },
};

START_TEST(test_encode)
{
	prism_cols_t got;

	memset(&got, 0xff, sizeof(got));
	ck_assert_int_eq(prism_moab_cols_encode(&encodes[_i].c, &got, NULL), 0);
	ck_assert_msg(got.age == encodes[_i].want.age &&
			      got.assoc == encodes[_i].want.assoc &&
			      got.fs == encodes[_i].want.fs &&
			      got.js == encodes[_i].want.js &&
			      got.part == encodes[_i].want.part &&
			      got.qos == encodes[_i].want.qos &&
			      got.site == encodes[_i].want.site &&
			      got.nice == encodes[_i].want.nice &&
			      !got.direct_prio && !got.tres && !got.tres_cnt,
		      "%s: site %u", encodes[_i].what, (unsigned) got.site);
}
END_TEST

/* Priorities through the model, their columns written and read back. */
static const struct {
	const char *what;
	const char *conf;
	int64_t queue_time;
	int32_t user_prio;
	int64_t sys_prio;
} trips[] = {
	{ "defaults: queue time only", "", 600, 0, 0 },
	{ "negative priorities allowed: the offset in SITE",
	  "ENABLENEGJOBPRIORITY TRUE\nUSERPRIOWEIGHT 1000\n", 60, -1024, 0 },
	{ "fractions dropped go to SITE",
	  "XFACTORWEIGHT 7\nQUEUETIMEWEIGHT 3\n", 333, 0, 0 },
	{ "bounded at MAX_PRIO_VAL", "QUEUETIMEWEIGHT 200000000\n", 600, 0,
	  0 },
	{ "a system priority", "", 60, 0, 5 },
};

START_TEST(test_round_trip)
{
	prism_moab_policy_t *pol = _policy(trips[_i].conf);
	prism_moab_pass_t pass = { .pol = pol, .now = NOW };
	prism_moab_job_t job = { .state = PRISM_MOAB_IDLE, .wclimit = 3600 };
	prism_moab_columns_t c, back;
	prism_moab_result_t res;
	prism_error_t err = { "" };
	prism_cols_t cols;
	uint32_t slurm = 0;

	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		job.cred[k] = PRISM_MOAB_NONE;
	job.queue_time = trips[_i].queue_time;
	job.user_prio = trips[_i].user_prio;
	job.sys_prio = trips[_i].sys_prio;
	ck_assert(!prism_moab_prio(&pass, &job, &res, &err));
	prism_moab_columns(&res, &c);
	ck_assert_msg(c.exact, "%s", trips[_i].what);
	ck_assert_int_eq(prism_moab_cols_encode(&c, &cols, &err), 0);
	ck_assert_int_eq(prism_moab_cols_decode(&cols, 42, &back, &slurm,
						&err),
			 PRISM_COLS_POLICY);
	ck_assert_msg(slurm == res.slurm, "%s: %u != %u", trips[_i].what,
		      (unsigned) slurm, (unsigned) res.slurm);
	ck_assert_msg(back.serv == c.serv && back.cred == c.cred &&
			      back.fs == c.fs && back.res == c.res &&
			      back.attr == c.attr &&
			      back.target_usage == c.target_usage &&
			      back.rest == c.rest && back.exact,
		      "%s: columns differ", trips[_i].what);
	/* another partition's row: only SITE moves, and reads back */
	ck_assert_int_eq(prism_moab_cols_rebase(&cols, res.slurm + 1000,
						&err), 0);
	ck_assert_int_eq(prism_moab_cols_decode(&cols, 42, &back, &slurm,
						&err),
			 PRISM_COLS_POLICY);
	ck_assert_uint_eq(slurm, res.slurm + 1000);
	ck_assert_int_eq(back.rest, c.rest + 1000);
	ck_assert_int_eq(back.serv, c.serv);
	ck_assert_int_eq(back.target_usage, c.target_usage);
	prism_moab_policy_free(pol);
}
END_TEST

static const double tres_cols[] = { 3.0, 4.9 };

static const struct {
	const char *what;
	prism_cols_t in;
	int kind;
	uint32_t slurm;		/* the job's priority is 42 */
	int64_t rest;
} decodes[] = {
	{ "no columns: the job's priority", { .age = 5 }, PRISM_COLS_NONE,
	  42, 0 },
	{ "an admin-set priority, no columns",
	  { .direct_prio = 77.0, .site = OFF + 1, .nice = OFF },
	  PRISM_COLS_ADMIN, 77, 0 },
	{ "an admin-set priority below 1", { .direct_prio = 0.5 },
	  PRISM_COLS_ADMIN, 0, 0 },
	{ "NICE not at the offset counts against SITE",
	  { .age = 10, .site = OFF + 10, .nice = OFF + 3 }, PRISM_COLS_POLICY,
	  17, 7 },
	{ "TRES columns add to the sum, each truncated",
	  { .age = 10, .site = OFF + 1, .nice = OFF, .tres = tres_cols,
	    .tres_cnt = 2 }, PRISM_COLS_POLICY, 18, 1 },
	{ "a sum of 0: the job's priority",
	  { .site = OFF, .nice = OFF }, PRISM_COLS_POLICY, 42, 0 },
	{ "a sum beyond 32 bits: the job's priority",
	  { .age = 5e9, .site = OFF, .nice = OFF }, PRISM_COLS_POLICY, 42, 0 },
};

START_TEST(test_decode)
{
	prism_moab_columns_t c;
	uint32_t slurm = 0;

	memset(&c, 0xff, sizeof(c));
	ck_assert_msg(prism_moab_cols_decode(&decodes[_i].in, 42, &c, &slurm,
					     NULL) == decodes[_i].kind,
		      "%s: kind", decodes[_i].what);
	ck_assert_msg(slurm == decodes[_i].slurm, "%s: %u", decodes[_i].what,
		      (unsigned) slurm);
	ck_assert_msg(c.rest == decodes[_i].rest && c.exact,
		      "%s: rest %" PRId64, decodes[_i].what, c.rest);
	if (decodes[_i].kind != PRISM_COLS_POLICY)
		ck_assert_msg(!c.serv && !c.cred && !c.target_usage,
			      "%s: columns not zero", decodes[_i].what);
}
END_TEST

/* ---- bad parameters --------------------------------------------------- */

START_TEST(test_bad_param)
{
	prism_moab_policy_t *pol = _policy("");
	prism_moab_facts_t f = { PENDING };
	prism_moab_job_t job = { .procs = 99 };
	prism_moab_totals_t tot;
	prism_moab_columns_t c = { .exact = true };
	prism_cols_t cols = { .site = 1 };
	prism_error_t err = { "" };
	uint32_t slurm = 5;

	ck_assert_int_eq(prism_moab_job_from_facts(NULL, &f, &job, &err), -1);
	ck_assert_str_eq(err.text, "prism_moab_job_from_facts: NULL argument");
	ck_assert_int_eq(prism_moab_job_from_facts(pol, NULL, &job, &err), -1);
	ck_assert_int_eq(prism_moab_job_from_facts(pol, &f, NULL, &err), -1);
	ck_assert_int_eq(prism_moab_job_from_facts(pol, NULL, &job, NULL), -1);
	ck_assert_uint_eq(job.procs, 99);	/* untouched */
	ck_assert_int_eq(prism_moab_job_part(NULL, NULL, &tot, &job, &err), -1);
	ck_assert_str_eq(err.text, "prism_moab_job_part: NULL argument");
	ck_assert_int_eq(prism_moab_job_part(pol, NULL, NULL, &job, &err), -1);
	ck_assert_int_eq(prism_moab_job_part(pol, NULL, &tot, NULL, &err), -1);
	ck_assert_uint_eq(job.procs, 99);
	ck_assert_int_eq(prism_moab_users_count(NULL, &f), -1);
	ck_assert_int_eq(prism_moab_cols_encode(NULL, &cols, &err), -1);
	ck_assert_str_eq(err.text, "prism_moab_cols_encode: NULL argument");
	ck_assert_int_eq(prism_moab_cols_encode(&c, NULL, &err), -1);
	ck_assert_int_eq(prism_moab_cols_rebase(NULL, 5, &err), -1);
	ck_assert_str_eq(err.text, "prism_moab_cols_rebase: NULL argument");
	ck_assert_int_eq(prism_moab_cols_decode(NULL, 1, &c, &slurm, &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_moab_cols_decode: NULL argument");
	ck_assert_int_eq(prism_moab_cols_decode(&cols, 1, NULL, &slurm, &err),
			 -1);
	ck_assert_int_eq(prism_moab_cols_decode(&cols, 1, &c, NULL, &err), -1);
	ck_assert_uint_eq(slurm, 5);
	ck_assert_uint_eq(cols.site, 1);
	prism_moab_policy_free(pol);
}
END_TEST

extern Suite *moab_facts_suite(void)
{
	Suite *s = suite_create("moab_facts");
	TCase *tc = tcase_create("facts");

	tcase_add_loop_test(tc, test_state, 0, N(states));
	tcase_add_loop_test(tc, test_times, 0, N(times));
	tcase_add_test(tc, test_both_records);
	tcase_add_test(tc, test_creds);
	tcase_add_loop_test(tc, test_admin, 0, N(admins));
	tcase_add_loop_test(tc, test_users_count, 0, N(actives));
	tcase_add_loop_test(tc, test_encode, 0, N(encodes));
	tcase_add_loop_test(tc, test_round_trip, 0, N(trips));
	tcase_add_loop_test(tc, test_decode, 0, N(decodes));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
