/*****************************************************************************\
 *  test_moab.c - unit tests of prism_moab: the seeds' worked examples
 *  (Maui's fair-share example, the XFACTOR table, PE), caps, the FIFO
 *  default, MAX_PRIO_VAL, the mapping onto Slurm's priority, the
 *  fair-share usage windows and their saved state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_moab.h"
#include "prism_state.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define HOUR 3600

static prism_moab_policy_t *_policy(const char *text)
{
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_conf_parse(text, strlen(text), "moab.cfg",
					     &pol, &err),
		      "%s", err.text);
	return pol;
}

/* A job with no credential the policy knows. */
static prism_moab_job_t _job(void)
{
	prism_moab_job_t job = { .state = PRISM_MOAB_IDLE };

	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		job.cred[k] = PRISM_MOAB_NONE;
	return job;
}

static void _prio(const prism_moab_policy_t *pol,
		  const prism_moab_usage_t *u, const prism_moab_job_t *job,
		  prism_moab_result_t *res)
{
	prism_moab_pass_t pass = { .pol = pol, .usage = u, .now = 1000000 };
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_prio(&pass, job, res, &err), "%s",
		      err.text);
}

/* ---- seed 002: the Maui fair-share example ---------------------------- */

START_TEST(test_maui_fairshare)
{
	prism_moab_policy_t *pol = _policy(
		"FSPOLICY DEDICATEDPS\n"
		"ENABLENEGJOBPRIORITY TRUE\n"
		"QUEUETIMEWEIGHT 0\n"
		"FSWEIGHT 100\n"
		"FSUSERWEIGHT 10\n"
		"FSGROUPWEIGHT 20\n"
		"FSACCOUNTWEIGHT 30\n"
		"FSQOSWEIGHT 40\n"
		"FSCLASSWEIGHT 0\n"
		"USERCFG[A] FSTARGET=50\n"
		"GROUPCFG[B] PRIORITY=0\n"	/* no target */
		"ACCOUNTCFG[C] FSTARGET=25.0\n"
		"QOSCFG[D] FSTARGET=10.0+\n"
		"CLASSCFG[E] PRIORITY=0\n");	/* no target */
	static const char *names[] = { "A", "B", "C", "D", "E" };
	static const double used[] = { 45, 65, 35, 25, 20 };
	prism_moab_job_t job = _job();
	prism_moab_result_t res;
	prism_error_t err = { "" };
	prism_moab_usage_t *u = prism_moab_usage_create(pol, 0, &err);
	char text[2048];

	ck_assert_ptr_nonnull(u);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		job.cred[k] = prism_moab_cred_find(pol, k, names[k]);
		ck_assert_uint_ne(job.cred[k], PRISM_MOAB_NONE);
		ck_assert(!prism_moab_usage_add(u, k, job.cred[k], used[k],
						&err));
	}
	ck_assert(!prism_moab_usage_add_total(u, 100.0, &err));
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		ck_assert(fabs(prism_moab_usage_pct(u, k, job.cred[k]) -
			       used[k]) < 1e-9);
	_prio(pol, u, &job, &res);
	/* 100 * (10 * 5 + 20 * 0 + 30 * (-10) + 40 * 0 + 0 * 0) */
	ck_assert(res.value[PRISM_MS_FSUSER] == 5.0);
	ck_assert(res.value[PRISM_MS_FSGROUP] == 0.0);
	ck_assert(res.value[PRISM_MS_FSACCOUNT] == -10.0);
	ck_assert(res.value[PRISM_MS_FSQOS] == 0.0);
	ck_assert(res.value[PRISM_MS_FSCLASS] == 0.0);
	ck_assert(res.term[PRISM_MS_FSUSER] == 50.0);
	ck_assert(res.term[PRISM_MS_FSACCOUNT] == -300.0);
	ck_assert(res.comp_sum[PRISM_MC_FS] == -250.0);
	ck_assert(res.comp[PRISM_MC_FS] == -25000.0);
	ck_assert_int_eq(res.prio, -25000);
	ck_assert_uint_eq(res.slurm, 1000000000u - 25000u + 1u);
	ck_assert(!res.reject);

	ck_assert_int_gt(prism_moab_explain(pol, &res, text, sizeof(text),
					    &err), 0);
	ck_assert_msg(strstr(text, "priority -25000 (slurm 999975001)\n") &&
			      strstr(text, "  FS: 100 * -250 = -25000\n") &&
			      strstr(text, "    FSUSER: 10 * 5 = 50\n") &&
			      strstr(text, "    FSACCOUNT: 30 * -10 = -300\n"),
		      "%s", text);
	ck_assert_int_eq(prism_moab_explain(pol, &res, text, 20, &err), -1);
	ck_assert(strstr(err.text, "too small"));

	prism_moab_usage_free(u);
	prism_moab_policy_free(pol);
}
END_TEST

/* The target kinds of seed 002 (usage 45/35/25 against 50/25/10+). */
static const struct {
	const char *what;
	prism_moab_fstarget_t type;
	double target, usage, want;
} deltas[] = {
	{ "user 5% below target", PRISM_MOAB_FST_TARGET, 50, 45, 5 },
	{ "account 10% above target", PRISM_MOAB_FST_TARGET, 25, 35, -10 },
	{ "floor, usage above: no effect", PRISM_MOAB_FST_FLOOR, 10, 25, 0 },
	{ "floor, usage below", PRISM_MOAB_FST_FLOOR, 10, 4, 6 },
	{ "ceiling, usage above", PRISM_MOAB_FST_CEILING, 10, 25, -15 },
	{ "ceiling, usage below: no effect", PRISM_MOAB_FST_CEILING, 10, 4,
	  0 },
	{ "no target", PRISM_MOAB_FST_NONE, 0, 65, 0 },
	{ "cap target: no priority effect", PRISM_MOAB_FST_CAP, 10, 25, 0 },
};

START_TEST(test_fs_delta)
{
	ck_assert_msg(prism_moab_fs_delta(deltas[_i].type, deltas[_i].target,
					  deltas[_i].usage) == deltas[_i].want,
		      "%s", deltas[_i].what);
}
END_TEST

