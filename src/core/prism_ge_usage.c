/*****************************************************************************\
 *  prism_ge_usage.c - the Grid Engine share-tree usage per association id
 *  (see prism_ge_usage.h): an id map to a dense array of values.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_ge.h"
#include "prism_ge_usage.h"
#include "prism_idmap.h"
#include "prism_state.h"

#define _AMOUNT_MAX 1e18
/* "assoc 4294967295 " + %.17g + "\n" */
#define _LINE_MAX 64

struct prism_ge_usage {
	int64_t last;
	prism_idmap_t *index;	/* id -> position in id[] and val[] */
	uint32_t *id;
	double *val;
	uint32_t n, cap;
};

extern prism_ge_usage_t *prism_ge_usage_create(int64_t now)
{
	prism_ge_usage_t *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->index = prism_idmap_create();
	if (!u->index) {
		free(u);
		return NULL;
	}
	u->last = now;
	return u;
}

extern void prism_ge_usage_free(prism_ge_usage_t *u)
{
	if (!u)
		return;
	prism_idmap_free(u->index);
	free(u->id);
	free(u->val);
	free(u);
}

extern int64_t prism_ge_usage_last(const prism_ge_usage_t *u)
{
	return u ? u->last : 0;
}

extern void prism_ge_usage_decay(prism_ge_usage_t *u, int64_t now,
				 uint32_t halftime)
{
	double f;

	if (!u || now <= u->last)
		return;
	f = prism_ge_decay(1.0, (double) now - (double) u->last, halftime);
	for (uint32_t i = 0; f != 1.0 && i < u->n; i++)
		u->val[i] *= f;
	u->last = now;
}

/* Room for one more entry; -1 when out of memory. */
static int _reserve(prism_ge_usage_t *u)
{
	uint32_t cap;
	uint32_t *id;
	double *val;

	if (u->n < u->cap)
		return 0;
	if (u->cap > UINT32_MAX / 2)
		return -1;
	cap = u->cap ? 2 * u->cap : 64;
	id = realloc(u->id, cap * sizeof(*id));
	if (!id)
		return -1;
	u->id = id;
	val = realloc(u->val, cap * sizeof(*val));
	if (!val)
		return -1;
	u->val = val;
	u->cap = cap;
	return 0;
}

/*
 * Add 'amount' to 'id' (checked by the caller); -1 when out of memory.
 * A sum saturates at _AMOUNT_MAX, the most the text may hold: a usage
 * charged past it would be saved as a text that does not load again.
 */
static int _add(prism_ge_usage_t *u, uint32_t id, double amount)
{
	uint32_t i;

	if (prism_idmap_get(u->index, id, &i)) {
		u->val[i] = fmin(u->val[i] + amount, _AMOUNT_MAX);
		return 0;
	}
	if (_reserve(u) || prism_idmap_put(u->index, id, u->n))
		return -1;
	u->id[u->n] = id;
	u->val[u->n] = amount;
	u->n++;
	return 0;
}

extern int prism_ge_usage_charge(prism_ge_usage_t *u, uint32_t id,
				 double amount, prism_error_t *err)
{
	if (!u) {
		prism_error_set(err, "grid engine usage: NULL argument");
		return -1;
	}
	if (!(amount >= 0.0 && amount <= _AMOUNT_MAX)) {
		prism_error_set(err, "grid engine usage: association %u: amount %g not in 0..1e18",
				(unsigned) id, amount);
		return -1;
	}
	if (_add(u, id, amount)) {
		prism_error_set(err, "grid engine usage: out of memory");
		return -1;
	}
	return 0;
}

extern double prism_ge_usage_get(const prism_ge_usage_t *u, uint32_t id)
{
	uint32_t i;

	if (!u || !prism_idmap_get(u->index, id, &i))
		return 0.0;
	return u->val[i];
}

extern uint32_t prism_ge_usage_count(const prism_ge_usage_t *u)
{
	return u ? u->n : 0;
}

/* ---- text ------------------------------------------------------------- */

extern size_t prism_ge_usage_format_size(const prism_ge_usage_t *u)
{
	return 128 + (size_t) (u ? u->n : 0) * _LINE_MAX;
}

typedef struct {
	char *buf;
	size_t size, len;
	bool overflow;
} _out_t;

static void _put(_out_t *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void _put(_out_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= o->size - o->len)
		o->overflow = true;
	else
		o->len += n;
}

extern int prism_ge_usage_format(const prism_ge_usage_t *u, char *buf,
				 size_t size, prism_error_t *err)
{
	_out_t o = { .buf = buf, .size = size };

	if (!u || !buf || !size) {
		prism_error_set(err, "grid engine usage: NULL argument");
		return -1;
	}
	_put(&o, "prism-ge-usage %d\nlast %" PRId64 "\n",
	     PRISM_GE_USAGE_VERSION, u->last);
	for (uint32_t i = 0; i < u->n; i++) {
		if (u->val[i] > 0.0)
			_put(&o, "assoc %" PRIu32 " %.17g\n", u->id[i],
			     u->val[i]);
	}
	if (!o.overflow)
		_put(&o, "checksum %08" PRIx32 "\n",
		     prism_state_checksum(buf, o.len));
	if (o.overflow) {
		prism_error_set(err, "grid engine usage: buffer of %zu bytes is too small",
				size);
		return -1;
	}
	return (int) o.len;
}

