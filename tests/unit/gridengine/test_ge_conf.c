/*****************************************************************************\
 *  test_ge_conf.c - unit tests of prism_ge_conf: every sched_conf(5)
 *  priority parameter and Prism key, defaults, the expanded
 *  policy_hierarchy, comments and layout, a pasted `qconf -ssconf`, the
 *  ignored parameters with their notices, conflicting duplicates,
 *  malformed lines with their exact messages, the example file, and bad
 *  parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_ge_conf.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static prism_ge_policy_t *_parse(const char *text)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(text, strlen(text), "ge.conf", &pol,
					   &err),
		      "'%s': %s", text, err.text);
	ck_assert_ptr_nonnull(pol);
	return pol;
}

/*
 * The text of slurm-conf-examples/'name' (malloc'd, NUL-terminated):
 * from $top_srcdir (make check sets it), else next to this source file.
 */
static char *_example(const char *name, size_t *len)
{
	const char *top = getenv("top_srcdir");
	const char *here = __FILE__, *cut = strstr(here, "tests/unit/");
	char path[4096];
	char *text;
	FILE *f;
	long n;

	if (top && *top)
		snprintf(path, sizeof(path), "%s/slurm-conf-examples/%s", top,
			 name);
	else
		snprintf(path, sizeof(path), "%.*sslurm-conf-examples/%s",
			 cut ? (int) (cut - here) : 0, here, name);
	f = fopen(path, "rb");
	ck_assert_msg(f, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	text = malloc((size_t) n + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(fread(text, 1, (size_t) n, f), (size_t) n);
	text[n] = '\0';
	fclose(f);
	*len = (size_t) n;
	return text;
}

/* ---- one row per sched_conf(5) parameter ------------------------------ */

enum { WP, WU, WT, WWT, WDL, HT, CF, WTS, WTF, WUSER, WPROJ, WDEPT, WJOB,
       SOT, SFS, RPT, MFJ };

static double _field(const prism_ge_params_t *p, int f)
{
	switch (f) {
	case WP:
		return p->weight_priority;
	case WU:
		return p->weight_urgency;
	case WT:
		return p->weight_ticket;
	case WWT:
		return p->weight_waiting_time;
	case WDL:
		return p->weight_deadline;
	case HT:
		return p->halftime;
	case CF:
		return p->compensation_factor;
	case WTS:
		return p->weight_tickets_share;
	case WTF:
		return p->weight_tickets_functional;
	case WUSER:
		return p->weight_user;
	case WPROJ:
		return p->weight_project;
	case WDEPT:
		return p->weight_department;
	case WJOB:
		return p->weight_job;
	case SOT:
		return p->share_override_tickets;
	case SFS:
		return p->share_functional_shares;
	case RPT:
		return p->report_pjob_tickets;
	case MFJ:
		return p->max_functional_jobs;
	}
	return NAN;
}

static const struct {
	const char *line;
	int field;
	double want;
} params[] = {
	{ "weight_priority 1.000000", WP, 1.0 },
	{ "weight_urgency 0.100000", WU, 0.1 },
	{ "weight_ticket 0.010000", WT, 0.01 },
	{ "weight_waiting_time 0.278000", WWT, 0.278 },
	{ "weight_deadline 3600000.000000", WDL, 3600000.0 },
	{ "weight_deadline 1e12", WDL, 1e12 },
	{ "halftime 336", HT, 336 },
	{ "halftime 0", HT, 0 },
	{ "compensation_factor 2.5", CF, 2.5 },
	{ "compensation_factor 0", CF, 0.0 },
	{ "weight_tickets_share 10000", WTS, 10000 },
	{ "weight_tickets_functional 5000", WTF, 5000 },
	{ "weight_tickets_functional 1000000000", WTF, 1e9 },
	{ "weight_user 0.5", WUSER, 0.5 },
	{ "weight_project 0.2", WPROJ, 0.2 },
	{ "weight_department 0.2", WDEPT, 0.2 },
	{ "weight_job 0.1", WJOB, 0.1 },
	{ "share_override_tickets FALSE", SOT, 0 },
	{ "share_override_tickets true", SOT, 1 },
	{ "share_functional_shares false", SFS, 0 },
	{ "share_functional_shares NO", SFS, 0 },
	{ "report_pjob_tickets 0", RPT, 0 },
	{ "max_functional_jobs_to_schedule 50", MFJ, 50 },
	{ "WEIGHT_URGENCY 0.25", WU, 0.25 },
	{ "weight_urgency +2", WU, 2.0 },
	{ "weight_urgency .5", WU, 0.5 },
	{ "weight_urgency 5.", WU, 5.0 },
	{ "weight_urgency 2.5E-1", WU, 0.25 },
	{ "weight_urgency -0", WU, 0.0 },
};

START_TEST(test_param)
{
	prism_ge_policy_t *pol = _parse(params[_i].line);
	double got = _field(prism_ge_policy_params(pol), params[_i].field);

	ck_assert_msg(got == params[_i].want, "'%s': got %g", params[_i].line,
		      got);
	ck_assert(!signbit(got));
	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), 0);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- policy_hierarchy ------------------------------------------------- */

enum { O = PRISM_GE_OVERRIDE, F = PRISM_GE_FUNCTIONAL, S = PRISM_GE_SHARETREE };

static const struct {
	const char *value;
	const char *stored;
	int order[3];
	bool dep[3];
} hier[] = {
	{ "OFS", "OFS", { O, F, S }, { true, true, true } },
	{ "SFO", "SFO", { S, F, O }, { true, true, true } },
	{ "FS", "FS", { F, S, O }, { true, true, false } },
	{ "S", "S", { S, O, F }, { true, false, false } },
	{ "os", "OS", { O, S, F }, { true, true, false } },
	{ "NONE", "", { O, F, S }, { false, false, false } },
	{ "none", "", { O, F, S }, { false, false, false } },
};

START_TEST(test_hierarchy)
{
	char text[64];
	prism_ge_policy_t *pol;
	const prism_ge_params_t *p;

	snprintf(text, sizeof(text), "policy_hierarchy %s\n", hier[_i].value);
	pol = _parse(text);
	p = prism_ge_policy_params(pol);
	ck_assert_str_eq(p->policy_hierarchy, hier[_i].stored);
	for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
		ck_assert_int_eq(p->order[k], hier[_i].order[k]);
		ck_assert_int_eq(p->dependent[k], hier[_i].dep[k]);
	}
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- Prism's keys ----------------------------------------------------- */

enum { URG, FSH, OTK };

static const struct {
	const char *line;
	prism_ge_kind_t kind;
	const char *find;	/* name looked up */
	const char *name;	/* name stored */
	int field;
	double want;
} entries[] = {
	{ "urgency_slots 100", PRISM_GE_RESOURCE, "slots", "slots", URG,
	  100 },
	{ "urgency[slots] 50", PRISM_GE_RESOURCE, "cpu", "slots", URG, 50 },
	{ "urgency[cpu] 25", PRISM_GE_RESOURCE, "slots", "slots", URG, 25 },
	{ "urgency[mem] 0.01", PRISM_GE_RESOURCE, "mem", "mem", URG, 0.01 },
	{ "urgency[nodes] 7", PRISM_GE_RESOURCE, "node", "nodes", URG, 7 },
	{ "urgency[node] 8", PRISM_GE_RESOURCE, "nodes", "nodes", URG, 8 },
	{ "urgency[gres/gpu] 500", PRISM_GE_RESOURCE, "gres/gpu", "gres/gpu",
	  URG, 500 },
	{ "urgency[gres/gpu:a100] 900", PRISM_GE_RESOURCE, "gres/gpu:a100",
	  "gres/gpu:a100", URG, 900 },
	{ "urgency[license/matlab@srv] 3", PRISM_GE_RESOURCE,
	  "license/matlab@srv", "license/matlab@srv", URG, 3 },
	{ "urgency_partition[t2] 40000", PRISM_GE_PARTITION, "t2", "t2", URG,
	  40000 },
	{ "URGENCY_PARTITION[u2] 80000", PRISM_GE_PARTITION, "u2", "u2", URG,
	  80000 },
	{ "override_tickets_user[bob] 1000", PRISM_GE_USER, "bob", "bob", OTK,
	  1000 },
	{ "override_tickets_account[chem] 500", PRISM_GE_ACCOUNT, "chem",
	  "chem", OTK, 500 },
	{ "functional_shares_user[ann] 100", PRISM_GE_USER, "ann", "ann", FSH,
	  100 },
	{ "functional_shares_account[phys] 300", PRISM_GE_ACCOUNT, "phys",
	  "phys", FSH, 300 },
	{ "functional_shares_user[J\xc3\xb6rg] 1", PRISM_GE_USER,
	  "J\xc3\xb6rg", "J\xc3\xb6rg", FSH, 1 },
};

START_TEST(test_entry)
{
	prism_ge_policy_t *pol = _parse(entries[_i].line);
	prism_ge_kind_t kind = entries[_i].kind;
	uint32_t h = prism_ge_find(pol, kind, entries[_i].find);
	const prism_ge_entry_t *e = prism_ge_get(pol, kind, h);
	double got;

	ck_assert_msg(e, "'%s': not found", entries[_i].line);
	ck_assert_str_eq(e->name, entries[_i].name);
	got = entries[_i].field == URG	 ? e->urgency
	      : entries[_i].field == FSH ? e->fshare
					 : e->oticket;
	ck_assert_msg(got == entries[_i].want, "'%s': got %g",
		      entries[_i].line, got);
	/* the fields it does not set stay 0 */
	if (entries[_i].field != URG)
		ck_assert(e->urgency == 0.0);
	if (entries[_i].field != FSH)
		ck_assert_uint_eq(e->fshare, 0);
	if (entries[_i].field != OTK)
		ck_assert_uint_eq(e->oticket, 0);
	/* names are case-sensitive; kinds are separate */
	ck_assert_uint_eq(prism_ge_find(pol, kind, "NOBODY"), PRISM_GE_NONE);
	if (kind != PRISM_GE_RESOURCE)
		ck_assert_uint_eq(prism_ge_count(pol, kind), 1);
	else
		ck_assert_uint_ge(prism_ge_count(pol, kind), 3);
	ck_assert_uint_eq(prism_ge_find(pol, kind == PRISM_GE_USER ?
						     PRISM_GE_ACCOUNT :
						     PRISM_GE_USER,
					entries[_i].find),
			  PRISM_GE_NONE);
	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), 0);
	prism_ge_policy_free(pol);
}
END_TEST