START_TEST(test_fs_off)
{
	/* FSPOLICY unset: fair-share is off, deltas are 0 */
	prism_moab_policy_t *pol = _policy("FSUSERWEIGHT 10\n"
					   "USERCFG[A] FSTARGET=50\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	job.cred[PRISM_MOAB_USER] = 0;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_FSUSER] == 0.0);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- seed 000/002: the XFACTOR table ---------------------------------- */

static const struct {
	int64_t limit_h, queue_h;
	double want;
} xf_rows[] = {
	{ 1, 1, 2.00 },  { 1, 2, 3.00 },  { 1, 4, 5.00 },
	{ 1, 8, 9.00 },  { 1, 16, 17.0 }, { 4, 1, 1.25 },
	{ 4, 2, 1.50 },  { 4, 4, 2.00 },  { 4, 8, 3.00 },
	{ 4, 16, 5.0 },
};

START_TEST(test_xfactor_table)
{
	prism_moab_policy_t *pol = _policy("QUEUETIMEWEIGHT 0\n"
					   "XFACTORWEIGHT 100\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	ck_assert(prism_moab_xfactor(xf_rows[_i].queue_h * HOUR,
				     xf_rows[_i].limit_h * HOUR, 0) ==
		  xf_rows[_i].want);
	job.queue_time = xf_rows[_i].queue_h * HOUR;
	job.wclimit = xf_rows[_i].limit_h * HOUR;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_XFACTOR] == xf_rows[_i].want);
	ck_assert_int_eq(res.prio, (int64_t) (100 * xf_rows[_i].want));
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_xfactor_min_and_qos)
{
	prism_moab_policy_t *pol = _policy("QUEUETIMEWEIGHT 0\n"
					   "XFACTORWEIGHT 10\n"
					   "XFMINWCLIMIT 1:00:00\n"
					   "QOSCFG[special] XFWEIGHT=5000 "
					   "QTWEIGHT=7\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	/* a one-minute job is treated as a one-hour job */
	ck_assert(prism_moab_xfactor(HOUR, 60, HOUR) == 2.0);
	ck_assert(prism_moab_xfactor(HOUR, 0, 0) == 1.0);
	job.queue_time = HOUR;
	job.wclimit = 60;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_XFACTOR] == 2.0);
	ck_assert_int_eq(res.prio, 20);
	/* the QOS adds its XFWEIGHT and QTWEIGHT */
	job.cred[PRISM_MOAB_QOS] = 0;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.weight[PRISM_MS_XFACTOR] == 5010.0);
	ck_assert(res.weight[PRISM_MS_QUEUETIME] == 7.0);
	ck_assert_int_eq(res.prio, 5010 * 2 + 7 * 60);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- caps in both directions ------------------------------------------ */

static const struct {
	const char *what;
	const char *conf;
	int64_t prio;		/* USERCFG[u] PRIORITY */
	int64_t want;
} caps[] = {
	{ "component cap, positive", "CREDCAP 500\n", 2000, 500 },
	{ "component cap, negative", "CREDCAP 500\n", -2000, -500 },
	{ "component cap, inside", "CREDCAP 500\n", 300, 300 },
	{ "cap before the component weight", "CREDCAP 500\nCREDWEIGHT 3\n",
	  -2000, -1500 },
	{ "subcomponent cap, positive", "USERCAP 100\n", 2000, 100 },
	{ "subcomponent cap, negative", "USERCAP 100\n", -2000, -100 },
	{ "subcomponent cap on weight * value",
	  "USERCAP 100\nUSERWEIGHT 4\n", 20, 80 },
	{ "zero cap: none", "CREDCAP 0\n", -2000, -2000 },
	{ "negative cap: none", "CREDCAP -5\n", 2000, 2000 },
};

