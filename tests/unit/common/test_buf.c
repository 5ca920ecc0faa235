/*****************************************************************************\
 *  test_buf.c - unit tests of prism_buf: pieces that fit, an overflow
 *  that keeps the pieces written whole before it, and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <string.h>

#include "prism_buf.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* Each row writes "ab", "%d" of 123, "xyz" into a buffer of 'size'. */
static const struct {
	const char *what;
	size_t size;
	int want;		/* prism_buf_end() */
	const char *text;	/* the buffer after it */
	const char *err;	/* the error, "" for none */
} rows[] = {
	{ "room to spare", 32, 8, "ab123xyz", "" },
	{ "exactly the room", 9, 8, "ab123xyz", "" },
	{ "one byte short: the last piece dropped", 8, -1, "ab123",
	  "test buffer of 8 bytes is too small" },
	{ "the second piece does not fit", 4, -1, "ab",
	  "test buffer of 4 bytes is too small" },
	{ "nothing fits", 1, -1, "", "test buffer of 1 bytes is too small" },
	{ "no room at all (bad parameter)", 0, -1, NULL,
	  "test buffer of 0 bytes is too small" },
};

START_TEST(test_put)
{
	char buf[32];
	prism_error_t err = { "" };
	prism_buf_t b;

	memset(buf, '#', sizeof(buf));
	prism_buf_init(&b, buf, rows[_i].size);
	prism_buf_put(&b, "ab");
	prism_buf_put(&b, "%d", 123);
	prism_buf_put(&b, "xyz");
	ck_assert_msg(prism_buf_end(&b, "test", &err) == rows[_i].want, "%s",
		      rows[_i].what);
	ck_assert_str_eq(err.text, rows[_i].err);
	if (rows[_i].text)
		ck_assert_str_eq(buf, rows[_i].text);
	else
		ck_assert_int_eq(buf[0], '#');	/* never written */
}
END_TEST

START_TEST(test_bad_param)
{
	prism_error_t err = { "" };
	prism_buf_t b;

	/* a NULL buffer takes no piece, whatever size it claims */
	prism_buf_init(&b, NULL, 16);
	prism_buf_put(&b, "x");
	ck_assert(b.overflow);
	ck_assert_int_eq(prism_buf_end(&b, "null", &err), -1);
	ck_assert_str_eq(err.text, "null buffer of 0 bytes is too small");
	/* a NULL err is ignored */
	ck_assert_int_eq(prism_buf_end(&b, "null", NULL), -1);
}
END_TEST

extern Suite *buf_suite(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("buf");

	tcase_add_loop_test(tc, test_put, 0, N(rows));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
