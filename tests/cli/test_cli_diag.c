/*****************************************************************************\
 *  test_cli_diag.c - `prism explain` without a controller: Slurm's job,
 *  sprio and partition records made up here are read into the Moab core's
 *  jobs (field by field, as the plugin reads its job records) and the
 *  mdiag -p view is printed: the table of the example policy's jobs,
 *  worked out by hand, and its notes; likewise into the Grid Engine
 *  core's jobs and the qstat -pri and -urg views (policy=gridengine);
 *  prism whatif under a candidate Moab or Grid Engine policy (the pass
 *  over every pending job, the share tree); and the multifactor view:
 *  terms, sum, fair-share path, Fair Tree rank and reason, JSON, jobs
 *  asked for that have no row.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <grp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_compare.h"
#include "cli_diag.h"
#include "cli_explain.h"
#include "cli_ge_diag.h"
#include "cli_mf_view.h"
#include "cli_whatif.h"
#include "prism_cli.h"

/* a sprio row's job in an initializer (step_id from 26.05) */
#ifdef PRISM_CLI_HAVE_ROW_STEP_ID
#define ROW_JOB(id) .step_id = { .job_id = (id) }
#else
#define ROW_JOB(id) .job_id = (id)
#endif

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define NOW 1800000000
#define MIN 60

/* slurm-conf-examples/prism-moab.conf without its comments, plus ATTR and
 * GRES priorities for the mapping tests */
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
	"SERVCAP 100000\n"
	"JOBPRIOF ATTR[bigmem]=7 GRES[gpu]=3 GRES[matlab]=11\n";

static prism_moab_policy_t *_policy(void)
{
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_conf_parse(example, strlen(example),
					     "prism.conf", &pol, &err),
		      "%s", err.text);
	return pol;
}

/* Usage: account physics used everything. */
static prism_moab_usage_t *_usage(const prism_moab_policy_t *pol)
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

static partition_info_t parts[] = {
	{ .name = "batch", .priority_job_factor = 1, .total_cpus = 16,
	  .tres_fmt_str = "cpu=16,mem=64000M,node=4,billing=16" },
	{ .name = "fast", .priority_job_factor = 1, .total_cpus = 8,
	  .tres_fmt_str = "cpu=8,mem=1T,node=2" },
};

/* A pending job queued 'queued' minutes with a limit of 'limit'. */
static slurm_job_info_t _job(uint32_t id, const char *user, uint32_t gid,
			     const char *account, const char *qos,
			     const char *part, int64_t queued, uint32_t limit)
{
	return (slurm_job_info_t) {
		.job_id = id, .user_name = (char *) user, .user_id = 10000 + id,
		.group_id = gid, .account = (char *) account,
		.qos = (char *) qos, .partition = (char *) part,
		.job_state = JOB_PENDING, .priority = 1, .nice = NICE_OFFSET,
		.num_cpus = 1, .num_nodes = 1, .time_limit = limit,
		.accrue_time = NOW - queued * MIN,
		.submit_time = NOW - queued * MIN,
		.eligible_time = NOW - queued * MIN,
	};
}

/* ---- the mapping, field by field -------------------------------------- */