START_TEST(test_caps)
{
	char conf[256];
	prism_moab_policy_t *pol;
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	snprintf(conf, sizeof(conf),
		 "ENABLENEGJOBPRIORITY TRUE\nQUEUETIMEWEIGHT 0\n"
		 "USERWEIGHT 1\nUSERCFG[u] PRIORITY=%lld\n%s",
		 (long long) caps[_i].prio, caps[_i].conf);
	pol = _policy(conf);
	job.cred[PRISM_MOAB_USER] = 0;
	_prio(pol, NULL, &job, &res);
	ck_assert_msg(res.prio == caps[_i].want, "%s: %lld", caps[_i].what,
		      (long long) res.prio);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- seed 001: the FIFO default --------------------------------------- */

START_TEST(test_fifo_default)
{
	static const int64_t queued[] = { 30, 5 * 60, HOUR, 26 * HOUR,
					  40 * 24 * HOUR };
	prism_moab_policy_t *pol = _policy("");
	prism_moab_result_t res;
	uint32_t last = 0;

	for (int i = 0; i < N(queued); i++) {
		prism_moab_job_t job = _job();

		job.queue_time = queued[i];
		job.procs = 1 + i * 100;	/* resources do not count */
		job.nodes = 5 - i;
		job.wclimit = HOUR * (i + 1);
		_prio(pol, NULL, &job, &res);
		ck_assert_int_eq(res.prio, queued[i] / 60);
		ck_assert_uint_eq(res.slurm, queued[i] / 60 + 1);
		ck_assert_uint_gt(res.slurm, last);
		last = res.slurm;
	}
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- MAX_PRIO_VAL, SPRIO ---------------------------------------------- */

START_TEST(test_max_prio)
{
	prism_moab_policy_t *pol = _policy("USERWEIGHT 1\n"
					   "USERCFG[big] PRIORITY=2000000000\n"
					   "USERCFG[neg] PRIORITY=-5\n");
	prism_moab_policy_t *small = _policy("MAX_PRIO_VAL 1000\n"
					     "ENABLENEGJOBPRIORITY TRUE\n"
					     "USERWEIGHT 1\n"
					     "USERCFG[neg] PRIORITY=-5000\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	job.cred[PRISM_MOAB_USER] = 0;
	_prio(pol, NULL, &job, &res);
	ck_assert_int_eq(res.prio, 1000000000);
	/* no negative priorities: bounded at 0, Slurm 1 */
	job.cred[PRISM_MOAB_USER] = 1;
	_prio(pol, NULL, &job, &res);
	ck_assert_int_eq(res.prio, 0);
	ck_assert_uint_eq(res.slurm, 1);
	/* system priority: MAX_PRIO_VAL + SPRIO, above any natural one */
	job.sys_prio = 5;
	_prio(pol, NULL, &job, &res);
	ck_assert_int_eq(res.prio, 1000000005);
	job.sys_prio = 0;
	/* relative adjustment */
	job.rel_prio = 42;
	_prio(pol, NULL, &job, &res);
	ck_assert_int_eq(res.prio, 37);

	job = _job();
	job.queue_time = 1000000 * 60;
	_prio(small, NULL, &job, &res);
	ck_assert_int_eq(res.prio, 1000);
	job.queue_time = 0;
	job.cred[PRISM_MOAB_USER] = 0;
	_prio(small, NULL, &job, &res);
	ck_assert_int_eq(res.prio, -1000);
	ck_assert_uint_eq(res.slurm, 1);
	prism_moab_policy_free(pol);
	prism_moab_policy_free(small);
}
END_TEST

/* ---- the mapping onto Slurm's 32-bit priority ------------------------- */

START_TEST(test_slurm_mapping)
{
	prism_moab_policy_t *neg = _policy("ENABLENEGJOBPRIORITY TRUE\n"
					   "MAX_PRIO_VAL 1431655764\n");
	prism_moab_policy_t *pos = _policy("");
	const int64_t m = 1431655764;
	const int64_t prios[] = { -m, -m + 1, -25000, -1, 0, 1, m - 1, m,
				  m + 1, 2 * m };
	uint32_t last = 0;

	for (int i = 0; i < N(prios); i++) {
		uint32_t s = prism_moab_to_slurm(neg, prios[i]);

		ck_assert_uint_gt(s, last);	/* order kept, never 0 */
		ck_assert_int_eq(prism_moab_from_slurm(neg, s), prios[i]);
		last = s;
	}
	ck_assert_uint_eq(prism_moab_to_slurm(neg, 2 * m), 4294967293u);
	ck_assert_uint_eq(prism_moab_to_slurm(neg, -m), 1);
	ck_assert_uint_eq(prism_moab_to_slurm(pos, 0), 1);
	ck_assert_uint_eq(prism_moab_to_slurm(pos, 1000000000), 1000000001u);
	ck_assert_uint_eq(prism_moab_to_slurm(pos, 2000000000), 2000000001u);
	ck_assert_uint_eq(prism_moab_to_slurm(pos, -7), 1);
	ck_assert_int_eq(prism_moab_from_slurm(pos, 1), 0);
	prism_moab_policy_free(neg);
	prism_moab_policy_free(pos);
}
END_TEST

static const struct {
	const char *what;
	const char *conf;
	int64_t want;
	bool reject;
} rejects[] = {
	{ "negative, rejected", "ENABLENEGJOBPRIORITY TRUE\n"
	  "REJECTNEGPRIOJOBS TRUE\n", -100, true },
	{ "negative, allowed", "ENABLENEGJOBPRIORITY TRUE\n", -100, false },
	{ "no negatives: bounded at 0, runs", "REJECTNEGPRIOJOBS TRUE\n", 0,
	  false },
};

START_TEST(test_reject_neg)
{
	char conf[256];
	prism_moab_policy_t *pol;
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	snprintf(conf, sizeof(conf),
		 "%sUSERWEIGHT 1\nUSERCFG[u] PRIORITY=-100\n"
		 "USERCFG[v] PRIORITY=100\n", rejects[_i].conf);
	pol = _policy(conf);
	job.cred[PRISM_MOAB_USER] = 0;
	_prio(pol, NULL, &job, &res);
	ck_assert_msg(res.prio == rejects[_i].want &&
			      res.reject == rejects[_i].reject,
		      "%s", rejects[_i].what);
	ck_assert_uint_ne(res.slurm, 0);
	job.cred[PRISM_MOAB_USER] = 1;
	_prio(pol, NULL, &job, &res);
	ck_assert(!res.reject);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- the other components --------------------------------------------- */

START_TEST(test_resources)
{
	prism_moab_policy_t *pol = _policy(
		"QUEUETIMEWEIGHT 0\nNODEWEIGHT 1\nPROCWEIGHT 10\n"
		"MEMWEIGHT 100\nSWAPWEIGHT 1000\nDISKWEIGHT 10000\n"
		"PSWEIGHT 2\nWALLTIMEWEIGHT 3\nPEWEIGHT 5\nRESWEIGHT 2\n");
	prism_moab_totals_t part = { .procs = 128, .mem_mb = 256000 };
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	/* seed 000: 25% of the procs, 50% of the memory of 128: PE 64 */
	job.part = &part;
	job.procs = 32;
	job.mem_mb = 128000;
	job.nodes = 2;
	job.swap_mb = 3;
	job.disk_mb = 4;
	job.wclimit = 60;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_PE] == 64.0);
	ck_assert(res.value[PRISM_MS_PS] == 32.0 * 60);
	ck_assert(res.comp[PRISM_MC_RES] ==
		  2.0 * (2 + 320 + 100 * 128000.0 + 3000 + 40000 +
			 2 * 32 * 60 + 3 * 60 + 5 * 64));
	prism_moab_policy_free(pol);
}
END_TEST

static const struct {
	const char *what;
	bool pos;
	int32_t in;
	double want;
} userprio[] = {
	{ "negative kept", false, -500, -500 },
	{ "below -1024", false, -5000, -1024 },
	{ "positive needs ENABLEPOSUSERPRIORITY", false, 300, 0 },
	{ "positive allowed", true, 300, 300 },
	{ "above 1023", true, 5000, 1023 },
};

START_TEST(test_userprio)
{
	prism_moab_policy_t *pol = _policy(
		userprio[_i].pos ? "ENABLEPOSUSERPRIORITY TRUE\n" : "");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	job.user_prio = userprio[_i].in;
	_prio(pol, NULL, &job, &res);
	ck_assert_msg(res.value[PRISM_MS_USERPRIO] == userprio[_i].want, "%s",
		      userprio[_i].what);
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_cred_class_and_attr)
{
	prism_moab_policy_t *pol = _policy(
		"QUEUETIMEWEIGHT 0\nCLASSWEIGHT 1\nATTRATTRWEIGHT 1\n"
		"ATTRSTATEWEIGHT 1\nATTRGRESWEIGHT 1\n"
		"CLASSCFG[set] PRIORITY=70\nCLASSCFG[unset] FSTARGET=5\n"
		"JOBPRIOF STATE[Running]=100 STATE[Suspended]=1000 "
		"ATTR[PREEMPTEE]=-200 ATTR[gpfs]=30 GRES[matlab]=400\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	/* partition priority when the CLASSCFG has none */
	job.class_prio = 9;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.comp[PRISM_MC_CRED] == 9.0);
	job.cred[PRISM_MOAB_CLASS] =
		prism_moab_cred_find(pol, PRISM_MOAB_CLASS, "unset");
	_prio(pol, NULL, &job, &res);
	ck_assert(res.comp[PRISM_MC_CRED] == 9.0);
	job.cred[PRISM_MOAB_CLASS] =
		prism_moab_cred_find(pol, PRISM_MOAB_CLASS, "set");
	_prio(pol, NULL, &job, &res);
	ck_assert(res.comp[PRISM_MC_CRED] == 70.0);

	/* seed 000's JOBPRIOF line */
	job.state = PRISM_MOAB_RUNNING;
	job.attr_mask = (1ull << prism_moab_attr_bit(pol, "PREEMPTEE")) |
			(1ull << prism_moab_attr_bit(pol, "gpfs"));
	job.gres_mask = 1ull << prism_moab_gres_bit(pol, "matlab");
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_ATTRATTR] == -170.0);
	ck_assert(res.value[PRISM_MS_ATTRSTATE] == 100.0);
	ck_assert(res.value[PRISM_MS_ATTRGRES] == 400.0);
	ck_assert(res.comp[PRISM_MC_ATTR] == 330.0);
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_usage_component)
{
	prism_moab_policy_t *pol = _policy(
		"QUEUETIMEWEIGHT 0\nCONSUMEDWEIGHT 1\nREMAININGWEIGHT 1\n"
		"PERCENTWEIGHT 1\nEXECUTIONTIMEWEIGHT 1\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	job.procs = 4;
	job.wclimit = 1000;
	job.exec_time = 250;
	_prio(pol, NULL, &job, &res);	/* idle: no usage */
	ck_assert(res.comp[PRISM_MC_USAGE] == 0.0);
	job.state = PRISM_MOAB_RUNNING;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_CONSUMED] == 1000.0);
	ck_assert(res.value[PRISM_MS_REMAINING] == 3000.0);
	ck_assert(res.value[PRISM_MS_PERCENT] == 25.0);
	ck_assert(res.value[PRISM_MS_EXECUTIONTIME] == 250.0);
	ck_assert(res.comp[PRISM_MC_USAGE] == 4275.0);
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_service_misc)
{
	prism_moab_policy_t *pol = _policy("QUEUETIMEWEIGHT 0\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	/* queued 1 h; could wait 2 h and still meet the deadline: 50 */
	job.queue_time = HOUR;
	job.wclimit = HOUR;
	job.deadline = 1000000 - HOUR + 2 * HOUR + HOUR;
	job.bypass = 3;
	job.start_count = 2;
	job.spviolation = true;
	_prio(pol, NULL, &job, &res);
	ck_assert(fabs(res.value[PRISM_MS_DEADLINE] - 50.0) < 1e-9);
	ck_assert(res.value[PRISM_MS_BYPASS] == 3.0);
	ck_assert(res.value[PRISM_MS_STARTCOUNT] == 2.0);
	ck_assert(res.value[PRISM_MS_SPVIOLATION] == 1.0);
	ck_assert_int_eq(res.prio, 0);	/* every weight is 0 */
	prism_moab_policy_free(pol);
}
END_TEST

static const struct {
	double x, want;
} curve[] = {
	{ -1.0, 1.0 }, { 0.0, 1.0 }, { 0.5, 4.0 }, { 0.9, 100.0 },
	{ 0.99, 10000.0 }, { 1.0, 30000.0 }, { 2.0, 2030000.0 },
};

START_TEST(test_target_curve)
{
	double got = prism_moab_target_curve(curve[_i].x);

	ck_assert_msg(fabs(got - curve[_i].want) < 1e-6 * curve[_i].want,
		      "f(%g) = %g", curve[_i].x, got);
}
END_TEST

START_TEST(test_target_component)
{
	prism_moab_policy_t *pol = _policy(
		"QUEUETIMEWEIGHT 0\nTARGETQUEUETIMEWEIGHT 1\n"
		"TARGETXFACTORWEIGHT 1\nTARGETWEIGHT 2\n"
		"QOSCFG[t] QTTARGET=2:00:00 XFTARGET=3\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;
	double last = 0.0;

	job.cred[PRISM_MOAB_QOS] = 0;
	job.wclimit = 2 * HOUR;
	/* QT x = q/2h, XF x = (1 + q/2h - 1) / (3 - 1) */
	job.queue_time = HOUR;
	_prio(pol, NULL, &job, &res);
	ck_assert(res.value[PRISM_MS_TARGETQUEUETIME] == 4.0);
	ck_assert(fabs(res.value[PRISM_MS_TARGETXFACTOR] - 1.0 / 0.5625) <
		  1e-12);
	for (int64_t q = 0; q < 6 * HOUR; q += 600) {
		job.queue_time = q;
		_prio(pol, NULL, &job, &res);
		ck_assert(res.comp[PRISM_MC_TARGET] > last);
		last = res.comp[PRISM_MC_TARGET];
	}
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- fair-share usage windows ----------------------------------------- */

START_TEST(test_usage_windows)
{
	prism_moab_policy_t *pol = _policy("FSINTERVAL 1:00:00\nFSDEPTH 3\n"
					   "FSDECAY 0.5\nUSERCFG[u] "
					   "FSTARGET=10\n");
	prism_error_t err = { "" };
	prism_moab_usage_t *u = prism_moab_usage_create(pol, 2 * HOUR + 10,
							&err);
	uint32_t cred[PRISM_MOAB_CRED_CNT] = { 0, PRISM_MOAB_NONE,
					       PRISM_MOAB_NONE,
					       PRISM_MOAB_NONE,
					       PRISM_MOAB_NONE };

	ck_assert_ptr_nonnull(u);
	ck_assert_int_eq(prism_moab_usage_start(u), 2 * HOUR);
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 0.0);
	ck_assert(!prism_moab_usage_charge(u, cred, 10, &err));
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 100.0);
	ck_assert(!prism_moab_usage_add_total(u, 10, &err)); /* others */
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 50.0);
	/* same window: nothing moves; a clock going back neither */
	ck_assert_int_eq(prism_moab_usage_roll(u, 3 * HOUR - 1), 0);
	ck_assert_int_eq(prism_moab_usage_roll(u, 10), 0);
	/* one window on: both decay alike */
	ck_assert_int_eq(prism_moab_usage_roll(u, 3 * HOUR), 1);
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 50.0);
	ck_assert(!prism_moab_usage_add_total(u, 20, &err));
	/* user 0.5 * 10 = 5; total 20 + 0.5 * 20 = 30 */
	ck_assert(fabs(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) -
		       100.0 / 6) < 1e-12);
	/* user 0.25 * 10; total 0.5 * 20 + 0.25 * 20 */
	ck_assert_int_eq(prism_moab_usage_roll(u, 4 * HOUR + 5), 1);
	ck_assert(fabs(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) -
		       100.0 / 6) < 1e-12);
	/* depth 3: the user's window drops out */
	ck_assert_int_eq(prism_moab_usage_roll(u, 5 * HOUR), 1);
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 0.0);
	ck_assert(!prism_moab_usage_charge(u, cred, 5, &err));
	ck_assert(fabs(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) -
		       100.0 * 5 / (5 + 0.25 * 20)) < 1e-12);
	/* far ahead: everything drops out */
	ck_assert_int_eq(prism_moab_usage_roll(u, 100 * HOUR + 1), 95);
	ck_assert_int_eq(prism_moab_usage_start(u), 100 * HOUR);
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 0.0);
	prism_moab_usage_free(u);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- usage state ------------------------------------------------------ */

