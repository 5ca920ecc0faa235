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

#endif /* PRISM_FS_H */