START_TEST(test_inputs)
{
	prism_moab_policy_t *pol = _policy();
	slurm_job_info_t jobs[] = {
		_job(1, "daemon", 2, "chem", "high", "batch", 30, 60),
		/* a running job of the same user: FSJPU etc. */
		_job(2, "daemon", 2, "chem", "high", "batch", 0, 120),
	};
	cli_jobmap_t *m;
	prism_moab_job_t in;
	prism_moab_totals_t tot;
	struct group *gr = getgrgid(2);

	jobs[0].max_cpus = 6;
	jobs[0].num_cpus = 4;
	jobs[0].num_nodes = 2;
	jobs[0].tres_req_str = "cpu=4,mem=3G,node=2,billing=4";
	jobs[0].pn_min_tmp_disk = 100;
	jobs[0].nice = NICE_OFFSET - 50;	/* nice -50: USERPRIO 50 */
	jobs[0].restart_cnt = 2;
	jobs[0].deadline = NOW + 3600;
	jobs[0].features = "bigmem&ib";
	jobs[0].tres_per_node = "gres:gpu:2";
	jobs[0].licenses = "matlab:1";
	jobs[1].user_id = jobs[0].user_id;
	jobs[1].job_state = JOB_RUNNING;
	jobs[1].num_cpus = 8;
	jobs[1].start_time = NOW - 600;
	m = cli_jobmap_create(pol, jobs, N(jobs), NOW);
	ck_assert_ptr_nonnull(m);

	cli_job_inputs(m, &jobs[0], &parts[0], 0, &in, &tot);
	ck_assert_uint_eq(in.cred[PRISM_MOAB_USER],
			  prism_moab_cred_find(pol, PRISM_MOAB_USER, "daemon"));
	ck_assert_uint_ne(in.cred[PRISM_MOAB_USER], PRISM_MOAB_NONE);
	/* GROUPCFG[bin]: gid 2 is bin on Debian */
	if (gr && !strcmp(gr->gr_name, "bin"))
		ck_assert_uint_ne(in.cred[PRISM_MOAB_GROUP], PRISM_MOAB_NONE);
	ck_assert_uint_eq(in.cred[PRISM_MOAB_ACCOUNT],
			  prism_moab_cred_find(pol, PRISM_MOAB_ACCOUNT, "chem"));
	ck_assert_uint_eq(in.cred[PRISM_MOAB_QOS],
			  prism_moab_cred_find(pol, PRISM_MOAB_QOS, "high"));
	ck_assert_uint_eq(in.cred[PRISM_MOAB_CLASS], PRISM_MOAB_NONE);
	ck_assert_int_eq(in.class_prio, 1);
	ck_assert_uint_eq(in.procs, 6);		/* max CPUs when given */
	ck_assert_uint_eq(in.nodes, 2);
	ck_assert_uint_eq(in.mem_mb, 3072);
	ck_assert_uint_eq(in.disk_mb, 200);	/* per node * nodes */
	ck_assert_int_eq(in.wclimit, 3600);
	ck_assert_int_eq(in.queue_time, 1800);
	ck_assert_uint_eq(in.start_count, 2);
	ck_assert_int_eq(in.deadline, NOW + 3600);
	ck_assert_int_eq(in.user_prio, 50);
	ck_assert_int_eq(in.state, PRISM_MOAB_IDLE);
	ck_assert_uint_eq(in.attr_mask,
			  1ull << prism_moab_attr_bit(pol, "bigmem"));
	ck_assert_uint_eq(in.gres_mask,
			  (1ull << prism_moab_gres_bit(pol, "gpu")) |
				  (1ull << prism_moab_gres_bit(pol, "matlab")));
	ck_assert_int_eq(in.sys_prio, 0);
	ck_assert_ptr_eq(in.part, &tot);
	ck_assert_uint_eq(tot.procs, 16);
	ck_assert_uint_eq(tot.mem_mb, 64000);
	ck_assert_uint_eq(in.user_jobs, 1);	/* the running job */
	ck_assert_uint_eq(in.user_procs, 8);
	ck_assert_double_eq(in.user_ps, 8.0 * 7200);

	/* the running job: its execution time; no partition */
	cli_job_inputs(m, &jobs[1], NULL, 0, &in, &tot);
	ck_assert_int_eq(in.state, PRISM_MOAB_RUNNING);
	ck_assert_int_eq(in.exec_time, 600);
	ck_assert_uint_eq(in.procs, 8);
	ck_assert_ptr_null(in.part);
	ck_assert_int_eq(in.class_prio, 0);

	/* states: held, a dependency, a begin time ahead, booting */
	jobs[0].priority = 0;
	cli_job_inputs(m, &jobs[0], NULL, 0, &in, &tot);
	ck_assert_int_eq(in.state, PRISM_MOAB_HOLD);
	jobs[0].priority = 1;
	jobs[0].state_reason = WAIT_DEPENDENCY;
	cli_job_inputs(m, &jobs[0], NULL, 0, &in, &tot);
	ck_assert_int_eq(in.state, PRISM_MOAB_BLOCKED);
	jobs[0].state_reason = WAIT_NO_REASON;
	jobs[0].eligible_time = NOW + 10;
	cli_job_inputs(m, &jobs[0], NULL, 0, &in, &tot);
	ck_assert_int_eq(in.state, PRISM_MOAB_BLOCKED);
	jobs[1].job_state = JOB_RUNNING | JOB_CONFIGURING;
	cli_job_inputs(m, &jobs[1], NULL, 0, &in, &tot);
	ck_assert_int_eq(in.state, PRISM_MOAB_STARTING);

	/* no limit, no accrue time, a huge nice, an admin-set priority */
	jobs[0].time_limit = INFINITE;
	jobs[0].accrue_time = 0;
	jobs[0].nice = 0;
	jobs[0].max_cpus = 0;
	jobs[0].tres_req_str = "cpu=4,mem=lots";
	cli_job_inputs(m, &jobs[0], NULL, 1000000008.0, &in, &tot);
	ck_assert_int_eq(in.wclimit, 0);
	ck_assert_int_eq(in.queue_time, 0);
	ck_assert_int_eq(in.user_prio, INT32_MAX);
	ck_assert_uint_eq(in.procs, 4);		/* no maximum: minimum */
	ck_assert_uint_eq(in.mem_mb, 0);	/* unreadable: 0 */
	ck_assert_int_eq(in.sys_prio, 7);	/* MAX_PRIO_VAL + 7 */
	cli_job_inputs(m, &jobs[0], NULL, 7.0, &in, &tot);
	ck_assert_int_eq(in.sys_prio, 7);	/* the admin's value */

	/* unknown user name: the local name of the uid, else "nobody" */
	jobs[0].user_name = NULL;
	jobs[0].user_id = 4000000000u;
	cli_job_inputs(m, &jobs[0], NULL, 0, &in, &tot);
	ck_assert_uint_eq(in.cred[PRISM_MOAB_USER], PRISM_MOAB_NONE);
	cli_jobmap_free(m);
	cli_jobmap_free(NULL);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- the view -------------------------------------------------------- */

/*
 * sprio's rows as the tests write them: flat, as Slurm 22.05's
 * priority_factors_object_t; _rows() makes the release's own rows of them
 * (from 24.11 on, a row points to its factors) and the array of pointers
 * the views read.
 */
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
typedef struct {
	uint32_t job_id;
	char *partition;
	double direct_prio;
	double priority_age, priority_assoc, priority_fs, priority_js;
	double priority_part, priority_qos;
	uint32_t priority_site, nice;
} flat_t;

typedef struct {
	priority_factors_object_t obj;
	priority_factors_t pf;
} row_t;

static void _rows(const flat_t *f, row_t *r, priority_factors_object_t **fp,
		  int n)
{
	for (int i = 0; i < n; i++) {
		r[i] = (row_t) { .obj = { ROW_JOB(f[i].job_id),
					  .partition = f[i].partition,
					  .direct_prio = f[i].direct_prio } };
		if (!f[i].direct_prio) {
			r[i].pf = (priority_factors_t) {
				.priority_age = f[i].priority_age,
				.priority_assoc = f[i].priority_assoc,
				.priority_fs = f[i].priority_fs,
				.priority_js = f[i].priority_js,
				.priority_part = f[i].priority_part,
				.priority_qos = f[i].priority_qos,
				.priority_site = f[i].priority_site,
				.nice = f[i].nice,
			};
			r[i].obj.prio_factors = &r[i].pf;
		}
		fp[i] = &r[i].obj;
	}
}
#else
typedef priority_factors_object_t flat_t;
typedef struct {
	char unused;
} row_t;

static void _rows(flat_t *f, row_t *r, priority_factors_object_t **fp, int n)
{
	for (int i = 0; i < n; i++)
		fp[i] = &f[i];
}
#endif

/* sprio's row of 'job' in 'part' as the plugin stores it. */
static flat_t _factors(const prism_moab_policy_t *pol,
		       const prism_moab_usage_t *u, const slurm_job_info_t *job,
		       const partition_info_t *part)
{
	prism_moab_pass_t pass = { .pol = pol, .usage = u, .now = NOW };
	flat_t f = { .job_id = job->job_id, .partition = part->name };
	cli_jobmap_t *m = cli_jobmap_create(pol, job, 1, NOW);
	prism_moab_result_t res;
	prism_moab_columns_t c;
	prism_moab_totals_t tot;
	prism_moab_job_t in;
	prism_error_t err = { "" };

	ck_assert_ptr_nonnull(m);
	cli_job_inputs(m, job, part, 0, &in, &tot);
	ck_assert(!prism_moab_prio(&pass, &in, &res, &err));
	prism_moab_columns(&res, &c);
	f.priority_age = (double) c.serv;
	f.priority_assoc = (double) c.cred;
	f.priority_fs = (double) c.fs;
	f.priority_js = (double) c.res;
	f.priority_part = (double) c.attr;
	f.priority_qos = (double) c.target_usage;
	f.priority_site = (uint32_t) (c.rest + (int64_t) NICE_OFFSET);
	f.nice = NICE_OFFSET;
	cli_jobmap_free(m);
	return f;
}

static char *_print(const cli_explain_t *x, int want_rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(cli_explain_print(x, out, stderr), want_rc);
	fclose(out);
	return text;
}

/*
 * The jobs of the harness's moab world (tests/harness/test-moab.sh), with
 * the hand-worked figures of tests/unit/moab/test_moab_diag.c:
 *   1  daemon (physics) batch, 120 min queued, 60 min limit: 1471
 *   2  bin (bin, chem) batch, 60 min, 240 min: 1186
 *   3  nobody (physics, QOS high) fast, 30 min, 60 min: 730
 *   4  daemon in batch,fast, 10 min, 60 min: 1177 in batch
 *   5  admin-set priority 7: MAX_PRIO_VAL + 7
 *   7  daemon, nice 500, 60 min, 60 min: 1311; its sprio row is made up
 *      as if the controller had 1399: a note
 *   8  held; 9 running; 10 pending, begin time ahead (no sprio row)
 */
static const char *want_all =
	"diagnosing job priority information (partition: ALL)\n"
	"\n"
	"Job               Slurm   PRIORITY*      Cred(  User: Group:   QOS: Class)        FS(  User: Accnt)      Serv( QTime: XFctr)\n"
	"Weights        --------   --------          1(   100:    10:     1:     1)         1(    10:     5)         1(     1:   100)\n"
	"\n"
	"5            1000000008 1000000007*         0(    10:     0:     0:     1)         0(    25:   -40)         0(    60:     2)\n"
	"1                  1472       1471       1001(    10:     0:     0:     1)        50(    25:   -40)       420(   120:     3)\n"
	"7                  1400       1399       1001(    10:     0:     0:     1)        50(    25:   -40)       260(    60:     2)\n"
	"2                  1187       1186        701(     5:    20:     0:     1)       300(    10:    40)       185(    60:  1.25)\n"
	"4                  1178       1177       1001(    10:     0:     0:     1)        50(    25:   -40)       126(    10:  1.17)\n"
	"3                   731        730        600(     0:     0:   500:   100)      -200(     0:   -40)       330(    30:  1.50)\n"
	"\n"
	"Percent Contribution                     68.6(  55.8:   3.2:   8.0:   1.7)      10.4(   4.8:   5.6)      21.1(   6.8:  14.2)\n"
	"\n"
	"* indicates system prio set on job\n"
	"\n"
	"job 7: recomputed 1312, controller 1400: the job, its partition or the policy changed since the plugin's last pass\n"
	"job 4: pending in batch,fast; shown in batch (sprio shows one row per partition)\n"
	"3 pending jobs are held or not eligible yet: not ranked, not shown (ask for one by its id)\n";

typedef struct {
	prism_moab_policy_t *pol;
	prism_moab_usage_t *usage;
	slurm_job_info_t jobs[10];
	flat_t f[8];
	row_t rows[8];
	priority_factors_object_t *fp[8];
	cli_explain_t x;
} _world_t;

static void _world(_world_t *w)
{
	slurm_job_info_t *j = w->jobs;
	int nf = 0;

	memset(w, 0, sizeof(*w));
	w->pol = _policy();
	w->usage = _usage(w->pol);
	j[0] = _job(1, "daemon", 1, "physics", "normal", "batch", 120, 60);
	j[1] = _job(2, "bin", 2, "chem", "normal", "batch", 60, 240);
	j[2] = _job(3, "nobody", 65534, "physics", "high", "fast", 30, 60);
	j[3] = _job(4, "daemon", 1, "physics", "normal", "batch,fast", 10,
		    60);
	j[4] = _job(5, "daemon", 1, "physics", "normal", "batch", 60, 60);
	j[5] = _job(7, "daemon", 1, "physics", "normal", "batch", 60, 60);
	j[5].nice = NICE_OFFSET + 500;
	j[6] = _job(8, "daemon", 1, "physics", "normal", "batch", 60, 60);
	j[6].priority = 0;
	j[6].state_desc = "Prism: Moab priority -5 is negative and REJECTNEGPRIOJOBS is set";
	j[7] = _job(9, "daemon", 1, "physics", "normal", "batch", 60, 60);
	j[7].job_state = JOB_RUNNING;
	j[7].start_time = NOW - 60;
	j[8] = _job(10, "daemon", 1, "physics", "normal", "batch", 0, 60);
	j[8].eligible_time = NOW + 3600;
	j[9] = _job(11, "daemon", 1, "physics", "normal", "batch", 0, 60);
	j[9].eligible_time = NOW + 3600;
	for (int i = 0; i < 6; i++) {
		const partition_info_t *p = strcmp(j[i].partition, "fast") ?
						    &parts[0] : &parts[1];

		w->f[nf++] = _factors(w->pol, w->usage, &j[i], p);
	}
	/* job 4's second partition: the first one's columns, rebased */
	w->f[nf] = w->f[3];
	w->f[nf].partition = "fast";
	w->f[nf].priority_site += 99;
	nf++;
	/* job 5: an admin-set priority (already mapped by the plugin) */
	w->f[4] = (flat_t) { .job_id = 5, .partition = "batch",
			     .direct_prio = 1000000008.0 };
	/* job 7: the controller computed it before something changed */
	w->f[5].priority_site += 88;
	/* a row of a job that ended since: ignored */
	w->f[nf++] = (flat_t) { .job_id = 99, .partition = "batch",
				.priority_site = NICE_OFFSET,
				.nice = NICE_OFFSET };
	_rows(w->f, w->rows, w->fp, nf);
	w->x = (cli_explain_t) {
		.pol = w->pol, .pol_path = "prism.conf", .usage = w->usage,
		.now = NOW, .jobs = w->jobs, .job_cnt = N(w->jobs),
		.factors = w->fp, .factor_cnt = (uint32_t) nf, .parts = parts,
		.part_cnt = N(parts),
	};
}

static void _world_free(_world_t *w)
{
	prism_moab_usage_free(w->usage);
	prism_moab_policy_free(w->pol);
}

START_TEST(test_view)
{
	_world_t w;
	char *text;

	_world(&w);
	text = _print(&w.x, CLI_OK);
	ck_assert_str_eq(text, want_all);
	free(text);
	_world_free(&w);
}
END_TEST

/*
 * Jobs asked for by id: only those, and an error on 'err' for each one
 * not shown, exit 1 (issue 35: "not found" went to stdout, exit 0).
 */
START_TEST(test_view_ids)
{
	static const uint32_t ids[] = { 3, 8, 9, 10, 12345 };
	_world_t w;
	char *text = NULL, *errs = NULL;
	size_t len = 0, err_len = 0;
	FILE *out, *err;

	_world(&w);
	w.x.ids = ids;
	w.x.id_cnt = N(ids);
	out = open_memstream(&text, &len);
	err = open_memstream(&errs, &err_len);
	ck_assert_int_eq(cli_explain_print(&w.x, out, err), CLI_ERROR);
	fclose(out);
	fclose(err);
	ck_assert_msg(strstr(text, "\n3                   731        730  ") != NULL,
		      "%s", text);
	ck_assert_ptr_null(strstr(text, "\n1  "));
	ck_assert_ptr_null(strstr(text, "\n5  "));
	ck_assert_str_eq(errs,
		"prism: job 8: held (priority 0), not ranked: Prism: Moab priority -5 is negative and REJECTNEGPRIOJOBS is set\n"
		"prism: job 9: not pending (RUNNING)\n"
		"prism: job 10: pending but not ranked by the controller (not eligible yet: begin time or dependency)\n"
		"prism: job 12345: not found (or not visible to you)\n");
	ck_assert_ptr_null(strstr(text, "job 12345"));
	ck_assert_ptr_null(strstr(text, "* indicates"));
	ck_assert_ptr_null(strstr(text, "not shown"));
	free(text);
	free(errs);
	_world_free(&w);
}
END_TEST

/* Without the usage file: FS values '?', a note per differing job. */
START_TEST(test_view_no_usage)
{
	static const uint32_t ids[] = { 1, 2 };
	_world_t w;
	char *text;

	_world(&w);
	w.x.usage = NULL;
	w.x.ids = ids;
	w.x.id_cnt = N(ids);
	text = _print(&w.x, CLI_OK);
	ck_assert_msg(strstr(text, "1                  1472       1471       1001(    10:     0:     0:     1)        50(     ?:     ?)       420(   120:     3)\n") != NULL,
		      "%s", text);
	/* the footer: FS's shares unknown */
	ck_assert_ptr_nonnull(strstr(text, "Percent Contribution"));
	ck_assert_ptr_nonnull(strstr(strstr(text, "Percent Contribution"),
				     "(     ?:     ?)"));
	/* recomputed without usage, physics's FS value is its whole target
	 * (5 * 60 instead of 5 * -40): 500 more, and a note saying why */
	ck_assert_ptr_nonnull(strstr(text,
		"job 1: recomputed 1972, controller 1472: fair-share usage unknown here\n"));
	free(text);
	_world_free(&w);
}
END_TEST

/* --long: the core's whole computation of each job. */
START_TEST(test_view_long)
{
	static const uint32_t ids[] = { 1 };
	_world_t w;
	char *text;

	_world(&w);
	w.x.ids = ids;
	w.x.id_cnt = N(ids);
	w.x.long_fmt = true;
	text = _print(&w.x, CLI_OK);
	ck_assert_msg(strstr(text, "\njob 1 in batch, recomputed: priority 1471 (slurm 1472)\n") != NULL,
		      "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "    XFACTOR: 100 * 3 = 300\n"));
	free(text);
	_world_free(&w);
}
END_TEST

/* Nothing pending: one line, success. */
START_TEST(test_view_empty)
{
	_world_t w;
	char *text;

	_world(&w);
	w.x.factor_cnt = 0;
	w.x.job_cnt = 0;
	text = _print(&w.x, CLI_OK);
	ck_assert_str_eq(text, "no pending job to show\n");
	free(text);
	_world_free(&w);
}
END_TEST

/* ---- prism whatif under a candidate Moab policy ------------------------ */

/* The entry of job 'id' in partition 'part' among the 'n' of 'e'. */
static const prism_whatif_job_t *_wi_find(const prism_whatif_job_t *e,
					  uint32_t n, uint32_t id,
					  const char *part)
{
	for (uint32_t i = 0; i < n; i++)
		if (e[i].id == id && !strcmp(e[i].partition, part))
			return &e[i];
	ck_abort_msg("job %u in %s: no entry", id, part);
	return NULL;
}

START_TEST(test_moab_whatif)
{
	_world_t w;
	prism_whatif_job_t e[8];
	prism_error_t err = { "" };
	prism_moab_policy_t *cand = NULL;
	char text[sizeof(example) + 8];
	const char *q;
	uint32_t n = 99;

	_world(&w);
	/* the policy in force as the candidate: nothing moves but job 7,
	 * whose sprio row the controller computed before a change */
	ck_assert_int_eq(cli_moab_whatif(&w.x, e, &n, stderr), CLI_OK);
	ck_assert_uint_eq(n, 7);	/* job 4 twice, job 99 ignored */
	ck_assert_uint_eq(_wi_find(e, n, 1, "batch")->before, 1472);
	ck_assert_uint_eq(_wi_find(e, n, 1, "batch")->after, 1472);
	ck_assert_uint_eq(_wi_find(e, n, 2, "batch")->after, 1187);
	ck_assert_uint_eq(_wi_find(e, n, 3, "fast")->after, 731);
	ck_assert_uint_eq(_wi_find(e, n, 4, "batch")->after, 1178);
	ck_assert_uint_eq(_wi_find(e, n, 5, "batch")->before, 1000000008);
	ck_assert_uint_eq(_wi_find(e, n, 5, "batch")->after, 1000000008);
	ck_assert_uint_eq(_wi_find(e, n, 7, "batch")->before, 1400);
	ck_assert_uint_eq(_wi_find(e, n, 7, "batch")->after, 1312);
	/* job 4 in its second partition: class fast's priority */
	ck_assert_uint_gt(_wi_find(e, n, 4, "fast")->after, 1178);
	ck_assert_str_eq(_wi_find(e, n, 3, "fast")->account, "physics");

	/* QOS high worth ten times more: job 3 from last to second */
	q = strstr(example, "QOSCFG[high] PRIORITY=500 ");
	ck_assert_ptr_nonnull(q);
	snprintf(text, sizeof(text), "%.*sQOSCFG[high] PRIORITY=5000%s",
		 (int) (q - example), example, q + 25);
	ck_assert_msg(!prism_moab_conf_parse(text, strlen(text), "cand.conf",
					     &cand, &err),
		      "%s", err.text);
	w.x.pol = cand;
	ck_assert_int_eq(cli_moab_whatif(&w.x, e, &n, stderr), CLI_OK);
	ck_assert(!prism_whatif_rank(e, n, &err));
	ck_assert_uint_eq(_wi_find(e, n, 3, "fast")->rank_before, 7);
	ck_assert_uint_eq(_wi_find(e, n, 3, "fast")->rank_after, 2);
	ck_assert_uint_eq(_wi_find(e, n, 5, "batch")->rank_after, 1);
	ck_assert_uint_eq(_wi_find(e, n, 1, "batch")->after, 1472);
	prism_moab_policy_free(cand);
	_world_free(&w);
}
END_TEST

/* ---- policy=gridengine: qstat -pri and -urg ------------------------- */

static const char ge_example[] =
	"weight_priority 1\nurgency_slots 100\nurgency[mem] 0.5\n"
	"urgency[gres/gpu] 1000\nurgency_partition[fast] 40000\n";

static prism_ge_policy_t *_ge_policy(void)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(ge_example, strlen(ge_example),
					   "ge.conf", &pol, &err),
		      "%s", err.text);
	return pol;
}