static prism_moab_usage_t *_some_usage(const prism_moab_policy_t *pol)
{
	prism_error_t err = { "" };
	prism_moab_usage_t *u = prism_moab_usage_create(pol, 1763700000,
							&err);
	uint32_t cred[PRISM_MOAB_CRED_CNT] = { 0, 0, PRISM_MOAB_NONE, 0, 0 };

	ck_assert_ptr_nonnull(u);
	ck_assert(!prism_moab_usage_charge(u, cred, 1234.5, &err));
	prism_moab_usage_roll(u, 1763700000 + 43200);
	cred[0] = 1;
	ck_assert(!prism_moab_usage_charge(u, cred, 1.0 / 3, &err));
	ck_assert(!prism_moab_usage_add_total(u, 99, &err));
	return u;
}

static const char *_conf = "FSPOLICY DEDICATEDPS\nFSDECAY 0.8\n"
			   "USERCFG[ann] FSTARGET=20\nUSERCFG[bob] "
			   "FSTARGET=30\nGROUPCFG[g] PRIORITY=1\n"
			   "QOSCFG[normal] PRIORITY=1\nCLASSCFG[batch] "
			   "PRIORITY=1\n";

START_TEST(test_usage_round_trip)
{
	prism_moab_policy_t *pol = _policy(_conf);
	prism_moab_usage_t *u = _some_usage(pol), *v = NULL;
	prism_error_t err = { "" };
	size_t size = prism_moab_usage_format_size(u);
	char *buf = malloc(size), *again = malloc(size);
	int len, len2;

	len = prism_moab_usage_format(u, buf, size, &err);
	ck_assert_msg(len > 0, "%s", err.text);
	ck_assert_int_eq(prism_moab_usage_parse(buf, len, pol, &v, &err), 0);
	ck_assert_int_eq(prism_moab_usage_start(v), prism_moab_usage_start(u));
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		for (uint32_t i = 0; i < prism_moab_cred_count(pol, k); i++)
			ck_assert(fabs(prism_moab_usage_pct(u, k, i) -
				       prism_moab_usage_pct(v, k, i)) < 1e-9);
	}
	ck_assert(prism_moab_usage_pct(v, PRISM_MOAB_USER, 1) > 0.0);
	len2 = prism_moab_usage_format(v, again, size, &err);
	ck_assert_int_eq(len, len2);
	ck_assert_str_eq(buf, again);
	ck_assert_int_eq(prism_moab_usage_format(u, buf, 40, &err), -1);
	ck_assert(strstr(err.text, "too small"));
	prism_moab_usage_free(u);
	prism_moab_usage_free(v);
	free(buf);
	free(again);
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_usage_reconfig)
{
	/* a new policy: ann gone, depth 1; bob keeps his current window */
	prism_moab_policy_t *pol = _policy(_conf);
	prism_moab_policy_t *next = _policy("FSPOLICY DEDICATEDPS\n"
					    "FSDEPTH 1\nUSERCFG[carl] "
					    "PRIORITY=1\nUSERCFG[bob] "
					    "PRIORITY=2\n");
	prism_moab_usage_t *u = _some_usage(pol), *v = NULL;
	prism_error_t err = { "" };
	char buf[4096];
	int len = prism_moab_usage_format(u, buf, sizeof(buf), &err);

	ck_assert_int_gt(len, 0);
	ck_assert_int_eq(prism_moab_usage_parse(buf, len, next, &v, &err), 0);
	/* bob: 1/3 of a total of 1/3 + 99 in the current window */
	ck_assert(fabs(prism_moab_usage_pct(v, PRISM_MOAB_USER, 1) -
		       100.0 * (1.0 / 3) / (1.0 / 3 + 99)) < 1e-12);
	ck_assert(prism_moab_usage_pct(v, PRISM_MOAB_USER, 0) == 0.0);
	prism_moab_usage_free(u);
	prism_moab_usage_free(v);
	prism_moab_policy_free(pol);
	prism_moab_policy_free(next);
}
END_TEST

