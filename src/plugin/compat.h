/*****************************************************************************\
 *  compat.h - everything that differs between the Slurm releases Prism
 *  builds for (22.05 to 26.05), in one place. The rest of the adapter
 *  includes this header instead of Slurm's and is written once.
 *
 *  Two kinds of difference, each decided once here:
 *  - what the tree has (a field, a type, a function's arguments): decided
 *    by configure, which compiles probes against the tree and passes
 *    -DPRISM_HAVE_... (m4/prism_slurm.m4), because point releases changed
 *    fields too (job_record_t.part_prio became prio_mult in 24.11.7 and
 *    25.05.1);
 *  - what slurmctld or multifactor does differently with the same
 *    headers (a reconfigure is a new process from 23.11 on; the
 *    partition list is kept in tier order by slurmctld from 24.11 on):
 *    decided by the release, below as PRISM_SLURM_AT_LEAST.
 *
 *  docs/slurm-releases.md lists what changed in each release with the
 *  file of Slurm's source it comes from.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_COMPAT_H
#define PRISM_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#include "prism_marks.h"

/* The core keeps Slurm's special values as its own (prism_marks.h). */
_Static_assert(PRISM_NICE_OFFSET == NICE_OFFSET, "NICE_OFFSET");
_Static_assert(PRISM_NO_VAL == NO_VAL, "NO_VAL");
_Static_assert(PRISM_INFINITE == INFINITE, "INFINITE");
_Static_assert(PRISM_NO_VAL64 == NO_VAL64, "NO_VAL64");
_Static_assert(PRISM_INFINITE64 == INFINITE64, "INFINITE64");
_Static_assert(PRISM_NO_CONSUME_VAL64 == NO_CONSUME_VAL64,
	       "NO_CONSUME_VAL64");

#define PRISM_SLURM_AT_LEAST(a, b, c) \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(a, b, c))

/* Headers that moved to src/interfaces/ in 23.02; the state-file lock
 * left slurmctld for src/common/state_save.h in 24.11. */
#ifdef PRISM_HAVE_STATE_SAVE_H
#include "src/common/state_save.h"
#endif
#ifdef PRISM_HAVE_INTERFACES
#include "src/interfaces/mcs.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/site_factor.h"
#else
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#endif
#include "src/common/run_in_daemon.h"

/* Slurm's lists as list_t and list_itr_t (List was a pointer typedef of
 * the same structs). */
#ifndef PRISM_HAVE_LIST_T
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif

/* A job's details (an anonymous struct named job_details_t later). */
#ifndef PRISM_HAVE_JOB_DETAILS_T
typedef struct job_details job_details_t;
#endif

/* The weighted factors a job keeps for sprio (job_ptr->prio_factors): a
 * priority_factors_t the sprio row points to, where the tree has it. */
#ifdef PRISM_HAVE_PRIORITY_FACTORS_T
typedef priority_factors_t prism_factors_t;
#define PRISM_SPRIO_ROW_FACTORS 1
#else
typedef priority_factors_object_t prism_factors_t;
#endif

/* The sprio hook takes only a uid (else also the request). */
#ifdef PRISM_HAVE_SPRIO_UID_ONLY
#define PRISM_SPRIO_UID_ONLY 1
#endif

/* The entry points the release's priority interface looks up beyond
 * the first six: priority_p_recover, priority_p_thread_start (the
 * recalculation thread starts there, after the jobs are recovered; else
 * in init()); priority_p_calc_fs_factor (gone in 25.11: then the plugin
 * stores the classic fair-share factor in each association, where
 * slurmctld's usage_thres check and sshare read it). */
#ifdef PRISM_HAVE_PRIORITY_RECOVER
#define PRISM_EXPORTS_RECOVER 1
#endif
#ifdef PRISM_HAVE_PRIORITY_THREAD_START
#define PRISM_EXPORTS_THREAD_START 1
#endif
#ifdef PRISM_HAVE_CALC_FS_FACTOR
#define PRISM_EXPORTS_CALC_FS_FACTOR 1
#else
#define PRISM_STORE_FS_FACTOR 1
#endif

/* Jobs that ask for several QOS (job_ptr->qos_list): one priority per
 * (partition, QOS) pair. */
#ifdef PRISM_HAVE_JOB_QOS_LIST
#define PRISM_MULTI_QOS 1
static inline list_t *prism_job_qos_list(const job_record_t *job_ptr)
{
	return job_ptr->qos_list;
}
#else
static inline list_t *prism_job_qos_list(const job_record_t *job_ptr)
{
	return NULL;
}
#endif

/*
 * The job's per-partition priorities: in a struct with the partition
 * names (PRISM_PRIO_MULT) named part_prio, then prio_mult; before, an
 * array in the job record.
 */