/* A user with both kinds of line; lines for the same name merge. */
START_TEST(test_entry_merge)
{
	prism_ge_policy_t *pol = _parse("override_tickets_user[bob] 10\n"
					"functional_shares_user[bob] 20\n"
					"functional_shares_user[eve] 30\n"
					"override_tickets_user[bob] 10\n");
	const prism_ge_entry_t *bob = prism_ge_get(
		pol, PRISM_GE_USER, prism_ge_find(pol, PRISM_GE_USER, "bob"));
	const prism_ge_entry_t *eve = prism_ge_get(
		pol, PRISM_GE_USER, prism_ge_find(pol, PRISM_GE_USER, "eve"));

	ck_assert_uint_eq(prism_ge_count(pol, PRISM_GE_USER), 2);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_USER, "bob"), 0);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_USER, "eve"), 1);
	ck_assert_uint_eq(bob->oticket, 10);
	ck_assert_uint_eq(bob->fshare, 20);
	ck_assert_uint_eq(eve->fshare, 30);
	ck_assert_uint_eq(eve->oticket, 0);
	prism_ge_policy_free(pol);
}
END_TEST

/* Many names at once: lookups stay right (and O(1): a hash). */
START_TEST(test_entry_scale)
{
	enum { USERS = 20000 };
	size_t size = USERS * 48, len = 0;
	char *text = malloc(size), name[32];
	prism_ge_policy_t *pol;

	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < USERS; i++)
		len += snprintf(text + len, size - len,
				"functional_shares_user[u%d] %d\n", i, i);
	pol = _parse(text);
	ck_assert_uint_eq(prism_ge_count(pol, PRISM_GE_USER), USERS);
	for (int i = 0; i < USERS; i++) {
		uint32_t h;

		snprintf(name, sizeof(name), "u%d", i);
		h = prism_ge_find(pol, PRISM_GE_USER, name);
		ck_assert_uint_eq(h, (uint32_t) i);
		ck_assert_uint_eq(prism_ge_get(pol, PRISM_GE_USER, h)->fshare,
				  (uint32_t) i);
	}
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_USER, "u-1"),
			  PRISM_GE_NONE);
	prism_ge_policy_free(pol);
	free(text);
}
END_TEST

