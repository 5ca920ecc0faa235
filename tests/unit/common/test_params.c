/*****************************************************************************\
 *  test_params.c - unit tests of prism_params: PriorityParameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <string.h>

#include "prism_params.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *what;
	const char *text;
	prism_policy_t policy;
	const char *config;
} good[] = {
	{ "unset is multifactor", NULL, PRISM_POLICY_MULTIFACTOR, "" },
	{ "empty is multifactor", "", PRISM_POLICY_MULTIFACTOR, "" },
	{ "explicit multifactor", "policy=multifactor",
	  PRISM_POLICY_MULTIFACTOR, "" },
	{ "moab, default file", "policy=moab", PRISM_POLICY_MOAB, "" },
	{ "moab with a file", "policy=moab,config=/etc/slurm/moab.cfg",
	  PRISM_POLICY_MOAB, "/etc/slurm/moab.cfg" },
	{ "config first, any case", "CONFIG=/x/ge.conf,Policy=GridEngine",
	  PRISM_POLICY_GRIDENGINE, "/x/ge.conf" },
};

START_TEST(test_good)
{
	prism_params_t p;
	prism_error_t err = { "" };

	ck_assert_msg(prism_params_parse(good[_i].text, &p, &err) == 0,
		      "%s: %s", good[_i].what, err.text);
	ck_assert_msg(p.policy == good[_i].policy, "%s", good[_i].what);
	ck_assert_msg(!strcmp(p.config, good[_i].config), "%s: '%s'",
		      good[_i].what, p.config);
}
END_TEST

static const struct {
	const char *what;
	const char *text;
	const char *want;
} bad[] = {
	{ "unknown policy", "policy=lsf", "unknown policy 'lsf'" },
	{ "unknown key", "policy=moab,file=/x", "unknown key 'file'" },
	{ "no value", "policy=", "policy has no value" },
	{ "not key=value", "moab", "'moab' is not KEY=VALUE" },
	{ "twice", "policy=moab,policy=gridengine", "policy given twice" },
	{ "relative config", "policy=moab,config=prism.conf",
	  "not an absolute path" },
	{ "config without a policy that reads one", "config=/x",
	  "needs policy=moab" },
	{ "empty item", "policy=moab,,config=/x", "empty item" },
	{ "trailing comma", "policy=moab,", "empty item" },
	{ "non-printable byte", "policy=mo\tab", "byte 0x09" },
	{ "non-UTF-8 byte", "policy=mo\xe9", "byte 0xe9" },
};

START_TEST(test_bad)
{
	prism_params_t p = { .policy = PRISM_POLICY_GRIDENGINE,
			     .config = "/keep" };
	prism_error_t err = { "" };

	ck_assert_msg(prism_params_parse(bad[_i].text, &p, &err) == -1,
		      "%s: accepted", bad[_i].what);
	ck_assert_msg(strstr(err.text, bad[_i].want), "%s: '%s'",
		      bad[_i].what, err.text);
	ck_assert(!strncmp(err.text, "PriorityParameters: ", 20));
	/* no side effect on failure */
	ck_assert(p.policy == PRISM_POLICY_GRIDENGINE);
	ck_assert(!strcmp(p.config, "/keep"));
}
END_TEST

START_TEST(test_too_long)
{
	static char text[PRISM_PARAMS_MAX + 10];
	prism_params_t p;
	prism_error_t err = { "" };

	memset(text, 'a', sizeof(text) - 1);
	ck_assert_int_eq(prism_params_parse(text, &p, &err), -1);
	ck_assert(strstr(err.text, "longer than"));
	ck_assert_int_eq(prism_params_parse("policy=moab", NULL, &err), -1);
}
END_TEST

START_TEST(test_config_path)
{
	prism_params_t p = { .policy = PRISM_POLICY_MOAB };
	prism_error_t err = { "" };
	char buf[64];

	ck_assert_int_eq(prism_params_config_path(&p, "/etc/slurm/slurm.conf",
						  buf, sizeof(buf), &err), 0);
	ck_assert_str_eq(buf, "/etc/slurm/prism.conf");
	strcpy(p.config, "/opt/moab.cfg");
	ck_assert_int_eq(prism_params_config_path(&p, "/etc/slurm/slurm.conf",
						  buf, sizeof(buf), &err), 0);
	ck_assert_str_eq(buf, "/opt/moab.cfg");
	ck_assert_int_eq(prism_params_config_path(&p, NULL, buf, 5, &err), -1);
	ck_assert(strstr(err.text, "longer than"));
	ck_assert_str_eq(prism_policy_name(PRISM_POLICY_GRIDENGINE),
			 "gridengine");
	ck_assert_str_eq(prism_policy_name((prism_policy_t) 99), "unknown");
}
END_TEST

extern Suite *params_suite(void)
{
	Suite *s = suite_create("params");
	TCase *tc = tcase_create("PriorityParameters");

	tcase_add_loop_test(tc, test_good, 0, N(good));
	tcase_add_loop_test(tc, test_bad, 0, N(bad));
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_config_path);
	suite_add_tcase(s, tc);
	return s;
}
