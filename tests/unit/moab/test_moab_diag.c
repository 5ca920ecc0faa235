/*****************************************************************************\
 *  test_moab_diag.c - unit tests of prism_moab_diag: which columns a
 *  policy shows, the mdiag -p table of the example policy's jobs (worked
 *  out by hand), percentages, unknown figures, number fitting, memory in
 *  TRES strings, small buffers and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_moab_diag.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define NOW 1800000000

static prism_moab_policy_t *_policy(const char *text)
{
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_conf_parse(text, strlen(text), "moab.cfg",
					     &pol, &err),
		      "%s", err.text);
	return pol;
}

/* ---- columns ---------------------------------------------------------- */

static const struct {
	const char *policy;
	const char *comps;	/* shown components, by short letter */
	int subs[4];		/* shown subcomponents, -1 ends */
	const char *what;
} cols[] = {
	{ "", "S", { PRISM_MS_QUEUETIME, -1 },
	  "defaults: FIFO, Serv(QTime) only" },
	{ "SERVWEIGHT 0\n", "", { -1 }, "a component of weight 0 is hidden" },
	{ "QUEUETIMEWEIGHT 0\nRESWEIGHT 2\n", "", { -1 },
	  "a component without weighted subcomponents is hidden" },
	{ "QUEUETIMEWEIGHT 0\nQOSCFG[hi] QTWEIGHT=5\n", "S",
	  { PRISM_MS_QUEUETIME, -1 }, "QOSCFG QTWEIGHT shows QUEUETIME" },
	{ "QUEUETIMEWEIGHT 0\nQOSCFG[hi] XFWEIGHT=5\n", "S",
	  { PRISM_MS_XFACTOR, -1 }, "QOSCFG XFWEIGHT shows XFACTOR" },
	{ "QUEUETIMEWEIGHT 0\nGROUPCFG[g] FSWEIGHT=3\n", "F",
	  { PRISM_MS_FSGROUP, -1 }, "GROUPCFG FSWEIGHT shows FSGROUP" },
	{ "QUEUETIMEWEIGHT 0\nUSERWEIGHT -1\nATTRSTATEWEIGHT 1\n", "CA",
	  { PRISM_MS_USER, PRISM_MS_ATTRSTATE, -1 },
	  "negative weights count" },
};

static prism_moab_comp_t _comp_of(char c)
{
	static const char letters[] = "CFRSTUA";

	return (prism_moab_comp_t) (strchr(letters, c) - letters);
}