/* A valid text, then damaged by each row. */
static const struct {
	const char *what;
	int cut;		/* >0: keep this many bytes; 0: none; <-1 */
	int flip;		/* >=0: change the byte at this offset */
	const char *append;
	const char *want;
} damaged[] = {
	{ "empty", 0, -1, NULL, "empty" },
	{ "truncated in the middle", 60, -1, NULL, "truncated" },
	{ "checksum line cut", -4, -1, NULL, "truncated" },
	{ "digit changed", -1, 30, NULL, "checksum mismatch" },
	{ "version changed", -1, 17, NULL, "checksum mismatch" },
	{ "trailing garbage", -1, -1, "more\n", "trailing" },
	{ "name damaged", -1, 0, NULL, "not a usage state" },
};

START_TEST(test_usage_damaged)
{
	prism_moab_policy_t *pol = _policy(_conf);
	prism_moab_usage_t *u = _some_usage(pol);
	prism_moab_usage_t *sentinel = (prism_moab_usage_t *) &pol, *v;
	prism_error_t err = { "" };
	char buf[4096];
	int len = prism_moab_usage_format(u, buf, sizeof(buf) - 16, &err);

	ck_assert_int_gt(len, 0);
	if (damaged[_i].cut > 0)
		len = damaged[_i].cut;
	else if (damaged[_i].cut == 0)
		len = 0;
	else if (damaged[_i].cut < -1)
		len += damaged[_i].cut;
	if (damaged[_i].flip >= 0)
		buf[damaged[_i].flip] ^= 1;
	if (damaged[_i].append) {
		memcpy(buf + len, damaged[_i].append,
		       strlen(damaged[_i].append));
		len += strlen(damaged[_i].append);
	}
	v = sentinel;
	ck_assert_msg(prism_moab_usage_parse(buf, len, pol, &v, &err) == -1,
		      "%s: accepted", damaged[_i].what);
	ck_assert_msg(strstr(err.text, damaged[_i].want), "%s: '%s'",
		      damaged[_i].what, err.text);
	ck_assert_ptr_eq(v, sentinel);	/* no side effect */
	prism_moab_usage_free(u);
	prism_moab_policy_free(pol);
}
END_TEST

/* Well checksummed but wrong inside. */
static const struct {
	const char *body;
	const char *want;
} inside[] = {
	{ "prism-moab-usage 2\ninterval 60\ndepth 1\nstart 0\ntotal 1\n",
	  "Moab usage state format 2, newer than format 1, the newest this Prism reads: written by a later Prism" },
	{ "prism-moab-usage 1\ninterval 60\ndepth 99\nstart 0\ntotal 1\n",
	  "bad value for 'depth'" },
	{ "prism-moab-usage 1\ninterval 60\ndepth 2\nstart 0\ntotal 1\n",
	  "bad window values" },
	{ "prism-moab-usage 1\ninterval 60\ndepth 1\nstart 0\ntotal -1\n",
	  "bad window values" },
	{ "prism-moab-usage 1\ninterval 60\ndepth 1\nstart 0\ntotal 1\n"
	  "robot r 1\n", "unknown kind in line 'robot r 1'" },
	{ "prism-moab-usage 1\ndepth 1\n", "expected 'interval'" },
	/* fuzz finds: a start that overflowed the window roll */
	{ "prism-moab-usage 1\ninterval 3600\ndepth 4\n"
	  "start 9223372036854775807\ntotal 0 0 0 0\n",
	  "bad value for 'start'" },
	{ "prism-moab-usage 1\ninterval 3600\ndepth 4\n"
	  "start -9223372036854775808\ntotal 0 0 0 0\n",
	  "bad value for 'start'" },
};

/*
 * A damaged line is quoted whole, however long (issue 35: the kind was
 * cut at 40 bytes): a kind and a name of 300 bytes each.
 */
START_TEST(test_usage_long_line)
{
	prism_moab_policy_t *pol = _policy(_conf);
	prism_moab_usage_t *v = NULL;
	prism_error_t err = { "" };
	char body[1024], line[700], want[800], *buf;
	int len;

	snprintf(line, sizeof(line), "%0300d %0300d 1", 7, 8);
	memset(line, 'k', 300);
	snprintf(body, sizeof(body),
		 "prism-moab-usage 1\ninterval 60\ndepth 1\nstart 0\n"
		 "total 1\n%s\n",
		 line);
	len = snprintf(NULL, 0, "%schecksum %08x\n", body,
		       prism_state_checksum(body, strlen(body)));
	buf = malloc(len + 1);
	ck_assert_ptr_nonnull(buf);
	snprintf(buf, len + 1, "%schecksum %08x\n", body,
		 prism_state_checksum(body, strlen(body)));
	ck_assert_int_eq(prism_moab_usage_parse(buf, len, pol, &v, &err), -1);
	snprintf(want, sizeof(want), "usage state: unknown kind in line '%s'",
		 line);
	ck_assert_str_eq(err.text, want);
	ck_assert(!prism_error_cut(&err));
	free(buf);
	prism_moab_policy_free(pol);
}
END_TEST

