/*****************************************************************************\
 *  prism_prio.h - the multifactor priority sum: per-job factors, their
 *  weighted terms, and the clamped 32-bit total.
 *
 *  Part of Prism's core: pure C, no Slurm header. The adapter fills the
 *  structs below from Slurm's records; everything that is arithmetic lives
 *  here.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_PRIO_H
#define PRISM_PRIO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Notes
 *
 * A priority is the sum of weighted terms, as Slurm's multifactor plugin
 * defines it:
 *   age + assoc + fairshare + jobsize + partition + qos + tres
 *   + (site - PRISM_NICE_OFFSET) - (nice - PRISM_NICE_OFFSET)
 * clamped to 1..UINT32_MAX (0 is reserved for held jobs). Each factor is
 * computed as a value in [0,1] (or raw, with the NO_NORMAL flags) and then
 * multiplied by its weight; the weighted terms are what sprio shows.
 */

/* Slurm's offset on nice and site factor values (NICE_OFFSET). */
#define PRISM_NICE_OFFSET 0x80000000u

/* Highest priority a job can hold. */
#define PRISM_PRIO_MAX 0xffffffffu

/* The core's own names for the PriorityFlags it honours. */
enum prism_flag {
	PRISM_F_ACCRUE_ALWAYS = 1u << 0,
	PRISM_F_MAX_TRES = 1u << 1,
	PRISM_F_SIZE_RELATIVE = 1u << 2,
	PRISM_F_DEPTH_OBLIVIOUS = 1u << 3,
	PRISM_F_CALCULATE_RUNNING = 1u << 4,
	PRISM_F_FAIR_TREE = 1u << 5,
	PRISM_F_INCR_ONLY = 1u << 6,
	PRISM_F_NO_NORMAL_ASSOC = 1u << 7,
	PRISM_F_NO_NORMAL_PART = 1u << 8,
	PRISM_F_NO_NORMAL_QOS = 1u << 9,
	PRISM_F_NO_NORMAL_TRES = 1u << 10,
};

/* Weights and settings, read once per configuration. */
typedef struct {
	uint32_t weight_age;
	uint32_t weight_assoc;
	uint32_t weight_fs;
	uint32_t weight_js;
	uint32_t weight_part;
	uint32_t weight_qos;
	/*
	 * PriorityWeightTRES, one weight per TRES (NULL: not set). Owned by
	 * whoever filled the struct and never changed while it is in use:
	 * copies of the struct share it.
	 */
	const double *weight_tres;
	uint32_t tres_cnt;	/* entries in weight_tres */
	/* their TRES, those of non-zero weight first (prism_tres_wt_t's
	 * order; NULL: not built), owned as weight_tres is */
	const uint32_t *tres_order;
	uint32_t tres_on;	/* weights that are not 0 */
	uint32_t max_age;	/* PriorityMaxAge, seconds */
	uint32_t flags;		/* enum prism_flag bits */
	bool favor_small;	/* PriorityFavorSmall */
	/*
	 * PriorityFavorSmall when a job asks for at least the cluster's
	 * node count: its node part is 0 (Slurm 24.11's multifactor), or,
	 * when false, what unsigned arithmetic makes of the difference (Slurm
	 * 22.05's: the factor then caps at 1).
	 */
	bool small_node_floor;
} prism_prio_conf_t;

/* Cluster-wide values, refreshed once per recalculation pass. */
typedef struct {
	uint32_t cluster_cpus;
	uint32_t node_count;
} prism_world_t;

/*
 * The inputs of one job, as compact as the sum needs. Partition, QOS and
 * association factors are the job's own values: normalised by Slurm
 * (PriorityJobFactor / highest, ...) or raw, chosen by the adapter with
 * prism_pick_factor().
 */
