/*****************************************************************************\
 *  fuzz_state.c - libFuzzer target for prism_state_parse() (Prism's own
 *  state text) and prism_state_format().
 *
 *  Each input is parsed as it is and, a second time, with its checksum
 *  line replaced by the right one (see fuzz_common.h), so that the fuzzer
 *  reaches past the checksum. Checked besides memory safety and UB:
 *   - on failure: -1, 'st' untouched, an error text;
 *   - on success: format(st) parses back to st, and formatting that again
 *     gives the same text (round trip);
 *   - the first 16 bytes, read as two int64 values, format and parse
 *     back to themselves; prism_state_format() with every buffer size up
 *     to the length fails without writing past the buffer.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_format.h"
#include "prism_state.h"

#define SENTINEL_A INT64_C(0x5a5a5a5a5a5a5a5a)
#define SENTINEL_B INT64_C(-0x2525252525252525)

/* format 'st', parse it back, format again: all must agree. */
static void round_trip(const prism_state_t *st)
{
	char buf[256], buf2[256];
	prism_state_t back = { SENTINEL_A, SENTINEL_B };
	prism_error_t err = { "" };
	int n, n2;

	n = prism_state_format(st, buf, sizeof(buf), &err);
	FUZZ_CHECK(n > 0 && (size_t) n < sizeof(buf), "format: %d %s", n,
		   err.text);
	FUZZ_CHECK(strlen(buf) == (size_t) n, "format length %d", n);
	FUZZ_CHECK(!prism_state_parse(buf, (size_t) n, &back, &err),
		   "formatted text refused: %s\n%s", err.text, buf);
	FUZZ_CHECK(back.last_recalc == st->last_recalc &&
		   back.last_reset == st->last_reset,
		   "round trip changed the values");
	n2 = prism_state_format(&back, buf2, sizeof(buf2), &err);
	FUZZ_CHECK(n2 == n && !memcmp(buf, buf2, (size_t) n),
		   "format is not stable");

	/* every too-small buffer: -1, nothing written past it */
	for (int size = 0; size <= n; size++) {
		char *small = malloc(size ? (size_t) size : 1);
		prism_error_t e = { "" };

		if (!small)
			abort();
		FUZZ_CHECK(prism_state_format(st, small, (size_t) size, &e) ==
				   -1, "buffer of %d bytes accepted", size);
		FUZZ_CHECK_ERR(e);
		free(small);
	}
	{
		char *exact = malloc((size_t) n + 1);
		prism_error_t e = { "" };

		if (!exact)
			abort();
		FUZZ_CHECK(prism_state_format(st, exact, (size_t) n + 1, &e) ==
				   n, "exact buffer refused: %s", e.text);
		free(exact);
	}
}

static void parse_one(const char *buf, size_t len)
{
	prism_state_t st = { SENTINEL_A, SENTINEL_B };
	prism_error_t err = { "" };
	int rc = prism_state_parse(buf, len, &st, &err);

	if (rc) {
		FUZZ_CHECK(rc == -1 || rc == PRISM_FORMAT_NEWER, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		FUZZ_CHECK(st.last_recalc == SENTINEL_A &&
			   st.last_reset == SENTINEL_B,
			   "state changed on failure");
		return;
	}
	round_trip(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = fuzz_dup(data, size), *fixed, *g;
	size_t fixed_len;

	/* heap copies for ASan, page-guarded copies for libc's reads */
	parse_one(raw, size);
	if ((g = fuzz_guarded(0, data, size)))
		parse_one(g, size);
	free(raw);

	fixed = fuzz_fix_checksum(data, size, &fixed_len);
	parse_one(fixed, fixed_len);
	if ((g = fuzz_guarded(1, (const uint8_t *) fixed, fixed_len)))
		parse_one(g, fixed_len);
	free(fixed);

	if (size >= 16) {
		prism_state_t st;

		memcpy(&st.last_recalc, data, 8);
		memcpy(&st.last_reset, data + 8, 8);
		round_trip(&st);
	}
	return 0;
}
