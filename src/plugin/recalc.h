/*****************************************************************************\
 *  recalc.h - the recalculation thread: a pass every PriorityCalcPeriod.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_RECALC_H
#define PRISM_RECALC_H

#include "ctl.h"

/*
 * Load Prism's state and start the thread (its first pass runs at once).
 * Returns SLURM_SUCCESS or SLURM_ERROR (logged). Call with no lock held.
 */
extern int prism_recalc_start(void);

/* Stop the thread and wait for it (fini). */
extern void prism_recalc_stop(void);

/* End of the last recalculation pass, 0 when none ran yet. Thread-safe. */
extern time_t prism_recalc_last_ran(void);

#endif /* PRISM_RECALC_H */
