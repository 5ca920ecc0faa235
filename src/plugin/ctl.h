/*****************************************************************************\
 *  ctl.h - what the whole adapter reads from slurmctld: the controller's
 *  globals, the multifactor configuration snapshot, the cluster's size.
 *
 *  The bottom of the adapter: it includes no other adapter header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CTL_H
#define PRISM_CTL_H

#include <stdbool.h>
#include <time.h>

#include "compat.h"

#include "prism_prio.h"

/* The plugin's name, for messages (priority_prism.c's plugin_type). */
#define PRISM_PLUGIN_TYPE "priority/prism"

/*
 * Controller globals. They are looked up at init() rather than linked, so
 * the plugin also loads inside client commands (sshare loads the priority
 * plugin for its fair-share column) without defining or exporting them.
 * Inside slurmctld every one must be found. Elsewhere (a program that
 * drives the plugin as a controller, such as Slurm's own tests of
 * multifactor) the plugin needs what multifactor needs: job_list,
 * cluster_cpus, last_job_update and acct_db_conn; slurmctld_tres_cnt and
 * last_part_update may be missing (no TRES; partitions never changed).
 */
typedef struct {
	list_t **job_list;
	uint32_t *cluster_cpus;
	int *tres_cnt;
	time_t *last_job_update;
	void **acct_db_conn;
	time_t *last_part_update;	/* may be NULL */
	slurmctld_config_t *config;	/* may be NULL */
} prism_ctl_t;

/* Filled by prism_ctl_find(); all NULL outside a controller. */
extern prism_ctl_t prism_ctl;

/*
 * Look the controller globals up (init). Returns SLURM_ERROR (logged,
 * naming the symbol) when this process is slurmctld and one is missing:
 * the plugin was built for another release and would compute nothing.
 */
extern int prism_ctl_find(void);

/* True when loaded by a controller (its globals were found). */
extern bool prism_in_controller(void);

/*
 * How long before slurmctld may answer the controller that asked this one
 * for control, it stops writing Prism's files (seconds; see below).
 */
#define PRISM_HANDOVER_MARGIN 3

/*
 * True when this controller gives control to the one that asked for it
 * (REQUEST_CONTROL: a primary that came back, or `scontrol takeover` on a
 * backup) and slurmctld may already have answered that controller, which
 * then reads the state files. slurmctld answers when its own shutdown is
 * done, or CONTROL_TIMEOUT - 1 seconds after the request, whichever comes
 * first; the request starts the shutdown (slurmctld_config.shutdown_time,
 * the same second or the next). From PRISM_HANDOVER_MARGIN seconds before
 * that, a file written here could replace a newer one of the other
 * controller, or mix with it in NAME.new. 'now' is time(NULL).
 */
extern bool prism_ctl_control_given_away(time_t now);

/* The number of TRES slurmctld tracks now (its arrays' length), 0 outside
 * the controller. (Inline: the pass asks for it for every job.) */
static inline uint32_t prism_ctl_tres_cnt(void)
{
	if (!prism_ctl.tres_cnt || (*prism_ctl.tres_cnt < 0))
		return 0;
	return *prism_ctl.tres_cnt;
}

/*
 * A consistent copy of the configuration (thread-safe). Its weight_tres
 * array is shared, stays valid and unchanged until prism_conf_free(), and
 * is not released by the caller.
 */
extern void prism_conf_get(prism_prio_conf_t *conf);

/*
 * PriorityCalcPeriod in seconds (at least 1), as the last
 * prism_conf_load() read it (thread-safe): the recalculation thread
 * reads it between passes, when a reconfigure may be rewriting
 * slurm_conf.
 */
extern uint32_t prism_conf_calc_period(void);

/*
 * Re-read the configuration from slurm_conf; inside slurmctld also
 * PriorityWeightTRES, with Slurm's parser (fatal() on a bad string, as
 * multifactor). Takes the assoc_mgr TRES lock (through Slurm's parser),
 * then conf_lock, a leaf.
 */
extern void prism_conf_load(void);

/* Forget the configuration (fini); no snapshot may be in use any more. */
extern void prism_conf_free(void);

/* The cluster's size as the job-size factor needs it. */
extern void prism_world_get(prism_world_t *world);

#endif /* PRISM_CTL_H */