/* sprio's row as the plugin stores it for the normalised values given. */
static flat_t _ge_factors(const prism_ge_policy_t *pol, uint32_t id,
			  const char *part, double nurg, double ntckts,
			  double npprior)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	prism_ge_result_t r = { .nurg = nurg, .ntckts = ntckts,
				.npprior = npprior };
	flat_t f = { .job_id = id };
	prism_error_t err = { "" };
	prism_ge_sprio_t c;

	r.prio = p->weight_urgency * nurg + p->weight_ticket * ntckts +
		 p->weight_priority * npprior;
	r.slurm = prism_ge_to_slurm(pol, r.prio);
	ck_assert(!prism_ge_sprio(pol, &r, &c, &err));
	f.partition = (char *) part;
	f.priority_age = c.urgency;
	f.priority_assoc = c.tickets;
	f.priority_qos = c.posix;
	f.priority_site = c.offset + NICE_OFFSET;
	f.nice = NICE_OFFSET;
	return f;
}

START_TEST(test_ge_inputs)
{
	prism_ge_policy_t *pol = _ge_policy();
	slurm_job_info_t job = _job(21, "daemon", 2, "chem", NULL, "fast,batch",
				    60, 60);
	double amount[8] = { 0 };
	prism_ge_job_t in;

	ck_assert_uint_eq(prism_ge_count(pol, PRISM_GE_RESOURCE), 4);
	job.max_cpus = 4;
	job.num_cpus = 2;
	job.num_nodes = 2;
	job.tres_req_str = "cpu=4,mem=2G,node=2,billing=4,gres/gpu=2";
	job.nice = NICE_OFFSET - 100;
	job.deadline = NOW + 3600;
	cli_ge_job_inputs(pol, &job, "fast", &in, amount);
	ck_assert_uint_eq(in.job_id, 21);
	ck_assert_int_eq(in.submit, NOW - 60 * MIN);
	ck_assert_int_eq(in.deadline, NOW + 3600);
	ck_assert_int_eq(in.nice, -100);
	ck_assert_uint_eq(in.partition,
			  prism_ge_find(pol, PRISM_GE_PARTITION, "fast"));
	ck_assert_uint_ne(in.partition, PRISM_GE_NONE);
	ck_assert_ptr_eq(in.amount, amount);
	ck_assert(amount[PRISM_GE_RES_SLOTS] == 4);	/* max CPUs */
	ck_assert(amount[PRISM_GE_RES_MEM] == 2048);	/* MB */
	ck_assert(amount[PRISM_GE_RES_NODES] == 2);
	ck_assert(amount[prism_ge_find(pol, PRISM_GE_RESOURCE, "gres/gpu")] ==
		  2);
	cli_ge_job_inputs(pol, &job, NULL, &in, amount);
	ck_assert_uint_eq(in.partition, PRISM_GE_NONE);
	prism_ge_policy_free(pol);
}
END_TEST

