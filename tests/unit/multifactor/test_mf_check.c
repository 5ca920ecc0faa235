/*****************************************************************************\
 *  test_mf_check.c - unit tests of prism_mf_check: each rule of `prism
 *  check` under multifactor fires at its boundary and not one step
 *  short of it.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "prism_mf_check.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define WEEK PRISM_MF_DEFAULT_DECAY
#define FT PRISM_MF_F_FAIR_TREE
#define NAMES "cpu,mem,energy,node,billing,fs/disk,vmem,pages"
#define NN_ALL                                                     \
	(PRISM_MF_F_NO_NORMAL_ASSOC | PRISM_MF_F_NO_NORMAL_PART | \
	 PRISM_MF_F_NO_NORMAL_QOS | PRISM_MF_F_NO_NORMAL_TRES)

/* The settings in slurm.conf's order of mention; see prism_mf_settings_t. */
#define S(age, fs, js, part, qos, assoc, tres, flags, maxage, calc, hl,     \
	  reset, favor)                                                    \
	{ age, fs, js, part, qos, assoc, tres, flags, maxage, calc, hl, reset, \
	  favor, NAMES, NULL }
/* A clean configuration with one setting changed. */
#define CLEAN S(1000, 10000, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK, \
		NULL, false)

static const struct {
	const char *what;
	prism_mf_settings_t s;
	size_t want_cnt;		/* findings in all */
	int want_rule;			/* of the first finding; -1: none */
	const char *want_key;		/* of the first finding */
} rows[] = {
	{ "a clean configuration: nothing", CLEAN, 0, -1, NULL },
	{ "SUM: 2^31 + 2^31 = 2^32 fires",
	  S(2147483648u, 2147483648u, 0, 0, 0, 0, NULL, FT, WEEK, 300, WEEK,
	    NULL, false),
	  1, PRISM_MF_SUM, "PriorityWeightAge" },
	{ "SUM: exactly 4294967295 does not",
	  S(2147483647u, 2147483648u, 0, 0, 0, 0, NULL, FT, WEEK, 300, WEEK,
	    NULL, false),
	  0, -1, NULL },
	{ "SUM: TRES weights count (cpu=1 on top of 2^32-1), and APART",
	  S(4294967295u, 0, 0, 0, 0, 0, "cpu=1", FT, WEEK, 300, WEEK, NULL,
	    false),
	  2, PRISM_MF_SUM, "PriorityWeightAge" },
	{ "ALLZERO: every weight 0",
	  S(0, 0, 0, 0, 0, 0, NULL, FT, WEEK, 300, WEEK, NULL, false),
	  1, PRISM_MF_ALLZERO, NULL },
	{ "ALLZERO: not with a TRES weight",
	  S(0, 0, 0, 0, 0, 0, "cpu=1000", FT, WEEK, 300, WEEK, NULL, false),
	  0, -1, NULL },
	{ "ZERO: PriorityFavorSmall=YES with PriorityWeightJobSize=0",
	  S(1000, 10000, 0, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK, NULL,
	    true),
	  1, PRISM_MF_ZERO, "PriorityFavorSmall" },
	{ "ZERO: PriorityFavorSmall=YES with PriorityWeightJobSize=1: no",
	  S(1000, 10000, 1, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK, NULL,
	    true),
	  0, -1, NULL },
	{ "ZERO: SMALL_RELATIVE_TO_TIME with PriorityWeightJobSize=0",
	  S(1000, 10000, 0, 1000, 1000, 0, NULL,
	    FT | PRISM_MF_F_SIZE_RELATIVE, WEEK, 300, WEEK, NULL, false),
	  1, PRISM_MF_ZERO, "PriorityFlags" },
	{ "ZERO: NO_FAIR_TREE with PriorityWeightFairshare=0",
	  S(1000, 0, 1000, 1000, 1000, 0, NULL, 0, WEEK, 300, WEEK, NULL,
	    false),
	  1, PRISM_MF_ZERO, "PriorityFlags" },
	{ "ZERO: DEPTH_OBLIVIOUS with PriorityWeightFairshare=0",
	  S(1000, 0, 1000, 1000, 1000, 0, NULL, PRISM_MF_F_DEPTH_OBLIVIOUS,
	    WEEK, 300, WEEK, NULL, false),
	  1, PRISM_MF_ZERO, "PriorityFlags" },
	{ "ZERO: default flags with PriorityWeightFairshare=0: no",
	  S(1000, 0, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK, NULL,
	    false),
	  0, -1, NULL },
	{ "ZERO: a half-life a second off the default, fair-share 0",
	  S(1000, 0, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK - 1,
	    NULL, false),
	  1, PRISM_MF_ZERO, "PriorityDecayHalfLife" },
	{ "ZERO: a reset period with PriorityWeightFairshare=0",
	  S(1000, 0, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK, "DAILY",
	    false),
	  1, PRISM_MF_ZERO, "PriorityUsageResetPeriod" },
	{ "ZERO: PriorityMaxAge a second off the default, age weight 0",
	  S(0, 10000, 1000, 1000, 1000, 0, NULL, FT, WEEK - 1, 300, WEEK,
	    NULL, false),
	  1, PRISM_MF_ZERO, "PriorityMaxAge" },
	{ "ZERO: PriorityMaxAge default, age weight 0: no",
	  S(0, 10000, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, WEEK, NULL,
	    false),
	  0, -1, NULL },
	{ "ZERO: ACCRUE_ALWAYS with PriorityWeightAge=0",
	  S(0, 10000, 1000, 1000, 1000, 0, NULL,
	    FT | PRISM_MF_F_ACCRUE_ALWAYS, WEEK, 300, WEEK, NULL, false),
	  1, PRISM_MF_ZERO, "PriorityFlags" },
	{ "ZERO: NO_NORMAL_QOS with PriorityWeightQOS=0",
	  S(1000, 10000, 1000, 1000, 0, 0, NULL,
	    FT | PRISM_MF_F_NO_NORMAL_QOS, WEEK, 300, WEEK, NULL, false),
	  1, PRISM_MF_ZERO, "PriorityFlags" },
	{ "ZERO: NO_NORMAL_ALL with some weights 0: no",
	  S(1000, 10000, 1000, 1000, 0, 0, NULL, FT | NN_ALL, WEEK, 300,
	    WEEK, NULL, false),
	  0, -1, NULL },
	{ "MAXAGE: PriorityMaxAge 299 s < PriorityCalcPeriod 300 s",
	  S(1000, 10000, 1000, 1000, 1000, 0, NULL, FT, 299, 300, WEEK, NULL,
	    false),
	  1, PRISM_MF_MAXAGE, "PriorityMaxAge" },
	{ "MAXAGE: equal: no",
	  S(1000, 10000, 1000, 1000, 1000, 0, NULL, FT, 300, 300, WEEK, NULL,
	    false),
	  0, -1, NULL },
	{ "DECAY: half-life 0, no reset period",
	  S(1000, 10000, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, 0, NULL,
	    false),
	  1, PRISM_MF_DECAY, "PriorityDecayHalfLife" },
	{ "DECAY: half-life 0, PriorityUsageResetPeriod=NONE",
	  S(1000, 10000, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, 0, "none",
	    false),
	  1, PRISM_MF_DECAY, "PriorityDecayHalfLife" },
	{ "DECAY: half-life 0 with a reset period: no",
	  S(1000, 10000, 1000, 1000, 1000, 0, NULL, FT, WEEK, 300, 0, "DAILY",
	    false),
	  0, -1, NULL },
	{ "TINY: mem=0.5",
	  S(1000, 10000, 1000, 1000, 1000, 0, "mem=0.5", FT, WEEK, 300, WEEK,
	    NULL, false),
	  1, PRISM_MF_TINY, "PriorityWeightTRES" },
	{ "TINY: mem=1: no",
	  S(1000, 10000, 1000, 1000, 1000, 0, "mem=1", FT, WEEK, 300, WEEK,
	    NULL, false),
	  0, -1, NULL },
	{ "TINY: mem=0.5 with NO_NORMAL_TRES: no",
	  S(1000, 10000, 1000, 1000, 1000, 0, "mem=0.5",
	    FT | PRISM_MF_F_NO_NORMAL_TRES, WEEK, 300, WEEK, NULL, false),
	  0, -1, NULL },
	{ "TINY: mem=1000G is 1000/1024 per MB",
	  S(1000, 10000, 1000, 1000, 1000, 0, "mem=1000G", FT, WEEK, 300,
	    WEEK, NULL, false),
	  1, PRISM_MF_TINY, "PriorityWeightTRES" },
	{ "TINY: mem=1024G is 1 per MB: no",
	  S(1000, 10000, 1000, 1000, 1000, 0, "mem=1024G", FT, WEEK, 300,
	    WEEK, NULL, false),
	  0, -1, NULL },
	{ "APART: 999 beside 1e9",
	  S(999, 1000000000, 0, 0, 0, 0, NULL, FT, WEEK, 300, WEEK, NULL,
	    false),
	  1, PRISM_MF_APART, "PriorityWeightAge" },
	{ "APART: 1000 beside 1e9: no",
	  S(1000, 1000000000, 0, 0, 0, 0, NULL, FT, WEEK, 300, WEEK, NULL,
	    false),
	  0, -1, NULL },
	{ "APART: a TRES weight against the largest",
	  S(0, 1000000000, 0, 0, 0, 0, "cpu=999", FT, WEEK, 300, WEEK, NULL,
	    false),
	  1, PRISM_MF_APART, "PriorityWeightTRES" },
	{ "TRES: gres/gpu is not tracked",
	  S(1000, 10000, 1000, 1000, 1000, 0, "cpu=1000,gres/gpu=1000", FT,
	    WEEK, 300, WEEK, NULL, false),
	  1, PRISM_MF_TRES, "PriorityWeightTRES" },
	{ "TRES: names any case, empty items skipped: no",
	  S(1000, 10000, 1000, 1000, 1000, 0, "CPU=1000,,Mem=5,FS/Disk=3",
	    FT, WEEK, 300, WEEK, NULL, false),
	  0, -1, NULL },
	{ "TRES: an item without '='",
	  S(1000, 10000, 1000, 1000, 1000, 0, "cpu", FT, WEEK, 300, WEEK,
	    NULL, false),
	  1, PRISM_MF_TRES, "PriorityWeightTRES" },
	{ "TRES: a weight that is not a number",
	  S(1000, 10000, 1000, 1000, 1000, 0, "cpu=lots", FT, WEEK, 300, WEEK,
	    NULL, false),
	  1, PRISM_MF_TRES, "PriorityWeightTRES" },
	{ "TRES: a unit that is not KMGTP",
	  S(1000, 10000, 1000, 1000, 1000, 0, "mem=2X", FT, WEEK, 300, WEEK,
	    NULL, false),
	  1, PRISM_MF_TRES, "PriorityWeightTRES" },
};

