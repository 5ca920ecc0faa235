/*****************************************************************************\
 *  prism_ge.h - the Grid Engine priority model (sge_priority(5)): per-job
 *  urgency, override, functional and share-tree tickets, POSIX priority,
 *  their normalisation across a pass, the weighted sum, its mapping onto
 *  Slurm's 32-bit priority and its split into sprio columns; and the
 *  usage decay by halftime.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_GE_H
#define PRISM_GE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"
#include "prism_ge_conf.h"

/*
 * Notes
 *
 * A pass. Per scheduling pass the adapter gives the pending jobs (and the
 * share tree); prism_ge_pass_run() computes every job's priority at once,
 * since GE normalises across the jobs. As in sge_priority(5):
 *
 *   prio = weight_urgency * nurg + weight_ticket * ntckts
 *        + weight_priority * npprior
 *
 * Urgency (GE's sge_urgency.c): urg = rrcontr + wtcontr + dlcontr with
 *   rrcontr = sum over resources r of urgency[r] * amount[r]
 *             + the urgency of the job's partition
 *   wtcontr = weight_waiting_time * (now - submit)   (0 if negative)
 *   dlcontr = weight_deadline / MAX(deadline - now, 1)   with a deadline
 * amount[r] is the job's total request of r: CPUs for slots (GE's slots
 * x urgency_slots), MB for mem, nodes, units of a TRES/GRES. GE
 * multiplies a per-slot request by the slots; a total is that product.
 *
 * Tickets (GE's sgeee.c, pending-job path): tckts = otckt + ftckt +
 * stckt. The policies run in params->order; a dependent policy (listed
 * in policy_hierarchy) sees the tickets the policies before it gave
 * ("acc"): it orders the jobs it shares out by them.
 *   Override: the job's user's and account's oticket plus the job's own.
 *     With share_override_tickets, an object's tickets are split among
 *     its jobs as GE does for pending jobs: the jobs are taken greedily,
 *     each time the one that would get most, and the k-th job of an
 *     object with r running jobs gets oticket / (r + k).
 *   Functional: F = weight_tickets_functional, weights w = weight_X /
 *     (weight_user + weight_project + weight_department + weight_job).
 *     Jobs are taken greedily (up to max_functional_jobs_to_schedule,
 *     GE's brute-force ordering, ties by submit time then job id); the
 *     taken job gets w_user * fu * F / SU + w_project * fa * F / SA +
 *     w_job * jobshare * F / SJ, where with share_functional_shares fu
 *     is the user's fshare over its running-plus-taken jobs and SU the
 *     sum of fshare over users with such jobs (without: fu is the fshare
 *     and SU sums it once per such job); likewise accounts. Jobs past the
 *     limit get what the next job of their category would get.
 *   Share tree: node targets as GE's sge_calc_node_targets(): among the
 *     active children of a node (with pending or running jobs below)
 *     ltt = shares / sum of shares, oltt = parent oltt * ltt,
 *     shr = shares^2 / MAX(usage, oltt), stt = shr / sum shr, ostt =
 *     parent ostt * stt; where ostt > compensation_factor * oltt, shr is
 *     divided by ostt / (compensation_factor * oltt) and stt, ostt are
 *     computed again. usage is the decayed usage of the node's subtree.
 *     Pending jobs are then ordered and ticketed as GE's
 *     sge_sort_pending_job_nodes(): from the user leaf up to the highest
 *     node below which the pending jobs branch, each node sorts its
 *     subtree's pending jobs (by acc + the previous level's tickets; at
 *     the leaf by jobshare, or acc + 0.01 * jobshare when dependent;
 *     ties by job id) and gives the k-th job stt / (r + k) of the pool
 *     weight_tickets_share, r the running jobs below the node.
 *
 * Normalisation (GE's sge_normalize_value(), range below 1e-5 gives
 * 0.5): nurg = (urg - min urg) / (max urg - min urg) over the pass's
 * jobs (one job, or all equal: 0.5) and ntckts = tckts / max tckts
 * (equal non-zero tickets: 1; no tickets at all: 0.5); npprior = (ppri + 1024) / 2048 (GE stores
 * the POSIX priority plus 1024 and normalises over 0..2048), ppri =
 * -nice bounded to -1023..1024.
 *
 * Not modelled: running jobs' own tickets and urgency (GE also counts
 * them in the max/min of the normalisation; here the pass's jobs only),
 * departments, deadline tickets, the finished_jobs usage of a node,
 * array tasks (each Slurm job is one GE job).
 *
 * Slurm mapping. prio lies in 0..W, W = weight_urgency + weight_ticket +
 * weight_priority. Slurm's priority is
 *     1 + floor(prio * S),   S = (PRISM_GE_SLURM_MAX - 1) / W
 * (S = 0 when W = 0): order preserving, never 0 (held), at most
 * PRISM_GE_SLURM_MAX, which stays below Slurm's NO_VAL. The inverse
 * gives the lower edge of the bucket, (slurm - 1) / S.
 *
 * sprio columns. A job's Slurm priority splits into urgency =
 * floor(S * weight_urgency * nurg), tickets = floor(S * weight_ticket *
 * ntckts), posix = floor(S * weight_priority * npprior) and offset = the
 * rest: 1 (Slurm's priority is never 0) plus what the three floors drop
 * (0..2; 3 at most through float rounding). The four add up to the Slurm
 * priority exactly; should float rounding make the parts exceed it, they
 * are cut (urgency first kept, then tickets, then posix), so offset is
 * never below 1.
 *
 * Outside a pass. A job submitted between passes gets
 * prism_ge_estimate(): its urgency at submission, its override tickets
 * as if it were the only pending job of its user and account (its
 * functional and share-tree tickets wait for the next pass), normalised
 * with the last pass's ranges and bounded to 0..1. A job's priority in
 * another of its partitions, prism_ge_in_partition(), differs only in the
 * partition's urgency, normalised with the pass's ranges likewise; its
 * sprio columns, prism_ge_sprio_rebase(), keep tickets, posix and (when
 * it fits) offset, and urgency takes the difference.
 *
 * Allocation. A pass object keeps its scratch arrays between passes and
 * grows them only when a pass has more jobs, nodes or entries than any
 * before; nothing is allocated per job.
 */

