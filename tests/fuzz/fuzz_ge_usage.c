/*****************************************************************************\
 *  fuzz_ge_usage.c - libFuzzer target for prism_ge_usage_parse() (the Grid
 *  Engine share-tree usage state text) and what the plugin does next with
 *  what it read.
 *
 *  Every input is parsed once as it is and once with its checksum line
 *  replaced by the right one (see fuzz_common.h) so that the fuzzer
 *  reaches the body; each from an exact-size heap copy (ASan) and from a
 *  copy that ends right before an unmapped page, so that reads past its
 *  end inside libc (strtoll, strtod: not intercepted by ASan) fault.
 *  Checked besides memory safety and UB:
 *   - on failure: -1, *out untouched, an error text;
 *   - on success: format -> parse -> format gives the same text, 'last'
 *     and every value read back identical; a buffer one byte short is
 *     refused; lookups of ids are finite and >= 0;
 *   - then, as the plugin's next pass would: decay to "now" with a few
 *     halftimes, charge, and the result is saved and loads again
 *     (format -> parse -> format round-trips).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_format.h"
#include "prism_ge_usage.h"

/* ids looked up in every usage (besides those of the input's lines) */
static const uint32_t probe_ids[] = { 0, 1, 2, 3, 7, 42, 1000, 65535,
				      4000000000u, UINT32_MAX };
#define NPROBE (sizeof(probe_ids) / sizeof(probe_ids[0]))

static void check_lookups(const prism_ge_usage_t *u)
{
	for (size_t i = 0; i < NPROBE; i++) {
		double v = prism_ge_usage_get(u, probe_ids[i]);

		FUZZ_CHECK(isfinite(v) && v >= 0.0, "id %u: usage %g",
			   (unsigned) probe_ids[i], v);
	}
}

/* format -> parse -> format; 'u' itself is not changed. */
static void round_trip(const prism_ge_usage_t *u, const char *what)
{
	size_t size = prism_ge_usage_format_size(u);
	char *text = malloc(size), *text2 = malloc(size);
	prism_ge_usage_t *back = NULL;
	prism_error_t err = { "" };
	int n, n2;

	if (!text || !text2)
		abort();
	n = prism_ge_usage_format(u, text, size, &err);
	FUZZ_CHECK(n > 0 && (size_t) n < size, "%s: format %d (size %zu): %s",
		   what, n, size, err.text);
	FUZZ_CHECK(strlen(text) == (size_t) n, "%s: format length", what);
	FUZZ_CHECK(!prism_ge_usage_parse(text, (size_t) n, &back, &err),
		   "%s: formatted usage refused: %s\n%s", what, err.text, text);
	n2 = prism_ge_usage_format(back, text2, size, &err);
	FUZZ_CHECK(n2 == n && !memcmp(text, text2, (size_t) n),
		   "%s: usage round trip differs:\n%s\n---\n%.*s", what, text,
		   n2 > 0 ? n2 : 0, text2);
	FUZZ_CHECK(prism_ge_usage_last(back) == prism_ge_usage_last(u),
		   "%s: last changed", what);
	FUZZ_CHECK(prism_ge_usage_count(back) <= prism_ge_usage_count(u),
		   "%s: count grew", what);
	for (size_t i = 0; i < NPROBE; i++) {
		double a = prism_ge_usage_get(u, probe_ids[i]);
		double b = prism_ge_usage_get(back, probe_ids[i]);

		FUZZ_CHECK(a > 0.0 ? a == b : b == 0.0,
			   "%s: id %u: %.17g read back as %.17g", what,
			   (unsigned) probe_ids[i], a, b);
	}
	prism_ge_usage_free(back);
	/* a buffer one byte short fails cleanly */
	{
		char *small = malloc((size_t) n);

		if (!small)
			abort();
		FUZZ_CHECK(prism_ge_usage_format(u, small, (size_t) n, &err) ==
				   -1, "%s: short buffer accepted", what);
		FUZZ_CHECK_ERR(err);
		free(small);
	}
	free(text);
	free(text2);
}