START_TEST(test_rules)
{
	prism_mf_findings_t out;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_mf_check(&rows[_i].s, &out, &err), 0);
	ck_assert_msg(out.cnt == rows[_i].want_cnt,
		      "%s: %zu findings, not %zu (first: %s)", rows[_i].what,
		      out.cnt, rows[_i].want_cnt,
		      out.cnt ? out.item[0].text : "none");
	if (rows[_i].want_rule < 0) {
		prism_mf_findings_free(&out);
		return;
	}
	ck_assert_msg((int) out.item[0].rule == rows[_i].want_rule,
		      "%s: rule %d", rows[_i].what, (int) out.item[0].rule);
	if (!rows[_i].want_key)
		ck_assert_msg(!out.item[0].key, "%s: key %s", rows[_i].what,
			      out.item[0].key);
	else
		ck_assert_msg(out.item[0].key &&
				      !strcmp(out.item[0].key,
					      rows[_i].want_key),
			      "%s: key %s", rows[_i].what,
			      out.item[0].key ? out.item[0].key : "NULL");
	prism_mf_findings_free(&out);
}
END_TEST

/* The value and text of a finding, as the CLI prints them. */
START_TEST(test_text)
{
	prism_mf_settings_t s = S(1000, 10000, 1000, 1000, 1000, 0,
				  "gres/gpu=5", FT, 420, 600, WEEK, NULL,
				  false);
	prism_mf_findings_t out;

	ck_assert_int_eq(prism_mf_check(&s, &out, NULL), 0);
	ck_assert_uint_eq(out.cnt, 2);
	ck_assert(out.item[0].error);	/* slurmctld stops on it */
	ck_assert(!out.item[1].error);
	ck_assert_str_eq(out.item[0].value, "gres/gpu=5");
	ck_assert_str_eq(out.item[0].text,
			 "gres/gpu is not a TRES of this cluster (AccountingStorageTRES and Slurm's own: " NAMES "): slurmctld stops on it");
	ck_assert_str_eq(out.item[1].key, "PriorityMaxAge");
	ck_assert_str_eq(out.item[1].value, "00:07:00");
	ck_assert_str_eq(out.item[1].text,
			 "shorter than PriorityCalcPeriod=00:10:00: the age factor jumps from 0 to 1 between two recalculations");
	prism_mf_findings_free(&out);
	ck_assert_uint_eq(out.cnt, 0);
	prism_mf_findings_free(NULL);
}
END_TEST

