/*****************************************************************************\
 *  test_moab_conf.c - unit tests of prism_moab_conf: every priority
 *  parameter, credential lines, fair-share targets, defaults, comments,
 *  ignored parameters with their notices, malformed lines with their
 *  exact messages, and single lines classified for prism convert.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_moab_conf.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static prism_moab_policy_t *_parse(const char *text)
{
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_moab_conf_parse(text, strlen(text), "moab.cfg",
					     &pol, &err),
		      "'%s': %s", text, err.text);
	ck_assert_ptr_nonnull(pol);
	return pol;
}

/* ---- one row per parameter -------------------------------------------- */

enum { CW, CC, SW, SC, MISC };
enum { M_XFMIN, M_FSINT, M_FSDEPTH, M_FSDECAY, M_FSPOL, M_MAXPRIO, M_NEG,
       M_REJ, M_POSUP };

static const struct {
	const char *line;
	int where;	/* CW/CC: component weight/cap, SW/SC: sub, MISC */
	int idx;
	double want;
} params[] = {
	{ "CREDWEIGHT 2", CW, PRISM_MC_CRED, 2 },
	{ "FSWEIGHT 100", CW, PRISM_MC_FS, 100 },
	{ "RESWEIGHT -3", CW, PRISM_MC_RES, -3 },
	{ "SERVICEWEIGHT 4", CW, PRISM_MC_SERV, 4 },
	{ "SERVWEIGHT 5", CW, PRISM_MC_SERV, 5 },
	{ "TARGETWEIGHT 6", CW, PRISM_MC_TARGET, 6 },
	{ "TARGWEIGHT 7", CW, PRISM_MC_TARGET, 7 },
	{ "USAGEWEIGHT 8", CW, PRISM_MC_USAGE, 8 },
	{ "ATTRWEIGHT 9", CW, PRISM_MC_ATTR, 9 },
	{ "CREDCAP 10", CC, PRISM_MC_CRED, 10 },
	{ "FSCAP 11", CC, PRISM_MC_FS, 11 },
	{ "RESCAP 12", CC, PRISM_MC_RES, 12 },
	{ "SERVICECAP 13", CC, PRISM_MC_SERV, 13 },
	{ "SERVCAP 14", CC, PRISM_MC_SERV, 14 },
	{ "TARGETCAP 15", CC, PRISM_MC_TARGET, 15 },
	{ "TARGCAP 16", CC, PRISM_MC_TARGET, 16 },
	{ "USAGECAP 17", CC, PRISM_MC_USAGE, 17 },
	{ "ATTRCAP 18", CC, PRISM_MC_ATTR, 18 },
	{ "USERWEIGHT 21", SW, PRISM_MS_USER, 21 },
	{ "GROUPWEIGHT 22", SW, PRISM_MS_GROUP, 22 },
	{ "ACCOUNTWEIGHT 23", SW, PRISM_MS_ACCOUNT, 23 },
	{ "QOSWEIGHT 24", SW, PRISM_MS_QOS, 24 },
	{ "CLASSWEIGHT 25", SW, PRISM_MS_CLASS, 25 },
	{ "FSUSERWEIGHT 26", SW, PRISM_MS_FSUSER, 26 },
	{ "FSGROUPWEIGHT 27", SW, PRISM_MS_FSGROUP, 27 },
	{ "FSACCOUNTWEIGHT 28", SW, PRISM_MS_FSACCOUNT, 28 },
	{ "FSQOSWEIGHT 29", SW, PRISM_MS_FSQOS, 29 },
	{ "FSCLASSWEIGHT 30", SW, PRISM_MS_FSCLASS, 30 },
	{ "FSGUSERWEIGHT 31", SW, PRISM_MS_FSGUSER, 31 },
	{ "FSGGROUPWEIGHT 32", SW, PRISM_MS_FSGGROUP, 32 },
	{ "FSGACCOUNTWEIGHT 33", SW, PRISM_MS_FSGACCOUNT, 33 },
	{ "FSJPUWEIGHT 34", SW, PRISM_MS_FSJPU, 34 },
	{ "FSPPUWEIGHT 35", SW, PRISM_MS_FSPPU, 35 },
	{ "FSPSPUWEIGHT 36", SW, PRISM_MS_FSPSPU, 36 },
	{ "WCACCURACYWEIGHT 37", SW, PRISM_MS_WCACCURACY, 37 },
	{ "NODEWEIGHT 38", SW, PRISM_MS_NODE, 38 },
	{ "PROCWEIGHT 39", SW, PRISM_MS_PROC, 39 },
	{ "MEMWEIGHT 40", SW, PRISM_MS_MEM, 40 },
	{ "SWAPWEIGHT 41", SW, PRISM_MS_SWAP, 41 },
	{ "DISKWEIGHT 42", SW, PRISM_MS_DISK, 42 },
	{ "PSWEIGHT 43", SW, PRISM_MS_PS, 43 },
	{ "PEWEIGHT 44", SW, PRISM_MS_PE, 44 },
	{ "WALLTIMEWEIGHT 45", SW, PRISM_MS_WALLTIME, 45 },
	{ "QUEUETIMEWEIGHT 46", SW, PRISM_MS_QUEUETIME, 46 },
	{ "XFACTORWEIGHT 47", SW, PRISM_MS_XFACTOR, 47 },
	{ "BYPASSWEIGHT 48", SW, PRISM_MS_BYPASS, 48 },
	{ "STARTCOUNTWEIGHT 49", SW, PRISM_MS_STARTCOUNT, 49 },
	{ "DEADLINEWEIGHT 50", SW, PRISM_MS_DEADLINE, 50 },
	{ "SPVIOLATIONWEIGHT 51", SW, PRISM_MS_SPVIOLATION, 51 },
	{ "USERPRIOWEIGHT 52", SW, PRISM_MS_USERPRIO, 52 },
	{ "TARGETQUEUETIMEWEIGHT 53", SW, PRISM_MS_TARGETQUEUETIME, 53 },
	{ "TARGETXFACTORWEIGHT 54", SW, PRISM_MS_TARGETXFACTOR, 54 },
	{ "CONSUMEDWEIGHT 55", SW, PRISM_MS_CONSUMED, 55 },
	{ "USAGECONSUMEDWEIGHT 56", SW, PRISM_MS_CONSUMED, 56 },
	{ "USAGEHUNGERWEIGHT 57", SW, PRISM_MS_HUNGER, 57 },
	{ "REMAININGWEIGHT 58", SW, PRISM_MS_REMAINING, 58 },
	{ "USAGEREMAININGWEIGHT 59", SW, PRISM_MS_REMAINING, 59 },
	{ "PERCENTWEIGHT 60", SW, PRISM_MS_PERCENT, 60 },
	{ "USAGEPERCENTWEIGHT 61", SW, PRISM_MS_PERCENT, 61 },
	{ "EXECUTIONTIMEWEIGHT 62", SW, PRISM_MS_EXECUTIONTIME, 62 },
	{ "USAGEEXECUTIONTIMEWEIGHT 63", SW, PRISM_MS_EXECUTIONTIME, 63 },
	{ "ATTRATTRWEIGHT 64", SW, PRISM_MS_ATTRATTR, 64 },
	{ "ATTRSTATEWEIGHT 65", SW, PRISM_MS_ATTRSTATE, 65 },
	{ "ATTRGRESWEIGHT 66", SW, PRISM_MS_ATTRGRES, 66 },
	{ "XFACTORCAP 70", SC, PRISM_MS_XFACTOR, 70 },
	{ "QUEUETIMECAP 71", SC, PRISM_MS_QUEUETIME, 71 },
	{ "USERCAP 72", SC, PRISM_MS_USER, 72 },
	{ "FSUSERCAP 73", SC, PRISM_MS_FSUSER, 73 },
	{ "PECAP 74", SC, PRISM_MS_PE, 74 },
	{ "ATTRGRESCAP 75", SC, PRISM_MS_ATTRGRES, 75 },
	{ "XFMINWCLIMIT 0:02:00", MISC, M_XFMIN, 120 },
	{ "XFMINWCLIMIT 300", MISC, M_XFMIN, 300 },
	{ "FSINTERVAL 1:00:00:00", MISC, M_FSINT, 86400 },
	{ "FSINTERVAL 12:00:00", MISC, M_FSINT, 43200 },
	{ "FSDEPTH 14", MISC, M_FSDEPTH, 14 },
	{ "FSDECAY 0.5", MISC, M_FSDECAY, 0.5 },
	{ "FSPOLICY DEDICATEDPS", MISC, M_FSPOL, PRISM_MOAB_FS_DEDICATEDPS },
	{ "FSPOLICY dedicatedpes", MISC, M_FSPOL,
	  PRISM_MOAB_FS_DEDICATEDPES },
	{ "FSPOLICY UTILIZEDPS", MISC, M_FSPOL, PRISM_MOAB_FS_UTILIZEDPS },
	{ "MAX_PRIO_VAL 5000", MISC, M_MAXPRIO, 5000 },
	{ "ENABLENEGJOBPRIORITY TRUE", MISC, M_NEG, 1 },
	{ "REJECTNEGPRIOJOBS yes", MISC, M_REJ, 1 },
	{ "ENABLEPOSUSERPRIORITY TRUE", MISC, M_POSUP, 1 },
	{ "fsweight 12", CW, PRISM_MC_FS, 12 },
};

