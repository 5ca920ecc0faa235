/*****************************************************************************\
 *  fuzz_saved_policy.c - libFuzzer target for prism_saved_policy_parse()
 *  (the policy in force, kept as text in StateSaveLocation) and
 *  prism_saved_policy_format().
 *
 *  Each input is parsed from an exact-size heap copy and from a copy that
 *  ends at an unmapped page (see fuzz_common.h). Checked besides memory
 *  safety and UB:
 *   - on failure: -1 and an error text;
 *   - on success: params and path NUL-terminated within their arrays,
 *     without a newline, and their header lines whole in the input
 *     (nothing cut at a NUL), a blank line before the text; 'text' NULL
 *     when 'len' is 0, else inside the buffer with text + len exactly at
 *     its end; format(parsed) parses back to the same params, path and
 *     text, and formatting that again gives the same bytes (round trip);
 *   - params, path and text cut from the input (two 16-bit cut points in
 *     its first 4 bytes), and a params and a path of lengths around their
 *     limits: prism_saved_policy_format() refuses (NULL and an error)
 *     exactly when params or path holds a newline or is too long, and
 *     otherwise writes the documented header followed by the text, which
 *     parses back to the same values.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_format.h"
#include "prism_params.h"
#include "prism_saved_policy.h"

#define MAGIC "prism-saved-policy 1\n"
#define PARAMS_SIZE sizeof(((prism_saved_policy_t *) 0)->params)
#define PATH_SIZE sizeof(((prism_saved_policy_t *) 0)->path)

/* A saved policy filled with a pattern, so a missing NUL shows. */
static void sentinel(prism_saved_policy_t *sp)
{
	memset(sp, 0xa5, sizeof(*sp));
}

/* A header string of 'size' bytes: NUL-terminated, no newline. */
static void check_field(const char *what, const char *s, size_t size)
{
	const char *nul = memchr(s, '\0', size);

	FUZZ_CHECK(nul != NULL, "%s not NUL-terminated", what);
	FUZZ_CHECK(!memchr(s, '\n', (size_t) (nul - s)), "%s holds a newline",
		   what);
}

/*
 * Parse 'buf' of 'len' bytes. Returns 0 with *sp checked against the
 * buffer, or -1 (with an error text).
 */
