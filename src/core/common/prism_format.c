/*****************************************************************************\
 *  prism_format.c - format numbers of the saved files (prism_format.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"

extern int prism_format_check(const char *what, int64_t got, int oldest,
			      int newest, prism_error_t *err)
{
	if (got > newest) {
		prism_error_set(err, "%s format %" PRId64 ", newer than format %d, the newest this Prism reads: written by a later Prism",
				what, got, newest);
		return PRISM_FORMAT_NEWER;
	}
	if (got < oldest) {
		prism_error_set(err, "%s format %" PRId64 " is no format Prism wrote (this one reads %d to %d)",
				what, got, oldest, newest);
		return -1;
	}
	return 0;
}

extern int prism_format_first_line(const char *buf, size_t len,
				   const char *kind, const char *what,
				   int64_t *out, prism_error_t *err)
{
	size_t k = strlen(kind), i;
	int64_t n = 0;

	if (!buf || (len <= k + 1) || memcmp(buf, kind, k) || (buf[k] != ' '))
		goto bad;
	for (i = k + 1; (i < len) && (buf[i] != '\n'); i++) {
		if ((buf[i] < '0') || (buf[i] > '9') || (n > INT32_MAX))
			goto bad;
		n = n * 10 + (buf[i] - '0');
	}
	if ((i == k + 1) || (i == len))
		goto bad;
	*out = n;
	return 0;
bad:
	prism_error_set(err, "not a %s (its first line is not \"%s N\")",
			what, kind);
	return -1;
}

extern int prism_format_read_field(const char *buf, size_t len, size_t *pos,
				   const char *name, int base, int64_t *value,
				   prism_error_t *err)
{
	size_t n = strlen(name);
	const char *line = buf + *pos;
	const char *nl = memchr(line, '\n', len - *pos);
	char num[32], *end;
	size_t vlen;

	if (!nl) {
		prism_error_set(err, "truncated before '%s'", name);
		return -1;
	}
	if ((size_t) (nl - line) <= n + 1 || strncmp(line, name, n) ||
	    line[n] != ' ') {
		prism_error_set(err, "expected '%s' on line '%.*s'", name,
				(int) (nl - line), line);
		return -1;
	}
	vlen = nl - (line + n + 1);
	if (vlen >= sizeof(num)) {
		prism_error_set(err, "value of '%s' is too long", name);
		return -1;
	}
	memcpy(num, line + n + 1, vlen);
	num[vlen] = '\0';
	errno = 0;
	*value = strtoll(num, &end, base);
	if (errno || end == num || *end) {
		prism_error_set(err, "bad value '%s' for '%s'", num, name);
		return -1;
	}
	*pos = nl + 1 - buf;
	return 0;
}