/* Fuzz find: only blanks after "checksum " made the parser read past the
 * end of the text. Each row ends exactly at the end of its buffer. */
static const char *blank_checksums[] = {
	"prism-moab-usage \nchecksum \n",
	"prism-moab-usage 1\nchecksum \t \n",
	"prism-moab-usage 1\nchecksum 0x1234567\n",
	"prism-moab-usage 1\nchecksum +1234567\n",
};

START_TEST(test_usage_blank_checksum)
{
	prism_moab_policy_t *pol = _policy(_conf);
	prism_moab_usage_t *v = NULL;
	prism_error_t err = { "" };
	size_t len = strlen(blank_checksums[_i]);
	char *copy = malloc(len);	/* no terminating NUL */

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, blank_checksums[_i], len);
	ck_assert_int_eq(prism_moab_usage_parse(copy, len, pol, &v, &err), -1);
	ck_assert_ptr_null(v);
	free(copy);
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_usage_inside)
{
	prism_moab_policy_t *pol = _policy(_conf);
	prism_moab_usage_t *v = NULL;
	prism_error_t err = { "" };
	char buf[512];
	int len = snprintf(buf, sizeof(buf), "%schecksum %08x\n",
			   inside[_i].body,
			   prism_state_checksum(inside[_i].body, strlen(inside[_i].body)));

	ck_assert_int_eq(prism_moab_usage_parse(buf, len, pol, &v, &err),
			 strstr(inside[_i].want, "newer") ? PRISM_FORMAT_NEWER :
							    -1);
	ck_assert_msg(strstr(err.text, inside[_i].want), "'%s'", err.text);
	ck_assert_ptr_null(v);
	prism_moab_policy_free(pol);
}
END_TEST

/* Fuzz find (CI, 2026-11-21; crashes/moab_usage-subnormal-window): a
 * subnormal window value read exactly (as hex) was written with %.17g and
 * then refused on reading back, since strtod reports ERANGE for an inexact
 * underflow. A subnormal is a valid usage; it must round-trip. */
