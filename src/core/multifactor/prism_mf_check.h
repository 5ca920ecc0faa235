/*****************************************************************************\
 *  prism_mf_check.h - `prism check` under policy=multifactor: the
 *  slurm.conf priority settings admins get wrong, as findings naming the
 *  key each one is about.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O. The caller
 *  (src/cli/cli_check_mf.c) reads slurm.conf with Slurm's own parser and
 *  hands in the values here; it also finds the line of each key.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MF_CHECK_H
#define PRISM_MF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * The rules (man/prism.1, CHECK UNDER MULTIFACTOR, says the same):
 *  SUM      the six weights plus every PriorityWeightTRES weight exceed
 *           4294967295: each normalised factor is at most 1, so the sum
 *           of the weights is the highest priority multifactor can
 *           compute, and Slurm cuts anything above 2^32-1 to it.
 *  ZERO     a weight of 0 while a setting feeds only that term:
 *           PriorityWeightJobSize=0 with PriorityFavorSmall=YES or
 *           SMALL_RELATIVE_TO_TIME; PriorityWeightFairshare=0 with
 *           NO_FAIR_TREE or DEPTH_OBLIVIOUS, or with a half-life or
 *           reset period away from Slurm's default (then they only
 *           affect usage limits); PriorityWeightAge=0 with a
 *           PriorityMaxAge away from the default or ACCRUE_ALWAYS;
 *           NO_NORMAL_ASSOC/_PART/_QOS/_TRES with that weight 0 (not
 *           when all four are set: that is NO_NORMAL_ALL).
 *  ALLZERO  every weight 0: every job's priority is 1 (FIFO).
 *  MAXAGE   PriorityMaxAge shorter than PriorityCalcPeriod: the age
 *           factor jumps from 0 to 1 between two recalculations.
 *  DECAY    PriorityDecayHalfLife=0 with PriorityUsageResetPeriod=NONE:
 *           usage never decays nor resets (Slurm itself refuses it).
 *  TINY     a TRES weight above 0 and below 1 without NO_NORMAL_TRES:
 *           the TRES factor is at most 1, so the term adds less than one
 *           point to an integer priority.
 *  APART    a non-zero weight w with w * 1e6 < W, W the largest weight
 *           (TRES weights included): the term adds at most w points
 *           where the largest adds up to W, so it can only reorder jobs
 *           whose larger terms agree to one part in a million, finer
 *           than sshare prints a fair-share factor (6 decimals): in
 *           practice only ties. Not repeated for a TINY weight.
 *  TRES     a PriorityWeightTRES name (type or type/name, case ignored)
 *           that is not in 'tres_names' (AccountingStorageTRES as Slurm
 *           read it, its always-on TRES included): slurmctld stops on
 *           it. An item that is not NAME=NUMBER[KMGTP] is reported too.
 *           These findings are errors (finding.error): slurmctld refuses
 *           the file, so a check must not pass it.
 *  FLAGS    a PriorityFlags item (comma list, case ignored) that names no
 *           flag. Slurm looks for each flag's name anywhere in the value
 *           (xstrcasestr), so an item that contains one (NO_FAIR_TREEX) is
 *           read as that flag, and the finding says so; any other is
 *           ignored without a word, so a misspelt flag is simply not in
 *           force.
 */

/* PriorityFlags, as Slurm reads them (the caller maps Slurm's bits). */
#define PRISM_MF_F_ACCRUE_ALWAYS 0x0001
#define PRISM_MF_F_MAX_TRES 0x0002
#define PRISM_MF_F_SIZE_RELATIVE 0x0004 /* SMALL_RELATIVE_TO_TIME */
#define PRISM_MF_F_DEPTH_OBLIVIOUS 0x0008
#define PRISM_MF_F_CALCULATE_RUNNING 0x0010
#define PRISM_MF_F_FAIR_TREE 0x0020 /* Slurm's default; NO_FAIR_TREE clears */
#define PRISM_MF_F_INCR_ONLY 0x0040
#define PRISM_MF_F_NO_NORMAL_ASSOC 0x0080
#define PRISM_MF_F_NO_NORMAL_PART 0x0100
#define PRISM_MF_F_NO_NORMAL_QOS 0x0200
#define PRISM_MF_F_NO_NORMAL_TRES 0x0400

