/*****************************************************************************\
 *  sprio.h - sprio's factor list (priority_p_get_priority_factors_list).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_SPRIO_H
#define PRISM_SPRIO_H

#include "ctl.h"

/*
 * Build sprio's factor list for the jobs 'req_msg' selects that 'uid'
 * may see. Returns a list the caller frees, or NULL when there is none.
 * Takes the job read lock itself; call it inside slurmctld only.
 */
extern list_t *prism_sprio_list(priority_factors_request_msg_t *req_msg,
			     uid_t uid);

#endif /* PRISM_SPRIO_H */
