/*****************************************************************************\
 *  prism_moab_conf.c - the Moab/Maui priority file parser (see
 *  prism_moab_conf.h).
 *
 *  A policy is built from scratch for every parse and handed over only
 *  when the whole text is good, so a failed parse never touches the
 *  caller's policy. Credentials sit in one array per kind, indexed by an
 *  open-addressing hash of their names.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prism_lines.h"
#include "prism_moab_conf.h"
#include "prism_names.h"

#define _WEIGHT_MAX 2147483647LL	/* |*WEIGHT|, |*CAP|, |PRIORITY| */
#define _FSDEPTH_MAX 32
#define _FSTARGET_MAX 1e6	/* percent; above 100 is a notice */

_Static_assert(PRISM_MOAB_LINE_MAX == PRISM_LINES_MAX,
	       "a Moab file's lines are read by prism_lines_read()");
_Static_assert(PRISM_MOAB_NONE == PRISM_NAMES_NONE,
	       "credential handles are prism_names_t indices");

typedef struct {
	char *name[PRISM_MOAB_BITS_MAX];
	int64_t prio[PRISM_MOAB_BITS_MAX];
	int n;
} _bits_t;

struct prism_moab_policy {
	prism_moab_params_t p;
	double fs_sum[PRISM_MOAB_CRED_CNT];	/* FSTARGET=, all of a kind */
	bool fs_sum_told[PRISM_MOAB_CRED_CNT];	/* its notice is made */
	prism_names_t tab[PRISM_MOAB_CRED_CNT]; /* of prism_moab_cred_t */
	_bits_t attr, gres;
	prism_lines_notices_t notices;
	unsigned kept;		/* priority parameters and attributes read */
};

/* What a parse is doing now: for messages. */
typedef struct {
	prism_lines_t at;
	prism_moab_policy_t *pol;
	unsigned kept;		/* priority parameters and attributes set */
	unsigned ignored;	/* notices of things Prism does not use */
	size_t first_ignored;	/* the first of them, in pol->notices */
} _ctx_t;

static const char *_comp_names[PRISM_MC_CNT][2] = {
	[PRISM_MC_CRED] = { "CRED", NULL },
	[PRISM_MC_FS] = { "FS", NULL },
	[PRISM_MC_RES] = { "RES", NULL },
	[PRISM_MC_SERV] = { "SERVICE", "SERV" },
	[PRISM_MC_TARGET] = { "TARGET", "TARG" },
	[PRISM_MC_USAGE] = { "USAGE", NULL },
	[PRISM_MC_ATTR] = { "ATTR", NULL },
};

static const struct {
	const char *name;	/* NAMEWEIGHT, NAMECAP */
	const char *alias;	/* another weight name, or NULL */
	prism_moab_comp_t comp;
} _subs[PRISM_MS_CNT] = {
	[PRISM_MS_USER] = { "USER", NULL, PRISM_MC_CRED },
	[PRISM_MS_GROUP] = { "GROUP", NULL, PRISM_MC_CRED },
	[PRISM_MS_ACCOUNT] = { "ACCOUNT", NULL, PRISM_MC_CRED },
	[PRISM_MS_QOS] = { "QOS", NULL, PRISM_MC_CRED },
	[PRISM_MS_CLASS] = { "CLASS", NULL, PRISM_MC_CRED },
	[PRISM_MS_FSUSER] = { "FSUSER", NULL, PRISM_MC_FS },
	[PRISM_MS_FSGROUP] = { "FSGROUP", NULL, PRISM_MC_FS },
	[PRISM_MS_FSACCOUNT] = { "FSACCOUNT", NULL, PRISM_MC_FS },
	[PRISM_MS_FSQOS] = { "FSQOS", NULL, PRISM_MC_FS },
	[PRISM_MS_FSCLASS] = { "FSCLASS", NULL, PRISM_MC_FS },
	[PRISM_MS_FSGUSER] = { "FSGUSER", NULL, PRISM_MC_FS },
	[PRISM_MS_FSGGROUP] = { "FSGGROUP", NULL, PRISM_MC_FS },
	[PRISM_MS_FSGACCOUNT] = { "FSGACCOUNT", NULL, PRISM_MC_FS },
	[PRISM_MS_FSJPU] = { "FSJPU", NULL, PRISM_MC_FS },
	[PRISM_MS_FSPPU] = { "FSPPU", NULL, PRISM_MC_FS },
	[PRISM_MS_FSPSPU] = { "FSPSPU", NULL, PRISM_MC_FS },
	[PRISM_MS_WCACCURACY] = { "WCACCURACY", NULL, PRISM_MC_FS },
	[PRISM_MS_NODE] = { "NODE", NULL, PRISM_MC_RES },
	[PRISM_MS_PROC] = { "PROC", NULL, PRISM_MC_RES },
	[PRISM_MS_MEM] = { "MEM", NULL, PRISM_MC_RES },
	[PRISM_MS_SWAP] = { "SWAP", NULL, PRISM_MC_RES },
	[PRISM_MS_DISK] = { "DISK", NULL, PRISM_MC_RES },
	[PRISM_MS_PS] = { "PS", NULL, PRISM_MC_RES },
	[PRISM_MS_PE] = { "PE", NULL, PRISM_MC_RES },
	[PRISM_MS_WALLTIME] = { "WALLTIME", NULL, PRISM_MC_RES },
	[PRISM_MS_QUEUETIME] = { "QUEUETIME", NULL, PRISM_MC_SERV },
	[PRISM_MS_XFACTOR] = { "XFACTOR", NULL, PRISM_MC_SERV },
	[PRISM_MS_BYPASS] = { "BYPASS", NULL, PRISM_MC_SERV },
	[PRISM_MS_STARTCOUNT] = { "STARTCOUNT", NULL, PRISM_MC_SERV },
	[PRISM_MS_DEADLINE] = { "DEADLINE", NULL, PRISM_MC_SERV },
	[PRISM_MS_SPVIOLATION] = { "SPVIOLATION", NULL, PRISM_MC_SERV },
	[PRISM_MS_USERPRIO] = { "USERPRIO", NULL, PRISM_MC_SERV },
	[PRISM_MS_TARGETQUEUETIME] = { "TARGETQUEUETIME", NULL,
				       PRISM_MC_TARGET },
	[PRISM_MS_TARGETXFACTOR] = { "TARGETXFACTOR", NULL, PRISM_MC_TARGET },
	[PRISM_MS_CONSUMED] = { "CONSUMED", "USAGECONSUMEDWEIGHT",
				PRISM_MC_USAGE },
	[PRISM_MS_HUNGER] = { "HUNGER", "USAGEHUNGERWEIGHT", PRISM_MC_USAGE },
	[PRISM_MS_REMAINING] = { "REMAINING", "USAGEREMAININGWEIGHT",
				 PRISM_MC_USAGE },
	[PRISM_MS_PERCENT] = { "PERCENT", "USAGEPERCENTWEIGHT",
			       PRISM_MC_USAGE },
	[PRISM_MS_EXECUTIONTIME] = { "EXECUTIONTIME",
				     "USAGEEXECUTIONTIMEWEIGHT",
				     PRISM_MC_USAGE },
	[PRISM_MS_ATTRATTR] = { "ATTRATTR", NULL, PRISM_MC_ATTR },
	[PRISM_MS_ATTRSTATE] = { "ATTRSTATE", NULL, PRISM_MC_ATTR },
	[PRISM_MS_ATTRGRES] = { "ATTRGRES", NULL, PRISM_MC_ATTR },
};

