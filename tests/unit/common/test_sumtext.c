/*****************************************************************************\
 *  test_sumtext.c - unit tests of prism_sumtext: the checksum line
 *  written and checked, the lines and numbers read back (subnormal values
 *  included), and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_state.h"
#include "prism_sumtext.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

START_TEST(test_write)
{
	const double v[] = { 0.0, 1.5, 1e18, 0x1p-1074, 2.2159123920436429e-308,
			     DBL_MAX, 0.1 };
	char buf[512], want[64];
	prism_error_t err = { "" };
	size_t body;
	prism_buf_t b;
	char *cur;
	int len;

	prism_buf_init(&b, buf, sizeof(buf));
	prism_buf_put(&b, "kind 1\nrow");
	for (int i = 0; i < N(v); i++)
		prism_sumtext_put_real(&b, v[i]);
	prism_buf_put(&b, "\n");
	body = b.len;
	prism_sumtext_put_checksum(&b);
	len = prism_buf_end(&b, "test", &err);
	ck_assert_int_gt(len, 0);
	snprintf(want, sizeof(want), "checksum %08x\n",
		 (unsigned) prism_state_checksum(buf, body));
	ck_assert_str_eq(buf + body, want);
	/* every number reads back to the same double, and fits the bound */
	cur = strstr(buf, "row") + 3;
	for (int i = 0; i < N(v); i++) {
		const char *start = cur;
		double got;

		ck_assert_int_eq(prism_sumtext_real(cur, 0.0, DBL_MAX, &cur,
						    &got),
				 0);
		ck_assert(got == v[i]);
		ck_assert_int_le(cur - start, PRISM_SUMTEXT_REAL_MAX);
	}
}
END_TEST

START_TEST(test_checksum_after_overflow)
{
	char buf[8];
	prism_error_t err = { "" };
	prism_buf_t b;

	prism_buf_init(&b, buf, sizeof(buf));
	prism_buf_put(&b, "kind 1\n");
	prism_sumtext_put_checksum(&b);
	ck_assert_int_eq(prism_buf_end(&b, "usage", &err), -1);
	ck_assert_str_eq(buf, "kind 1\n");
}
END_TEST

/* Texts for prism_sumtext_open(): '@' stands for the right checksum. */
static const struct {
	const char *text;
	prism_sumtext_rc_t want;
	const char *body;	/* when OK */
} opens[] = {
	{ "kind 1\nx 2\n@", PRISM_SUMTEXT_OK, "kind 1\nx 2\n" },
	{ "@", PRISM_SUMTEXT_OK, "" },
	{ "", PRISM_SUMTEXT_EMPTY, NULL },
	{ "kind 1\nchecksum 00000000", PRISM_SUMTEXT_TRUNCATED, NULL },
	{ "kind 1\n", PRISM_SUMTEXT_NO_CHECKSUM, NULL },
	{ "kind 1\nchecksum\n", PRISM_SUMTEXT_NO_CHECKSUM, NULL },
	{ "kind 1\n\n", PRISM_SUMTEXT_NO_CHECKSUM, NULL },
	{ "\n", PRISM_SUMTEXT_NO_CHECKSUM, NULL },
	{ "kind 1\n@trailing\n", PRISM_SUMTEXT_NO_CHECKSUM, NULL },
	{ "kind 1\nchecksum 1234\n", PRISM_SUMTEXT_BAD_LENGTH, NULL },
	{ "kind 1\nchecksum 123456789\n", PRISM_SUMTEXT_BAD_LENGTH, NULL },
	{ "kind 1\nchecksum \n", PRISM_SUMTEXT_BAD_LENGTH, NULL },
	{ "kind 1\nchecksum 0000000g\n", PRISM_SUMTEXT_MISMATCH, NULL },
	{ "kind 1\nchecksum 00000000\n", PRISM_SUMTEXT_MISMATCH, NULL },
	{ "kind 1\nchecksum -0000000\n", PRISM_SUMTEXT_MISMATCH, NULL },
};