static double _misc(const prism_moab_params_t *p, int idx)
{
	switch (idx) {
	case M_XFMIN:
		return p->xf_min_wclimit;
	case M_FSINT:
		return p->fs_interval;
	case M_FSDEPTH:
		return p->fs_depth;
	case M_FSDECAY:
		return p->fs_decay;
	case M_FSPOL:
		return p->fs_policy;
	case M_MAXPRIO:
		return p->max_prio;
	case M_NEG:
		return p->enable_neg;
	case M_REJ:
		return p->reject_neg;
	case M_POSUP:
		return p->enable_pos_userprio;
	}
	return NAN;
}

START_TEST(test_param)
{
	prism_moab_policy_t *pol = _parse(params[_i].line);
	const prism_moab_params_t *p = prism_moab_policy_params(pol);
	int idx = params[_i].idx;
	double got = NAN;

	switch (params[_i].where) {
	case CW:
		got = p->comp_weight[idx];
		break;
	case CC:
		got = p->comp_cap[idx];
		break;
	case SW:
		got = p->sub_weight[idx];
		break;
	case SC:
		got = p->sub_cap[idx];
		break;
	case MISC:
		got = _misc(p, idx);
		break;
	}
	ck_assert_msg(got == params[_i].want, "'%s': got %g", params[_i].line,
		      got);
	ck_assert_uint_eq(prism_moab_policy_notice_count(pol), 0);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- defaults --------------------------------------------------------- */

START_TEST(test_defaults)
{
	prism_moab_policy_t *pol = _parse("");
	prism_moab_policy_t *def = prism_moab_policy_default();
	const prism_moab_params_t *p = prism_moab_policy_params(pol);

	for (int c = 0; c < PRISM_MC_CNT; c++) {
		ck_assert_int_eq(p->comp_weight[c], 1);
		ck_assert_int_eq(p->comp_cap[c], 0);
	}
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		ck_assert_int_eq(p->sub_weight[s],
				 s == PRISM_MS_QUEUETIME ? 1 : 0);
		ck_assert_int_eq(p->sub_cap[s], 0);
	}
	ck_assert_int_eq(p->max_prio, 1000000000);
	ck_assert(!p->enable_neg && !p->reject_neg && !p->enable_pos_userprio);
	ck_assert_int_eq(p->fs_policy, PRISM_MOAB_FS_OFF);
	ck_assert_int_eq(p->fs_interval, 43200);
	ck_assert_uint_eq(p->fs_depth, 8);
	ck_assert(p->fs_decay == 1.0);
	ck_assert_int_eq(p->xf_min_wclimit, 0);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		ck_assert_uint_eq(prism_moab_cred_count(pol, k), 0);
	ck_assert_uint_eq(prism_moab_policy_notice_count(pol), 0);
	ck_assert(!memcmp(p, prism_moab_policy_params(def), sizeof(*p)));
	prism_moab_policy_free(pol);
	prism_moab_policy_free(def);
}
END_TEST

/* ---- comments, blank lines, whitespace -------------------------------- */

