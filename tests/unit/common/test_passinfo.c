/*****************************************************************************\
 *  test_passinfo.c - unit tests of prism_passinfo: round trip (every
 *  field), a buffer too small, and every kind of damaged file refused
 *  without touching the caller's struct.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "prism_format.h"
#include "prism_passinfo.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* Every field a different value, so a swap of two shows. */
static const prism_passinfo_t sample = {
	.plugin_start = 1763700000, .pass_start = 1763700300,
	.pass_end = 1763700301, .duration_usec = 123456,
	.jobs_computed = 10000, .jobs_charged = 250,
	.lock_hold_max_usec = 1789, .usage_save_usec = -1,
	.passes = 7, .save_errors = 2,
};

START_TEST(test_round_trip)
{
	prism_passinfo_t out = { 0 };
	prism_error_t err = { "" };
	char buf[512];
	int len = prism_passinfo_format(&sample, buf, sizeof(buf), &err);

	ck_assert_int_gt(len, 0);
	ck_assert_int_eq((int) strlen(buf), len);
	ck_assert_int_eq(prism_passinfo_parse(buf, len, &out, &err), 0);
	ck_assert(!memcmp(&out, &sample, sizeof(out)));
	ck_assert(strstr(buf, "prism-pass 1\nplugin_start 1763700000\n") ==
		  buf);
	ck_assert(strstr(buf, "\nusage_save_usec -1\n"));
}
END_TEST

START_TEST(test_small_buffer)
{
	prism_error_t err = { "" };
	char buf[100];

	ck_assert_int_eq(prism_passinfo_format(&sample, buf, sizeof(buf),
					       &err), -1);
	ck_assert(strstr(err.text, "too small"));
}
END_TEST

/* A valid text, then damaged by each row. */
static const struct {
	const char *what;
	int cut;		/* >0: keep only this many bytes; 0: none;
				 * < -1: drop that many from the end */
	const char *from, *to;	/* replace the first 'from' by 'to' */
	const char *append;	/* text added at the end */
	const char *want;	/* part of the error */
} bad[] = {
	{ "empty", 0, NULL, NULL, NULL, "empty" },
	{ "truncated in the middle", 60, NULL, NULL, NULL, "truncated" },
	{ "checksum line cut", -6, NULL, NULL, NULL, "truncated" },
	{ "digit changed", -1, "passes 7", "passes 8", NULL,
	  "checksum mismatch" },
	{ "later format", -1, "prism-pass 1", "prism-pass 2", NULL,
	  "newer than format 1" },
	{ "format 0", -1, "prism-pass 1", "prism-pass 0", NULL, "format 0" },
	{ "trailing garbage", -1, NULL, NULL, "more\n", "trailing" },
	{ "a line missing", -1, "jobs_charged 250\n", "", NULL,
	  "expected 'jobs_charged'" },
	{ "a value not a number", -1, "passes 7", "passes x", NULL,
	  "bad value 'x' for 'passes'" },
	{ "another kind of file", -1, "prism-pass", "prism-state", NULL,
	  "expected 'prism-pass'" },
};

START_TEST(test_damaged)
{
	prism_passinfo_t out = { .passes = -5 }, want_out = out;
	prism_error_t err = { "" };
	char buf[512], tmp[512];
	int len = prism_passinfo_format(&sample, buf, sizeof(buf), &err);

	ck_assert_int_gt(len, 0);
	if (bad[_i].from) {
		char *at = strstr(buf, bad[_i].from);

		ck_assert(at);
		snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int) (at - buf), buf,
			 bad[_i].to, at + strlen(bad[_i].from));
		len = snprintf(buf, sizeof(buf), "%s", tmp);
	}
	if (bad[_i].cut > 0)
		len = bad[_i].cut;
	else if (bad[_i].cut == 0)
		len = 0;
	else if (bad[_i].cut < -1)
		len += bad[_i].cut;
	if (bad[_i].append) {
		memcpy(buf + len, bad[_i].append, strlen(bad[_i].append));
		len += strlen(bad[_i].append);
	}
	ck_assert_msg(prism_passinfo_parse(buf, len, &out, &err) ==
			      (strstr(bad[_i].want, "newer") ?
				       PRISM_FORMAT_NEWER : -1),
		      "%s: accepted", bad[_i].what);
	ck_assert_msg(strstr(err.text, bad[_i].want), "%s: error '%s'",
		      bad[_i].what, err.text);
	ck_assert(!memcmp(&out, &want_out, sizeof(out)));
}
END_TEST

extern Suite *passinfo_suite(void)
{
	Suite *s = suite_create("passinfo");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_small_buffer);
	tcase_add_loop_test(tc, test_damaged, 0, N(bad));
	suite_add_tcase(s, tc);
	return s;
}
