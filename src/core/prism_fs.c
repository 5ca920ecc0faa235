/*****************************************************************************\
 *  prism_fs.c - fair-share arithmetic on one association (see prism_fs.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>

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

extern double prism_fs_factor(long double usage_efctv, long double shares_norm,
			      uint32_t damp)
{
	if (shares_norm <= 0.0L)
		return 0.0;
	if (!damp)
		damp = 1;
	return pow(2.0, -((usage_efctv / shares_norm) / damp));
}
