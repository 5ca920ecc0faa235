/*****************************************************************************\
 *  test_ge_usage.c - unit tests of prism_ge_usage: charging, decay by
 *  halftime, the text round trip, every kind of damaged text recognised,
 *  and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_ge_usage.h"
#include "prism_state.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))
#define HOUR 3600

static bool _near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1.0, fabs(b));
}

START_TEST(test_charge)
{
	prism_ge_usage_t *u = prism_ge_usage_create(1000);
	prism_error_t err = { "" };

	ck_assert_ptr_nonnull(u);
	ck_assert(prism_ge_usage_get(u, 7) == 0.0);
	ck_assert_int_eq(prism_ge_usage_charge(u, 7, 100, &err), 0);
	ck_assert_int_eq(prism_ge_usage_charge(u, 7, 50, &err), 0);
	ck_assert_int_eq(prism_ge_usage_charge(u, 0, 0, &err), 0);
	ck_assert_int_eq(prism_ge_usage_charge(u, UINT32_MAX, 1e18, &err), 0);
	ck_assert(prism_ge_usage_get(u, 7) == 150.0);
	ck_assert(prism_ge_usage_get(u, UINT32_MAX) == 1e18);
	ck_assert(prism_ge_usage_get(u, 8) == 0.0);
	ck_assert_uint_eq(prism_ge_usage_count(u), 3);
	ck_assert_int_eq(prism_ge_usage_last(u), 1000);
	/* many ids: the arrays grow */
	for (uint32_t i = 100; i < 1100; i++)
		ck_assert_int_eq(prism_ge_usage_charge(u, i, i, &err), 0);
	for (uint32_t i = 100; i < 1100; i++)
		ck_assert(prism_ge_usage_get(u, i) == i);
	ck_assert_uint_eq(prism_ge_usage_count(u), 1003);
	prism_ge_usage_free(u);
}
END_TEST

/* Each row: halftime (hours), seconds to decay, factor expected. */
static const struct {
	uint32_t halftime;
	int64_t seconds;
	double factor;
} decay[] = {
	{ 168, 168 * HOUR, 0.5 },
	{ 168, 336 * HOUR, 0.25 },
	{ 1, HOUR / 2, 0.70710678118654752 },
	{ 0, 1000 * HOUR, 1 },		/* GE: no decay */
	{ 168, 0, 1 },
	{ 168, -HOUR, 1 },		/* clock went back: nothing */
};

START_TEST(test_decay)
{
	prism_ge_usage_t *u = prism_ge_usage_create(50000);
	prism_error_t err = { "" };
	int64_t at = 50000 + decay[_i].seconds;

	ck_assert_int_eq(prism_ge_usage_charge(u, 3, 1000, &err), 0);
	ck_assert_int_eq(prism_ge_usage_charge(u, 4, 10, &err), 0);
	prism_ge_usage_decay(u, at, decay[_i].halftime);
	ck_assert_msg(_near(prism_ge_usage_get(u, 3), 1000 * decay[_i].factor),
		      "row %d: %.17g", _i, prism_ge_usage_get(u, 3));
	ck_assert(_near(prism_ge_usage_get(u, 4), 10 * decay[_i].factor));
	ck_assert_int_eq(prism_ge_usage_last(u),
			 decay[_i].seconds > 0 ? at : 50000);
	prism_ge_usage_free(u);
}
END_TEST

/* Decaying in steps is decaying at once. */
START_TEST(test_decay_steps)
{
	prism_ge_usage_t *a = prism_ge_usage_create(0);
	prism_ge_usage_t *b = prism_ge_usage_create(0);

	prism_ge_usage_charge(a, 1, 12345, NULL);
	prism_ge_usage_charge(b, 1, 12345, NULL);
	for (int64_t t = 60; t <= 24 * HOUR; t += 60)
		prism_ge_usage_decay(a, t, 24);
	prism_ge_usage_decay(b, 24 * HOUR, 24);
	ck_assert(fabs(prism_ge_usage_get(a, 1) - 12345 / 2.0) < 1e-6);
	ck_assert(fabs(prism_ge_usage_get(b, 1) - 12345 / 2.0) < 1e-9);
	prism_ge_usage_free(a);
	prism_ge_usage_free(b);
}
END_TEST

START_TEST(test_round_trip)
{
	prism_ge_usage_t *u = prism_ge_usage_create(1763700000), *v = NULL;
	prism_error_t err = { "" };
	size_t size;
	char *buf;
	int len;

	prism_ge_usage_charge(u, 2, 1.0 / 3, NULL);
	prism_ge_usage_charge(u, 9, 0, NULL);	/* not written */
	prism_ge_usage_charge(u, 4000000000u, 123456789.125, NULL);
	size = prism_ge_usage_format_size(u);
	buf = malloc(size);
	len = prism_ge_usage_format(u, buf, size, &err);
	ck_assert_msg(len > 0, "%s", err.text);
	ck_assert_uint_eq(strlen(buf), len);
	ck_assert(!strncmp(buf, "prism-ge-usage 1\nlast 1763700000\nassoc 2 ",
			   41));
	ck_assert_ptr_null(strstr(buf, "assoc 9 "));
	ck_assert_msg(!prism_ge_usage_parse(buf, len, &v, &err), "%s",
		      err.text);
	ck_assert_int_eq(prism_ge_usage_last(v), 1763700000);
	ck_assert(prism_ge_usage_get(v, 2) == 1.0 / 3);
	ck_assert(prism_ge_usage_get(v, 4000000000u) == 123456789.125);
	ck_assert_uint_eq(prism_ge_usage_count(v), 2);
	/* too small a buffer */
	ck_assert_int_eq(prism_ge_usage_format(u, buf, 40, &err), -1);
	ck_assert_str_eq(err.text,
			 "grid engine usage: buffer of 40 bytes is too small");
	free(buf);
	prism_ge_usage_free(u);
	prism_ge_usage_free(v);
}
END_TEST

