/*****************************************************************************\
 *  prism_mf_check.c - the checks of `prism check` under policy=multifactor
 *  (the rules are in prism_mf_check.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prism_lines.h"
#include "prism_mf_check.h"

#define PRIO_MAX 4294967295.0	/* Slurm's 32-bit priority */
#define APART_RATIO 1e6
#define TRES_MAX 64		/* PriorityWeightTRES items looked at */
#define NAME_MAX_LEN 64

#define NO_NORMAL_ALL                                              \
	(PRISM_MF_F_NO_NORMAL_ASSOC | PRISM_MF_F_NO_NORMAL_PART | \
	 PRISM_MF_F_NO_NORMAL_QOS | PRISM_MF_F_NO_NORMAL_TRES)

/* One weight: a slurm.conf key, or one TRES of PriorityWeightTRES. */
typedef struct {
	const char *key;
	char name[NAME_MAX_LEN];	/* the TRES; "" for the six weights */
	double w;
} _weight_t;

typedef struct {
	_weight_t w[6 + TRES_MAX];
	size_t cnt;
} _weights_t;

static void _add(prism_mf_findings_t *out, prism_mf_rule_t rule,
		 const char *key, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A new string of printf's text of 'fmt' and 'ap', or NULL. */
static char *_vdup(const char *fmt, va_list ap)
{
	va_list again;
	int len;
	char *text;

	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (len < 0)
		return NULL;
	text = malloc((size_t) len + 1);
	if (text)
		vsnprintf(text, (size_t) len + 1, fmt, ap);
	return text;
}

/* Append a finding to 'out' (counted in out->lost when full or out of
 * memory). */
static void _add(prism_mf_findings_t *out, prism_mf_rule_t rule,
		 const char *key, const char *value, const char *fmt, ...)
{
	prism_mf_finding_t *f;
	va_list ap;
	char *v, *t;

	if (out->cnt >= PRISM_MF_FINDINGS_MAX) {
		out->lost++;
		return;
	}
	v = strdup(value ? value : "");
	va_start(ap, fmt);
	t = _vdup(fmt, ap);
	va_end(ap);
	if (!v || !t) {
		free(v);
		free(t);
		out->lost++;
		return;
	}
	f = &out->item[out->cnt++];
	f->rule = rule;
	f->error = rule == PRISM_MF_TRES;
	f->key = key;
	f->value = v;
	f->text = t;
}

extern void prism_mf_findings_free(prism_mf_findings_t *out)
{
	if (!out)
		return;
	for (size_t i = 0; i < out->cnt; i++) {
		free(out->item[i].value);
		free(out->item[i].text);
	}
	memset(out, 0, sizeof(*out));
}

extern void prism_mf_time_str(uint32_t secs, char *buf, size_t size)
{
	uint32_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60;

	if (d)
		snprintf(buf, size, "%u-%02u:%02u:%02u", d, h, m, secs % 60);
	else
		snprintf(buf, size, "%02u:%02u:%02u", h, m, secs % 60);
}

extern void prism_mf_flags_str(uint32_t flags, char *buf, size_t size)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ PRISM_MF_F_ACCRUE_ALWAYS, "ACCRUE_ALWAYS" },
		{ PRISM_MF_F_SIZE_RELATIVE, "SMALL_RELATIVE_TO_TIME" },
		{ PRISM_MF_F_CALCULATE_RUNNING, "CALCULATE_RUNNING" },
		{ PRISM_MF_F_DEPTH_OBLIVIOUS, "DEPTH_OBLIVIOUS" },
		{ PRISM_MF_F_INCR_ONLY, "INCR_ONLY" },
		{ PRISM_MF_F_MAX_TRES, "MAX_TRES" },
		{ PRISM_MF_F_NO_NORMAL_ASSOC, "NO_NORMAL_ASSOC" },
		{ PRISM_MF_F_NO_NORMAL_PART, "NO_NORMAL_PART" },
		{ PRISM_MF_F_NO_NORMAL_QOS, "NO_NORMAL_QOS" },
		{ PRISM_MF_F_NO_NORMAL_TRES, "NO_NORMAL_TRES" },
	};
	size_t len = 0;

	if (!size)
		return;
	buf[0] = '\0';
	if (!(flags & (PRISM_MF_F_FAIR_TREE | PRISM_MF_F_DEPTH_OBLIVIOUS)))
		len += snprintf(buf, size, "NO_FAIR_TREE");
	if ((flags & NO_NORMAL_ALL) == NO_NORMAL_ALL) {
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				len ? "," : "", "NO_NORMAL_ALL");
		flags &= ~NO_NORMAL_ALL;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].bit) || len >= size)
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? "," : "",
				names[i].name);
	}
	if (!len)
		snprintf(buf, size, "FAIR_TREE");
}