START_TEST(test_layout)
{
	const char *text = "# Moab priorities\n"
			   "\n"
			   "   \t  \n"
			   "\tFSWEIGHT\t 100   # trailing comment\r\n"
			   "  USERWEIGHT 3\n"
			   "#USERWEIGHT 4\n"
			   "QOSWEIGHT 7"; /* no final newline */
	prism_moab_policy_t *pol = _parse(text);
	const prism_moab_params_t *p = prism_moab_policy_params(pol);

	ck_assert_int_eq(p->comp_weight[PRISM_MC_FS], 100);
	ck_assert_int_eq(p->sub_weight[PRISM_MS_USER], 3);
	ck_assert_int_eq(p->sub_weight[PRISM_MS_QOS], 7);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- credential lines ------------------------------------------------- */

static const struct {
	const char *what;
	const char *text;
	prism_moab_cred_kind_t kind;
	const char *name;
	prism_moab_cred_t want;
} creds[] = {
	{ "user priority (seed 002)", "USERCFG[john] PRIORITY=2000",
	  PRISM_MOAB_USER, "john", { .prio = 2000, .prio_set = true } },
	{ "negative priority", "USERCFG[paul]   PRIORITY=-1000",
	  PRISM_MOAB_USER, "paul", { .prio = -1000, .prio_set = true } },
	{ "group priority and plain target",
	  "GROUPCFG[staff] PRIORITY=10000 FSTARGET=25", PRISM_MOAB_GROUP,
	  "staff", { .prio = 10000, .prio_set = true,
		     .fs_type = PRISM_MOAB_FST_TARGET, .fs_target = 25 } },
	{ "floor target", "ACCOUNTCFG[chem] FSTARGET=10+", PRISM_MOAB_ACCOUNT,
	  "chem", { .fs_type = PRISM_MOAB_FST_FLOOR, .fs_target = 10 } },
	{ "ceiling target", "QOSCFG[low] FSTARGET=12.5-", PRISM_MOAB_QOS,
	  "low", { .fs_type = PRISM_MOAB_FST_CEILING, .fs_target = 12.5 } },
	{ "cap target", "CLASSCFG[batch] FSTARGET=5^", PRISM_MOAB_CLASS,
	  "batch", { .fs_type = PRISM_MOAB_FST_CAP, .fs_target = 5 } },
	{ "QOS weights and targets (seed 000)",
	  "QOSCFG[special] QTWEIGHT=5000 XFWEIGHT=300 QTTARGET=2:00:00 "
	  "XFTARGET=4.5", PRISM_MOAB_QOS, "special",
	  { .qt_weight = 5000, .xf_weight = 300, .qt_target = 7200,
	    .xf_target = 4.5 } },
	{ "group fair-share weight", "GROUPCFG[g] FSWEIGHT=5",
	  PRISM_MOAB_GROUP, "g", { .fs_weight = 5 } },
	{ "two lines merge",
	  "USERCFG[ann] PRIORITY=1\nUSERCFG[ann] FSTARGET=30\n",
	  PRISM_MOAB_USER, "ann", { .prio = 1, .prio_set = true,
				    .fs_type = PRISM_MOAB_FST_TARGET,
				    .fs_target = 30 } },
	{ "keys without regard to case", "usercfg[Bo] priority=4",
	  PRISM_MOAB_USER, "Bo", { .prio = 4, .prio_set = true } },
};

START_TEST(test_cred)
{
	prism_moab_policy_t *pol = _parse(creds[_i].text);
	uint32_t idx = prism_moab_cred_find(pol, creds[_i].kind,
					    creds[_i].name);
	const prism_moab_cred_t *c = prism_moab_cred_get(pol, creds[_i].kind,
							 idx);
	const prism_moab_cred_t *w = &creds[_i].want;

	ck_assert_msg(c, "%s: not found", creds[_i].what);
	ck_assert_str_eq(c->name, creds[_i].name);
	ck_assert_msg(c->prio == w->prio && c->prio_set == w->prio_set &&
			      c->fs_type == w->fs_type &&
			      c->fs_target == w->fs_target &&
			      c->fs_weight == w->fs_weight &&
			      c->qt_weight == w->qt_weight &&
			      c->xf_weight == w->xf_weight &&
			      c->qt_target == w->qt_target &&
			      c->xf_target == w->xf_target,
		      "%s: fields differ", creds[_i].what);
	ck_assert_uint_eq(prism_moab_cred_count(pol, creds[_i].kind), 1);
	/* names are case-sensitive; other kinds are separate */
	ck_assert_uint_eq(prism_moab_cred_find(pol, creds[_i].kind, "nobody"),
			  PRISM_MOAB_NONE);
	ck_assert_uint_eq(prism_moab_cred_find(pol, (creds[_i].kind + 1) %
							    PRISM_MOAB_CRED_CNT,
					       creds[_i].name),
			  PRISM_MOAB_NONE);
	prism_moab_policy_free(pol);
}
END_TEST

/* The seed's credential example, and many credentials at once. */
START_TEST(test_cred_scale)
{
	enum { USERS = 20000 };
	size_t size = USERS * 48, len = 0;
	char *text = malloc(size), name[32];
	prism_moab_policy_t *pol;

	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < USERS; i++)
		len += snprintf(text + len, size - len,
				"USERCFG[u%d] PRIORITY=%d FSTARGET=%d\n", i, i,
				i % 100);
	pol = _parse(text);
	ck_assert_uint_eq(prism_moab_cred_count(pol, PRISM_MOAB_USER), USERS);
	for (int i = 0; i < USERS; i++) {
		uint32_t idx;

		snprintf(name, sizeof(name), "u%d", i);
		idx = prism_moab_cred_find(pol, PRISM_MOAB_USER, name);
		ck_assert_uint_eq(idx, (uint32_t) i);
		ck_assert_int_eq(prism_moab_cred_get(pol, PRISM_MOAB_USER,
						     idx)->prio, i);
	}
	ck_assert_uint_eq(prism_moab_cred_find(pol, PRISM_MOAB_USER, "u-1"),
			  PRISM_MOAB_NONE);
	prism_moab_policy_free(pol);
	free(text);
}
END_TEST