/*
 * Each row: a body (the checksum line is added unless 'raw'), the error
 * expected.
 */
static const struct {
	const char *text;
	bool raw;
	const char *want;
} bad[] = {
	{ "", true, "grid engine usage: empty" },
	{ "prism-ge-usage 1\nlast 5\nchecksum 0000", true,
	  "grid engine usage: truncated" },
	{ "prism-ge-usage 1\nlast 5\n", true,
	  "grid engine usage: truncated or trailing data (no checksum at the end)" },
	{ "prism-ge-usage 1\nlast 5\nchecksum 00000000\n", true,
	  "grid engine usage: checksum mismatch" },
	{ "prism-ge-usage 1\nlast 5\nchecksum 0000000g\n", true,
	  "grid engine usage: checksum mismatch" },
	{ "prism-moab-usage 1\nlast 5\n", false,
	  "grid engine usage: not a usage state" },
	{ "prism-ge-usage 2\nlast 5\n", false,
	  "grid engine usage format 2, newer than format 1, the newest this Prism reads: written by a later Prism" },
	{ "prism-ge-usage 1\nfirst 5\n", false,
	  "grid engine usage: line 2: expected 'last EPOCH'" },
	{ "prism-ge-usage 1\nlast x\n", false,
	  "grid engine usage: line 2: expected 'last EPOCH'" },
	{ "prism-ge-usage 1\n", false,
	  "grid engine usage: line 2: expected 'last EPOCH'" },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 5\nassoc 1 6\n", false,
	  "grid engine usage: line 4: association 1 repeated" },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 -5\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 nan\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 1e19\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nassoc 4294967296 1\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nassoc -1 1\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nassoc 1\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 2 3\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\nuser x 2\n", false,
	  "grid engine usage: line 3: bad line" },
	{ "prism-ge-usage 1\nlast 5\n\n", false,
	  "grid engine usage: line 3: bad line" },
};

START_TEST(test_damaged)
{
	char text[512];
	prism_ge_usage_t *u = (prism_ge_usage_t *) 1;
	prism_error_t err = { "" };
	size_t len;

	if (bad[_i].raw) {
		len = (size_t) snprintf(text, sizeof(text), "%s", bad[_i].text);
	} else {
		size_t body = strlen(bad[_i].text);

		memcpy(text, bad[_i].text, body + 1);
		len = body + (size_t) snprintf(
			text + body, sizeof(text) - body, "checksum %08x\n",
			(unsigned) prism_state_checksum(text, body));
	}
	ck_assert_int_eq(prism_ge_usage_parse(text, len, &u, &err),
			 strstr(bad[_i].want, "newer") ? PRISM_FORMAT_NEWER :
							 -1);
	ck_assert_str_eq(err.text, bad[_i].want);
	ck_assert_ptr_eq(u, (prism_ge_usage_t *) 1);
}
END_TEST

/*
 * Texts that load, and load again once formatted (fuzz_ge_usage finds,
 * tests/fuzz/crashes/ge_usage-*). Each row: a body (the checksum line is
 * added), the usage of association 1 expected, a halftime and seconds to
 * decay and an amount to charge to 1 before the text is written again.
 */
static const struct {
	const char *text;
	double want;
	uint32_t halftime;
	int64_t seconds;
	double charge;
} good[] = {
	/* a subnormal, as decay leaves it: %.17g writes a decimal that
	 * strtod() reads with ERANGE (underflow); it was refused */
	{ "prism-ge-usage 1\nlast 5\nassoc 1 2.2159123920436429e-308\n",
	  2.2159123920436429e-308, 0, 0, 0 },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 0x1p-1030\n", 0x1p-1030, 0, 0,
	  0 },
	/* decayed into the subnormals, then saved */
	{ "prism-ge-usage 1\nlast 5\nassoc 1 1e-300\n", 1e-300, 1,
	  30 * HOUR, 0 },
	/* charged past 1e18 (the most a text holds): the sum saturates, it
	 * was saved as a text that did not load */
	{ "prism-ge-usage 1\nlast 9223372036854775807\nassoc 1 1e18\n",
	  1e18, 168, 0, 3600 },
	{ "prism-ge-usage 1\nlast 5\nassoc 1 9e17\n", 9e17, 0, 0, 1e18 },
};

