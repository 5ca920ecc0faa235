/*****************************************************************************\
 *  hold.h - Prism's own hold of a job: a pending job kept at priority 0
 *  with the reason WAIT_HELD and a description Prism recognises again
 *  (the Moab policy's REJECTNEGPRIOJOBS). Every policy releases such a
 *  hold when it computes the job a priority.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_HOLD_H
#define PRISM_HOLD_H

#include "ctl.h"

/*
 * Hold 'job_ptr' with the reason 'why' (shown after "Prism: "); the
 * caller sets the priority to 0. Caller holds the job write lock.
 */
extern void prism_hold_set(job_record_t *job_ptr, const char *why);

/* Is 'job_ptr' held by Prism? Caller holds the job lock. */
extern bool prism_hold_is_ours(const job_record_t *job_ptr);

/* Forget Prism's hold of 'job_ptr', if it has one (the caller gives it a
 * priority). Caller holds the job write lock. */
extern void prism_hold_release(job_record_t *job_ptr);

#endif /* PRISM_HOLD_H */
