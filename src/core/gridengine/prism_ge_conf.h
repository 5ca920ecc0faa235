/*****************************************************************************\
 *  prism_ge_conf.h - a Grid Engine scheduler configuration (what
 *  `qconf -ssconf` prints, sched_conf(5)) plus Prism's keys for what
 *  sched_conf has no line for, read into a policy: the weights of the
 *  three priority contributions, the urgency, ticket and usage-decay
 *  parameters, and per-user, per-account, per-partition and per-resource
 *  values.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_GE_CONF_H
#define PRISM_GE_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * Syntax. One parameter a line, "name value", the way `qconf -ssconf`
 * prints it, so an administrator can paste that output. '#' starts a
 * comment that runs to the end of the line; blank lines and CR LF line
 * ends are fine. Names are matched without regard to case; the names in
 * brackets (users, accounts, partitions, resources) are case-sensitive.
 * A parameter given twice must have the same value both times (else an
 * error naming both lines). Keys that are not about priority, Grid
 * Engine 8.x's (backfilling, preemption_*, fair_urgency_list, the host
 * and queue sort weights weight_host_* and weight_queue_*) and any key
 * Prism does not know are accepted with a notice; an unknown weight_*
 * is a misspelling: an error suggesting the nearest name.
 *
 * sched_conf(5) parameters about priority, with their defaults. The
 * first four defaults are the seed's site (priority = 0.5 * nurg + 0.5 *
 * ntckts, 0.278 per second of waiting), not stock Grid Engine's (which
 * are weight_priority 1, weight_urgency 0.1, weight_ticket 0.01,
 * weight_waiting_time 0); the rest are Grid Engine's.
 *
 *   weight_priority            0        weight of the POSIX priority
 *   weight_urgency             0.5      weight of the normalised urgency
 *   weight_ticket              0.5      weight of the normalised tickets
 *   weight_waiting_time        0.278    urgency per second of waiting
 *   weight_deadline            3600000  urgency of a deadline (over the
 *                                       seconds left)
 *   halftime                   168      usage half-life, hours; 0: none
 *   compensation_factor        5        share-tree compensation
 *   weight_tickets_share       0        share-tree ticket pool
 *   weight_tickets_functional  0        functional ticket pool
 *   weight_user                0.25     functional weights; Slurm
 *   weight_project             0.25       accounts play GE's projects;
 *   weight_department          0.25       there are no departments, so
 *   weight_job                 0.25       that weight only dilutes
 *   share_override_tickets     TRUE     split an object's override
 *                                       tickets among its jobs
 *   share_functional_shares    TRUE     likewise functional shares
 *   max_functional_jobs_to_schedule 200 jobs ordered by the functional
 *                                       policy per pass
 *   report_pjob_tickets        TRUE     kept, no effect in Prism
 *   policy_hierarchy           OFS      O, F, S once each, or NONE
 *
 * Weights and urgencies are decimal numbers 0..1e9 (weight_deadline
 * 0..1e12); a negative, non-finite or hexadecimal value is an error.
 * Ticket pools and shares are integers 0..1e9, halftime 0..1000000,
 * max_functional_jobs_to_schedule 0..1000000. Booleans are TRUE/FALSE
 * (also YES/NO, 1/0).
 *
 * Prism's keys (NAME in brackets):
 *
 *   urgency_slots V                   urgency per slot (CPU); default
 *                                     1000, GE's complex "slots"
 *   urgency[RES] V                    urgency per unit of resource RES
 *                                     the job requests in total: slots
 *                                     (alias cpu), mem (per MB), nodes
 *                                     (alias node), or any Slurm TRES or
 *                                     GRES name (gres/gpu, license/x,
 *                                     ...); urgency_slots V is
 *                                     urgency[slots] V
 *   urgency_partition[PART] V         urgency of a job in partition PART
 *                                     (the seed's +40000 per queue)
 *   override_tickets_user[USER] N     override tickets (qconf -muser
 *   override_tickets_account[ACCT] N    oticket; accounts for projects)
 *   functional_shares_user[USER] N    functional shares (fshare)
 *   functional_shares_account[ACCT] N
 *
 * Other sched_conf(5) parameters (algorithm, schedule_interval,
 * maxujobs, queue_sort_method, job_load_adjustments,
 * load_adjustment_decay_time, load_formula, schedd_job_info,
 * flush_submit_sec, flush_finish_sec, params, reprioritize_interval,
 * max_reservation, default_duration, max_pending_tasks_per_job) are
 * accepted with a notice "file:line: NAME: not a priority parameter,
 * ignored"; usage_weight_list, halflife_decay_list and
 * weight_tickets_override (computed by GE's scheduler) with "file:line:
 * NAME: not modelled by Prism, ignored". Any other name is an error.
 * Errors read "file:line: what is wrong"; an empty (zero-byte) text is
 * "file: file is empty"; a text of comments and blank lines gives every
 * default.
 *
 * Handles are indices into the policy's tables of users, accounts,
 * partitions and resources: stable for the life of the policy, assigned
 * in the order names first appear. Lookups by name are O(1) (hash). The
 * first three resources are always slots, mem and nodes
 * (PRISM_GE_RES_*). PRISM_GE_NONE stands for a name without a line.
 */

/* Longest line accepted, in bytes, without its newline. */
#define PRISM_GE_LINE_MAX 1024

/* Handle of a name the policy does not know. */
#define PRISM_GE_NONE UINT32_MAX