/*
 * The weight of one PriorityWeightTRES item's value 'v' for TRES 'type'
 * as Slurm reads it: a number, optionally with a unit K, M, G, T or P
 * that divides it by 1024 per step above the TRES's base unit (MB for
 * mem and bb, none for the others). Returns 0, or -1 when 'v' is not
 * that.
 */
static int _tres_weight(const char *type, const char *v, double *w)
{
	static const char units[] = "KMGTP";
	bool mb = !strcasecmp(type, "mem") || !strcasecmp(type, "bb");
	int base = mb ? 2 : 0;	/* the unit's place in " KMGTP" */
	const char *u;
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || !isfinite(d))
		return -1;
	if (*end) {
		int c = toupper((unsigned char) *end);

		u = end[1] ? NULL : strchr(units, c);
		if (!u || !*u)
			return -1;
		for (int unit = (int) (u - units) + 1; unit > base; unit--)
			d /= 1024.0;
	}
	*w = d;
	return 0;
}

/* Is the TRES 'name' one of the comma list 'names' (case ignored)? */
static bool _tres_known(const char *names, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = names; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t) (comma - p) : strlen(p);

		if (n == len && !strncasecmp(p, name, len))
			return true;
		p = comma ? comma + 1 : p + n;
	}
	return false;
}

/* Look at one PriorityWeightTRES item 'item' (NUL-terminated). */
static void _tres_item(const prism_mf_settings_t *s, char *item,
		       _weights_t *ws, prism_mf_findings_t *out)
{
	char *eq = strchr(item, '='), *slash;
	_weight_t *w;
	double d;

	if (!eq || eq == item) {
		_add(out, PRISM_MF_TRES, "PriorityWeightTRES", item,
		     "not TRES=WEIGHT: slurmctld stops on it");
		return;
	}
	if (ws->cnt >= sizeof(ws->w) / sizeof(ws->w[0]))
		return;
	*eq = '\0';
	slash = strchr(item, '/');
	if (slash)
		*slash = '\0';
	if (_tres_weight(item, eq + 1, &d)) {
		if (slash)
			*slash = '/';
		*eq = '=';
		_add(out, PRISM_MF_TRES, "PriorityWeightTRES", item,
		     "the weight is not a number with an optional unit K, M, G, T or P: slurmctld stops on it");
		return;
	}
	if (slash)
		*slash = '/';
	w = &ws->w[ws->cnt++];
	w->key = "PriorityWeightTRES";
	snprintf(w->name, sizeof(w->name), "%s", item);
	w->w = d;
	*eq = '=';
	if (!_tres_known(s->tres_names, w->name))
		_add(out, PRISM_MF_TRES, "PriorityWeightTRES", item,
		     "%.*s is not a TRES of this cluster (AccountingStorageTRES and Slurm's own: %s): slurmctld stops on it",
		     (int) (eq - item), item,
		     s->tres_names ? s->tres_names : "none");
}

/* What a walk over a comma list's items works on. */
typedef struct {
	const prism_mf_settings_t *s;
	_weights_t *ws;
	prism_mf_findings_t *out;
} _walk_t;

/* Call fn(item, w) for each item of the comma list 'list' (NULL: none);
 * an item may be changed in place. */
static void _each_item(const char *list, void (*fn)(char *, _walk_t *),
		       _walk_t *w)
{
	char *copy, *item, *save = NULL;

	if (!list || !*list)
		return;
	copy = strdup(list);
	if (!copy)
		return;
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save))
		fn(item, w);
	free(copy);
}

