/*****************************************************************************\
 *  prism_ge_facts.c - Slurm's records and the Grid Engine core (see
 *  prism_ge_facts.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "prism_ge_facts.h"
#include "prism_tres_str.h"

/* ---- job facts -------------------------------------------------------- */

/* A request as an amount: 0 for Slurm's markers of none, bounded. */
static double _amount(uint64_t v)
{
	if (v == PRISM_NO_VAL64 || v == PRISM_INFINITE64 ||
	    v == PRISM_NO_CONSUME_VAL64)
		return 0.0;
	return fmin((double) v, PRISM_GE_AMOUNT_MAX);
}

/* The request of resource handle 'r' (mem or beyond nodes) of 'f'. */
static double _request(const prism_ge_policy_t *pol,
		       const prism_ge_facts_t *f, uint32_t r)
{
	const char *name;
	uint64_t v = 0;
	int pos;

	if (f->tres_req) {
		name = r == PRISM_GE_RES_MEM ?
			       "mem" :
			       prism_ge_get(pol, PRISM_GE_RESOURCE, r)->name;
		if (prism_tres_str_get(f->tres_req, name, &v))
			return 0.0;
		return _amount(v);
	}
	pos = f->tres_pos ? f->tres_pos[r] : -1;
	if (!f->tres_cnt || pos < 0 || (uint32_t) pos >= f->tres_len)
		return 0.0;
	return _amount(f->tres_cnt[pos]);
}

extern int prism_ge_job_from_facts(const prism_ge_policy_t *pol,
				   const prism_ge_facts_t *f,
				   prism_ge_job_t *job, double *amount,
				   prism_error_t *err)
{
	uint32_t nres;

	if (!pol || !f || !job || !amount) {
		prism_error_set(err, "prism_ge_job_from_facts: NULL argument");
		return -1;
	}
	nres = prism_ge_count(pol, PRISM_GE_RESOURCE);
	*job = (prism_ge_job_t) {
		.job_id = f->job_id,
		.submit = f->submit_time,
		.deadline = f->deadline,
		.nice = (int64_t) f->nice - (int64_t) PRISM_NICE_OFFSET,
		.node = PRISM_GE_NONE,
		.user = f->user,
		.account = prism_ge_find(pol, PRISM_GE_ACCOUNT, f->account),
		.partition = prism_ge_find(pol, PRISM_GE_PARTITION,
					   f->partition),
		.amount = amount,
	};
	amount[PRISM_GE_RES_SLOTS] = f->cpus;
	amount[PRISM_GE_RES_MEM] = _request(pol, f, PRISM_GE_RES_MEM);
	amount[PRISM_GE_RES_NODES] = f->nodes;
	for (uint32_t r = PRISM_GE_RES_NODES + 1; r < nres; r++)
		amount[r] = _request(pol, f, r);
	return 0;
}

/* ---- sprio columns ---------------------------------------------------- */

/* SITE for the offset 'offset', bounded to 32 bits. */
static uint32_t _site(uint32_t offset)
{
	uint64_t site = (uint64_t) offset + PRISM_NICE_OFFSET;

	return site > UINT32_MAX ? UINT32_MAX : (uint32_t) site;
}

/* The offset in SITE 'site' (0 below the offset of nice). */
static uint32_t _offset(uint32_t site)
{
	return site > PRISM_NICE_OFFSET ? site - PRISM_NICE_OFFSET : 0;
}

extern int prism_ge_cols_encode(const prism_ge_sprio_t *c, prism_cols_t *out,
				prism_error_t *err)
{
	if (!c || !out) {
		prism_error_set(err, "prism_ge_cols_encode: NULL argument");
		return -1;
	}
	*out = (prism_cols_t) {
		.age = c->urgency,
		.assoc = c->tickets,
		.qos = c->posix,
		.site = _site(c->offset),
		.nice = PRISM_NICE_OFFSET,
	};
	return 0;
}

extern int prism_ge_cols_rebase(prism_cols_t *cols, uint32_t slurm,
				prism_error_t *err)
{
	prism_ge_sprio_t c;

	if (!cols) {
		prism_error_set(err, "prism_ge_cols_rebase: NULL argument");
		return -1;
	}
	c = (prism_ge_sprio_t) {
		.urgency = (uint32_t) cols->age,
		.tickets = (uint32_t) cols->assoc,
		.posix = (uint32_t) cols->qos,
		.offset = _offset(cols->site),
	};
	prism_ge_sprio_rebase(&c, slurm);
	cols->age = c.urgency;
	cols->assoc = c.tickets;
	cols->qos = c.posix;
	cols->site = _site(c.offset);
	return 0;
}

extern int prism_ge_cols_decode(const prism_cols_t *in, uint32_t prio,
				prism_ge_sprio_t *out, uint32_t *slurm,
				prism_error_t *err)
{
	prism_cols_kind_t kind;
	uint64_t sum;

	if (!in || !out || !slurm) {
		prism_error_set(err, "prism_ge_cols_decode: NULL argument");
		return -1;
	}
	memset(out, 0, sizeof(*out));
	*slurm = prio;
	kind = prism_cols_kind(in);
	if (kind == PRISM_COLS_ADMIN)
		*slurm = prism_cols_prio32(in->direct_prio);
	if (kind != PRISM_COLS_POLICY)
		return kind;
	*out = (prism_ge_sprio_t) {
		.urgency = (uint32_t) in->age,
		.tickets = (uint32_t) in->assoc,
		.posix = (uint32_t) in->qos,
		.offset = _offset(in->site),
	};
	sum = (uint64_t) out->urgency + out->tickets + out->posix +
	      out->offset;
	if (sum > 0 && sum <= UINT32_MAX)
		*slurm = (uint32_t) sum;
	return kind;
}