#if defined(PRISM_HAVE_JOB_PRIO_MULT)
#define PRISM_PRIO_MULT 1
#define PRISM_JOB_PRIO_MULT(job_ptr) ((job_ptr)->prio_mult)
#elif defined(PRISM_HAVE_JOB_PART_PRIO)
#define PRISM_PRIO_MULT 1
#define PRISM_JOB_PRIO_MULT(job_ptr) ((job_ptr)->part_prio)
#endif
#ifdef PRISM_PRIO_MULT
#ifdef PRISM_HAVE_PRIO_ARRAY_NAMES
#define PRISM_PRIO_NAMES(pp) ((pp)->priority_array_names)
#else
#define PRISM_PRIO_NAMES(pp) ((pp)->priority_array_parts)
#endif
#endif

static inline uint32_t *prism_job_prio_array(const job_record_t *job_ptr)
{
#ifdef PRISM_PRIO_MULT
	return PRISM_JOB_PRIO_MULT(job_ptr) ?
	       PRISM_JOB_PRIO_MULT(job_ptr)->priority_array : NULL;
#else
	return job_ptr->priority_array;
#endif
}

/* Does the job keep a struct of per-partition priorities (PRISM_PRIO_MULT)
 * that a job of one entry has to give up? */
static inline bool prism_job_prio_struct(const job_record_t *job_ptr)
{
#ifdef PRISM_PRIO_MULT
	return PRISM_JOB_PRIO_MULT(job_ptr) != NULL;
#else
	return false;
#endif
}

/* The sprio row names its job by step_id (26.05) or job_id. */
static inline void prism_sprio_row_job(priority_factors_object_t *obj,
				       const job_record_t *job_ptr)
{
#ifdef PRISM_HAVE_FACTORS_STEP_ID
	obj->step_id = job_ptr->step_id;
#else
	obj->job_id = job_ptr->job_id;
#endif
}

/* Is this process slurmctld (by its daemon name, as Slurm tells)? */
static inline bool prism_running_in_slurmctld(void)
{
	return running_in_slurmctld();
}

/* The site factor plugin's life (renamed in 23.02; no reconfig from
 * 24.05 on). */
static inline void prism_site_factor_init(void)
{
#ifdef PRISM_HAVE_SITE_FACTOR_G
	(void) site_factor_g_init();
#else
	(void) site_factor_plugin_init();
#endif
}

static inline void prism_site_factor_fini(void)
{
#ifdef PRISM_HAVE_SITE_FACTOR_G
	(void) site_factor_g_fini();
#else
	(void) site_factor_plugin_fini();
#endif
}

static inline void prism_site_factor_reconfig(void)
{
#ifdef PRISM_HAVE_SITE_FACTOR_RECONFIG
	site_factor_g_reconfig();
#endif
}

/* Is 'uid' a coordinator of 'account'? (is_locked added in 23.11.) */
static inline bool prism_is_coord(void *db_conn, uid_t uid, char *account)
{
#ifdef PRISM_HAVE_COORD_IS_LOCKED
	return assoc_mgr_is_user_acct_coord(db_conn, uid, account, false);
#else
	return assoc_mgr_is_user_acct_coord(db_conn, uid, account);
#endif
}

/* The node count the job-size factor divides by (active nodes where the
 * controller counts them). */
static inline uint32_t prism_node_count(void)
{
#ifdef PRISM_HAVE_ACTIVE_NODE_COUNT
	return active_node_record_count > 0 ? active_node_record_count : 0;
#else
	return node_record_count > 0 ? node_record_count : 0;
#endif
}

/*
 * What slurmctld and multifactor do differently with the same headers,
 * by release (each read in that release's src/slurmctld and
 * src/plugins/priority/multifactor):
 * - PRISM_JS_NODE_FLOOR: the job-size factor of a job asking for at
 *   least every node is not negative (23.02, _get_priority_internal);
 * - PRISM_QOS_USER_RUN_SECS: a running job's unused run-seconds are
 *   also released from its QOS's per-account and per-user counters
 *   (MaxTRESRunMinsPerAccount/PerUser), and none of the QOS's of a job
 *   without association (24.05, _handle_qos_tres_run_secs);
 * - PRISM_RECONF_IS_RESTART: `scontrol reconfigure` starts a new
 *   slurmctld process (23.11), which tells it by SLURMCTLD_RECONF;
 * - PRISM_SPRIO_CALLER_LOCKS: slurmctld holds the job, node and
 *   partition read locks when it asks for sprio's rows (23.02; before,
 *   the plugin took them), and a newer sprio's request is NULL;
 * - PRISM_CTLD_SORTS_PARTS: slurmctld keeps a job's partition list in
 *   tier order (24.11); before, multifactor sorted it itself;

 */
#define PRISM_JS_NODE_FLOOR PRISM_SLURM_AT_LEAST(23, 2, 0)
#define PRISM_QOS_USER_RUN_SECS PRISM_SLURM_AT_LEAST(24, 5, 0)
#define PRISM_RECONF_IS_RESTART PRISM_SLURM_AT_LEAST(23, 11, 0)
#define PRISM_SPRIO_CALLER_LOCKS PRISM_SLURM_AT_LEAST(23, 2, 0)
#define PRISM_CTLD_SORTS_PARTS PRISM_SLURM_AT_LEAST(24, 11, 0)

#endif /* PRISM_COMPAT_H */
