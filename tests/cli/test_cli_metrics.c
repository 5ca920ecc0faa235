/*****************************************************************************\
 *  test_cli_metrics.c - `prism metrics` without a controller: records
 *  made up here (a Fair Tree and a classic tree, jobs pending in one and
 *  two partitions, a held one, a running one, sprio's rows) written as
 *  the exposition: the lines expected, worked out by hand; every family
 *  with one HELP and one TYPE; --users pending and none; the pass figures
 *  read back from a file, and refused when missing or damaged. With
 *  PRISM_METRICS_SAMPLES=DIR it also leaves the texts there for
 *  tests/cli/test-metrics-format.sh (promtool check metrics).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_metrics.h"
#include "prism_marks.h"

#ifdef PRISM_CLI_HAVE_ROW_STEP_ID
#define ROW_JOB(id) .step_id = { .job_id = (id) }
#else
#define ROW_JOB(id) .job_id = (id)
#endif

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define OFF PRISM_NICE_OFFSET

static slurm_conf_t conf = {
	.version = "22.05.8",
	.priority_flags = PRIORITY_FLAGS_FAIR_TREE,
	.fs_dampening_factor = 1,
};

/* root -> physics -> daemon; root -> chem (level fs inf) -> bin, carol */
static slurmdb_assoc_usage_t usage[] = {
	{ .shares_norm = 1, .usage_raw = 100, .usage_efctv = 1 },
	{ .shares_norm = 0.6, .usage_raw = 90, .usage_efctv = 0.9,
	  .level_fs = 0.5, .level_shares = 100 },
	{ .shares_norm = 1, .usage_raw = 90, .usage_efctv = 0.9,
	  .level_fs = 1.0, .fs_factor = 0.5, .level_shares = 30 },
	{ .shares_norm = 0.4, .usage_raw = 10, .usage_efctv = 0.1,
	  .level_fs = INFINITY, .level_shares = 100 },
	{ .shares_norm = 0.4 * 20 / 30, .usage_raw = 10, .usage_efctv = 0.1,
	  .level_fs = 1.0, .fs_factor = 1.0, .level_shares = 30 },
	/* unset effective usage: the classic algorithm leaves a user's so
	 * until sshare asks */
	{ .shares_norm = 0.4 * 10 / 30, .usage_raw = 0,
	  .usage_efctv = NO_VAL, .level_fs = 2.0, .fs_factor = 0.25,
	  .level_shares = 30 },
};

static slurmdb_assoc_rec_t assoc[] = {
	{ .id = 1, .acct = "root", .shares_raw = 1, .usage = &usage[0] },
	{ .id = 2, .parent_id = 1, .acct = "physics", .shares_raw = 60,
	  .usage = &usage[1] },
	{ .id = 3, .parent_id = 2, .acct = "physics", .user = "daemon",
	  .shares_raw = 30, .usage = &usage[2] },
	{ .id = 4, .parent_id = 1, .acct = "chem", .shares_raw = 40,
	  .usage = &usage[3] },
	{ .id = 5, .parent_id = 4, .acct = "chem", .user = "bin",
	  .shares_raw = 20, .usage = &usage[4] },
	{ .id = 6, .parent_id = 4, .acct = "chem", .user = "carol",
	  .shares_raw = 10, .usage = &usage[5] },
};

static slurm_job_info_t jobs[] = {
	{ .job_id = 1, .account = "physics", .partition = "low,high",
	  .assoc_id = 3, .job_state = JOB_PENDING, .priority = 4500,
	  .user_name = "daemon" },
	{ .job_id = 2, .account = "physics", .partition = "low",
	  .assoc_id = 3, .job_state = JOB_PENDING, .priority = 0 },
	{ .job_id = 3, .account = "chem", .partition = "high",
	  .assoc_id = 5, .job_state = JOB_PENDING, .priority = 4900 },
	{ .job_id = 4, .account = "chem", .partition = "low",
	  .assoc_id = 6, .job_state = JOB_RUNNING, .priority = 100 },
};

/* sprio's rows: job 1 in low (2500) and high (4500), job 3 in high (4900,
 * nice 100) */