/* ---- defaults --------------------------------------------------------- */

START_TEST(test_defaults)
{
	prism_ge_policy_t *pol = _parse("# only a comment\n\n   \n");
	prism_ge_policy_t *def = prism_ge_policy_default();
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	const prism_ge_entry_t *slots;

	ck_assert(p->weight_priority == 0.0);
	ck_assert(p->weight_urgency == 0.5);
	ck_assert(p->weight_ticket == 0.5);
	ck_assert(p->weight_waiting_time == 0.278);
	ck_assert(p->weight_deadline == 3600000.0);
	ck_assert_uint_eq(p->halftime, 168);
	ck_assert(p->compensation_factor == 5.0);
	ck_assert_uint_eq(p->weight_tickets_share, 0);
	ck_assert_uint_eq(p->weight_tickets_functional, 0);
	ck_assert(p->weight_user == 0.25 && p->weight_project == 0.25 &&
		  p->weight_department == 0.25 && p->weight_job == 0.25);
	ck_assert(p->share_override_tickets && p->share_functional_shares &&
		  p->report_pjob_tickets);
	ck_assert_uint_eq(p->max_functional_jobs, 200);
	ck_assert_str_eq(p->policy_hierarchy, "OFS");
	for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
		ck_assert_int_eq(p->order[k], k);
		ck_assert(p->dependent[k]);
	}
	ck_assert_uint_eq(prism_ge_count(pol, PRISM_GE_RESOURCE), 3);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_RESOURCE, "slots"),
			  PRISM_GE_RES_SLOTS);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_RESOURCE, "mem"),
			  PRISM_GE_RES_MEM);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_RESOURCE, "nodes"),
			  PRISM_GE_RES_NODES);
	slots = prism_ge_get(pol, PRISM_GE_RESOURCE, PRISM_GE_RES_SLOTS);
	ck_assert(slots->urgency == 1000.0);
	ck_assert(prism_ge_get(pol, PRISM_GE_RESOURCE, PRISM_GE_RES_MEM)
			  ->urgency == 0.0);
	for (int k = 0; k < PRISM_GE_RESOURCE; k++)
		ck_assert_uint_eq(prism_ge_count(pol, k), 0);
	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), 0);
	ck_assert(!memcmp(p, prism_ge_policy_params(def), sizeof(*p)));
	prism_ge_policy_free(pol);
	prism_ge_policy_free(def);
}
END_TEST

/* ---- layout ----------------------------------------------------------- */

