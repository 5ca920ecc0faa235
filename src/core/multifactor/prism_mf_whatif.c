/*****************************************************************************\
 *  prism_mf_whatif.c - a job's multifactor priority under changed
 *  slurm.conf priority settings (see prism_mf_whatif.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prism_lines.h"
#include "prism_mf_whatif.h"

static const char *const _w_names[PRISM_MF_W_CNT] = {
	[PRISM_MF_W_AGE] = "PriorityWeightAge",
	[PRISM_MF_W_ASSOC] = "PriorityWeightAssoc",
	[PRISM_MF_W_FS] = "PriorityWeightFairshare",
	[PRISM_MF_W_JS] = "PriorityWeightJobSize",
	[PRISM_MF_W_PART] = "PriorityWeightPartition",
	[PRISM_MF_W_QOS] = "PriorityWeightQOS",
};

static const char *const _other_names[] = {
	"PriorityWeightTRES", "PriorityMaxAge",
};

extern const char *prism_mf_w_name(prism_mf_w_t w)
{
	return w < PRISM_MF_W_CNT ? _w_names[w] : "?";
}

/* An integer 0..UINT32_MAX, all of 's'. */
static int _u32(const char *s, double *out)
{
	unsigned long long v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (double) v;
	return 0;
}

/* A TRES weight: a finite number >= 0 (Slurm reads it with strtod). */
static int _weight(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out) || *out < 0)
		return -1;
	return 0;
}

static int _tres_read(const char *key, const char *val, prism_mf_change_t *ch,
		      prism_error_t *err)
{
	char buf[1024], *save = NULL, *item;

	if (strlen(val) >= sizeof(buf)) {
		prism_error_set(err, "%s: the value is too long", key);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", val);
	ch->tres_cnt = 0;
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq || eq == item || _weight(eq + 1, &ch->tres_w[ch->tres_cnt])) {
			prism_error_set(err, "%s: '%s' is not TYPE[/NAME]=NUMBER",
					key, item);
			return -1;
		}
		if (ch->tres_cnt == PRISM_MF_TRES_MAX) {
			prism_error_set(err, "%s: more than %d TRES", key,
					PRISM_MF_TRES_MAX);
			return -1;
		}
		*eq = '\0';
		if (strlen(item) >= sizeof(ch->tres_name[0])) {
			prism_error_set(err, "%s: TRES name '%s' is too long",
					key, item);
			return -1;
		}
		snprintf(ch->tres_name[ch->tres_cnt],
			 sizeof(ch->tres_name[0]), "%s", item);
		ch->tres_cnt++;
	}
	ch->tres_set = true;
	return 0;
}

/* "unknown setting" with the nearest known name, when near. */
static void _unknown(const char *key, prism_error_t *err)
{
	const char *best = NULL;
	unsigned best_d = UINT_MAX;
	size_t n_other = sizeof(_other_names) / sizeof(_other_names[0]);

	for (size_t i = 0; i < PRISM_MF_W_CNT + n_other; i++) {
		const char *n = i < PRISM_MF_W_CNT ? _w_names[i] :
			_other_names[i - PRISM_MF_W_CNT];
		unsigned d = prism_lines_distance(key, n);

		if (d < best_d) {
			best_d = d;
			best = n;
		}
	}
	if (best && best_d <= 3)
		prism_error_set(err, "unknown setting '%s' (did you mean %s?)",
				key, best);
	else
		prism_error_set(err, "unknown setting '%s': whatif changes PriorityWeightAge, PriorityWeightAssoc, PriorityWeightFairshare, PriorityWeightJobSize, PriorityWeightPartition, PriorityWeightQOS, PriorityWeightTRES and PriorityMaxAge",
				key);
}

extern int prism_mf_change_read(const char *s, long (*time_mins)(const char *),
				prism_mf_change_t *ch, prism_error_t *err)
{
	const char *eq = strchr(s, '=');
	char key[64];
	long mins;

	if (strlen(s) > PRISM_ERROR_LINE_MAX) {
		prism_error_set(err, "a setting of %zu bytes: longer than %d, the longest Prism reads",
				strlen(s), PRISM_ERROR_LINE_MAX);
		return -1;
	}
	if (!eq || eq == s || (size_t) (eq - s) >= sizeof(key)) {
		prism_error_set(err, "'%s' is not SETTING=VALUE", s);
		return -1;
	}
	snprintf(key, sizeof(key), "%.*s", (int) (eq - s), s);
	for (int w = 0; w < PRISM_MF_W_CNT; w++) {
		if (strcasecmp(key, _w_names[w]))
			continue;
		if (_u32(eq + 1, &ch->w[w])) {
			prism_error_set(err, "%s: '%s' is not a weight (an integer from 0 to 4294967295)",
					_w_names[w], eq + 1);
			return -1;
		}
		ch->w_set[w] = true;
		return 0;
	}
	if (!strcasecmp(key, "PriorityWeightTRES"))
		return _tres_read("PriorityWeightTRES", eq + 1, ch, err);
	if (strcasecmp(key, "PriorityMaxAge")) {
		_unknown(key, err);
		return -1;
	}
	mins = eq[1] && time_mins ? time_mins(eq + 1) : -1;
	if (mins < 0 || mins > (long) (UINT32_MAX / 60)) {
		prism_error_set(err, "PriorityMaxAge: '%s' is not a time (minutes, or D-HH:MM:SS and the other forms of slurm.conf)",
				eq + 1);
		return -1;
	}
	ch->max_age = (uint32_t) mins * 60;
	ch->max_age_set = true;
	return 0;
}