/*
 * 21  batch, 4 CPUs, 2 GB, 2 GPUs, 60 min queued, nice -100:
 *     rrcontr 400 + 1024 + 2000, wtcontr 0.278 * 3600 = 1000.8
 * 22  fast, 1 CPU, 10 min queued, deadline in an hour:
 *     rrcontr 100 + 40000, wtcontr 166.8, dlcontr 3600000 / 3600
 * 23  held (no sprio row); 24 running
 */
static const char *want_ge =
	"qstat -pri (prior, nurg, npprior, ntckts from the controller's sprio columns; ppri from the job's nice)\n"
	"job-ID     prior   nurg    npprior ntckts   ppri\n"
	"------------------------------------------------\n"
	"22         1.25000 1.00000 0.50000 0.50000     0\n"
	"21         0.79883 0.00000 0.54883 0.50000   100\n"
	"\n"
	"qstat -urg (urg and its parts recomputed from the job at the plugin's last pass)\n"
	"job-ID     prior   nurg             urg   rrcontr   wtcontr   dlcontr\n"
	"---------------------------------------------------------------------\n"
	"22         1.25000 1.00000        41267     40100       167      1000\n"
	"21         0.79883 0.00000         4425      3424      1001         0\n"
	"\n"
	"1 pending job is held or not eligible yet: not ranked, not shown (ask for one by its id)\n";

START_TEST(test_ge_view)
{
	prism_ge_policy_t *pol = _ge_policy();
	slurm_job_info_t jobs[] = {
		_job(21, "daemon", 2, "chem", NULL, "batch", 60, 60),
		_job(22, "bin", 2, "chem", NULL, "fast", 10, 60),
		_job(23, "bin", 2, "chem", NULL, "fast", 10, 60),
		_job(24, "bin", 2, "chem", NULL, "fast", 10, 60),
	};
	flat_t f[] = {
		_ge_factors(pol, 21, "batch", 0.0, 0.5, 1124.0 / 2048),
		_ge_factors(pol, 22, "fast", 1.0, 0.5, 0.5),
	};
	row_t rows[N(f)];
	priority_factors_object_t *fp[N(f)];
	uint32_t ids[] = { 22, 23, 24, 99 };
	cli_ge_explain_t x = {
		.pol = pol, .now = NOW, .jobs = jobs, .job_cnt = N(jobs),
		.factors = fp, .factor_cnt = N(fp),
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	_rows(f, rows, fp, N(f));
	jobs[0].max_cpus = 4;
	jobs[0].tres_req_str = "cpu=4,mem=2G,node=1,gres/gpu=2";
	jobs[0].nice = NICE_OFFSET - 100;
	jobs[1].deadline = NOW + 3600;
	jobs[2].priority = 0;
	jobs[3].job_state = JOB_RUNNING;

	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(cli_ge_explain_print(&x, out, stderr), CLI_OK);
	fclose(out);
	fputs(text, stdout);
	ck_assert_str_eq(text, want_ge);
	free(text);

	/* the jobs asked for, and errors for those without a row: exit 1 */
	x.ids = ids;
	x.id_cnt = N(ids);
	out = open_memstream(&text, &len);
	{
		char *errs = NULL;
		size_t err_len = 0;
		FILE *err = open_memstream(&errs, &err_len);

		ck_assert_int_eq(cli_ge_explain_print(&x, out, err),
				 CLI_ERROR);
		fclose(err);
		ck_assert_ptr_nonnull(strstr(errs, "prism: job 23: held (priority 0), not ranked\n"));
		ck_assert_ptr_nonnull(strstr(errs, "prism: job 24: not pending (RUNNING)\n"));
		ck_assert_ptr_nonnull(strstr(errs, "prism: job 99: not found (or not visible to you)\n"));
		free(errs);
	}
	fclose(out);
	ck_assert_ptr_null(strstr(text, "\n21 "));
	ck_assert_ptr_nonnull(strstr(text, "\n22         1.25000"));
	ck_assert_ptr_null(strstr(text, "job 99"));
	free(text);

	/* no row with columns: '-' and a note */
	f[1].priority_site = 0;
	f[1].nice = 0;
	_rows(f, rows, fp, N(f));
	x.id_cnt = 0;
	out = open_memstream(&text, &len);
	ck_assert_int_eq(cli_ge_explain_print(&x, out, stderr), CLI_OK);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "       -       -       -     0\n"));
	ck_assert_ptr_nonnull(strstr(text, "job 22: the controller has no factors for it (see slurmctld's log)\n"));
	free(text);

	/* nothing to show */
	x.factor_cnt = 0;
	x.job_cnt = 0;
	out = open_memstream(&text, &len);
	ck_assert_int_eq(cli_ge_explain_print(&x, out, stderr), CLI_OK);
	fclose(out);
	ck_assert_str_eq(text, "no pending job to show\n");
	free(text);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- prism whatif under a candidate Grid Engine policy --------------- */