#ifdef PRISM_CLI_HAVE_ROW_FACTORS
static priority_factors_t pf[] = {
	{ .priority_age = 500, .priority_fs = 1000, .priority_part = 1000,
	  .priority_site = OFF, .nice = OFF },
	{ .priority_age = 500, .priority_fs = 1000, .priority_part = 3000,
	  .priority_site = OFF, .nice = OFF },
	{ .priority_fs = 2000, .priority_part = 3000, .priority_site = OFF,
	  .nice = OFF + 100 },
};
static priority_factors_object_t rows[] = {
	{ ROW_JOB(1), .partition = "low", .prio_factors = &pf[0] },
	{ ROW_JOB(1), .partition = "high", .prio_factors = &pf[1] },
	{ ROW_JOB(3), .partition = "high", .prio_factors = &pf[2] },
};
#else
static priority_factors_object_t rows[] = {
	{ ROW_JOB(1), .partition = "low", .priority_age = 500,
	  .priority_fs = 1000, .priority_part = 1000, .priority_site = OFF,
	  .nice = OFF },
	{ ROW_JOB(1), .partition = "high", .priority_age = 500,
	  .priority_fs = 1000, .priority_part = 3000, .priority_site = OFF,
	  .nice = OFF },
	{ ROW_JOB(3), .partition = "high", .priority_fs = 2000,
	  .priority_part = 3000, .priority_site = OFF, .nice = OFF + 100 },
};
#endif

static const prism_passinfo_t pass = {
	.plugin_start = 1800000000, .pass_start = 1800000300,
	.pass_end = 1800000301, .duration_usec = 123456,
	.jobs_computed = 3, .jobs_charged = 1, .lock_hold_max_usec = 1500,
	.usage_save_usec = 2500, .passes = 7, .save_errors = 2,
};

/* The Grid Engine share-tree usage _text() passes (NULL: none). */
static const prism_ge_usage_t *ge_usage;
/* The Moab policy and usage _text() passes (NULL: none). */
static const prism_moab_policy_t *moab_pol;
static const prism_moab_usage_t *moab_usage;

/* The exposition of the records above; the caller frees it. */
static char *_text(uint32_t flags, cli_metrics_users_t users,
		   prism_policy_t policy)
{
	static assoc_mgr_info_msg_t am;
	static slurmdb_assoc_rec_t *ap[N(assoc)];
	static priority_factors_object_t *rp[N(rows)];
	job_info_msg_t jm = { .record_count = N(jobs), .job_array = jobs };
	cli_records_t r = { .conf = &conf, .jobs = &jm, .factors = rp,
			    .factor_cnt = N(rows), .assocs = &am,
			    .assoc_recs = ap, .assoc_cnt = N(assoc) };
	cli_metrics_in_t in = { .r = &r, .policy = policy, .pass = &pass,
				.version = "9.9", .users = users,
				.ge_usage = ge_usage, .moab = moab_pol,
				.moab_usage = moab_usage };
	prism_error_t err = { "" };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (int i = 0; i < N(assoc); i++)
		ap[i] = &assoc[i];
	for (int i = 0; i < N(rows); i++)
		rp[i] = &rows[i];
	conf.priority_flags = flags;
	ck_assert(out);
	ck_assert_int_eq(cli_metrics_write(&in, out, &err), CLI_OK);
	fclose(out);
	return text;
}

