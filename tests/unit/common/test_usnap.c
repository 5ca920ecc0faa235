/*****************************************************************************\
 *  test_usnap.c - unit tests of prism_usnap: the image's round trip,
 *  every kind of damage recognised, and the rule that decides between the
 *  snapshot and slurmctld's own usage file at start.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_usnap.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const prism_usnap_head_t head = {
	.last_recalc = 1763700000, .last_reset = 1763000000,
	.taken = 1763700001, .tres_cnt = 3, .assoc_cnt = 4, .qos_cnt = 2,
};

/* Record i's TRES usages: record 1 has none (NULL), record 2 only zeros,
 * record 3 only its second. */
static void _tres_of(uint32_t i, long double tres[3])
{
	tres[0] = (i == 2 || i == 3) ? 0 : i;
	tres[1] = (i == 2) ? 0 : 1.0L / 3 + i;
	tres[2] = (i == 2 || i == 3) ? 0 : 7e15L * i;
}

/* An image of 'head' whose record i has id 100 + i and values from i. */
static char *_image(size_t *len)
{
	char *buf = malloc(prism_usnap_max_size(&head));
	size_t pos = PRISM_USNAP_HEAD;

	ck_assert(buf);
	for (uint32_t i = 0; i < head.assoc_cnt + head.qos_cnt; i++) {
		prism_usnap_rec_t r = { .id = 100 + i,
					.grp_used_wall = 0.5 * i,
					.usage_raw = 1e12L / 3 + i };
		long double tres[3];
		size_t at = pos;

		_tres_of(i, tres);
		prism_usnap_put(buf, &pos, head.tres_cnt, &r,
				(i == 1) ? NULL : tres);
		/* the most a record takes: what the plugin grows its image by
		 * (record 1 has no TRES, 4 and 5 have all three) */
		ck_assert_uint_le(pos - at, prism_usnap_rec_max(head.tres_cnt));
		if (i == 1)
			ck_assert_uint_eq(pos - at, prism_usnap_rec_max(0));
		if (i >= 4)
			ck_assert_uint_eq(pos - at, prism_usnap_rec_max(3));
	}
	*len = prism_usnap_end(buf, pos, &head);
	return buf;
}

START_TEST(test_round_trip)
{
	prism_usnap_head_t h = { 0 };
	prism_error_t err = { "" };
	size_t len, pos = PRISM_USNAP_HEAD;
	char *buf = _image(&len);

	/* x86-64: long doubles in 10 bytes; records 4 and 5 with 3 TRES,
	 * 0 and 3 with 1, 1 and 2 without */
	if (sizeof(long double) == 16)
		ck_assert_uint_eq(len, 64 + 6 * 26 + 8 * 14 + 8);
	ck_assert_uint_le(len, prism_usnap_max_size(&head));
	ck_assert_int_eq(prism_usnap_parse(buf, len, &h, &err), 0);
	ck_assert(h.last_recalc == head.last_recalc);
	ck_assert(h.last_reset == head.last_reset);
	ck_assert(h.taken == head.taken);
	ck_assert_uint_eq(h.tres_cnt, 3);
	ck_assert_uint_eq(h.assoc_cnt, 4);
	ck_assert_uint_eq(h.qos_cnt, 2);
	for (uint32_t i = 0; i < 6; i++) {
		prism_usnap_rec_t r;
		long double tres[3] = { -1, -1, -1 }, want[3];

		prism_usnap_next(buf, &h, &pos, &r, tres);
		ck_assert_uint_eq(r.id, 100 + i);
		ck_assert(r.grp_used_wall == 0.5 * i);
		ck_assert(r.usage_raw == 1e12L / 3 + i);	/* exact */
		_tres_of(i, want);
		if (i == 1)
			want[0] = want[1] = want[2] = 0;
		for (int t = 0; t < 3; t++)
			ck_assert_msg(tres[t] == want[t], "record %u TRES %d",
				      i, t);
	}
	ck_assert_uint_eq(pos, len - 8);
	/* the same values give the same bytes */
	{
		size_t len2;
		char *buf2 = _image(&len2);

		ck_assert_uint_eq(len2, len);
		ck_assert(!memcmp(buf, buf2, len));
		free(buf2);
	}
	free(buf);
}
END_TEST

/* Which TRES usages a record stores: all but zeros (-0 is one); the
 * smallest subnormal, LDBL_MIN, infinity and NaN are stored. */
START_TEST(test_zero_kinds)
{
	static const long double kinds[2][3] = {
		{ -0.0L, LDBL_TRUE_MIN, LDBL_MIN },
		{ NAN, INFINITY, 0.0L },
	};
	char buf[256];
	size_t pos = 0;
	prism_usnap_rec_t r = { .id = 1 };

	for (int k = 0; k < 2; k++) {
		size_t at = pos;

		prism_usnap_put(buf, &pos, 3, &r, kinds[k]);
		ck_assert_uint_eq(pos - at, prism_usnap_rec_max(2));
	}
}
END_TEST