static void _tres_walk(char *item, _walk_t *w)
{
	_tres_item(w->s, item, w->ws, w->out);
}

/* The six weights and the PriorityWeightTRES items into 'ws'. */
static void _weights(const prism_mf_settings_t *s, _weights_t *ws,
		     prism_mf_findings_t *out)
{
	const _weight_t six[] = {
		{ "PriorityWeightAge", "", s->weight_age },
		{ "PriorityWeightFairshare", "", s->weight_fs },
		{ "PriorityWeightJobSize", "", s->weight_js },
		{ "PriorityWeightPartition", "", s->weight_part },
		{ "PriorityWeightQOS", "", s->weight_qos },
		{ "PriorityWeightAssoc", "", s->weight_assoc },
	};
	_walk_t w = { s, ws, out };

	memcpy(ws->w, six, sizeof(six));
	ws->cnt = 6;
	_each_item(s->weight_tres, _tres_walk, &w);
}

/* "KEY" of a six weight, or "NAME" of a TRES weight, with its value. */
static void _weight_value(const _weight_t *w, char *buf, size_t size)
{
	if (w->name[0])
		snprintf(buf, size, "%s=%g", w->name, w->w);
	else
		snprintf(buf, size, "%.0f", w->w);
}

/*
 * The names Slurm's parser looks for in PriorityFlags (read_config.c,
 * 22.05 to 26.05; MAX_TRES_GRES from 25.11), each with xstrcasestr() over
 * the whole value: an item that merely contains one is read as that flag.
 */
static const char *const _flag_names[] = {
	"ACCRUE_ALWAYS",   "SMALL_RELATIVE_TO_TIME", "CALCULATE_RUNNING",
	"DEPTH_OBLIVIOUS", "NO_FAIR_TREE",	     "INCR_ONLY",
	"MAX_TRES",	   "MAX_TRES_GRES",	     "NO_NORMAL_ALL",
	"NO_NORMAL_ASSOC", "NO_NORMAL_PART",	     "NO_NORMAL_QOS",
	"NO_NORMAL_TRES",
};
#define _FLAG_CNT (sizeof(_flag_names) / sizeof(_flag_names[0]))

/* Whether 'item' is a flag's name; FAIR_TREE too (the default, which
 * older releases took as a flag and today's pass over). */
static bool _is_flag(const char *item)
{
	if (!strcasecmp(item, "FAIR_TREE"))
		return true;
	for (size_t i = 0; i < _FLAG_CNT; i++)
		if (!strcasecmp(item, _flag_names[i]))
			return true;
	return false;
}

/* Whether 'big' contains 'small', case ignored (Slurm's xstrcasestr). */
static bool _contains(const char *big, const char *small)
{
	size_t n = strlen(small), len = strlen(big);

	for (size_t i = 0; i + n <= len; i++)
		if (!strncasecmp(big + i, small, n))
			return true;
	return false;
}

/*
 * The flags' names that 'item' contains into 'buf' ("A and B", "A, B and
 * C"); returns how many.
 */
static size_t _contained(const char *item, char *buf, size_t size)
{
	const char *hit[_FLAG_CNT];
	size_t cnt = 0, len = 0;

	for (size_t i = 0; i < _FLAG_CNT; i++)
		if (_contains(item, _flag_names[i]))
			hit[cnt++] = _flag_names[i];
	buf[0] = '\0';
	for (size_t i = 0; i < cnt && len < size; i++) {
		const char *sep = !i		? "" :
				  i + 1 == cnt ? " and " :
						 ", ";

		len += snprintf(buf + len, size - len, "%s%s", sep, hit[i]);
	}
	return cnt;
}

/*
 * FLAGS: one item of PriorityFlags, when it is no flag's name: read as
 * the flags whose names it contains, else ignored.
 */
