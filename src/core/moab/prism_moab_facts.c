/*****************************************************************************\
 *  prism_moab_facts.c - Slurm's records and the Moab core (see
 *  prism_moab_facts.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "prism_moab_facts.h"
#include "prism_tres_str.h"

/* ---- job facts -------------------------------------------------------- */

/* Moab's name for the state of 'f' (see the notes). */
static prism_moab_state_t _state(const prism_moab_facts_t *f)
{
	if (f->configuring)
		return PRISM_MOAB_STARTING;
	if (f->running)
		return PRISM_MOAB_RUNNING;
	if (f->suspended)
		return PRISM_MOAB_SUSPENDED;
	if (f->held)
		return PRISM_MOAB_HOLD;
	if (f->dependency || f->begin_time > f->now)
		return PRISM_MOAB_BLOCKED;
	return PRISM_MOAB_IDLE;
}

/* The time limit in minutes, 0 for none. */
static uint32_t _limit(uint32_t time_limit)
{
	if (time_limit == PRISM_INFINITE || time_limit == PRISM_NO_VAL)
		return 0;
	return time_limit;
}

/* The memory in MB: the count, or the entry of the TRES string when there
 * is one (0 when unreadable). */
static uint64_t _mem(uint64_t mem_mb, const char *tres)
{
	uint64_t v = 0;

	if (!tres)
		return mem_mb;
	if (prism_tres_str_get(tres, "mem", &v))
		return 0;
	return v;
}

/* The run time from the public record, as squeue shows it. */
static int64_t _run_time_public(const prism_moab_facts_t *f,
				prism_moab_state_t state)
{
	if (state == PRISM_MOAB_SUSPENDED)
		return f->pre_sus_time;
	if (f->suspend_time && f->now > f->suspend_time)
		return f->pre_sus_time + (f->now - f->suspend_time);
	if (f->start_time && f->now > f->start_time)
		return f->now - f->start_time;
	return 0;
}

static uint32_t _named(const prism_moab_policy_t *pol,
		       prism_moab_cred_kind_t kind, const char *name)
{
	return name && *name ? prism_moab_cred_find(pol, kind, name) :
			       PRISM_MOAB_NONE;
}

/* The GRES bits of every TRES request string and the licenses. */
static uint64_t _gres_mask(const prism_moab_policy_t *pol,
			   const prism_moab_facts_t *f)
{
	return prism_moab_gres_mask(pol, f->tres_per_job) |
	       prism_moab_gres_mask(pol, f->tres_per_node) |
	       prism_moab_gres_mask(pol, f->tres_per_socket) |
	       prism_moab_gres_mask(pol, f->tres_per_task) |
	       prism_moab_gres_mask(pol, f->licenses);
}

extern int prism_moab_job_from_facts(const prism_moab_policy_t *pol,
				     const prism_moab_facts_t *f,
				     prism_moab_job_t *job, prism_error_t *err)
{
	prism_moab_raw_t raw;

	if (!pol || !f || !job) {
		prism_error_set(err, "prism_moab_job_from_facts: NULL argument");
		return -1;
	}
	*job = (prism_moab_job_t) {
		.procs = f->cpus,
		.nodes = f->pending ? f->min_nodes : f->node_cnt,
		.mem_mb = _mem(f->mem_mb, f->tres_req),
		.start_count = f->restart_cnt,
		.deadline = f->deadline,
		.state = _state(f),
		.attr_mask = prism_moab_attr_mask(pol, f->features),
		.gres_mask = _gres_mask(pol, f),
	};
	job->cred[PRISM_MOAB_USER] = f->user;
	job->cred[PRISM_MOAB_GROUP] = f->group;
	job->cred[PRISM_MOAB_ACCOUNT] = _named(pol, PRISM_MOAB_ACCOUNT,
					       f->account);
	job->cred[PRISM_MOAB_QOS] = _named(pol, PRISM_MOAB_QOS, f->qos);
	job->cred[PRISM_MOAB_CLASS] = PRISM_MOAB_NONE;
	raw = (prism_moab_raw_t) {
		.now = f->now,
		.accrue_time = f->accrue_time,
		.start_time = f->start_time,
		.suspended = f->tot_sus_time > 0 ? f->tot_sus_time : 0,
		.time_limit = _limit(f->time_limit),
		.disk_per_node = f->disk_per_node,
		.nice = (int64_t) f->nice - (int64_t) PRISM_NICE_OFFSET,
	};
	prism_moab_job_raw(&raw, job);
	if (f->tot_sus_time < 0 && (job->state == PRISM_MOAB_RUNNING ||
				    job->state == PRISM_MOAB_SUSPENDED))
		job->exec_time = _run_time_public(f, job->state);
	if (f->admin_prio > 0)
		job->sys_prio = prism_moab_sys_prio(
			pol, prism_cols_prio32(f->admin_prio));
	return 0;
}