START_TEST(test_empty)
{
	prism_usnap_head_t in = { .last_recalc = 5, .tres_cnt = 0 };
	prism_usnap_head_t h = { 0 };
	prism_error_t err = { "" };
	char buf[72];

	ck_assert_uint_eq(prism_usnap_max_size(&in), sizeof(buf));
	ck_assert_uint_eq(prism_usnap_end(buf, PRISM_USNAP_HEAD, &in),
			  sizeof(buf));
	ck_assert_int_eq(prism_usnap_parse(buf, sizeof(buf), &h, &err), 0);
	ck_assert(h.last_recalc == 5 && !h.assoc_cnt && !h.qos_cnt);
}
END_TEST

START_TEST(test_size_limit)
{
	prism_usnap_head_t h = { .tres_cnt = 4000, .assoc_cnt = UINT32_MAX,
				 .qos_cnt = UINT32_MAX };
	prism_usnap_head_t ok = { .tres_cnt = 8, .assoc_cnt = 1000000 };

	ck_assert_uint_eq(prism_usnap_max_size(&h), 0);
	ck_assert_uint_gt(prism_usnap_max_size(&ok), 0);
}
END_TEST

/*
 * Re-checksum an image after changing it, to reach the checks behind the
 * checksum.
 */
static void _reseal(char *buf, size_t len)
{
	uint64_t sum = prism_usnap_checksum(buf, len - 8);

	memcpy(buf + len - 8, &sum, sizeof(sum));
}

/* A valid image, then damaged by each row. */
static const struct {
	const char *what;
	long cut;		/* >0: keep this many bytes; <0: drop */
	long flip;		/* >=1000: flip byte flip-1000; <0: from end */
	bool grow;		/* add 8 bytes */
	bool reseal;		/* checksum the damaged image again */
	const char *want;	/* part of the error */
} bad[] = {
	{ "empty", 0, 0, false, false, "truncated" },
	{ "header only", 64, 0, false, false, "truncated" },
	{ "last record cut", -24, 0, false, false, "checksum" },
	{ "checksum cut", -1, 0, false, false, "checksum" },
	{ "magic", 0, 0 + 1000, false, false, "magic" },
	{ "version (a later format)", 0, 8 + 1000, false, false, "newer than format 1" },
	{ "long double size", 0, 12 + 1000, false, false, "another kind" },
	{ "byte order", 0, 16 + 1000, false, false, "another kind" },
	{ "pass time", 0, 24 + 1000, false, false, "checksum" },
	{ "a usage value", 0, 64 + 20 + 1000, false, false, "checksum" },
	{ "a record id", 0, 64 + 1000, false, false, "checksum" },
	{ "the checksum", 0, -3, false, false, "checksum" },
	{ "trailing data", 0, 0, true, false, "checksum" },
	{ "count, resealed", 0, 48 + 1000, false, true, "truncated" },
	{ "header TRES count, resealed", 0, 23 + 1000, false, true,
	  "out of range" },
	{ "TRES count, resealed", 0, 64 + 4 + 1000, false, true, "TRES" },
	{ "TRES index, resealed", 0, 64 + 26 + 1000, false, true, "TRES" },
	{ "trailing data, resealed", 0, 0, true, true, "after the last" },
};

START_TEST(test_damaged)
{
	prism_usnap_head_t h = { .last_recalc = -5 };
	prism_error_t err = { "" };
	size_t len;
	char *buf = _image(&len);

	buf = realloc(buf, len + 8);
	ck_assert(buf);
	if (bad[_i].cut > 0)
		len = bad[_i].cut;
	else if (bad[_i].cut < 0)
		len += bad[_i].cut;
	else if (!bad[_i].flip && !bad[_i].grow)
		len = 0;
	if (bad[_i].flip >= 1000)
		buf[bad[_i].flip - 1000] ^= 0x10;
	else if (bad[_i].flip < 0)
		buf[len + bad[_i].flip] ^= 0x01;
	if (bad[_i].grow) {
		memmove(buf + len, buf + len - 8, 8);
		memset(buf + len - 8, 0, 8);
		len += 8;
	}
	if (bad[_i].reseal)
		_reseal(buf, len);
	ck_assert_msg(prism_usnap_parse(buf, len, &h, &err) ==
			      (strstr(bad[_i].want, "newer") ? PRISM_FORMAT_NEWER :
							       -1),
		      "%s: accepted", bad[_i].what);
	ck_assert_msg(strstr(err.text, bad[_i].want), "%s: error '%s'",
		      bad[_i].what, err.text);
	ck_assert(h.last_recalc == -5);	/* untouched */
	free(buf);
}
END_TEST

