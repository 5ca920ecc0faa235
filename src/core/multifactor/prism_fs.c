/*****************************************************************************\
 *  prism_fs.c - fair-share arithmetic on one association (see prism_fs.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prism_fs.h"

extern long double prism_fs_usage_norm(long double usage_raw,
				       long double root_usage_raw)
{
	long double norm;

	if (root_usage_raw == 0.0L)
		return 0.0L;
	norm = usage_raw / root_usage_raw;
	/* a shorter half-life can leave more usage than the root holds */
	if (norm > 1.0L)
		norm = 1.0L;
	return norm;
}

extern long double prism_fs_usage_efctv(long double ua, long double ue_parent,
					uint32_t shares,
					uint32_t sibling_shares)
{
	if (!sibling_shares)
		return ue_parent;
	return ua + (ue_parent - ua) *
		    (shares / (long double) sibling_shares);
}

/*
 * R = ratio_p * ratio_l^k, with ratio_p the parent's usage over its
 * shares, ratio_l this association's over its siblings', and k tending to
 * 0 when the parent is far from its share and ratio_l would pull R back
 * towards 1. The effective usage is R * shares_norm, so 2^(-UE/S) gives
 * 2^(-R). Slurm takes the power in double precision; so does Prism.
 */
extern long double prism_fs_usage_efctv_depth_oblivious(
	long double usage_norm, long double shares_norm,
	long double parent_efctv, long double parent_shares_norm,
	const long double *siblings, size_t n)
{
	const long double f = 5.0;
	long double ratio_p, ratio_s = 0, ratio_l, k;

	if (!shares_norm || !parent_shares_norm || !parent_efctv ||
	    !usage_norm)
		return usage_norm;
	ratio_p = parent_efctv / parent_shares_norm;
	for (size_t i = 0; i < n; i++)
		ratio_s += siblings[i];
	ratio_s /= parent_shares_norm;
	ratio_l = (usage_norm / shares_norm) / ratio_s;
	if (!ratio_p || !ratio_l || logl(ratio_p) * logl(ratio_l) >= 0)
		k = 1;
	else
		k = 1 / (1 + powl(f * logl(ratio_p), 2));
	return ratio_p * pow(ratio_l, k) * shares_norm;
}

extern double prism_fs_factor(long double usage_efctv, long double shares_norm,
			      uint32_t damp)
{
	if (shares_norm <= 0.0L)
		return 0.0;
	if (!damp)
		damp = 1;
	return pow(2.0, -((usage_efctv / shares_norm) / damp));
}

/* A new pass for 'm' (slots filled before count as empty). */
static void _memo_new_pass(prism_fs_memo_t *m)
{
	if (!++m->pass) {
		/* once in 2^32 passes: no slot may look filled now */
		memset(m->slot, 0, sizeof(*m->slot) * (m->mask + 1));
		m->pass = 1;
	}
}

extern bool prism_fs_memo_begin(prism_fs_memo_t *m, uint32_t keys)
{
	uint32_t n = 64;

	while ((n < (uint64_t) keys * 4 / 3) && (n < PRISM_FS_MEMO_MAX))
		n <<= 1;
	if (!m->slot || (m->mask + 1 < n)) {
		free(m->slot);
		m->mask = 0;
		if (!(m->slot = calloc(n, sizeof(*m->slot))))
			return false;
		m->mask = n - 1;
		m->pass = 0;
	}
	_memo_new_pass(m);
	return true;
}

extern void prism_fs_memo_free(prism_fs_memo_t *m)
{
	free(m->slot);
	*m = (prism_fs_memo_t) { .slot = NULL };
}

/* The most slots a lookup tries before computing without keeping. */
#define MEMO_PROBES 16

/* Slot 's' of 'm' filled: the factor computed, out of line (the lookup
 * that finds it needs no registers saved). */
__attribute__((noinline))
static void _memo_fill(prism_fs_memo_slot_t *s, const prism_fs_memo_t *m,
		       const void *key, const long double *usage_efctv,
		       double shares_norm, uint32_t damp)
{
	s->key = key;
	memcpy(s->efctv, usage_efctv, PRISM_FS_LD_BYTES);
	s->pass = m->pass;
	s->shares_norm = shares_norm;
	s->factor = prism_fs_factor(*usage_efctv, shares_norm, damp);
}

extern double prism_fs_factor_memo(prism_fs_memo_t *m, const void *key,
				   const long double *usage_efctv,
				   double shares_norm, uint32_t damp)
{
	uint64_t h = (uintptr_t) key;

	if (!m || !m->slot || !m->pass)
		return prism_fs_factor(*usage_efctv, shares_norm, damp);
	if (damp != m->damp) {
		m->damp = damp;
		_memo_new_pass(m);
	}
	/* records a few hundred bytes apart: mix the address's bits */
	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	h >>= 32;
	for (int i = 0; i < MEMO_PROBES; i++, h++) {
		prism_fs_memo_slot_t *s = &m->slot[h & m->mask];

		if ((s->pass == m->pass) && (s->key != key))
			continue;
		/* the same bits in, the same bits out */
		if ((s->pass != m->pass) ||
		    memcmp(s->efctv, usage_efctv, PRISM_FS_LD_BYTES) ||
		    memcmp(&s->shares_norm, &shares_norm, sizeof(double)))
			_memo_fill(s, m, key, usage_efctv, shares_norm, damp);
		return s->factor;
	}
	return prism_fs_factor(*usage_efctv, shares_norm, damp);
}
