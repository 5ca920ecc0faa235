/*****************************************************************************\
 *  prism_ge_diag.h - Grid Engine's `qstat -pri` and `qstat -urg` tables
 *  for `prism explain`: a job's row from the controller's sprio columns
 *  (normalised back) and its recomputed urgency, and the header and row
 *  lines of both tables.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_GE_DIAG_H
#define PRISM_GE_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"
#include "prism_ge.h"
#include "prism_ge_conf.h"

/*
 * Notes
 *
 * The tables, one line each (qstat's layout, Prism's figures):
 *
 *   job-ID     prior   nurg    npprior ntckts   ppri
 *   12         0.75000 1.00000       - 0.50000     0
 *
 *   job-ID     prior   nurg             urg   rrcontr   wtcontr   dlcontr
 *   12         0.75000 1.00000         5001      4000      1001         0
 *
 * (qstat's line of dashes under each header left out here).
 *
 * prior, nurg, ntckts and npprior come from the controller: its Slurm
 * priority and sprio columns (prism_ge_sprio()) divided back by the
 * scale S and the weights (prior = prism_ge_from_slurm(), nurg = urgency
 * part / (S * weight_urgency), ...); a value whose weight is 0, or of a
 * job without columns, cannot be read back and prints as '-'. urg and
 * its parts and ppri are recomputed from the job by the caller
 * (prism_ge_urgency(), prism_ge_posix_prio()).
 */

/* One job's row of both tables. */
typedef struct {
	char label[32];		/* the job: its id */
	uint32_t slurm;		/* the controller's Slurm priority */
	bool known;		/* the controller sent sprio columns */
	double prio;		/* read back from the controller: 0..W */
	double nurg;		/* 0..1, NAN when it cannot be read back */
	double ntckts;
	double npprior;
	int32_t ppri;		/* recomputed: POSIX priority */
	double urg;		/* recomputed urgency and its parts */
	double rrcontr;
	double wtcontr;
	double dlcontr;
} prism_ge_diag_row_t;

/*
 * Fill 'row' for the job 'label' under 'pol': the controller's priority
 * 'slurm' and its columns 'cols' (NULL: none sent), the recomputed
 * urgency of 'res' (rrcontr, wtcontr, dlcontr, urg) and 'ppri'. Returns
 * 0, or -1 with err set for a NULL 'pol', 'res', 'label' or 'row' ('row'
 * untouched then).
 */
extern int prism_ge_diag_row_fill(const prism_ge_policy_t *pol,
				  const char *label, uint32_t slurm,
				  const prism_ge_sprio_t *cols,
				  const prism_ge_result_t *res, int32_t ppri,
				  prism_ge_diag_row_t *row, prism_error_t *err);

/*
 * The qstat -pri header (two lines) or one job's row of it into 'buf' of
 * 'size' bytes, each line ending in '\n'. Return the length, or -1 with
 * err set when 'buf' is too small or an argument is NULL.
 */
extern int prism_ge_diag_pri_header(char *buf, size_t size,
				    prism_error_t *err);
extern int prism_ge_diag_pri_row(const prism_ge_diag_row_t *row, char *buf,
				 size_t size, prism_error_t *err);

/* The same for qstat -urg. */
extern int prism_ge_diag_urg_header(char *buf, size_t size,
				    prism_error_t *err);
extern int prism_ge_diag_urg_row(const prism_ge_diag_row_t *row, char *buf,
				 size_t size, prism_error_t *err);

#endif /* PRISM_GE_DIAG_H */