static const char *_cfg_names[PRISM_MOAB_CRED_CNT] = {
	"USERCFG", "GROUPCFG", "ACCOUNTCFG", "QOSCFG", "CLASSCFG"
};

static const char *_kind_names[PRISM_MOAB_CRED_CNT] = {
	"user", "group", "account", "qos", "class"
};

static const char *_state_names[PRISM_MOAB_STATE_CNT] = {
	"Idle", "Starting", "Running", "Suspended", "Hold", "Deferred",
	"Blocked"
};

static const char *_fspolicy_names[] = {
	[PRISM_MOAB_FS_OFF] = "NONE",
	[PRISM_MOAB_FS_DEDICATEDPS] = "DEDICATEDPS",
	[PRISM_MOAB_FS_DEDICATEDPES] = "DEDICATEDPES",
	[PRISM_MOAB_FS_UTILIZEDPS] = "UTILIZEDPS",
	[PRISM_MOAB_FS_PDEDICATEDPS] = "PDEDICATEDPS",
	[PRISM_MOAB_FS_SDEDICATEDPS] = "SDEDICATEDPS",
};

/* Maui's older FSPOLICY spellings, read as the name beside them. */
static const struct {
	const char *old;
	prism_moab_fspolicy_t now;
} _fspolicy_old[] = {
	{ "PSDEDICATED", PRISM_MOAB_FS_DEDICATEDPS },
	{ "PSUTILIZED", PRISM_MOAB_FS_UTILIZEDPS },
	{ "PEDEDICATED", PRISM_MOAB_FS_DEDICATEDPES },
};

/* Older parameter names (Maui manuals), read as the name beside them. */
static const struct {
	const char *old;
	const char *now;
} _param_old[] = {
	{ "RESOURCEWEIGHT", "RESWEIGHT" },
	{ "RESOURCECAP", "RESCAP" },
	{ "XFACTOR", "XFACTORWEIGHT" },
};

/* Moab parameters named *WEIGHT or *CAP that are not about priority. */
static const char *_not_prio_weight[] = {
	"PREEMPTPRIOJOBSELECTWEIGHT",
};

/* Moab credential attributes that are about limits, not priority. */
static const char *_cfg_ignored[] = {
	"ADEF", "ALIST", "CDEF", "CLIST", "EMAILADDRESS", "FLAGS", "FSCAP",
	"GDEF", "GLIST", "JOBFLAGS", "MAXIJOB", "MAXINODE", "MAXIPROC",
	"MAXJOB", "MAXMEM", "MAXNODE", "MAXPE", "MAXPROC", "MAXPS", "MAXWC",
	"MEMBERULIST", "OVERRUN", "PDEF", "PLIST", "PREF", "QDEF", "QFLAGS",
	"QLIST", "SPECATTRS", "DEFAULT.WCLIMIT", "MAX.WCLIMIT", "MIN.PROC",
	"MAX.PROC", "MAX.NODE", "MIN.NODE", "ROLE", "TRIGGER",
};

/* ---- values ----------------------------------------------------------- */

static int _int(_ctx_t *c, const char *what, const char *s, int64_t min,
		int64_t max, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end) {
		double d;

		errno = 0;
		d = strtod(s, &end);
		if (end != s && !*end && !errno && isfinite(d))
			return prism_lines_fail(&c->at,
						"%s: '%s' is not an integer",
						what, s);
		return prism_lines_fail(&c->at, "%s: '%s' is not a number",
					what, s);
	}
	if (errno == ERANGE || v < min || v > max)
		return prism_lines_fail(
			&c->at, "%s: '%s' is out of range (%lld..%lld)",
			what, s, (long long) min, (long long) max);
	*out = v;
	return 0;
}

static int _real(_ctx_t *c, const char *what, const char *s, double min,
		 double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v))
		return prism_lines_fail(&c->at, "%s: '%s' is not a number",
					what, s);
	if (errno == ERANGE || v < min || v > max)
		return prism_lines_fail(&c->at,
					"%s: '%s' is out of range (%g..%g)",
					what, s, min, max);
	*out = v;
	return 0;
}

