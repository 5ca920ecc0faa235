/*****************************************************************************\
 *  policy.h - the policy in force and the calls that reach it. The entry
 *  points, the recalculation thread and sprio see a policy only through
 *  these functions; which policy it is stays inside policy.c.
 *
 *  The policy in force is one instance (its operations and state),
 *  chosen when the configuration loads and replaced whole by a
 *  reconfigure. A recalculation pass or an sprio request takes a
 *  reference and works with that instance; an instance replaced meanwhile
 *  is freed when its last reference is put. policy_lock guards which
 *  instance is in force and every instance's state; it is a leaf, taken
 *  after the job lock and the assoc_mgr locks. No file is read or written
 *  while it is held.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_POLICY_H
#define PRISM_POLICY_H

#include "ctl.h"
#include "policy_ops.h"

typedef struct prism_policy_inst prism_policy_inst_t;

/*
 * Read PriorityParameters and the policy's file, and put the policy in
 * force. Returns SLURM_SUCCESS, or SLURM_ERROR with the reason logged and
 * the previous policy still in force ('at_start': slurmctld refuses to
 * start). Call with no lock held.
 */
extern int prism_policy_load(bool at_start);

/* Save the policy's state, forget it, free the implementations' caches
 * (fini; no pass may run). */
extern void prism_policy_fini(void);

/* Write the state of the policy in force to StateSaveLocation (formatted
 * under policy_lock, written after). Call with no lock held. */
extern void prism_policy_save(void);

/*
 * The priority of 'job' at submission (priority_p_set): an admin-set
 * priority is kept (for the policies that keep it), a job without
 * details gets 0. Caller holds the job write lock; takes the assoc_mgr
 * read locks and policy_lock.
 */
extern uint32_t prism_policy_submit(job_record_t *job, const prism_pass_t *pass);

/* A job ended (priority_p_job_end). Caller holds the job write lock. */
extern void prism_policy_job_end(job_record_t *job, time_t last, time_t now);

/* ---- a pass, or an sprio request, works with one instance ---- */

/* The instance in force, with a reference the caller puts. */
extern prism_policy_inst_t *prism_policy_get(void);
extern void prism_policy_put(prism_policy_inst_t *inst);

/* Does a pass under 'inst' compute after fair-share is updated? */
extern bool prism_policy_after_fs(const prism_policy_inst_t *inst,
				  const prism_pass_t *pass);

/* Does 'inst' compute all jobs at once (pass_batch)? */
extern bool prism_policy_batched(const prism_policy_inst_t *inst);

/*
 * The names of the users and groups of the jobs (nss.h): does 'inst'
 * want them looked up before this pass (a state's first pass)? Then a
 * walk over every job notes them, in slices (between
 * prism_policy_slice_begin(), in force, and _end(), the job read lock
 * held), and prism_policy_names_resolve(), with no lock held, looks them
 * up and has the policy keep them; later passes of 'inst' do not want
 * them. The recalculation thread's only.
 */
extern bool prism_policy_names_wanted(const prism_policy_inst_t *inst);
extern void prism_policy_names_note(prism_policy_inst_t *inst,
				    const job_record_t *job);
extern void prism_policy_names_resolve(prism_policy_inst_t *inst);

/* Start a pass: takes the assoc_mgr read locks and policy_lock. False
 * when 'inst' is no longer in force (the pass then computes nothing). */
extern bool prism_policy_pass_begin(prism_policy_inst_t *inst,
				    const prism_pass_t *pass);

/*
 * A slice of a walk over the jobs: prism_policy_slice_begin() takes
 * policy_lock and tells whether 'inst' is still in force;
 * prism_policy_slice_end() lets it go. In between, with the job write
 * lock held, for the instance in force only:
 * charge: the policy's own usage of a job, its count, its collection
 *   for a batch (assoc_mgr charge locks held);
 * compute: the priority of a job that needs one, written to the job;
 *   true when it changed (assoc_mgr read locks held);
 * store: result 'i' of pass_batch; true when the priority changed.
 */
extern bool prism_policy_slice_begin(const prism_policy_inst_t *inst);
extern void prism_policy_slice_end(void);
extern void prism_policy_charge(prism_policy_inst_t *inst, job_record_t *job,
				const prism_pass_t *pass);
extern bool prism_policy_compute(prism_policy_inst_t *inst, job_record_t *job,
				 const prism_pass_t *pass);
extern bool prism_policy_store(prism_policy_inst_t *inst, uint32_t i,
			       const prism_pass_t *pass);

/* The batch of a batched policy, no lock held; returns how many results
 * to store. */
extern uint32_t prism_policy_batch(prism_policy_inst_t *inst,
				   const prism_pass_t *pass);

/* End a pass: takes policy_lock. */
extern void prism_policy_pass_end(prism_policy_inst_t *inst,
				  const prism_pass_t *pass);

/* Does 'inst' fill sprio's columns its own way (an admin-set job then
 * shows its priority in every row)? */
extern bool prism_policy_own_columns(const prism_policy_inst_t *inst);

/*
 * sprio: the factors 'f' of the row of 'job' for entry 'i' of its
 * priority array, copied from the job's: made those of partition 'part'
 * (NULL: the job's own) and QOS 'qos' (NULL: the job's own). Caller holds
 * the job read lock (and, from 24.11 on, the assoc_mgr QOS read lock).
 */
extern void prism_policy_sprio_entry(const prism_policy_inst_t *inst,
				     prism_factors_t *f,
				     const job_record_t *job,
				     part_record_t *part,
				     slurmdb_qos_rec_t *qos, int i,
				     const prism_prio_conf_t *conf);

#endif /* PRISM_POLICY_H */