/* More findings than fit: the rest are counted. */
START_TEST(test_full)
{
	char tres[40 * 16] = "";
	size_t len = 0;
	prism_mf_settings_t s = CLEAN;
	prism_mf_findings_t out;

	for (int i = 0; i < 40; i++)
		len += snprintf(tres + len, sizeof(tres) - len, "%sx%d=1000",
				i ? "," : "", i);
	s.weight_tres = tres;
	ck_assert_int_eq(prism_mf_check(&s, &out, NULL), 0);
	ck_assert_uint_eq(out.cnt, PRISM_MF_FINDINGS_MAX);
	ck_assert_uint_eq(out.lost, 40 - PRISM_MF_FINDINGS_MAX);
	prism_mf_findings_free(&out);
}

/* Every flag at once fits PRISM_MF_FLAGS_STR_MAX, and a finding holds a
 * value and a text of any length (issue 35: nothing is cut). */
START_TEST(test_long)
{
	char buf[PRISM_MF_FLAGS_STR_MAX], tres[3000], names[3000];
	prism_mf_settings_t s = CLEAN;
	prism_mf_findings_t out;
	size_t len;

	prism_mf_flags_str(PRISM_MF_F_ACCRUE_ALWAYS | PRISM_MF_F_SIZE_RELATIVE |
				   PRISM_MF_F_CALCULATE_RUNNING |
				   PRISM_MF_F_DEPTH_OBLIVIOUS |
				   PRISM_MF_F_INCR_ONLY | PRISM_MF_F_MAX_TRES |
				   PRISM_MF_F_NO_NORMAL_ASSOC,
			   buf, sizeof(buf));
	ck_assert_str_eq(buf, "ACCRUE_ALWAYS,SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING,DEPTH_OBLIVIOUS,INCR_ONLY,MAX_TRES,NO_NORMAL_ASSOC");
	prism_mf_flags_str(0xffffffffu & ~PRISM_MF_F_FAIR_TREE &
				   ~PRISM_MF_F_DEPTH_OBLIVIOUS,
			   buf, sizeof(buf));
	ck_assert_uint_lt(strlen(buf), sizeof(buf) - 1);
	ck_assert_ptr_nonnull(strstr(buf, "NO_FAIR_TREE,NO_NORMAL_ALL,"));
	memset(tres, 'g', sizeof(tres));
	len = snprintf(tres + 2000, sizeof(tres) - 2000, "=5");
	tres[2000 + len] = '\0';
	memset(names, 'n', sizeof(names));
	names[sizeof(names) - 1] = '\0';
	s.weight_tres = tres;
	s.tres_names = names;
	ck_assert_int_eq(prism_mf_check(&s, &out, NULL), 0);
	ck_assert_uint_ge(out.cnt, 1);
	ck_assert_str_eq(out.item[0].value, tres);
	ck_assert_uint_eq(strlen(out.item[0].text),
			  2000 + strlen(" is not a TRES of this cluster (AccountingStorageTRES and Slurm's own: ") +
				  sizeof(names) - 1 +
				  strlen("): slurmctld stops on it"));
	prism_mf_findings_free(&out);
}
END_TEST

