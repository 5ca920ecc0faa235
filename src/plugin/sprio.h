/*****************************************************************************\
 *  sprio.h - sprio's factor list (priority_p_get_priority_factors_list).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_SPRIO_H
#define PRISM_SPRIO_H

#include "ctl.h"

#ifdef PRISM_SPRIO_UID_ONLY
/*
 * Build sprio's factor list: the rows of the jobs 'uid' may see, one per
 * entry of a job's priority array. Returns a list the caller frees, or
 * NULL when there is none. The caller holds the job, node and partition
 * read locks and the assoc_mgr QOS read lock (sprio itself filters by
 * job, user and partition); call it inside slurmctld only.
 */
extern list_t *prism_sprio_list(uid_t uid);
#else
/*
 * Build sprio's factor list for the jobs 'req_msg' selects (NULL: all;
 * sprio filters itself) that 'uid' may see. Returns a list the caller
 * frees, or NULL when there is none. Takes the job read lock itself
 * unless the caller holds it (PRISM_SPRIO_CALLER_LOCKS); call it inside
 * slurmctld only.
 */
extern list_t *prism_sprio_list(priority_factors_request_msg_t *req_msg,
				uid_t uid);
#endif

#endif /* PRISM_SPRIO_H */
