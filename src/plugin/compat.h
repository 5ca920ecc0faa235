/*****************************************************************************\
 *  compat.h - everything that differs between the Slurm versions Prism
 *  builds for, in one place, behind SLURM_VERSION_NUMBER. The rest of the
 *  adapter includes this header instead of Slurm's and is written once.
 *
 *  docs/slurm-22.05-to-24.11.md lists what changed between 22.05 and
 *  24.11 with the file and line of each version's source.
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
#if PRISM_SLURM_AT_LEAST(24, 11, 0)
#include "src/common/state_save.h"
#endif
#if PRISM_SLURM_AT_LEAST(23, 2, 0)
#include "src/interfaces/mcs.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/site_factor.h"
#else
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#endif

/* 24.11 names Slurm's lists list_t and list_itr_t (List was a pointer
 * typedef of the same structs). */
#if !PRISM_SLURM_AT_LEAST(24, 11, 0)
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif

/* A job's details: an anonymous struct named job_details_t in 24.11. */
#if !PRISM_SLURM_AT_LEAST(24, 11, 0)
typedef struct job_details job_details_t;
#endif

/* The weighted factors a job keeps for sprio (job_ptr->prio_factors):
 * from 23.02 on, a priority_factors_t the sprio row points to. */
#if PRISM_SLURM_AT_LEAST(23, 2, 0)
typedef priority_factors_t prism_factors_t;
#else
typedef priority_factors_object_t prism_factors_t;
#endif

/* The site factor plugin's life (renamed in 23.02; no reconfig from
 * 24.05 on). */
static inline void prism_site_factor_init(void)
{
#if PRISM_SLURM_AT_LEAST(23, 2, 0)
	(void) site_factor_g_init();
#else
	(void) site_factor_plugin_init();
#endif
}

static inline void prism_site_factor_fini(void)
{
#if PRISM_SLURM_AT_LEAST(23, 2, 0)
	(void) site_factor_g_fini();
#else
	(void) site_factor_plugin_fini();
#endif
}

static inline void prism_site_factor_reconfig(void)
{
#if !PRISM_SLURM_AT_LEAST(24, 5, 0)
	site_factor_g_reconfig();
#endif
}

/* Is 'uid' a coordinator of 'account'? (24.05 added is_locked.) */
static inline bool prism_is_coord(void *db_conn, uid_t uid, char *account)
{
#if PRISM_SLURM_AT_LEAST(24, 5, 0)
	return assoc_mgr_is_user_acct_coord(db_conn, uid, account, false);
#else
	return assoc_mgr_is_user_acct_coord(db_conn, uid, account);
#endif
}

/* The node count the job-size factor divides by (23.02: active nodes). */
static inline uint32_t prism_node_count(void)
{
#if PRISM_SLURM_AT_LEAST(23, 2, 0)
	return active_node_record_count > 0 ? active_node_record_count : 0;
#else
	return node_record_count > 0 ? node_record_count : 0;
#endif
}

/* The job's per-partition priorities (NULL: none). */
static inline uint32_t *prism_job_prio_array(const job_record_t *job_ptr)
{
#if PRISM_SLURM_AT_LEAST(24, 5, 0)
	return job_ptr->part_prio ? job_ptr->part_prio->priority_array : NULL;
#else
	return job_ptr->priority_array;
#endif
}

#endif /* PRISM_COMPAT_H */