/* Slurm's defaults (its read_config.h), in seconds. */
#define PRISM_MF_DEFAULT_DECAY 604800	/* PriorityDecayHalfLife, MaxAge */
#define PRISM_MF_DEFAULT_CALC 300	/* PriorityCalcPeriod */

/* At most this many findings are kept; more are counted, not kept. */
#define PRISM_MF_FINDINGS_MAX 32

/* The slurm.conf priority settings as Slurm read them. */
typedef struct {
	uint32_t weight_age, weight_fs, weight_js;
	uint32_t weight_part, weight_qos, weight_assoc;
	const char *weight_tres;	/* PriorityWeightTRES, NULL: none */
	uint32_t flags;			/* PRISM_MF_F_* */
	uint32_t max_age;		/* PriorityMaxAge, seconds */
	uint32_t calc_period;		/* PriorityCalcPeriod, seconds */
	uint32_t decay_hl;		/* PriorityDecayHalfLife, seconds */
	const char *reset;		/* PriorityUsageResetPeriod: NONE,
					 * NOW, DAILY, ...; NULL: NONE */
	bool favor_small;		/* PriorityFavorSmall=YES */
	const char *tres_names;		/* the cluster's TRES, comma list */
	const char *flags_text;		/* PriorityFlags as written, NULL:
					 * not known (FLAGS not checked) */
} prism_mf_settings_t;

typedef enum {
	PRISM_MF_SUM,
	PRISM_MF_ZERO,
	PRISM_MF_ALLZERO,
	PRISM_MF_MAXAGE,
	PRISM_MF_DECAY,
	PRISM_MF_TINY,
	PRISM_MF_APART,
	PRISM_MF_TRES,
	PRISM_MF_FLAGS,
} prism_mf_rule_t;

/* One warning: "KEY=VALUE: text", or only the text when key is NULL. */
typedef struct {
	prism_mf_rule_t rule;
	bool error;			/* slurmctld refuses the file */
	const char *key;		/* static; NULL: no single key */
	char *value;			/* as Slurm read it */
	char *text;			/* what is wrong */
} prism_mf_finding_t;

typedef struct {
	prism_mf_finding_t item[PRISM_MF_FINDINGS_MAX];
	size_t cnt;			/* kept in item[] */
	size_t lost;			/* found beyond PRISM_MF_FINDINGS_MAX */
} prism_mf_findings_t;

/*
 * Check 's' into 'out' (cleared first; the caller frees it with
 * prism_mf_findings_free()): findings about PriorityWeightTRES items
 * first, then FLAGS, SUM/ALLZERO, ZERO, MAXAGE, DECAY, TINY/APART. A finding that
 * does not fit or cannot be allocated is counted in out->lost. Returns 0,
 * or -1 with err set when 's' or 'out' is NULL.
 */
extern int prism_mf_check(const prism_mf_settings_t *s,
			  prism_mf_findings_t *out, prism_error_t *err);

/* Free the strings of 'out' and clear it; NULL is ignored. */
extern void prism_mf_findings_free(prism_mf_findings_t *out);

/*
 * 'secs' as Slurm writes a time ("7-00:00:00", "00:05:00") into 'buf' of
 * 'size'. Never fails (truncates to 'size').
 */
extern void prism_mf_time_str(uint32_t secs, char *buf, size_t size);

/*
 * The names of the flags set in 'flags' as PriorityFlags spells them
 * ("NO_FAIR_TREE,ACCRUE_ALWAYS"; "FAIR_TREE" when nothing else: the
 * default) into 'buf' of 'size'. Never fails (truncates; every flag set
 * fits in PRISM_MF_FLAGS_STR_MAX, as a unit test checks).
 */
#define PRISM_MF_FLAGS_STR_MAX 256
extern void prism_mf_flags_str(uint32_t flags, char *buf, size_t size);

#endif /* PRISM_MF_CHECK_H */