START_TEST(test_layout)
{
	const char *text = "# Grid Engine priorities\r\n"
			   "\r\n"
			   "   \t  \n"
			   "\tweight_urgency\t 0.2   # trailing comment\r\n"
			   "  weight_ticket 0.3\n"
			   "#weight_ticket 0.4\n"
			   "urgency_partition[t2]\t40000#no blank\n"
			   "weight_priority 0.7"; /* no final newline */
	prism_ge_policy_t *pol = _parse(text);
	const prism_ge_params_t *p = prism_ge_policy_params(pol);

	ck_assert(p->weight_urgency == 0.2);
	ck_assert(p->weight_ticket == 0.3);
	ck_assert(p->weight_priority == 0.7);
	ck_assert(prism_ge_get(pol, PRISM_GE_PARTITION, 0)->urgency ==
		  40000.0);
	prism_ge_policy_free(pol);
}
END_TEST

/* What `qconf -ssconf` prints on a fresh Grid Engine 6.2 installation. */
static const char ssconf[] =
	"algorithm                         default\n"
	"schedule_interval                 0:0:15\n"
	"maxujobs                          0\n"
	"queue_sort_method                 load\n"
	"job_load_adjustments              np_load_avg=0.50\n"
	"load_adjustment_decay_time        0:7:30\n"
	"load_formula                      np_load_avg\n"
	"schedd_job_info                   false\n"
	"flush_submit_sec                  0\n"
	"flush_finish_sec                  0\n"
	"params                            none\n"
	"reprioritize_interval             0:0:0\n"
	"halftime                          168\n"
	"usage_weight_list                 cpu=1.000000,mem=0.000000,"
	"io=0.000000\n"
	"compensation_factor               5.000000\n"
	"weight_user                       0.250000\n"
	"weight_project                    0.250000\n"
	"weight_department                 0.250000\n"
	"weight_job                        0.250000\n"
	"weight_tickets_functional         0\n"
	"weight_tickets_share              0\n"
	"share_override_tickets            TRUE\n"
	"share_functional_shares           TRUE\n"
	"max_functional_jobs_to_schedule   200\n"
	"report_pjob_tickets               TRUE\n"
	"max_pending_tasks_per_job         50\n"
	"halflife_decay_list               none\n"
	"policy_hierarchy                  OFS\n"
	"weight_ticket                     0.010000\n"
	"weight_waiting_time               0.000000\n"
	"weight_deadline                   3600000.000000\n"
	"weight_urgency                    0.100000\n"
	"weight_priority                   1.000000\n"
	"max_reservation                   0\n"
	"default_duration                  INFINITY\n";

START_TEST(test_ssconf)
{
	prism_ge_policy_t *pol = _parse(ssconf);
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	static const char *want[] = {
		"ge.conf:1: algorithm: not a priority parameter, ignored",
		"ge.conf:2: schedule_interval: not a priority parameter, "
		"ignored",
		"ge.conf:3: maxujobs: not a priority parameter, ignored",
		"ge.conf:4: queue_sort_method: not a priority parameter, "
		"ignored",
		"ge.conf:5: job_load_adjustments: not a priority parameter, "
		"ignored",
		"ge.conf:6: load_adjustment_decay_time: not a priority "
		"parameter, ignored",
		"ge.conf:7: load_formula: not a priority parameter, ignored",
		"ge.conf:8: schedd_job_info: not a priority parameter, ignored",
		"ge.conf:9: flush_submit_sec: not a priority parameter, "
		"ignored",
		"ge.conf:10: flush_finish_sec: not a priority parameter, "
		"ignored",
		"ge.conf:11: params: not a priority parameter, ignored",
		"ge.conf:12: reprioritize_interval: not a priority parameter, "
		"ignored",
		"ge.conf:14: usage_weight_list: not modelled by Prism, ignored",
		"ge.conf:26: max_pending_tasks_per_job: not a priority "
		"parameter, ignored",
		"ge.conf:27: halflife_decay_list: not modelled by Prism, "
		"ignored",
		"ge.conf:34: max_reservation: not a priority parameter, "
		"ignored",
		"ge.conf:35: default_duration: not a priority parameter, "
		"ignored",
	};

	/* stock Grid Engine's defaults */
	ck_assert(p->weight_priority == 1.0);
	ck_assert(p->weight_urgency == 0.1);
	ck_assert(p->weight_ticket == 0.01);
	ck_assert(p->weight_waiting_time == 0.0);
	ck_assert(p->weight_deadline == 3600000.0);
	ck_assert_uint_eq(p->halftime, 168);
	ck_assert_str_eq(p->policy_hierarchy, "OFS");
	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), N(want));
	for (int i = 0; i < N(want); i++)
		ck_assert_str_eq(prism_ge_policy_notice(pol, i), want[i]);
	ck_assert_ptr_null(prism_ge_policy_notice(pol, N(want)));
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_ignored_forms)
{
	prism_ge_policy_t *pol = _parse("params PROFILE=1 MONITOR=1\n"
					"weight_tickets_override 3000\n"
					"SCHEDD_JOB_INFO job_list 1-5\n");
	static const char *want[] = {
		"ge.conf:1: params: not a priority parameter, ignored",
		"ge.conf:2: weight_tickets_override: not modelled by Prism, "
		"ignored",
		"ge.conf:3: SCHEDD_JOB_INFO: not a priority parameter, "
		"ignored",
	};

	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), N(want));
	for (int i = 0; i < N(want); i++)
		ck_assert_str_eq(prism_ge_policy_notice(pol, i), want[i]);
	prism_ge_policy_free(pol);
}
END_TEST

/*
 * Univa / Altair Grid Engine 8.x and other forms real dumps hold: each
 * row loads, sets weight_urgency to 'urgency' and gives 'notice' (one).
 */
