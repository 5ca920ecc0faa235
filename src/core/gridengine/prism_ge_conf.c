/*****************************************************************************\
 *  prism_ge_conf.c - the Grid Engine scheduler configuration parser (see
 *  prism_ge_conf.h).
 *
 *  A policy is built from scratch for every parse and handed over only
 *  when the whole text is good, so a failed parse never touches the
 *  caller's policy. Named entries sit in one array per kind, indexed by
 *  an open-addressing hash of their names.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prism_ge_conf.h"
#include "prism_lines.h"
#include "prism_names.h"

#define _WEIGHT_MAX 1e9		/* weights, urgencies */
#define _DEADLINE_MAX 1e12	/* weight_deadline */
#define _COUNT_MAX 1e9		/* ticket pools, shares, tickets */
#define _HALFTIME_MAX 1e6	/* hours */
#define _JOBS_MAX 1e6		/* max_functional_jobs_to_schedule */

_Static_assert(PRISM_GE_LINE_MAX == PRISM_LINES_MAX,
	       "a Grid Engine file's lines are read by prism_lines_read()");
_Static_assert(PRISM_GE_NONE == PRISM_NAMES_NONE,
	       "handles are prism_names_t indices");

/* What an entry's line sets. */
typedef enum {
	_F_URGENCY,
	_F_FSHARE,
	_F_OTICKET,
	_F_CNT
} _field_t;

typedef struct {
	prism_ge_entry_t e;
	unsigned line[_F_CNT];	/* line that set each field, 0: none */
} _ent_t;

struct prism_ge_policy {
	prism_ge_params_t p;
	prism_names_t tab[PRISM_GE_KIND_CNT];	/* of _ent_t */
	prism_lines_notices_t notices;
	unsigned kept;		/* parameters and entries read */
};

/* Kinds of sched_conf(5) lines. */
typedef enum {
	_K_REAL,	/* decimal number, 0..max */
	_K_UINT,	/* integer, 0..max */
	_K_BOOL,
	_K_HIER,	/* policy_hierarchy */
	_K_OTHER,	/* not about priority: a notice */
	_K_UNMODELLED,	/* about priority, not modelled: a notice */
} _ktype_t;

#define _P(field) offsetof(prism_ge_params_t, field)

static const struct {
	const char *name;
	_ktype_t type;
	size_t off;
	double max;
} _keys[] = {
	{ "weight_priority", _K_REAL, _P(weight_priority), _WEIGHT_MAX },
	{ "weight_urgency", _K_REAL, _P(weight_urgency), _WEIGHT_MAX },
	{ "weight_ticket", _K_REAL, _P(weight_ticket), _WEIGHT_MAX },
	{ "weight_waiting_time", _K_REAL, _P(weight_waiting_time),
	  _WEIGHT_MAX },
	{ "weight_deadline", _K_REAL, _P(weight_deadline), _DEADLINE_MAX },
	{ "halftime", _K_UINT, _P(halftime), _HALFTIME_MAX },
	{ "compensation_factor", _K_REAL, _P(compensation_factor),
	  _WEIGHT_MAX },
	{ "weight_tickets_share", _K_UINT, _P(weight_tickets_share),
	  _COUNT_MAX },
	{ "weight_tickets_functional", _K_UINT,
	  _P(weight_tickets_functional), _COUNT_MAX },
	{ "weight_user", _K_REAL, _P(weight_user), _WEIGHT_MAX },
	{ "weight_project", _K_REAL, _P(weight_project), _WEIGHT_MAX },
	{ "weight_department", _K_REAL, _P(weight_department), _WEIGHT_MAX },
	{ "weight_job", _K_REAL, _P(weight_job), _WEIGHT_MAX },
	{ "share_override_tickets", _K_BOOL, _P(share_override_tickets), 0 },
	{ "share_functional_shares", _K_BOOL, _P(share_functional_shares),
	  0 },
	{ "report_pjob_tickets", _K_BOOL, _P(report_pjob_tickets), 0 },
	{ "max_functional_jobs_to_schedule", _K_UINT,
	  _P(max_functional_jobs), _JOBS_MAX },
	{ "policy_hierarchy", _K_HIER, 0, 0 },
	{ "usage_weight_list", _K_UNMODELLED, 0, 0 },
	{ "halflife_decay_list", _K_UNMODELLED, 0, 0 },
	{ "weight_tickets_override", _K_UNMODELLED, 0, 0 },
	{ "algorithm", _K_OTHER, 0, 0 },
	{ "schedule_interval", _K_OTHER, 0, 0 },
	{ "maxujobs", _K_OTHER, 0, 0 },
	{ "queue_sort_method", _K_OTHER, 0, 0 },
	{ "job_load_adjustments", _K_OTHER, 0, 0 },
	{ "load_adjustment_decay_time", _K_OTHER, 0, 0 },
	{ "load_formula", _K_OTHER, 0, 0 },
	{ "schedd_job_info", _K_OTHER, 0, 0 },
	{ "flush_submit_sec", _K_OTHER, 0, 0 },
	{ "flush_finish_sec", _K_OTHER, 0, 0 },
	{ "params", _K_OTHER, 0, 0 },
	{ "reprioritize_interval", _K_OTHER, 0, 0 },
	{ "max_reservation", _K_OTHER, 0, 0 },
	{ "default_duration", _K_OTHER, 0, 0 },
	{ "max_pending_tasks_per_job", _K_OTHER, 0, 0 },
	/* Univa / Altair Grid Engine 8.x */
	{ "fair_urgency_list", _K_UNMODELLED, 0, 0 },
	{ "backfilling", _K_OTHER, 0, 0 },
	{ "prioritize_preemptees", _K_OTHER, 0, 0 },
	{ "preemptees_keep_resources", _K_OTHER, 0, 0 },
	{ "max_preemptees", _K_OTHER, 0, 0 },
	{ "preemption_distance", _K_OTHER, 0, 0 },
	{ "preemption_priority_adjustments", _K_OTHER, 0, 0 },
};