/* Highest Slurm priority given (Slurm's NO_VAL is 0xfffffffe). */
#define PRISM_GE_SLURM_MAX 0xfffffffdu

/* GE's POSIX priority range (qsub -p). */
#define PRISM_GE_PPRI_MIN (-1023)
#define PRISM_GE_PPRI_MAX 1024

/* The most a job's request or a usage may be (what the texts hold). */
#define PRISM_GE_AMOUNT_MAX 1e18

/*
 * One share-tree node, filled by the adapter. Node 0 is the root; every
 * other node's parent is an earlier node.
 */
typedef struct {
	uint32_t parent;	/* PRISM_GE_NONE for the root */
	uint32_t shares;
	double usage;		/* the node's own decayed usage, >= 0; the
				   core sums subtrees */
	uint32_t running;	/* running jobs charged to this node */
	bool user;		/* a user leaf: jobs may reference it */
} prism_ge_node_t;

/*
 * One pending job, filled by the adapter. Handles come from
 * prism_ge_find(), resolved when the job or the policy changes.
 */
typedef struct {
	uint32_t job_id;	/* GE's job number: breaks ties */
	int64_t submit;		/* epoch seconds */
	int64_t deadline;	/* epoch seconds, 0: none */
	int64_t nice;		/* Slurm's nice; ppri = -nice, bounded */
	uint32_t node;		/* user leaf of the share tree, or NONE */
	uint32_t user;		/* PRISM_GE_USER handle or NONE */
	uint32_t account;	/* PRISM_GE_ACCOUNT handle or NONE */
	uint32_t partition;	/* PRISM_GE_PARTITION handle or NONE */
	uint32_t jobshare;	/* GE's job share (qsub -js), usually 0 */
	uint32_t otickets;	/* the job's own override tickets */
	const double *amount;	/* total request per resource handle,
				   prism_ge_count(RESOURCE) of them, each
				   0..PRISM_GE_AMOUNT_MAX; NULL: nothing
				   requested */
} prism_ge_job_t;

/* What one pass shares between jobs. */
typedef struct {
	const prism_ge_policy_t *pol;
	int64_t now;			/* epoch seconds */
	const prism_ge_node_t *nodes;	/* share tree; NULL: none */
	uint32_t node_cnt;
	const uint32_t *user_running;	/* running jobs per user handle,
					   NULL: none */
	const uint32_t *account_running; /* per account handle */
} prism_ge_input_t;

/* The priority of one job and how it came about (qstat -urg, -pri, -ext). */
typedef struct {
	double rrcontr;		/* resource requirement contribution */
	double wtcontr;		/* waiting time contribution */
	double dlcontr;		/* deadline contribution */
	double urg;		/* their sum */
	double otckt;		/* override tickets */
	double ftckt;		/* functional tickets */
	double stckt;		/* share-tree tickets */
	double tckts;		/* their sum */
	int32_t ppri;		/* POSIX priority, -1023..1024 */
	double nurg;		/* normalised: 0..1 */
	double ntckts;
	double npprior;
	double prio;		/* the weighted sum, 0..W */
	uint32_t slurm;		/* Slurm's priority, 1..PRISM_GE_SLURM_MAX */
} prism_ge_result_t;

/* The normalisation ranges of the last pass. */
typedef struct {
	uint32_t jobs;
	double urg_min, urg_max;
	double tix_max;		/* the ticket range is 0..tix_max */
} prism_ge_range_t;

/* A Slurm priority in sprio's columns; the four add up to it. */
typedef struct {
	uint32_t urgency;
	uint32_t tickets;
	uint32_t posix;
	uint32_t offset;
} prism_ge_sprio_t;

/* A pass's scratch space and ranges; opaque. */
typedef struct prism_ge_pass prism_ge_pass_t;

