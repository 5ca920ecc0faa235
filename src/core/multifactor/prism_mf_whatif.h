/*****************************************************************************\
 *  prism_mf_whatif.h - a job's multifactor priority under changed
 *  slurm.conf priority settings, from the terms the controller computed
 *  under the settings in force: the arithmetic of `prism whatif` under
 *  policy=multifactor. The settings it knows are the six factor weights,
 *  PriorityWeightTRES and PriorityMaxAge.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MF_WHATIF_H
#define PRISM_MF_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_cols.h"
#include "prism_error.h"
#include "prism_mf_explain.h"

/*
 * Notes
 *
 * A weighted term is weight * factor, so under a new weight it is
 * new_weight * (term / old_weight). Where the old weight is 0 the
 * controller computed no factor (multifactor skips a factor whose weight
 * is 0), so the factor must come from the job's inputs instead: the age
 * from its accrue time, the partition, QOS and fair-share factors from
 * their records. The job-size and association factors and a TRES the
 * controller did not weigh have no such input here: a change that needs
 * them is refused with the reason.
 *
 * PriorityMaxAge changes the age factor: min(age, max_age) / max_age,
 * the age counted from the job's accrue time (a job that accrues no age
 * yet has the factor 0).
 */

/* The six weighted factors, in sprio's order. */
typedef enum {
	PRISM_MF_W_AGE,
	PRISM_MF_W_ASSOC,
	PRISM_MF_W_FS,
	PRISM_MF_W_JS,
	PRISM_MF_W_PART,
	PRISM_MF_W_QOS,
	PRISM_MF_W_CNT
} prism_mf_w_t;

/* How many TRES one PriorityWeightTRES may name. */
#define PRISM_MF_TRES_MAX 32

/* The settings whatif can change; 'set' marks those given. */
typedef struct {
	double w[PRISM_MF_W_CNT];
	bool w_set[PRISM_MF_W_CNT];
	uint32_t max_age;		/* seconds */
	bool max_age_set;
	/* PriorityWeightTRES: names as given ("CPU", "GRES/gpu") */
	char tres_name[PRISM_MF_TRES_MAX][64];
	double tres_w[PRISM_MF_TRES_MAX];
	size_t tres_cnt;
	bool tres_set;
} prism_mf_change_t;

/* What the controller's row cannot say, for factors weighed from 0. */
typedef struct {
	/* the factor from the job's records, NAN: not known */
	double factor[PRISM_MF_W_CNT];
	int64_t age_secs;		/* seconds since its accrue time;
					 * -1: not accruing age */
} prism_mf_inputs_t;

/* The settings in force, as the controller reports them. */
typedef struct {
	double w[PRISM_MF_W_CNT];
	uint32_t max_age;		/* seconds */
} prism_mf_now_t;

/*
 * The name of weight 'w' as slurm.conf spells it ("PriorityWeightAge").
 */
extern const char *prism_mf_w_name(prism_mf_w_t w);

/*
 * Read the setting "KEY=VALUE" 's' into 'ch' (KEY case ignored; a weight
 * an integer 0..4294967295; PriorityMaxAge in minutes or Slurm's time
 * forms, read by 'time_mins' (Slurm's own reader: minutes, or < 0 when
 * the form is bad); PriorityWeightTRES a comma list of TYPE[/NAME]=NUM).
 * Returns 0, or -1 with err naming the setting and why.
 */
extern int prism_mf_change_read(const char *s, long (*time_mins)(const char *),
				prism_mf_change_t *ch, prism_error_t *err);

/*
 * The new priority of sprio's row 'c' (its TRES named 'tres_names', their
 * weights 'tres_w' now) under 'ch' into 'out': the terms scaled to the
 * new weights, the age factor under the new PriorityMaxAge, the sum
 * clamped as Slurm stores it. An admin-set priority stays as it is.
 * Returns 0, or -1 with err set when a factor that a new weight needs
 * cannot be known (see the notes).
 */
extern int prism_mf_whatif_prio(const prism_cols_t *c,
				const char *const *tres_names,
				const double *tres_w, const prism_mf_now_t *now,
				const prism_mf_inputs_t *in,
				const prism_mf_change_t *ch,
				prism_mf_sum_t *out, prism_error_t *err);

#endif /* PRISM_MF_WHATIF_H */