/*
 * Grid Engine 8.x weights that sort hosts and queues, not jobs
 * (weight_host_sort, weight_queue_host_sort, weight_queue_seqno, ...).
 */
static const char *_other_prefixes[] = { "weight_host_", "weight_queue_" };

#define _KEY_CNT (sizeof(_keys) / sizeof(_keys[0]))

/* Prism's "name[id] value" lines. */
static const struct {
	const char *name;
	prism_ge_kind_t kind;
	_field_t field;
} _entry_keys[] = {
	{ "urgency", PRISM_GE_RESOURCE, _F_URGENCY },
	{ "urgency_partition", PRISM_GE_PARTITION, _F_URGENCY },
	{ "override_tickets_user", PRISM_GE_USER, _F_OTICKET },
	{ "override_tickets_account", PRISM_GE_ACCOUNT, _F_OTICKET },
	{ "functional_shares_user", PRISM_GE_USER, _F_FSHARE },
	{ "functional_shares_account", PRISM_GE_ACCOUNT, _F_FSHARE },
};

static const char *_kind_names[PRISM_GE_KIND_CNT] = {
	"user", "account", "partition", "resource"
};

static const char *_tpolicy_names[PRISM_GE_TPOLICY_CNT] = {
	"override", "functional", "share-tree"
};

static const char _tpolicy_letters[PRISM_GE_TPOLICY_CNT] = { 'O', 'F', 'S' };

/* What a parse is doing now: for messages. */
typedef struct {
	prism_lines_t at;
	prism_ge_policy_t *pol;
	unsigned key_line[_KEY_CNT];	/* line that set each key, or 0 */
	unsigned kept;			/* parameters and entries set */
} _ctx_t;

/* ---- values ----------------------------------------------------------- */

/* Is 's' a plain decimal number: [+-]digits[.digits][e[+-]digits]? */
static bool _is_decimal(const char *s, bool *integer)
{
	int digits = 0;

	*integer = true;
	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.') {
		*integer = false;
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	}
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		int exp = 0;

		*integer = false;
		s++;
		if (*s == '+' || *s == '-')
			s++;
		for (; *s >= '0' && *s <= '9'; s++)
			exp++;
		if (!exp)
			return false;
	}
	return !*s;
}

/* A decimal number 0..max into *out. */
static int _real(_ctx_t *c, const char *what, const char *s, double max,
		 double *out)
{
	bool integer;
	double v;

	if (!_is_decimal(s, &integer))
		return prism_lines_fail(&c->at, "%s: '%s' is not a number",
					what, s);
	v = strtod(s, NULL);
	if (!isfinite(v) || v < 0.0 || v > max)
		return prism_lines_fail(&c->at,
					"%s: '%s' is out of range (0..%g)",
					what, s, max);
	*out = v + 0.0;		/* no -0 */
	return 0;
}

