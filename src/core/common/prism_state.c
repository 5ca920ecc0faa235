/*****************************************************************************\
 *  prism_state.c - Prism's state as text (see prism_state.h).
 *
 *  The text is four lines:
 *      prism-state VERSION
 *      last_recalc EPOCH
 *      last_reset EPOCH
 *      checksum HEX
 *  where HEX is the 32-bit FNV-1a hash of everything before the checksum
 *  line. The pass-begun mark is the same kind of text:
 *      prism-pass-begun VERSION
 *      begun EPOCH
 *      checksum HEX
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

/*
 * The texts of this module: "HEAD VERSION", one "NAME VALUE" line per
 * field (decimal), "checksum HEX" over everything before it.
 */
static int _format(const char *head, int version, const char *const *names,
		   const int64_t *vals, int n, char *buf, size_t size,
		   prism_error_t *err)
{
	int body, all, w;

	body = snprintf(buf, size, "%s %d\n", head, version);
	for (int i = 0; (i < n) && (body >= 0) && ((size_t) body < size);
	     i++) {
		w = snprintf(buf + body, size - body, "%s %" PRId64 "\n",
			     names[i], vals[i]);
		body = w < 0 ? -1 : body + w;
	}
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

/* Read a text of _format() into vals (left untouched on failure; n at
 * most 4); 'what' names it in errors. Returns 0, -1 or PRISM_FORMAT_NEWER
 * (err set). */
static int _parse(const char *buf, size_t len, const char *head,
		  const char *what, int version, const char *const *names,
		  int64_t *vals, int n, prism_error_t *err)
{
	size_t pos = 0, body;
	int64_t got, v[4], sum;

	if (!len) {
		prism_error_set(err, "empty %s", what);
		return -1;
	}
	if (prism_format_read_field(buf, len, &pos, head, 10, &got, err))
		return -1;
	if (prism_format_check(what, got, version, version, err))
		return got > version ? PRISM_FORMAT_NEWER : -1;
	for (int i = 0; i < n; i++) {
		if (prism_format_read_field(buf, len, &pos, names[i], 10,
					    &v[i], err))
			return -1;
	}
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
	for (int i = 0; i < n; i++)
		vals[i] = v[i];
	return 0;
}

static const char *const state_names[] = { "last_recalc", "last_reset" };
static const char *const begun_names[] = { "begun" };

extern int prism_state_format(const prism_state_t *st, char *buf,
			      size_t size, prism_error_t *err)
{
	int64_t vals[] = { st->last_recalc, st->last_reset };

	return _format("prism-state", PRISM_STATE_VERSION, state_names, vals,
		       2, buf, size, err);
}

extern int prism_state_parse(const char *buf, size_t len, prism_state_t *st,
			     prism_error_t *err)
{
	int64_t vals[2];
	int rc = _parse(buf, len, "prism-state", "state", PRISM_STATE_VERSION,
			state_names, vals, 2, err);

	if (!rc) {
		st->last_recalc = vals[0];
		st->last_reset = vals[1];
	}
	return rc;
}

extern int prism_begun_format(int64_t begun, char *buf, size_t size,
			      prism_error_t *err)
{
	return _format("prism-pass-begun", PRISM_BEGUN_VERSION, begun_names,
		       &begun, 1, buf, size, err);
}

extern int prism_begun_parse(const char *buf, size_t len, int64_t *begun,
			     prism_error_t *err)
{
	return _parse(buf, len, "prism-pass-begun", "pass-begun mark",
		      PRISM_BEGUN_VERSION, begun_names, begun, 1, err);
}