START_TEST(test_usage_subnormal)
{
	prism_moab_policy_t *pol = _policy("FSINTERVAL 60\nFSDEPTH 2\n");
	static const char body[] =
		"prism-moab-usage 1\ninterval 60\ndepth 2\nstart 0\n"
		"total 4.9406564584124654e-324 2.2250738585072009e-308\n";
	prism_moab_usage_t *v = NULL;
	prism_error_t err = { "" };
	char buf[512], again[512];
	int len = snprintf(buf, sizeof(buf), "%schecksum %08x\n", body,
			   prism_state_checksum(body, strlen(body)));

	ck_assert_msg(!prism_moab_usage_parse(buf, len, pol, &v, &err), "%s",
		      err.text);
	ck_assert_int_eq(prism_moab_usage_format(v, again, sizeof(again),
						 &err), len);
	ck_assert_str_eq(again, buf);
	prism_moab_usage_free(v);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- sprio columns, system priority, usage amount ---------------------- */

/* Each row: a policy and a job; the columns must add up to the priority. */
static const struct {
	const char *what;
	const char *conf;
	int64_t queue_time, user_prio, sys_prio;
	bool exact;
} col_rows[] = {
	{ "FIFO default", "", 3600, 0, 0, true },
	{ "negative, bounded at 0", "USERPRIOWEIGHT 1000\n", 60, -1024, 0,
	  true },
	{ "negative allowed: offset M+1 in SITE",
	  "ENABLENEGJOBPRIORITY TRUE\nUSERPRIOWEIGHT 1000\n", 60, -1024, 0,
	  true },
	{ "fractions go to the rest", "XFACTORWEIGHT 7\nQUEUETIMEWEIGHT 3\n",
	  333, 0, 0, true },
	{ "bounded at MAX_PRIO_VAL", "QUEUETIMEWEIGHT 200000000\n", 600, 0,
	  0, true },
	{ "a component beyond 32 bits is clipped",
	  "SERVWEIGHT 100000\nQUEUETIMEWEIGHT 100000\n", 6000, 0, 0, false },
	{ "system priority", "", 60, 0, 5, true },
};

START_TEST(test_columns)
{
	prism_moab_policy_t *pol = _policy(col_rows[_i].conf);
	prism_moab_job_t job = _job();
	prism_moab_result_t res;
	prism_moab_columns_t c;
	int64_t sum;

	job.queue_time = col_rows[_i].queue_time;
	job.wclimit = 3600;
	job.user_prio = (int32_t) col_rows[_i].user_prio;
	job.sys_prio = col_rows[_i].sys_prio;
	_prio(pol, NULL, &job, &res);
	prism_moab_columns(&res, &c);
	sum = c.serv + c.cred + c.fs + c.res + c.attr + c.target_usage +
	      c.rest;
	ck_assert_msg(c.exact == col_rows[_i].exact, "%s", col_rows[_i].what);
	if (c.exact)
		ck_assert_msg(sum == res.slurm, "%s: %" PRId64 " != %u",
			      col_rows[_i].what, sum, res.slurm);
	ck_assert(c.serv <= INT32_MAX && c.rest <= INT32_MAX &&
		  c.rest >= INT32_MIN);
	/* another partition's priority: only the rest changes */
	{
		prism_moab_columns_t r = c;

		prism_moab_columns_rebase(&r, res.slurm + 1000);
		ck_assert_int_eq(r.rest, c.rest + 1000);
		ck_assert_int_eq(r.serv, c.serv);
	}
	ck_assert_int_eq(c.serv, (int64_t) res.comp[PRISM_MC_SERV] >
					 INT32_MAX ? INT32_MAX :
					 (int64_t) res.comp[PRISM_MC_SERV]);
	prism_moab_policy_free(pol);
}
END_TEST

/* Each row: Slurm's feature or GRES/license text and the bits it names. */
static const struct {
	bool gres;
	const char *text;
	uint64_t want;	/* bit 0 = fast / gpu, bit 1 = big / matlab */
} mask_rows[] = {
	{ false, "fast", 1 },
	{ false, "FAST&big", 3 },
	{ false, "[fast*2|slow]", 1 },
	{ false, "(big)", 2 },
	{ false, "faster", 0 },
	{ false, "", 0 },
	{ true, "gres:gpu:2", 1 },
	{ true, "gres/gpu:tesla:1,license:matlab:1", 3 },
	{ true, "matlab*2", 2 },
	{ true, "MATLAB:1,gres:gpux", 2 },
	{ true, "gres:mps:100", 0 },
};

START_TEST(test_masks)
{
	prism_moab_policy_t *pol = _policy(
		"JOBPRIOF ATTR[fast]=10 ATTR[big]=20 GRES[gpu]=5 "
		"GRES[matlab]=7\n");
	uint64_t got = mask_rows[_i].gres ?
		prism_moab_gres_mask(pol, mask_rows[_i].text) :
		prism_moab_attr_mask(pol, mask_rows[_i].text);
	uint64_t want = 0;

	/* the policy's bits, in the order of the row's meaning */
	for (int b = 0; b < 2; b++) {
		const char *name = mask_rows[_i].gres ?
			(b ? "matlab" : "gpu") : (b ? "big" : "fast");
		int bit = mask_rows[_i].gres ? prism_moab_gres_bit(pol, name) :
					       prism_moab_attr_bit(pol, name);

		ck_assert_int_ge(bit, 0);
		if (mask_rows[_i].want & (1u << b))
			want |= UINT64_C(1) << bit;
	}
	ck_assert_msg(got == want, "'%s': %#llx != %#llx", mask_rows[_i].text,
		      (unsigned long long) got, (unsigned long long) want);
	ck_assert(!prism_moab_attr_mask(pol, NULL));
	ck_assert(!prism_moab_gres_mask(NULL, "gpu"));
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_users)
{
	prism_moab_users_t *u = prism_moab_users_create();
	prism_moab_job_t job = _job();

	ck_assert_ptr_nonnull(u);
	for (uint32_t uid = 0; uid < 300; uid++)
		ck_assert_int_eq(prism_moab_users_add(u, uid, 2, 100), 0);
	ck_assert_int_eq(prism_moab_users_add(u, 7, 4, 50), 0);
	prism_moab_users_fill(u, 7, &job);
	ck_assert_uint_eq(job.user_jobs, 2);
	ck_assert_uint_eq(job.user_procs, 6);
	ck_assert(job.user_ps == 400.0);
	prism_moab_users_fill(u, 1000, &job);
	ck_assert_uint_eq(job.user_jobs, 0);
	prism_moab_users_clear(u);
	prism_moab_users_fill(u, 7, &job);
	ck_assert_uint_eq(job.user_procs, 0);
	ck_assert_int_eq(prism_moab_users_add(NULL, 1, 1, 1), -1);
	prism_moab_users_fill(NULL, 7, &job);
	prism_moab_users_free(u);
	prism_moab_users_free(NULL);
	/* what Slurm has no data for, and what it has */
	ck_assert_ptr_nonnull(prism_moab_sub_no_data(PRISM_MS_BYPASS));
	ck_assert_ptr_nonnull(prism_moab_sub_no_data(PRISM_MS_FSGUSER));
	ck_assert_ptr_null(prism_moab_sub_no_data(PRISM_MS_FSJPU));
	ck_assert_ptr_null(prism_moab_sub_no_data(PRISM_MS_QUEUETIME));
}
END_TEST

START_TEST(test_sys_prio)
{
	prism_moab_policy_t *pol = _policy("MAX_PRIO_VAL 1000\n");
	prism_moab_policy_t *neg = _policy(
		"MAX_PRIO_VAL 1000\nENABLENEGJOBPRIORITY TRUE\n");
	prism_moab_job_t job = _job();
	prism_moab_result_t res;

	/* an admin's value is the system priority */
	ck_assert_int_eq(prism_moab_sys_prio(pol, 5), 5);
	ck_assert_int_eq(prism_moab_sys_prio(pol, 0), 1);
	ck_assert_int_eq(prism_moab_sys_prio(pol, 1001), 1001);
	/* Prism's mapping of system priority 5 reads back as 5: stable */
	job.sys_prio = 5;
	_prio(pol, NULL, &job, &res);
	ck_assert_int_eq(res.slurm, 1000 + 5 + 1);
	ck_assert_int_eq(prism_moab_sys_prio(pol, res.slurm), 5);
	_prio(neg, NULL, &job, &res);
	ck_assert_int_eq(res.slurm, 1000 + 5 + 1000 + 1);
	ck_assert_int_eq(prism_moab_sys_prio(neg, res.slurm), 5);
	/* every system priority is above every computed one */
	ck_assert_uint_gt(prism_moab_to_slurm(pol, 1000 + 1),
			  prism_moab_to_slurm(pol, 1000));
	prism_moab_policy_free(pol);
	prism_moab_policy_free(neg);
}
END_TEST

static const struct {
	const char *conf;
	double want;	/* for 4 procs of 16, 32 of 64 GB, 10 s */
} amount_rows[] = {
	{ "", 0.0 },
	{ "FSPOLICY DEDICATEDPS\n", 40.0 },
	{ "FSPOLICY UTILIZEDPS\n", 40.0 },
	{ "FSPOLICY DEDICATEDPES\n", 80.0 },	/* half the memory: 8 PE */
};

START_TEST(test_usage_amount)
{
	prism_moab_policy_t *pol = _policy(amount_rows[_i].conf);
	prism_moab_totals_t part = { .procs = 16, .mem_mb = 65536 };
	prism_moab_job_t job = _job();

	job.procs = 4;
	job.mem_mb = 32768;
	job.part = &part;
	ck_assert_double_eq_tol(prism_moab_usage_amount(pol, &job, 10.0),
				amount_rows[_i].want, 1e-9);
	ck_assert(prism_moab_usage_amount(pol, &job, -1.0) == 0.0);
	ck_assert(prism_moab_usage_amount(pol, NULL, 10.0) == 0.0);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- Slurm's units into the job's ------------------------------------ */

static const struct {
	const char *what;
	prism_moab_raw_t raw;
	prism_moab_state_t state;
	uint32_t nodes;
	int64_t wclimit, queue_time, exec_time;
	uint64_t disk_mb;
	int32_t user_prio;
} raw_rows[] = {
	{ "pending: queue time from the accrue time, limit in seconds",
	  { .now = 1000, .accrue_time = 400, .time_limit = 30,
	    .disk_per_node = 100 }, PRISM_MOAB_IDLE, 2,
	  1800, 600, 0, 200, 0 },
	{ "not accruing yet: no queue time",
	  { .now = 1000, .accrue_time = 0, .time_limit = 1 },
	  PRISM_MOAB_IDLE, 1, 60, 0, 0, 0, 0 },
	{ "accrue time in the future: no queue time",
	  { .now = 1000, .accrue_time = 2000 }, PRISM_MOAB_IDLE, 1,
	  0, 0, 0, 0, 0 },
	{ "running: exec time less the time suspended",
	  { .now = 1000, .accrue_time = 100, .start_time = 500,
	    .suspended = 50 }, PRISM_MOAB_RUNNING, 1, 0, 900, 450, 0, 0 },
	{ "suspended longer than it ran: exec time 0",
	  { .now = 1000, .start_time = 900, .suspended = 500 },
	  PRISM_MOAB_SUSPENDED, 1, 0, 0, 0, 0, 0 },
	{ "pending with a start time (requeued): no exec time",
	  { .now = 1000, .start_time = 500 }, PRISM_MOAB_IDLE, 1,
	  0, 0, 0, 0, 0 },
	{ "nice -5 is USERPRIO 5",
	  { .now = 1, .nice = -5 }, PRISM_MOAB_IDLE, 1, 0, 0, 0, 0, 5 },
	{ "nice beyond int32 is bounded",
	  { .now = 1, .nice = -((int64_t) 1 << 40) }, PRISM_MOAB_IDLE, 1,
	  0, 0, 0, 0, INT32_MAX },
	{ "huge disk times nodes saturates",
	  { .now = 1, .disk_per_node = UINT64_MAX / 2 }, PRISM_MOAB_IDLE, 3,
	  0, 0, 0, UINT64_MAX, 0 },
	{ "longest time limit in seconds",
	  { .now = 1, .time_limit = UINT32_MAX - 2 }, PRISM_MOAB_IDLE, 1,
	  (int64_t) (UINT32_MAX - 2) * 60, 0, 0, 0, 0 },
};

START_TEST(test_job_raw)
{
	prism_moab_job_t job = _job();

	job.state = raw_rows[_i].state;
	job.nodes = raw_rows[_i].nodes;
	job.procs = 7;
	prism_moab_job_raw(&raw_rows[_i].raw, &job);
	ck_assert_msg(job.wclimit == raw_rows[_i].wclimit &&
			      job.queue_time == raw_rows[_i].queue_time &&
			      job.exec_time == raw_rows[_i].exec_time &&
			      job.disk_mb == raw_rows[_i].disk_mb &&
			      job.user_prio == raw_rows[_i].user_prio,
		      "%s: wclimit %" PRId64 " queue %" PRId64
		      " exec %" PRId64 " disk %" PRIu64 " userprio %d",
		      raw_rows[_i].what, job.wclimit, job.queue_time,
		      job.exec_time, job.disk_mb, job.user_prio);
	ck_assert_msg(job.procs == 7 && job.nodes == raw_rows[_i].nodes,
		      "%s: other fields changed", raw_rows[_i].what);
	prism_moab_job_raw(NULL, &job);
	prism_moab_job_raw(&raw_rows[_i].raw, NULL);
}
END_TEST

/* ---- bad parameters --------------------------------------------------- */

START_TEST(test_bad_param)
{
	prism_moab_policy_t *pol = _policy("USERCFG[a] PRIORITY=1\n");
	prism_error_t err = { "" };
	prism_moab_usage_t *u = prism_moab_usage_create(pol, 0, &err), *v;
	prism_moab_pass_t pass = { .pol = NULL };
	prism_moab_job_t job = _job();
	prism_moab_result_t res;
	char buf[64];

	ck_assert_int_eq(prism_moab_prio(&pass, &job, &res, &err), -1);
	ck_assert(strstr(err.text, "NULL"));
	pass.pol = pol;
	ck_assert_int_eq(prism_moab_prio(&pass, NULL, &res, &err), -1);
	ck_assert_int_eq(prism_moab_prio(&pass, &job, NULL, NULL), -1);
	/* a stale handle counts as unknown */
	job.cred[PRISM_MOAB_USER] = 77;
	ck_assert_int_eq(prism_moab_prio(&pass, &job, &res, &err), 0);
	ck_assert(res.value[PRISM_MS_USER] == 0.0);

	ck_assert_ptr_null(prism_moab_usage_create(NULL, 0, &err));
	ck_assert_int_eq(prism_moab_usage_add(u, PRISM_MOAB_CRED_CNT, 0, 1,
					      &err), -1);
	ck_assert_int_eq(prism_moab_usage_add(u, PRISM_MOAB_USER, 1, 1, &err),
			 -1);
	ck_assert_int_eq(prism_moab_usage_add(u, PRISM_MOAB_USER, 0, -1,
					      &err), -1);
	ck_assert_int_eq(prism_moab_usage_add(u, PRISM_MOAB_USER, 0, NAN,
					      &err), -1);
	ck_assert(strstr(err.text, "bad amount"));
	ck_assert_int_eq(prism_moab_usage_add_total(u, INFINITY, &err), -1);
	ck_assert_int_eq(prism_moab_usage_add_total(NULL, 1, &err), -1);
	ck_assert_int_eq(prism_moab_usage_charge(u, NULL, 1, &err), -1);
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 0) == 0.0);
	ck_assert(prism_moab_usage_pct(NULL, PRISM_MOAB_USER, 0) == 0.0);
	ck_assert(prism_moab_usage_pct(u, PRISM_MOAB_USER, 9) == 0.0);
	ck_assert_int_eq(prism_moab_usage_roll(NULL, 5), 0);
	ck_assert_int_eq(prism_moab_usage_format(NULL, buf, 64, &err), -1);
	ck_assert_int_eq(prism_moab_usage_parse(NULL, 1, pol, &v, &err), -1);
	ck_assert_int_eq(prism_moab_usage_parse("x", 1, NULL, &v, &err), -1);
	ck_assert_int_eq(prism_moab_explain(NULL, &res, buf, 64, &err), -1);
	prism_moab_usage_free(u);
	prism_moab_usage_free(NULL);
	prism_moab_policy_free(pol);
}
END_TEST