/* [[[DD:]HH:]MM:]SS into seconds. */
static int _time(_ctx_t *c, const char *what, const char *s, int64_t *out)
{
	static const int64_t unit[4] = { 1, 60, 3600, 86400 };
	int64_t field[4], total = 0;
	int n = 0;
	const char *p = s;

	for (;;) {
		int64_t v = 0;
		int digits = 0;

		while (*p >= '0' && *p <= '9' && digits < 10) {
			v = v * 10 + (*p - '0');
			digits++;
			p++;
		}
		if (!digits || n == 4)
			goto bad;
		field[n++] = v;
		if (!*p)
			break;
		if (*p != ':')
			goto bad;
		p++;
	}
	for (int i = 0; i < n; i++)
		total += field[i] * unit[n - 1 - i];
	*out = total;
	return 0;
bad:
	return prism_lines_fail(&c->at,
				"%s: '%s' is not a time ([[[DD:]HH:]MM:]SS)",
				what, s);
}

static int _bool(_ctx_t *c, const char *what, const char *s, bool *out)
{
	static const char *yes[] = { "TRUE", "YES", "ON", "1" };
	static const char *no[] = { "FALSE", "NO", "OFF", "0" };

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

/* ---- credentials ------------------------------------------------------ */

/* The credential 'name' of 'kind', added if new; NULL when out of memory. */
static prism_moab_cred_t *_cred_add(prism_moab_policy_t *pol,
				    prism_moab_cred_kind_t kind,
				    const char *name)
{
	uint32_t idx;
	prism_moab_cred_t *e = prism_names_add(&pol->tab[kind], name, &idx);

	if (e && !e->name)
		e->name = prism_names_name(&pol->tab[kind], idx);
	return e;
}

/* ---- parameters ------------------------------------------------------- */

typedef enum {
	_P_NONE,
	_P_COMP_WEIGHT,
	_P_COMP_CAP,
	_P_SUB_WEIGHT,
	_P_SUB_CAP,
	_P_XFMINWCLIMIT,
	_P_FSINTERVAL,
	_P_FSDEPTH,
	_P_FSDECAY,
	_P_FSPOLICY,
	_P_MAX_PRIO_VAL,
	_P_ENABLENEG,
	_P_REJECTNEG,
	_P_ENABLEPOSUSERPRIO,
} _param_t;

static const struct {
	const char *name;
	_param_t kind;
} _misc[] = {
	{ "XFMINWCLIMIT", _P_XFMINWCLIMIT },
	{ "FSINTERVAL", _P_FSINTERVAL },
	{ "FSDEPTH", _P_FSDEPTH },
	{ "FSDECAY", _P_FSDECAY },
	{ "FSPOLICY", _P_FSPOLICY },
	{ "MAX_PRIO_VAL", _P_MAX_PRIO_VAL },
	{ "ENABLENEGJOBPRIORITY", _P_ENABLENEG },
	{ "REJECTNEGPRIOJOBS", _P_REJECTNEG },
	{ "ENABLEPOSUSERPRIORITY", _P_ENABLEPOSUSERPRIO },
};

/* Does 'name' equal 'prefix' followed by 'suffix' (case-insensitive)? */
static bool _is(const char *name, const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix);

	return !strncasecmp(name, prefix, n) &&
	       !strcasecmp(name + n, suffix);
}

/* Which parameter 'name' is; *idx is its component or subcomponent. */
static _param_t _param_find(const char *name, int *idx)
{
	for (int i = 0; i < PRISM_MC_CNT; i++) {
		for (int a = 0; a < 2; a++) {
			if (!_comp_names[i][a])
				continue;
			*idx = i;
			if (_is(name, _comp_names[i][a], "WEIGHT"))
				return _P_COMP_WEIGHT;
			if (_is(name, _comp_names[i][a], "CAP"))
				return _P_COMP_CAP;
		}
	}
	for (int i = 0; i < PRISM_MS_CNT; i++) {
		*idx = i;
		if (_is(name, _subs[i].name, "WEIGHT") ||
		    (_subs[i].alias && !strcasecmp(name, _subs[i].alias)))
			return _P_SUB_WEIGHT;
		if (_is(name, _subs[i].name, "CAP"))
			return _P_SUB_CAP;
	}
	for (size_t i = 0; i < sizeof(_misc) / sizeof(_misc[0]); i++) {
		if (!strcasecmp(name, _misc[i].name))
			return _misc[i].kind;
	}
	return _P_NONE;
}

static int _fspolicy(_ctx_t *c, const char *name, const char *val);

/*
 * FSPOLICY NAME% (Moab's percentage form): read as NAME, with a notice;
 * anything else is an unknown policy.
 */
static int _fspolicy_pct(_ctx_t *c, const char *name, const char *val)
{
	char base[64];
	size_t n = strlen(val);

	if (n < 2 || n >= sizeof(base) || val[n - 1] != '%')
		return prism_lines_fail(&c->at,
					"%s: unknown policy '%s'", name,
					val);
	memcpy(base, val, n - 1);
	base[n - 1] = '\0';
	if (_fspolicy(c, name, base))
		return prism_lines_fail(&c->at,
					"%s: unknown policy '%s'", name,
					val);
	return prism_lines_notice(&c->at,
				  "%s: %s read as %s (the '%%' form is not modelled)",
				  name, val, base);
}

/* FSPOLICY: a name, Maui's older spelling of one, or NONE. */
static int _fspolicy(_ctx_t *c, const char *name, const char *val)
{
	prism_moab_params_t *p = &c->pol->p;

	for (size_t i = 0; i < sizeof(_fspolicy_names) /
			       sizeof(_fspolicy_names[0]); i++) {
		if (!strcasecmp(val, _fspolicy_names[i])) {
			p->fs_policy = (prism_moab_fspolicy_t) i;
			return 0;
		}
	}
	for (size_t i = 0; i < sizeof(_fspolicy_old) /
			       sizeof(_fspolicy_old[0]); i++) {
		if (!strcasecmp(val, _fspolicy_old[i].old)) {
			p->fs_policy = _fspolicy_old[i].now;
			return prism_lines_notice(
				&c->at, "%s: %s is Maui's older name of %s",
				name, _fspolicy_old[i].old,
				_fspolicy_names[_fspolicy_old[i].now]);
		}
	}
	return _fspolicy_pct(c, name, val);
}

