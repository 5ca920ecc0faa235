/*****************************************************************************\
 *  prism_ge_usage.c - the Grid Engine share-tree usage per association id
 *  (see prism_ge_usage.h): an id map to a dense array of values.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_buf.h"
#include "prism_format.h"
#include "prism_ge.h"
#include "prism_ge_usage.h"
#include "prism_idmap.h"
#include "prism_sumtext.h"

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
 * A sum saturates at PRISM_GE_AMOUNT_MAX, the most the text may hold: a
 * usage charged past it would be saved as a text that does not load
 * again.
 */
static int _add(prism_ge_usage_t *u, uint32_t id, double amount)
{
	uint32_t i;

	if (prism_idmap_get(u->index, id, &i)) {
		u->val[i] = fmin(u->val[i] + amount, PRISM_GE_AMOUNT_MAX);
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
	if (!(amount >= 0.0 && amount <= PRISM_GE_AMOUNT_MAX)) {
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

extern double prism_ge_usage_amount(uint32_t cpus, double seconds)
{
	if (!(seconds > 0.0) || !isfinite(seconds))
		return 0.0;
	return (double) cpus * seconds;
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

extern int prism_ge_usage_format(const prism_ge_usage_t *u, char *buf,
				 size_t size, prism_error_t *err)
{
	prism_buf_t o;

	if (!u || !buf || !size) {
		prism_error_set(err, "grid engine usage: NULL argument");
		return -1;
	}
	prism_buf_init(&o, buf, size);
	prism_buf_put(&o, "prism-ge-usage %d\nlast %" PRId64 "\n",
		      PRISM_GE_USAGE_VERSION, u->last);
	for (uint32_t i = 0; i < u->n; i++) {
		if (!(u->val[i] > 0.0))
			continue;
		prism_buf_put(&o, "assoc %" PRIu32, u->id[i]);
		prism_sumtext_put_real(&o, u->val[i]);
		prism_buf_put(&o, "\n");
	}
	prism_sumtext_put_checksum(&o);
	return prism_buf_end(&o, "grid engine usage:", err);
}

/* A decimal integer min..max filling 's', no blank or '+' first; -1 if not. */
static int _int(const char *s, int64_t min, int64_t max, int64_t *v)
{
	if (*s == ' ' || *s == '+')
		return -1;
	return prism_sumtext_int(s, min, max, v);
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
	if (prism_sumtext_real(sp + 1, 0.0, PRISM_GE_AMOUNT_MAX, &end, &v) ||
	    *end)
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

	line = prism_sumtext_line(body, len, &pos);
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
	line = prism_sumtext_line(body, len, &pos);
	if (!line || strncmp(line, "last ", 5) ||
	    _int(line + 5, INT64_MIN, INT64_MAX, &v)) {
		prism_error_set(err, "grid engine usage: line 2: expected 'last EPOCH'");
		return -1;
	}
	u->last = v;
	while ((line = prism_sumtext_line(body, len, &pos))) {
		if (_assoc_line(u, line, ++lineno, err))
			return -1;
	}
	return 0;
}

extern int prism_ge_usage_parse(const char *buf, size_t len,
				prism_ge_usage_t **out, prism_error_t *err)
{
	prism_sumtext_rc_t open_rc;
	prism_ge_usage_t *u;
	char *body = NULL;
	size_t body_len = 0;
	int64_t v;
	int rc;

	if (!buf || !out) {
		prism_error_set(err, "grid engine usage: NULL argument");
		return -1;
	}
	/* a later format, whatever follows its first line */
	if (!prism_format_first_line(buf, len, "prism-ge-usage", "", &v,
				     NULL) &&
	    (v > PRISM_GE_USAGE_VERSION))
		return prism_format_check("grid engine usage", v,
					  PRISM_GE_USAGE_VERSION,
					  PRISM_GE_USAGE_VERSION, err);
	open_rc = prism_sumtext_open(buf, len, &body, &body_len);
	/* a checksum line of another length has always read as a cut text */
	if (open_rc == PRISM_SUMTEXT_BAD_LENGTH)
		open_rc = PRISM_SUMTEXT_NO_CHECKSUM;
	if (open_rc != PRISM_SUMTEXT_OK) {
		prism_error_set(err, "grid engine usage: %s",
				prism_sumtext_why(open_rc));
		return -1;
	}
	u = prism_ge_usage_create(0);
	if (!u) {
		free(body);
		prism_error_set(err, "grid engine usage: out of memory");
		return -1;
	}
	rc = _body(u, body, body_len, err);
	free(body);
	if (rc) {
		prism_ge_usage_free(u);
		return -1;
	}
	*out = u;
	return 0;
}
