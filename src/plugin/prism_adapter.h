/*****************************************************************************\
 *  prism_adapter.h - shared declarations of the priority/prism adapter:
 *  the bridge between slurmctld's records and Prism's core.
 *
 *  Nothing here computes a factor: the adapter reads Slurm's records into
 *  core structs, calls the core, and writes the results back.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_ADAPTER_H
#define PRISM_ADAPTER_H

#include <stdbool.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#include "prism_prio.h"
#include "prism_state.h"

/*
 * Controller globals. They are looked up at init() rather than linked, so
 * the plugin also loads inside client commands (sshare loads the priority
 * plugin for its fair-share column) without defining or exporting them.
 */
typedef struct {
	List *job_list;
	uint32_t *cluster_cpus;
	int *tres_cnt;
	time_t *last_job_update;
	void **acct_db_conn;
} prism_ctl_t;

/* Filled by init(); all NULL when not running inside slurmctld. */
extern prism_ctl_t prism_ctl;

/* True when loaded by slurmctld (the controller globals were found). */
extern bool prism_in_controller(void);

/* A consistent copy of the configuration (thread-safe). */
extern void prism_conf_get(prism_prio_conf_t *conf);

/* Re-read the configuration from slurm_conf. */
extern void prism_conf_load(void);

/* The cluster's size as the job-size factor needs it. */
extern void prism_world_get(prism_world_t *world);

/*
 * Compute the priority of 'job_ptr' at 'now' from the core, fill its
 * prio_factors (what sprio shows) and priority_array (one entry per
 * partition, PriorityTier order). Returns the priority for the job's
 * first partition; the caller applies INCR_ONLY to job_ptr->priority.
 * Caller holds the job write lock and the assoc_mgr QOS/assoc read locks.
 */
extern uint32_t prism_job_compute(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf,
				  const prism_world_t *world, time_t now);

/*
 * Build sprio's factor list for the jobs 'req_msg' selects that 'uid'
 * may see. Returns a list the caller frees, or NULL when there is none.
 * Takes the job read lock itself.
 */
extern List prism_job_factors_list(priority_factors_request_msg_t *req_msg,
				   uid_t uid);

/* The entry points Slurm looks up (src/common/slurm_priority.c). */
extern int init(void);
extern int fini(void);
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr);
extern void priority_p_reconfig(bool assoc_clear);
extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm);
extern List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid);
extern void priority_p_job_end(job_record_t *job_ptr);

/* Start and stop the recalculation thread. */
extern int prism_recalc_start(void);
extern void prism_recalc_stop(void);

/* Recalculate every job now (one pass). */
extern void prism_recalc_pass(void);

/*
 * Read Prism's state file from StateSaveLocation into 'st'; a missing or
 * damaged file is reported and gives a fresh (zero) state.
 */
extern void prism_state_load(prism_state_t *st);

/* Write 'st' atomically. Returns SLURM_SUCCESS or SLURM_ERROR (logged). */
extern int prism_state_save(const prism_state_t *st);

#endif /* PRISM_ADAPTER_H */