/* Ids of the input's "assoc ID " lines (at most 'max'), for lookups. */
static size_t input_ids(const char *buf, size_t len, uint32_t *ids,
			size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i + 6 < len && n < max; i++) {
		uint64_t x = 0;
		size_t j;

		if ((i && buf[i - 1] != '\n') || memcmp(buf + i, "assoc ", 6))
			continue;
		for (j = i + 6; j < len && j < i + 16 && buf[j] >= '0' &&
				buf[j] <= '9'; j++)
			x = x * 10 + (uint64_t) (buf[j] - '0');
		if (j > i + 6 && x <= UINT32_MAX)
			ids[n++] = (uint32_t) x;
	}
	return n;
}

/* The plugin's next pass: decay to now, charge, save (round trip). */
static void next_pass(prism_ge_usage_t *u, const uint32_t *ids, size_t nids)
{
	static const uint32_t halftimes[] = { 168, 0, 1, UINT32_MAX };
	int64_t last = prism_ge_usage_last(u);
	int64_t nows[4];
	prism_error_t err = { "" };

	nows[0] = last < INT64_MAX - 3600 ? last + 3600 : INT64_MAX;
	nows[1] = 1700000000;
	nows[2] = last > INT64_MIN + 60 ? last - 60 : INT64_MIN;
	nows[3] = INT64_MAX;
	for (size_t k = 0; k < 4; k++) {
		int64_t before = prism_ge_usage_last(u);

		prism_ge_usage_decay(u, nows[k], halftimes[k]);
		FUZZ_CHECK(prism_ge_usage_last(u) ==
				   (nows[k] > before ? nows[k] : before),
			   "decay: last %lld (was %lld, now %lld)",
			   (long long) prism_ge_usage_last(u),
			   (long long) before, (long long) nows[k]);
		check_lookups(u);
		for (size_t i = 0; i < nids; i++) {
			double v = prism_ge_usage_get(u, ids[i]);

			FUZZ_CHECK(isfinite(v) && v >= 0.0, "id %u: %g",
				   (unsigned) ids[i], v);
		}
		/* charge the time since the last pass, as the adapter does */
		FUZZ_CHECK(!prism_ge_usage_charge(u, 7, 3600.0 * 64, &err),
			   "charge: %s", err.text);
		if (nids)
			FUZZ_CHECK(!prism_ge_usage_charge(u, ids[k % nids],
							  3600.0, &err),
				   "charge: %s", err.text);
		FUZZ_CHECK(prism_ge_usage_charge(u, 1, -1.0, &err) == -1,
			   "negative charge accepted");
		FUZZ_CHECK_ERR(err);
		/* the state saved after the pass must load again */
		round_trip(u, "after a pass");
	}
}

static void parse_one(const char *buf, size_t len)
{
	prism_ge_usage_t *const sentinel = (prism_ge_usage_t *) 0x1;
	prism_ge_usage_t *u = sentinel;
	prism_error_t err = { "" };
	int rc = prism_ge_usage_parse(buf, len, &u, &err);
	uint32_t ids[64];
	size_t nids;

	if (rc) {
		FUZZ_CHECK(rc == -1 || rc == PRISM_FORMAT_NEWER, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		FUZZ_CHECK(u == sentinel, "*out changed on failure");
		return;
	}
	FUZZ_CHECK(u && u != sentinel, "no usage");
	nids = input_ids(buf, len, ids, sizeof(ids) / sizeof(ids[0]));
	check_lookups(u);
	round_trip(u, "parsed");
	next_pass(u, ids, nids);
	prism_ge_usage_free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = fuzz_dup(data, size), *fixed, *graw, *gfixed;
	size_t fixed_len;

	fixed = fuzz_fix_checksum(data, size, &fixed_len);
	graw = fuzz_guarded(0, data, size);
	gfixed = fuzz_guarded(1, (const uint8_t *) fixed, fixed_len);
	parse_one(raw, size);
	parse_one(fixed, fixed_len);
	if (graw)
		parse_one(graw, size);
	if (gfixed)
		parse_one(gfixed, fixed_len);
	free(raw);
	free(fixed);
	return 0;
}