static void _flag_walk(char *item, _walk_t *w)
{
	char names[_FLAG_CNT * 32];
	const char *best = NULL;
	unsigned best_d = UINT_MAX;
	size_t cnt;

	if (_is_flag(item))
		return;
	cnt = _contained(item, names, sizeof(names));
	if (cnt) {
		_add(w->out, PRISM_MF_FLAGS, "PriorityFlags", w->s->flags_text,
		     "'%s' is not a flag, but Slurm finds %s in it and reads it as %s",
		     item, names, cnt == 1 ? "that flag" : "those flags");
		return;
	}
	for (size_t i = 0; i < _FLAG_CNT; i++) {
		unsigned d = prism_lines_distance(item, _flag_names[i]);

		if (d < best_d) {
			best_d = d;
			best = _flag_names[i];
		}
	}
	if (best && best_d <= 3)
		_add(w->out, PRISM_MF_FLAGS, "PriorityFlags", w->s->flags_text,
		     "'%s' is not a flag (did you mean %s?): Slurm ignores it without a word",
		     item, best);
	else
		_add(w->out, PRISM_MF_FLAGS, "PriorityFlags", w->s->flags_text,
		     "'%s' is not a flag: Slurm ignores it without a word",
		     item);
}

/* FLAGS: each item of PriorityFlags that names no flag. */
static void _check_flags(const prism_mf_settings_t *s,
			 prism_mf_findings_t *out)
{
	_walk_t w = { s, NULL, out };

	_each_item(s->flags_text, _flag_walk, &w);
}

/* SUM, ALLZERO: the weights as a whole. */
static void _check_sum(const _weights_t *ws, prism_mf_findings_t *out)
{
	const _weight_t *top = &ws->w[0];
	double sum = 0;
	char v[96];

	for (size_t i = 0; i < ws->cnt; i++) {
		sum += ws->w[i].w > 0 ? ws->w[i].w : 0;
		if (ws->w[i].w > top->w)
			top = &ws->w[i];
	}
	if (sum <= 0) {
		_add(out, PRISM_MF_ALLZERO, NULL, NULL,
		     "every PriorityWeight* is 0: every job's priority is 1, jobs run in submit order (FIFO)");
		return;
	}
	if (sum > PRIO_MAX) {
		_weight_value(top, v, sizeof(v));
		_add(out, PRISM_MF_SUM, top->key, v,
		     "the weights sum to %.0f, more than a 32-bit priority holds (4294967295): Slurm cuts the highest priorities to 4294967295, where they tie",
		     sum);
	}
}

/* TINY, APART: a weight too small to matter beside the largest. */
static void _check_apart(const prism_mf_settings_t *s, const _weights_t *ws,
			 prism_mf_findings_t *out)
{
	const _weight_t *top = &ws->w[0];
	char v[96], tv[96];

	for (size_t i = 1; i < ws->cnt; i++)
		if (ws->w[i].w > top->w)
			top = &ws->w[i];
	_weight_value(top, tv, sizeof(tv));
	for (size_t i = 0; i < ws->cnt; i++) {
		const _weight_t *w = &ws->w[i];

		if (w->w <= 0)
			continue;
		_weight_value(w, v, sizeof(v));
		if (w->name[0] && w->w < 1 &&
		    !(s->flags & PRISM_MF_F_NO_NORMAL_TRES))
			_add(out, PRISM_MF_TINY, w->key, v,
			     "the TRES factor is at most 1, so this term adds less than one point to an integer priority");
		else if (w->w * APART_RATIO < top->w)
			_add(out, PRISM_MF_APART, w->key, v,
			     "adds at most %g points where %s=%s adds up to %.0f: it only reorders jobs whose other terms agree to one part in a million",
			     w->w, top->key, tv, top->w);
	}
}

/* Is PriorityUsageResetPeriod NONE (its default)? */
static bool _reset_none(const prism_mf_settings_t *s)
{
	return !s->reset || !strcasecmp(s->reset, "NONE");
}

