/*****************************************************************************\
 *  prism_fs.h - fair-share arithmetic on one association: normalised
 *  usage, classic effective usage, and the 2^(-UE/S/d) factor.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_FS_H
#define PRISM_FS_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Usage of an association relative to the root's, in [0,1].
 * Returns 0 when the root has no usage.
 */
extern long double prism_fs_usage_norm(long double usage_raw,
				       long double root_usage_raw);

/*
 * Classic effective usage UE = UA + (UE_parent - UA) * S / S_siblings of
 * an association with normalised usage 'ua', raw shares 'shares' among
 * siblings holding 'sibling_shares' in all. Returns 'ue_parent' when the
 * siblings hold no shares.
 */
extern long double prism_fs_usage_efctv(long double ua, long double ue_parent,
					uint32_t shares,
					uint32_t sibling_shares);

/*
 * DEPTH_OBLIVIOUS effective usage of an association with normalised usage
 * 'usage_norm' and shares 'shares_norm', whose fair-share parent has
 * effective usage 'parent_efctv' and shares 'parent_shares_norm', and
 * whose siblings (itself included, FairShare=parent ones excluded) have
 * the normalised usages 'siblings[0..n-1]'. Returns usage_norm when any
 * of the four inputs is 0.
 */
extern long double prism_fs_usage_efctv_depth_oblivious(
	long double usage_norm, long double shares_norm,
	long double parent_efctv, long double parent_shares_norm,
	const long double *siblings, size_t n);

/*
 * Classic fair-share factor 2^(-(UE / S) / damp) for effective usage
 * 'usage_efctv' and normalised shares 'shares_norm'. Returns 0 when the
 * association holds no shares; 'damp' of 0 is taken as 1.
 */
extern double prism_fs_factor(long double usage_efctv, long double shares_norm,
			      uint32_t damp);

/*
 * Classic factors already taken in a pass: the jobs of one association
 * share its factor, a power that costs about a hundred instructions. A
 * slot per association (found by 'key', the association's address, with
 * linear probing) keeps the inputs' bits and their factor; a slot whose
 * inputs differ is computed again, so the result is prism_fs_factor()'s,
 * bit for bit. Slots of earlier passes, or taken with another damping,
 * count as empty.
 */
/* The bytes of a long double that hold its value: x87's ten of sixteen,
 * else all of them. */
#if (LDBL_MANT_DIG == 64) && (LDBL_MAX_EXP == 16384)
#define PRISM_FS_LD_BYTES 10
#else
#define PRISM_FS_LD_BYTES sizeof(long double)
#endif

typedef struct {
	const void *key;
	unsigned char efctv[PRISM_FS_LD_BYTES];	/* usage_efctv's bits */
	uint32_t pass;		/* the pass that filled it */
	double shares_norm;
	double factor;
} prism_fs_memo_slot_t;

typedef struct {
	prism_fs_memo_slot_t *slot;	/* NULL: every factor computed */
	uint32_t mask;			/* slots - 1 (a power of two) */
	uint32_t pass;			/* the pass now (never 0) */
	uint32_t damp;			/* of the pass's factors */
} prism_fs_memo_t;

/*
 * A pass begins with about 'keys' associations: the slots of earlier
 * passes dropped, room made for at least 4/3 as many slots as keys (40
 * bytes each with x87's long double, at most PRISM_FS_MEMO_MAX). Returns false when out of
 * memory, leaving 'm' without slots.
 */
#define PRISM_FS_MEMO_MAX (1u << 21)
extern bool prism_fs_memo_begin(prism_fs_memo_t *m, uint32_t keys);

extern void prism_fs_memo_free(prism_fs_memo_t *m);

/* prism_fs_factor(*usage_efctv, shares_norm, damp), through 'm' (NULL:
 * computed). (The usage by its address: read as bits, not loaded.) */
extern double prism_fs_factor_memo(prism_fs_memo_t *m, const void *key,
				   const long double *usage_efctv,
				   double shares_norm, uint32_t damp);

#endif /* PRISM_FS_H */