START_TEST(test_cols)
{
	prism_moab_policy_t *pol = _policy(cols[_i].policy);
	prism_moab_diag_cols_t got, want;

	memset(&want, 0, sizeof(want));
	for (const char *c = cols[_i].comps; *c; c++)
		want.comp[_comp_of(*c)] = true;
	for (int k = 0; cols[_i].subs[k] >= 0; k++)
		want.sub[cols[_i].subs[k]] = true;
	prism_moab_diag_cols(pol, &got);
	for (int c = 0; c < PRISM_MC_CNT; c++)
		ck_assert_msg(got.comp[c] == want.comp[c], "%s: component %s",
			      cols[_i].what,
			      prism_moab_comp_name((prism_moab_comp_t) c));
	for (int s = 0; s < PRISM_MS_CNT; s++)
		ck_assert_msg(got.sub[s] == want.sub[s], "%s: %s",
			      cols[_i].what,
			      prism_moab_sub_name((prism_moab_sub_t) s));
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- the example policy's table --------------------------------------- */

/* slurm-conf-examples/prism-moab.conf without its comments */
static const char example[] =
	"CREDWEIGHT 1\nUSERWEIGHT 100\nGROUPWEIGHT 10\nQOSWEIGHT 1\n"
	"CLASSWEIGHT 1\nSERVWEIGHT 1\nQUEUETIMEWEIGHT 1\nXFACTORWEIGHT 100\n"
	"XFMINWCLIMIT 0:10:00\nFSPOLICY DEDICATEDPS\nFSINTERVAL 12:00:00\n"
	"FSDEPTH 8\nFSDECAY 0.8\nFSWEIGHT 1\nFSUSERWEIGHT 10\n"
	"FSACCOUNTWEIGHT 5\n"
	"USERCFG[daemon] PRIORITY=10 FSTARGET=25\n"
	"USERCFG[bin] PRIORITY=5 FSTARGET=10+\n"
	"GROUPCFG[bin] PRIORITY=20\n"
	"ACCOUNTCFG[physics] FSTARGET=60\nACCOUNTCFG[chem] FSTARGET=40\n"
	"QOSCFG[high] PRIORITY=500 QTWEIGHT=5\nCLASSCFG[fast] PRIORITY=100\n"
	"SERVCAP 100000\nRMCFG[slurm] TYPE=SLURM\n";

/* A job of the harness's moab world (tests/harness/test-moab.sh). */
typedef struct {
	const char *label, *user, *group, *account, *qos, *part;
	int64_t class_prio;
	int64_t queued_min, limit_min;
	uint32_t slurm;		/* 0: as computed */
} _ex_job_t;

static const _ex_job_t ex_jobs[] = {
	{ "1", "daemon", "daemon", "physics", "normal", "batch", 1, 120, 60,
	  0 },
	{ "2", "bin", "bin", "chem", "normal", "batch", 1, 60, 240, 0 },
	{ "3", "nobody", "nogroup", "physics", "high", "fast", 1, 30, 60, 0 },
	/* an admin-set priority: MAX_PRIO_VAL + 7 */
	{ "5", "daemon", "daemon", "physics", "normal", "batch", 1, 60, 60,
	  1000000008 },
};

static void _ex_row(const prism_moab_policy_t *pol,
		    const prism_moab_usage_t *u, const _ex_job_t *j,
		    prism_moab_diag_row_t *row)
{
	prism_moab_pass_t pass = { .pol = pol, .usage = u, .now = NOW };
	prism_moab_job_t job = { .state = PRISM_MOAB_IDLE, .procs = 1,
				 .nodes = 1 };
	prism_moab_result_t res;
	prism_moab_columns_t c;
	prism_error_t err = { "" };
	const char *names[PRISM_MOAB_CRED_CNT] = { j->user, j->group,
						   j->account, j->qos,
						   j->part };

	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		job.cred[k] = prism_moab_cred_find(
			pol, (prism_moab_cred_kind_t) k, names[k]);
	job.class_prio = j->class_prio;
	job.queue_time = j->queued_min * 60;
	job.wclimit = j->limit_min * 60;
	if (j->slurm)
		job.sys_prio = prism_moab_sys_prio(pol, j->slurm);
	ck_assert_msg(!prism_moab_prio(&pass, &job, &res, &err), "%s",
		      err.text);
	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%s", j->label);
	row->sys = j->slurm != 0;
	row->slurm = res.slurm;
	if (row->sys) {
		/* the controller's row of such a job: direct_prio only */
		memset(&c, 0, sizeof(c));
	} else {
		prism_moab_columns(&res, &c);
	}
	prism_moab_diag_row_fill(row, pol, &res, &c);
}

/* Usage: nobody and physics used everything (an hour of job 6). */
static prism_moab_usage_t *_ex_usage(const prism_moab_policy_t *pol)
{
	prism_error_t err = { "" };
	prism_moab_usage_t *u = prism_moab_usage_create(pol, NOW, &err);
	uint32_t cred[PRISM_MOAB_CRED_CNT];

	ck_assert_ptr_nonnull(u);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		cred[k] = PRISM_MOAB_NONE;
	cred[PRISM_MOAB_ACCOUNT] =
		prism_moab_cred_find(pol, PRISM_MOAB_ACCOUNT, "physics");
	ck_assert(!prism_moab_usage_charge(u, cred, 8 * 3600.0, &err));
	return u;
}

/*
 * Worked out by hand (see tests/harness/test-moab.sh for the formulas):
 *  1: Cred 100*10 + 1 (batch) = 1001; FS 10*(25-0) + 5*(60-100) = 50;
 *     Serv 120 + 100*(1 + 120/60) = 420; 1471, Slurm 1472
 *  2: Cred 500 + 10*20 + 1 = 701; FS 10*10 (floor) + 5*40 = 300;
 *     Serv 60 + 100*1.25 = 185; 1186, Slurm 1187
 *  3: Cred 500 (QOS high) + 100 (CLASSCFG fast) = 600; FS 5*(-40);
 *     Serv 6*30 + 100*1.5 = 330; 730, Slurm 731
 *  5: system priority 7: Moab 1000000007, Slurm 1000000008; the
 *     controller shows no columns (0), the values are recomputed
 * Percent: |Cred| 2302, |FS| 550, |Serv| 935, of 3787: 60.8, 14.5, 24.7;
 * Serv's terms: QTime 120+60+180 = 360, XFctr 300+125+150 = 575, so
 * 24.69 * 360/935 = 9.5 and 15.2; Cred's: User 1500, Group 200, QOS 500,
 * Class 102 of 2302: 39.6, 5.3, 13.2, 2.7 (job 5's terms count for
 * nothing: its system priority replaces them); FS: job 3's account
 * value is made unknown, so FS's shares are too.
 */
static const char *ex_want[] = {
	"Job               Slurm   PRIORITY*      Cred(  User: Group:   QOS: Class)        FS(  User: Accnt)      Serv( QTime: XFctr)\n",
	"Weights        --------   --------          1(   100:    10:     1:     1)         1(    10:     5)         1(     1:   100)\n",
	"1                  1472       1471       1001(    10:     0:     0:     1)        50(    25:   -40)       420(   120:     3)\n",
	"2                  1187       1186        701(     5:    20:     0:     1)       300(    10:    40)       185(    60:  1.25)\n",
	"3                   731        730        600(     0:     0:   500:   100)      -200(     0:     ?)       330(    30:  1.50)\n",
	"5            1000000008 1000000007*         0(    10:     0:     0:     1)         0(    25:   -40)         0(    60:     2)\n",
	"Percent Contribution                     60.8(  39.6:   5.3:  13.2:   2.7)      14.5(     ?:     ?)      24.7(   9.5:  15.2)\n",
};

START_TEST(test_example)
{
	prism_moab_policy_t *pol = _policy(example);
	prism_moab_usage_t *u = _ex_usage(pol);
	prism_moab_diag_cols_t c;
	prism_moab_diag_sum_t sum = { .rows = 0 };
	prism_error_t err = { "" };
	char buf[512];
	int n;

	prism_moab_diag_cols(pol, &c);
	n = prism_moab_diag_header(&c, buf, sizeof(buf), &err);
	ck_assert_int_eq(n, (int) strlen(ex_want[0]));
	ck_assert_str_eq(buf, ex_want[0]);
	ck_assert_int_gt(prism_moab_diag_weights(&c, pol, buf, sizeof(buf),
						 &err), 0);
	ck_assert_str_eq(buf, ex_want[1]);
	for (int j = 0; j < N(ex_jobs); j++) {
		prism_moab_diag_row_t row;

		_ex_row(pol, u, &ex_jobs[j], &row);
		/* an unknown value: '?' in its row; FS's shares in the
		 * footer are unknown then */
		if (j == 2)
			row.unknown[PRISM_MS_FSACCOUNT] = true;
		ck_assert_int_gt(prism_moab_diag_row(&c, &row, buf,
						     sizeof(buf), &err), 0);
		ck_assert_str_eq(buf, ex_want[2 + j]);
		prism_moab_diag_add(&sum, pol, &row);
	}
	ck_assert_uint_eq(sum.rows, N(ex_jobs));
	ck_assert_int_gt(prism_moab_diag_footer(&c, &sum, buf, sizeof(buf),
						&err), 0);
	ck_assert_str_eq(buf, ex_want[2 + N(ex_jobs)]);
	prism_moab_usage_free(u);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- rows: unknown figures, contributions without columns --------------- */

START_TEST(test_row_unknown)
{
	prism_moab_policy_t *pol = _policy("FSWEIGHT 1\nFSUSERWEIGHT 1\n"
					   "QUEUETIMEWEIGHT 1\n");
	prism_moab_diag_cols_t c;
	prism_moab_diag_row_t row = { .label = "123456789012345", .slurm = 61,
				      .comp_known = false };
	prism_error_t err = { "" };
	char buf[256];

	prism_moab_diag_cols(pol, &c);
	row.prio = 60;
	row.value[PRISM_MS_QUEUETIME] = 60;
	row.unknown[PRISM_MS_FSUSER] = true;
	ck_assert_int_gt(prism_moab_diag_row(&c, &row, buf, sizeof(buf),
					     &err), 0);
	/* a long label is kept whole; '?' for what is not known */
	ck_assert_str_eq(buf, "123456789012345          61         60  "
			      "        ?(     ?)         ?(    60)\n");
	prism_moab_policy_free(pol);
}
END_TEST

START_TEST(test_row_fill)
{
	prism_moab_policy_t *pol = _policy("USAGEWEIGHT 2\nCONSUMEDWEIGHT 1\n"
					   "TARGETWEIGHT 1\n"
					   "TARGETQUEUETIMEWEIGHT 1\n"
					   "QOSCFG[q] QTTARGET=1:00:00\n");
	prism_moab_result_t res = { .prio = 40 };
	prism_moab_columns_t col = { .target_usage = 31 };
	prism_moab_diag_row_t row = { .slurm = 0 };

	res.comp[PRISM_MC_TARGET] = 10.5;
	res.comp[PRISM_MC_USAGE] = -0.7;
	prism_moab_diag_row_fill(&row, pol, &res, &col);
	ck_assert(!signbit(row.comp[PRISM_MC_USAGE]));	/* not -0 */
	ck_assert_double_eq(row.comp[PRISM_MC_TARGET], 31.0);
	res.comp[PRISM_MC_USAGE] = 20.7;
	res.value[PRISM_MS_CONSUMED] = 10.35;
	prism_moab_diag_row_fill(&row, pol, &res, &col);
	/* sprio's QOS column: TARGET + USAGE; USAGE is the recomputed one */
	ck_assert(row.comp_known);
	ck_assert_double_eq(row.comp[PRISM_MC_USAGE], 20.0);
	ck_assert_double_eq(row.comp[PRISM_MC_TARGET], 11.0);
	ck_assert_int_eq(row.prio, 40);		/* no Slurm priority */
	ck_assert_double_eq(row.value[PRISM_MS_CONSUMED], 10.35);
	/* without columns: the core's own contributions */
	row.slurm = 41;
	prism_moab_diag_row_fill(&row, pol, &res, NULL);
	ck_assert_double_eq(row.comp[PRISM_MC_TARGET], 10.5);
	ck_assert_double_eq(row.comp[PRISM_MC_USAGE], 20.7);
	ck_assert_int_eq(row.prio, 40);		/* 41 - 1 */
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- number fitting: one value per row, in a 6-wide cell -------------- */

static const struct {
	double v;
	const char *want;
} fits[] = {
	{ 0, "     0" },
	{ -0.0, "     0" },
	{ -40, "   -40" },
	{ 999999, "999999" },
	{ 1000000, " 1.0e6" },
	{ 1234567.5, " 1.2e6" },
	{ -1234567, "-1.2e6" },
	{ 0.5, "  0.50" },
	{ 1.25, "  1.25" },
	{ 1.125, "  1.12" },	/* printf rounds to even here */
	{ 123.456, "123.46" },
	{ 1234.56, "1234.6" },
	{ 12345.6, " 12346" },
	{ -12345.6, "-12346" },
	{ 0.001, "  0.00" },
	{ 9.96e9, "1.0e10" },	/* rounding carries into the exponent */
	{ NAN, "     ?" },
};

START_TEST(test_fit)
{
	prism_moab_policy_t *pol = _policy("");		/* Serv(QTime) */
	prism_moab_diag_cols_t c;
	prism_moab_diag_row_t row = { .label = "1", .slurm = 1,
				      .comp_known = true };
	prism_error_t err = { "" };
	char buf[256], want[256];

	prism_moab_diag_cols(pol, &c);
	row.value[PRISM_MS_QUEUETIME] = fits[_i].v;
	ck_assert_int_gt(prism_moab_diag_row(&c, &row, buf, sizeof(buf),
					     &err), 0);
	snprintf(want, sizeof(want), "1                     1          0  "
		 "        0(%s)\n", fits[_i].want);
	ck_assert_str_eq(buf, want);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- percentages ------------------------------------------------------ */

START_TEST(test_percent)
{
	prism_moab_policy_t *pol = _policy("CREDWEIGHT 2\nUSERWEIGHT 1\n"
					   "GROUPWEIGHT 1\n");
	prism_moab_diag_cols_t c;
	prism_moab_diag_sum_t sum = { .rows = 0 };
	prism_moab_diag_row_t a = { .comp_known = true },
			      b = { .comp_known = true },
			      unknown = { .comp_known = false };
	double comp[PRISM_MC_CNT], sub[PRISM_MS_CNT];

	prism_moab_diag_cols(pol, &c);
	/* nothing yet: every share is 0 */
	prism_moab_diag_percent(&c, &sum, comp, sub);
	ck_assert_double_eq(comp[PRISM_MC_SERV], 0.0);
	ck_assert_double_eq(sub[PRISM_MS_USER], 0.0);

	a.comp[PRISM_MC_CRED] = 60;	/* 2 * (10 + 20) */
	a.term[PRISM_MS_USER] = 10;
	a.term[PRISM_MS_GROUP] = 20;
	a.comp[PRISM_MC_SERV] = 30;
	a.term[PRISM_MS_QUEUETIME] = 30;
	b.comp[PRISM_MC_CRED] = -20;	/* absolute values count */
	b.term[PRISM_MS_USER] = -10;
	b.comp[PRISM_MC_SERV] = 10;
	b.term[PRISM_MS_QUEUETIME] = 10;
	unknown.comp[PRISM_MC_CRED] = 1e9;	/* ignored */
	prism_moab_diag_add(&sum, pol, &a);
	prism_moab_diag_add(&sum, pol, &b);
	prism_moab_diag_add(&sum, pol, &unknown);
	prism_moab_diag_add(NULL, pol, &a);
	ck_assert_uint_eq(sum.rows, 2);
	prism_moab_diag_percent(&c, &sum, comp, sub);
	/* Cred 80 of 120, Serv 40 of 120 */
	ck_assert_double_eq_tol(comp[PRISM_MC_CRED], 200.0 / 3, 1e-9);
	ck_assert_double_eq_tol(comp[PRISM_MC_SERV], 100.0 / 3, 1e-9);
	/* User 2*(10+10) = 40, Group 2*20 = 40 of Cred's share */
	ck_assert_double_eq_tol(sub[PRISM_MS_USER], 100.0 / 3, 1e-9);
	ck_assert_double_eq_tol(sub[PRISM_MS_GROUP], 100.0 / 3, 1e-9);
	ck_assert_double_eq_tol(sub[PRISM_MS_QUEUETIME], 100.0 / 3, 1e-9);
	ck_assert_double_eq(comp[PRISM_MC_FS], 0.0);	/* not shown */
	/* one unknown value: its component's subcomponents are '?' */
	a.unknown[PRISM_MS_GROUP] = true;
	prism_moab_diag_add(&sum, pol, &a);
	prism_moab_diag_percent(&c, &sum, comp, sub);
	ck_assert(isnan(sub[PRISM_MS_USER]));
	ck_assert(isnan(sub[PRISM_MS_GROUP]));
	ck_assert(!isnan(sub[PRISM_MS_QUEUETIME]));
	ck_assert(!isnan(comp[PRISM_MC_CRED]));
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- memory in TRES strings ------------------------------------------- */

static const struct {
	const char *tres;
	const char *name;
	int rc;
	uint64_t want;
} tres[] = {
	{ "cpu=4,mem=8000M,node=1,billing=4", "mem", 0, 8000 },
	{ "cpu=4,mem=8000,node=1", "mem", 0, 8000 },
	{ "mem=2G", "mem", 0, 2048 },
	{ "cpu=1,mem=1.5G", "mem", 0, 1536 },
	{ "cpu=1,mem=3T", "mem", 0, 3145728 },
	{ "cpu=1,mem=1P", "mem", 0, 1073741824 },
	{ "cpu=1,mem=100K", "mem", 0, 1 },	/* rounded up */
	{ "cpu=1,MEM=5m", "mem", 0, 5 },
	{ "cpu=1,node=1", "mem", 0, 0 },
	{ "", "mem", 0, 0 },
	{ NULL, "mem", 0, 0 },
	{ "memory=5,mem=7", "mem", 0, 7 },	/* not a prefix match */
	{ "cpu=1,mem=", "mem", -1, 99 },
	{ "cpu=1,mem=lots", "mem", -1, 99 },
	{ "cpu=1,mem=5X", "mem", -1, 99 },
	{ "cpu=1,mem=5GB", "mem", -1, 99 },
	{ "cpu=1,mem=-5", "mem", -1, 99 },
	{ "cpu=1,mem=1e30T", "mem", -1, 99 },
};

START_TEST(test_tres)
{
	uint64_t mb = 99;

	ck_assert_int_eq(prism_moab_diag_tres_mb(tres[_i].tres, tres[_i].name,
						 &mb),
			 tres[_i].rc);
	ck_assert_msg(mb == tres[_i].want, "'%s': %llu, not %llu",
		      tres[_i].tres ? tres[_i].tres : "(null)",
		      (unsigned long long) mb,
		      (unsigned long long) tres[_i].want);
}
END_TEST

/* ---- small buffers and bad parameters --------------------------------- */

START_TEST(test_bad_param)
{
	prism_moab_policy_t *pol = _policy("");
	prism_moab_diag_cols_t c;
	prism_moab_diag_row_t row = { .label = "1", .comp_known = true };
	prism_moab_diag_sum_t sum = { .rows = 0 };
	prism_error_t err = { "" };
	uint64_t mb;
	char buf[256], small[20];

	prism_moab_diag_cols(pol, &c);
	ck_assert_int_eq(prism_moab_diag_header(NULL, buf, sizeof(buf), &err),
			 -1);
	ck_assert_str_eq(err.text, "prism_moab_diag_header: bad parameter");
	ck_assert_int_eq(prism_moab_diag_header(&c, NULL, 10, &err), -1);
	ck_assert_int_eq(prism_moab_diag_header(&c, buf, 0, &err), -1);
	ck_assert_int_eq(prism_moab_diag_weights(&c, NULL, buf, sizeof(buf),
						 &err), -1);
	ck_assert_str_eq(err.text, "prism_moab_diag_weights: bad parameter");
	ck_assert_int_eq(prism_moab_diag_row(&c, NULL, buf, sizeof(buf), &err),
			 -1);
	ck_assert_int_eq(prism_moab_diag_footer(&c, NULL, buf, sizeof(buf),
						&err), -1);
	/* too small: an error, and a NUL-terminated buffer */
	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(prism_moab_diag_header(&c, small, sizeof(small),
						&err), -1);
	ck_assert_str_eq(err.text, "mdiag buffer of 20 bytes is too small");
	ck_assert_ptr_nonnull(memchr(small, '\0', sizeof(small)));
	ck_assert_int_eq(prism_moab_diag_row(&c, &row, small, sizeof(small),
					     &err), -1);
	ck_assert_int_eq(prism_moab_diag_footer(&c, &sum, small,
						sizeof(small), &err), -1);
	ck_assert_int_eq(prism_moab_diag_weights(&c, pol, small,
						 sizeof(small), &err), -1);
	/* NULL is ignored where nothing is returned */
	prism_moab_diag_cols(pol, NULL);
	prism_moab_diag_cols(NULL, &c);
	ck_assert(!c.comp[PRISM_MC_SERV]);
	prism_moab_diag_row_fill(NULL, pol, NULL, NULL);
	prism_moab_diag_add(&sum, NULL, &row);
	ck_assert_uint_eq(sum.rows, 0);
	ck_assert_int_eq(prism_moab_diag_tres_mb("mem=1", NULL, &mb), -1);
	ck_assert_int_eq(prism_moab_diag_tres_mb("mem=1", "mem", NULL), -1);
	prism_moab_policy_free(pol);
}
END_TEST

extern Suite *moab_diag_suite(void)
{
	Suite *s = suite_create("moab_diag");
	TCase *tc = tcase_create("diag");

	tcase_add_loop_test(tc, test_cols, 0, N(cols));
	tcase_add_test(tc, test_example);
	tcase_add_test(tc, test_row_unknown);
	tcase_add_test(tc, test_row_fill);
	tcase_add_loop_test(tc, test_fit, 0, N(fits));
	tcase_add_test(tc, test_percent);
	tcase_add_loop_test(tc, test_tres, 0, N(tres));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