static const struct {
	const char *text;
	double urgency;
	const char *notice;
} ge8[] = {
	{ "backfilling ON\nweight_urgency 0.2", 0.2,
	  "ge.conf:1: backfilling: not a priority parameter, ignored" },
	{ "fair_urgency_list none\nweight_urgency 0.3", 0.3,
	  "ge.conf:1: fair_urgency_list: not modelled by Prism, ignored" },
	{ "preemption_distance 00:15:00\nweight_urgency 0.4", 0.4,
	  "ge.conf:1: preemption_distance: not a priority parameter, ignored" },
	{ "weight_host_sort 1.000000\nweight_urgency 0.5", 0.5,
	  "ge.conf:1: weight_host_sort: sorts hosts or queues, not jobs: not a priority parameter, ignored" },
	{ "weight_queue_host_sort 1000.0\nweight_urgency 0.6", 0.6,
	  "ge.conf:1: weight_queue_host_sort: sorts hosts or queues, not jobs: not a priority parameter, ignored" },
	{ "queue_sort_method 0\nweight_urgency 0.7", 0.7,
	  "ge.conf:1: queue_sort_method: not a priority parameter, ignored" },
	{ "usage_weight_list cpu=1.0 mem=0.0 io=0.0\nweight_urgency 0.8", 0.8,
	  "ge.conf:1: usage_weight_list: not modelled by Prism, ignored" },
	{ "weight_tickets_override 0\nweight_urgency 0.9", 0.9,
	  "ge.conf:1: weight_tickets_override: not modelled by Prism, ignored" },
	{ "max_preemptees 0\nweight_urgency 1", 1.0,
	  "ge.conf:1: max_preemptees: not a priority parameter, ignored" },
	{ "some_newer_key 4\nweight_urgency 1.5", 1.5,
	  "ge.conf:1: some_newer_key: not a parameter Prism knows (not about priority?), ignored" },
};

START_TEST(test_ge8)
{
	prism_ge_policy_t *pol = _parse(ge8[_i].text);

	ck_assert(prism_ge_policy_params(pol)->weight_urgency ==
		  ge8[_i].urgency);
	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), 1);
	ck_assert_str_eq(prism_ge_policy_notice(pol, 0), ge8[_i].notice);
	prism_ge_policy_free(pol);
}
END_TEST

/* The same value twice is fine. */
START_TEST(test_same_twice)
{
	prism_ge_policy_t *pol = _parse("weight_urgency 0.5\n"
					"weight_urgency 0.500000\n"
					"policy_hierarchy OFS\n"
					"policy_hierarchy ofs\n"
					"urgency_slots 100\n"
					"urgency[cpu] 100.0\n"
					"share_functional_shares TRUE\n"
					"share_functional_shares yes\n");

	ck_assert(prism_ge_policy_params(pol)->weight_urgency == 0.5);
	prism_ge_policy_free(pol);
}
END_TEST

/*
 * What a parse keeps: a file of another policy (Moab's moab.cfg) has
 * nothing Grid Engine reads, whether it parses with every line ignored or
 * stops at a Moab line; whatif and check then say so (issue 35, item 7).
 */
static const struct {
	const char *text;
	unsigned kept;	/* prism_ge_conf_kept() */
	int parses;	/* 1: prism_ge_conf_parse() succeeds */
} kept[] = {
	/* Moab weights only: every line a notice */
	{ "QUEUETIMEWEIGHT 10\nUSERWEIGHT 100\n", 0, 1 },
	/* Moab's USERCFG[...] stops the parse: nothing before it read */
	{ "CREDWEIGHT 1\nUSERCFG[bob] PRIORITY=5\n", 0, 0 },
	/* comments only */
	{ "# nothing\n", 0, 1 },
	/* two parameters and an entry */
	{ "weight_urgency 0.5\nhalftime 24\nurgency[cpu] 10\n", 3, 1 },
	/* one parameter read before the error */
	{ "weight_urgency 0.5\nUSERCFG[bob] PRIORITY=5\n", 1, 0 },
};

START_TEST(test_kept)
{
	const char *text = kept[_i].text;
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };
	int rc = prism_ge_conf_parse(text, strlen(text), "ge.conf", &pol,
				     &err);

	ck_assert_int_eq(rc, kept[_i].parses ? 0 : -1);
	ck_assert_uint_eq(prism_ge_conf_kept(text, strlen(text)),
			  kept[_i].kept);
	if (pol)
		ck_assert_uint_eq(prism_ge_policy_kept(pol), kept[_i].kept);
	prism_ge_policy_free(pol);
	ck_assert_uint_eq(prism_ge_policy_kept(NULL), 0);
	ck_assert_uint_eq(prism_ge_conf_kept(NULL, 0), 0);
}
END_TEST

/* ---- the example file ------------------------------------------------- */