START_TEST(test_jobprio)
{
	prism_moab_policy_t *pol = _parse(
		"# favor suspended jobs\n"
		"JOBPRIOF STATE[Running]=100  STATE[Suspended]=1000  "
		"ATTR[PREEMPTEE]=-200  ATTR[gpfs]=30  GRES[matlab]=400\n"
		"JOBPRIOF ATTR[gpfs]=35\n");
	const prism_moab_params_t *p = prism_moab_policy_params(pol);

	ck_assert_int_eq(p->state_prio[PRISM_MOAB_RUNNING], 100);
	ck_assert_int_eq(p->state_prio[PRISM_MOAB_SUSPENDED], 1000);
	ck_assert_int_eq(p->state_prio[PRISM_MOAB_IDLE], 0);
	ck_assert_int_eq(prism_moab_attr_bit(pol, "preemptee"), 0);
	ck_assert_int_eq(prism_moab_attr_bit(pol, "gpfs"), 1);
	ck_assert_int_eq(prism_moab_attr_bit(pol, "lustre"), -1);
	ck_assert_int_eq(prism_moab_attr_prio(pol, 0), -200);
	ck_assert_int_eq(prism_moab_attr_prio(pol, 1), 35);
	ck_assert_int_eq(prism_moab_gres_bit(pol, "matlab"), 0);
	ck_assert_int_eq(prism_moab_gres_prio(pol, 0), 400);
	ck_assert_int_eq(prism_moab_gres_prio(pol, 5), 0);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- ignored parameters ----------------------------------------------- */

START_TEST(test_ignored)
{
	prism_moab_policy_t *pol = _parse(
		"SCHEDCFG[Moab] SERVER=head:42559\n"
		"LOGLEVEL 3\n"
		"USERCFG[bob] MAXJOB=4 PRIORITY=5\n"
		"FSWEIGHT 10\n"
		"RMCFG[base] TYPE=PBS\n");
	static const char *want[] = {
		"moab.cfg:1: SCHEDCFG[Moab]: not a priority parameter, "
		"ignored",
		"moab.cfg:2: LOGLEVEL: not a priority parameter, ignored",
		"moab.cfg:3: USERCFG[bob] MAXJOB: not a priority attribute, "
		"ignored",
		"moab.cfg:5: RMCFG[base]: not a priority parameter, ignored",
	};

	ck_assert_uint_eq(prism_moab_policy_notice_count(pol), N(want));
	for (int i = 0; i < N(want); i++)
		ck_assert_str_eq(prism_moab_policy_notice(pol, i), want[i]);
	ck_assert_ptr_null(prism_moab_policy_notice(pol, N(want)));
	ck_assert_int_eq(prism_moab_cred_get(pol, PRISM_MOAB_USER, 0)->prio,
			 5);
	ck_assert_int_eq(prism_moab_policy_params(pol)->comp_weight[1], 10);
	ck_assert_uint_eq(prism_moab_policy_kept(pol), 2);
	prism_moab_policy_free(pol);
}
END_TEST

/* A file of another policy (Grid Engine's sched_conf) parses with every
 * line ignored: nothing read, which whatif refuses (issue 35). */
START_TEST(test_nothing_kept)
{
	prism_moab_policy_t *pol = _parse("algorithm default\n"
					  "weight_ticket 0.01\n"
					  "weight_urgency 0.1\n");

	ck_assert_uint_eq(prism_moab_policy_kept(pol), 0);
	ck_assert_uint_eq(prism_moab_policy_notice_count(pol), 3);
	prism_moab_policy_free(pol);
	pol = _parse("# comments only\n");
	ck_assert_uint_eq(prism_moab_policy_kept(pol), 0);
	ck_assert_uint_eq(prism_moab_policy_notice_count(pol), 0);
	prism_moab_policy_free(pol);
	ck_assert_uint_eq(prism_moab_policy_kept(NULL), 0);
}
END_TEST

/* ---- files real sites ran (issue 15) ---------------------------------- */

enum { C_NONE = MISC + 1, C_PRIO, C_TARGET, C_TYPE };

/*
 * Each row: a text Moab or Maui accepted, one value it must set (where,
 * idx, want as in params[]; C_PRIO/C_TARGET/C_TYPE: credential "x" of
 * kind idx), and every notice it must give, in order.
 */
static const struct {
	const char *what;
	const char *text;
	int where, idx;
	double want;
	const char *notice[4];
} compat[] = {
	{ "a limit attribute on a CFG line",
	  "CLASSCFG[x] MAXNODEPERUSER=4 PRIORITY=7", C_PRIO, PRISM_MOAB_CLASS,
	  7, { "moab.cfg:1: CLASSCFG[x] MAXNODEPERUSER: not an attribute Prism reads (not about priority), ignored" } },
	{ "an attribute with a qualifier in brackets",
	  "CLASSCFG[x] MAXPROC[USER:bob]=192 PRIORITY=3", C_PRIO,
	  PRISM_MOAB_CLASS, 3,
	  { "moab.cfg:1: CLASSCFG[x] MAXPROC[USER:bob]: not a priority attribute, ignored" } },
	{ "FEATURES+= and an empty value",
	  "CLASSCFG[x] FEATURES+=gpu PLIST= PRIORITY=2", C_PRIO,
	  PRISM_MOAB_CLASS, 2,
	  { "moab.cfg:1: CLASSCFG[x] FEATURES+: not a priority attribute, ignored",
	    "moab.cfg:1: CLASSCFG[x] PLIST: not a priority attribute, ignored" } },
	{ "a class target above 100: used as written",
	  "CLASSCFG[x] FSTARGET=200", C_TARGET, PRISM_MOAB_CLASS, 200,
	  { "moab.cfg:1: CLASSCFG[x] FSTARGET: 200% is above 100: used as written (delta = target - usage, never reached) (Moab documents no cap or rescaling)" } },
	{ "targets summing past 100: one notice, each used as written",
	  "USERCFG[a] FSTARGET=60\nUSERCFG[x] FSTARGET=50\n"
	  "USERCFG[b] FSTARGET=5", C_TARGET, PRISM_MOAB_USER, 50,
	  { "moab.cfg:2: USERCFG FSTARGET: the user targets sum to 110%, past 100: each is used as written (delta = target - usage) (Moab documents no cap or rescaling)" } },
	{ "a target rewritten below the sum: no notice",
	  "USERCFG[x] FSTARGET=60\nUSERCFG[x] FSTARGET=50\n", C_TARGET,
	  PRISM_MOAB_USER, 50, { NULL } },
	{ "a floor", "GROUPCFG[x] FSTARGET=35+", C_TYPE, PRISM_MOAB_GROUP,
	  PRISM_MOAB_FST_FLOOR, { NULL } },
	{ "a ceiling with a decimal", "ACCOUNTCFG[x] FSTARGET=10.0-",
	  C_TARGET, PRISM_MOAB_ACCOUNT, 10, { NULL } },
	{ "RESOURCEWEIGHT is RESWEIGHT", "RESOURCEWEIGHT 7", CW, PRISM_MC_RES,
	  7, { "moab.cfg:1: RESOURCEWEIGHT: older name of RESWEIGHT, read as RESWEIGHT" } },
	{ "RESOURCECAP is RESCAP", "RESOURCECAP 70", CC, PRISM_MC_RES, 70,
	  { "moab.cfg:1: RESOURCECAP: older name of RESCAP, read as RESCAP" } },
	{ "XFACTOR is XFACTORWEIGHT", "XFACTOR 3", SW, PRISM_MS_XFACTOR, 3,
	  { "moab.cfg:1: XFACTOR: older name of XFACTORWEIGHT, read as XFACTORWEIGHT" } },
	{ "FSPOLICY PSDEDICATED", "FSPOLICY PSDEDICATED", MISC, M_FSPOL,
	  PRISM_MOAB_FS_DEDICATEDPS,
	  { "moab.cfg:1: FSPOLICY: PSDEDICATED is Maui's older name of DEDICATEDPS" } },
	{ "FSPOLICY PSUTILIZED", "FSPOLICY psutilized", MISC, M_FSPOL,
	  PRISM_MOAB_FS_UTILIZEDPS,
	  { "moab.cfg:1: FSPOLICY: PSUTILIZED is Maui's older name of UTILIZEDPS" } },
	{ "FSPOLICY PEDEDICATED", "FSPOLICY PEDEDICATED", MISC, M_FSPOL,
	  PRISM_MOAB_FS_DEDICATEDPES,
	  { "moab.cfg:1: FSPOLICY: PEDEDICATED is Maui's older name of DEDICATEDPES" } },
	{ "D:HH:MM:SS", "FSINTERVAL 1:00:00:00", MISC, M_FSINT, 86400,
	  { NULL } },
	{ "hours past 24", "FSINTERVAL 168:00:00", MISC, M_FSINT, 604800,
	  { NULL } },
	{ "H:M:S unpadded", "XFMINWCLIMIT 0:2:0", MISC, M_XFMIN, 120,
	  { NULL } },
	{ "HH:MM:SS padded", "XFMINWCLIMIT 00:10:00", MISC, M_XFMIN, 600,
	  { NULL } },
	{ "a bare number of seconds", "FSINTERVAL 3600", MISC, M_FSINT, 3600,
	  { NULL } },
	{ "a comment after a value, TABs", "FSWEIGHT\t\t10\t# fair\n",
	  CW, PRISM_MC_FS, 10, { NULL } },
	{ "the same parameter twice: the last wins",
	  "FSWEIGHT 10\nFSWEIGHT 20\n", CW, PRISM_MC_FS, 20, { NULL } },
	{ "the same CFG on several lines: merged",
	  "CLASSCFG[x] PRIORITY=4\nCLASSCFG[x] FSTARGET=20\n", C_PRIO,
	  PRISM_MOAB_CLASS, 4, { NULL } },
	{ "ENABLENEGJOBPRIORITY 0 is false",
	  "ENABLENEGJOBPRIORITY 1\nENABLENEGJOBPRIORITY 0\n", MISC, M_NEG,
	  0, { NULL } },
	{ "#INCLUDE is a notice, not a comment",
	  "#INCLUDE /etc/moab/limits.cfg\n# a comment\nFSWEIGHT 3", CW,
	  PRISM_MC_FS, 3,
	  { "moab.cfg:1: #INCLUDE: included files are not read (convert and check each one alone)" } },
	{ "RMCFG over two lines",
	  "RMCFG[base] TYPE=PBS \\\n   SUBMITCMD=/usr/bin/qsub\nFSWEIGHT 4",
	  CW, PRISM_MC_FS, 4,
	  { "moab.cfg:1: RMCFG[base]: not a priority parameter, ignored",
	    "moab.cfg:2: 'SUBMITCMD=/usr/bin/qsub': a value without a parameter name (the rest of the line before?), ignored" } },
	{ "a parameter without a value that is not about priority",
	  "DISPLAYFLAGS\nFSWEIGHT 5", CW, PRISM_MC_FS, 5,
	  { "moab.cfg:1: DISPLAYFLAGS: no value, not a priority parameter, ignored" } },
	{ "a CFG line without attributes", "USERCFG[x]\nFSWEIGHT 6", CW,
	  PRISM_MC_FS, 6,
	  { "moab.cfg:1: USERCFG[x]: no attributes, ignored" } },
	{ "a QOS attribute on another CFG line: ignored",
	  "CLASSCFG[x] QTWEIGHT=5 PRIORITY=1", C_PRIO, PRISM_MOAB_CLASS, 1,
	  { "moab.cfg:1: CLASSCFG[x] QTWEIGHT: only QOSCFG has it (Moab ignores it here), ignored" } },
	{ "FSPOLICY in Moab's percentage form", "FSPOLICY DEDICATEDPS%", MISC,
	  M_FSPOL, PRISM_MOAB_FS_DEDICATEDPS,
	  { "moab.cfg:1: FSPOLICY: DEDICATEDPS% read as DEDICATEDPS (the '%' form is not modelled)" } },
	{ "a Moab *WEIGHT that is not about priority",
	  "PREEMPTPRIOJOBSELECTWEIGHT 2\nFSWEIGHT 7", CW, PRISM_MC_FS, 7,
	  { "moab.cfg:1: PREEMPTPRIOJOBSELECTWEIGHT: not a priority parameter, ignored" } },
};

/* The value row 'r' of compat[] checks, from 'pol'. */
static double _compat_got(const prism_moab_policy_t *pol, int r)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pol);
	prism_moab_cred_kind_t kind = (prism_moab_cred_kind_t) compat[r].idx;
	const prism_moab_cred_t *e = prism_moab_cred_get(
		pol, kind, prism_moab_cred_find(pol, kind, "x"));
	int idx = compat[r].idx;

	switch (compat[r].where) {
	case CW:
		return p->comp_weight[idx];
	case CC:
		return p->comp_cap[idx];
	case SW:
		return p->sub_weight[idx];
	case MISC:
		return _misc(p, idx);
	case C_PRIO:
		return e ? e->prio : NAN;
	case C_TARGET:
		return e ? e->fs_target : NAN;
	case C_TYPE:
		return e ? e->fs_type : NAN;
	}
	return NAN;
}

