/*****************************************************************************\
 *  fuzz_usnap.c - libFuzzer target for prism_usnap_parse() (the usage
 *  snapshot image) and the record reader and writer.
 *
 *  Each input is parsed as it is and, a second time, with its last 8
 *  bytes replaced by the right checksum, so that the fuzzer reaches the
 *  checks behind the checksum. Checked besides memory safety and UB:
 *   - on failure: -1, 'h' untouched, an error text;
 *   - on success: every record reads within the image, its TRES indexes
 *     below tres_cnt, and writing the records again gives the same
 *     image byte for byte (round trip).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_usnap.h"

static void check(const char *buf, size_t len)
{
	prism_usnap_head_t h = { .last_recalc = -7 };
	prism_error_t err = { "" };
	size_t pos = PRISM_USNAP_HEAD, wpos = PRISM_USNAP_HEAD, max, out;
	long double *tres;
	char *copy;

	if (prism_usnap_parse(buf, len, &h, &err)) {
		FUZZ_CHECK(h.last_recalc == -7, "header written on failure");
		FUZZ_CHECK_ERR(err);
		return;
	}
	max = prism_usnap_max_size(&h);
	FUZZ_CHECK(max && len <= max, "image of %zu bytes, at most %zu", len,
		   max);
	tres = calloc(h.tres_cnt ? h.tres_cnt : 1, sizeof(*tres));
	copy = malloc(max);
	if (!tres || !copy)
		abort();
	for (uint64_t i = 0; i < (uint64_t) h.assoc_cnt + h.qos_cnt; i++) {
		prism_usnap_rec_t r;

		prism_usnap_next(buf, &h, &pos, &r, tres);
		FUZZ_CHECK(pos <= len - 8, "record %llu ends past the records",
			   (unsigned long long) i);
		prism_usnap_put(copy, &wpos, h.tres_cnt, &r, tres);
	}
	FUZZ_CHECK(pos == len - 8, "records end at %zu of %zu", pos, len);
	out = prism_usnap_end(copy, wpos, &h);
	/* a stored zero TRES usage is dropped when written again (the
	 * writer never stores one): the length tells; with nothing dropped
	 * the records come out byte for byte */
	if (out == len)
		FUZZ_CHECK(!memcmp(copy + PRISM_USNAP_HEAD,
				   buf + PRISM_USNAP_HEAD,
				   len - PRISM_USNAP_HEAD - 8),
			   "round trip changed the records");
	free(tres);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);

	check(buf, size);
	if (size >= PRISM_USNAP_HEAD + 8) {
		uint64_t sum = prism_usnap_checksum(buf, size - 8);

		memcpy(buf + size - 8, &sum, sizeof(sum));
		check(buf, size);
	}
	free(buf);
	return 0;
}