/* An integer 0..max into *out. */
static int _uint(_ctx_t *c, const char *what, const char *s, double max,
		 uint32_t *out)
{
	bool integer;
	double v;

	if (!_is_decimal(s, &integer))
		return prism_lines_fail(&c->at, "%s: '%s' is not a number",
					what, s);
	if (!integer)
		return prism_lines_fail(&c->at, "%s: '%s' is not an integer",
					what, s);
	v = strtod(s, NULL);
	if (!isfinite(v) || v < 0.0 || v > max)
		return prism_lines_fail(&c->at,
					"%s: '%s' is out of range (0..%.0f)",
					what, s, max);
	*out = (uint32_t) v;
	return 0;
}

static int _bool(_ctx_t *c, const char *what, const char *s, bool *out)
{
	static const char *yes[] = { "TRUE", "YES", "1" };
	static const char *no[] = { "FALSE", "NO", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return prism_lines_fail(&c->at, "%s: '%s' is not TRUE or FALSE",
				what, s);
}

/* policy_hierarchy: "NONE" or O, F and S at most once each. */
static int _hier(_ctx_t *c, const char *what, const char *s, char out[4])
{
	size_t n = strlen(s);
	bool seen[PRISM_GE_TPOLICY_CNT] = { false };

	if (!strcasecmp(s, "NONE")) {
		out[0] = '\0';
		return 0;
	}
	if (n > PRISM_GE_TPOLICY_CNT)
		goto bad;
	for (size_t i = 0; i < n; i++) {
		int k;

		for (k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
			if ((s[i] & ~0x20) == _tpolicy_letters[k])
				break;
		}
		if (k == PRISM_GE_TPOLICY_CNT || seen[k])
			goto bad;
		seen[k] = true;
		out[i] = _tpolicy_letters[k];
	}
	out[n] = '\0';
	return 0;
bad:
	return prism_lines_fail(
		&c->at,
		"%s: '%s' is not NONE or O, F and S at most once each", what,
		s);
}

/* ---- tables ----------------------------------------------------------- */

/* Slurm's TRES names for GE's slots and nodes. */
static const char *_canonical(prism_ge_kind_t kind, const char *name)
{
	if (kind != PRISM_GE_RESOURCE)
		return name;
	if (!strcmp(name, "cpu"))
		return "slots";
	if (!strcmp(name, "node"))
		return "nodes";
	return name;
}

/* The entry 'name' of 'kind', added if new; NULL when out of memory. */
static _ent_t *_ent_add(prism_ge_policy_t *pol, prism_ge_kind_t kind,
			const char *name)
{
	uint32_t idx;
	_ent_t *e = prism_names_add(&pol->tab[kind], name, &idx);

	if (e && !e->e.name)
		e->e.name = prism_names_name(&pol->tab[kind], idx);
	return e;
}

/* ---- entry lines ------------------------------------------------------ */

static int _set_entry(_ctx_t *c, prism_ge_kind_t kind, _field_t field,
		      const char *label, const char *id, const char *val)
{
	_ent_t *e = _ent_add(c->pol, kind, _canonical(kind, id));
	double real = 0.0;
	uint32_t count = 0;
	bool same;

	if (!e)
		return prism_lines_oom(&c->at);
	if (field == _F_URGENCY) {
		if (_real(c, label, val, _WEIGHT_MAX, &real))
			return -1;
		same = real == e->e.urgency;
	} else {
		if (_uint(c, label, val, _COUNT_MAX, &count))
			return -1;
		same = count == (field == _F_FSHARE ? e->e.fshare
						    : e->e.oticket);
	}
	if (e->line[field] && !same)
		return prism_lines_fail(&c->at,
					"%s: '%s' conflicts with line %u",
					label, val, e->line[field]);
	e->line[field] = c->at.line;
	if (field == _F_URGENCY)
		e->e.urgency = real;
	else if (field == _F_FSHARE)
		e->e.fshare = count;
	else
		e->e.oticket = count;
	c->kept++;
	return 0;
}

/* "name[id] value" for one of _entry_keys[k]; 'name' as written. */
static int _entry_line(_ctx_t *c, size_t k, const char *name, const char *id,
		       char **cur)
{
	char label[PRISM_LINES_MAX + 64];
	char *val;

	if (!id)
		return prism_lines_fail(&c->at, "%s: missing '[name]'", name);
	snprintf(label, sizeof(label), "%s[%s]", name, id);
	val = prism_lines_tok(cur);
	if (!val)
		return prism_lines_fail(&c->at, "%s: missing value", label);
	if (prism_lines_tok(cur))
		return prism_lines_fail(&c->at, "%s: more than one value",
					label);
	return _set_entry(c, _entry_keys[k].kind, _entry_keys[k].field, label,
			  id, val);
}

/* ---- sched_conf lines ------------------------------------------------- */

static int _set_key(_ctx_t *c, size_t k, const char *name, const char *val)
{
	char *base = (char *) &c->pol->p;
	double real = 0.0;
	uint32_t count = 0;
	bool flag = false, same = true;
	char hier[4];

	switch (_keys[k].type) {
	case _K_REAL:
		if (_real(c, name, val, _keys[k].max, &real))
			return -1;
		same = real == *(double *) (base + _keys[k].off);
		break;
	case _K_UINT:
		if (_uint(c, name, val, _keys[k].max, &count))
			return -1;
		same = count == *(uint32_t *) (base + _keys[k].off);
		break;
	case _K_BOOL:
		if (_bool(c, name, val, &flag))
			return -1;
		same = flag == *(bool *) (base + _keys[k].off);
		break;
	case _K_HIER:
		if (_hier(c, name, val, hier))
			return -1;
		same = !strcmp(hier, c->pol->p.policy_hierarchy);
		break;
	case _K_OTHER:
	case _K_UNMODELLED:
		return prism_lines_fail(&c->at, "%s: internal error", name);
	}
	if (c->key_line[k] && !same)
		return prism_lines_fail(&c->at,
					"%s: '%s' conflicts with line %u",
					name, val, c->key_line[k]);
	c->key_line[k] = c->at.line;
	switch (_keys[k].type) {
	case _K_REAL:
		*(double *) (base + _keys[k].off) = real;
		break;
	case _K_UINT:
		*(uint32_t *) (base + _keys[k].off) = count;
		break;
	case _K_BOOL:
		*(bool *) (base + _keys[k].off) = flag;
		break;
	case _K_HIER:
		memcpy(c->pol->p.policy_hierarchy, hier, sizeof(hier));
		break;
	case _K_OTHER:
	case _K_UNMODELLED:
		break;
	}
	c->kept++;
	return 0;
}

static int _key_line(_ctx_t *c, size_t k, const char *name, char **cur)
{
	char *val = prism_lines_tok(cur);

	if (!val)
		return prism_lines_fail(&c->at, "%s: missing value", name);
	if (_keys[k].type == _K_OTHER)
		return prism_lines_notice(
			&c->at, "%s: not a priority parameter, ignored", name);
	if (_keys[k].type == _K_UNMODELLED)
		return prism_lines_notice(
			&c->at, "%s: not modelled by Prism, ignored", name);
	if (prism_lines_tok(cur))
		return prism_lines_fail(&c->at, "%s: more than one value",
					name);
	return _set_key(c, k, name, val);
}

/* The key of _keys[] or _entry_keys[] nearest to 'name'. */
static const char *_nearest(const char *name)
{
	const char *best = _keys[0].name;
	unsigned dist = UINT_MAX;

	for (size_t k = 0; k < _KEY_CNT; k++) {
		unsigned d = prism_lines_distance(name, _keys[k].name);

		if (d < dist) {
			dist = d;
			best = _keys[k].name;
		}
	}
	for (size_t k = 0; k < sizeof(_entry_keys) / sizeof(_entry_keys[0]);
	     k++) {
		unsigned d = prism_lines_distance(name, _entry_keys[k].name);

		if (d < dist) {
			dist = d;
			best = _entry_keys[k].name;
		}
	}
	return best;
}

/*
 * A key Prism does not know. Host and queue sort weights of 8.x and any
 * other key (a newer or spool-only one) are ignored with a notice; a
 * weight_* that is neither is a misspelt priority weight: refused, with
 * the nearest name.
 */
static int _unknown_key(_ctx_t *c, const char *name)
{
	for (size_t i = 0;
	     i < sizeof(_other_prefixes) / sizeof(_other_prefixes[0]); i++) {
		size_t n = strlen(_other_prefixes[i]);

		if (!strncasecmp(name, _other_prefixes[i], n))
			return prism_lines_notice(
				&c->at,
				"%s: sorts hosts or queues, not jobs: not a priority parameter, ignored",
				name);
	}
	if (!strncasecmp(name, "weight_", 7))
		return prism_lines_fail(
			&c->at,
			"'%s': unknown priority weight (did you mean %s?)",
			name, _nearest(name));
	return prism_lines_notice(
		&c->at, "%s: not a parameter Prism knows (not about priority?), ignored",
		name);
}

static int _line(void *arg, char *line)
{
	_ctx_t *c = arg;
	char *cur, *name, *id, *val;

	if (prism_lines_head(&c->at, line, "_", "_", &name, &id, &cur))
		return -1;
	if (!name)
		return 0;
	for (size_t k = 0; k < sizeof(_entry_keys) / sizeof(_entry_keys[0]);
	     k++) {
		if (!strcasecmp(name, _entry_keys[k].name))
			return _entry_line(c, k, name, id, &cur);
	}
	if (id)
		return prism_lines_fail(&c->at, "%s: unexpected '[%s]'",
					name, id);
	if (!strcasecmp(name, "urgency_slots")) {
		val = prism_lines_tok(&cur);
		if (!val)
			return prism_lines_fail(&c->at, "%s: missing value",
						name);
		if (prism_lines_tok(&cur))
			return prism_lines_fail(
				&c->at, "%s: more than one value", name);
		return _set_entry(c, PRISM_GE_RESOURCE, _F_URGENCY, name,
				  "slots", val);
	}
	for (size_t k = 0; k < _KEY_CNT; k++) {
		if (!strcasecmp(name, _keys[k].name))
			return _key_line(c, k, name, &cur);
	}
	return _unknown_key(c, name);
}

/* ---- defaults and the expanded hierarchy ------------------------------ */

static void _defaults(prism_ge_params_t *p)
{
	memset(p, 0, sizeof(*p));
	p->weight_priority = 0.0;
	p->weight_urgency = 0.5;
	p->weight_ticket = 0.5;
	p->weight_waiting_time = 0.278;
	p->weight_deadline = 3600000.0;
	p->halftime = 168;
	p->compensation_factor = 5.0;
	p->weight_user = 0.25;
	p->weight_project = 0.25;
	p->weight_department = 0.25;
	p->weight_job = 0.25;
	p->share_override_tickets = true;
	p->share_functional_shares = true;
	p->report_pjob_tickets = true;
	p->max_functional_jobs = 200;
	memcpy(p->policy_hierarchy, "OFS", 4);
}

/* GE's sconf_ph_fill_array(): listed policies first, then the rest. */
static void _expand(prism_ge_params_t *p)
{
	bool listed[PRISM_GE_TPOLICY_CNT] = { false };
	int n = 0;

	for (const char *s = p->policy_hierarchy; *s; s++) {
		for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
			if (*s != _tpolicy_letters[k] || listed[k])
				continue;
			listed[k] = true;
			p->order[n] = (prism_ge_tpolicy_t) k;
			p->dependent[n++] = true;
		}
	}
	for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
		if (listed[k])
			continue;
		p->order[n] = (prism_ge_tpolicy_t) k;
		p->dependent[n++] = false;
	}
}

