/*****************************************************************************\
 *  test_format.c - unit tests of prism_format: the format numbers of the
 *  saved files, a later format refused by name (PRISM_FORMAT_NEWER) by
 *  each parser, whatever follows its first line.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <string.h>

#include "prism_format.h"
#include "prism_saved_policy.h"
#include "prism_state.h"
#include "test_core.h"

START_TEST(test_check)
{
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_format_check("state", 1, 1, 1, &err), 0);
	ck_assert_int_eq(prism_format_check("state", 2, 1, 3, &err), 0);
	ck_assert_int_eq(prism_format_check("state", 2, 1, 1, &err),
			 PRISM_FORMAT_NEWER);
	ck_assert_str_eq(err.text, "state format 2, newer than format 1, the newest this Prism reads: written by a later Prism");
	ck_assert_int_eq(prism_format_check("state", 0, 1, 1, &err), -1);
	ck_assert_str_eq(err.text, "state format 0 is no format Prism wrote (this one reads 1 to 1)");
}
END_TEST

START_TEST(test_first_line)
{
	static const struct {
		const char *text;
		int64_t want;	/* -1: not such a text */
	} rows[] = {
		{ "prism-state 1\nlast_recalc 5\n", 1 },
		{ "prism-state 12\n", 12 },
		{ "prism-state 1", -1 },	/* no end of line */
		{ "prism-state \n", -1 },
		{ "prism-state x\n", -1 },
		{ "prism-statex 1\n", -1 },
		{ "prism-state -1\n", -1 },
		{ "prism-state 99999999999\n", -1 },
		{ "", -1 },
	};
	prism_error_t err = { "" };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int64_t got = -7;
		int rc = prism_format_first_line(rows[i].text,
						 strlen(rows[i].text),
						 "prism-state", "state file",
						 &got, &err);

		if (rows[i].want < 0) {
			ck_assert_msg(rc == -1, "'%s' read", rows[i].text);
			ck_assert_int_eq(got, -7);
			ck_assert_str_eq(err.text, "not a state file (its first line is not \"prism-state N\")");
		} else {
			ck_assert_msg(!rc, "'%s': %s", rows[i].text, err.text);
			ck_assert_int_eq(got, rows[i].want);
		}
	}
}
END_TEST

/* A later format is refused as such, even where what follows its first
 * line would not read (another layout, another checksum). */
START_TEST(test_newer_refused)
{
	static const char state[] = "prism-state 2\nsomething else entirely\n";
	static const char policy[] = "prism-saved-policy 2\nlayout 7\n";
	prism_error_t err = { "" };
	prism_state_t st = { 0 };
	prism_saved_policy_t sp;

	ck_assert_int_eq(prism_state_parse(state, strlen(state), &st, &err),
			 PRISM_FORMAT_NEWER);
	ck_assert(strstr(err.text, "state format 2, newer than format 1"));
	ck_assert_int_eq(prism_saved_policy_parse(policy, strlen(policy), &sp,
						  &err),
			 PRISM_FORMAT_NEWER);
	ck_assert(strstr(err.text, "saved policy format 2, newer than format 1"));
}
END_TEST

extern Suite *format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_first_line);
	tcase_add_test(tc, test_newer_refused);
	suite_add_tcase(s, tc);
	return s;
}
