/*****************************************************************************\
 *  prism_sumtext.c - the checksummed usage state texts (see
 *  prism_sumtext.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "prism_state.h"
#include "prism_sumtext.h"

/* "checksum " + 8 hex digits + "\n" */
#define _SUM_PREFIX "checksum "
#define _SUM_PREFIX_LEN 9
#define _SUM_DIGITS 8
#define _SUM_LINE_LEN (_SUM_PREFIX_LEN + _SUM_DIGITS + 1)

extern const char *prism_sumtext_why(prism_sumtext_rc_t rc)
{
	switch (rc) {
	case PRISM_SUMTEXT_OK:
		return "no error";
	case PRISM_SUMTEXT_EMPTY:
		return "empty";
	case PRISM_SUMTEXT_TRUNCATED:
		return "truncated";
	case PRISM_SUMTEXT_NO_CHECKSUM:
		return "truncated or trailing data (no checksum at the end)";
	case PRISM_SUMTEXT_BAD_LENGTH:
		return "checksum of the wrong length";
	case PRISM_SUMTEXT_MISMATCH:
		return "checksum mismatch";
	case PRISM_SUMTEXT_NO_MEMORY:
		return "out of memory";
	case PRISM_SUMTEXT_BAD_PARAMETER:
		break;
	}
	return "bad parameter";
}

extern void prism_sumtext_put_real(prism_buf_t *b, double v)
{
	prism_buf_put(b, " %.17g", v);
}

extern void prism_sumtext_put_checksum(prism_buf_t *b)
{
	if (!b->overflow)
		prism_buf_put(b, _SUM_PREFIX "%08" PRIx32 "\n",
			      prism_state_checksum(b->buf, b->len));
}

/* Exactly 'n' hex digits of either case at 's' into *out; -1 if not. */
static int _hex32(const char *s, size_t n, uint32_t *out)
{
	uint32_t v = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		uint32_t d;

		if (c >= '0' && c <= '9')
			d = (uint32_t) (c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t) (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (uint32_t) (c - 'A' + 10);
		else
			return -1;
		v = (v << 4) | d;
	}
	*out = v;
	return 0;
}

extern prism_sumtext_rc_t prism_sumtext_open(const char *buf, size_t len,
					     char **body, size_t *body_len)
{
	size_t last;
	uint32_t sum;
	char *copy;

	if (!buf || !body || !body_len)
		return PRISM_SUMTEXT_BAD_PARAMETER;
	if (!len)
		return PRISM_SUMTEXT_EMPTY;
	if (buf[len - 1] != '\n')
		return PRISM_SUMTEXT_TRUNCATED;
	last = len - 1;
	while (last > 0 && buf[last - 1] != '\n')
		last--;
	/* the line holds its newline: strncmp() stops there at the latest */
	if (len - last < _SUM_PREFIX_LEN + 1 ||
	    strncmp(buf + last, _SUM_PREFIX, _SUM_PREFIX_LEN))
		return PRISM_SUMTEXT_NO_CHECKSUM;
	if (len - last != _SUM_LINE_LEN)
		return PRISM_SUMTEXT_BAD_LENGTH;
	if (_hex32(buf + last + _SUM_PREFIX_LEN, _SUM_DIGITS, &sum) ||
	    sum != prism_state_checksum(buf, last))
		return PRISM_SUMTEXT_MISMATCH;
	copy = malloc(last + 1);
	if (!copy)
		return PRISM_SUMTEXT_NO_MEMORY;
	memcpy(copy, buf, last);
	copy[last] = '\0';
	*body = copy;
	*body_len = last;
	return PRISM_SUMTEXT_OK;
}

extern char *prism_sumtext_line(char *body, size_t len, size_t *pos)
{
	char *line = body + *pos, *nl;

	if (*pos >= len)
		return NULL;
	nl = memchr(line, '\n', len - *pos);
	if (!nl) {
		*pos = len;
		return line;
	}
	*nl = '\0';
	*pos = (size_t) (nl + 1 - body);
	return line;
}

extern int prism_sumtext_int(const char *s, int64_t min, int64_t max,
			     int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

extern int prism_sumtext_real(const char *s, double min, double max,
			      char **end, double *out)
{
	char *stop;
	double v;

	/* errno is not read: ERANGE with a finite result is an underflow,
	 * a valid subnormal value; an overflow gives HUGE_VAL */
	v = strtod(s, &stop);
	if (stop == s || !(v >= min && v <= max))
		return -1;
	*end = stop;
	*out = v;
	return 0;
}
