/*****************************************************************************\
 *  prism_error.c - human-readable errors (see prism_error.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "prism_error.h"

/* The mark a cut message ends with: "..." and the NUL. */
static const char _cut_mark[] = "...";

extern void prism_error_vset(prism_error_t *err, const char *prefix,
			     const char *fmt, va_list ap)
{
	size_t size = sizeof(err->text), n;
	int len;

	if (!err)
		return;
	len = snprintf(err->text, size, "%s", prefix ? prefix : "");
	n = len < 0 ? 0 : (size_t) len;
	if (n < size) {
		len = vsnprintf(err->text + n, size - n, fmt, ap);
		n += len < 0 ? 0 : (size_t) len;
	}
	if (n >= size)
		memcpy(err->text + size - sizeof(_cut_mark), _cut_mark,
		       sizeof(_cut_mark));
}

extern void prism_error_set(prism_error_t *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prism_error_vset(err, NULL, fmt, ap);
	va_end(ap);
}

extern bool prism_error_cut(const prism_error_t *err)
{
	size_t len;

	if (!err)
		return false;
	len = strnlen(err->text, sizeof(err->text));
	return len == sizeof(err->text) - 1 &&
	       !strcmp(err->text + len - (sizeof(_cut_mark) - 1), _cut_mark);
}