/* The resources every policy has, by handle. */
#define PRISM_GE_RES_SLOTS 0
#define PRISM_GE_RES_MEM 1
#define PRISM_GE_RES_NODES 2

/* Kinds of named entries. */
typedef enum {
	PRISM_GE_USER,
	PRISM_GE_ACCOUNT,
	PRISM_GE_PARTITION,
	PRISM_GE_RESOURCE,
	PRISM_GE_KIND_CNT
} prism_ge_kind_t;

/* The ticket policies, in Grid Engine's order (O, F, S). */
typedef enum {
	PRISM_GE_OVERRIDE,
	PRISM_GE_FUNCTIONAL,
	PRISM_GE_SHARETREE,
	PRISM_GE_TPOLICY_CNT
} prism_ge_tpolicy_t;

/* The scalar parameters of a policy. */
typedef struct {
	double weight_priority;
	double weight_urgency;
	double weight_ticket;
	double weight_waiting_time;
	double weight_deadline;
	uint32_t halftime;			/* hours, 0: no decay */
	double compensation_factor;
	uint32_t weight_tickets_share;
	uint32_t weight_tickets_functional;
	double weight_user;
	double weight_project;			/* Slurm accounts */
	double weight_department;
	double weight_job;
	bool share_override_tickets;
	bool share_functional_shares;
	bool report_pjob_tickets;
	uint32_t max_functional_jobs;		/* ..._to_schedule */
	char policy_hierarchy[4];		/* "OFS", ..., "" for NONE */
	/* policy_hierarchy expanded as GE's scheduler does: the listed
	 * policies in their order (dependent), then the others in O, F, S
	 * order (independent) */
	prism_ge_tpolicy_t order[PRISM_GE_TPOLICY_CNT];
	bool dependent[PRISM_GE_TPOLICY_CNT];
} prism_ge_params_t;

/* One named entry; the fields its kind does not use are 0. */
typedef struct {
	const char *name;	/* owned by the policy */
	double urgency;		/* partition, resource */
	uint32_t fshare;	/* user, account: functional shares */
	uint32_t oticket;	/* user, account: override tickets */
} prism_ge_entry_t;

/* A parsed policy; opaque. */
typedef struct prism_ge_policy prism_ge_policy_t;

/*
 * Parse 'len' bytes of 'text' (need not be NUL-terminated); 'file' names
 * it in messages. On success returns 0 and sets *out to a new policy the
 * caller frees with prism_ge_policy_free(). On failure returns -1, sets
 * err to "file:line: what is wrong" ("file: file is empty", "file: out
 * of memory") and leaves *out untouched.
 */
extern int prism_ge_conf_parse(const char *text, size_t len,
			       const char *file, prism_ge_policy_t **out,
			       prism_error_t *err);

/*
 * A policy with every default (what a file of comments gives). Returns
 * NULL when out of memory; the caller frees it with prism_ge_policy_free().
 */
extern prism_ge_policy_t *prism_ge_policy_default(void);

/*
 * How many Grid Engine priority parameters and entries 'text' sets, read
 * as prism_ge_conf_parse() reads it, up to its first error if it has
 * one: 0 means nothing in it was understood, as for a file of another
 * policy. Never fails (0 for NULL or empty text, or out of memory).
 */
extern unsigned prism_ge_conf_kept(const char *text, size_t len);

/*
 * How many priority parameters and entries the parse of 'pol' read (0 for
 * NULL and for the default policy): 0 with notices means nothing in the
 * file was understood, as for a file of another policy.
 */
extern unsigned prism_ge_policy_kept(const prism_ge_policy_t *pol);

/* Free 'pol' and everything it owns; NULL is ignored. */
extern void prism_ge_policy_free(prism_ge_policy_t *pol);

/* The scalar parameters of 'pol', owned by 'pol'; NULL for a NULL 'pol'. */
extern const prism_ge_params_t *
prism_ge_policy_params(const prism_ge_policy_t *pol);

/*
 * The notices of the parse, one per ignored parameter, "file:line: NAME:
 * ...". Strings are owned by 'pol'; an index out of range gives NULL.
 */
extern size_t prism_ge_policy_notice_count(const prism_ge_policy_t *pol);
extern const char *prism_ge_policy_notice(const prism_ge_policy_t *pol,
					  size_t i);

/* Number of entries of 'kind' in 'pol' (0 for a bad kind or NULL). */
extern uint32_t prism_ge_count(const prism_ge_policy_t *pol,
			       prism_ge_kind_t kind);

/*
 * Handle of the entry 'name' of 'kind', O(1); PRISM_GE_NONE when 'pol'
 * has no line for it or an argument is bad. Resources also answer to
 * Slurm's TRES names cpu (slots) and node (nodes).
 */
extern uint32_t prism_ge_find(const prism_ge_policy_t *pol,
			      prism_ge_kind_t kind, const char *name);

/* The entry behind handle 'idx' of 'kind', owned by 'pol'; NULL if bad. */
extern const prism_ge_entry_t *prism_ge_get(const prism_ge_policy_t *pol,
					    prism_ge_kind_t kind,
					    uint32_t idx);

/* Names for messages (static strings; NULL if bad). */
extern const char *prism_ge_kind_name(prism_ge_kind_t kind);
extern const char *prism_ge_tpolicy_name(prism_ge_tpolicy_t policy);

#endif /* PRISM_GE_CONF_H */