START_TEST(test_good)
{
	char text[512];
	prism_ge_usage_t *u = NULL, *v = NULL;
	prism_error_t err = { "" };
	size_t body = strlen(good[_i].text), size;
	char *buf;
	int len;

	memcpy(text, good[_i].text, body + 1);
	len = (int) (body + (size_t) snprintf(
		text + body, sizeof(text) - body, "checksum %08x\n",
		(unsigned) prism_state_checksum(text, body)));
	ck_assert_msg(!prism_ge_usage_parse(text, (size_t) len, &u, &err),
		      "row %d: %s", _i, err.text);
	ck_assert(prism_ge_usage_get(u, 1) == good[_i].want);
	prism_ge_usage_decay(u, prism_ge_usage_last(u) + good[_i].seconds,
			     good[_i].halftime);
	ck_assert_int_eq(prism_ge_usage_charge(u, 1, good[_i].charge, &err),
			 0);
	ck_assert(prism_ge_usage_get(u, 1) <= 1e18);
	size = prism_ge_usage_format_size(u);
	buf = malloc(size);
	len = prism_ge_usage_format(u, buf, size, &err);
	ck_assert_msg(len > 0, "%s", err.text);
	ck_assert_msg(!prism_ge_usage_parse(buf, (size_t) len, &v, &err),
		      "row %d: %s\n%s", _i, err.text, buf);
	ck_assert(prism_ge_usage_get(v, 1) == prism_ge_usage_get(u, 1));
	free(buf);
	prism_ge_usage_free(u);
	prism_ge_usage_free(v);
}
END_TEST

/* prism_ge_usage_amount(): a job's CPU-seconds; 0 when no time passed. */
static const struct {
	const char *what;
	uint32_t cpus;
	double seconds;
	double want;
} amounts[] = {
	{ "4 CPUs for 10 s", 4, 10.0, 40.0 },
	{ "one CPU for a fraction of a second", 1, 0.25, 0.25 },
	{ "no CPU", 0, 100.0, 0.0 },
	{ "every CPU for a week", UINT32_MAX, 7 * 24.0 * HOUR,
	  (double) UINT32_MAX * 7 * 24 * HOUR },
	{ "no time", 4, 0.0, 0.0 },
	{ "bad parameter: time going back", 4, -5.0, 0.0 },
	{ "bad parameter: NAN seconds", 4, NAN, 0.0 },
	{ "bad parameter: infinite seconds", 4, INFINITY, 0.0 },
};

START_TEST(test_amount)
{
	double got = prism_ge_usage_amount(amounts[_i].cpus,
					   amounts[_i].seconds);

	ck_assert_msg(got == amounts[_i].want, "%s: %g", amounts[_i].what,
		      got);
}
END_TEST

START_TEST(test_bad_param)
{
	prism_ge_usage_t *u = prism_ge_usage_create(0), *v = NULL;
	prism_error_t err = { "" };
	char buf[64];

	ck_assert_int_eq(prism_ge_usage_charge(NULL, 1, 1, &err), -1);
	ck_assert_str_eq(err.text, "grid engine usage: NULL argument");
	ck_assert_int_eq(prism_ge_usage_charge(u, 1, -1, &err), -1);
	ck_assert_str_eq(err.text,
			 "grid engine usage: association 1: amount -1 not in 0..1e18");
	ck_assert_int_eq(prism_ge_usage_charge(u, 1, NAN, &err), -1);
	ck_assert_int_eq(prism_ge_usage_charge(u, 1, 2e18, &err), -1);
	ck_assert_uint_eq(prism_ge_usage_count(u), 0);
	ck_assert_int_eq(prism_ge_usage_format(NULL, buf, sizeof(buf), &err),
			 -1);
	ck_assert_int_eq(prism_ge_usage_format(u, NULL, 10, &err), -1);
	ck_assert_int_eq(prism_ge_usage_format(u, buf, 0, &err), -1);
	ck_assert_int_eq(prism_ge_usage_parse(NULL, 1, &v, &err), -1);
	ck_assert_int_eq(prism_ge_usage_parse("x\n", 2, NULL, &err), -1);
	ck_assert(prism_ge_usage_get(NULL, 1) == 0.0);
	ck_assert_uint_eq(prism_ge_usage_count(NULL), 0);
	ck_assert_int_eq(prism_ge_usage_last(NULL), 0);
	prism_ge_usage_decay(NULL, 5, 1);
	prism_ge_usage_free(NULL);
	prism_ge_usage_free(u);
}
END_TEST

extern Suite *ge_usage_suite(void)
{
	Suite *s = suite_create("ge_usage");
	TCase *tc = tcase_create("ge_usage");

	tcase_add_test(tc, test_charge);
	tcase_add_loop_test(tc, test_decay, 0, N(decay));
	tcase_add_test(tc, test_decay_steps);
	tcase_add_test(tc, test_round_trip);
	tcase_add_loop_test(tc, test_damaged, 0, N(bad));
	tcase_add_loop_test(tc, test_good, 0, N(good));
	tcase_add_loop_test(tc, test_amount, 0, N(amounts));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