static int _set_param(_ctx_t *c, _param_t kind, int idx, const char *name,
		      const char *val)
{
	prism_moab_params_t *p = &c->pol->p;
	int64_t v;

	switch (kind) {
	case _P_COMP_WEIGHT:
		return _int(c, name, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &p->comp_weight[idx]);
	case _P_COMP_CAP:
		return _int(c, name, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &p->comp_cap[idx]);
	case _P_SUB_WEIGHT:
		return _int(c, name, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &p->sub_weight[idx]);
	case _P_SUB_CAP:
		return _int(c, name, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &p->sub_cap[idx]);
	case _P_XFMINWCLIMIT:
		return _time(c, name, val, &p->xf_min_wclimit);
	case _P_FSINTERVAL:
		if (_time(c, name, val, &v))
			return -1;
		if (v <= 0)
			return prism_lines_fail(
				&c->at, "%s: '%s' must be longer than 0",
				name, val);
		p->fs_interval = v;
		return 0;
	case _P_FSDEPTH:
		if (_int(c, name, val, 1, _FSDEPTH_MAX, &v))
			return -1;
		p->fs_depth = (uint32_t) v;
		return 0;
	case _P_FSDECAY:
		if (_real(c, name, val, 0.0, 1.0, &p->fs_decay))
			return -1;
		if (p->fs_decay <= 0.0)
			return prism_lines_fail(&c->at,
						"%s: '%s' must be above 0",
						name, val);
		return 0;
	case _P_FSPOLICY:
		return _fspolicy(c, name, val);
	case _P_MAX_PRIO_VAL:
		return _int(c, name, val, 1, PRISM_MOAB_MAX_PRIO_LIMIT,
			    &p->max_prio);
	case _P_ENABLENEG:
		return _bool(c, name, val, &p->enable_neg);
	case _P_REJECTNEG:
		return _bool(c, name, val, &p->reject_neg);
	case _P_ENABLEPOSUSERPRIO:
		return _bool(c, name, val, &p->enable_pos_userprio);
	case _P_NONE:
		break;
	}
	return prism_lines_fail(&c->at, "%s: internal error", name);
}

/* ---- credential lines ------------------------------------------------- */

/* Count a notice of something Prism does not use (for convert). */
static void _ignore_mark(_ctx_t *c)
{
	if (!c->ignored++)
		c->first_ignored = c->pol->notices.n;
}

/* A notice about something Prism does not use. */
#define _ignore(c, ...) \
	(_ignore_mark(c), prism_lines_notice(&(c)->at, __VA_ARGS__))

/*
 * Targets of one kind that sum past 100: Moab's documented delta is
 * target minus usage, and its documents neither cap nor rescale targets;
 * Prism takes each as written and says so once per kind, on the line that
 * took the sum past 100.
 */
static int _fs_sum(_ctx_t *c, prism_moab_cred_kind_t kind, double was,
		   double now)
{
	prism_moab_policy_t *pol = c->pol;

	pol->fs_sum[kind] += now - was;
	if (pol->fs_sum[kind] <= 100.0 || pol->fs_sum_told[kind])
		return 0;
	pol->fs_sum_told[kind] = true;
	return prism_lines_notice(
		&c->at,
		"%s FSTARGET: the %s targets sum to %g%%, past 100: each is used as written (delta = target - usage) (Moab documents no cap or rescaling)",
		_cfg_names[kind], _kind_names[kind], pol->fs_sum[kind]);
}

static int _fstarget(_ctx_t *c, prism_moab_cred_kind_t kind,
		     const char *what, const char *val, prism_moab_cred_t *e)
{
	char num[64];
	size_t n = strlen(val);
	prism_moab_fstarget_t type = PRISM_MOAB_FST_TARGET;
	double was = e->fs_type == PRISM_MOAB_FST_CAP ? 0.0 : e->fs_target;
	double v;

	if (n >= sizeof(num))
		return prism_lines_fail(&c->at, "%s: '%s' is not a number",
					what, val);
	memcpy(num, val, n + 1);
	if (n > 1 && num[n - 1] == '+')
		type = PRISM_MOAB_FST_FLOOR;
	else if (n > 1 && num[n - 1] == '-')
		type = PRISM_MOAB_FST_CEILING;
	else if (n > 1 && num[n - 1] == '^')
		type = PRISM_MOAB_FST_CAP;
	if (type != PRISM_MOAB_FST_TARGET)
		num[n - 1] = '\0';
	if (_real(c, what, num, 0.0, _FSTARGET_MAX, &v))
		return -1;
	e->fs_target = v;
	e->fs_type = type;
	if (v > 100.0)
		c->pol->fs_sum_told[kind] = true;	/* said below */
	if (v > 100.0 &&
	    prism_lines_notice(&c->at,
			       "%s: %g%% is above 100: used as written (delta = target - usage, never reached) (Moab documents no cap or rescaling)",
			       what, v))
		return -1;
	return _fs_sum(c, kind, was, type == PRISM_MOAB_FST_CAP ? 0.0 : v);
}

/* Is 'key' a credential attribute Prism reads? */
static bool _prio_attr(const char *key)
{
	static const char *keys[] = { "PRIORITY", "FSTARGET", "FSWEIGHT",
				      "QTWEIGHT", "XFWEIGHT", "QTTARGET",
				      "XFTARGET" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!strcasecmp(key, keys[i]))
			return true;
	}
	return false;
}