/* ZERO: a weight of 0 while a setting feeds only its term. */
static void _check_zero(const prism_mf_settings_t *s,
			prism_mf_findings_t *out)
{
	char v[96], f[PRISM_MF_FLAGS_STR_MAX];
	uint32_t nn = s->flags & NO_NORMAL_ALL;

	prism_mf_flags_str(s->flags, f, sizeof(f));
	if (!s->weight_js && s->favor_small)
		_add(out, PRISM_MF_ZERO, "PriorityFavorSmall", "YES",
		     "PriorityWeightJobSize=0: the job-size factor it sets is never used");
	if (!s->weight_js && (s->flags & PRISM_MF_F_SIZE_RELATIVE))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "SMALL_RELATIVE_TO_TIME with PriorityWeightJobSize=0: the job-size factor it sets is never used");
	if (!s->weight_fs && (s->flags & PRISM_MF_F_DEPTH_OBLIVIOUS))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "DEPTH_OBLIVIOUS with PriorityWeightFairshare=0: the fair-share factor it computes is never used");
	else if (!s->weight_fs && !(s->flags & PRISM_MF_F_FAIR_TREE))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "NO_FAIR_TREE with PriorityWeightFairshare=0: the fair-share factor it computes is never used");
	if (!s->weight_fs && s->decay_hl != PRISM_MF_DEFAULT_DECAY) {
		prism_mf_time_str(s->decay_hl, v, sizeof(v));
		_add(out, PRISM_MF_ZERO, "PriorityDecayHalfLife", v,
		     "PriorityWeightFairshare=0: the decayed usage only feeds usage limits (GrpTRESMins and the like), not priorities");
	}
	if (!s->weight_fs && !_reset_none(s))
		_add(out, PRISM_MF_ZERO, "PriorityUsageResetPeriod", s->reset,
		     "PriorityWeightFairshare=0: the reset only affects usage limits (GrpTRESMins and the like), not priorities");
	if (!s->weight_age && s->max_age != PRISM_MF_DEFAULT_DECAY) {
		prism_mf_time_str(s->max_age, v, sizeof(v));
		_add(out, PRISM_MF_ZERO, "PriorityMaxAge", v,
		     "PriorityWeightAge=0: the age factor it scales is never used");
	}
	if (!s->weight_age && (s->flags & PRISM_MF_F_ACCRUE_ALWAYS))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "ACCRUE_ALWAYS with PriorityWeightAge=0: the age it accrues is never used");
	if (nn == NO_NORMAL_ALL)
		return;
	if (!s->weight_assoc && (nn & PRISM_MF_F_NO_NORMAL_ASSOC))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "NO_NORMAL_ASSOC with PriorityWeightAssoc=0: no effect");
	if (!s->weight_part && (nn & PRISM_MF_F_NO_NORMAL_PART))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "NO_NORMAL_PART with PriorityWeightPartition=0: no effect");
	if (!s->weight_qos && (nn & PRISM_MF_F_NO_NORMAL_QOS))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "NO_NORMAL_QOS with PriorityWeightQOS=0: no effect");
	if ((!s->weight_tres || !*s->weight_tres) &&
	    (nn & PRISM_MF_F_NO_NORMAL_TRES))
		_add(out, PRISM_MF_ZERO, "PriorityFlags", f,
		     "NO_NORMAL_TRES without PriorityWeightTRES: no effect");
}

/* MAXAGE, DECAY: the times. */
static void _check_times(const prism_mf_settings_t *s,
			 prism_mf_findings_t *out)
{
	char v[96], c[96];

	if (s->max_age < s->calc_period) {
		prism_mf_time_str(s->max_age, v, sizeof(v));
		prism_mf_time_str(s->calc_period, c, sizeof(c));
		_add(out, PRISM_MF_MAXAGE, "PriorityMaxAge", v,
		     "shorter than PriorityCalcPeriod=%s: the age factor jumps from 0 to 1 between two recalculations",
		     c);
	}
	if (!s->decay_hl && _reset_none(s))
		_add(out, PRISM_MF_DECAY, "PriorityDecayHalfLife", "0",
		     "with PriorityUsageResetPeriod=NONE usage never decays nor resets: it grows without bound");
}

extern int prism_mf_check(const prism_mf_settings_t *s,
			  prism_mf_findings_t *out, prism_error_t *err)
{
	_weights_t ws;

	if (!s || !out) {
		prism_error_set(err, "prism_mf_check: no settings or findings");
		return -1;
	}
	memset(out, 0, sizeof(*out));
	_weights(s, &ws, out);
	_check_flags(s, out);
	_check_sum(&ws, out);
	_check_zero(s, out);
	_check_times(s, out);
	_check_apart(s, &ws, out);
	return 0;
}