static int parse_checked(const char *buf, size_t len, prism_saved_policy_t *sp)
{
	prism_error_t err = { "" };
	int rc;

	sentinel(sp);
	rc = prism_saved_policy_parse(buf, len, sp, &err);
	if (rc) {
		FUZZ_CHECK(rc == -1 || rc == PRISM_FORMAT_NEWER, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		return -1;
	}
	check_field("params", sp->params, sizeof(sp->params));
	check_field("path", sp->path, sizeof(sp->path));
	{
		/* the header lines read whole: params and path lost nothing */
		size_t pl = strlen(sp->params), ql = strlen(sp->path);
		size_t m = strlen(MAGIC), at = m + 7 + pl + 1 + 5 + ql + 1;
		const char *tail = sp->len ? sp->text : buf + len;

		FUZZ_CHECK(len >= at + 7 && !memcmp(buf, MAGIC, m) &&
			   !memcmp(buf + m, "params ", 7) &&
			   !memcmp(buf + m + 7, sp->params, pl) &&
			   !memcmp(buf + m + 7 + pl, "\npath ", 6) &&
			   !memcmp(buf + m + 7 + pl + 6, sp->path, ql) &&
			   !memcmp(buf + at - 1, "\nlength ", 8),
			   "accepted header is not params/path as read");
		FUZZ_CHECK(tail - buf >= (ptrdiff_t) at + 10 &&
			   tail[-1] == '\n' && tail[-2] == '\n',
			   "no blank line before the text");
	}
	if (!sp->len) {
		FUZZ_CHECK(sp->text == NULL, "text not NULL for length 0");
	} else {
		FUZZ_CHECK(sp->text != NULL && sp->text > buf &&
			   sp->text < buf + len, "text outside the buffer");
		FUZZ_CHECK(sp->len == (size_t) (buf + len - sp->text),
			   "text + len is not the buffer's end (len %zu, "
			   "buffer %zu, text at %zu)", sp->len, len,
			   (size_t) (sp->text - buf));
	}
	return 0;
}

/* Same params, path and text? */
static int same(const prism_saved_policy_t *a, const prism_saved_policy_t *b)
{
	return !strcmp(a->params, b->params) && !strcmp(a->path, b->path) &&
	       a->len == b->len &&
	       (!a->len || !memcmp(a->text, b->text, a->len));
}

/*
 * Format params/path/text; it must be refused exactly when 'ok' is 0.
 * Accepted: the output is the documented header and the text, parses back
 * (exact-size and page-guarded copies) to the same values, and formats
 * again to the same bytes. Returns the output (caller frees) or NULL.
 */
static char *format_checked(const char *params, const char *path,
			    const char *text, size_t len, int ok,
			    size_t *out_len)
{
	prism_error_t err = { "" };
	prism_saved_policy_t back, again;
	size_t n = (size_t) -1, hlen, n2 = (size_t) -1;
	char *out, *exact, *g, *head, *out2;

	out = prism_saved_policy_format(params, path, text, len, &n, &err);
	if (!ok) {
		FUZZ_CHECK(out == NULL, "format accepted a bad params/path "
			   "(params %zu bytes, path %zu bytes)",
			   params ? strlen(params) : 0,
			   path ? strlen(path) : 0);
		FUZZ_CHECK_ERR(err);
		return NULL;
	}
	FUZZ_CHECK(out != NULL, "format refused: %s", err.text);
	FUZZ_CHECK(out[n] == '\0', "output not NUL-terminated");

	/* the documented header, then the text as given */
	hlen = strlen(MAGIC) + strlen(params ? params : "") +
	       strlen(path ? path : "") + 64;
	head = malloc(hlen);
	if (!head)
		abort();
	hlen = (size_t) snprintf(head, hlen,
				 MAGIC "params %s\npath %s\nlength %zu\n\n",
				 params ? params : "", path ? path : "", len);
	FUZZ_CHECK(n == hlen + len && !memcmp(out, head, hlen) &&
		   (!len || !memcmp(out + hlen, text, len)),
		   "output is not header + text (%zu bytes, expected %zu)", n,
		   hlen + len);
	free(head);

	/* parses back to the same values, from both kinds of copy */
	exact = fuzz_dup((const uint8_t *) out, n);
	FUZZ_CHECK(!parse_checked(exact, n, &back), "formatted text refused");
	FUZZ_CHECK(!strcmp(back.params, params ? params : "") &&
		   !strcmp(back.path, path ? path : "") && back.len == len &&
		   (!len || !memcmp(back.text, text, len)),
		   "round trip changed the values");
	if ((g = fuzz_guarded(1, (const uint8_t *) out, n))) {
		FUZZ_CHECK(!parse_checked(g, n, &again) && same(&again, &back),
			   "page-guarded copy parsed differently");
	}

	/* formatting what was read gives the same bytes */
	out2 = prism_saved_policy_format(back.params, back.path, back.text,
					 back.len, &n2, &err);
	FUZZ_CHECK(out2 && n2 == n && !memcmp(out, out2, n),
		   "format is not stable");
	free(out2);
	free(exact);
	*out_len = n;
	return out;
}

/* Parse one copy of the input; on success, round trip. */
static void parse_one(const char *buf, size_t len)
{
	prism_saved_policy_t sp, back;
	size_t n;
	char *out, *exact;

	if (parse_checked(buf, len, &sp))
		return;
	out = format_checked(sp.params, sp.path, sp.text, sp.len, 1, &n);
	exact = fuzz_dup((const uint8_t *) out, n);
	FUZZ_CHECK(!parse_checked(exact, n, &back) && same(&back, &sp),
		   "round trip changed the values");
	free(exact);
	free(out);
}

/* A NUL-terminated copy of data[0..n) (it ends at a NUL in it). */
static char *cstr(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

/* Would format take this params and path? */
static int fields_ok(const char *params, const char *path)
{
	params = params ? params : "";
	path = path ? path : "";
	return !strchr(params, '\n') && strlen(params) < PARAMS_SIZE &&
	       !strchr(path, '\n') && strlen(path) < PATH_SIZE;
}

/* params, path and text cut from the input. */
static void format_slices(const uint8_t *data, size_t size)
{
	const uint8_t *rest = data + 4;
	size_t n = size - 4, i, j, len;
	char *params, *path, *out, *out2;
	size_t olen, olen2;
	prism_error_t err = { "" };

	i = (size_t) (data[0] | data[1] << 8) % (n + 1);
	j = i + (size_t) (data[2] | data[3] << 8) % (n - i + 1);
	params = cstr(rest, i);
	path = cstr(rest + i, j - i);
	len = n - j;
	out = format_checked(params, path, (const char *) rest + j, len,
			     fields_ok(params, path), &olen);

	/* NULL params/path are "", a NULL text of length 0 is no text */
	if (out && !params[0] && !path[0]) {
		out2 = prism_saved_policy_format(NULL, NULL,
						 len ? (const char *) rest + j
						     : NULL,
						 len, &olen2, &err);
		FUZZ_CHECK(out2 && olen2 == olen && !memcmp(out, out2, olen),
			   "NULL params/path format differently from \"\"");
		free(out2);
	}
	if (len) {
		/* a NULL text with a length is refused */
		out2 = prism_saved_policy_format(params, path, NULL, len,
						 &olen2, &err);
		FUZZ_CHECK(!out2, "NULL text of length %zu accepted", len);
		FUZZ_CHECK_ERR(err);
	}
	free(out);
	free(params);
	free(path);
}

/* A params and a path of lengths around their limits, filled from data. */
static void format_limits(const uint8_t *data, size_t size)
{
	size_t plen = PRISM_PARAMS_MAX - 1 + data[0] % 3;	/* max-1..max+1 */
	size_t qlen = PATH_SIZE - 2 + data[1] % 3;		/* size-2..size */
	char *params = malloc(plen + 1), *path = malloc(qlen + 1), *out;
	size_t k, olen;

	if (!params || !path)
		abort();
	for (k = 0; k < plen; k++) {
		char c = (char) data[k % size];
		params[k] = (c == '\0' || c == '\n') ? 'p' : c;
	}
	params[plen] = '\0';
	for (k = 0; k < qlen; k++) {
		char c = (char) data[(k + 1) % size];
		path[k] = (c == '\0' || c == '\n') ? '/' : c;
	}
	path[qlen] = '\0';
	/* each alone (the other short), then both */
	out = format_checked(params, "/p", NULL, 0,
			     plen <= PRISM_PARAMS_MAX, &olen);
	free(out);
	out = format_checked("policy=moab", path, (const char *) data, size,
			     qlen < PATH_SIZE, &olen);
	free(out);
	out = format_checked(params, path, (const char *) data, size,
			     plen <= PRISM_PARAMS_MAX && qlen < PATH_SIZE,
			     &olen);
	free(out);
	free(params);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = fuzz_dup(data, size), *g;

	/* heap copy for ASan, page-guarded copy for libc's reads */
	parse_one(raw, size);
	if ((g = fuzz_guarded(0, data, size)))
		parse_one(g, size);
	free(raw);

	if (size >= 4)
		format_slices(data, size);
	if (size >= 2)
		format_limits(data, size);
	return 0;
}
