/*****************************************************************************\
 *  prism_saved_policy.c - the policy in force, kept as text.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_format.h"
#include "prism_saved_policy.h"

#define MAGIC "prism-saved-policy 1\n"

/* Is 's' a value one header line can carry into 'size' bytes? */
static int _line_ok(const char *s, size_t size)
{
	return !strchr(s, '\n') && strlen(s) < size;
}

extern char *prism_saved_policy_format(const char *params, const char *path,
				       const char *text, size_t len,
				       size_t *out_len, prism_error_t *err)
{
	prism_saved_policy_t probe;
	size_t head, size;
	char *buf;
	int n;

	params = params ? params : "";
	path = path ? path : "";
	if (!out_len || (len && !text) ||
	    !_line_ok(params, sizeof(probe.params)) ||
	    !_line_ok(path, sizeof(probe.path))) {
		prism_error_set(err, "saved policy: bad parameters");
		return NULL;
	}
	head = strlen(MAGIC) + strlen(params) + strlen(path) + 64;
	size = head + len + 1;
	if (!(buf = malloc(size))) {
		prism_error_set(err, "saved policy: out of memory");
		return NULL;
	}
	n = snprintf(buf, head, MAGIC "params %s\npath %s\nlength %zu\n\n",
		     params, path, len);
	if (n < 0 || (size_t) n >= head) {
		free(buf);
		prism_error_set(err, "saved policy: cannot format");
		return NULL;
	}
	if (len)
		memcpy(buf + n, text, len);
	buf[n + len] = '\0';
	*out_len = (size_t) n + len;
	return buf;
}

/*
 * Read the line that starts at *p (before 'end') into 'out' of 'size'
 * bytes after checking it begins with 'key' and a space; *p moves past
 * it. Returns 0, or -1.
 */
static int _line(const char **p, const char *end, const char *key, char *out,
		 size_t size)
{
	size_t klen = strlen(key);
	const char *nl = memchr(*p, '\n', end - *p);
	size_t vlen;

	if (!nl || (size_t) (nl - *p) < klen + 1 || memcmp(*p, key, klen) ||
	    (*p)[klen] != ' ')
		return -1;
	vlen = nl - (*p + klen + 1);
	if (vlen >= size || memchr(*p + klen + 1, '\0', vlen))
		return -1;
	memcpy(out, *p + klen + 1, vlen);
	out[vlen] = '\0';
	*p = nl + 1;
	return 0;
}

extern int prism_saved_policy_parse(const char *buf, size_t len,
				    prism_saved_policy_t *out,
				    prism_error_t *err)
{
	const char *p = buf, *end = buf + len;
	char length[32], *stop;
	unsigned long long n;

	int64_t v;

	/* a later format, whatever follows its first line */
	if (buf && out &&
	    !prism_format_first_line(buf, len, "prism-saved-policy", "", &v,
				     NULL) &&
	    (v > 1))
		return prism_format_check("saved policy", v, 1, 1, err);
	if (!buf || !out || len < strlen(MAGIC) ||
	    memcmp(buf, MAGIC, strlen(MAGIC))) {
		prism_error_set(err, "saved policy: not a saved policy");
		return -1;
	}
	p += strlen(MAGIC);
	if (_line(&p, end, "params", out->params, sizeof(out->params)) ||
	    _line(&p, end, "path", out->path, sizeof(out->path)) ||
	    _line(&p, end, "length", length, sizeof(length))) {
		prism_error_set(err, "saved policy: a header line is missing or too long");
		return -1;
	}
	errno = 0;
	n = strtoull(length, &stop, 10);
	/* digits only: no sign, no blank (strtoull would take them) */
	if (strspn(length, "0123456789") != strlen(length) || !length[0] ||
	    *stop || errno || p >= end || *p != '\n' ||
	    n != (unsigned long long) (end - p - 1)) {
		prism_error_set(err, "saved policy: the length does not match the text");
		return -1;
	}
	p++;
	out->len = (size_t) n;
	out->text = n ? p : NULL;
	return 0;
}