typedef struct {
	int64_t accrue_time;	/* 0: not accruing age */
	uint32_t cpus;		/* CPUs requested or allocated, 0: unknown */
	uint32_t min_nodes;
	uint32_t time_limit;	/* minutes, for SMALL_RELATIVE_TO_TIME */
	double part_factor;	/* of the job's partition, 0: none */
	double assoc_factor;
	double qos_factor;
	double fs_factor;	/* fair-share factor in [0,1] */
	uint32_t site;		/* site factor, with PRISM_NICE_OFFSET */
	uint32_t nice;		/* nice, with PRISM_NICE_OFFSET */
} prism_job_t;

/* Weighted terms of one job: what sprio shows, and what adds up. */
typedef struct {
	double age;
	double assoc;
	double fs;
	double js;
	double part;
	double qos;
	double tres;
	uint32_t site;		/* raw, with PRISM_NICE_OFFSET */
	uint32_t nice;		/* raw, with PRISM_NICE_OFFSET */
} prism_terms_t;

/*
 * Age factor in [0,1]: time since 'accrue_time' over 'max_age' seconds,
 * 1.0 at or beyond max_age, 0 when the job accrues no age yet.
 */
extern double prism_age_factor(int64_t accrue_time, int64_t now,
			       uint32_t max_age);

/*
 * Job-size factor in [0,1] for 'job' under 'conf' (favour-large,
 * PriorityFavorSmall, SMALL_RELATIVE_TO_TIME) on a cluster 'world'.
 * Returns 0 when the world has no nodes or CPUs.
 */
extern double prism_size_factor(const prism_prio_conf_t *conf,
				const prism_world_t *world,
				const prism_job_t *job);

/*
 * Pick the normalised or the raw value of a factor: returns 'raw' when
 * 'no_normal' is set, else 'norm'.
 */
extern double prism_pick_factor(bool no_normal, double norm, double raw);

/* The weighted partition term for a partition 'factor'. */
extern double prism_part_term(const prism_prio_conf_t *conf, double factor);

/*
 * Fill 'out' with the weighted terms of 'job' at time 'now'. Terms whose
 * weight is 0 are 0. out->tres is left 0 (TRES terms come from the TRES
 * module). Never fails.
 */
extern void prism_prio_terms(const prism_prio_conf_t *conf,
			     const prism_world_t *world,
			     const prism_job_t *job, int64_t now,
			     prism_terms_t *out);

/* The site factor and nice of 'terms' without Slurm's offset. */
extern int64_t prism_term_site(const prism_terms_t *terms);
extern int64_t prism_term_nice(const prism_terms_t *terms);

/*
 * Sum of the terms, clamped to 1..PRISM_PRIO_MAX. Sets *clamped_high when
 * the sum exceeded 32 bits (NULL allowed).
 */
extern uint32_t prism_prio_total(const prism_terms_t *terms,
				 bool *clamped_high);

/*
 * The priority of the same job in another partition: 'terms' with the
 * partition term replaced by 'part_term' and the TRES term by 'tres_term'
 * (both weighted), clamped like prism_prio_total().
 */
extern uint32_t prism_prio_total_in_part(const prism_terms_t *terms,
					 double part_term, double tres_term,
					 bool *clamped_high);

/*
 * The priority of the same job in one entry of a multi-partition,
 * multi-QOS job: as prism_prio_total_in_part() with the QOS term replaced
 * by 'qos_term' too.
 */
extern uint32_t prism_prio_total_in_entry(const prism_terms_t *terms,
					  double part_term, double qos_term,
					  double tres_term,
					  bool *clamped_high);

/*
 * The weighted QOS term of an entry for one QOS of a multi-QOS job: that
 * QOS's 'factor' (its normalised or raw priority) when the QOS has a
 * priority ('has_prio') and PriorityWeightQOS is set; else the job's own
 * term terms->qos (what Slurm 24.11's multifactor does).
 */
extern double prism_entry_qos_term(const prism_prio_conf_t *conf,
				   const prism_terms_t *terms, bool has_prio,
				   double factor);

/*
 * Apply INCR_ONLY: returns 'computed', or 'current' when 'incr_only' is
 * set and 'current' is not lower.
 */
extern uint32_t prism_prio_update(bool incr_only, uint32_t current,
				  uint32_t computed);

#endif /* PRISM_PRIO_H */