START_TEST(test_example)
{
	size_t len;
	char *text = _example("gridengine.conf", &len);
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };
	const prism_ge_params_t *p;

	ck_assert_msg(!prism_ge_conf_parse(text, len, "gridengine.conf", &pol,
					   &err),
		      "%s", err.text);
	p = prism_ge_policy_params(pol);
	ck_assert(p->weight_priority == 0.0);
	ck_assert(p->weight_urgency == 0.5);
	ck_assert(p->weight_ticket == 0.5);
	ck_assert(p->weight_waiting_time == 0.278);
	ck_assert_uint_eq(p->halftime, 336);	/* 14 days */
	ck_assert_uint_eq(p->weight_tickets_share, 10000);
	ck_assert(prism_ge_get(pol, PRISM_GE_RESOURCE, PRISM_GE_RES_SLOTS)
			  ->urgency == 100.0);
	ck_assert(prism_ge_get(pol, PRISM_GE_PARTITION,
			       prism_ge_find(pol, PRISM_GE_PARTITION, "t2"))
			  ->urgency == 40000.0);
	ck_assert(prism_ge_get(pol, PRISM_GE_PARTITION,
			       prism_ge_find(pol, PRISM_GE_PARTITION, "u2"))
			  ->urgency == 80000.0);
	ck_assert_uint_eq(prism_ge_get(pol, PRISM_GE_ACCOUNT,
				       prism_ge_find(pol, PRISM_GE_ACCOUNT,
						     "grant1"))
				  ->oticket,
			  2000);
	/* the pasted non-priority lines, one notice each */
	ck_assert_uint_eq(prism_ge_policy_notice_count(pol), 17);
	for (size_t i = 0; i < 17; i++)
		ck_assert(!strncmp(prism_ge_policy_notice(pol, i),
				   "gridengine.conf:", 16));
	prism_ge_policy_free(pol);
	free(text);
}
END_TEST

/* ---- malformed lines -------------------------------------------------- */

