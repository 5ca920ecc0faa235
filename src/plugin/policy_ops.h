/*****************************************************************************\
 *  policy_ops.h - the policy interface: what each policy (multifactor,
 *  Moab, Grid Engine) implements, as one table of operations.
 *
 *  Only the policy layer includes this header: the dispatcher (policy.c)
 *  and the implementations (policy_*.c). The entry points, the
 *  recalculation thread and sprio call the dispatcher (policy.h), never
 *  an implementation. docs/ADDING-A-POLICY.md says how to add one.
 *
 *  Locks, in the order they are taken: the job lock (slurmctld), the
 *  assoc_mgr locks, policy_lock (policy.c, a leaf). A hook is called with
 *  the locks its comment names and takes no other; "in force" means the
 *  hook's state is the policy instance in force (the dispatcher checks).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_POLICY_OPS_H
#define PRISM_POLICY_OPS_H

#include "ctl.h"
#include "nss.h"
#include "prism_params.h"

/* What a recalculation pass (or a submission, recalc false) hands the
 * hooks. */
typedef struct prism_pass {
	time_t now;
	time_t last;		/* end of the previous pass, 0: none */
	bool decayed;		/* time passed since the last pass */
	bool recalc;		/* a pass, not a submission */
	prism_prio_conf_t conf;	/* multifactor's snapshot (weights, flags) */
	prism_world_t world;	/* the cluster's size */
	uint32_t jobs;		/* jobs in job_list as a pass of a batched
				 * policy began (the room it makes), else 0 */
} prism_pass_t;

typedef struct prism_policy_ops {
	prism_policy_t kind;	/* PriorityParameters' policy= */
	bool reads_file;	/* takes a policy file (config=) */

	/* ---- life cycle ---- */

	/*
	 * Check the policy file 'path' whose 'len' bytes the dispatcher
	 * read into 'text' (NULL and 0 unless reads_file), log the file's
	 * notices; no lock held. Returns the new state, or NULL with the reason (naming the
	 * file and line) logged. MUST be set.
	 */
	void *(*load)(const char *text, size_t len, const char *path);

	/*
	 * With policy_lock held, just before 'st' is put in force: carry
	 * over what 'prev' (the state in force, of 'prev_ops', or NULL)
	 * owns that must survive (usage), or else take up 'saved', the
	 * 'saved_len' bytes of StateSaveLocation/usage_file the dispatcher
	 * read (NULL: none); memory only. Returns SLURM_SUCCESS, or
	 * SLURM_ERROR (logged) and nothing changes. MAY.
	 */
	int (*adopt)(void *st, const struct prism_policy_ops *prev_ops,
		     void *prev, const char *saved, size_t saved_len,
		     time_t now);

	/* Free 'st' (policy_lock held, memory only). MUST be set. */
	void (*unload)(void *st);

	/*
	 * The policy's state to keep in StateSaveLocation/usage_file, as a
	 * new text (xfree()) of *len bytes; NULL when there is nothing or
	 * it could not be formatted (logged). policy_lock held, in force.
	 * MAY (usage_file set iff it is).
	 */
	const char *usage_file;
	char *(*usage_format)(void *st, size_t *len);

	/* Free the implementation's own caches (plugin fini). MAY. */
	void (*fini)(void);

	/* ---- jobs ---- */

	/* An admin-set priority is kept as is (false: the policy maps it). */
	bool keeps_admin_prio;

	/* PriorityFlags=INCR_ONLY applies to what a pass computes. */
	bool incr_only;

	/*
	 * Compute the priority of 'job' (it has details; an admin-set one
	 * only when !keeps_admin_prio), fill its prio_factors and, for a
	 * multi-partition job, its priority_array. Returns the priority, 0
	 * when the policy holds the job. Job write lock, assoc_mgr assoc and
	 * QOS read locks (TRES too at submission; write locks in a classic
	 * pass), policy_lock held, in force. MUST be set.
	 */
	uint32_t (*job_compute)(void *st, job_record_t *job,
				const prism_pass_t *pass);

	/*
	 * Does a pass compute priorities after charging usage and updating
	 * fair-share (true), or compute each job as it charges it, the
	 * fair-share fields updated before (false, classic fair-share)?
	 * MUST be set.
	 */
	bool (*after_fs)(const prism_pass_t *pass);

	/*
	 * Start of a pass: assoc_mgr assoc and TRES read locks and
	 * policy_lock held, in force. MAY.
	 */
	void (*pass_begin)(void *st, const prism_pass_t *pass);

	/*
	 * Per job of the charging walk (every job, finished ones too):
	 * charge the policy's own usage, count the job, collect it for
	 * pass_batch. Job write lock, assoc_mgr charge locks, policy_lock
	 * held, in force. MAY.
	 */
	void (*pass_charge)(void *st, job_record_t *job,
			    const prism_pass_t *pass);

	/*
	 * A policy that computes all pending jobs at once: pass_batch runs
	 * with no lock held over what pass_charge collected and returns how
	 * many results there are; pass_store writes result 'i' back (job
	 * write lock, policy_lock held, in force) and returns true when the
	 * job's priority changed. Without them a pass calls job_compute
	 * per job. MAY (both or neither).
	 */
	uint32_t (*pass_batch)(void *st, const prism_pass_t *pass);
	bool (*pass_store)(void *st, uint32_t i, const prism_pass_t *pass);

	/*
	 * The names of users and groups (nss.h), before the first pass of
	 * a state: names_note notes in 'names' the users and groups of
	 * 'job' (any job of job_list) whose names the policy will look up
	 * and does not have (job read lock, policy_lock held, in force);
	 * names_keep keeps the 'names' then looked up with no lock held
	 * (policy_lock held, in force), so that the pass under the job write
	 * lock finds them. MAY (both or neither).
	 */
	void (*names_note)(void *st, const job_record_t *job,
			   prism_nss_t *names);
	void (*names_keep)(void *st, const prism_nss_t *names);

	/* End of a pass: policy_lock held, in force. MAY. */
	void (*pass_end)(void *st, const prism_pass_t *pass);

	/*
	 * 'job' ended at 'now'; 'last' is the end of the last pass (0:
	 * none): charge the policy's own usage. Job write lock and
	 * policy_lock held. MAY.
	 */
	void (*job_end)(void *st, job_record_t *job, time_t last, time_t now);

	/* ---- sprio ---- */

	/*
	 * The factors 'f' of sprio's row for an entry of a job's priority
	 * array of several, copied from the job's: adjust them for partition
	 * 'part' (NULL: the job's own) and QOS 'qos' (NULL: the job's own),
	 * whose priority is 'entry'. Job read lock (24.11: and the assoc_mgr
	 * QOS read lock) held. MUST be set.
	 */
	void (*sprio_entry_row)(prism_factors_t *f, const job_record_t *job,
				part_record_t *part, slurmdb_qos_rec_t *qos,
				uint32_t entry, const prism_prio_conf_t *conf);

	/* The policy's own columns: an admin-set job shows its priority in
	 * every partition's row. */
	bool sprio_own_columns;
} prism_policy_ops_t;

/* The implementations (policy_multifactor.c, policy_moab.c,
 * policy_gridengine.c); policy.c's registry is the only user. */
extern const prism_policy_ops_t prism_multifactor_ops;
extern const prism_policy_ops_t prism_moab_ops;
extern const prism_policy_ops_t prism_gridengine_ops;

#endif /* PRISM_POLICY_OPS_H */
