/*****************************************************************************\
 *  prism_moab_facts.h - Slurm's records and the Moab core, both ways, in
 *  one place for the plugin and the prism command: a job's facts (the
 *  fields both job_record_t and slurm_job_info_t have, copied as they
 *  are) into the core's prism_moab_job_t, and the sprio columns of a
 *  result out to Slurm's priority factors and back.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MOAB_FACTS_H
#define PRISM_MOAB_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "prism_cols.h"
#include "prism_error.h"
#include "prism_moab.h"

/*
 * Notes
 *
 * What each Slurm field stands for (prism-moab(5)): user,
 * group, account, QOS and partition are the USER, GROUP, ACCOUNT, QOS and
 * CLASS credentials; the queue time counts from the accrue time; nice is
 * USERPRIO (negated); an admin-set priority is the system priority
 * (SPRIO); node features are ATTR[], GRES and licenses are GRES[].
 *
 * State: STARTING while the nodes boot (configuring), RUNNING, SUSPENDED,
 * HOLD for priority 0, BLOCKED for a dependency or a begin time ahead,
 * else IDLE.
 *
 * Run time (running or suspended jobs): now - start - tot_sus_time from
 * the controller's record; the public record has no tot_sus_time, so
 * there it is squeue's: pre_sus_time while suspended, pre_sus_time plus
 * the time since the last resume (suspend_time), or the time since the
 * start.
 *
 * Where the records differ in kind, the facts take either form: the
 * memory as the controller's count (mem_mb) or the public record's TRES
 * string (tres_req, read when set).
 */

/*
 * One job as Slurm's records have it: each field copied from the record,
 * times in epoch seconds (0: none), values with Slurm's offsets and
 * markers (PRISM_NICE_OFFSET, PRISM_INFINITE, PRISM_NO_VAL).
 */
typedef struct {
	int64_t now;		/* the time of the pass */
	uint32_t uid;		/* the user (per-user totals) */
	bool pending;
	bool configuring;	/* its nodes are booting */
	bool running;
	bool suspended;
	bool held;		/* priority 0 */
	bool dependency;	/* waiting for a dependency */
	int64_t begin_time;	/* --begin (the public record's
				   eligible_time) */
	double admin_prio;	/* the priority an administrator set, as
				   sprio's direct_prio; 0: none */
	int64_t accrue_time;
	int64_t start_time;
	int64_t tot_sus_time;	/* seconds suspended; < 0: not in the record
				   (see the notes) */
	int64_t pre_sus_time;	/* seconds run before the last suspension */
	int64_t suspend_time;	/* the last suspension or resume */
	uint32_t time_limit;	/* minutes; PRISM_INFINITE, PRISM_NO_VAL:
				   none */
	int64_t deadline;
	uint32_t cpus;		/* the CPU count the job is sized by */
	uint32_t min_nodes;	/* the node count asked for (pending) */
	uint32_t node_cnt;	/* the node count allocated */
	uint64_t mem_mb;	/* the memory asked for, MB */
	const char *tres_req;	/* or the TRES asked for, as a string: when
				   set, the memory is read from it */
	uint32_t disk_per_node;	/* tmp disk per node, MB */
	uint32_t nice;		/* offset by PRISM_NICE_OFFSET */
	uint32_t restart_cnt;
	uint32_t user;		/* USER handle (the caller's uid lookup) */
	uint32_t group;		/* GROUP handle (the caller's gid lookup) */
	const char *account;	/* NULL or "": none */
	const char *qos;
	const char *features;	/* node features asked for */
	const char *tres_per_job;
	const char *tres_per_node;
	const char *tres_per_socket;
	const char *tres_per_task;
	const char *licenses;
} prism_moab_facts_t;

/* One partition as Slurm's records have it (for CLASS and PE). */
typedef struct {
	const char *name;
	uint32_t prio_job_factor;	/* PriorityJobFactor */
	uint32_t total_cpus;
	uint64_t mem_mb;	/* the partition's memory, MB */
	const char *tres;	/* or its TRES as a string: when set, the
				   memory is read from it */
} prism_moab_part_facts_t;

/*
 * The inputs of the job 'f' under 'pol' into 'job' (all of it written):
 * state, procs, nodes, memory, disk, wall-clock limit, queue and run
 * time, USERPRIO, start count, deadline, the USER and GROUP handles of
 * 'f', ACCOUNT and QOS by name, the ATTR and GRES masks and the system
 * priority. CLASS and the partition are PRISM_MOAB_NONE and NULL until
 * prism_moab_job_part(); the per-user totals are
 * prism_moab_users_fill()'s. Returns 0, or -1 with err set when an
 * argument is NULL ('job' untouched then).
 */
extern int prism_moab_job_from_facts(const prism_moab_policy_t *pol,
				     const prism_moab_facts_t *f,
				     prism_moab_job_t *job, prism_error_t *err);

/*
 * Put the job 'job' in the partition 'part' (NULL: none): its CLASS
 * handle and class_prio, and the partition's totals into 'tot', which
 * job->part then points to ('tot' zeroed and job->part NULL without a
 * partition). Returns 0, or -1 with err set when 'pol', 'job' or 'tot'
 * is NULL ('job' untouched then).
 */
extern int prism_moab_job_part(const prism_moab_policy_t *pol,
			       const prism_moab_part_facts_t *part,
			       prism_moab_totals_t *tot, prism_moab_job_t *job,
			       prism_error_t *err);

/*
 * Count the job 'f' in its user's totals of active jobs (FSJPU, FSPPU,
 * FSPSPU) when it is running or suspended: its CPUs and wall-clock
 * limit. Returns 0 (counted or not active), or -1 when out of memory or
 * an argument is NULL.
 */
extern int prism_moab_users_count(prism_moab_users_t *u,
				  const prism_moab_facts_t *f);

/*
 * sprio's columns (prism_moab_columns_t says which component goes where):
 * the columns 'c' into Slurm's priority factors 'out' (all of it
 * written): AGE = serv, ASSOC = cred, FAIRSHARE = fs, JOBSIZE = res,
 * PARTITION = attr, QOS = target_usage, SITE = rest + PRISM_NICE_OFFSET,
 * NICE = PRISM_NICE_OFFSET (nice 0: USERPRIO is in the components).
 * Returns 0, or -1 with err set when an argument is NULL.
 */
extern int prism_moab_cols_encode(const prism_moab_columns_t *c,
				  prism_cols_t *out, prism_error_t *err);

/*
 * The columns 'cols' of a job (as encoded) made to add up to 'slurm', its
 * priority in another partition: SITE takes the difference, the other
 * columns are kept. Returns 0, or -1 with err set for a NULL 'cols'.
 */
extern int prism_moab_cols_rebase(prism_cols_t *cols, uint32_t slurm,
				  prism_error_t *err);

/*
 * Read sprio's row 'in' back: its columns into 'out' (zero but for
 * 'exact' unless the row has the policy's columns) and the Slurm
 * priority it stands for into *slurm: the sum of its columns and TRES
 * columns, or the admin-set priority; 'prio' (the job's priority) when
 * the row has no columns or the sum is outside 1..UINT32_MAX. Returns
 * what the row stands for (a prism_cols_kind_t), or -1 with err set when
 * an argument is NULL.
 */
extern int prism_moab_cols_decode(const prism_cols_t *in, uint32_t prio,
				  prism_moab_columns_t *out, uint32_t *slurm,
				  prism_error_t *err);

#endif /* PRISM_MOAB_FACTS_H */