/* Does 'text' have the line 'line'? */
static bool _has(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* The value of the sample that starts with 'series ' (NAN: none). */
static double _value(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *p = text; (p = strstr(p, series)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	return NAN;
}

/* Under Fair Tree: each row a line that must be there. */
static const char *fair_tree_lines[] = {
	"prism_info{version=\"9.9\",slurm=\"22.05.8\",policy=\"multifactor\"} 1",
	"# TYPE prism_info gauge",
	"prism_start_time_seconds 1800000000",
	"prism_last_pass_start_timestamp_seconds 1800000300",
	"prism_last_pass_timestamp_seconds 1800000301",
	"prism_pass_duration_seconds 0.123456",
	"prism_pass_jobs_computed 3",
	"prism_pass_jobs_charged 1",
	"prism_pass_job_lock_hold_max_seconds 0.0015",
	"prism_pass_usage_save_duration_seconds 0.0025",
	"# TYPE prism_passes_total counter",
	"prism_passes_total 7",
	"prism_save_errors_total 2",
	/* job 1 counts in both partitions, held job 2 in low */
	"prism_pending_jobs{partition=\"high\",account=\"chem\"} 1",
	"prism_pending_jobs{partition=\"high\",account=\"physics\"} 1",
	"prism_pending_jobs{partition=\"low\",account=\"physics\"} 2",
	"prism_pending_priority_rows{partition=\"high\"} 2",
	"prism_pending_priority_min{partition=\"high\"} 4500",
	"prism_pending_priority_max{partition=\"high\"} 4900",
	"prism_pending_priority_mean{partition=\"high\"} 4700",
	"prism_pending_priority_min{partition=\"low\"} 2500",
	"prism_pending_term_mean{partition=\"high\",term=\"fairshare\"} 1500",
	"prism_pending_term_mean{partition=\"high\",term=\"nice\"} 50",
	"prism_pending_term_mean{partition=\"high\",term=\"age\"} 250",
	"prism_pending_term_mean{partition=\"low\",term=\"partition\"} 1000",
	"prism_assoc_fairshare{account=\"physics\",user=\"daemon\"} 0.5",
	"prism_assoc_fairshare{account=\"chem\",user=\"bin\"} 1",
	"prism_assoc_level_fairshare{account=\"chem\",user=\"\"} +Inf",
	"prism_assoc_level_fairshare{account=\"physics\",user=\"\"} 0.5",
	"prism_assoc_shares_norm{account=\"physics\",user=\"\"} 0.6",
	"prism_assoc_usage_raw{account=\"physics\",user=\"daemon\"} 90",
	"prism_assoc_usage_effective{account=\"chem\",user=\"bin\"} 0.1",
	"prism_assoc_fairtree_rank{account=\"chem\",user=\"bin\"} 1",
	"prism_assoc_fairtree_rank{account=\"physics\",user=\"daemon\"} 2",
	"prism_assoc_fairtree_rank{account=\"chem\",user=\"carol\"} 3",
};

START_TEST(test_fair_tree)
{
	char *text = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
			   PRISM_POLICY_MULTIFACTOR);

	ck_assert_msg(_has(text, fair_tree_lines[_i]), "no line '%s' in:\n%s",
		      fair_tree_lines[_i], text);
	free(text);
}
END_TEST

/* Lines that must not be there under Fair Tree. */
static const char *fair_tree_absent[] = {
	/* sshare leaves an account's FairShare blank under Fair Tree */
	"prism_assoc_fairshare{account=\"physics\",user=\"\"}",
	/* a user's unset effective usage is not a value */
	"prism_assoc_usage_effective{account=\"chem\",user=\"carol\"}",
	/* no series per job */
	"job",
};

START_TEST(test_fair_tree_absent)
{
	char *text = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
			   PRISM_POLICY_MULTIFACTOR);

	if (!strcmp(fair_tree_absent[_i], "job"))
		ck_assert_msg(!strstr(text, "job_id") &&
				      !strstr(text, "{job="),
			      "a series per job");
	else
		ck_assert_msg(!strstr(text, fair_tree_absent[_i]),
			      "'%s' is there", fair_tree_absent[_i]);
	free(text);
}
END_TEST

/* Every family: one HELP, one TYPE, its samples after them, together. */
START_TEST(test_families)
{
	char *text = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
			   PRISM_POLICY_MULTIFACTOR);
	char seen[64][80], fam[80] = "";
	int nseen = 0;

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char name[80];

		if (!strncmp(line, "# HELP ", 7)) {
			sscanf(line + 7, "%79[^ ]", fam);
			for (int i = 0; i < nseen; i++)
				ck_assert_msg(strcmp(seen[i], fam),
					      "%s twice", fam);
			ck_assert_int_lt(nseen, 64);
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", fam);
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			sscanf(line + 7, "%79[^ ]", name);
			ck_assert_str_eq(name, fam);
			continue;
		}
		sscanf(line, "%79[^{ ]", name);
		ck_assert_msg(!strcmp(name, fam), "%s outside its family (%s)",
			      name, fam);
	}
	ck_assert_int_ge(nseen, 20);
	free(text);
}
END_TEST

