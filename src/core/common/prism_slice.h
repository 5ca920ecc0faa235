/*****************************************************************************\
 *  prism_slice.h - how long a slice of a recalculation pass may hold
 *  slurmctld's job lock: a pass walks the jobs in slices, each taking the
 *  lock, handling jobs until its budget is spent and letting it go, so
 *  that no RPC waits long behind the pass.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_SLICE_H
#define PRISM_SLICE_H

#include <stdint.h>

/*
 * A slice that found the lock free holds it about PRISM_SLICE_USEC
 * microseconds (from when it was taken), so that the longest hold,
 * overshoot and all, stays within 2 ms.
 */
#define PRISM_SLICE_USEC 1500

/*
 * A slice that waited long for the lock holds it for up to a tenth of
 * that wait instead. slurmctld's locks are glibc's read-write locks, which
 * let a reader in while any other reader holds the lock: under a stream of
 * overlapping reads (squeue, scontrol show job from many clients) a writer
 * gets the lock only when the stream pauses, and a pass of short slices
 * waits for as many pauses as it has slices (a pass over 200,000 jobs did
 * not end in 11 minutes of continuous listings; priority/multifactor
 * waits once). With the hold a tenth of the wait, the pass needs about ten
 * times its work in waits, plus one, and each hold adds at most a tenth
 * to the wait that the lock's other users already had.
 */
#define PRISM_SLICE_WAIT_SHARE 10

/*
 * The budget in microseconds of a slice that waited 'wait_usec' for the
 * lock: the larger of PRISM_SLICE_USEC and a PRISM_SLICE_WAIT_SHARE-th of
 * the wait (a negative wait, a clock read out of order, counts as none).
 */
extern int64_t prism_slice_budget_usec(int64_t wait_usec);

#endif /* PRISM_SLICE_H */