static prism_ge_policy_t *_new_policy(void)
{
	static const char *fixed[] = { "slots", "mem", "nodes" };
	prism_ge_policy_t *pol = calloc(1, sizeof(*pol));
	_ent_t *slots;

	if (!pol)
		return NULL;
	_defaults(&pol->p);
	_expand(&pol->p);
	for (int k = 0; k < PRISM_GE_KIND_CNT; k++)
		prism_names_init(&pol->tab[k], sizeof(_ent_t));
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		_ent_t *e = _ent_add(pol, PRISM_GE_RESOURCE, fixed[i]);

		if (!e) {
			prism_ge_policy_free(pol);
			return NULL;
		}
	}
	slots = prism_names_at(&pol->tab[PRISM_GE_RESOURCE],
			       PRISM_GE_RES_SLOTS);
	slots->e.urgency = 1000.0;
	return pol;
}

/* ---- public ----------------------------------------------------------- */

extern prism_ge_policy_t *prism_ge_policy_default(void)
{
	return _new_policy();
}

extern void prism_ge_policy_free(prism_ge_policy_t *pol)
{
	if (!pol)
		return;
	for (int k = 0; k < PRISM_GE_KIND_CNT; k++)
		prism_names_free(&pol->tab[k]);
	prism_lines_notices_free(&pol->notices);
	free(pol);
}