static const struct {
	uint32_t secs;
	const char *want;
} times[] = {
	{ 0, "00:00:00" },
	{ 420, "00:07:00" },
	{ 14400, "04:00:00" },
	{ 172800, "2-00:00:00" },
	{ 604800 + 3661, "7-01:01:01" },
};

START_TEST(test_time_str)
{
	char buf[32];

	prism_mf_time_str(times[_i].secs, buf, sizeof(buf));
	ck_assert_str_eq(buf, times[_i].want);
}
END_TEST

static const struct {
	uint32_t flags;
	const char *want;
} flag_rows[] = {
	{ FT, "FAIR_TREE" },
	{ 0, "NO_FAIR_TREE" },
	{ PRISM_MF_F_DEPTH_OBLIVIOUS, "DEPTH_OBLIVIOUS" },
	{ FT | PRISM_MF_F_ACCRUE_ALWAYS | PRISM_MF_F_MAX_TRES,
	  "ACCRUE_ALWAYS,MAX_TRES" },
	{ FT | NN_ALL, "NO_NORMAL_ALL" },
	{ PRISM_MF_F_NO_NORMAL_QOS, "NO_FAIR_TREE,NO_NORMAL_QOS" },
};

START_TEST(test_flags_str)
{
	char buf[PRISM_MF_FLAGS_STR_MAX];

	prism_mf_flags_str(flag_rows[_i].flags, buf, sizeof(buf));
	ck_assert_str_eq(buf, flag_rows[_i].want);
}
END_TEST

