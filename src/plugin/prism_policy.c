/*****************************************************************************\
 *  prism_policy.c - which policy computes priorities (PriorityParameters
 *  policy=), its file, and the policies' state in the controller: the
 *  parsed Moab policy, its fair-share usage (charged every pass, saved in
 *  StateSaveLocation) and the per-user totals of active jobs; the parsed
 *  Grid Engine policy and its share-tree usage (likewise).
 *
 *  Locking: everything here is under policy_lock, a leaf lock taken
 *  after the job lock and the assoc_mgr locks, never before them.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <pthread.h>

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "prism_adapter.h"
#include "prism_file.h"
#include "prism_ge.h"
#include "prism_ge_usage.h"
#include "prism_moab.h"
#include "prism_params.h"

#define MOAB_USAGE_NAME "priority_prism_moab_usage"
#define GE_USAGE_NAME "priority_prism_ge_usage"

static pthread_mutex_t policy_lock = PTHREAD_MUTEX_INITIALIZER;
static prism_policy_t kind = PRISM_POLICY_MULTIFACTOR;
static prism_moab_policy_t *pol;	/* the Moab policy in force, or NULL */
static prism_moab_usage_t *usage;	/* its fair-share usage */
static prism_moab_users_t *users;	/* per-user active jobs, last walk */
static char *pol_path;
static uint64_t generation;		/* +1 at every policy put in force */
static prism_ge_policy_t *ge_pol;	/* the GE policy in force, or NULL */
static const prism_ge_policy_t *ge_held; /* the one a pass works with */
static prism_ge_usage_t *ge_usage;	/* its share-tree usage */

extern void prism_policy_lock(void)
{
	slurm_mutex_lock(&policy_lock);
}

extern void prism_policy_unlock(void)
{
	slurm_mutex_unlock(&policy_lock);
}

extern prism_policy_t prism_policy_kind(void)
{
	prism_policy_t k;

	slurm_mutex_lock(&policy_lock);
	k = kind;
	slurm_mutex_unlock(&policy_lock);
	return k;
}

extern uint64_t prism_policy_generation(void)
{
	return generation;
}

extern const prism_moab_policy_t *prism_moab_policy(void)
{
	return pol;
}

extern prism_moab_usage_t *prism_moab_usage(void)
{
	return usage;
}

extern const prism_ge_policy_t *prism_ge_policy(void)
{
	return ge_pol;
}

extern prism_ge_usage_t *prism_ge_usage(void)
{
	return ge_usage;
}

extern const prism_ge_policy_t *prism_ge_policy_get(void)
{
	const prism_ge_policy_t *p;

	slurm_mutex_lock(&policy_lock);
	p = ge_held = ge_pol;
	slurm_mutex_unlock(&policy_lock);
	return p;
}

extern void prism_ge_policy_put(const prism_ge_policy_t *p)
{
	slurm_mutex_lock(&policy_lock);
	/* replaced while the pass worked with it: freed here, not then */
	if (p && p != ge_pol)
		prism_ge_policy_free((prism_ge_policy_t *) p);
	ge_held = NULL;
	slurm_mutex_unlock(&policy_lock);
}

/* Put 'p' (NULL: none) in force as the GE policy. Caller holds policy_lock. */
static void _ge_replace(prism_ge_policy_t *p)
{
	if (ge_pol && ge_pol != ge_held)
		prism_ge_policy_free(ge_pol);
	ge_pol = p;
}

extern prism_moab_users_t *prism_moab_users(void)
{
	return users;
}

/* Log the parser's notices and what the policy weighs without data. */
static void _notices(const prism_moab_policy_t *p, const char *path)
{
	const prism_moab_params_t *params = prism_moab_policy_params(p);

	for (size_t i = 0; i < prism_moab_policy_notice_count(p); i++)
		info("%s: %s", plugin_type, prism_moab_policy_notice(p, i));
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		const char *why = prism_moab_sub_no_data((prism_moab_sub_t) s);

		if (why && params->sub_weight[s])
			info("%s: %s: %sWEIGHT: %s; its value is always 0",
			     plugin_type, path,
			     prism_moab_sub_name((prism_moab_sub_t) s), why);
	}
}

/*
 * Read the Moab usage saved in StateSaveLocation for 'p', or start a
 * fresh one (a damaged file is reported). NULL only when out of memory.
 */
