/*****************************************************************************\
 *  prism_lines.c - reading a policy file line by line (see prism_lines.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_lines.h"
#include "prism_names.h"

extern int prism_lines_fail(const prism_lines_t *at, const char *fmt, ...)
{
	char prefix[PRISM_ERROR_PATH_MAX + 32];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s:%u: ", at->file, at->line);
	va_start(ap, fmt);
	prism_error_vset(at->err, prefix, fmt, ap);
	va_end(ap);
	return -1;
}

extern int prism_lines_oom(const prism_lines_t *at)
{
	prism_error_set(at->err, "%s: out of memory", at->file);
	return -1;
}

/* "FILE:LINE: " and the text of 'fmt' in a new string, or NULL. */
static char *_notice_text(const prism_lines_t *at, const char *fmt,
			  va_list ap)
{
	va_list again;
	int plen = snprintf(NULL, 0, "%s:%u: ", at->file, at->line), wlen;
	char *text;

	va_copy(again, ap);
	wlen = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (plen < 0 || wlen < 0)
		return NULL;
	text = malloc((size_t) plen + (size_t) wlen + 1);
	if (!text)
		return NULL;
	snprintf(text, (size_t) plen + 1, "%s:%u: ", at->file, at->line);
	vsnprintf(text + plen, (size_t) wlen + 1, fmt, ap);
	return text;
}

extern int prism_lines_notice(const prism_lines_t *at, const char *fmt, ...)
{
	prism_lines_notices_t *l = at->notices;
	char *text;
	va_list ap;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return prism_lines_oom(at);
		l->v = v;
		l->cap = cap;
	}
	va_start(ap, fmt);
	text = _notice_text(at, fmt, ap);
	va_end(ap);
	if (!text)
		return prism_lines_oom(at);
	l->v[l->n++] = text;
	return 0;
}

extern const char *prism_lines_notices_get(const prism_lines_notices_t *l,
					   size_t i)
{
	if (!l || i >= l->n)
		return NULL;
	return l->v[i];
}

extern void prism_lines_notices_free(prism_lines_notices_t *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (prism_lines_notices_t) { 0 };
}

extern int prism_lines_read(prism_lines_t *at, const char *text, size_t len,
			    int (*fn)(void *arg, char *line), void *arg)
{
	char line[PRISM_LINES_MAX + 1];
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - (text + pos)) : len - pos;

		at->line++;
		if (n > PRISM_LINES_MAX)
			return prism_lines_fail(
				at, "line is longer than %d bytes",
				PRISM_LINES_MAX);
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + (nl ? 1 : 0);
		if (prism_lines_utf8(at, line, n) || fn(arg, line))
			return -1;
	}
	return 0;
}

extern int prism_lines_utf8(const prism_lines_t *at, const char *str,
			    size_t len)
{
	const unsigned char *s = (const unsigned char *) str;
	size_t i = 0;

	while (i < len) {
		unsigned char b = s[i];
		size_t n;
		uint32_t cp, min;

		if (!b)
			return prism_lines_fail(at, "NUL byte at column %zu",
						i + 1);
		if (b < 0x80) {
			i++;
			continue;
		}
		if ((b & 0xe0) == 0xc0) {
			n = 1, cp = b & 0x1f, min = 0x80;
		} else if ((b & 0xf0) == 0xe0) {
			n = 2, cp = b & 0x0f, min = 0x800;
		} else if ((b & 0xf8) == 0xf0) {
			n = 3, cp = b & 0x07, min = 0x10000;
		} else {
			goto bad;
		}
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				goto bad;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			goto bad;
		i += n + 1;
	}
	return 0;
bad:
	return prism_lines_fail(at, "invalid UTF-8 (byte 0x%02x at column %zu)",
				s[i], i + 1);
}

static bool _blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

extern char *prism_lines_tok(char **cur)
{
	char *s = *cur, *t;

	while (_blank(*s))
		s++;
	if (!*s) {
		*cur = s;
		return NULL;
	}
	t = s;
	while (*s && !_blank(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*cur = s;
	return t;
}

static bool _letter(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Is 'c' (not NUL) one of the characters of 'set'? */
static bool _in(char c, const char *set)
{
	return c && strchr(set, c);
}

extern bool prism_lines_is_name(const char *s, const char *first,
				const char *more)
{
	if (!_letter(*s) && !_in(*s, first))
		return false;
	for (s++; *s; s++) {
		if (!_letter(*s) && !(*s >= '0' && *s <= '9') && !_in(*s, more))
			return false;
	}
	return true;
}

extern int prism_lines_brackets(const prism_lines_t *at, char *tok,
				char **id)
{
	char *open = strchr(tok, '['), *close = strchr(tok, ']');
	size_t n = strlen(tok);

	*id = NULL;
	if (!open && !close)
		return 0;
	if (!open)
		return prism_lines_fail(at, "'%s': ']' without '['", tok);
	if (!close)
		return prism_lines_fail(at, "'%s': missing ']'", tok);
	if (close != tok + n - 1)
		return prism_lines_fail(at, "'%s': text after ']'", tok);
	if (strchr(open + 1, '[') || close < open)
		return prism_lines_fail(at, "'%s': bad brackets", tok);
	if (close == open + 1)
		return prism_lines_fail(at, "'%s': empty name in brackets",
					tok);
	if (open == tok)
		return prism_lines_fail(at, "'%s': missing name before '['",
					tok);
	*open = '\0';
	*close = '\0';
	*id = open + 1;
	return 0;
}

extern int prism_lines_head(const prism_lines_t *at, char *line,
			    const char *first, const char *more, char **name,
			    char **id, char **cur)
{
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	*cur = line;
	*id = NULL;
	*name = prism_lines_tok(cur);
	if (!*name)
		return 0;
	if (prism_lines_brackets(at, *name, id))
		return -1;
	if (!prism_lines_is_name(*name, first, more))
		return prism_lines_fail(at, "'%s' is not a parameter name",
					*name);
	return 0;
}

extern unsigned prism_lines_distance(const char *a, const char *b)
{
	unsigned row[64];
	size_t la = strlen(a), lb = strlen(b);

	if (la > 63 || lb > 63)
		return UINT_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned) j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];

		row[0] = (unsigned) i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned cost = toupper((unsigned char) a[i - 1]) !=
					toupper((unsigned char) b[j - 1]);
			unsigned best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}