/* The next line of 'body' at *pos, NUL-terminated in place; NULL at end. */
static char *_next_line(char *body, size_t len, size_t *pos)
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
	*pos = nl + 1 - body;
	return line;
}

/* A decimal integer min..max filling 's'; -1 if not. */
static int _int(const char *s, int64_t min, int64_t max, int64_t *v)
{
	char *end;
	long long x;

	if (!*s || *s == ' ' || *s == '+')
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

/* "assoc ID USAGE" into 'u'; -1 with err set if bad or repeated. */
static int _assoc_line(prism_ge_usage_t *u, char *line, unsigned lineno,
		       prism_error_t *err)
{
	char *sp, *end;
	uint32_t at;
	int64_t id;
	double v;

	if (strncmp(line, "assoc ", 6))
		goto bad;
	sp = strchr(line + 6, ' ');
	if (!sp)
		goto bad;
	*sp = '\0';
	if (_int(line + 6, 0, UINT32_MAX, &id))
		goto bad;
	/* ERANGE with a finite result is an underflow: a subnormal value,
	 * as decay leaves and %.17g writes, is valid (an overflow reads as
	 * HUGE_VAL and fails the range check) */
	v = strtod(sp + 1, &end);
	if (end == sp + 1 || *end || !(v >= 0.0 && v <= _AMOUNT_MAX))
		goto bad;
	if (prism_idmap_get(u->index, (uint32_t) id, &at)) {
		prism_error_set(err, "grid engine usage: line %u: association %" PRId64 " repeated",
				lineno, id);
		return -1;
	}
	if (_add(u, (uint32_t) id, v)) {
		prism_error_set(err, "grid engine usage: out of memory");
		return -1;
	}
	return 0;
bad:
	prism_error_set(err, "grid engine usage: line %u: bad line", lineno);
	return -1;
}

/* The lines before the checksum into 'u'. */
static int _body(prism_ge_usage_t *u, char *body, size_t len,
		 prism_error_t *err)
{
	size_t pos = 0;
	unsigned lineno = 2;
	int64_t v;
	char *line;

	line = _next_line(body, len, &pos);
	if (!line || strncmp(line, "prism-ge-usage ", 15) ||
	    _int(line + 15, 0, INT32_MAX, &v)) {
		prism_error_set(err, "grid engine usage: not a usage state");
		return -1;
	}
	if (v != PRISM_GE_USAGE_VERSION) {
		prism_error_set(err, "grid engine usage: version %" PRId64 " is not %d",
				v, PRISM_GE_USAGE_VERSION);
		return -1;
	}
	line = _next_line(body, len, &pos);
	if (!line || strncmp(line, "last ", 5) ||
	    _int(line + 5, INT64_MIN, INT64_MAX, &v)) {
		prism_error_set(err, "grid engine usage: line 2: expected 'last EPOCH'");
		return -1;
	}
	u->last = v;
	while ((line = _next_line(body, len, &pos))) {
		if (_assoc_line(u, line, ++lineno, err))
			return -1;
	}
	return 0;
}

/* Exactly 'n' lower-case or upper-case hex digits into *v. */
static int _hex32(const char *s, size_t n, uint32_t *v)
{
	uint32_t x = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		x = x * 16 + d;
	}
	*v = x;
	return 0;
}

extern int prism_ge_usage_parse(const char *buf, size_t len,
				prism_ge_usage_t **out, prism_error_t *err)
{
	prism_ge_usage_t *u;
	size_t last;
	uint32_t sum;
	char *body;
	int rc;

	if (!buf || !out) {
		prism_error_set(err, "grid engine usage: NULL argument");
		return -1;
	}
	if (!len) {
		prism_error_set(err, "grid engine usage: empty");
		return -1;
	}
	if (buf[len - 1] != '\n') {
		prism_error_set(err, "grid engine usage: truncated");
		return -1;
	}
	last = len - 1;
	while (last > 0 && buf[last - 1] != '\n')
		last--;
	/* "checksum " + exactly 8 hex digits + the final newline */
	if (len - last != 18 || strncmp(buf + last, "checksum ", 9)) {
		prism_error_set(err, "grid engine usage: truncated or trailing data (no checksum at the end)");
		return -1;
	}
	if (_hex32(buf + last + 9, 8, &sum) ||
	    sum != prism_state_checksum(buf, last)) {
		prism_error_set(err, "grid engine usage: checksum mismatch");
		return -1;
	}
	body = malloc(last + 1);
	u = prism_ge_usage_create(0);
	if (!body || !u) {
		free(body);
		prism_ge_usage_free(u);
		prism_error_set(err, "grid engine usage: out of memory");
		return -1;
	}
	memcpy(body, buf, last);
	body[last] = '\0';
	rc = _body(u, body, last, err);
	free(body);
	if (rc) {
		prism_ge_usage_free(u);
		return -1;
	}
	*out = u;
	return 0;
}