static prism_moab_usage_t *_usage_load(const prism_moab_policy_t *p,
				       time_t now)
{
	prism_moab_usage_t *u = NULL;
	prism_error_t err = { "" };
	char *buf = NULL;
	size_t len = 0;

	if (prism_state_file_read(MOAB_USAGE_NAME, &buf, &len) &&
	    prism_moab_usage_parse(buf, len, p, &u, &err)) {
		error("%s: %s/%s is damaged (%s); Moab fair-share usage starts afresh",
		      plugin_type, slurm_conf.state_save_location,
		      MOAB_USAGE_NAME, err.text);
		u = NULL;
	}
	xfree(buf);
	if (!u && !(u = prism_moab_usage_create(p, now, &err)))
		error("%s: %s", plugin_type, err.text);
	return u;
}

/*
 * Carry the usage 'old' (of the policy being replaced) over to 'p': what
 * 'p' still names keeps its windows. A fresh usage if 'old' is NULL.
 */
static prism_moab_usage_t *_usage_carry(const prism_moab_usage_t *old,
					const prism_moab_policy_t *p,
					time_t now)
{
	prism_moab_usage_t *u = NULL;
	prism_error_t err = { "" };
	size_t size;
	char *buf;
	int len;

	if (!old)
		return _usage_load(p, now);
	size = prism_moab_usage_format_size(old);
	buf = xmalloc(size);
	len = prism_moab_usage_format(old, buf, size, &err);
	if ((len < 0) || prism_moab_usage_parse(buf, len, p, &u, &err)) {
		error("%s: cannot carry the Moab fair-share usage over (%s); it starts afresh",
		      plugin_type, err.text);
		u = prism_moab_usage_create(p, now, &err);
	}
	xfree(buf);
	return u;
}

/* Read and parse the Grid Engine file 'path'; NULL with the reason logged. */
static prism_ge_policy_t *_ge_read(const char *path)
{
	prism_ge_policy_t *p = NULL;
	prism_error_t err = { "" };
	char *text = NULL;
	size_t len = 0;

	if (prism_file_read(path, &text, &len, &err) ||
	    prism_ge_conf_parse(text, len, path, &p, &err)) {
		error("%s: %s", plugin_type, err.text);
		p = NULL;
	}
	free(text);
	return p;
}

/* Log the parser's notices (ignored parameters). */
static void _ge_notices(const prism_ge_policy_t *p)
{
	for (size_t i = 0; i < prism_ge_policy_notice_count(p); i++)
		info("%s: %s", plugin_type, prism_ge_policy_notice(p, i));
}

/*
 * Read the share-tree usage saved in StateSaveLocation, or start a fresh
 * one at 'now' (a damaged file is reported). NULL only when out of memory.
 */
static prism_ge_usage_t *_ge_usage_load(time_t now)
{
	prism_ge_usage_t *u = NULL;
	prism_error_t err = { "" };
	char *buf = NULL;
	size_t len = 0;

	if (prism_state_file_read(GE_USAGE_NAME, &buf, &len) &&
	    prism_ge_usage_parse(buf, len, &u, &err)) {
		error("%s: %s/%s is damaged (%s); Grid Engine share-tree usage starts afresh",
		      plugin_type, slurm_conf.state_save_location,
		      GE_USAGE_NAME, err.text);
		u = NULL;
	}
	xfree(buf);
	if (!u && !(u = prism_ge_usage_create(now)))
		error("%s: Grid Engine share-tree usage: out of memory",
		      plugin_type);
	return u;
}

/* Read and parse the Moab file 'path'; NULL with the reason logged. */
static prism_moab_policy_t *_moab_read(const char *path)
{
	prism_moab_policy_t *p = NULL;
	prism_error_t err = { "" };
	char *text = NULL;
	size_t len = 0;

	if (prism_file_read(path, &text, &len, &err) ||
	    prism_moab_conf_parse(text, len, path, &p, &err)) {
		error("%s: %s", plugin_type, err.text);
		p = NULL;
	}
	free(text);
	return p;
}