static const char *_factor_name(prism_mf_w_t w)
{
	static const char *const n[PRISM_MF_W_CNT] = {
		"age", "association", "fair-share", "job size", "partition",
		"QOS",
	};

	return n[w];
}

/* The age factor under the new PriorityMaxAge (the job's age in 'in'). */
static int _age_factor(const prism_mf_inputs_t *in,
		       const prism_mf_change_t *ch, double *out,
		       prism_error_t *err)
{
	if (!ch->max_age) {
		prism_error_set(err, "PriorityMaxAge: 0 leaves the age factor undefined (Slurm divides by it)");
		return -1;
	}
	if (in->age_secs < 0) {
		*out = 0;
		return 0;
	}
	*out = in->age_secs >= (int64_t) ch->max_age ?
		       1.0 :
		       (double) in->age_secs / ch->max_age;
	return 0;
}

/* The factor of term 'w' (value 'term' under the weight in force). */
static int _factor(prism_mf_w_t w, double term, const prism_mf_now_t *now,
		   const prism_mf_inputs_t *in, double *out,
		   prism_error_t *err)
{
	if (now->w[w] > 0) {
		*out = term / now->w[w];
		return 0;
	}
	if (!isnan(in->factor[w])) {
		*out = in->factor[w];
		return 0;
	}
	prism_error_set(err, "%s is 0 now, so the controller computed no %s factor, and none can be read from the job's records",
			_w_names[w], _factor_name(w));
	return -1;
}

static int _new_term(prism_mf_w_t w, double term, const prism_mf_now_t *now,
		     const prism_mf_inputs_t *in, const prism_mf_change_t *ch,
		     double *out, prism_error_t *err)
{
	double nw = ch->w_set[w] ? ch->w[w] : now->w[w];
	double f;

	if (w == PRISM_MF_W_AGE && ch->max_age_set && nw > 0) {
		if (_age_factor(in, ch, &f, err))
			return -1;
		*out = nw * f;
		return 0;
	}
	if (!ch->w_set[w]) {
		*out = term;
		return 0;
	}
	if (nw == 0) {
		*out = 0;
		return 0;
	}
	if (_factor(w, term, now, in, &f, err))
		return -1;
	*out = nw * f;
	return 0;
}

/* The new weight of the row's TRES 'name' (weight 'old' now). */
static double _tres_new_w(const char *name, double old,
			  const prism_mf_change_t *ch)
{
	if (!ch->tres_set)
		return old;
	for (size_t i = 0; i < ch->tres_cnt; i++)
		if (name && !strcasecmp(ch->tres_name[i], name))
			return ch->tres_w[i];
	return 0;
}

/* A TRES the change weighs that the row has no column for. */
static int _tres_unknown(const prism_cols_t *c, const char *const *names,
			 const double *tres_w, const prism_mf_change_t *ch,
			 prism_error_t *err)
{
	for (size_t i = 0; ch->tres_set && i < ch->tres_cnt; i++) {
		bool found = false;

		if (ch->tres_w[i] == 0)
			continue;
		for (uint32_t k = 0; k < c->tres_cnt && names; k++)
			if (names[k] && !strcasecmp(names[k], ch->tres_name[i]) &&
			    tres_w && tres_w[k] > 0)
				found = true;
		if (!found) {
			prism_error_set(err, "PriorityWeightTRES: %s is not weighed now, so the controller computed no %s factor",
					ch->tres_name[i], ch->tres_name[i]);
			return -1;
		}
	}
	return 0;
}

extern int prism_mf_whatif_prio(const prism_cols_t *c,
				const char *const *tres_names,
				const double *tres_w, const prism_mf_now_t *now,
				const prism_mf_inputs_t *in,
				const prism_mf_change_t *ch,
				prism_mf_sum_t *out, prism_error_t *err)
{
	double tres[PRISM_MF_TRES_MAX];
	prism_cols_t n = *c;
	double *t[PRISM_MF_W_CNT] = {
		&n.age, &n.assoc, &n.fs, &n.js, &n.part, &n.qos,
	};
	const double v[PRISM_MF_W_CNT] = {
		c->age, c->assoc, c->fs, c->js, c->part, c->qos,
	};

	if (prism_cols_kind(c) == PRISM_COLS_ADMIN) {
		prism_mf_sum(c, out);
		out->prio = (uint32_t) c->direct_prio;
		return 0;
	}
	for (int w = 0; w < PRISM_MF_W_CNT; w++)
		if (_new_term(w, v[w], now, in, ch, t[w], err))
			return -1;
	if (c->tres_cnt > PRISM_MF_TRES_MAX) {
		prism_error_set(err, "%u TRES columns: at most %d",
				c->tres_cnt, PRISM_MF_TRES_MAX);
		return -1;
	}
	if (_tres_unknown(c, tres_names, tres_w, ch, err))
		return -1;
	for (uint32_t k = 0; k < c->tres_cnt; k++) {
		const char *name = tres_names ? tres_names[k] : NULL;
		double ow = tres_w ? tres_w[k] : 0;
		double nw = _tres_new_w(name, ow, ch);

		tres[k] = ow > 0 ? c->tres[k] / ow * nw : 0;
	}
	n.tres = c->tres_cnt ? tres : NULL;
	prism_mf_sum(&n, out);
	return 0;
}
