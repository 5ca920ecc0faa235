/*****************************************************************************\
 *  prism_slice.c - the job-lock budget of a pass's slice (prism_slice.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "prism_slice.h"

extern int64_t prism_slice_budget_usec(int64_t wait_usec)
{
	int64_t share = wait_usec / PRISM_SLICE_WAIT_SHARE;

	return (share > PRISM_SLICE_USEC) ? share : PRISM_SLICE_USEC;
}
