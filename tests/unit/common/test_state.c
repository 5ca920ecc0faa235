/*****************************************************************************\
 *  test_state.c - unit tests of prism_state: round trip, and every kind
 *  of damaged file recognised.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "prism_format.h"
#include "prism_state.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

START_TEST(test_round_trip)
{
	prism_state_t in = { .last_recalc = 1763700000, .last_reset = 42 };
	prism_state_t out = { 0 };
	prism_error_t err = { "" };
	char buf[256];
	int len = prism_state_format(&in, buf, sizeof(buf), &err);

	ck_assert_int_gt(len, 0);
	ck_assert_int_eq(prism_state_parse(buf, len, &out, &err), 0);
	ck_assert(out.last_recalc == in.last_recalc);
	ck_assert(out.last_reset == in.last_reset);
}
END_TEST

START_TEST(test_small_buffer)
{
	prism_state_t in = { .last_recalc = 1, .last_reset = 2 };
	prism_error_t err = { "" };
	char buf[20];

	ck_assert_int_eq(prism_state_format(&in, buf, sizeof(buf), &err), -1);
	ck_assert(strstr(err.text, "too small"));
}
END_TEST

/* A valid text, then damaged by each row. */
static const struct {
	const char *what;
	int cut;		/* >0: keep only this many bytes */
	int flip;		/* >=0: change the byte at this offset */
	const char *append;	/* text added at the end */
	const char *want;	/* part of the error */
} bad[] = {
	{ "empty", 0, -1, NULL, "empty" },
	{ "truncated in the middle", 30, -1, NULL, "truncated" },
	{ "checksum line cut", -6, -1, NULL, "truncated" },
	{ "digit changed", -1, 28, NULL, "checksum mismatch" },
	{ "version changed (to a later format)", -1, 12, NULL, "newer than format 1" },
	{ "trailing garbage", -1, -1, "more\n", "trailing" },
	{ "name damaged", -1, 0, NULL, "expected" },
};

START_TEST(test_damaged)
{
	prism_state_t in = { .last_recalc = 1763700000, .last_reset = 7 };
	prism_state_t out = { .last_recalc = -5, .last_reset = -5 };
	prism_error_t err = { "" };
	char buf[256];
	int len = prism_state_format(&in, buf, sizeof(buf) - 16, &err);

	ck_assert_int_gt(len, 0);
	if (bad[_i].cut > 0)
		len = bad[_i].cut;
	else if (bad[_i].cut == 0)
		len = 0;
	else if (bad[_i].cut < -1)
		len += bad[_i].cut;
	if (bad[_i].flip >= 0)
		buf[bad[_i].flip] = buf[bad[_i].flip] == '9' ? '8' : '9';
	if (bad[_i].append) {
		memcpy(buf + len, bad[_i].append, strlen(bad[_i].append));
		len += strlen(bad[_i].append);
	}
	ck_assert_msg(prism_state_parse(buf, len, &out, &err) ==
			      (strstr(bad[_i].want, "newer") ? PRISM_FORMAT_NEWER :
							       -1),
		      "%s: accepted", bad[_i].what);
	ck_assert_msg(strstr(err.text, bad[_i].want), "%s: error '%s'",
		      bad[_i].what, err.text);
	/* no side effect on failure */
	ck_assert(out.last_recalc == -5 && out.last_reset == -5);
}
END_TEST

/* A damaged line is quoted whole (issue 35: it was cut at 40 bytes). */
START_TEST(test_long_line)
{
	prism_state_t out = { .last_recalc = -5, .last_reset = -5 };
	prism_error_t err = { "" };
	char line[301], buf[400], want[500];
	int len;

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	len = snprintf(buf, sizeof(buf), "%s\nlast_recalc 1\n", line);
	ck_assert_int_eq(prism_state_parse(buf, len, &out, &err), -1);
	snprintf(want, sizeof(want), "expected 'prism-state' on line '%s'",
		 line);
	ck_assert_str_eq(err.text, want);
	ck_assert(out.last_recalc == -5);
}
END_TEST

/* The pass-begun mark: round trip, its own head, damage recognised. */
START_TEST(test_begun)
{
	prism_error_t err = { "" };
	prism_state_t st = { .last_recalc = 1763700000, .last_reset = 1 };
	int64_t begun = -5;
	char buf[128], other[128];
	int len = prism_begun_format(1763700300, buf, sizeof(buf), &err);
	int olen = prism_state_format(&st, other, sizeof(other), &err);

	ck_assert_int_gt(len, 0);
	ck_assert(!strncmp(buf, "prism-pass-begun 1\nbegun 1763700300\n", 36));
	ck_assert_int_eq(prism_begun_parse(buf, len, &begun, &err), 0);
	ck_assert(begun == 1763700300);
	/* each text is refused as the other */
	begun = -5;
	ck_assert_int_eq(prism_begun_parse(other, olen, &begun, &err), -1);
	ck_assert_int_eq(prism_state_parse(buf, len, &st, &err), -1);
	buf[25] = buf[25] == '9' ? '8' : '9';
	ck_assert_int_eq(prism_begun_parse(buf, len, &begun, &err), -1);
	ck_assert(strstr(err.text, "checksum mismatch"));
	ck_assert_int_eq(prism_begun_parse(buf, 0, &begun, &err), -1);
	ck_assert_str_eq(err.text, "empty pass-begun mark");
	ck_assert(begun == -5);
	len = snprintf(buf, sizeof(buf), "prism-pass-begun 2\nwhatever\n");
	ck_assert_int_eq(prism_begun_parse(buf, len, &begun, &err),
			 PRISM_FORMAT_NEWER);
	ck_assert_int_eq(prism_begun_format(1, buf, 20, &err), -1);
}
END_TEST

extern Suite *state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_small_buffer);
	tcase_add_loop_test(tc, test_damaged, 0, N(bad));
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_begun);
	suite_add_tcase(s, tc);
	return s;
}