/* A limit or other attribute Prism does not read: a notice. */
static int _cfg_other(_ctx_t *c, const char *what, const char *key)
{
	for (size_t i = 0; i < sizeof(_cfg_ignored) / sizeof(_cfg_ignored[0]);
	     i++) {
		if (!strcasecmp(key, _cfg_ignored[i]))
			return _ignore(c, "%s: not a priority attribute, ignored",
				       what);
	}
	return _ignore(c, "%s: not an attribute Prism reads (not about priority), ignored",
		       what);
}

/* Is 'key' one of the attributes only QOSCFG has? */
static bool _qos_only(const char *key)
{
	return !strcasecmp(key, "QTWEIGHT") || !strcasecmp(key, "XFWEIGHT") ||
	       !strcasecmp(key, "QTTARGET") || !strcasecmp(key, "XFTARGET");
}

/* QTWEIGHT, XFWEIGHT, QTTARGET, XFTARGET: QOSCFG only. */
static int _qos_attr(_ctx_t *c, prism_moab_cred_kind_t kind,
		     const char *what, prism_moab_cred_t *e, const char *key,
		     const char *val)
{
	if (kind != PRISM_MOAB_QOS)
		return _ignore(c, "%s: only QOSCFG has it (Moab ignores it here), ignored",
			       what);
	if (!strcasecmp(key, "QTWEIGHT"))
		return _int(c, what, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &e->qt_weight);
	if (!strcasecmp(key, "XFWEIGHT"))
		return _int(c, what, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &e->xf_weight);
	if (!strcasecmp(key, "QTTARGET"))
		return _time(c, what, val, &e->qt_target);
	return _real(c, what, val, 1.0, 1e9, &e->xf_target);
}

static int _cfg_attr(_ctx_t *c, prism_moab_cred_kind_t kind,
		     const char *label, prism_moab_cred_t *e, const char *key,
		     const char *val)
{
	char what[2 * PRISM_LINES_MAX + 128];

	snprintf(what, sizeof(what), "%s %s", label, key);
	if (!_prio_attr(key))
		return _cfg_other(c, what, key);
	if (!*val)
		return prism_lines_fail(&c->at, "%s: missing value", what);
	if (kind != PRISM_MOAB_QOS && _qos_only(key))
		return _qos_attr(c, kind, what, e, key, val);
	c->kept++;
	if (!strcasecmp(key, "PRIORITY")) {
		if (_int(c, what, val, -_WEIGHT_MAX, _WEIGHT_MAX, &e->prio))
			return -1;
		e->prio_set = true;
		return 0;
	}
	if (!strcasecmp(key, "FSTARGET"))
		return _fstarget(c, kind, what, val, e);
	if (!strcasecmp(key, "FSWEIGHT"))
		return _int(c, what, val, -_WEIGHT_MAX, _WEIGHT_MAX,
			    &e->fs_weight);
	return _qos_attr(c, kind, what, e, key, val);
}

/*
 * One "KEY=VALUE" of a CFG line. A qualifier in brackets
 * (MAXPROC[USER:bob]=4) and '+=' / '-=' (FEATURES+=x) are limit syntax:
 * the attribute is ignored whole.
 */
static int _cfg_tok(_ctx_t *c, prism_moab_cred_kind_t kind,
		    const char *label, prism_moab_cred_t *e, char *tok)
{
	char *eq = strchr(tok, '=');
	char what[2 * PRISM_LINES_MAX + 128];

	if (!eq || eq == tok) {
		if (_prio_attr(tok))
			return prism_lines_fail(&c->at,
						"%s: '%s' is not KEY=VALUE",
						label, tok);
		snprintf(what, sizeof(what), "%s %s", label, tok);
		return _ignore(c, "%s: not KEY=VALUE, ignored", what);
	}
	*eq = '\0';
	if (strchr(tok, '[') || strchr("+-", eq[-1])) {
		snprintf(what, sizeof(what), "%s %s", label, tok);
		return _ignore(c, "%s: not a priority attribute, ignored",
			       what);
	}
	return _cfg_attr(c, kind, label, e, tok, eq + 1);
}

static int _cfg_line(_ctx_t *c, prism_moab_cred_kind_t kind,
		     const char *id, char **cur)
{
	char label[PRISM_LINES_MAX + 64];
	prism_moab_cred_t *e;
	char *tok;
	bool any = false;

	snprintf(label, sizeof(label), "%s[%s]", _cfg_names[kind], id);
	e = _cred_add(c->pol, kind, id);
	if (!e)
		return prism_lines_oom(&c->at);
	while ((tok = prism_lines_tok(cur))) {
		any = true;
		if (strcmp(tok, "\\") && _cfg_tok(c, kind, label, e, tok))
			return -1;
	}
	if (!any)
		return _ignore(c, "%s: no attributes, ignored", label);
	return 0;
}

/* ---- JOBPRIOF --------------------------------------------------------- */

static int _bits_set(_ctx_t *c, _bits_t *b, const char *kind,
		     const char *name, int64_t prio)
{
	for (int i = 0; i < b->n; i++) {
		if (!strcasecmp(b->name[i], name)) {
			b->prio[i] = prio;
			return 0;
		}
	}
	if (b->n == PRISM_MOAB_BITS_MAX)
		return prism_lines_fail(&c->at,
					"JOBPRIOF: more than %d %s names",
					PRISM_MOAB_BITS_MAX, kind);
	b->name[b->n] = prism_names_dup(name);
	if (!b->name[b->n])
		return prism_lines_oom(&c->at);
	b->prio[b->n++] = prio;
	return 0;
}

