/*****************************************************************************\
 *  test_tres_str.c - unit tests of prism_tres_str: entries of a TRES
 *  string by name (sizes in MB, counts as they are), missing entries,
 *  unreadable ones, and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>

#include "prism_tres_str.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *what;
	const char *tres;
	const char *name;
	int rc;
	uint64_t want;	/* 99: untouched */
} rows[] = {
	{ "memory with a suffix, in MB", "cpu=4,mem=2G,node=2", "mem", 0,
	  2048 },
	{ "a bare number", "cpu=4,mem=8000,node=1", "mem", 0, 8000 },
	{ "a count: gres", "cpu=4,mem=2G,gres/gpu=2", "gres/gpu", 0, 2 },
	{ "a count: license", "license/matlab=1,cpu=1", "license/matlab", 0,
	  1 },
	{ "a count: billing", "cpu=4,billing=40", "billing", 0, 40 },
	{ "the name without case", "cpu=1,GRES/GPU=3", "gres/gpu", 0, 3 },
	{ "a type of the gres is another name", "gres/gpu:a100=2",
	  "gres/gpu", 0, 0 },
	{ "not a prefix match", "gres/gpux=5,cpu=1", "gres/gpu", 0, 0 },
	{ "missing", "cpu=1,node=1", "mem", 0, 0 },
	{ "empty string", "", "mem", 0, 0 },
	{ "NULL string: nothing asked for", NULL, "gres/gpu", 0, 0 },
	{ "empty value", "cpu=1,mem=", "mem", -1, 99 },
	{ "not a number", "cpu=1,gres/gpu=many", "gres/gpu", -1, 99 },
	{ "a negative value", "cpu=1,billing=-1", "billing", -1, 99 },
	{ "an unknown suffix", "cpu=1,mem=5X", "mem", -1, 99 },
	{ "beyond 64 bits", "cpu=1,mem=1e30T", "mem", -1, 99 },
};

START_TEST(test_get)
{
	uint64_t v = 99;

	ck_assert_msg(prism_tres_str_get(rows[_i].tres, rows[_i].name, &v) ==
			      rows[_i].rc,
		      "%s: rc", rows[_i].what);
	ck_assert_msg(v == rows[_i].want, "%s: %llu", rows[_i].what,
		      (unsigned long long) v);
}
END_TEST

START_TEST(test_bad_param)
{
	uint64_t v = 99;

	ck_assert_int_eq(prism_tres_str_get("mem=1", NULL, &v), -1);
	ck_assert_int_eq(prism_tres_str_get("mem=1", "mem", NULL), -1);
	ck_assert_uint_eq(v, 99);
}
END_TEST

extern Suite *tres_str_suite(void)
{
	Suite *s = suite_create("tres_str");
	TCase *tc = tcase_create("tres_str");

	tcase_add_loop_test(tc, test_get, 0, N(rows));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