/* prism_ge_conf_parse(), with what was read before any error in *kept. */
static int _parse(const char *text, size_t len, const char *file,
		  prism_ge_policy_t **out, unsigned *kept, prism_error_t *err)
{
	_ctx_t c = { .at = { .file = file ? file : "(grid engine config)",
			     .err = err } };
	int rc;

	*kept = 0;
	if ((!text && len) || !out) {
		prism_error_set(err, "%s: bad parameter", c.at.file);
		return -1;
	}
	if (!len) {
		prism_error_set(err, "%s: file is empty", c.at.file);
		return -1;
	}
	c.pol = _new_policy();
	if (!c.pol)
		return prism_lines_oom(&c.at);
	c.at.notices = &c.pol->notices;
	rc = prism_lines_read(&c.at, text, len, _line, &c);
	*kept = c.kept;
	if (rc) {
		prism_ge_policy_free(c.pol);
		return -1;
	}
	_expand(&c.pol->p);
	c.pol->kept = c.kept;
	*out = c.pol;
	return 0;
}

extern int prism_ge_conf_parse(const char *text, size_t len,
			       const char *file, prism_ge_policy_t **out,
			       prism_error_t *err)
{
	unsigned kept;

	return _parse(text, len, file, out, &kept, err);
}

extern unsigned prism_ge_conf_kept(const char *text, size_t len)
{
	prism_ge_policy_t *pol = NULL;
	unsigned kept;

	if (!_parse(text, len, NULL, &pol, &kept, NULL))
		prism_ge_policy_free(pol);
	return kept;
}