static int _jobprio_entry(_ctx_t *c, char *tok)
{
	char *eq = strchr(tok, '='), *id;
	char what[2 * PRISM_LINES_MAX + 128];
	int64_t prio;

	if (!eq || eq == tok)
		return prism_lines_fail(
			&c->at, "JOBPRIOF: '%s' is not KIND[name]=VALUE",
			tok);
	*eq = '\0';
	if (prism_lines_brackets(&c->at, tok, &id))
		return -1;
	if (!id)
		return prism_lines_fail(
			&c->at, "JOBPRIOF: '%s' is missing '[name]'", tok);
	snprintf(what, sizeof(what), "JOBPRIOF %s[%s]", tok, id);
	if (!eq[1])
		return prism_lines_fail(&c->at, "%s: missing value", what);
	if (_int(c, what, eq + 1, -_WEIGHT_MAX, _WEIGHT_MAX, &prio))
		return -1;
	if (!strcasecmp(tok, "STATE")) {
		for (int s = 0; s < PRISM_MOAB_STATE_CNT; s++) {
			if (!strcasecmp(id, _state_names[s])) {
				c->pol->p.state_prio[s] = prio;
				return 0;
			}
		}
		return prism_lines_fail(&c->at, "%s: unknown job state", what);
	}
	if (!strcasecmp(tok, "ATTR"))
		return _bits_set(c, &c->pol->attr, "ATTR", id, prio);
	if (!strcasecmp(tok, "GRES"))
		return _bits_set(c, &c->pol->gres, "GRES", id, prio);
	return prism_lines_fail(&c->at, "JOBPRIOF: unknown kind '%s'", tok);
}

static int _jobprio_line(_ctx_t *c, char **cur)
{
	char *tok;
	bool any = false;

	while ((tok = prism_lines_tok(cur))) {
		any = true;
		if (_jobprio_entry(c, tok))
			return -1;
	}
	if (!any)
		return prism_lines_fail(&c->at, "JOBPRIOF: missing value");
	return 0;
}

/* ---- lines ------------------------------------------------------------ */

/*
 * Is 'name' (no CFG name, no known parameter) a weight or cap that does
 * not exist? Every *WEIGHT and *CAP of Moab's but _not_prio_weight[] is a
 * priority parameter, so an unknown one is a misspelling that would
 * otherwise pass unnoticed.
 */
static bool _misspelt(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0;
	     i < sizeof(_not_prio_weight) / sizeof(_not_prio_weight[0]); i++) {
		if (!strcasecmp(name, _not_prio_weight[i]))
			return false;
	}
	return (n > 6 && !strcasecmp(name + n - 6, "WEIGHT")) ||
	       (n > 3 && !strcasecmp(name + n - 3, "CAP"));
}

/* Keep 'cand' + 'suffix' in 'best' when nearer to 'name' than *dist. */
static void _nearer(const char *name, const char *cand, const char *suffix,
		    char *best, size_t size, unsigned *dist)
{
	char full[64];
	unsigned d;

	snprintf(full, sizeof(full), "%s%s", cand, suffix);
	d = prism_lines_distance(name, full);
	if (d < *dist) {
		*dist = d;
		snprintf(best, size, "%s", full);
	}
}

/* The weight or cap name, old or new, nearest to 'name', into 'best'. */
static void _nearest(const char *name, char *best, size_t size)
{
	const char *suffix[2] = { "WEIGHT", "CAP" };
	unsigned dist = UINT_MAX;

	for (int x = 0; x < 2; x++) {
		for (int i = 0; i < PRISM_MC_CNT; i++)
			_nearer(name, _comp_names[i][0], suffix[x], best,
				size, &dist);
		for (int i = 0; i < PRISM_MS_CNT; i++)
			_nearer(name, _subs[i].name, suffix[x], best, size,
				&dist);
	}
	for (int i = 0; i < PRISM_MS_CNT; i++) {
		if (_subs[i].alias)
			_nearer(name, _subs[i].alias, "", best, size, &dist);
	}
	for (size_t i = 0; i < sizeof(_param_old) / sizeof(_param_old[0]);
	     i++)
		_nearer(name, _param_old[i].old, "", best, size, &dist);
}

/* The failure for a misspelt weight or cap, with the nearest name. */
static int _misspelt_fail(_ctx_t *c, const char *name)
{
	char best[64] = "";

	_nearest(name, best, sizeof(best));
	if (!best[0]) /* too long to be near any */
		return prism_lines_fail(&c->at,
					"%s: unknown priority weight or cap",
					name);
	return prism_lines_fail(
		&c->at,
		"%s: unknown priority weight or cap (did you mean %s?)", name,
		best);
}

/* Count a priority parameter that 'rc' says was set. */
static int _kept(_ctx_t *c, int rc)
{
	if (!rc)
		c->kept++;
	return rc;
}

/* The current name of an older spelling 'name', or NULL. */
static const char *_old_name(const char *name)
{
	for (size_t i = 0; i < sizeof(_param_old) / sizeof(_param_old[0]);
	     i++) {
		if (!strcasecmp(name, _param_old[i].old))
			return _param_old[i].now;
	}
	return NULL;
}

/*
 * Lines Prism does not read before the name is looked at: "#INCLUDE
 * file" (a Moab directive, not a comment) and a line that begins with
 * KEY=VALUE (the rest of the line before, RMCFG written over two lines).
 * Returns 1 when 'line' is one of them (its notice made), 0 when not, -1
 * when out of memory.
 */
static int _odd_line(_ctx_t *c, const char *line)
{
	const char *p = line + strspn(line, " \t\r\v\f");
	size_t n = strcspn(p, " \t\r\v\f#");
	int rc;

	if (!strncasecmp(p, "#INCLUDE", 8) &&
	    strchr(" \t\r\v\f", p[8])) {
		rc = _ignore(c, "#INCLUDE: included files are not read (convert and check each one alone)");
		return rc ? -1 : 1;
	}
	if (!memchr(p, '=', n))
		return 0;
	rc = _ignore(c, "'%.*s': a value without a parameter name (the rest of the line before?), ignored",
		     (int) (n > 40 ? 40 : n), p);
	return rc ? -1 : 1;
}

