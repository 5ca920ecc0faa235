/*****************************************************************************\
 *  recalc.h - the recalculation thread: a pass every PriorityCalcPeriod.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_RECALC_H
#define PRISM_RECALC_H

#include "ctl.h"

/*
 * Load Prism's state (the end of the last pass: a job that ends from now
 * on is charged from it). Takes the assoc_mgr assoc write lock; call it
 * before the controller recovers its jobs. Returns SLURM_ERROR (logged)
 * when a state file is of a later format than this Prism reads: the
 * plugin must not start.
 */
extern int prism_recalc_init(void);

/*
 * Start the thread (its first pass runs at once); nothing when it runs.
 * Returns SLURM_SUCCESS or SLURM_ERROR (logged).
 */
extern int prism_recalc_start(void);

/* Stop the thread and wait for it (fini). */
extern void prism_recalc_stop(void);

/* End of the last recalculation pass, 0 when none ran yet. Thread-safe. */
extern time_t prism_recalc_last_ran(void);

/*
 * From when a job that ends now is to be charged: the time of the pass
 * going on when that pass charged it already, else the end of the last
 * pass. Caller holds the job write lock (as slurmctld does when it ends a
 * job).
 */
extern time_t prism_recalc_charged_from(const job_record_t *job_ptr);

#endif /* PRISM_RECALC_H */