extern int prism_moab_job_part(const prism_moab_policy_t *pol,
			       const prism_moab_part_facts_t *part,
			       prism_moab_totals_t *tot, prism_moab_job_t *job,
			       prism_error_t *err)
{
	if (!pol || !tot || !job) {
		prism_error_set(err, "prism_moab_job_part: NULL argument");
		return -1;
	}
	*tot = (prism_moab_totals_t) { .procs = 0 };
	job->cred[PRISM_MOAB_CLASS] = PRISM_MOAB_NONE;
	job->class_prio = 0;
	job->part = NULL;
	if (!part)
		return 0;
	job->cred[PRISM_MOAB_CLASS] = _named(pol, PRISM_MOAB_CLASS,
					     part->name);
	job->class_prio = part->prio_job_factor;
	tot->procs = part->total_cpus;
	tot->mem_mb = _mem(part->mem_mb, part->tres);
	job->part = tot;
	return 0;
}

extern int prism_moab_users_count(prism_moab_users_t *u,
				  const prism_moab_facts_t *f)
{
	if (!u || !f)
		return -1;
	if (!f->running && !f->suspended)
		return 0;
	return prism_moab_users_add(u, f->uid, f->cpus,
				    (int64_t) _limit(f->time_limit) * 60);
}

/* ---- sprio columns ---------------------------------------------------- */

extern int prism_moab_cols_encode(const prism_moab_columns_t *c,
				  prism_cols_t *out, prism_error_t *err)
{
	if (!c || !out) {
		prism_error_set(err, "prism_moab_cols_encode: NULL argument");
		return -1;
	}
	*out = (prism_cols_t) {
		.age = c->serv,
		.assoc = c->cred,
		.fs = c->fs,
		.js = c->res,
		.part = c->attr,
		.qos = c->target_usage,
		.site = (uint32_t) (c->rest + (int64_t) PRISM_NICE_OFFSET),
		.nice = PRISM_NICE_OFFSET,
	};
	return 0;
}

extern int prism_moab_cols_rebase(prism_cols_t *cols, uint32_t slurm,
				  prism_error_t *err)
{
	prism_moab_columns_t c;

	if (!cols) {
		prism_error_set(err, "prism_moab_cols_rebase: NULL argument");
		return -1;
	}
	c = (prism_moab_columns_t) {
		.serv = cols->age, .cred = cols->assoc, .fs = cols->fs,
		.res = cols->js, .attr = cols->part, .target_usage = cols->qos,
	};
	prism_moab_columns_rebase(&c, slurm);
	cols->site = (uint32_t) (c.rest + (int64_t) PRISM_NICE_OFFSET);
	return 0;
}

extern int prism_moab_cols_decode(const prism_cols_t *in, uint32_t prio,
				  prism_moab_columns_t *out, uint32_t *slurm,
				  prism_error_t *err)
{
	prism_cols_kind_t kind;
	int64_t sum;

	if (!in || !out || !slurm) {
		prism_error_set(err, "prism_moab_cols_decode: NULL argument");
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->exact = true;
	*slurm = prio;
	kind = prism_cols_kind(in);
	if (kind == PRISM_COLS_ADMIN)
		*slurm = prism_cols_prio32(in->direct_prio);
	if (kind != PRISM_COLS_POLICY)
		return kind;
	out->serv = (int64_t) in->age;
	out->cred = (int64_t) in->assoc;
	out->fs = (int64_t) in->fs;
	out->res = (int64_t) in->js;
	out->attr = (int64_t) in->part;
	out->target_usage = (int64_t) in->qos;
	out->rest = (int64_t) in->site - (int64_t) PRISM_NICE_OFFSET -
		    ((int64_t) in->nice - (int64_t) PRISM_NICE_OFFSET);
	sum = out->serv + out->cred + out->fs + out->res + out->attr +
	      out->target_usage + out->rest;
	for (uint32_t t = 0; in->tres && t < in->tres_cnt; t++)
		sum += (int64_t) in->tres[t];
	if (sum > 0 && sum <= UINT32_MAX)
		*slurm = (uint32_t) sum;
	return kind;
}