/* NAME VALUE for a name that is no priority parameter. */
static int _other_param(_ctx_t *c, const char *name, const char *id,
			const char *val)
{
	if (!id && _misspelt(name))
		return _misspelt_fail(c, name);
	if (id)
		return _ignore(c, "%s[%s]: not a priority parameter, ignored",
			       name, id);
	if (!val)
		return _ignore(c, "%s: no value, not a priority parameter, ignored",
			       name);
	return _ignore(c, "%s: not a priority parameter, ignored", name);
}

/* NAME VALUE for the priority parameter 'kind' ('now': its new name). */
static int _prio_param(_ctx_t *c, _param_t kind, int idx, const char *name,
		       const char *now, const char *val, char **cur)
{
	if (!val)
		return prism_lines_fail(&c->at, "%s: missing value", name);
	if (prism_lines_tok(cur))
		return prism_lines_fail(&c->at, "%s: more than one value",
					name);
	if (_kept(c, _set_param(c, kind, idx, name, val)))
		return -1;
	if (!now)
		return 0;
	return prism_lines_notice(&c->at, "%s: older name of %s, read as %s",
				  name, now, now);
}

static int _line(void *arg, char *line)
{
	_ctx_t *c = arg;
	char *cur, *name, *id;
	const char *now;
	_param_t kind;
	int idx = 0, odd = _odd_line(c, line);

	if (odd)
		return odd < 0 ? -1 : 0;
	if (prism_lines_head(&c->at, line, "", "_.-", &name, &id, &cur))
		return -1;
	if (!name)
		return 0;
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		if (strcasecmp(name, _cfg_names[k]))
			continue;
		if (!id)
			return prism_lines_fail(&c->at, "%s: missing '[name]'",
						_cfg_names[k]);
		return _cfg_line(c, (prism_moab_cred_kind_t) k, id, &cur);
	}
	now = _old_name(name);
	kind = _param_find(now ? now : name, &idx);
	if (kind != _P_NONE && id)
		return prism_lines_fail(&c->at, "%s: unexpected '[%s]'",
					name, id);
	if (!strcasecmp(name, "JOBPRIOF")) {
		if (id)
			return prism_lines_fail(
				&c->at, "%s: unexpected '[%s]'", name, id);
		return _kept(c, _jobprio_line(c, &cur));
	}
	if (kind == _P_NONE)
		return _other_param(c, name, id, prism_lines_tok(&cur));
	return _prio_param(c, kind, idx, name, now, prism_lines_tok(&cur),
			   &cur);
}

static void _defaults(prism_moab_params_t *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < PRISM_MC_CNT; i++)
		p->comp_weight[i] = 1;
	p->sub_weight[PRISM_MS_QUEUETIME] = 1;
	p->fs_interval = 12 * 3600;
	p->fs_depth = 8;
	p->fs_decay = 1.0;
	p->fs_policy = PRISM_MOAB_FS_OFF;
	p->max_prio = 1000000000;
}

/* ---- public ----------------------------------------------------------- */

extern prism_moab_policy_t *prism_moab_policy_default(void)
{
	prism_moab_policy_t *pol = calloc(1, sizeof(*pol));

	if (!pol)
		return NULL;
	_defaults(&pol->p);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		prism_names_init(&pol->tab[k], sizeof(prism_moab_cred_t));
	return pol;
}

extern void prism_moab_policy_free(prism_moab_policy_t *pol)
{
	if (!pol)
		return;
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++)
		prism_names_free(&pol->tab[k]);
	for (int i = 0; i < pol->attr.n; i++)
		free(pol->attr.name[i]);
	for (int i = 0; i < pol->gres.n; i++)
		free(pol->gres.name[i]);
	prism_lines_notices_free(&pol->notices);
	free(pol);
}

extern int prism_moab_conf_parse(const char *text, size_t len,
				 const char *file, prism_moab_policy_t **out,
				 prism_error_t *err)
{
	_ctx_t c = { .at = { .file = file ? file : "(moab config)",
			     .err = err } };

	if ((!text && len) || !out) {
		prism_error_set(err, "%s: bad parameter", c.at.file);
		return -1;
	}
	c.pol = prism_moab_policy_default();
	if (!c.pol)
		return prism_lines_oom(&c.at);
	c.at.notices = &c.pol->notices;
	if (prism_lines_read(&c.at, text, len, _line, &c)) {
		prism_moab_policy_free(c.pol);
		return -1;
	}
	c.pol->kept = c.kept;
	*out = c.pol;
	return 0;
}

extern unsigned prism_moab_policy_kept(const prism_moab_policy_t *pol)
{
	return pol ? pol->kept : 0;
}

/*
 * Notice 'i' of 'pol' without "file:line: " ('skip' bytes) into 'why'.
 */
static void _why(const prism_moab_policy_t *pol, size_t i, size_t skip,
		 prism_error_t *why)
{
	const char *n = prism_lines_notices_get(&pol->notices, i);

	if (!why)
		return;
	if (!n || strlen(n) < skip)
		prism_error_set(why, "%s", "");
	else
		prism_error_set(why, "%s", n + skip);
}

extern int prism_moab_conf_line(const char *line, const char *file,
				unsigned lineno, prism_moab_line_t *out,
				prism_error_t *why, prism_error_t *err)
{
	_ctx_t c = { .at = { .file = file ? file : "(moab config)",
			     .line = lineno,
			     .err = err } };
	char buf[PRISM_MOAB_LINE_MAX + 1];
	size_t n;
	int rc = -1;

	if (!line || !out) {
		prism_error_set(err, "%s: bad parameter", c.at.file);
		return -1;
	}
	n = strlen(line);
	if (n > PRISM_MOAB_LINE_MAX)
		return prism_lines_fail(&c.at, "line is longer than %d bytes",
					PRISM_MOAB_LINE_MAX);
	memcpy(buf, line, n + 1);
	c.pol = prism_moab_policy_default();
	if (!c.pol)
		return prism_lines_oom(&c.at);
	c.at.notices = &c.pol->notices;
	if (prism_lines_utf8(&c.at, buf, n) || _line(&c, buf))
		goto out;
	/* a line with ignored parts: the first of them says why */
	_why(c.pol, c.ignored ? c.first_ignored : 0,
	     strlen(c.at.file) + 3 + (size_t) snprintf(NULL, 0, "%u", lineno),
	     why);
	if (!c.ignored)
		*out = c.kept ? PRISM_MOAB_LINE_PRIORITY
			      : PRISM_MOAB_LINE_BLANK;
	else
		*out = c.kept ? PRISM_MOAB_LINE_MIXED : PRISM_MOAB_LINE_IGNORED;
	rc = 0;
out:
	prism_moab_policy_free(c.pol);
	return rc;
}

