/*****************************************************************************\
 *  test_json.c - unit tests of prism_json: strings escaped, numbers that
 *  read back, null for what JSON cannot hold, a buffer too small.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <string.h>

#include "prism_json.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *what;
	const char *in;
	const char *want;
} str_rows[] = {
	{ "plain", "alice", "\"alice\"" },
	{ "empty", "", "\"\"" },
	{ "NULL is null", NULL, "null" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "short escapes", "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
	{ "other control characters", "\x01x\x1f\x7f",
	  "\"\\u0001x\\u001f\\u007f\"" },
	{ "UTF-8 passes through", "gr\xc3\xbc\xc3\x9f",
	  "\"gr\xc3\xbc\xc3\x9f\"" },
	{ "slash is left alone", "a/b", "\"a/b\"" },
};

START_TEST(test_str)
{
	char text[64];
	prism_buf_t b;

	prism_buf_init(&b, text, sizeof(text));
	prism_json_str(&b, str_rows[_i].in);
	ck_assert_msg(!strcmp(text, str_rows[_i].want), "%s: %s",
		      str_rows[_i].what, text);
}
END_TEST

static const struct {
	const char *what;
	double in;
	const char *want;
} num_rows[] = {
	{ "integer", 4800, "4800" },
	{ "short fraction", 0.25, "0.25" },
	{ "a tenth stays short", 0.1, "0.1" },
	{ "negative", -9500.5, "-9500.5" },
	{ "needs 17 digits", 0.1 + 0.2, "0.30000000000000004" },
	{ "NaN is null", NAN, "null" },
	{ "infinity is null", INFINITY, "null" },
};

START_TEST(test_num)
{
	char text[64];
	prism_buf_t b;

	prism_buf_init(&b, text, sizeof(text));
	prism_json_num(&b, num_rows[_i].in);
	ck_assert_msg(!strcmp(text, num_rows[_i].want), "%s: %s",
		      num_rows[_i].what, text);
}
END_TEST

START_TEST(test_bad_param)
{
	char text[4];
	prism_buf_t b;
	prism_error_t err = { "" };

	prism_buf_init(&b, text, sizeof(text));
	prism_json_str(&b, "too long");
	ck_assert_int_eq(prism_buf_end(&b, "json", &err), -1);
	prism_buf_init(&b, NULL, 0);
	prism_json_num(&b, 1.0);
	ck_assert_int_eq(prism_buf_end(&b, "json", &err), -1);
}
END_TEST

extern Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_loop_test(tc, test_str, 0, N(str_rows));
	tcase_add_loop_test(tc, test_num, 0, N(num_rows));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