START_TEST(test_users)
{
	char *pending = _text(PRIORITY_FLAGS_FAIR_TREE,
			      CLI_METRICS_USERS_PENDING,
			      PRISM_POLICY_MULTIFACTOR);
	char *none = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_NONE,
			   PRISM_POLICY_MULTIFACTOR);

	/* carol has no pending job (her job runs) */
	ck_assert(strstr(pending, "user=\"daemon\""));
	ck_assert(strstr(pending, "user=\"bin\""));
	ck_assert(!strstr(pending, "user=\"carol\""));
	ck_assert(!strstr(none, "user=\"daemon\""));
	ck_assert(!strstr(none, "user=\"bin\""));
	ck_assert(_has(none, "prism_assoc_shares_norm{account=\"chem\",user=\"\"} 0.4"));
	free(pending);
	free(none);
}
END_TEST

/*
 * Classic fair-share: sshare's FairShare for every row, 2^(-UE/S); for
 * carol, whose effective usage the controller left unset, UE worked out
 * as sshare has it: UA 0 + (0.1 - 0) * 10/30.
 */
START_TEST(test_classic)
{
	char *text = _text(0, CLI_METRICS_USERS_ALL,
			   PRISM_POLICY_MULTIFACTOR);
	double phys = _value(text,
			     "prism_assoc_fairshare{account=\"physics\",user=\"\"}");
	double carol = _value(text,
			      "prism_assoc_fairshare{account=\"chem\",user=\"carol\"}");
	double ue = _value(text,
			   "prism_assoc_usage_effective{account=\"chem\",user=\"carol\"}");

	ck_assert_msg(fabs(phys - pow(2, -0.9 / 0.6)) < 1e-12, "%.17g", phys);
	ck_assert_msg(fabs(ue - 0.1 / 3) < 1e-12, "%.17g", ue);
	ck_assert_msg(fabs(carol - pow(2, -(0.1 / 3) / (0.4 / 3))) < 1e-12,
		      "%.17g", carol);
	/* no level fair-share nor rank outside Fair Tree */
	ck_assert(!strstr(text, "prism_assoc_level_fairshare{"));
	ck_assert(!strstr(text, "prism_assoc_fairtree_rank{"));
	free(text);
}
END_TEST

/* The policies name sprio's columns for their components. */
static const struct {
	prism_policy_t policy;
	const char *line;
} named[] = {
	{ PRISM_POLICY_MOAB,
	  "prism_pending_term_mean{partition=\"high\",term=\"fs\"} 1500" },
	{ PRISM_POLICY_MOAB,
	  "prism_pending_term_mean{partition=\"high\",term=\"serv\"} 250" },
	{ PRISM_POLICY_GRIDENGINE,
	  "prism_pending_term_mean{partition=\"high\",term=\"urgency\"} 250" },
	{ PRISM_POLICY_GRIDENGINE,
	  "prism_info{version=\"9.9\",slurm=\"22.05.8\",policy=\"gridengine\"} 1" },
};

START_TEST(test_policy_names)
{
	char *text = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
			   named[_i].policy);

	ck_assert_msg(_has(text, named[_i].line), "no line '%s'",
		      named[_i].line);
	free(text);
}
END_TEST

/* Grid Engine's share-tree usage per node, only when it was read. */
START_TEST(test_ge_usage)
{
	prism_error_t err = { "" };
	prism_ge_usage_t *u = prism_ge_usage_create(1800000000);
	char *with, *without;

	ck_assert(u);
	ck_assert(!prism_ge_usage_charge(u, 3, 3600, &err));
	ck_assert(!prism_ge_usage_charge(u, 4, 7200.5, &err));
	ge_usage = u;
	with = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
		     PRISM_POLICY_GRIDENGINE);
	ge_usage = NULL;
	without = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
			PRISM_POLICY_GRIDENGINE);
	ck_assert(_has(with, "prism_ge_share_tree_usage{account=\"physics\",user=\"daemon\"} 3600"));
	ck_assert(_has(with, "prism_ge_share_tree_usage{account=\"chem\",user=\"\"} 7200.5"));
	ck_assert(_has(with, "prism_ge_share_tree_usage{account=\"chem\",user=\"bin\"} 0"));
	ck_assert(!strstr(without, "prism_ge_share_tree_usage"));
	prism_ge_usage_free(u);
	free(with);
	free(without);
}
END_TEST

