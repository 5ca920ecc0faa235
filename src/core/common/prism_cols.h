/*****************************************************************************\
 *  prism_cols.h - a job's sprio columns as the core sees them: the eight
 *  numbers of Slurm's priority factors (AGE, ASSOC, FAIRSHARE, JOBSIZE,
 *  PARTITION, QOS, SITE, NICE) that the plugin writes for a job and that
 *  `prism explain` reads back from sprio. What each policy puts in them
 *  is its codec's business (prism_moab_cols_*(), prism_ge_cols_*()), so
 *  writing and reading are done by the same code; the adapter and the
 *  prism command only copy the numbers.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_COLS_H
#define PRISM_COLS_H

#include <stdint.h>

#include "prism_marks.h"

/*
 * Notes
 *
 * Slurm's sprio shows a job's PRIORITY as the sum of its columns, with
 * NICE counted as (nice - NICE_OFFSET) subtracted. SITE and NICE are
 * unsigned and offset by PRISM_NICE_OFFSET (Slurm's NICE_OFFSET), so a
 * policy can put a negative amount in SITE. A row whose SITE and NICE
 * are both 0 carries no columns: the plugin could not compute the job.
 */

/* sprio's columns of one job, as in Slurm's priority factors. */
typedef struct {
	double age, assoc, fs, js, part, qos;
	uint32_t site;
	uint32_t nice;
	/* Read back only (the plugin writes neither): */
	double direct_prio;	/* sprio's admin-set priority, 0: none */
	const double *tres;	/* sprio's TRES columns, tres_cnt of them */
	uint32_t tres_cnt;
} prism_cols_t;

/* What a row read back stands for. */
typedef enum {
	PRISM_COLS_NONE,	/* no columns: the plugin could not compute */
	PRISM_COLS_ADMIN,	/* an admin-set priority, no columns */
	PRISM_COLS_POLICY,	/* the policy's columns */
} prism_cols_kind_t;

/* What 'c' stands for (see the notes); NULL is PRISM_COLS_NONE. */
extern prism_cols_kind_t prism_cols_kind(const prism_cols_t *c);

/*
 * sprio's priority 'v' (a double) as Slurm's 32-bit priority: 0 when not
 * above 0 (or NaN), UINT32_MAX from there on, else truncated.
 */
extern uint32_t prism_cols_prio32(double v);

#endif /* PRISM_COLS_H */
