/*****************************************************************************\
 *  test_saved_policy.c - unit tests of prism_saved_policy: round trips,
 *  texts that are not a saved policy or are damaged, bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_saved_policy.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* Each row is formatted, then parsed back. */
static const struct {
	const char *what;
	const char *params, *path, *text;
} trips[] = {
	{ "a Moab file", "policy=moab,config=/etc/slurm/p.conf",
	  "/etc/slurm/p.conf", "USERWEIGHT 10\nUSERCFG[a] PRIORITY=5\n" },
	{ "multifactor: no file, no text", "policy=multifactor", NULL, NULL },
	{ "no PriorityParameters at all", NULL, NULL, NULL },
	{ "a text without a final newline", "policy=gridengine", "/x",
	  "weight_ticket 0.5" },
	{ "a text that looks like a header", "policy=moab", "/y",
	  "prism-saved-policy 1\nparams x\n\nlength 3\n" },
};

START_TEST(test_round_trip)
{
	prism_error_t err = { "" };
	prism_saved_policy_t got;
	const char *text = trips[_i].text;
	size_t len = text ? strlen(text) : 0, out_len = 0;
	char *buf = prism_saved_policy_format(trips[_i].params, trips[_i].path,
					      text, len, &out_len, &err);

	ck_assert_msg(buf, "%s: %s", trips[_i].what, err.text);
	ck_assert_uint_eq(strlen(buf), out_len);
	ck_assert_msg(!prism_saved_policy_parse(buf, out_len, &got, &err),
		      "%s: %s", trips[_i].what, err.text);
	ck_assert_str_eq(got.params,
			 trips[_i].params ? trips[_i].params : "");
	ck_assert_str_eq(got.path, trips[_i].path ? trips[_i].path : "");
	ck_assert_uint_eq(got.len, len);
	ck_assert(len ? !memcmp(got.text, text, len) : got.text == NULL);
	free(buf);
}
END_TEST

/* Texts that must be refused, each with the start of its error. */
static const struct {
	const char *what;
	const char *buf;
	const char *err;
} bad[] = {
	{ "empty", "", "saved policy: not a saved policy" },
	{ "a later format", "prism-saved-policy 2\nparams \npath \nlength 0\n\n",
	  "saved policy format 2, newer than format 1" },
	{ "no path line", "prism-saved-policy 1\nparams \nlength 0\n\n",
	  "saved policy: a header line is missing" },
	{ "cut in the header", "prism-saved-policy 1\nparams policy=moab",
	  "saved policy: a header line is missing" },
	{ "the text cut short",
	  "prism-saved-policy 1\nparams p\npath /f\nlength 10\n\nabc",
	  "saved policy: the length does not match" },
	{ "the text grown",
	  "prism-saved-policy 1\nparams p\npath /f\nlength 1\n\nabc",
	  "saved policy: the length does not match" },
	{ "no blank line", "prism-saved-policy 1\nparams p\npath /f\nlength 0\n",
	  "saved policy: the length does not match" },
	{ "a length with a sign",
	  "prism-saved-policy 1\nparams p\npath /f\nlength +0\n\n",
	  "saved policy: the length does not match" },
	{ "a negative length that wraps to the text's",
	  "prism-saved-policy 1\nparams p\npath /f\nlength -18446744073709551615\n\nx",
	  "saved policy: the length does not match" },
	{ "a length that is no number",
	  "prism-saved-policy 1\nparams p\npath /f\nlength x\n\n",
	  "saved policy: the length does not match" },
};

START_TEST(test_refused)
{
	prism_error_t err = { "" };
	prism_saved_policy_t got;

	ck_assert_msg(prism_saved_policy_parse(bad[_i].buf, strlen(bad[_i].buf),
					       &got, &err) ==
			      (strstr(bad[_i].err, "newer") ? PRISM_FORMAT_NEWER :
							      -1),
		      "%s: accepted", bad[_i].what);
	ck_assert_msg(!strncmp(err.text, bad[_i].err, strlen(bad[_i].err)),
		      "%s: %s", bad[_i].what, err.text);
}
END_TEST

START_TEST(test_bad_parameters)
{
	prism_error_t err = { "" };
	prism_saved_policy_t got;
	size_t len;

	ck_assert_ptr_null(prism_saved_policy_format("a\nb", NULL, NULL, 0,
						     &len, &err));
	ck_assert_ptr_null(prism_saved_policy_format(NULL, "/p\n", NULL, 0,
						     &len, &err));
	ck_assert_ptr_null(prism_saved_policy_format(NULL, NULL, NULL, 3,
						     &len, &err));
	ck_assert_ptr_null(prism_saved_policy_format(NULL, NULL, NULL, 0,
						     NULL, &err));
	ck_assert_int_eq(prism_saved_policy_parse(NULL, 0, &got, &err), -1);
	ck_assert_int_eq(prism_saved_policy_parse("x", 1, NULL, &err), -1);
}
END_TEST

extern Suite *saved_policy_suite(void)
{
	Suite *s = suite_create("saved_policy");
	TCase *tc = tcase_create("saved_policy");

	tcase_add_loop_test(tc, test_round_trip, 0, N(trips));
	tcase_add_loop_test(tc, test_refused, 0, N(bad));
	tcase_add_test(tc, test_bad_parameters);
	suite_add_tcase(s, tc);
	return s;
}
