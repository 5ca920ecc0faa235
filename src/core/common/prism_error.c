/*****************************************************************************\
 *  prism_error.c - human-readable errors (see prism_error.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdio.h>

#include "prism_error.h"

extern void prism_error_set(prism_error_t *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
}
