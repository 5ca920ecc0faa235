/*****************************************************************************\
 *  prism_cols.c - a job's sprio columns (see prism_cols.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>

#include "prism_cols.h"

extern prism_cols_kind_t prism_cols_kind(const prism_cols_t *c)
{
	if (!c)
		return PRISM_COLS_NONE;
	if (c->direct_prio > 0)
		return PRISM_COLS_ADMIN;
	if (!c->site && !c->nice)
		return PRISM_COLS_NONE;
	return PRISM_COLS_POLICY;
}

extern uint32_t prism_cols_prio32(double v)
{
	if (!(v > 0))
		return 0;
	return v >= (double) UINT32_MAX ? UINT32_MAX : (uint32_t) v;
}
