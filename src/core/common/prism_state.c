/*****************************************************************************\
 *  prism_state.c - Prism's state as text (see prism_state.h).
 *
 *  The text is four lines:
 *      prism-state VERSION
 *      last_recalc EPOCH
 *      last_reset EPOCH
 *      checksum HEX
 *  where HEX is the 32-bit FNV-1a hash of everything before the checksum
 *  line.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_state.h"

extern uint32_t prism_state_checksum(const char *buf, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char) buf[i];
		h *= 16777619u;
	}
	return h;
}

extern int prism_state_format(const prism_state_t *st, char *buf,
			      size_t size, prism_error_t *err)
{
	int body, all;

	body = snprintf(buf, size,
			"prism-state %d\nlast_recalc %" PRId64
			"\nlast_reset %" PRId64 "\n",
			PRISM_STATE_VERSION, st->last_recalc, st->last_reset);
	if (body < 0 || (size_t) body >= size)
		goto too_small;
	all = snprintf(buf + body, size - body, "checksum %08" PRIx32 "\n",
		       prism_state_checksum(buf, body));
	if (all < 0 || (size_t) all >= size - body)
		goto too_small;
	return body + all;

too_small:
	prism_error_set(err, "state buffer of %zu bytes is too small", size);
	return -1;
}

extern int prism_state_parse(const char *buf, size_t len, prism_state_t *st,
			     prism_error_t *err)
{
	size_t pos = 0, body;
	int64_t version, recalc, reset, sum;

	if (!len) {
		prism_error_set(err, "empty state");
		return -1;
	}
	if (prism_format_read_field(buf, len, &pos, "prism-state", 10, &version, err))
		return -1;
	if (prism_format_check("state", version, PRISM_STATE_VERSION,
			       PRISM_STATE_VERSION, err))
		return version > PRISM_STATE_VERSION ? PRISM_FORMAT_NEWER : -1;
	if (prism_format_read_field(buf, len, &pos, "last_recalc", 10, &recalc, err) ||
	    prism_format_read_field(buf, len, &pos, "last_reset", 10, &reset, err))
		return -1;
	body = pos;
	if (prism_format_read_field(buf, len, &pos, "checksum", 16, &sum, err))
		return -1;
	if (pos != len) {
		prism_error_set(err, "trailing data after the checksum");
		return -1;
	}
	if ((uint32_t) sum != prism_state_checksum(buf, body) || sum < 0 ||
	    sum > UINT32_MAX) {
		prism_error_set(err, "checksum mismatch");
		return -1;
	}
	st->last_recalc = recalc;
	st->last_reset = reset;
	return 0;
}
