/*****************************************************************************\
 *  fs_tree.h - multifactor's fair-share over slurmctld's association
 *  tree (Fair Tree or the classic algorithm): the fields sshare reads,
 *  and a job's fair-share factor.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_FS_TREE_H
#define PRISM_FS_TREE_H

#include "ctl.h"
#include "usage_slurm.h"

/*
 * Recompute the fair-share fields of every association (usage_norm,
 * usage_efctv, level_fs, fs_factor) for the configured algorithm.
 * Takes the assoc_mgr write lock itself. With 'd', usage is decayed by it
 * afterwards in the same hold (with the QOS write lock): every
 * association and QOS, each association in the walk that writes the
 * results back when the tree holds them all (else the list is walked).
 * Under a deferred decay (Fair Tree's, prism_usage_decay_defer()) the
 * tree reads each record's usage as decayed, the associations no charge
 * has reached yet are decayed so, and the deferral ends.
 */
extern void prism_fs_tree_update(const prism_prio_conf_t *conf,
				 const prism_decay_t *d);

/* Free what the fair-share pass keeps between passes (the Fair Tree
 * ranking; a pass frees its node arrays itself). */
extern void prism_fs_tree_fini(void);

/*
 * Set usage_norm and (classic, DEPTH_OBLIVIOUS, FairShare=parent)
 * usage_efctv of one association from its raw usage, as
 * priority_p_set_assoc_usage does. 'flags' are PRISM_F_* bits. Caller
 * holds the assoc_mgr assoc write lock.
 */
extern void prism_fs_set_assoc_usage(slurmdb_assoc_rec_t *assoc,
				     uint32_t flags);

/* The pass is done with fair-share's factors: free what it kept of them
 * (the pass's thread). */
extern void prism_fs_tree_pass_done(void);

#ifdef PRISM_STORE_FS_FACTOR
/*
 * Store classic fair-share's factor in the association of 'job_ptr' from
 * its effective usage as it is (0 when not set this pass), as multifactor
 * does for every job after each classic pass from 25.11 on. Caller holds
 * the assoc_mgr assoc write lock: the pass's thread, before
 * prism_fs_tree_pass_done().
 */
extern void prism_fs_store_job_factor(job_record_t *job_ptr);
#endif

/*
 * Normalise the shares of every association again (after a switch
 * between Fair Tree and the classic algorithm, which normalise them
 * differently). Takes the assoc_mgr assoc write lock itself.
 */
extern void prism_fs_tree_renormalize(void);

/*
 * The fair-share factor in [0,1] of 'job_ptr'. Caller holds the assoc_mgr
 * assoc read lock (write lock for the classic algorithm, which fills a
 * user's effective usage on first use). 'pass': the caller is the
 * recalculation pass's thread, which may keep the classic factors of the
 * pass (any other caller computes them).
 */
extern double prism_fs_job_factor(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf, bool pass);

#endif /* PRISM_FS_TREE_H */
