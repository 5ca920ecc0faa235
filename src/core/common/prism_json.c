/*****************************************************************************\
 *  prism_json.c - JSON strings and numbers (see prism_json.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "prism_json.h"

/* The short escape of 'c' ("\\n" ...), or NULL when it has none. */
static const char *_short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		return NULL;
	}
}

extern void prism_json_str(prism_buf_t *b, const char *s)
{
	if (!s) {
		prism_buf_put(b, "null");
		return;
	}
	prism_buf_put(b, "\"");
	for (const unsigned char *p = (const unsigned char *) s; *p; p++) {
		const char *esc = _short_escape(*p);

		if (esc)
			prism_buf_put(b, "%s", esc);
		else if (*p < 0x20 || *p == 0x7f)
			prism_buf_put(b, "\\u%04x", *p);
		else
			prism_buf_put(b, "%c", *p);
	}
	prism_buf_put(b, "\"");
}

extern void prism_json_num(prism_buf_t *b, double v)
{
	char text[32];
	int digits = 15;

	if (!isfinite(v)) {
		prism_buf_put(b, "null");
		return;
	}
	/* the fewest digits from 15 that read back as 'v' */
	for (;; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, v);
		if (digits == 17 || strtod(text, NULL) == v)
			break;
	}
	prism_buf_put(b, "%s", text);
}