extern unsigned prism_ge_policy_kept(const prism_ge_policy_t *pol)
{
	return pol ? pol->kept : 0;
}

extern const prism_ge_params_t *
prism_ge_policy_params(const prism_ge_policy_t *pol)
{
	return pol ? &pol->p : NULL;
}

extern size_t prism_ge_policy_notice_count(const prism_ge_policy_t *pol)
{
	return pol ? pol->notices.n : 0;
}

extern const char *prism_ge_policy_notice(const prism_ge_policy_t *pol,
					  size_t i)
{
	return pol ? prism_lines_notices_get(&pol->notices, i) : NULL;
}

extern uint32_t prism_ge_count(const prism_ge_policy_t *pol,
			       prism_ge_kind_t kind)
{
	if (!pol || (unsigned) kind >= PRISM_GE_KIND_CNT)
		return 0;
	return pol->tab[kind].n;
}

extern uint32_t prism_ge_find(const prism_ge_policy_t *pol,
			      prism_ge_kind_t kind, const char *name)
{
	if (!pol || !name || (unsigned) kind >= PRISM_GE_KIND_CNT)
		return PRISM_GE_NONE;
	return prism_names_find(&pol->tab[kind], _canonical(kind, name));
}

extern const prism_ge_entry_t *prism_ge_get(const prism_ge_policy_t *pol,
					    prism_ge_kind_t kind,
					    uint32_t idx)
{
	const _ent_t *e;

	if (!pol || (unsigned) kind >= PRISM_GE_KIND_CNT)
		return NULL;
	e = prism_names_at(&pol->tab[kind], idx);
	return e ? &e->e : NULL;
}

extern const char *prism_ge_kind_name(prism_ge_kind_t kind)
{
	if ((unsigned) kind >= PRISM_GE_KIND_CNT)
		return NULL;
	return _kind_names[kind];
}

extern const char *prism_ge_tpolicy_name(prism_ge_tpolicy_t policy)
{
	if ((unsigned) policy >= PRISM_GE_TPOLICY_CNT)
		return NULL;
	return _tpolicy_names[policy];
}