extern Suite *moab_suite(void)
{
	Suite *s = suite_create("moab");
	TCase *seed = tcase_create("seeds");
	TCase *model = tcase_create("model");
	TCase *usage = tcase_create("usage");

	tcase_add_test(seed, test_maui_fairshare);
	tcase_add_loop_test(seed, test_fs_delta, 0, N(deltas));
	tcase_add_loop_test(seed, test_xfactor_table, 0, N(xf_rows));
	tcase_add_test(seed, test_fifo_default);
	suite_add_tcase(s, seed);

	tcase_add_test(model, test_fs_off);
	tcase_add_loop_test(model, test_job_raw, 0, N(raw_rows));
	tcase_add_test(model, test_xfactor_min_and_qos);
	tcase_add_loop_test(model, test_caps, 0, N(caps));
	tcase_add_test(model, test_max_prio);
	tcase_add_test(model, test_slurm_mapping);
	tcase_add_loop_test(model, test_reject_neg, 0, N(rejects));
	tcase_add_test(model, test_resources);
	tcase_add_loop_test(model, test_userprio, 0, N(userprio));
	tcase_add_test(model, test_cred_class_and_attr);
	tcase_add_test(model, test_usage_component);
	tcase_add_test(model, test_service_misc);
	tcase_add_loop_test(model, test_target_curve, 0, N(curve));
	tcase_add_test(model, test_target_component);
	tcase_add_test(model, test_bad_param);
	suite_add_tcase(s, model);

	tcase_add_test(usage, test_usage_windows);
	tcase_add_test(usage, test_usage_round_trip);
	tcase_add_test(usage, test_usage_reconfig);
	tcase_add_loop_test(usage, test_usage_damaged, 0, N(damaged));
	tcase_add_loop_test(usage, test_usage_inside, 0, N(inside));
	tcase_add_test(usage, test_usage_long_line);
	tcase_add_test(usage, test_usage_subnormal);
	tcase_add_loop_test(model, test_columns, 0, N(col_rows));
	tcase_add_test(model, test_sys_prio);
	tcase_add_test(model, test_users);
	tcase_add_loop_test(model, test_masks, 0, N(mask_rows));
	tcase_add_loop_test(usage, test_usage_amount, 0, N(amount_rows));
	tcase_add_loop_test(usage, test_usage_blank_checksum, 0,
			    N(blank_checksums));
	suite_add_tcase(s, usage);
	return s;
}