START_TEST(test_compat)
{
	prism_moab_policy_t *pol = _parse(compat[_i].text);
	double got = _compat_got(pol, _i);
	size_t n = 0;

	ck_assert_msg(got == compat[_i].want, "%s: got %g, not %g",
		      compat[_i].what, got, compat[_i].want);
	while (n < 4 && compat[_i].notice[n])
		n++;
	ck_assert_msg(prism_moab_policy_notice_count(pol) == n,
		      "%s: %zu notices, not %zu (first: %s)", compat[_i].what,
		      prism_moab_policy_notice_count(pol), n,
		      prism_moab_policy_notice(pol, 0));
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(prism_moab_policy_notice(pol, i),
				 compat[_i].notice[i]);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- malformed lines -------------------------------------------------- */

static const struct {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *want;	/* the whole message */
} bad[] = {
	{ "FSWEIGHT abc", 0, "moab.cfg:1: FSWEIGHT: 'abc' is not a number" },
	/* a weight or cap Moab does not have: a misspelling, not a notice */
	{ "QUEUETIMWEIGHT 5", 0,
	  "moab.cfg:1: QUEUETIMWEIGHT: unknown priority weight or cap (did you mean QUEUETIMEWEIGHT?)" },
	{ "xfactrcap 5", 0,
	  "moab.cfg:1: xfactrcap: unknown priority weight or cap (did you mean XFACTORCAP?)" },
	/* the nearest name may be an older one */
	{ "RESORCEWEIGHT 5", 0,
	  "moab.cfg:1: RESORCEWEIGHT: unknown priority weight or cap (did you mean RESOURCEWEIGHT?)" },
	{ "FSUSRWEIGHT 5", 0,
	  "moab.cfg:1: FSUSRWEIGHT: unknown priority weight or cap (did you mean FSUSERWEIGHT?)" },
	{ "RESOURCEWEIGHT 1.5", 0,
	  "moab.cfg:1: RESOURCEWEIGHT: '1.5' is not an integer" },
	{ "XFACTOR 3x", 0, "moab.cfg:1: XFACTOR: '3x' is not a number" },
	{ "FSPOLICY PSDEDICATEDX", 0,
	  "moab.cfg:1: FSPOLICY: unknown policy 'PSDEDICATEDX'" },
	{ "CLASSCFG[x] FSTARGET=-5", 0,
	  "moab.cfg:1: CLASSCFG[x] FSTARGET: '-5' is out of range "
	  "(0..1e+06)" },
	{ "CLASSCFG[x] MAXNODEPERUSER=4 PRIORITY=x", 0,
	  "moab.cfg:1: CLASSCFG[x] PRIORITY: 'x' is not a number" },
	{ "\n\n\n\n\n\n\n\n\n\n\nFSWEIGHT abc", 0,
	  "moab.cfg:12: FSWEIGHT: 'abc' is not a number" },
	{ "FSWEIGHT 1\nUSERWEIGHT 1.5\n", 0,
	  "moab.cfg:2: USERWEIGHT: '1.5' is not an integer" },
	{ "FSWEIGHT 12abc", 0,
	  "moab.cfg:1: FSWEIGHT: '12abc' is not a number" },
	{ "FSWEIGHT", 0, "moab.cfg:1: FSWEIGHT: missing value" },
	{ "FSWEIGHT   # comment", 0, "moab.cfg:1: FSWEIGHT: missing value" },
	{ "FSWEIGHT 1 2", 0, "moab.cfg:1: FSWEIGHT: more than one value" },
	{ "FSWEIGHT 99999999999", 0,
	  "moab.cfg:1: FSWEIGHT: '99999999999' is out of range "
	  "(-2147483647..2147483647)" },
	{ "FSWEIGHT[p1] 5", 0, "moab.cfg:1: FSWEIGHT: unexpected '[p1]'" },
	{ "5 LOGLEVEL", 0, "moab.cfg:1: '5' is not a parameter name" },
	{ "USERCFG[bob PRIORITY=1", 0,
	  "moab.cfg:1: 'USERCFG[bob': missing ']'" },
	{ "USERCFG] PRIORITY=1", 0,
	  "moab.cfg:1: 'USERCFG]': ']' without '['" },
	{ "USERCFG[] PRIORITY=1", 0,
	  "moab.cfg:1: 'USERCFG[]': empty name in brackets" },
	{ "USERCFG[a]x PRIORITY=1", 0,
	  "moab.cfg:1: 'USERCFG[a]x': text after ']'" },
	{ "USERCFG[a[b]] PRIORITY=1", 0,
	  "moab.cfg:1: 'USERCFG[a[b]]': text after ']'" },
	{ "USERCFG PRIORITY=1", 0, "moab.cfg:1: USERCFG: missing '[name]'" },
	{ "USERCFG[bob] PRIORITY", 0,
	  "moab.cfg:1: USERCFG[bob]: 'PRIORITY' is not KEY=VALUE" },
	{ "USERCFG[bob] PRIORITY=", 0,
	  "moab.cfg:1: USERCFG[bob] PRIORITY: missing value" },
	{ "USERCFG[bob] PRIORITY=high", 0,
	  "moab.cfg:1: USERCFG[bob] PRIORITY: 'high' is not a number" },
	{ "USERCFG[bob] QTWEIGHT=", 0,
	  "moab.cfg:1: USERCFG[bob] QTWEIGHT: missing value" },
	{ "FSPOLICY FOO%", 0, "moab.cfg:1: FSPOLICY: unknown policy 'FOO%'" },
	{ "FSPOLICY %", 0, "moab.cfg:1: FSPOLICY: unknown policy '%'" },
	{ "USERCFG[bob] FSTARGET=x+", 0,
	  "moab.cfg:1: USERCFG[bob] FSTARGET: 'x' is not a number" },
	{ "QOSCFG[q] QTTARGET=1h", 0,
	  "moab.cfg:1: QOSCFG[q] QTTARGET: '1h' is not a time "
	  "([[[DD:]HH:]MM:]SS)" },
	{ "QOSCFG[q] XFTARGET=0.5", 0,
	  "moab.cfg:1: QOSCFG[q] XFTARGET: '0.5' is out of range "
	  "(1..1e+09)" },
	{ "FSPOLICY FOO", 0, "moab.cfg:1: FSPOLICY: unknown policy 'FOO'" },
	{ "FSDEPTH 0", 0, "moab.cfg:1: FSDEPTH: '0' is out of range (1..32)" },
	{ "FSDECAY 0", 0, "moab.cfg:1: FSDECAY: '0' must be above 0" },
	{ "FSDECAY 1.5", 0,
	  "moab.cfg:1: FSDECAY: '1.5' is out of range (0..1)" },
	{ "FSDECAY nan", 0, "moab.cfg:1: FSDECAY: 'nan' is not a number" },
	{ "FSINTERVAL 1:2:3:4:5", 0,
	  "moab.cfg:1: FSINTERVAL: '1:2:3:4:5' is not a time "
	  "([[[DD:]HH:]MM:]SS)" },
	{ "FSINTERVAL 0", 0,
	  "moab.cfg:1: FSINTERVAL: '0' must be longer than 0" },
	{ "XFMINWCLIMIT -5", 0,
	  "moab.cfg:1: XFMINWCLIMIT: '-5' is not a time ([[[DD:]HH:]MM:]SS)" },
	{ "MAX_PRIO_VAL 2000000000", 0,
	  "moab.cfg:1: MAX_PRIO_VAL: '2000000000' is out of range "
	  "(1..1431655764)" },
	{ "ENABLENEGJOBPRIORITY maybe", 0,
	  "moab.cfg:1: ENABLENEGJOBPRIORITY: 'maybe' is not TRUE or FALSE" },
	{ "JOBPRIOF STATE[Flying]=3", 0,
	  "moab.cfg:1: JOBPRIOF STATE[Flying]: unknown job state" },
	{ "JOBPRIOF FOO[x]=3", 0, "moab.cfg:1: JOBPRIOF: unknown kind 'FOO'" },
	{ "JOBPRIOF ATTR[x]", 0,
	  "moab.cfg:1: JOBPRIOF: 'ATTR[x]' is not KIND[name]=VALUE" },
	{ "JOBPRIOF ATTR=4", 0,
	  "moab.cfg:1: JOBPRIOF: 'ATTR' is missing '[name]'" },
	{ "JOBPRIOF ATTR[x]=y", 0,
	  "moab.cfg:1: JOBPRIOF ATTR[x]: 'y' is not a number" },
	{ "JOBPRIOF", 0, "moab.cfg:1: JOBPRIOF: missing value" },
	{ "USERCFG[b\xff] PRIORITY=1", 0,
	  "moab.cfg:1: invalid UTF-8 (byte 0xff at column 10)" },
	{ "FSWEIGHT 1\nUSERCFG[\xc3\x28] PRIORITY=1", 0,
	  "moab.cfg:2: invalid UTF-8 (byte 0xc3 at column 9)" },
	{ "FSWEIGHT \xc0\x80", 0,
	  "moab.cfg:1: invalid UTF-8 (byte 0xc0 at column 10)" },
	{ "FSWEIGHT 1\0 2", 13, "moab.cfg:1: NUL byte at column 11" },
};

START_TEST(test_bad)
{
	prism_moab_policy_t *old = prism_moab_policy_default(), *pol = old;
	prism_error_t err = { "" };
	size_t len = bad[_i].len ? bad[_i].len : strlen(bad[_i].text);

	ck_assert_int_eq(prism_moab_conf_parse(bad[_i].text, len, "moab.cfg",
					       &pol, &err), -1);
	ck_assert_str_eq(err.text, bad[_i].want);
	/* no side effect: the caller keeps its policy */
	ck_assert_ptr_eq(pol, old);
	ck_assert_int_eq(prism_moab_policy_params(pol)->comp_weight[1], 1);
	prism_moab_policy_free(old);
}
END_TEST

START_TEST(test_overlong)
{
	char text[PRISM_MOAB_LINE_MAX + 64];
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	memset(text, ' ', sizeof(text));
	memcpy(text, "FSWEIGHT 1\nUSERWEIGHT 2", 23);
	ck_assert_int_eq(prism_moab_conf_parse(text, sizeof(text), "moab.cfg",
					       &pol, &err), -1);
	ck_assert_str_eq(err.text,
			 "moab.cfg:2: line is longer than 1024 bytes");
	ck_assert_ptr_null(pol);
	/* exactly the limit is fine */
	ck_assert_int_eq(prism_moab_conf_parse(text, 11 + 1024, "moab.cfg",
					       &pol, &err), 0);
	ck_assert_int_eq(prism_moab_policy_params(pol)->sub_weight[0], 2);
	prism_moab_policy_free(pol);
}
END_TEST

/* ---- one line at a time (prism convert) ------------------------------- */

static const struct {
	const char *line;
	int want;		/* prism_moab_line_t, or -1: an error */
	const char *msg;	/* the error, for want -1; else the reason */
} lines[] = {
	{ "", PRISM_MOAB_LINE_BLANK, NULL },
	{ "   \t ", PRISM_MOAB_LINE_BLANK, NULL },
	{ "# FSWEIGHT 10", PRISM_MOAB_LINE_BLANK, NULL },
	{ "FSWEIGHT 10", PRISM_MOAB_LINE_PRIORITY, NULL },
	{ "fsweight 10   # a comment", PRISM_MOAB_LINE_PRIORITY, NULL },
	{ "XFMINWCLIMIT 0:10:00", PRISM_MOAB_LINE_PRIORITY, NULL },
	{ "FSPOLICY DEDICATEDPS", PRISM_MOAB_LINE_PRIORITY, NULL },
	{ "USERCFG[bob] PRIORITY=5 FSTARGET=10+", PRISM_MOAB_LINE_PRIORITY,
	  NULL },
	{ "QOSCFG[hi] QTWEIGHT=5", PRISM_MOAB_LINE_PRIORITY, NULL },
	{ "JOBPRIOF STATE[Running]=10 ATTR[fast]=5", PRISM_MOAB_LINE_PRIORITY,
	  NULL },
	{ "USERCFG[bob] MAXJOB=4 PRIORITY=5", PRISM_MOAB_LINE_MIXED,
	  "USERCFG[bob] MAXJOB: not a priority attribute, ignored" },
	{ "USERCFG[bob] MAXJOB=4 MAXPROC=64", PRISM_MOAB_LINE_IGNORED,
	  "USERCFG[bob] MAXJOB: not a priority attribute, ignored" },
	{ "RMCFG[slurm] TYPE=SLURM", PRISM_MOAB_LINE_IGNORED,
	  "RMCFG[slurm]: not a priority parameter, ignored" },
	{ "NODECFG[n1] PARTITION=batch", PRISM_MOAB_LINE_IGNORED,
	  "NODECFG[n1]: not a priority parameter, ignored" },
	{ "LOGLEVEL 3", PRISM_MOAB_LINE_IGNORED,
	  "LOGLEVEL: not a priority parameter, ignored" },
	{ "FSWEIGHT abc", -1, "moab.cfg:7: FSWEIGHT: 'abc' is not a number" },
	{ "QUEUETIMWEIGHT 5", -1,
	  "moab.cfg:7: QUEUETIMWEIGHT: unknown priority weight or cap (did you mean QUEUETIMEWEIGHT?)" },
	{ "USERCFG[bob] MAXJOB=4 FOO=1", PRISM_MOAB_LINE_IGNORED,
	  "USERCFG[bob] MAXJOB: not a priority attribute, ignored" },
	{ "LOGLEVEL", PRISM_MOAB_LINE_IGNORED,
	  "LOGLEVEL: no value, not a priority parameter, ignored" },
	{ "#INCLUDE site.cfg", PRISM_MOAB_LINE_IGNORED,
	  "#INCLUDE: included files are not read (convert and check each one alone)" },
	{ "  SUBMITCMD=/usr/bin/qsub", PRISM_MOAB_LINE_IGNORED,
	  "'SUBMITCMD=/usr/bin/qsub': a value without a parameter name (the rest of the line before?), ignored" },
	{ "RESOURCEWEIGHT 4", PRISM_MOAB_LINE_PRIORITY,
	  "RESOURCEWEIGHT: older name of RESWEIGHT, read as RESWEIGHT" },
	/* a mixed line: the reason is its first ignored part */
	{ "CLASSCFG[l] FSTARGET=200 PLIST=", PRISM_MOAB_LINE_MIXED,
	  "CLASSCFG[l] PLIST: not a priority attribute, ignored" },
	{ "CLASSCFG[l] PRIORITY=", -1,
	  "moab.cfg:7: CLASSCFG[l] PRIORITY: missing value" },
	{ "USERCFG[b\xff] PRIORITY=1", -1,
	  "moab.cfg:7: invalid UTF-8 (byte 0xff at column 10)" },
};

START_TEST(test_line)
{
	prism_moab_line_t got = (prism_moab_line_t) 99;
	prism_error_t err = { "" };
	prism_error_t why = { "x" };
	int rc = prism_moab_conf_line(lines[_i].line, "moab.cfg", 7, &got,
				      &why, &err);

	if (lines[_i].want < 0) {
		ck_assert_int_eq(rc, -1);
		ck_assert_str_eq(err.text, lines[_i].msg);
		ck_assert_int_eq(got, 99);	/* untouched */
	} else {
		ck_assert_msg(!rc, "'%s': %s", lines[_i].line, err.text);
		ck_assert_msg((int) got == lines[_i].want, "'%s': %d, not %d",
			      lines[_i].line, (int) got, lines[_i].want);
		ck_assert_str_eq(why.text, lines[_i].msg ? lines[_i].msg : "");
	}
}
END_TEST

START_TEST(test_line_limits)
{
	char text[PRISM_MOAB_LINE_MAX + 2];
	prism_moab_line_t got;
	prism_error_t err = { "" };

	memset(text, ' ', sizeof(text));
	text[sizeof(text) - 1] = '\0';
	ck_assert_int_eq(prism_moab_conf_line(text, "f", 3, &got, NULL, &err), -1);
	ck_assert_str_eq(err.text, "f:3: line is longer than 1024 bytes");
	text[PRISM_MOAB_LINE_MAX] = '\0';
	ck_assert_int_eq(prism_moab_conf_line(text, "f", 3, &got, NULL, &err), 0);
	ck_assert_int_eq(got, PRISM_MOAB_LINE_BLANK);
	ck_assert_int_eq(prism_moab_conf_line(NULL, "f", 1, &got, NULL, &err), -1);
	ck_assert_str_eq(err.text, "f: bad parameter");
	ck_assert_int_eq(prism_moab_conf_line("X 1", "f", 1, NULL, NULL, &err), -1);
	/* no file name: a generic one, as prism_moab_conf_parse() */
	ck_assert_int_eq(prism_moab_conf_line("FSWEIGHT x", NULL, 2, &got,
					      NULL, &err), -1);
	ck_assert_str_eq(err.text,
			 "(moab config):2: FSWEIGHT: 'x' is not a number");
}
END_TEST

/* ---- bad parameters --------------------------------------------------- */

START_TEST(test_bad_param)
{
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_moab_conf_parse(NULL, 5, "x.cfg", &pol, &err),
			 -1);
	ck_assert_str_eq(err.text, "x.cfg: bad parameter");
	ck_assert_int_eq(prism_moab_conf_parse("A 1", 3, NULL, NULL, &err),
			 -1);
	ck_assert_str_eq(err.text, "(moab config): bad parameter");
	ck_assert_ptr_null(pol);
	/* NULL err is allowed */
	ck_assert_int_eq(prism_moab_conf_parse("X[", 2, "x", &pol, NULL), -1);
	ck_assert_int_eq(prism_moab_conf_parse(NULL, 0, "x", &pol, &err), 0);
	ck_assert_uint_eq(prism_moab_cred_find(NULL, PRISM_MOAB_USER, "a"),
			  PRISM_MOAB_NONE);
	ck_assert_uint_eq(prism_moab_cred_find(pol, PRISM_MOAB_CRED_CNT, "a"),
			  PRISM_MOAB_NONE);
	ck_assert_uint_eq(prism_moab_cred_find(pol, PRISM_MOAB_USER, NULL),
			  PRISM_MOAB_NONE);
	ck_assert_ptr_null(prism_moab_cred_get(pol, PRISM_MOAB_USER, 0));
	ck_assert_ptr_null(prism_moab_cred_get(pol, PRISM_MOAB_USER,
					       PRISM_MOAB_NONE));
	ck_assert_ptr_null(prism_moab_cred_get(NULL, PRISM_MOAB_USER, 0));
	ck_assert_uint_eq(prism_moab_cred_count(pol, PRISM_MOAB_CRED_CNT), 0);
	ck_assert_uint_eq(prism_moab_policy_notice_count(NULL), 0);
	ck_assert_ptr_null(prism_moab_policy_notice(NULL, 0));
	ck_assert_int_eq(prism_moab_attr_bit(NULL, "x"), -1);
	ck_assert_int_eq(prism_moab_gres_bit(pol, NULL), -1);
	ck_assert_int_eq(prism_moab_attr_prio(pol, -1), 0);
	ck_assert_ptr_null(prism_moab_comp_name(PRISM_MC_CNT));
	ck_assert_ptr_null(prism_moab_sub_name(PRISM_MS_CNT));
	ck_assert_ptr_null(prism_moab_cred_kind_name(PRISM_MOAB_CRED_CNT));
	ck_assert_int_eq(prism_moab_sub_comp(PRISM_MS_CNT), PRISM_MC_CNT);
	ck_assert_str_eq(prism_moab_sub_name(PRISM_MS_XFACTOR), "XFACTOR");
	ck_assert_int_eq(prism_moab_sub_comp(PRISM_MS_XFACTOR),
			 PRISM_MC_SERV);
	prism_moab_policy_free(pol);
	prism_moab_policy_free(NULL);
}
END_TEST

extern Suite *moab_conf_suite(void)
{
	Suite *s = suite_create("moab_conf");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_param, 0, N(params));
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_layout);
	tcase_add_loop_test(tc, test_cred, 0, N(creds));
	tcase_add_test(tc, test_cred_scale);
	tcase_add_test(tc, test_jobprio);
	tcase_add_test(tc, test_ignored);
	tcase_add_test(tc, test_nothing_kept);
	tcase_add_loop_test(tc, test_compat, 0, N(compat));
	tcase_add_loop_test(tc, test_bad, 0, N(bad));
	tcase_add_test(tc, test_overlong);
	tcase_add_test(tc, test_bad_param);
	tcase_add_loop_test(tc, test_line, 0, N(lines));
	tcase_add_test(tc, test_line_limits);
	suite_add_tcase(s, tc);
	return s;
}