static const struct {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *want;	/* the whole message */
} bad[] = {
	{ "weight_urgency abc", 0,
	  "ge.conf:1: weight_urgency: 'abc' is not a number" },
	{ "\n\n# c\n\nweight_urgency abc", 0,
	  "ge.conf:5: weight_urgency: 'abc' is not a number" },
	{ "weight_urgency -0.5", 0,
	  "ge.conf:1: weight_urgency: '-0.5' is out of range (0..1e+09)" },
	{ "weight_ticket 2e9", 0,
	  "ge.conf:1: weight_ticket: '2e9' is out of range (0..1e+09)" },
	{ "weight_deadline 1e13", 0,
	  "ge.conf:1: weight_deadline: '1e13' is out of range (0..1e+12)" },
	{ "weight_priority 1e999", 0,
	  "ge.conf:1: weight_priority: '1e999' is out of range (0..1e+09)" },
	{ "weight_priority nan", 0,
	  "ge.conf:1: weight_priority: 'nan' is not a number" },
	{ "weight_priority inf", 0,
	  "ge.conf:1: weight_priority: 'inf' is not a number" },
	{ "weight_priority 0x10", 0,
	  "ge.conf:1: weight_priority: '0x10' is not a number" },
	{ "weight_priority 1e", 0,
	  "ge.conf:1: weight_priority: '1e' is not a number" },
	{ "weight_priority .", 0,
	  "ge.conf:1: weight_priority: '.' is not a number" },
	{ "weight_priority 1,5", 0,
	  "ge.conf:1: weight_priority: '1,5' is not a number" },
	{ "weight_user -1", 0,
	  "ge.conf:1: weight_user: '-1' is out of range (0..1e+09)" },
	{ "compensation_factor -5", 0,
	  "ge.conf:1: compensation_factor: '-5' is out of range (0..1e+09)" },
	{ "halftime 1.5", 0, "ge.conf:1: halftime: '1.5' is not an integer" },
	{ "halftime -1", 0,
	  "ge.conf:1: halftime: '-1' is out of range (0..1000000)" },
	{ "halftime 2000000", 0,
	  "ge.conf:1: halftime: '2000000' is out of range (0..1000000)" },
	{ "weight_tickets_share 1e3", 0,
	  "ge.conf:1: weight_tickets_share: '1e3' is not an integer" },
	{ "weight_tickets_share 4294967296", 0,
	  "ge.conf:1: weight_tickets_share: '4294967296' is out of range "
	  "(0..1000000000)" },
	{ "max_functional_jobs_to_schedule 10000000", 0,
	  "ge.conf:1: max_functional_jobs_to_schedule: '10000000' is out of "
	  "range (0..1000000)" },
	{ "share_override_tickets maybe", 0,
	  "ge.conf:1: share_override_tickets: 'maybe' is not TRUE or FALSE" },
	{ "policy_hierarchy OFSD", 0,
	  "ge.conf:1: policy_hierarchy: 'OFSD' is not NONE or O, F and S at "
	  "most once each" },
	{ "policy_hierarchy OO", 0,
	  "ge.conf:1: policy_hierarchy: 'OO' is not NONE or O, F and S at "
	  "most once each" },
	{ "policy_hierarchy D", 0,
	  "ge.conf:1: policy_hierarchy: 'D' is not NONE or O, F and S at "
	  "most once each" },
	{ "weight_urgency", 0, "ge.conf:1: weight_urgency: missing value" },
	{ "weight_urgency   # comment", 0,
	  "ge.conf:1: weight_urgency: missing value" },
	{ "weight_urgency 1 2", 0,
	  "ge.conf:1: weight_urgency: more than one value" },
	{ "algorithm", 0, "ge.conf:1: algorithm: missing value" },
	/* a misspelt weight: refused, with the nearest name */
	{ "weight_urgncy 0.5", 0,
	  "ge.conf:1: 'weight_urgncy': unknown priority weight (did you mean weight_urgency?)" },
	{ "weight_tickets_shares 5", 0,
	  "ge.conf:1: 'weight_tickets_shares': unknown priority weight (did you mean weight_tickets_share?)" },
	{ "weight_ticket 0.5\nweight_host_sort x\nweight_urgency -1", 0,
	  "ge.conf:3: weight_urgency: '-1' is out of range (0..1e+09)" },
	{ "=5", 0, "ge.conf:1: '=5' is not a parameter name" },
	{ "weight-urgency 1", 0,
	  "ge.conf:1: 'weight-urgency' is not a parameter name" },
	{ "weight_urgency[x] 5", 0,
	  "ge.conf:1: weight_urgency: unexpected '[x]'" },
	{ "urgency_slots[x] 5", 0,
	  "ge.conf:1: urgency_slots: unexpected '[x]'" },
	{ "urgency_slots", 0, "ge.conf:1: urgency_slots: missing value" },
	{ "urgency_slots 1 2", 0,
	  "ge.conf:1: urgency_slots: more than one value" },
	{ "urgency_slots -100", 0,
	  "ge.conf:1: urgency_slots: '-100' is out of range (0..1e+09)" },
	{ "urgency 5", 0, "ge.conf:1: urgency: missing '[name]'" },
	{ "urgency[gres/gpu]", 0,
	  "ge.conf:1: urgency[gres/gpu]: missing value" },
	{ "urgency[gres/gpu] 1 2", 0,
	  "ge.conf:1: urgency[gres/gpu]: more than one value" },
	{ "urgency[gres/gpu] -1", 0,
	  "ge.conf:1: urgency[gres/gpu]: '-1' is out of range (0..1e+09)" },
	{ "urgency_partition[t2 40000", 0,
	  "ge.conf:1: 'urgency_partition[t2': missing ']'" },
	{ "urgency_partition] 40000", 0,
	  "ge.conf:1: 'urgency_partition]': ']' without '['" },
	{ "urgency_partition[] 40000", 0,
	  "ge.conf:1: 'urgency_partition[]': empty name in brackets" },
	{ "urgency_partition[a]x 40000", 0,
	  "ge.conf:1: 'urgency_partition[a]x': text after ']'" },
	{ "[a] 1", 0, "ge.conf:1: '[a]': missing name before '['" },
	{ "override_tickets_user[bob] 1.5", 0,
	  "ge.conf:1: override_tickets_user[bob]: '1.5' is not an integer" },
	{ "override_tickets_user[bob] -3", 0,
	  "ge.conf:1: override_tickets_user[bob]: '-3' is out of range "
	  "(0..1000000000)" },
	{ "functional_shares_account[x] lots", 0,
	  "ge.conf:1: functional_shares_account[x]: 'lots' is not a number" },
	{ "weight_urgency 0.5\nweight_urgency 0.6\n", 0,
	  "ge.conf:2: weight_urgency: '0.6' conflicts with line 1" },
	{ "halftime 1\n\nhalftime 2\n", 0,
	  "ge.conf:3: halftime: '2' conflicts with line 1" },
	{ "policy_hierarchy OFS\npolicy_hierarchy NONE\n", 0,
	  "ge.conf:2: policy_hierarchy: 'NONE' conflicts with line 1" },
	{ "report_pjob_tickets TRUE\nreport_pjob_tickets FALSE\n", 0,
	  "ge.conf:2: report_pjob_tickets: 'FALSE' conflicts with line 1" },
	{ "urgency_slots 100\nurgency[cpu] 200\n", 0,
	  "ge.conf:2: urgency[cpu]: '200' conflicts with line 1" },
	{ "functional_shares_user[a] 1\nfunctional_shares_user[a] 2", 0,
	  "ge.conf:2: functional_shares_user[a]: '2' conflicts with line 1" },
	{ "weight_urgency 0.5\xff", 0,
	  "ge.conf:1: invalid UTF-8 (byte 0xff at column 19)" },
	{ "weight_urgency 0.5\nurgency_partition[\xc3\x28] 1", 0,
	  "ge.conf:2: invalid UTF-8 (byte 0xc3 at column 19)" },
	{ "weight_urgency \xc0\x80", 0,
	  "ge.conf:1: invalid UTF-8 (byte 0xc0 at column 16)" },
	{ "urgency[\xed\xa0\x80] 1", 0,
	  "ge.conf:1: invalid UTF-8 (byte 0xed at column 9)" },
	{ "weight_urgency 1\0 2", 19, "ge.conf:1: NUL byte at column 17" },
	{ "\0", 1, "ge.conf:1: NUL byte at column 1" },
};

START_TEST(test_bad)
{
	prism_ge_policy_t *old = prism_ge_policy_default(), *pol = old;
	prism_error_t err = { "" };
	size_t len = bad[_i].len ? bad[_i].len : strlen(bad[_i].text);

	ck_assert_int_eq(prism_ge_conf_parse(bad[_i].text, len, "ge.conf", &pol,
					     &err),
			 -1);
	ck_assert_str_eq(err.text, bad[_i].want);
	/* no side effect: the caller keeps its policy */
	ck_assert_ptr_eq(pol, old);
	ck_assert(prism_ge_policy_params(pol)->weight_urgency == 0.5);
	prism_ge_policy_free(old);
}
END_TEST

