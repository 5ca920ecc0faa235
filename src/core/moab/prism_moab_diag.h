/*****************************************************************************\
 *  prism_moab_diag.h - Moab's `mdiag -p` table for `prism explain`: which
 *  components and subcomponents a policy shows, the header, weights, job
 *  and "Percent Contribution" rows, and the helpers that read a job's
 *  memory out of Slurm's TRES strings.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MOAB_DIAG_H
#define PRISM_MOAB_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"
#include "prism_moab.h"
#include "prism_moab_conf.h"

/*
 * Notes
 *
 * The table, one line each (Moab's layout, Prism's figures):
 *
 *   Job              Slurm   PRIORITY*      Cred( User:Group)   Serv(QTime)
 *   Weights       --------    --------         1(  100:   10)      1(    1)
 *   12                1472        1471      1021(   10:    0)    420(  120)
 *   Percent Contribution                    70.8( 70.8:  0.0)   29.2( 29.2)
 *
 * Columns: the components whose weight is not 0 and that have at least
 * one shown subcomponent; a subcomponent is shown when its weight, or the
 * weight a credential adds to it (QOSCFG QTWEIGHT/XFWEIGHT, *CFG
 * FSWEIGHT), is not 0. A job row holds its Slurm priority, its Moab
 * priority ('*': a system priority), each component's contribution (the
 * controller's figure) and, in parentheses, the subcomponent values.
 * "Percent Contribution" is each component's share of the sum, over the
 * rows, of the absolute contributions; a subcomponent gets the part of
 * its component's share that its absolute weighted terms make up (the
 * terms of a job with a system priority count for nothing: they do not
 * make its priority).
 * Unknown figures print as '?'.
 */

/* What a table shows. */
typedef struct {
	bool comp[PRISM_MC_CNT];
	bool sub[PRISM_MS_CNT];
} prism_moab_diag_cols_t;

/* One job's row. */
typedef struct {
	char label[32];			/* the job: its id */
	uint32_t slurm;			/* Slurm priority */
	int64_t prio;			/* Moab priority */
	bool sys;			/* a system priority: marked '*' */
	bool comp_known;		/* false: contributions print '?' */
	double comp[PRISM_MC_CNT];	/* component contributions */
	double value[PRISM_MS_CNT];	/* subcomponent values */
	double term[PRISM_MS_CNT];	/* weighted terms, for the footer */
	bool unknown[PRISM_MS_CNT];	/* value unknown: prints '?' */
} prism_moab_diag_row_t;

/* Sums over the rows, for "Percent Contribution". Start zeroed. */
typedef struct {
	double comp[PRISM_MC_CNT];	/* sum of |contribution| */
	double term[PRISM_MS_CNT];	/* sum of |CWEIGHT * term| */
	bool unknown[PRISM_MS_CNT];	/* some row's value is unknown */
	unsigned rows;
} prism_moab_diag_sum_t;

/* The columns of 'pol' into 'out' (all false for a NULL 'pol'). */
extern void prism_moab_diag_cols(const prism_moab_policy_t *pol,
				 prism_moab_diag_cols_t *out);

/*
 * Fill 'row' (label, Slurm priority and sys flag set by the caller) from
 * the core's result 'res' under 'pol': the Moab priority behind the Slurm
 * priority (res->prio when that is 0), values and terms from 'res'; the
 * contributions from 'cols' (the controller's sprio columns, TARGET taking
 * its column less the truncated USAGE contribution), or from 'res' itself
 * when 'cols' is NULL. comp_known is set; unknown[] is cleared.
 */
extern void prism_moab_diag_row_fill(prism_moab_diag_row_t *row,
				     const prism_moab_policy_t *pol,
				     const prism_moab_result_t *res,
				     const prism_moab_columns_t *cols);

/*
 * Write the header, the "Weights" row under 'pol', a job's row, or the
 * "Percent Contribution" row of 'sum' into 'buf' of 'size' bytes, one
 * line with its newline. Each returns the length, or -1 with err set when
 * 'buf' is too small or an argument is NULL.
 */
extern int prism_moab_diag_header(const prism_moab_diag_cols_t *cols,
				  char *buf, size_t size, prism_error_t *err);
extern int prism_moab_diag_weights(const prism_moab_diag_cols_t *cols,
				   const prism_moab_policy_t *pol, char *buf,
				   size_t size, prism_error_t *err);
extern int prism_moab_diag_row(const prism_moab_diag_cols_t *cols,
			       const prism_moab_diag_row_t *row, char *buf,
			       size_t size, prism_error_t *err);
extern int prism_moab_diag_footer(const prism_moab_diag_cols_t *cols,
				  const prism_moab_diag_sum_t *sum, char *buf,
				  size_t size, prism_error_t *err);

/*
 * Add 'row' to 'sum' ('pol' gives the component weights). Rows whose
 * contributions are unknown add nothing, rows with a system priority
 * only their contributions. NULL arguments are ignored.
 */
extern void prism_moab_diag_add(prism_moab_diag_sum_t *sum,
				const prism_moab_policy_t *pol,
				const prism_moab_diag_row_t *row);

/*
 * The percentages of 'sum' under 'cols': comp_pct[c] for each component
 * (0 when every contribution is 0), sub_pct[s] for each shown
 * subcomponent, NAN for the subcomponents of a component where one value
 * is unknown.
 */
extern void prism_moab_diag_percent(const prism_moab_diag_cols_t *cols,
				    const prism_moab_diag_sum_t *sum,
				    double comp_pct[PRISM_MC_CNT],
				    double sub_pct[PRISM_MS_CNT]);

/*
 * The 'name'= entry ("mem") of a Slurm TRES string such as
 * "cpu=4,mem=8000M,node=1,billing=4" in MB: prism_tres_str_get().
 */
extern int prism_moab_diag_tres_mb(const char *tres, const char *name,
				   uint64_t *mb);

#endif /* PRISM_MOAB_DIAG_H */