extern int prism_policy_load(bool at_start)
{
	prism_params_t params;
	prism_error_t err = { "" };
	prism_moab_policy_t *p = NULL;
	prism_moab_usage_t *u = NULL;
	prism_ge_policy_t *g = NULL;
	char path[PRISM_PARAMS_MAX + 64];

	if (prism_params_parse(slurm_conf.priority_params, &params, &err)) {
		error("%s: %s", plugin_type, err.text);
		return SLURM_ERROR;
	}
	if (params.policy != PRISM_POLICY_MULTIFACTOR &&
	    prism_params_config_path(&params, slurm_conf.slurm_conf, path,
				     sizeof(path), &err)) {
		error("%s: %s", plugin_type, err.text);
		return SLURM_ERROR;
	}
	if (params.policy == PRISM_POLICY_MOAB) {
		if (!(p = _moab_read(path)))
			return SLURM_ERROR;
		_notices(p, path);
	} else if (params.policy == PRISM_POLICY_GRIDENGINE) {
		if (!(g = _ge_read(path)))
			return SLURM_ERROR;
		_ge_notices(g);
	}

	slurm_mutex_lock(&policy_lock);
	if (p) {
		u = _usage_carry(usage, p, time(NULL));
		if (!u) {
			slurm_mutex_unlock(&policy_lock);
			prism_moab_policy_free(p);
			return SLURM_ERROR;
		}
		if (!users)
			users = prism_moab_users_create();
	}
	if (g && !ge_usage && !(ge_usage = _ge_usage_load(time(NULL)))) {
		slurm_mutex_unlock(&policy_lock);
		prism_ge_policy_free(g);
		return SLURM_ERROR;
	}
	if (!g) {
		prism_ge_usage_free(ge_usage);
		ge_usage = NULL;
	}
	_ge_replace(g);
	prism_moab_usage_free(usage);
	prism_moab_policy_free(pol);
	usage = u;
	pol = p;
	kind = params.policy;
	generation++;
	xfree(pol_path);
	if (p || g)
		pol_path = xstrdup(path);
	slurm_mutex_unlock(&policy_lock);

	if (p || g)
		info("%s: policy=%s from %s%s", plugin_type,
		     prism_policy_name(params.policy), path,
		     at_start ? "" : " (reconfigured)");
	else if (!at_start)
		debug("%s: policy=%s", plugin_type,
		      prism_policy_name(params.policy));
	return SLURM_SUCCESS;
}

extern void prism_policy_fini(void)
{
	slurm_mutex_lock(&policy_lock);
	prism_moab_usage_free(usage);
	prism_moab_policy_free(pol);
	prism_moab_users_free(users);
	usage = NULL;
	pol = NULL;
	users = NULL;
	_ge_replace(NULL);
	prism_ge_usage_free(ge_usage);
	ge_usage = NULL;
	xfree(pol_path);
	kind = PRISM_POLICY_MULTIFACTOR;
	generation++;
	slurm_mutex_unlock(&policy_lock);
}

extern void prism_moab_roll(time_t now)
{
	slurm_mutex_lock(&policy_lock);
	if (usage)
		(void) prism_moab_usage_roll(usage, now);
	prism_moab_users_clear(users);
	slurm_mutex_unlock(&policy_lock);
}

extern void prism_moab_usage_save(void)
{
	prism_error_t err = { "" };
	char *buf = NULL;
	int len = -1;

	slurm_mutex_lock(&policy_lock);
	if (usage) {
		size_t size = prism_moab_usage_format_size(usage);

		buf = xmalloc(size);
		len = prism_moab_usage_format(usage, buf, size, &err);
	}
	slurm_mutex_unlock(&policy_lock);
	if (!buf)
		return;
	if (len < 0)
		error("%s: cannot format the Moab fair-share usage: %s",
		      plugin_type, err.text);
	else
		(void) prism_state_file_write(MOAB_USAGE_NAME, buf, len);
	xfree(buf);
}

extern void prism_ge_usage_save(void)
{
	prism_error_t err = { "" };
	char *buf = NULL;
	int len = -1;

	slurm_mutex_lock(&policy_lock);
	if (ge_usage) {
		size_t size = prism_ge_usage_format_size(ge_usage);

		buf = xmalloc(size);
		len = prism_ge_usage_format(ge_usage, buf, size, &err);
	}
	slurm_mutex_unlock(&policy_lock);
	if (!buf)
		return;
	if (len < 0)
		error("%s: cannot format the Grid Engine share-tree usage: %s",
		      plugin_type, err.text);
	else
		(void) prism_state_file_write(GE_USAGE_NAME, buf, len);
	xfree(buf);
}