START_TEST(test_overlong)
{
	char text[PRISM_GE_LINE_MAX + 64];
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	memset(text, ' ', sizeof(text));
	memcpy(text, "halftime 1\nweight_urgency 2", 27);
	ck_assert_int_eq(prism_ge_conf_parse(text, sizeof(text), "ge.conf",
					     &pol, &err),
			 -1);
	ck_assert_str_eq(err.text, "ge.conf:2: line is longer than 1024 bytes");
	ck_assert_ptr_null(pol);
	/* exactly the limit is fine */
	ck_assert_int_eq(prism_ge_conf_parse(text, 11 + 1024, "ge.conf", &pol,
					     &err),
			 0);
	ck_assert(prism_ge_policy_params(pol)->weight_urgency == 2.0);
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_empty)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_ge_conf_parse("", 0, "ge.conf", &pol, &err), -1);
	ck_assert_str_eq(err.text, "ge.conf: file is empty");
	ck_assert_int_eq(prism_ge_conf_parse(NULL, 0, "x.conf", &pol, &err),
			 -1);
	ck_assert_str_eq(err.text, "x.conf: file is empty");
	ck_assert_ptr_null(pol);
	/* one newline is not empty: every default */
	ck_assert_int_eq(prism_ge_conf_parse("\n", 1, "ge.conf", &pol, &err),
			 0);
	ck_assert(prism_ge_policy_params(pol)->weight_ticket == 0.5);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- bad parameters --------------------------------------------------- */

START_TEST(test_bad_param)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_ge_conf_parse(NULL, 5, "x.conf", &pol, &err),
			 -1);
	ck_assert_str_eq(err.text, "x.conf: bad parameter");
	ck_assert_int_eq(prism_ge_conf_parse("a 1", 3, NULL, NULL, &err), -1);
	ck_assert_str_eq(err.text, "(grid engine config): bad parameter");
	ck_assert_ptr_null(pol);
	/* a NULL err is allowed */
	ck_assert_int_eq(prism_ge_conf_parse("X[", 2, "x", &pol, NULL), -1);
	ck_assert_int_eq(prism_ge_conf_parse("#", 1, NULL, &pol, &err), 0);
	ck_assert_ptr_null(prism_ge_policy_params(NULL));
	ck_assert_uint_eq(prism_ge_find(NULL, PRISM_GE_USER, "a"),
			  PRISM_GE_NONE);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_KIND_CNT, "a"),
			  PRISM_GE_NONE);
	ck_assert_uint_eq(prism_ge_find(pol, PRISM_GE_USER, NULL),
			  PRISM_GE_NONE);
	ck_assert_ptr_null(prism_ge_get(pol, PRISM_GE_USER, 0));
	ck_assert_ptr_null(prism_ge_get(pol, PRISM_GE_RESOURCE, 3));
	ck_assert_ptr_null(prism_ge_get(pol, PRISM_GE_USER, PRISM_GE_NONE));
	ck_assert_ptr_null(prism_ge_get(NULL, PRISM_GE_RESOURCE, 0));
	ck_assert_ptr_null(prism_ge_get(pol, PRISM_GE_KIND_CNT, 0));
	ck_assert_uint_eq(prism_ge_count(pol, PRISM_GE_KIND_CNT), 0);
	ck_assert_uint_eq(prism_ge_count(NULL, PRISM_GE_RESOURCE), 0);
	ck_assert_uint_eq(prism_ge_policy_notice_count(NULL), 0);
	ck_assert_ptr_null(prism_ge_policy_notice(NULL, 0));
	ck_assert_ptr_null(prism_ge_policy_notice(pol, 0));
	ck_assert_ptr_null(prism_ge_kind_name(PRISM_GE_KIND_CNT));
	ck_assert_str_eq(prism_ge_kind_name(PRISM_GE_PARTITION), "partition");
	ck_assert_ptr_null(prism_ge_tpolicy_name(PRISM_GE_TPOLICY_CNT));
	ck_assert_str_eq(prism_ge_tpolicy_name(PRISM_GE_SHARETREE),
			 "share-tree");
	prism_ge_policy_free(pol);
	prism_ge_policy_free(NULL);
}
END_TEST

extern Suite *ge_conf_suite(void)
{
	Suite *s = suite_create("ge_conf");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_param, 0, N(params));
	tcase_add_loop_test(tc, test_hierarchy, 0, N(hier));
	tcase_add_loop_test(tc, test_entry, 0, N(entries));
	tcase_add_test(tc, test_entry_merge);
	tcase_add_test(tc, test_entry_scale);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_ssconf);
	tcase_add_test(tc, test_ignored_forms);
	tcase_add_loop_test(tc, test_ge8, 0, N(ge8));
	tcase_add_test(tc, test_same_twice);
	tcase_add_loop_test(tc, test_kept, 0, N(kept));
	tcase_add_test(tc, test_example);
	tcase_add_loop_test(tc, test_bad, 0, N(bad));
	tcase_add_test(tc, test_overlong);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
