/*****************************************************************************\
 *  prism_passinfo.c - the last pass's figures as text (see
 *  prism_passinfo.h).
 *
 *  The text is one "NAME VALUE" line per field, in the order of the table
 *  below, after "prism-pass VERSION" and before "checksum HEX", where HEX
 *  is the 32-bit FNV-1a hash of everything before the checksum line (as
 *  in Prism's state file).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_passinfo.h"
#include "prism_state.h"

#define KIND "prism-pass"

static const struct {
	const char *name;
	size_t off;
} fields[] = {
#define F(x) { #x, offsetof(prism_passinfo_t, x) }
	F(plugin_start),
	F(pass_start),
	F(pass_end),
	F(duration_usec),
	F(jobs_computed),
	F(jobs_charged),
	F(lock_hold_max_usec),
	F(usage_save_usec),
	F(passes),
	F(save_errors),
#undef F
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static int64_t *_field(prism_passinfo_t *pi, size_t i)
{
	return (int64_t *) ((char *) pi + fields[i].off);
}

extern int prism_passinfo_format(const prism_passinfo_t *pi, char *buf,
				 size_t size, prism_error_t *err)
{
	prism_passinfo_t copy = *pi;
	size_t len = 0;
	int n;

	n = snprintf(buf, size, "%s %d\n", KIND, PRISM_PASSINFO_VERSION);
	if (n < 0 || (size_t) n >= size)
		goto too_small;
	len = n;
	for (size_t i = 0; i < NFIELDS; i++) {
		n = snprintf(buf + len, size - len, "%s %" PRId64 "\n",
			     fields[i].name, *_field(&copy, i));
		if (n < 0 || (size_t) n >= size - len)
			goto too_small;
		len += n;
	}
	n = snprintf(buf + len, size - len, "checksum %08" PRIx32 "\n",
		     prism_state_checksum(buf, len));
	if (n < 0 || (size_t) n >= size - len)
		goto too_small;
	return len + n;

too_small:
	prism_error_set(err, "pass figures buffer of %zu bytes is too small",
			size);
	return -1;
}

extern int prism_passinfo_parse(const char *buf, size_t len,
				prism_passinfo_t *pi, prism_error_t *err)
{
	prism_passinfo_t got = { 0 };
	size_t pos = 0, body;
	int64_t version, sum;

	if (!len) {
		prism_error_set(err, "empty pass figures");
		return -1;
	}
	if (prism_format_read_field(buf, len, &pos, KIND, 10, &version, err))
		return -1;
	if (prism_format_check("pass figures", version,
			       PRISM_PASSINFO_VERSION, PRISM_PASSINFO_VERSION,
			       err))
		return version > PRISM_PASSINFO_VERSION ? PRISM_FORMAT_NEWER
							: -1;
	for (size_t i = 0; i < NFIELDS; i++)
		if (prism_format_read_field(buf, len, &pos, fields[i].name, 10,
			       _field(&got, i), err))
			return -1;
	body = pos;
	if (prism_format_read_field(buf, len, &pos, "checksum", 16, &sum, err))
		return -1;
	if (pos != len) {
		prism_error_set(err, "trailing data after the checksum");
		return -1;
	}
	if (sum < 0 || sum > UINT32_MAX ||
	    (uint32_t) sum != prism_state_checksum(buf, body)) {
		prism_error_set(err, "checksum mismatch");
		return -1;
	}
	*pi = got;
	return 0;
}