/* 'text' with '@' replaced by the checksum line of what precedes it. */
static size_t _fill(char *out, size_t size, const char *text)
{
	const char *at = strchr(text, '@');
	size_t n = at ? (size_t) (at - text) : strlen(text);

	memcpy(out, text, n);
	if (!at)
		return n;
	n += (size_t) snprintf(out + n, size - n, "checksum %08x\n",
			       (unsigned) prism_state_checksum(out, n));
	n += (size_t) snprintf(out + n, size - n, "%s", at + 1);
	return n;
}

START_TEST(test_open)
{
	char text[256], *body = (char *) 1;
	size_t len = _fill(text, sizeof(text), opens[_i].text), body_len = 7;
	prism_sumtext_rc_t rc = prism_sumtext_open(text, len, &body,
						   &body_len);

	ck_assert_msg(rc == opens[_i].want, "row %d: %d (%s)", _i, (int) rc,
		      prism_sumtext_why(rc));
	if (rc != PRISM_SUMTEXT_OK) {
		ck_assert_ptr_eq(body, (char *) 1);
		ck_assert_uint_eq(body_len, 7);
		return;
	}
	ck_assert_str_eq(body, opens[_i].body);
	ck_assert_uint_eq(body_len, strlen(opens[_i].body));
	free(body);
}
END_TEST

/* The checksum line of a text is checked with upper-case digits too. */
START_TEST(test_open_upper)
{
	char text[64], *body = NULL, *hex;
	size_t len = _fill(text, sizeof(text), "kind 1\n@"), body_len = 0;

	hex = strstr(text, "checksum ") + 9;
	for (char *p = hex; *p != '\n'; p++)
		*p = (char) (*p >= 'a' && *p <= 'f' ? *p - 'a' + 'A' : *p);
	ck_assert_int_eq(prism_sumtext_open(text, len, &body, &body_len),
			 PRISM_SUMTEXT_OK);
	free(body);
}
END_TEST

START_TEST(test_why)
{
	ck_assert_str_eq(prism_sumtext_why(PRISM_SUMTEXT_EMPTY), "empty");
	ck_assert_str_eq(prism_sumtext_why(PRISM_SUMTEXT_TRUNCATED),
			 "truncated");
	ck_assert_str_eq(prism_sumtext_why(PRISM_SUMTEXT_NO_CHECKSUM),
			 "truncated or trailing data (no checksum at the end)");
	ck_assert_str_eq(prism_sumtext_why(PRISM_SUMTEXT_MISMATCH),
			 "checksum mismatch");
	ck_assert_str_eq(prism_sumtext_why(PRISM_SUMTEXT_NO_MEMORY),
			 "out of memory");
	ck_assert_str_eq(prism_sumtext_why((prism_sumtext_rc_t) 99),
			 "bad parameter");
}
END_TEST

START_TEST(test_lines)
{
	char body[] = "one\n\nthree";
	const char *want[] = { "one", "", "three" };
	size_t pos = 0;
	char *line;
	int n = 0;

	while ((line = prism_sumtext_line(body, strlen("one\n\nthree"),
					  &pos))) {
		ck_assert_int_lt(n, N(want));
		ck_assert_str_eq(line, want[n++]);
	}
	ck_assert_int_eq(n, N(want));
}
END_TEST

/* Integers: all of the text, in range. */
static const struct {
	const char *s;
	int64_t min, max;
	int rc;
	int64_t want;
} ints[] = {
	{ "42", 0, 100, 0, 42 },
	{ "-7", -10, 10, 0, -7 },
	{ "+5", 0, 10, 0, 5 },		/* strtoll's sign */
	{ " 5", 0, 10, 0, 5 },		/* and its blanks */
	{ "9223372036854775807", INT64_MIN, INT64_MAX, 0, INT64_MAX },
	{ "-9223372036854775808", INT64_MIN, INT64_MAX, 0, INT64_MIN },
	{ "9223372036854775808", INT64_MIN, INT64_MAX, -1, 0 },	/* ERANGE */
	{ "101", 0, 100, -1, 0 },
	{ "-1", 0, 100, -1, 0 },
	{ "", 0, 100, -1, 0 },
	{ "5x", 0, 100, -1, 0 },
	{ "5 ", 0, 100, -1, 0 },
	{ "0x10", 0, 100, -1, 0 },
	{ "x", 0, 100, -1, 0 },
};

