/*****************************************************************************\
 *  prism_buf.c - text built into a caller's buffer (see prism_buf.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdio.h>

#include "prism_buf.h"

extern void prism_buf_init(prism_buf_t *b, char *buf, size_t size)
{
	*b = (prism_buf_t) { .buf = buf, .size = buf ? size : 0 };
	if (b->size)
		buf[0] = '\0';
}

extern void prism_buf_put(prism_buf_t *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->overflow)
		return;
	if (!b->size) {
		b->overflow = true;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= b->size - b->len) {
		/* drop the piece vsnprintf() cut short */
		b->overflow = true;
		b->buf[b->len] = '\0';
		return;
	}
	b->len += (size_t) n;
}

extern int prism_buf_end(const prism_buf_t *b, const char *what,
			 prism_error_t *err)
{
	if (b->overflow) {
		prism_error_set(err, "%s buffer of %zu bytes is too small",
				what, b->size);
		return -1;
	}
	return (int) b->len;
}
