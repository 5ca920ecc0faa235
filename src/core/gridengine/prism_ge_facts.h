/*****************************************************************************\
 *  prism_ge_facts.h - Slurm's records and the Grid Engine core, both ways,
 *  in one place for the plugin and the prism command: a pending job's
 *  facts (the fields both job_record_t and slurm_job_info_t have, copied
 *  as they are) into the core's prism_ge_job_t and its requests, and the
 *  sprio columns of a result out to Slurm's priority factors and back.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_GE_FACTS_H
#define PRISM_GE_FACTS_H

#include <stdint.h>

#include "prism_cols.h"
#include "prism_error.h"
#include "prism_ge.h"

/*
 * Notes
 *
 * What each Slurm field stands for (PriorityParameters=policy=gridengine):
 * the waiting time counts from the submit time; --deadline is GE's -dl;
 * the POSIX priority is -nice (prism_ge_posix_prio() bounds it); the
 * user, account and partition are matched against the file's [NAME]
 * entries. Resources: slots = the job's CPUs, mem = its memory request in
 * MB, nodes = its node count, any other name = its request of the TRES of
 * that name (gres/gpu, license/x, billing, ...). A request Slurm marks as
 * none (PRISM_NO_VAL64, PRISM_INFINITE64, PRISM_NO_CONSUME_VAL64) is 0,
 * one above PRISM_GE_AMOUNT_MAX is that.
 *
 * The requests come in either form: the controller's counts by TRES
 * position (tres_cnt, with the position of each resource in tres_pos),
 * or the public record's TRES string (tres_req, read by name when set).
 *
 * sprio's columns (prism_ge_sprio()): AGE = urgency, ASSOC = tickets,
 * QOS = posix, SITE = offset + PRISM_NICE_OFFSET (bounded to 32 bits),
 * NICE = PRISM_NICE_OFFSET; FAIRSHARE, JOBSIZE and PARTITION are 0.
 */

/* One pending job as Slurm's records have it (see the notes). */
typedef struct {
	uint32_t job_id;
	int64_t submit_time;	/* epoch seconds */
	int64_t deadline;	/* epoch seconds, 0: none */
	uint32_t nice;		/* offset by PRISM_NICE_OFFSET */
	uint32_t user;		/* PRISM_GE_USER handle (the caller's
				   lookup), or PRISM_GE_NONE */
	const char *account;	/* NULL: none */
	const char *partition;	/* NULL: none */
	uint32_t cpus;		/* slots: the CPU count the job is sized by */
	uint32_t nodes;		/* the node count asked for */
	const uint64_t *tres_cnt;	/* the requests by TRES position;
					   NULL: none */
	uint32_t tres_len;	/* entries of tres_cnt */
	const int *tres_pos;	/* per resource handle, its TRES position
				   (-1: untracked); slots and nodes are not
				   read; NULL: none tracked */
	const char *tres_req;	/* or the requests as a TRES string: when
				   set, read by name instead */
} prism_ge_facts_t;

/*
 * The inputs of the job 'f' under 'pol' into 'job' (all of it written;
 * node PRISM_GE_NONE, the adapter's share tree decides it) and its
 * requests into 'amount', prism_ge_count(pol, PRISM_GE_RESOURCE) of them,
 * which job->amount then points to. Returns 0, or -1 with err set when
 * an argument is NULL ('job' and 'amount' untouched then).
 */
extern int prism_ge_job_from_facts(const prism_ge_policy_t *pol,
				   const prism_ge_facts_t *f,
				   prism_ge_job_t *job, double *amount,
				   prism_error_t *err);

/*
 * The columns 'c' (from prism_ge_sprio()) into Slurm's priority factors
 * 'out' (all of it written; see the notes). Returns 0, or -1 with err set
 * when an argument is NULL.
 */
extern int prism_ge_cols_encode(const prism_ge_sprio_t *c, prism_cols_t *out,
				prism_error_t *err);

/*
 * The columns 'cols' of a job (as encoded) made to add up to 'slurm', its
 * priority in another partition (prism_ge_sprio_rebase()): AGE, ASSOC,
 * QOS and SITE change, the others are kept. Returns 0, or -1 with err set
 * for a NULL 'cols'.
 */
extern int prism_ge_cols_rebase(prism_cols_t *cols, uint32_t slurm,
				prism_error_t *err);

/*
 * Read sprio's row 'in' back: its columns into 'out' (zeroed unless the
 * row has the policy's columns) and the Slurm priority it stands for into
 * *slurm: the sum of the columns, or the admin-set priority; 'prio' (the
 * job's priority) when the row has no columns or the sum is outside
 * 1..UINT32_MAX. Returns what the row stands for (a prism_cols_kind_t),
 * or -1 with err set when an argument is NULL.
 */
extern int prism_ge_cols_decode(const prism_cols_t *in, uint32_t prio,
				prism_ge_sprio_t *out, uint32_t *slurm,
				prism_error_t *err);

#endif /* PRISM_GE_FACTS_H */