extern const prism_moab_params_t *
prism_moab_policy_params(const prism_moab_policy_t *pol)
{
	return &pol->p;
}

extern size_t prism_moab_policy_notice_count(const prism_moab_policy_t *pol)
{
	return pol ? pol->notices.n : 0;
}

extern const char *prism_moab_policy_notice(const prism_moab_policy_t *pol,
					    size_t i)
{
	return pol ? prism_lines_notices_get(&pol->notices, i) : NULL;
}

extern uint32_t prism_moab_cred_count(const prism_moab_policy_t *pol,
				      prism_moab_cred_kind_t kind)
{
	if (!pol || (unsigned) kind >= PRISM_MOAB_CRED_CNT)
		return 0;
	return pol->tab[kind].n;
}

extern uint32_t prism_moab_cred_find(const prism_moab_policy_t *pol,
				     prism_moab_cred_kind_t kind,
				     const char *name)
{
	if (!pol || !name || (unsigned) kind >= PRISM_MOAB_CRED_CNT)
		return PRISM_MOAB_NONE;
	return prism_names_find(&pol->tab[kind], name);
}

extern const prism_moab_cred_t *
prism_moab_cred_get(const prism_moab_policy_t *pol,
		    prism_moab_cred_kind_t kind, uint32_t idx)
{
	if (!pol || (unsigned) kind >= PRISM_MOAB_CRED_CNT)
		return NULL;
	return prism_names_at(&pol->tab[kind], idx);
}

static int _bits_find(const _bits_t *b, const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < b->n; i++) {
		if (!strcasecmp(b->name[i], name))
			return i;
	}
	return -1;
}

extern int prism_moab_attr_bit(const prism_moab_policy_t *pol,
			       const char *name)
{
	return pol ? _bits_find(&pol->attr, name) : -1;
}

extern int prism_moab_gres_bit(const prism_moab_policy_t *pol,
			       const char *name)
{
	return pol ? _bits_find(&pol->gres, name) : -1;
}

static bool _name_char(char c)
{
	return isalnum((unsigned char) c) || c == '_' || c == '-' ||
	       c == '.';
}

/* Bit of the 'len' bytes at 'name' in 'b', or -1. */
static int _bits_find_n(const _bits_t *b, const char *name, size_t len)
{
	for (int i = 0; i < b->n; i++) {
		if (strlen(b->name[i]) == len &&
		    !strncasecmp(b->name[i], name, len))
			return i;
	}
	return -1;
}

extern uint64_t prism_moab_attr_mask(const prism_moab_policy_t *pol,
				     const char *features)
{
	uint64_t mask = 0;
	const char *s = features;

	if (!pol || !s || !pol->attr.n)
		return 0;
	while (*s) {
		const char *start;
		int bit;

		while (*s && !_name_char(*s))
			s++;
		start = s;
		while (_name_char(*s))
			s++;
		bit = _bits_find_n(&pol->attr, start, (size_t) (s - start));
		if (bit >= 0)
			mask |= UINT64_C(1) << bit;
	}
	return mask;
}

extern uint64_t prism_moab_gres_mask(const prism_moab_policy_t *pol,
				     const char *list)
{
	uint64_t mask = 0;
	const char *s = list;

	if (!pol || !s || !pol->gres.n)
		return 0;
	while (*s) {
		const char *start;
		int bit;

		while (*s == ',' || isspace((unsigned char) *s))
			s++;
		if (!strncasecmp(s, "gres:", 5) || !strncasecmp(s, "gres/", 5))
			s += 5;
		else if (!strncasecmp(s, "license:", 8) ||
			 !strncasecmp(s, "license/", 8))
			s += 8;
		start = s;
		while (_name_char(*s))
			s++;
		bit = _bits_find_n(&pol->gres, start, (size_t) (s - start));
		if (bit >= 0)
			mask |= UINT64_C(1) << bit;
		while (*s && *s != ',')
			s++;
	}
	return mask;
}

extern int64_t prism_moab_attr_prio(const prism_moab_policy_t *pol, int bit)
{
	if (!pol || bit < 0 || bit >= pol->attr.n)
		return 0;
	return pol->attr.prio[bit];
}

extern int64_t prism_moab_gres_prio(const prism_moab_policy_t *pol, int bit)
{
	if (!pol || bit < 0 || bit >= pol->gres.n)
		return 0;
	return pol->gres.prio[bit];
}

extern const char *prism_moab_comp_name(prism_moab_comp_t comp)
{
	if ((unsigned) comp >= PRISM_MC_CNT)
		return NULL;
	return _comp_names[comp][0];
}

extern const char *prism_moab_sub_name(prism_moab_sub_t sub)
{
	if ((unsigned) sub >= PRISM_MS_CNT)
		return NULL;
	return _subs[sub].name;
}

extern const char *prism_moab_cred_kind_name(prism_moab_cred_kind_t kind)
{
	if ((unsigned) kind >= PRISM_MOAB_CRED_CNT)
		return NULL;
	return _kind_names[kind];
}

extern prism_moab_comp_t prism_moab_sub_comp(prism_moab_sub_t sub)
{
	if ((unsigned) sub >= PRISM_MS_CNT)
		return PRISM_MC_CNT;
	return _subs[sub].comp;
}