/*
 * Moab's usage per credential the policy names: daemon 30 and carol 0 of
 * 120 in all (daemon's job is charged to chem too); carol has no pending
 * job (--users pending leaves her out).
 */
START_TEST(test_moab_usage)
{
	static const char conf_text[] =
		"FSPOLICY DEDICATEDPS\nFSWEIGHT 1\nFSUSERWEIGHT 1\n"
		"USERCFG[daemon] FSTARGET=10\nUSERCFG[carol] PRIORITY=1\n"
		"ACCOUNTCFG[chem] FSTARGET=40\n";
	prism_moab_policy_t *pol = NULL;
	prism_moab_usage_t *u;
	prism_error_t err = { "" };
	uint32_t cred[PRISM_MOAB_CRED_CNT];
	char *all, *pending;

	ck_assert_msg(!prism_moab_conf_parse(conf_text, strlen(conf_text),
					     "prism.conf", &pol, &err),
		      "%s", err.text);
	u = prism_moab_usage_create(pol, 1800000000, &err);
	ck_assert(u);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		cred[k] = PRISM_MOAB_NONE;
	cred[PRISM_MOAB_USER] = prism_moab_cred_find(pol, PRISM_MOAB_USER,
						     "daemon");
	cred[PRISM_MOAB_ACCOUNT] =
		prism_moab_cred_find(pol, PRISM_MOAB_ACCOUNT, "chem");
	ck_assert(!prism_moab_usage_charge(u, cred, 30, &err));
	ck_assert(!prism_moab_usage_add_total(u, 90, &err));
	moab_pol = pol;
	moab_usage = u;
	all = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
		    PRISM_POLICY_MOAB);
	pending = _text(PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_PENDING,
			PRISM_POLICY_MOAB);
	moab_pol = NULL;
	moab_usage = NULL;
	ck_assert_msg(_has(all, "prism_moab_fairshare_usage_ratio{kind=\"user\",credential=\"daemon\"} 0.25"),
		      "%s", all);
	ck_assert(_has(all, "prism_moab_fairshare_usage_ratio{kind=\"user\",credential=\"carol\"} 0"));
	ck_assert(_has(all, "prism_moab_fairshare_usage_ratio{kind=\"account\",credential=\"chem\"} 0.25"));
	ck_assert(!strstr(pending, "credential=\"carol\""));
	ck_assert(strstr(pending, "credential=\"daemon\""));
	prism_moab_usage_free(u);
	prism_moab_policy_free(pol);
	free(all);
	free(pending);
}
END_TEST

/* The pass figures read from a directory: good, missing, damaged. */
START_TEST(test_pass_read)
{
	char dir[] = "/tmp/test_cli_metrics.XXXXXX", path[256], buf[512];
	prism_passinfo_t got = { 0 };
	prism_error_t err = { "" };
	FILE *f;
	int len;

	ck_assert(mkdtemp(dir));
	ck_assert_int_eq(cli_metrics_pass_read(dir, &got, &err), -1);
	ck_assert_msg(strstr(err.text, "priority_prism_pass"), "%s",
		      err.text);
	len = prism_passinfo_format(&pass, buf, sizeof(buf), &err);
	ck_assert_int_gt(len, 0);
	snprintf(path, sizeof(path), "%s/%s", dir, PRISM_PASSINFO_NAME);
	f = fopen(path, "w");
	ck_assert(f);
	fwrite(buf, 1, (size_t) len - 3, f);	/* the checksum cut */
	fclose(f);
	ck_assert_int_eq(cli_metrics_pass_read(dir, &got, &err), -1);
	ck_assert_msg(strstr(err.text, path), "%s", err.text);
	f = fopen(path, "w");
	fwrite(buf, 1, (size_t) len, f);
	fclose(f);
	ck_assert_int_eq(cli_metrics_pass_read(dir, &got, &err), 0);
	ck_assert(!memcmp(&got, &pass, sizeof(got)));
	unlink(path);
	rmdir(dir);
}
END_TEST