/* Every single-bit change of a 1 KiB image is seen by the checksum. */
START_TEST(test_checksum_bits)
{
	char buf[1024];
	uint64_t sum;

	for (int i = 0; i < N(buf); i++)
		buf[i] = (char) (i * 7);
	sum = prism_usnap_checksum(buf, sizeof(buf));
	for (int i = 0; i < N(buf) * 8; i++) {
		buf[i / 8] ^= (char) (1 << (i % 8));
		ck_assert(prism_usnap_checksum(buf, sizeof(buf)) != sum);
		buf[i / 8] ^= (char) (1 << (i % 8));
	}
	/* and the length counts, tail bytes included */
	ck_assert(prism_usnap_checksum(buf, 1016) != sum);
	ck_assert(prism_usnap_checksum(buf, 1021) !=
		  prism_usnap_checksum(buf, 1020));
	buf[1020] ^= 1;
	sum = prism_usnap_checksum(buf, 1021);
	buf[1020] ^= 1;
	ck_assert(prism_usnap_checksum(buf, 1021) != sum);
}
END_TEST

/*
 * The checksum is part of the file format: a snapshot written before an
 * upgrade must still verify after it. Values of the first implementation
 * (lanes in an array), which the register-lane one reproduces.
 */
START_TEST(test_checksum_pinned)
{
	static const char text[] = "Prism usage snapshot checksum";
	char zero[64] = { 0 };

	ck_assert_uint_eq(prism_usnap_checksum(text, sizeof(text) - 1),
			  0xc800aa09f5b6821full);
	ck_assert_uint_eq(prism_usnap_checksum(zero, sizeof(zero)),
			  0x8998a2f242686278ull);
}
END_TEST

/* prism_usnap_decide(): snapshot of pass P taken at T, state's last
 * recalculation L, slurmctld's usage saved at S, a pass begun at B. */
static const struct {
	const char *what;
	int64_t pass, taken, last, saved, begun;
	bool apply, adopt, in_pass;
} decide[] = {
	{ "killed after the state file",
	  100, 101, 100, 40, 100, true, false, false },
	{ "killed between snapshot and state",
	  100, 101, 40, 40, 100, true, true, false },
	{ "no usage file of slurmctld",
	  100, 101, 100, 0, 100, true, false, false },
	{ "slurmctld saved in the same second",
	  100, 101, 100, 101, 100, true, false, false },
	{ "clean shutdown after the pass",
	  100, 101, 100, 130, 100, false, false, false },
	{ "slurmctld saved after, state older",
	  100, 101, 40, 130, 100, false, true, false },
	{ "stale: a later pass by another plugin",
	  100, 101, 160, 40, 100, false, false, false },
	{ "no pass-begun mark (an earlier Prism)",
	  100, 101, 100, 130, 0, false, false, false },
	{ "killed in a pass after slurmctld saved in it",
	  100, 101, 100, 170, 160, true, false, true },
	{ "slurmctld saved in the second the pass began",
	  100, 101, 100, 160, 160, true, false, true },
	{ "slurmctld saved before the pass began",
	  100, 101, 100, 159, 160, false, false, false },
	{ "killed between snapshot and state, saved after",
	  100, 101, 40, 130, 100, false, true, false },
	{ "stale, a later pass begun and saved in",
	  100, 101, 160, 230, 220, false, false, false },
};

START_TEST(test_decide)
{
	prism_usnap_head_t h = { .last_recalc = decide[_i].pass,
				 .taken = decide[_i].taken };
	prism_usnap_use_t use = prism_usnap_decide(&h, decide[_i].last,
						   decide[_i].saved,
						   decide[_i].begun);

	ck_assert_msg(use.apply == decide[_i].apply, "%s: apply",
		      decide[_i].what);
	ck_assert_msg(use.adopt_times == decide[_i].adopt, "%s: adopt",
		      decide[_i].what);
	ck_assert_msg(use.in_pass == decide[_i].in_pass, "%s: in_pass",
		      decide[_i].what);
}
END_TEST

extern Suite *usnap_suite(void)
{
	Suite *s = suite_create("usnap");
	TCase *tc = tcase_create("image");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_zero_kinds);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_size_limit);
	tcase_add_loop_test(tc, test_damaged, 0, N(bad));
	tcase_add_test(tc, test_checksum_bits);
	tcase_add_test(tc, test_checksum_pinned);
	tcase_add_loop_test(tc, test_decide, 0, N(decide));
	suite_add_tcase(s, tc);
	return s;
}