START_TEST(test_int)
{
	int64_t v = 12345;
	int rc = prism_sumtext_int(ints[_i].s, ints[_i].min, ints[_i].max, &v);

	ck_assert_msg(rc == ints[_i].rc, "'%s': %d", ints[_i].s, rc);
	ck_assert(v == (rc ? 12345 : ints[_i].want));
}
END_TEST

/* Reals: a number at the start, in range; 'rest' is what follows it. */
static const struct {
	const char *s;
	double max;
	int rc;
	double want;
	const char *rest;
} reals[] = {
	{ "1.5 2", DBL_MAX, 0, 1.5, " 2" },
	{ "0", DBL_MAX, 0, 0.0, "" },
	{ "-0", DBL_MAX, 0, -0.0, "" },
	{ " 3", DBL_MAX, 0, 3.0, "" },
	/* subnormal: strtod() says ERANGE, the value is valid */
	{ "4.9406564584124654e-324", DBL_MAX, 0, 0x1p-1074, "" },
	{ "2.2159123920436429e-308", 1e18, 0, 2.2159123920436429e-308, "" },
	{ "1e18", 1e18, 0, 1e18, "" },
	{ "1.0000000000000001e18", 1e18, -1, 0, NULL },
	{ "1e999", DBL_MAX, -1, 0, NULL },	/* overflow: HUGE_VAL */
	{ "inf", DBL_MAX, -1, 0, NULL },
	{ "nan", DBL_MAX, -1, 0, NULL },
	{ "-1", DBL_MAX, -1, 0, NULL },
	{ "", DBL_MAX, -1, 0, NULL },
	{ "x", DBL_MAX, -1, 0, NULL },
};

START_TEST(test_real)
{
	char *end = (char *) 1;
	double v = 12345.0;
	int rc = prism_sumtext_real(reals[_i].s, 0.0, reals[_i].max, &end, &v);

	ck_assert_msg(rc == reals[_i].rc, "'%s': %d", reals[_i].s, rc);
	if (rc) {
		ck_assert(v == 12345.0);
		ck_assert_ptr_eq(end, (char *) 1);
		return;
	}
	ck_assert(v == reals[_i].want);
	ck_assert(signbit(v) == signbit(reals[_i].want));
	ck_assert_str_eq(end, reals[_i].rest);
}
END_TEST

START_TEST(test_bad_param)
{
	char *body = NULL;
	size_t len = 0;

	ck_assert_int_eq(prism_sumtext_open(NULL, 1, &body, &len),
			 PRISM_SUMTEXT_BAD_PARAMETER);
	ck_assert_int_eq(prism_sumtext_open("x\n", 2, NULL, &len),
			 PRISM_SUMTEXT_BAD_PARAMETER);
	ck_assert_int_eq(prism_sumtext_open("x\n", 2, &body, NULL),
			 PRISM_SUMTEXT_BAD_PARAMETER);
	ck_assert_ptr_null(body);
	ck_assert_str_eq(prism_sumtext_why(PRISM_SUMTEXT_BAD_PARAMETER),
			 "bad parameter");
}
END_TEST

extern Suite *sumtext_suite(void)
{
	Suite *s = suite_create("sumtext");
	TCase *tc = tcase_create("sumtext");

	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_checksum_after_overflow);
	tcase_add_loop_test(tc, test_open, 0, N(opens));
	tcase_add_test(tc, test_open_upper);
	tcase_add_test(tc, test_why);
	tcase_add_test(tc, test_lines);
	tcase_add_loop_test(tc, test_int, 0, N(ints));
	tcase_add_loop_test(tc, test_real, 0, N(reals));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
