/*****************************************************************************\
 *  hold.c - Prism's own hold of a job, recognised by its description.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "hold.h"

/* state_desc of a job Prism holds; how it knows its own holds again. */
#define HOLD_MARK "Prism: "

extern void prism_hold_set(job_record_t *job_ptr, const char *why)
{
	job_ptr->state_reason = WAIT_HELD;
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup_printf(HOLD_MARK "%s", why);
}

extern bool prism_hold_is_ours(const job_record_t *job_ptr)
{
	return !job_ptr->priority && job_ptr->state_reason == WAIT_HELD &&
	       !xstrncmp(job_ptr->state_desc, HOLD_MARK, strlen(HOLD_MARK));
}

extern void prism_hold_release(job_record_t *job_ptr)
{
	if (!prism_hold_is_ours(job_ptr))
		return;
	job_ptr->state_reason = WAIT_NO_REASON;
	xfree(job_ptr->state_desc);
}