/*
 * A new, empty pass object. Returns NULL with err set when out of
 * memory. Free with prism_ge_pass_free().
 */
extern prism_ge_pass_t *prism_ge_pass_create(prism_error_t *err);

/* Free 'pass'; NULL is ignored. */
extern void prism_ge_pass_free(prism_ge_pass_t *pass);

/*
 * Compute the priorities of the 'n' jobs of 'jobs' into out[0..n-1].
 * Returns 0, or -1 with err set for a NULL argument, a bad share tree
 * (parent not earlier, a user leaf with children, usage not finite and
 * >= 0), a bad job (handle or node out of range, job node not a user
 * leaf, amount not in 0..1e18) or no memory for the scratch space;
 * on failure 'out' and the pass's ranges are unchanged.
 */
extern int prism_ge_pass_run(prism_ge_pass_t *pass,
			     const prism_ge_input_t *in,
			     const prism_ge_job_t *jobs, uint32_t n,
			     prism_ge_result_t *out, prism_error_t *err);

/* The ranges of the last successful pass of 'pass' (never NULL). */
extern const prism_ge_range_t *prism_ge_pass_range(
	const prism_ge_pass_t *pass);

/*
 * The urgency of one job at 'now' into res->rrcontr, wtcontr, dlcontr
 * and urg (other fields untouched). Returns 0, or -1 with err set for a
 * NULL argument, a bad partition handle or a bad amount.
 */
extern int prism_ge_urgency(const prism_ge_policy_t *pol,
			    const prism_ge_job_t *job, int64_t now,
			    prism_ge_result_t *res, prism_error_t *err);

/*
 * 'usage' decayed over 'seconds' with a half-life of 'halftime' hours:
 * usage * 2^(-seconds / (3600 * halftime)). halftime 0 means no decay
 * (GE); seconds <= 0 gives 'usage'. (GE approximates the same curve per
 * usage interval with 1 - ln 2 * interval / halftime.)
 */
extern double prism_ge_decay(double usage, double seconds,
			     uint32_t halftime);

/* GE's POSIX priority for Slurm's 'nice': -nice bounded to -1023..1024. */
extern int32_t prism_ge_posix_prio(int64_t nice);

/* GE's sge_normalize_value(): (v - min) / (max - min), 0.5 if no range. */
extern double prism_ge_normalize(double v, double min, double max);

/* S of the notes: Slurm priority units per unit of prio (0 when W = 0). */
extern double prism_ge_slurm_scale(const prism_ge_policy_t *pol);

/* Slurm's priority for 'prio' under 'pol' (bounded to 0..W first). */
extern uint32_t prism_ge_to_slurm(const prism_ge_policy_t *pol, double prio);

/* The lowest prio that maps to 'slurm' under 'pol' (0 for 0, 1, W = 0). */
extern double prism_ge_from_slurm(const prism_ge_policy_t *pol,
				  uint32_t slurm);

/*
 * Split res->slurm into sprio's columns (see the notes) into 'out'.
 * Returns 0, or -1 with err set when an argument is NULL.
 */
extern int prism_ge_sprio(const prism_ge_policy_t *pol,
			  const prism_ge_result_t *res, prism_ge_sprio_t *out,
			  prism_error_t *err);

/*
 * The priority of one job outside a pass (see the notes) at 'now' with
 * the ranges 'range' into 'res'. Returns 0, or -1 with err set for a
 * NULL argument, a bad handle or a bad amount ('res' untouched then).
 */
extern int prism_ge_estimate(const prism_ge_policy_t *pol,
			     const prism_ge_range_t *range,
			     const prism_ge_job_t *job, int64_t now,
			     prism_ge_result_t *res, prism_error_t *err);

/*
 * 'res', the result of a job in partition handle 'from', moved to
 * partition 'to' (either may be PRISM_GE_NONE) with the ranges 'range',
 * into 'out' ('out' may be 'res'). The same result when both partitions
 * have the same urgency. Returns 0, or -1 with err set for a NULL
 * argument or a handle out of range.
 */
extern int prism_ge_in_partition(const prism_ge_policy_t *pol,
				 const prism_ge_range_t *range,
				 const prism_ge_result_t *res, uint32_t from,
				 uint32_t to, prism_ge_result_t *out,
				 prism_error_t *err);

/*
 * Make the sprio columns 'cols' of a job add up to 'slurm', its priority
 * in another partition (see the notes): tickets, posix and offset kept
 * when they fit, else cut (offset kept at 1 at least, for slurm > 0).
 * A NULL 'cols' is ignored.
 */
extern void prism_ge_sprio_rebase(prism_ge_sprio_t *cols, uint32_t slurm);

/*
 * Write the qstat -pri, -urg and -ext breakdown of 'res' under 'pol'
 * into 'buf' of 'size' bytes. Returns the length, or -1 with err set
 * when 'buf' is too small or an argument is NULL.
 */
extern int prism_ge_explain(const prism_ge_policy_t *pol,
			    const prism_ge_result_t *res, char *buf,
			    size_t size, prism_error_t *err);

#endif /* PRISM_GE_H */