/* PRISM_METRICS_SAMPLES=DIR: the texts of each case for promtool. */
static void _samples(const char *dir)
{
	static const struct {
		const char *name;
		uint32_t flags;
		cli_metrics_users_t users;
		prism_policy_t policy;
	} cases[] = {
		{ "fair-tree", PRIORITY_FLAGS_FAIR_TREE,
		  CLI_METRICS_USERS_ALL, PRISM_POLICY_MULTIFACTOR },
		{ "classic", 0, CLI_METRICS_USERS_ALL,
		  PRISM_POLICY_MULTIFACTOR },
		{ "pending", PRIORITY_FLAGS_FAIR_TREE,
		  CLI_METRICS_USERS_PENDING, PRISM_POLICY_MULTIFACTOR },
		{ "moab", PRIORITY_FLAGS_FAIR_TREE, CLI_METRICS_USERS_ALL,
		  PRISM_POLICY_MOAB },
		{ "gridengine", PRIORITY_FLAGS_FAIR_TREE,
		  CLI_METRICS_USERS_NONE, PRISM_POLICY_GRIDENGINE },
	};

	static const char moab_text[] =
		"FSPOLICY DEDICATEDPS\nFSWEIGHT 1\nUSERCFG[daemon] FSTARGET=10\n";
	prism_error_t err = { "" };
	prism_ge_usage_t *u = prism_ge_usage_create(1800000000);
	prism_moab_policy_t *pol = NULL;
	prism_moab_usage_t *mu;

	ck_assert(u && !prism_ge_usage_charge(u, 3, 3600, &err));
	ck_assert(!prism_moab_conf_parse(moab_text, strlen(moab_text), "p",
					 &pol, &err));
	mu = prism_moab_usage_create(pol, 1800000000, &err);
	ck_assert(mu && !prism_moab_usage_add(mu, PRISM_MOAB_USER, 0, 5, &err));
	ck_assert(!prism_moab_usage_add_total(mu, 20, &err));
	for (int i = 0; i < N(cases); i++) {
		char path[4096], *text;
		FILE *f;

		ge_usage = cases[i].policy == PRISM_POLICY_GRIDENGINE ? u :
									NULL;
		moab_pol = cases[i].policy == PRISM_POLICY_MOAB ? pol : NULL;
		moab_usage = moab_pol ? mu : NULL;
		text = _text(cases[i].flags, cases[i].users, cases[i].policy);
		ge_usage = NULL;
		moab_pol = NULL;
		moab_usage = NULL;

		snprintf(path, sizeof(path), "%s/%s.prom", dir,
			 cases[i].name);
		f = fopen(path, "w");
		ck_assert_msg(f, "cannot write %s", path);
		fputs(text, f);
		fclose(f);
		free(text);
	}
	prism_ge_usage_free(u);
	prism_moab_usage_free(mu);
	prism_moab_policy_free(pol);
}

START_TEST(test_samples)
{
	const char *dir = getenv("PRISM_METRICS_SAMPLES");

	if (dir && *dir)
		_samples(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli_metrics");
	TCase *tc = tcase_create("exposition");
	SRunner *runner;
	int failed;

	setenv("CK_DEFAULT_TIMEOUT", "0", 0);
	tcase_add_loop_test(tc, test_fair_tree, 0, N(fair_tree_lines));
	tcase_add_loop_test(tc, test_fair_tree_absent, 0,
			    N(fair_tree_absent));
	tcase_add_test(tc, test_families);
	tcase_add_test(tc, test_users);
	tcase_add_test(tc, test_classic);
	tcase_add_loop_test(tc, test_policy_names, 0, N(named));
	tcase_add_test(tc, test_ge_usage);
	tcase_add_test(tc, test_moab_usage);
	tcase_add_test(tc, test_pass_read);
	tcase_add_test(tc, test_samples);
	suite_add_tcase(s, tc);
	runner = srunner_create(s);
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