static prism_ge_policy_t *_ge_parse(const char *text)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(text, strlen(text), "cand.conf",
					   &pol, &err),
		      "%s", err.text);
	return pol;
}

/*
 * The jobs of test_ge_view (21 batch, 22 fast, 23 held, 24 running)
 * under the policy in force, a candidate without partition fast's
 * urgency, and one weighing share-tree tickets only (daemon's
 * association has used much, bin's nothing).
 */
START_TEST(test_ge_whatif)
{
	prism_ge_policy_t *pol = _ge_policy(), *cand;
	slurm_job_info_t jobs[] = {
		_job(21, "daemon", 2, "chem", NULL, "batch", 60, 60),
		_job(22, "bin", 2, "chem", NULL, "fast", 10, 60),
		_job(23, "bin", 2, "chem", NULL, "fast", 10, 60),
		_job(24, "bin", 2, "chem", NULL, "fast", 10, 60),
	};
	flat_t f[] = {
		_ge_factors(pol, 21, "batch", 0.0, 0.5, 1124.0 / 2048),
		_ge_factors(pol, 22, "fast", 1.0, 0.5, 0.5),
	};
	slurmdb_assoc_rec_t a[] = {
		{ .id = 1, .parent_id = 0, .acct = "root", .shares_raw = 1 },
		{ .id = 2, .parent_id = 1, .acct = "chem", .shares_raw = 1 },
		{ .id = 3, .parent_id = 2, .acct = "chem", .user = "daemon",
		  .shares_raw = 1 },
		{ .id = 4, .parent_id = 2, .acct = "chem", .user = "bin",
		  .shares_raw = 1 },
	};
	slurmdb_assoc_rec_t *ap[] = { &a[0], &a[1], &a[2], &a[3] };
	row_t rows[N(f)];
	priority_factors_object_t *fp[N(f)];
	cli_ge_explain_t x = {
		.pol = pol, .now = NOW, .jobs = jobs, .job_cnt = N(jobs),
		.factors = fp, .factor_cnt = N(fp),
	};
	prism_whatif_job_t e[4];
	prism_error_t err = { "" };
	prism_ge_usage_t *u = prism_ge_usage_create(NOW);
	uint32_t n = 99;

	_rows(f, rows, fp, N(f));
	jobs[0].max_cpus = 4;
	jobs[0].tres_req_str = "cpu=4,mem=2G,node=1,gres/gpu=2";
	jobs[0].nice = NICE_OFFSET - 100;
	jobs[0].assoc_id = 3;
	jobs[1].deadline = NOW + 3600;
	jobs[1].assoc_id = 4;
	jobs[2].priority = 0;
	jobs[3].job_state = JOB_RUNNING;
	jobs[3].assoc_id = 4;

	/* the policy in force: the pass gives what the controller has */
	ck_assert_int_eq(cli_ge_whatif(&x, e, &n, stderr), CLI_OK);
	ck_assert_uint_eq(n, 2);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(e[i].after, e[i].before);
	ck_assert_uint_gt(_wi_find(e, n, 22, "fast")->before,
			  _wi_find(e, n, 21, "batch")->before);

	/* no urgency for partition fast: the 4-slot job 21 leads */
	cand = _ge_parse("weight_priority 1\nurgency_slots 100\n"
			 "urgency[mem] 0.5\nurgency[gres/gpu] 1000\n");
	x.pol = cand;
	ck_assert_int_eq(cli_ge_whatif(&x, e, &n, stderr), CLI_OK);
	ck_assert(!prism_whatif_rank(e, n, &err));
	ck_assert_uint_eq(_wi_find(e, n, 21, "batch")->rank_before, 2);
	ck_assert_uint_eq(_wi_find(e, n, 21, "batch")->rank_after, 1);
	ck_assert_uint_eq(_wi_find(e, n, 21, "batch")->after,
			  prism_ge_to_slurm(cand, 0.5 * 1.0 + 0.5 * 0.5 +
						  1.0 * (1124.0 / 2048)));
	prism_ge_policy_free(cand);

	/* share-tree tickets only: without the tree both get none (a tie,
	 * job id decides); with it daemon's usage puts bin's job first */
	cand = _ge_parse("weight_urgency 0\nweight_priority 0\n"
			 "weight_ticket 1\nweight_tickets_share 1000\n");
	x.pol = cand;
	ck_assert_int_eq(cli_ge_whatif(&x, e, &n, stderr), CLI_OK);
	ck_assert(!prism_whatif_rank(e, n, &err));
	ck_assert_uint_eq(_wi_find(e, n, 21, "batch")->rank_after, 1);
	ck_assert_ptr_nonnull(u);
	ck_assert(!prism_ge_usage_charge(u, 3, 1e6, &err));
	x.assocs = ap;
	x.assoc_cnt = N(ap);
	x.usage = u;
	ck_assert_int_eq(cli_ge_whatif(&x, e, &n, stderr), CLI_OK);
	ck_assert(!prism_whatif_rank(e, n, &err));
	ck_assert_uint_eq(_wi_find(e, n, 22, "fast")->rank_after, 1);
	ck_assert_uint_gt(_wi_find(e, n, 22, "fast")->after,
			  _wi_find(e, n, 21, "batch")->after);
	prism_ge_policy_free(cand);
	prism_ge_usage_free(u);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- the multifactor view -------------------------------------------- */

#define OFF NICE_OFFSET

static slurm_conf_t mf_conf = {
	.priority_weight_age = 1000,
	.priority_weight_fs = 10000,
	.priority_weight_part = 10000,
	.priority_max_age = 3600,
	.priority_flags = PRIORITY_FLAGS_FAIR_TREE,
};

/* root -> physics (LF 0.5) -> daemon; root -> chem (LF 2) -> bin */
static slurmdb_assoc_usage_t mf_usage[] = {
	{ .shares_norm = 1, .usage_raw = 100, .usage_norm = NO_VAL,
	  .usage_efctv = 1, .level_fs = NO_VAL },
	{ .shares_norm = 0.6, .usage_raw = 90, .usage_norm = 0.9,
	  .usage_efctv = 0.9, .level_fs = 0.5 },
	{ .shares_norm = 1, .usage_raw = 90, .usage_norm = 0.9,
	  .usage_efctv = 0.9, .level_fs = 1.0, .fs_factor = 0.5 },
	{ .shares_norm = 0.4, .usage_raw = 10, .usage_norm = 0.1,
	  .usage_efctv = 0.1, .level_fs = 2.0 },
	{ .shares_norm = 1, .usage_raw = 10, .usage_norm = 0.1,
	  .usage_efctv = 0.1, .level_fs = 1.0, .fs_factor = 1.0 },
};

static slurmdb_assoc_rec_t mf_assoc[] = {
	{ .id = 1, .acct = "root", .shares_raw = 1, .usage = &mf_usage[0],
	  .priority = NO_VAL },
	{ .id = 2, .parent_id = 1, .acct = "physics", .shares_raw = 60,
	  .usage = &mf_usage[1], .priority = NO_VAL },
	{ .id = 3, .parent_id = 2, .acct = "physics", .user = "daemon",
	  .shares_raw = 30, .usage = &mf_usage[2], .priority = NO_VAL },
	{ .id = 4, .parent_id = 1, .acct = "chem", .shares_raw = 40,
	  .usage = &mf_usage[3], .priority = NO_VAL },
	{ .id = 5, .parent_id = 4, .acct = "chem", .user = "bin",
	  .shares_raw = 20, .usage = &mf_usage[4], .priority = 7 },
};

static slurm_job_info_t mf_jobs[] = {
	{ .job_id = 5, .user_id = 1, .user_name = "daemon",
	  .account = "physics", .partition = "batch", .qos = "normal",
	  .assoc_id = 3, .priority = 4833, .job_state = JOB_PENDING,
	  .accrue_time = NOW - 1800, .num_cpus = 2, .num_nodes = 1,
	  .nice = OFF, .tres_req_str = "cpu=2,mem=1000M,node=1" },
	{ .job_id = 6, .user_id = 2, .user_name = "bin", .account = "chem",
	  .partition = "fast", .qos = "normal", .assoc_id = 5,
	  .priority = 19900, .job_state = JOB_PENDING, .num_cpus = 1,
	  .num_nodes = 1, .nice = OFF + 100 },
	{ .job_id = 7, .user_id = 2, .user_name = "bin", .account = "chem",
	  .partition = "fast", .assoc_id = 5, .priority = 100,
	  .job_state = JOB_RUNNING },
};

/* sprio's rows of jobs 5 and 6 (22.05's layout, or 24.11's) */
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
static priority_factors_t mf_pf[] = {
	{ .priority_age = 500, .priority_fs = 10000.0 / 3,
	  .priority_part = 1000, .priority_site = OFF, .nice = OFF },
	{ .priority_fs = 10000, .priority_part = 10000,
	  .priority_site = OFF, .nice = OFF + 100 },
};
static priority_factors_object_t mf_rows[] = {
	{ ROW_JOB(5), .partition = "batch", .prio_factors = &mf_pf[0] },
	{ ROW_JOB(6), .partition = "fast", .prio_factors = &mf_pf[1] },
};
#else
static priority_factors_object_t mf_rows[] = {
	{ ROW_JOB(5), .partition = "batch", .priority_age = 500,
	  .priority_fs = 10000.0 / 3, .priority_part = 1000,
	  .priority_site = OFF, .nice = OFF },
	{ ROW_JOB(6), .partition = "fast", .priority_fs = 10000,
	  .priority_part = 10000, .priority_site = OFF, .nice = OFF + 100 },
};
#endif

static void _mf_explain(cli_mf_explain_t *x)
{
	static slurmdb_assoc_rec_t *assocs[N(mf_assoc)];
	static priority_factors_object_t *rows[N(mf_rows)];

	for (int i = 0; i < N(mf_assoc); i++)
		assocs[i] = &mf_assoc[i];
	for (int i = 0; i < N(mf_rows); i++)
		rows[i] = &mf_rows[i];
	*x = (cli_mf_explain_t) {
		.conf = &mf_conf,
		.now = NOW,
		.pass_known = true,
		.jobs = mf_jobs,
		.job_cnt = N(mf_jobs),
		.factors = rows,
		.factor_cnt = N(mf_rows),
		.parts = parts,
		.part_cnt = N(parts),
		.assocs_read = true,
		.assocs = assocs,
		.assoc_cnt = N(mf_assoc),
	};
}

/* Print 'x' into a new string (freed by the caller), its errors into
 * *err_text (likewise), checking the return code. */
static char *_mf_print(const cli_mf_explain_t *x, int want_rc,
		       char **err_text)
{
	char *text = NULL;
	size_t len = 0, err_len = 0;
	FILE *out = open_memstream(&text, &len);
	FILE *err = open_memstream(err_text, &err_len);

	ck_assert_int_eq(cli_mf_explain_print(x, out, err), want_rc);
	fclose(out);
	fclose(err);
	return text;
}

/* Each line the view must hold. */
static const char *mf_lines[] = {
	"job 5  user daemon  account physics  partition batch  QOS normal  priority 4833\n",
	"  age              0.500000       1000       500.00  accruing since ",
	"  fairshare        0.333333      10000      3333.33  daemon (physics): fair-share factor 0.500000 (path below)\n",
	"  partition        0.100000      10000      1000.00  partition batch PriorityJobFactor 1, over the highest\n",
	"  sum           500.00 + 3333.33 + 1000.00 = 4833.33 -> 4833; controller 4833: adds up\n",
	"    root                              -    1.000000           100          -    1.000000          -              -\n",
	"    daemon (physics)                 30    1.000000            90   0.900000    0.900000   0.500000       1.000000\n",
	"  Fair Tree rank 2 of 2 user associations (fair-share factor 0.500000 = 1/2)\n",
	"    ranked above it: bin (chem); under root, physics has level fair-share 0.5 < chem's 2\n",
	"  nice                    -          -      -100.00  nice 100\n",
	"  sum           10000.00 + 10000.00 - 100.00 = 19900.00 -> 19900; controller 19900: adds up\n",
	"  assoc            0.000000          0         0.00  bin (chem) priority 7, over the highest\n",
	"    ranked below it: daemon (physics); under root, chem has level fair-share 2 > physics's 0.5\n",
};

START_TEST(test_mf_view)
{
	cli_mf_explain_t x;
	char *err = NULL, *text;

	_mf_explain(&x);
	text = _mf_print(&x, CLI_OK, &err);
	for (int i = 0; i < N(mf_lines); i++)
		ck_assert_msg(strstr(text, mf_lines[i]), "no line '%s' in:\n%s",
			      mf_lines[i], text);
	ck_assert_str_eq(err, "");
	/* issue 35: the time of the pass the terms come from, and the age
	 * measured to it */
	ck_assert_msg(strstr(text, "sprio -l shows the same), at the plugin's last pass, ") &&
			      strstr(text, ": ages are measured to it.\n") &&
			      strstr(text, " (00:30:00 at the pass); PriorityMaxAge "),
		      "%s", text);
	free(text);
	free(err);
	/* its time unknown: said, and ages measured to now */
	x.pass_known = false;
	x.pass_note = "state/priority_prism_state: no pass recorded yet";
	text = _mf_print(&x, CLI_OK, &err);
	ck_assert_msg(strstr(text, "note: state/priority_prism_state: no pass recorded yet; ages are measured to now, the terms are of the plugin's last pass.\n") &&
			      strstr(text, " (00:30:00 ago); PriorityMaxAge "),
		      "%s", text);
	free(text);
	free(err);
}
END_TEST

/* prism compare of two of mf_jobs, under 'kind', into a new string. */
static char *_compare(uint32_t a, uint32_t b, prism_policy_t kind,
		      int want_rc, char **err_text)
{
	static priority_factors_object_t *rows[N(mf_rows)];
	job_info_msg_t jobs = { .record_count = N(mf_jobs),
				.job_array = mf_jobs };
	cli_records_t r = { .jobs = &jobs, .factors = rows,
			    .factor_cnt = N(mf_rows) };
	char *text = NULL;
	size_t len = 0, err_len = 0;
	FILE *out = open_memstream(&text, &len);
	FILE *err = open_memstream(err_text, &err_len);

	for (int i = 0; i < N(mf_rows); i++)
		rows[i] = &mf_rows[i];
	ck_assert_int_eq(cli_compare_print(&r, kind, a, b, out, err),
			 want_rc);
	fclose(out);
	fclose(err);
	return text;
}

/* job 5: age 500, fairshare 3333.33, partition 1000; job 6: fairshare
 * 10000, partition 10000, nice 100 */
static const char *cmp_lines[] = {
	"job 5 (partition batch) priority 4833  vs  job 6 (partition fast) priority 19900\n",
	"  partition                     1000.00       10000.00       -9000.00\n",
	"  fairshare                     3333.33       10000.00       -6666.67\n",
	"  age                            500.00           0.00        +500.00\n",
	"  nice                             0.00        -100.00        +100.00\n",
	"  job 6 ranks above job 5 by 15067: 15666.67 in its favour, 600.00 against\n",
	"  no term decides alone; together: partition (9000.00), fairshare (6666.67)\n",
};

START_TEST(test_compare)
{
	char *err = NULL, *text;

	text = _compare(5, 6, PRISM_POLICY_MULTIFACTOR, CLI_OK, &err);
	for (int i = 0; i < N(cmp_lines); i++)
		ck_assert_msg(strstr(text, cmp_lines[i]), "no line '%s' in:\n%s",
			      cmp_lines[i], text);
	ck_assert_str_eq(err, "");
	free(text);
	free(err);
	/* the same pair under Moab: its components' names */
	text = _compare(6, 5, PRISM_POLICY_MOAB, CLI_OK, &err);
	ck_assert_msg(strstr(text, "  PARTITION (ATTR)             10000.00        1000.00       +9000.00\n"),
		      "%s", text);
	free(text);
	free(err);
}
END_TEST

/* prism compare of jobs 'a' and 'b' with job 5's fair-share term set to
 * 'fs' for the run, as a new string. */
static char *_compare_fs(uint32_t a, uint32_t b, double fs, char **err_text)
{
	double *term = &mf_rows[0].
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
		       prio_factors->
#endif
		       priority_fs;
	double was = *term;
	char *text;

	*term = fs;
	text = _compare(a, b, PRISM_POLICY_MULTIFACTOR, CLI_OK, err_text);
	*term = was;
	return text;
}

START_TEST(test_compare_decides)
{
	char *err = NULL;
	/* job 5's fair-share raised past the gap: fair-share alone decides */
	char *text = _compare_fs(5, 6, 30000, &err);

	ck_assert_msg(strstr(text, "  fairshare                    30000.00       10000.00      +20000.00  decides\n") &&
			      strstr(text, "  decided by: fairshare (20000.00)\n"),
		      "%s", text);
	free(text);
	free(err);
}
END_TEST

/* Two jobs of the same priority: the lower job id is considered first,
 * as prism(1) says, whichever is named first */
START_TEST(test_compare_tie)
{
	char *err = NULL;
	/* job 5's fair-share raised to make its terms add up to job 6's
	 * 19900: 500 + 18400 + 1000 */
	char *text = _compare_fs(6, 5, 18400, &err);

	ck_assert_msg(strstr(text, "  same priority 19900: job 5 (the lower job id) is considered first\n"),
		      "%s", text);
	free(text);
	free(err);
}
END_TEST

START_TEST(test_compare_fairshare)
{
	cli_mf_explain_t x;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	_mf_explain(&x);
	ck_assert_int_eq(cli_mf_fairshare_why(&x, 5, 6, out), CLI_OK);
	x.assocs_read = false;
	x.assoc_err = "refused";
	ck_assert_int_eq(cli_mf_fairshare_why(&x, 5, 6, out), CLI_OK);
	fclose(out);
	ck_assert_str_eq(text,
			 "  fair-share (Fair Tree): daemon (physics) 0.500000, bin (chem) 1.000000\n"
			 "    why: bin (chem); under root, physics has level fair-share 0.5 < chem's 2\n"
			 "  fair-share: the association records could not be read (refused)\n");
	free(text);
}
END_TEST

START_TEST(test_compare_bad)
{
	char *err = NULL, *text;

	text = _compare(5, 7, PRISM_POLICY_MULTIFACTOR, CLI_ERROR, &err);
	ck_assert_str_eq(err, "prism: job 7: not pending: only pending jobs are ranked\n");
	free(text);
	free(err);
	text = _compare(99, 5, PRISM_POLICY_MULTIFACTOR, CLI_ERROR, &err);
	ck_assert_str_eq(err, "prism: job 99: not found (or not visible to you)\n");
	free(text);
	free(err);
}
END_TEST

START_TEST(test_mf_view_ids)
{
	static const uint32_t ids[] = { 6, 99, 7 };
	cli_mf_explain_t x;
	char *err = NULL, *text;

	_mf_explain(&x);
	x.ids = ids;
	x.id_cnt = N(ids);
	text = _mf_print(&x, CLI_ERROR, &err);
	ck_assert_ptr_nonnull(strstr(text, "job 6  user bin"));
	ck_assert_ptr_null(strstr(text, "job 5 "));
	ck_assert_str_eq(err,
			 "prism: job 99: not found (or not visible to you)\n"
			 "prism: job 7: not pending (RUNNING): only pending jobs have priority terms\n");
	free(text);
	free(err);
}
END_TEST

START_TEST(test_mf_view_no_assocs)
{
	cli_mf_explain_t x;
	char *err = NULL, *text;

	_mf_explain(&x);
	x.assocs_read = false;
	x.assoc_cnt = 0;
	x.assoc_err = "refused";
	text = _mf_print(&x, CLI_OK, &err);
	ck_assert_ptr_nonnull(strstr(text, "note: the association records could not be read (refused): fair-share paths are not shown.\n"));
	ck_assert_ptr_nonnull(strstr(text, "  fair-share path: not available: refused\n"));
	ck_assert_ptr_null(strstr(text, "Fair Tree rank"));
	free(text);
	free(err);

	/* only the user's own association visible (PrivateData=usage) */
	_mf_explain(&x);
	x.assocs += 2;
	x.assoc_cnt = 1;
	text = _mf_print(&x, CLI_OK, &err);
	ck_assert_ptr_nonnull(strstr(text, "    (the associations above daemon (physics) are not visible to you)\n"));
	ck_assert_ptr_nonnull(strstr(text, "  Fair Tree rank: not available (the association tree is not fully visible to you)\n"));
	ck_assert_ptr_nonnull(strstr(text, "  fair-share path: not available: association 5 of the job is not visible to you\n"));
	free(text);
	free(err);
}
END_TEST

/*
 * An admin-set priority (scontrol update job priority=N): no terms. Slurm
 * sends such a row without factors (site and nice 0, not NICE_OFFSET);
 * sprio shows site 0 and nice 0, and so must explain and compare (issue
 * 35: they showed -2147483648 and +2147483648, "decided by: site").
 */
START_TEST(test_mf_view_admin)
{
	static const uint32_t ids[] = { 6 };
	const priority_factors_object_t saved = mf_rows[1];
	cli_mf_explain_t x;
	char *err = NULL, *text;

	_mf_explain(&x);
	x.ids = ids;
	x.id_cnt = N(ids);
	mf_rows[1] = (priority_factors_object_t) { ROW_JOB(6),
						   .partition = "fast",
						   .direct_prio = 5000 };
	mf_jobs[1].priority = 5000;
	text = _compare(5, 6, PRISM_POLICY_MULTIFACTOR, CLI_OK, &err);
	ck_assert_msg(!strstr(text, "2147483648") && !strstr(text, "site") &&
			      !strstr(text, "nice"),
		      "%s", text);
	ck_assert_msg(strstr(text, "  job 6 ranks above job 5 by 167\n  decided by: the priority an administrator set (scontrol update job=ID priority=N)\n"),
		      "%s", text);
	free(text);
	free(err);
	text = _mf_print(&x, CLI_OK, &err);
	ck_assert_ptr_nonnull(strstr(text, "job 6  user bin  account chem  partition fast  QOS normal  priority 5000\n  priority set by an administrator (5000): no terms\n"));
	free(text);
	free(err);
	x.json = true;
	text = _mf_print(&x, CLI_OK, &err);
	ck_assert_ptr_nonnull(strstr(text, "\"admin_priority\":5000,"));
	ck_assert_ptr_nonnull(strstr(text, "\"sum\":5000,\"priority\":5000,\"clamped\":0,\"adds_up\":true,"));
	ck_assert_msg(!strstr(text, "2147483648"), "%s", text);
	free(text);
	free(err);
	mf_rows[1] = saved;
	mf_jobs[1].priority = 19900;
}
END_TEST

START_TEST(test_mf_view_json)
{
	static const char *want[] = {
		"{\"policy\":\"multifactor\",\"time\":1800000000,\"pass_time\":1800000000,\"jobs\":[{\"job_id\":5,\"user\":\"daemon\",",
		"{\"term\":\"age\",\"factor\":0.5,\"weight\":1000,\"value\":500,",
		"{\"term\":\"nice\",\"factor\":null,\"weight\":null,\"value\":-100,\"inputs\":\"nice 100\"}",
		"\"priority\":4833,\"clamped\":0,\"adds_up\":true,",
		"\"fairshare\":{\"algorithm\":\"fair_tree\",\"error\":null,\"path\":[{\"account\":\"root\",\"user\":null,",
		"\"rank\":{\"rank\":2,\"users\":2,\"tied\":0,\"above\":{\"other\":{\"account\":\"chem\",\"user\":\"bin\",",
		"\"tie\":false},\"below\":null}",
		"]}\n",
	};
	cli_mf_explain_t x;
	char *err = NULL, *text;

	_mf_explain(&x);
	x.json = true;
	text = _mf_print(&x, CLI_OK, &err);
	for (int i = 0; i < N(want); i++)
		ck_assert_msg(strstr(text, want[i]), "no '%s' in:\n%s",
			      want[i], text);
	free(text);
	free(err);
	/* the time of the pass unknown: null, the time measured to is now */
	x.pass_known = false;
	x.pass_note = "no pass";
	text = _mf_print(&x, CLI_OK, &err);
	ck_assert_msg(strstr(text, "{\"policy\":\"multifactor\",\"time\":1800000000,\"pass_time\":null,"),
		      "%s", text);
	free(text);
	free(err);
}
END_TEST

/* ---- whatif under policy=multifactor ---------------------------------- */

/* cli_mf_whatif() of the rows of _mf_explain() under the settings 'set',
 * then cli_whatif_print() into a new string; the error text into *err. */
static char *_mf_whatif(const cli_mf_explain_t *x, const char *const *set,
			int nset, int want_rc, char **err_text)
{
	prism_whatif_job_t jobs[N(mf_rows)];
	prism_mf_change_t ch;
	prism_error_t perr = { "" };
	uint32_t cnt = 0;
	char *text = NULL;
	size_t len = 0, err_len = 0;
	FILE *out = open_memstream(&text, &len);
	FILE *err = open_memstream(err_text, &err_len);

	memset(&ch, 0, sizeof(ch));
	for (int i = 0; i < nset; i++)
		ck_assert_msg(!prism_mf_change_read(set[i], NULL, &ch, &perr),
			      "%s: %s", set[i], perr.text);
	ck_assert_int_eq(cli_mf_whatif(x, &ch, jobs, &cnt, err), want_rc);
	if (!want_rc)
		ck_assert_int_eq(cli_whatif_print("test:", jobs, cnt, 10, true,
						  out, err), CLI_OK);
	fclose(out);
	fclose(err);
	return text;
}

START_TEST(test_mf_whatif)
{
	/* job 5: age 500 (factor 0.5), fs 3333.33, part 1000 (0.1): 4833;
	 * job 6: fs 10000, part 10000 (1), nice -100: 19900. Without the
	 * partition and with age 30000 job 5 has 15000 + 3333 = 18333 and
	 * job 6 9900: they trade places. */
	const char *set[] = { "PriorityWeightPartition=0",
			      "PriorityWeightAge=30000" };
	static const char *lines[] = {
		"2 pending entries (job and partition): 2 move, 0 keep their place.\n",
		"  5          batch        physics              2         1         4833        18333  up 1\n",
		"  6          fast         chem                 1         2        19900         9900  down 1\n",
		"  chem                  1      0      1            1.0            2.0\n",
		"  physics               1      1      0            2.0            1.0\n",
		"The new order:\n",
	};
	cli_mf_explain_t x;
	char *err = NULL, *text, *order;

	_mf_explain(&x);
	text = _mf_whatif(&x, set, 2, CLI_OK, &err);
	for (int i = 0; i < N(lines); i++)
		ck_assert_msg(strstr(text, lines[i]), "no line '%s' in:\n%s",
			      lines[i], text);
	/* the new order: job 5 first */
	order = strstr(text, "The new order:");
	ck_assert_ptr_nonnull(order);
	ck_assert_ptr_nonnull(strstr(order, "\n  5 "));
	ck_assert_ptr_nonnull(strstr(order, "\n  6 "));
	ck_assert(strstr(order, "\n  5 ") < strstr(order, "\n  6 "));
	ck_assert_str_eq(err, "");
	free(text);
	free(err);

	/* nothing that changes the order */
	text = _mf_whatif(&x, set, 0, CLI_OK, &err);
	ck_assert_ptr_nonnull(strstr(text, "2 pending entries (job and partition): 0 move, 2 keep their place.\n"));
	free(text);
	free(err);
}
END_TEST

START_TEST(test_mf_whatif_from_zero)
{
	slurm_conf_t conf = mf_conf;
	const char *age[] = { "PriorityWeightAge=2000" };
	const char *qos[] = { "PriorityWeightQOS=1000" };
	const char *assoc[] = { "PriorityWeightAssoc=5" };
	cli_mf_explain_t x;
	char *err = NULL, *text;

	_mf_explain(&x);
	/* QOS weight 0 and no QOS records: no factor to scale */
	text = _mf_whatif(&x, qos, 1, CLI_ERROR, &err);
	ck_assert_str_eq(err, "prism: job 5: PriorityWeightQOS is 0 now, so the controller computed no QOS factor, and none can be read from the job's records\n");
	free(text);
	free(err);
	text = _mf_whatif(&x, assoc, 1, CLI_ERROR, &err);
	ck_assert_ptr_nonnull(strstr(err, "PriorityWeightAssoc is 0 now"));
	free(text);
	free(err);
	/* age weight 0: job 5's factor from its accrue time (1800 s of
	 * 3600: 0.5), job 6 accrues none */
	conf.priority_weight_age = 0;
	x.conf = &conf;
	text = _mf_whatif(&x, age, 1, CLI_OK, &err);
	ck_assert_msg(strstr(text, "  5          batch        physics              2         2         4833         5333  =\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "  6          fast         chem                 1         1        19900        19900  =\n"),
		      "%s", text);
	free(text);
	free(err);
}
END_TEST

/*
 * whatif's heading is whole at any length (issue 35: it was built in 2048
 * bytes): 300 settings of 20 bytes, and a candidate path of 4000 bytes;
 * cli_whatif_print() prints it whole after "What if ".
 */
START_TEST(test_whatif_what)
{
	enum { NSET = 300 };
	char *set[NSET], want[NSET * 21 + 64], path[4001], *what, *text = NULL;
	size_t len = 0, pos;
	FILE *out = open_memstream(&text, &len);

	pos = (size_t) snprintf(want, sizeof(want), "policy=multifactor with");
	for (int i = 0; i < NSET; i++) {
		set[i] = malloc(21);
		ck_assert_ptr_nonnull(set[i]);
		snprintf(set[i], 21, "PriorityWeightAge=%02d", i % 100);
		pos += (size_t) snprintf(want + pos, sizeof(want) - pos, " %s",
					 set[i]);
	}
	snprintf(want + pos, sizeof(want) - pos, ":");
	ck_assert_uint_gt(strlen(want), 2048);
	what = cli_whatif_what("multifactor", set, NSET, NULL);
	ck_assert_str_eq(what, want);
	ck_assert_int_eq(cli_whatif_print(what, NULL, 0, 10, false, out,
					  stderr),
			 CLI_OK);
	fclose(out);
	ck_assert_uint_gt(len, strlen(want) + 9);
	ck_assert(!strncmp(text, "What if ", 8));
	ck_assert(!strncmp(text + 8, want, strlen(want)));
	ck_assert_int_eq(text[8 + strlen(want)], '\n');
	free(text);
	free(what);
	for (int i = 0; i < NSET; i++)
		free(set[i]);

	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	snprintf(want, sizeof(want), "policy=moab read %s instead of its file in force:", path);
	what = cli_whatif_what("moab", NULL, 0, path);
	ck_assert_str_eq(what, want);
	free(what);
	what = cli_whatif_what("multifactor", NULL, 0, NULL);
	ck_assert_str_eq(what, "policy=multifactor with:");
	free(what);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("cli_diag");
	TCase *tc = tcase_create("explain");

	tcase_add_test(tc, test_inputs);
	tcase_add_test(tc, test_view);
	tcase_add_test(tc, test_view_ids);
	tcase_add_test(tc, test_view_no_usage);
	tcase_add_test(tc, test_view_long);
	tcase_add_test(tc, test_view_empty);
	tcase_add_test(tc, test_ge_inputs);
	tcase_add_test(tc, test_ge_view);
	tcase_add_test(tc, test_moab_whatif);
	tcase_add_test(tc, test_ge_whatif);
	tcase_add_test(tc, test_mf_view);
	tcase_add_test(tc, test_mf_view_ids);
	tcase_add_test(tc, test_mf_view_no_assocs);
	tcase_add_test(tc, test_mf_view_json);
	tcase_add_test(tc, test_compare);
	tcase_add_test(tc, test_compare_decides);
	tcase_add_test(tc, test_compare_tie);
	tcase_add_test(tc, test_compare_fairshare);
	tcase_add_test(tc, test_compare_bad);
	tcase_add_test(tc, test_mf_whatif);
	tcase_add_test(tc, test_mf_whatif_from_zero);
	tcase_add_test(tc, test_whatif_what);
	tcase_add_test(tc, test_mf_view_admin);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *runner;
	int failed;

	/* no Check timer: see tests/unit/test_core.c */
	setenv("CK_DEFAULT_TIMEOUT", "0", 0);
	runner = srunner_create(_suite());
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