/* FLAGS: each PriorityFlags item that names no flag (issue 35); TRES
 * findings are errors, the others warnings. Slurm looks for each flag's
 * name anywhere in the value: an item that contains one is read as it. */
static const struct {
	const char *text;
	size_t cnt;
	const char *first;	/* the first finding's text */
} flag_texts[] = {
	{ "ACCRUE_ALWAYS,max_tres,NO_NORMAL_ALL", 0, NULL },
	{ "FAIR_TREE", 0, NULL },
	{ "ACRUE_ALWAYS", 1,
	  "'ACRUE_ALWAYS' is not a flag (did you mean ACCRUE_ALWAYS?): Slurm ignores it without a word" },
	{ "NO_FAIR_TREE,SOMETHING", 1,
	  "'SOMETHING' is not a flag: Slurm ignores it without a word" },
	{ "DEPTH_OBLIVOUS,INCR_ONY", 2,
	  "'DEPTH_OBLIVOUS' is not a flag (did you mean DEPTH_OBLIVIOUS?): Slurm ignores it without a word" },
	{ "NO_FAIR_TREEX", 1,
	  "'NO_FAIR_TREEX' is not a flag, but Slurm finds NO_FAIR_TREE in it and reads it as that flag" },
	{ "max_tres,accrue_alwayss", 1,
	  "'accrue_alwayss' is not a flag, but Slurm finds ACCRUE_ALWAYS in it and reads it as that flag" },
	{ " INCR_ONLY", 1,
	  "' INCR_ONLY' is not a flag, but Slurm finds INCR_ONLY in it and reads it as that flag" },
	{ "XINCR_ONLY_MAX_TRES", 1,
	  "'XINCR_ONLY_MAX_TRES' is not a flag, but Slurm finds INCR_ONLY and MAX_TRES in it and reads it as those flags" },
	{ "NO_NORMAL_ALL_QOS", 1,
	  "'NO_NORMAL_ALL_QOS' is not a flag, but Slurm finds NO_NORMAL_ALL in it and reads it as that flag" },
	{ "FAIR_TREEX", 1,
	  "'FAIR_TREEX' is not a flag: Slurm ignores it without a word" },
};

START_TEST(test_flags_text)
{
	prism_mf_settings_t s = CLEAN;
	prism_mf_findings_t out;

	s.flags_text = flag_texts[_i].text;
	ck_assert_int_eq(prism_mf_check(&s, &out, NULL), 0);
	ck_assert_uint_eq(out.cnt, flag_texts[_i].cnt);
	for (size_t i = 0; i < out.cnt; i++) {
		ck_assert_int_eq(out.item[i].rule, PRISM_MF_FLAGS);
		ck_assert(!out.item[i].error);
		ck_assert_str_eq(out.item[i].key, "PriorityFlags");
		ck_assert_str_eq(out.item[i].value, flag_texts[_i].text);
	}
	if (flag_texts[_i].first)
		ck_assert_str_eq(out.item[0].text, flag_texts[_i].first);
	prism_mf_findings_free(&out);
}
END_TEST

START_TEST(test_bad_parameters)
{
	prism_mf_settings_t s = CLEAN;
	prism_mf_findings_t out;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_mf_check(NULL, &out, &err), -1);
	ck_assert_str_ne(err.text, "");
	ck_assert_int_eq(prism_mf_check(&s, NULL, NULL), -1);
}
END_TEST

extern Suite *mf_check_suite(void)
{
	Suite *s = suite_create("mf_check");
	TCase *tc = tcase_create("mf_check");

	tcase_add_loop_test(tc, test_rules, 0, N(rows));
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_long);
	tcase_add_loop_test(tc, test_flags_text, 0, N(flag_texts));
	tcase_add_loop_test(tc, test_time_str, 0, N(times));
	tcase_add_loop_test(tc, test_flags_str, 0, N(flag_rows));
	tcase_add_test(tc, test_bad_parameters);
	suite_add_tcase(s, tc);
	return s;
}
