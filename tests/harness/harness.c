/*****************************************************************************\
 *  harness.c - prism-harness: a fake slurmctld that loads a Slurm priority
 *  plugin through Slurm's own plugin loader, feeds it an in-memory "world"
 *  (associations, QOS, partitions, jobs), lets it run a recalculation pass
 *  and prints a stable, diffable report of what the plugin computed.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Part of Prism.  This program is free software; you can redistribute it
 *  and/or modify it under the terms of the GNU General Public License as
 *  published by the Free Software Foundation; either version 2 of the
 *  License, or (at your option) any later version.
 *****************************************************************************
 *  COMMAND LINE
 *
 *    prism-harness --conf FILE --world FILE [--state DIR] [--keep-state]
 *                  [--plugin priority/NAME] [--plugindir DIR[:DIR...]]
 *                  [--pass state|jobwrite|none] [--passes N]
 *                  [--timeout SEC] [--now EPOCH|--real-clock]
 *                  [--last-ran EPOCH] [--digits N]
 *                  [--report full|jobs|none] [--calc-period SEC]
 *                  [--advance SEC[,SEC...]] [--move ACCOUNT=PARENT]
 *                  [--at-pass N:CMD] [--slurm-save] [--slurm-load]
 *                  [--save-mid CMD [--save-mid-at @mid|@before[+SEC]]]
 *                  [--storm USEC]
 *                  [--handover SEC[@start]]
 *                  [--end-job ID[@mid|@before][+SEC]]
 *                  [--churn SEED [--churn-rate N] [--churn-full K]]
 *                  [--bench FILE] [-v...]
 *
 *  WORLD FILE FORMAT (one directive per line, '#' starts a comment, tokens
 *  are separated by white space, options are key=value):
 *
 *    cluster nodes=N cpus=N [mem=MB]
 *        Cluster size (node_record_count, cluster_cpus).  Optional; the
 *        default is the largest partition (partitions overlap).
 *    qos NAME priority=N [usage_factor=F] [flags=F1,F2] [id=N]
 *        A QOS.  "normal" (id 1, priority 0) exists implicitly unless
 *        defined.  flags use sacctmgr names (NoDecay, ...).
 *    assoc ACCOUNT [parent=ACCOUNT] shares=N|parent [priority=N]
 *          [detached=1]
 *        An account association.  The parent defaults to "root", which
 *        always exists (shares 1).  Accounts carry no usage of their own.
 *        detached=1: its parent_id names no association, so assoc_mgr
 *        leaves it (and its users) outside the tree ("Can't find parent
 *        id ..."), as slurmctld does when an account's parent is gone.
 *    assoc USER@ACCOUNT shares=N|parent [usage=RAW] [uid=N] [priority=N]
 *        A user association.  usage is the raw (decayed, billing-weighted)
 *        usage in TRES-seconds; it is summed up the tree by assoc_mgr.
 *        uid defaults to 1000 + order of first appearance of the user.
 *    part NAME nodes=N cpus=N [mem=MB] [factor=N] [tier=N]
 *         [billing=TRESBillingWeights] [max_time=MIN]
 *        A partition (PriorityJobFactor=factor, PriorityTier=tier).
 *    job ID user=U [account=A] part=P[,P2...] [qos=Q[,Q2...]] [cpus=N]
 *        [nodes=N]
 *        [mem=MB] submit=REL [begin=REL] [accrue=REL] [start=REL]
 *        [time_limit=MIN] [state=PD|R|HELD] [nice=N] [site=N]
 *        [priority=N] [loaded=N] [uid=N]
 *        A job.  REL is a time relative to "now": -3600, -90m, -2h, -1d
 *        (a leading '+' or no sign means the future).  begin defaults to
 *        submit, start (state=R only) to begin; accrue defaults to what
 *        slurmctld sets (begin; submit with ACCRUE_ALWAYS; none for held
 *        or future jobs when limits are enforced).  mem is per node.
 *        priority=N is an admin-set priority (direct_set_prio).
 *        loaded=N: the job was loaded from slurmctld's saved state with
 *        priority N (not admin-set, priority_array not saved, so
 *        priority_g_set() is not called; only a pass recomputes it).
 *        HELD is a user hold (priority 0).  account defaults to the first
 *        association of the user, qos to "normal", cpus/nodes to 1.
 *        qos=Q1,Q2: a job that asked for several QOS (Slurm 24.11's
 *        sbatch --qos=Q1,Q2): its qos_list sorted by QOS priority,
 *        highest first, its QOS the first; one priority per (partition,
 *        QOS) pair.  Built against 22.05 the harness refuses it.
 *
 *  See tests/harness/README for the report format and the design notes.
\*****************************************************************************/

#ifndef _GNU_SOURCE
#  define _GNU_SOURCE		/* RTLD_DEFAULT */
#endif

#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <float.h>
#include <getopt.h>
#include <grp.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/fd.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/slurmdb_defs.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

/*****************************************************************************\
 *  SLURM VERSIONS.  The one place where the Slurm releases the harness
 *  builds against (22.05 and 24.11, see docs/slurm-22.05-to-24.11.md)
 *  differ; the rest of the file is written once, in 24.11's names.
 *
 *                       22.05                     24.11
 *  headers              src/common/slurm_priority  src/interfaces/priority,
 *                                                  state_save, acct_policy
 *  lists, details       List, struct job_details   list_t *, job_details_t
 *  job record           prio_factors: the row      prio_factors: a
 *                       (priority_factors_object)  priority_factors_t the
 *                                                  row points to (+account,
 *                                                  qos); job_record_create()
 *  priority array       job_ptr->priority_array    job_ptr->part_prio, one
 *                       (one per partition)        entry per (partition,
 *                                                  QOS) pair; qos_list
 *  sprio hook           (request, uid), no locks   (uid) under job/node/part
 *                                                  read + assoc_mgr QOS read
 *  plugin start         priority_g_init() starts   init, jobs, then
 *                       the thread; lazy init      priority_g_thread_start()
 *                                                  and priority_g_recover()
 *  job-size node count  node_record_count          active_node_record_count
 *  state-file lock      slurmctld's: defined here  libslurmfull's: only
 *                                                  observed here (RTLD_NEXT)
 *  controller functions -                          acct_policy_get_{acct,
 *                                                  user}_used_limits,
 *                                                  part_list_to_xstr
 *  QOS run-seconds      the QOS's own              also per account and
 *  (limits enforced)                               per user in the QOS
 *  reason names         job_reason_string()        job_state_reason_string()
 *  assoc_mgr_init()     told StateSaveLocation     reads slurm_conf's
\*****************************************************************************/
#define HARNESS_2411 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0))

#if HARNESS_2411
#  include "src/common/job_state_reason.h"
#  include "src/common/state_save.h"
#  include "src/interfaces/priority.h"
#  include "src/slurmctld/acct_policy.h"
#else
#  include "src/common/slurm_priority.h"
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
typedef struct job_details job_details_t;
#endif

/* the job's priority struct: part_prio, prio_mult from 24.11.7 and
 * 25.05.1 (configure's probes, m4/prism_slurm.m4) */
#ifdef PRISM_HAVE_JOB_PRIO_MULT
#  define JOB_PRIO_MULT(j)	((j)->prio_mult)
#else
#  define JOB_PRIO_MULT(j)	((j)->part_prio)
#endif

/* the job of a sprio row: step_id from 26.05 */
#ifdef PRISM_HAVE_FACTORS_STEP_ID
#  define ROW_JOB_ID(obj)	((obj)->step_id.job_id)
#else
#  define ROW_JOB_ID(obj)	((obj)->job_id)
#endif

#if HARNESS_2411
/* the weighted factors of a sprio row */
#  define ROW_FACTORS(obj)	((obj)->prio_factors)
typedef priority_factors_t row_factors_t;
#  define ROW_QOS(obj)		((obj)->qos)
/* the job's priority array (NULL: none) and QOS list (NULL: one QOS) */
#  define JOB_PRIO_ARRAY(j)	(JOB_PRIO_MULT(j) ? \
				 JOB_PRIO_MULT(j)->priority_array : NULL)
#  define JOB_QOS_LIST(j)	((j)->qos_list)
#  define GET_FACTORS_LIST(uid)	priority_g_get_priority_factors_list(uid)
#  define JOB_REASON_STRING(r)	job_state_reason_string(r)
#else
#  define ROW_FACTORS(obj)	(obj)
typedef priority_factors_object_t row_factors_t;
#  define ROW_QOS(obj)		((char *) NULL)
#  define JOB_PRIO_ARRAY(j)	((j)->priority_array)
#  define JOB_QOS_LIST(j)	((list_t *) NULL)
static list_t *_get_factors_list_2205(uid_t uid)
{
	priority_factors_request_msg_t req;

	memset(&req, 0, sizeof(req));
	return priority_g_get_priority_factors_list(&req, uid);
}
#  define GET_FACTORS_LIST(uid)	_get_factors_list_2205(uid)
#  define JOB_REASON_STRING(r)	job_reason_string(r)
#endif

#define HARNESS_NAME		"prism-harness"
#define HARNESS_TOP_PRIORITY	0xffff0000	/* as slurmctld's job_mgr.c */
#define HARNESS_UID_BASE	1000
#define CTLD_LOCK_CNT		5		/* conf, job, node, part, fed */

#define EXIT_USAGE	2
#define EXIT_WORLD	2
#define EXIT_TIMEOUT	3
#define EXIT_LOCKING	4

/*****************************************************************************\
 *  Controller symbols.  A priority plugin is loaded into slurmctld and
 *  references these; libslurmfull does not provide them.  The program is
 *  linked with -rdynamic so that the plugin's references bind here (the
 *  multifactor plugin even carries its own fallback definitions of some of
 *  them, which are interposed by these).
\*****************************************************************************/
list_t *job_list = NULL;		/* list of job_record_t */
list_t *part_list = NULL;		/* list of part_record_t */
time_t last_job_update = 0;
time_t last_part_update = 0;
uint32_t cluster_cpus = 0;
int slurmctld_tres_cnt = 0;
void *acct_db_conn = NULL;
uint16_t accounting_enforce = 0;
uint16_t part_max_priority = DEF_PART_MAX_PRIORITY;
uint16_t running_cache = RUNNING_CACHE_STATE_NOTRUNNING;
slurmctld_config_t slurmctld_config;

/*****************************************************************************\
 *  SLURM VERSIONS (continued): what the program does differently per
 *  release.  Everything else calls these.
\*****************************************************************************/
static void _state_files_unlocked(void);	/* pass accounting, below */

/* A new job record as slurmctld creates it. */
static job_record_t *_job_record_new(void)
{
#if HARNESS_2411
	/* libslurmfull's: details, a zeroed prio_factors, site_factor */
	return job_record_create();
#else
	job_record_t *job_ptr = xmalloc(sizeof(*job_ptr));

	job_ptr->magic = JOB_MAGIC;
	job_ptr->array_task_id = NO_VAL;
	job_ptr->details = xmalloc(sizeof(*job_ptr->details));
	job_ptr->details->magic = DETAILS_MAGIC;
	job_ptr->site_factor = NICE_OFFSET;
	job_ptr->billable_tres = (double) NO_VAL;
	return job_ptr;
#endif
}

/* Free what a job record holds that differs between releases. */
static void _job_record_free_version(job_record_t *job_ptr)
{
#if HARNESS_2411
	if (JOB_PRIO_MULT(job_ptr)) {
		xfree(JOB_PRIO_MULT(job_ptr)->priority_array);
		xfree(JOB_PRIO_MULT(job_ptr)->priority_array_names);
		xfree(JOB_PRIO_MULT(job_ptr));
	}
	slurm_destroy_priority_factors(job_ptr->prio_factors);
	job_ptr->prio_factors = NULL;
	FREE_NULL_LIST(job_ptr->qos_list);
	FREE_NULL_LIST(job_ptr->step_list);
	if (job_ptr->details)
		xfree(job_ptr->details->qos_req);
#else
	if (job_ptr->prio_factors)
		slurm_destroy_priority_factors_object(job_ptr->prio_factors);
	job_ptr->prio_factors = NULL;
	xfree(job_ptr->priority_array);
#endif
}

/* Number of entries allocated in the job's priority array. */
static uint32_t _job_prio_array_size(const job_record_t *job_ptr)
{
	uint32_t *a = JOB_PRIO_ARRAY(job_ptr);

	return a ? (uint32_t) (xsize(a) / sizeof(uint32_t)) : 0;
}

/* The names Slurm keeps with the priority array (squeue); NULL: none. */
static const char *_job_prio_array_names(const job_record_t *job_ptr)
{
#if HARNESS_2411
	return JOB_PRIO_MULT(job_ptr) ?
	       JOB_PRIO_MULT(job_ptr)->priority_array_names : NULL;
#else
	return NULL;
#endif
}

#if HARNESS_2411
static int _find_qos_rec_by_name(void *x, void *key)
{
	return !xstrcmp(((slurmdb_qos_rec_t *) x)->name, (char *) key);
}
#endif

/*
 * A job that asked for several QOS ('names', comma separated, each
 * defined): its QOS list as slurmctld builds it at submission, each QOS
 * once, sorted by QOS priority, highest first; the job's QOS is the
 * first.  Returns false where Slurm has no multi-QOS jobs (the world
 * check refuses them there).  Caller holds the assoc_mgr QOS read lock.
 */
static bool _job_set_qos_list(job_record_t *job_ptr, const char *names)
{
#if HARNESS_2411
	char *copy = xstrdup(names), *tok, *save = NULL;

	job_ptr->qos_list = list_create(NULL);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		slurmdb_qos_rec_t *qos = list_find_first(
			assoc_mgr_qos_list, _find_qos_rec_by_name, tok);

		if (qos && !list_find_first(job_ptr->qos_list,
					    slurm_find_ptr_in_list, qos))
			list_append(job_ptr->qos_list, qos);
	}
	xfree(copy);
	list_sort(job_ptr->qos_list, priority_sort_qos_desc);
	job_ptr->qos_ptr = list_peek(job_ptr->qos_list);
	job_ptr->qos_id = job_ptr->qos_ptr->id;
	job_ptr->details->qos_req = xstrdup(names);
	return true;
#else
	(void) job_ptr;
	(void) names;
	return false;
#endif
}

/* assoc_mgr_init()'s arguments: 22.05 is told StateSaveLocation (24.11
 * reads slurm_conf's). */
static void _assoc_init_args_version(assoc_init_args_t *args)
{
#if !HARNESS_2411
	args->state_save_location = &slurm_conf.state_save_location;
#else
	(void) args;
#endif
}

/* The cluster's node count as the job-size factor reads it. */
static void _set_node_count(uint32_t nodes)
{
	node_record_count = nodes;
#if HARNESS_2411
	active_node_record_count = nodes;	/* no empty node slots */
#endif
}

/*
 * 22.05's slurmctld initialises the priority plugin after read_slurm_conf()
 * loaded the jobs (controller.c), and 22.05's multifactor thread, started
 * in init(), skips rebuilding run-seconds when it finds job_list empty;
 * 24.11's calls init() first (its thread starts once the jobs are in).
 */
#define HARNESS_JOBS_BEFORE_INIT	(!HARNESS_2411)

/*
 * The jobs are loaded: from 24.11 on, slurmctld now starts the plugin's
 * thread (priority_g_thread_start) and then syncs job priorities
 * (priority_g_recover with the boost priority/basic needs, its result
 * added to lowest_prio).  22.05's init() started the thread itself.
 */
static void _plugin_jobs_loaded(uint32_t *lowest, uint32_t highest_loaded)
{
#if HARNESS_2411
	uint32_t boost = 0;

	priority_g_thread_start();
	if (highest_loaded && (highest_loaded < HARNESS_TOP_PRIORITY))
		boost = HARNESS_TOP_PRIORITY - highest_loaded;
	*lowest += priority_g_recover(boost);
#else
	(void) lowest;
	(void) highest_loaded;
#endif
}

/*
 * The state-file lock.  22.05: a slurmctld function the harness defines.
 * 24.11: libslurmfull's (its save_buf_to_state() takes it, through the
 * PLT); the harness interposes unlock_state_files() only to see a pass
 * end, and calls libslurmfull's through RTLD_NEXT.
 */
#if HARNESS_2411
static void (*real_unlock_state_files)(void) = NULL;

static void _resolve_unlock_state_files(void)
{
	real_unlock_state_files = dlsym(RTLD_NEXT, "unlock_state_files");
}

extern void unlock_state_files(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, _resolve_unlock_state_files);
	if (!real_unlock_state_files ||
	    (real_unlock_state_files == unlock_state_files)) {
		fprintf(stderr, "%s: error: cannot find libslurmfull's unlock_state_files()\n",
			HARNESS_NAME);
		_exit(1);
	}
	real_unlock_state_files();
	_state_files_unlocked();
}
#else
static pthread_mutex_t state_mutex = PTHREAD_MUTEX_INITIALIZER;

extern void lock_state_files(void)
{
	slurm_mutex_lock(&state_mutex);
}

extern void unlock_state_files(void)
{
	slurm_mutex_unlock(&state_mutex);
	_state_files_unlocked();
}
#endif

/*
 * AccountingStorageEnforce=limits.  24.11 also counts a QOS's run-seconds
 * per account and per user (MaxTRESRunMinsPerAccount/PerUser; the plugin
 * drains them): a starting job adds its TRES-seconds 'run' there
 * (acct_policy_job_begin), and the report shows them.  22.05 has no such
 * counters.  Caller holds the assoc_mgr QOS write (report: read) lock.
 */
static bool _limits_enforced(void);			/* the report */
static void _print_run_secs(const uint64_t *secs);	/* the report */
static void _qos_used_limits_begin(slurmdb_qos_rec_t *qos,
				   job_record_t *job_ptr, const uint64_t *run);
static void _report_qos_used_limits(slurmdb_qos_rec_t *qos);

#if HARNESS_2411
/*
 * slurmctld functions a 24.11 plugin calls: the per-account and per-user
 * usage records of a QOS (multifactor drains their run-seconds when
 * limits are enforced), found or created; and a partition list's names.
 */
static int _used_limits_acct_is(void *x, void *key)
{
	return !xstrcmp(((slurmdb_used_limits_t *) x)->acct, (char *) key);
}

static int _used_limits_uid_is(void *x, void *key)
{
	return ((slurmdb_used_limits_t *) x)->uid == *(uint32_t *) key;
}

static slurmdb_used_limits_t *_used_limits_new(void)
{
	slurmdb_used_limits_t *u = xmalloc(sizeof(*u));

	u->tres = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
	u->tres_run_secs = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
	return u;
}

extern slurmdb_used_limits_t *acct_policy_get_acct_used_limits(
	list_t **acct_limit_list, char *acct)
{
	slurmdb_used_limits_t *u;

	if (!*acct_limit_list)
		*acct_limit_list = list_create(slurmdb_destroy_used_limits);
	u = list_find_first(*acct_limit_list, _used_limits_acct_is, acct);
	if (!u) {
		u = _used_limits_new();
		u->acct = xstrdup(acct);
		list_append(*acct_limit_list, u);
	}
	return u;
}

extern slurmdb_used_limits_t *acct_policy_get_user_used_limits(
	list_t **user_limit_list, uint32_t user_id)
{
	slurmdb_used_limits_t *u;

	if (!*user_limit_list)
		*user_limit_list = list_create(slurmdb_destroy_used_limits);
	u = list_find_first(*user_limit_list, _used_limits_uid_is, &user_id);
	if (!u) {
		u = _used_limits_new();
		u->uid = user_id;
		list_append(*user_limit_list, u);
	}
	return u;
}

extern char *part_list_to_xstr(list_t *list)
{
	list_itr_t *itr;
	part_record_t *part_ptr;
	char *names = NULL;

	if (!list)
		return NULL;
	itr = list_iterator_create(list);
	while ((part_ptr = list_next(itr)))
		xstrfmtcat(names, "%s%s", names ? "," : "", part_ptr->name);
	list_iterator_destroy(itr);
	return names;
}
#endif

static void _qos_used_limits_begin(slurmdb_qos_rec_t *qos,
				   job_record_t *job_ptr, const uint64_t *run)
{
#if HARNESS_2411
	slurmdb_used_limits_t *used[2] = {
		acct_policy_get_acct_used_limits(&qos->usage->acct_limit_list,
						 job_ptr->assoc_ptr->acct),
		acct_policy_get_user_used_limits(&qos->usage->user_limit_list,
						 job_ptr->user_id),
	};
	int i, w;

	for (w = 0; w < 2; w++)
		for (i = 0; i < slurmctld_tres_cnt; i++)
			used[w]->tres_run_secs[i] += run[i];
#else
	(void) qos;
	(void) job_ptr;
	(void) run;
#endif
}

#if HARNESS_2411
static int _cmp_used_limits(void *x, void *y)
{
	slurmdb_used_limits_t *a = *(slurmdb_used_limits_t **) x;
	slurmdb_used_limits_t *b = *(slurmdb_used_limits_t **) y;
	int c = xstrcmp(a->acct, b->acct);

	if (c)
		return c;
	return (a->uid < b->uid) ? -1 : (a->uid > b->uid);
}

/* "qos-used QOS:acct:ACCOUNT run_secs=..." or ":user:UID", sorted. */
static void _report_used_list(const char *qos, const char *kind,
			      list_t *list)
{
	list_t *sorted;
	list_itr_t *itr;
	slurmdb_used_limits_t *u;

	if (!list)
		return;
	sorted = list_shallow_copy(list);
	list_sort(sorted, _cmp_used_limits);
	itr = list_iterator_create(sorted);
	while ((u = list_next(itr))) {
		if (u->acct)
			printf("qos-used %s:%s:%s", qos, kind, u->acct);
		else
			printf("qos-used %s:%s:%u", qos, kind, u->uid);
		_print_run_secs(u->tres_run_secs);
		printf("\n");
	}
	list_iterator_destroy(itr);
	FREE_NULL_LIST(sorted);
}
#endif

static void _report_qos_used_limits(slurmdb_qos_rec_t *qos)
{
#if HARNESS_2411
	if (!qos->usage)
		return;
	_report_used_list(qos->name, "acct", qos->usage->acct_limit_list);
	_report_used_list(qos->name, "user", qos->usage->user_limit_list);
#else
	(void) qos;
#endif
}

/*****************************************************************************\
 *  World description (parsed from the world file)
\*****************************************************************************/
typedef struct {
	char *name;
	uint32_t id;
	uint32_t priority;
	double usage_factor;
	uint32_t flags;
	int line;
} w_qos_t;

typedef struct w_assoc {
	char *acct;
	char *user;			/* NULL for an account association */
	char *parent;			/* parent account (users: own) */
	uint32_t shares;
	uint32_t priority;
	long double usage;
	uint32_t uid;
	uint32_t hash_uid;		/* the uid assoc_mgr hashed rec by */
	int line;
	uint32_t id, lft, rgt;
	uint32_t fixed_id;		/* id= (0: numbered in tree order) */
	bool detached;			/* parent_id names no association */
	slurmdb_assoc_rec_t *rec;	/* owned by assoc_mgr once built */
	struct w_assoc **kids;		/* child associations, list order */
	int nkids, maxkids;
} w_assoc_t;

typedef struct {
	char *name;
	uint32_t nodes;
	uint32_t cpus;
	uint64_t mem;
	uint16_t factor;
	uint16_t tier;
	char *billing;
	uint32_t max_time;
	int line;
	part_record_t *rec;
} w_part_t;

typedef struct {
	uint32_t id;
	char *user;
	char *account;
	char *parts;
	char *qos;			/* Q or Q1,Q2,... */
	int nqos;			/* how many different QOS */
	uint32_t cpus;
	uint32_t nodes;
	uint64_t mem;
	long submit, begin, accrue, start;
	bool has_begin, has_accrue, has_start;
	uint32_t time_limit;
	char state;			/* 'P'ending, 'R'unning, 'H'eld */
	int32_t nice;
	int32_t site;
	uint32_t priority;		/* NO_VAL unless admin-set */
	uint32_t loaded;		/* NO_VAL unless loaded from state */
	uint32_t uid;			/* NO_VAL unless given */
	int line;
} w_job_t;

/*
 * A string-keyed hash index.  The world lists are otherwise searched
 * linearly, which is quadratic for big (generated) worlds.
 */
#define IDX_BUCKETS	65536

typedef struct idx_ent {
	char *key;
	void *val;
	struct idx_ent *next;
} idx_ent_t;

typedef struct {
	idx_ent_t **b;
} idx_t;

typedef struct {
	const char *file;
	uint32_t cluster_nodes;
	uint32_t cluster_cpus;
	uint64_t cluster_mem;
	list_t *qos;			/* w_qos_t */
	list_t *assocs;			/* w_assoc_t, root first */
	list_t *parts;			/* w_part_t */
	list_t *jobs;			/* w_job_t */
	list_t *users;			/* char *, order of first appearance */
	idx_t assoc_idx;		/* "ACCT" / "USER\001ACCT" -> w_assoc_t */
	idx_t user_idx;			/* USER -> first w_assoc_t of the user */
	idx_t uid_idx;			/* USER -> 1 + order of appearance */
	idx_t job_idx;			/* "ID" -> w_job_t */
} world_t;

/*****************************************************************************\
 *  Options and run state
\*****************************************************************************/
typedef enum {
	REPORT_FULL,		/* world, jobs and factors (the default) */
	REPORT_JOBS,		/* the plugin line and job rows only */
	REPORT_NONE		/* nothing on stdout */
} report_mode_t;

typedef enum {
	PASS_STATE,		/* a plugin thread released the state files */
	PASS_JOBWRITE,		/* a plugin thread released a job write lock */
	PASS_NONE		/* do not wait for a background pass */
} pass_mode_t;

static struct {
	char *conf_file;
	char *world_file;
	char *state_dir;
	bool keep_state;
	char *plugin;
	char *plugindir;
	pass_mode_t pass_mode;
	int passes;
	int timeout;
	time_t now;
	bool real_clock;
	int verbose;
	int digits;
	time_t last_ran;
	report_mode_t report;
	char *bench_file;
	int calc_period;	/* --calc-period: PriorityCalcPeriod, seconds */
	long advance[16];	/* --advance: seconds per finished pass */
	int n_advance;		/* (the last repeats) */
	struct {		/* --at-pass N:CMD: after pass N, run CMD */
		int pass;
		char *cmd;
	} at[4];
	int n_at;
	bool slurm_save;	/* --slurm-save: slurmctld's usage files */
	bool slurm_load;	/* --slurm-load: and at start, read them */
	char *mid_cmd;		/* --save-mid CMD: save them in a pass, and
				 * run CMD */
	bool mid_before;	/* --save-mid-at @before: before the pass's
				 * first job write lock, not after it */
	long mid_after;		/* --save-mid-at ...+SEC: the clock moved
				 * first */
	long storm_usec;	/* --storm USEC: a reader's hold (0: none) */
	long handover;		/* --handover SEC (-1: none) */
	bool handover_start;	/* --handover SEC@start */
	char *move_acct;	/* --move ACCOUNT=PARENT */
	char *move_parent;
	long churn_seed;	/* --churn SEED (0: no churn) */
	int churn_rate;		/* --churn-rate N: events of a kind per pass */
	int churn_full;		/* --churn-full K: full report every K */
	char *churn_skip;	/* --churn-skip KINDS: event kinds left out */
	uint32_t end_job;	/* --end-job ID (0: none) */
	bool end_mid;		/* --end-job ID@mid: during the first pass */
	bool end_before;	/* --end-job ID@before: the same, before the
				 * pass's first job write lock */
	long end_after;		/* --end-job ...+SEC: the clock moved first */
	bool nss_count;		/* --nss-count: the lookups by id reported */
	char *weights_tres;	/* --weights-tres STR: reconfigured to it */
	bool sprio_mid;		/* --sprio-mid: sprio's rows in the pass */
} opt = {
	.pass_mode = PASS_STATE,
	.passes = 1,
	.timeout = 60,
	.churn_rate = 4,
	.churn_full = 10,
	.handover = -1,
};

static world_t world;
static char *state_dir = NULL;
static bool state_dir_is_temp = false;
static uint32_t lowest_prio = HARNESS_TOP_PRIORITY;
static uint32_t highest_loaded_prio = 0;	/* jobs loaded from state */
static FILE *bench_fp = NULL;		/* --bench FILE */
static uint64_t bench_set_calls = 0, bench_set_ns = 0;

/*****************************************************************************\
 *  Error helpers
\*****************************************************************************/
__attribute__((format(printf, 2, 0), noreturn))
static void _vdie(int code, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: error: ", HARNESS_NAME);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	/* a temporary StateSaveLocation goes with the run, even a failed one */
	if (state_dir_is_temp && state_dir)
		(void) rmdir_recursive(state_dir, true);
	exit(code);
}

__attribute__((format(printf, 1, 2), noreturn))
static void _die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_vdie(1, fmt, ap);
}

__attribute__((format(printf, 2, 3), noreturn))
static void _die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_vdie(code, fmt, ap);
}

__attribute__((format(printf, 2, 3), noreturn))
static void _world_error(int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: %s:%d: ", HARNESS_NAME, world.file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_WORLD);
}

/*****************************************************************************\
 *  Clock.  time() is interposed (the program is linked -rdynamic, so the
 *  plugin's and libslurmfull's calls to time() land here): unless
 *  --real-clock is given, it returns a fixed "now" for the whole run, so
 *  every age-dependent value is a pure function of the world file.
 *  gettimeofday()/clock_gettime() are NOT interposed: plugins use them to
 *  time their sleeps, and a frozen wall clock would make those spin.
\*****************************************************************************/
static time_t _frozen_now = 0;

static time_t _real_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

extern time_t time(time_t *tloc)
{
	time_t frozen = __atomic_load_n(&_frozen_now, __ATOMIC_RELAXED);
	time_t now = frozen ? frozen : _real_now();

	if (tloc)
		*tloc = now;
	return now;
}

/* Move the frozen clock 'sec' seconds forward (and leave it there). */
static void _clock_forward(long sec)
{
	if (sec && _frozen_now)
		__atomic_add_fetch(&_frozen_now, sec, __ATOMIC_RELAXED);
}

static void _mono_deadline(struct timespec *ts, int seconds)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += seconds;
}

static bool _mono_passed(const struct timespec *ts)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec != ts->tv_sec)
		return (now.tv_sec > ts->tv_sec);
	return (now.tv_nsec >= ts->tv_nsec);
}

/*****************************************************************************\
 *  Watchdog: every phase of the run is bounded; if a phase overruns (e.g.
 *  a plugin deadlocks in init() or fini()) the program exits with a clear
 *  message instead of hanging.
\*****************************************************************************/
static pthread_mutex_t wd_mutex = PTHREAD_MUTEX_INITIALIZER;
static const char *wd_phase = NULL;
static bool wd_stop = false;
static struct timespec wd_deadline;

static void _phase(const char *name)
{
	slurm_mutex_lock(&wd_mutex);
	wd_phase = name;
	_mono_deadline(&wd_deadline, opt.timeout);
	slurm_mutex_unlock(&wd_mutex);
	if (opt.verbose)
		fprintf(stderr, "%s: phase: %s\n", HARNESS_NAME,
			name ? name : "(idle)");
}

static void *_watchdog(void *arg)
{
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 };

	(void) arg;
	while (1) {
		nanosleep(&nap, NULL);
		slurm_mutex_lock(&wd_mutex);
		if (wd_stop) {
			slurm_mutex_unlock(&wd_mutex);
			break;
		}
		if (wd_phase && _mono_passed(&wd_deadline)) {
			fprintf(stderr, "%s: error: timed out after %d s in phase '%s'\n",
				HARNESS_NAME, opt.timeout, wd_phase);
			_exit(EXIT_TIMEOUT);
		}
		slurm_mutex_unlock(&wd_mutex);
	}
	return NULL;
}

/*****************************************************************************\
 *  slurmctld locks.  One pthread rwlock per data type, always taken in
 *  slurmctld's order (conf, job, node, part, fed) and released in reverse,
 *  so a plugin's background thread is really serialised against the
 *  harness.  Misuse that would deadlock or corrupt a real slurmctld
 *  (re-locking a held lock, unlocking a lock not held) is fatal here.
 *
 *  Two extra mechanisms drive the plugin deterministically:
 *  - the gate: while closed, any thread other than the main thread blocks
 *    in lock_slurmctld() and assoc_mgr_lock() until the harness has
 *    "submitted" all jobs;
 *  - event counters, bumped when a non-main thread releases a job WRITE
 *    lock or the state-file lock, used to detect a finished pass.
\*****************************************************************************/
static pthread_rwlock_t ctld_lock[CTLD_LOCK_CNT] = {
	PTHREAD_RWLOCK_INITIALIZER, PTHREAD_RWLOCK_INITIALIZER,
	PTHREAD_RWLOCK_INITIALIZER, PTHREAD_RWLOCK_INITIALIZER,
	PTHREAD_RWLOCK_INITIALIZER
};
static const char *ctld_lock_name[CTLD_LOCK_CNT] = {
	"conf", "job", "node", "part", "fed"
};
static __thread lock_level_t held[CTLD_LOCK_CNT];

static pthread_t main_tid;
static pthread_mutex_t ev_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond;
static bool gate_open = true;
static uint64_t ev_job_write = 0;	/* job write unlocks, other threads */
static uint64_t ev_state = 0;		/* state file unlocks, other threads */
static bool ev_slept = false;		/* one slept between passes */
static bool ev_parked = false;		/* a plugin thread waits at the gate */

/* A plugin thread waits while the gate is closed (ev_mutex held). */
static void _gate_wait_locked(void)
{
	if (gate_open)
		return;
	ev_parked = true;
	slurm_cond_broadcast(&ev_cond);
	while (!gate_open)
		slurm_cond_wait(&ev_cond, &ev_mutex);
}
static uint64_t ev_ctld_locks = 0;	/* all lock_slurmctld() calls */

static bool _is_main(void)
{
	return pthread_equal(pthread_self(), main_tid);
}

/*****************************************************************************\
 *  Benchmark instrumentation (--bench FILE).  Off by default; when on, the
 *  lock wrappers time what the plugin does while holding locks:
 *  - every hold of the slurmctld job lock (read or write) by a plugin
 *    thread from the moment the gate opens until the end of the measured
 *    pass (the first state-file unlock by a plugin thread), and by the main
 *    thread during the timed sprio call: count, longest, sum; and, per
 *    hold, the holding thread's CPU time and context switches (the most
 *    CPU time of one hold; holds the machine took time away from; what
 *    the longest hold was made of);
 *  - every hold of assoc_mgr locks by a plugin thread that does not hold
 *    the job lock (decay, fair-share), each with its lock levels;
 *  - the CPU time of the thread that ends the pass, from when it passed
 *    the gate to the end of the pass (CLOCK_THREAD_CPUTIME_ID).
 *  main() adds the submit-path and sprio timings and memory figures.
\*****************************************************************************/
#define BENCH_MAX_ASSOC_HOLDS	64

typedef struct {
	uint64_t holds;
	uint64_t max_ns;
	uint64_t max_at;	/* 1-based number of the longest hold */
	uint64_t sum_ns;
	uint64_t over_2ms;	/* holds longer than 2 ms */
	/* during the longest hold: the holding thread's CPU time, minor
	 * page faults, involuntary and voluntary context switches (was it
	 * working, faulting, preempted or waiting?) */
	uint64_t max_cpu_ns;
	long max_minflt, max_nivcsw, max_nvcsw;
	uint64_t cpu_max_ns;	/* the most CPU time of any one hold */
	uint64_t cpu_max_at;	/* 1-based number of that hold */
	/* holds that lasted 0.5 ms longer than the thread ran, with no
	 * context switch: the time was taken away from the whole (virtual)
	 * CPU (the hypervisor's steal time, where the kernel accounts it;
	 * interrupts count as the thread's CPU time unless the kernel
	 * accounts IRQ time, so they are not seen here) */
	uint64_t taken_away;
} bench_holds_t;

typedef struct {
	uint64_t ns;
	char levels[8];		/* assoc file qos res tres user wckey: N/R/W */
} bench_assoc_hold_t;

static bool bench_on = false;		/* set once before plugin init */
static pthread_mutex_t bench_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool bench_window = false;	/* plugin-thread holds count */
static bool bench_main_window = false;	/* main-thread holds count */
static bool bench_pass_done = false;
static struct timespec bench_gate_opened;
static bench_holds_t bench_pass_job;	/* plugin threads, measured pass */
static bench_holds_t bench_main_job;	/* main thread, sprio window */
static bench_assoc_hold_t bench_assoc[BENCH_MAX_ASSOC_HOLDS];
static int bench_assoc_cnt = 0;
static uint64_t bench_pass_cpu_ns = 0, bench_pass_wall_ns = 0;
/* the pass's thread: minor faults, involuntary and voluntary switches */
static long bench_pass_minflt, bench_pass_nivcsw, bench_pass_nvcsw;
static int bench_passes_seen = 0;	/* passes ended so far */
static bool bench_first_lock_seen = false;
static bool passes_started = false;	/* the gate opened after submit */
static bool churn_done = false;		/* --churn: the last pass reported */
static bool passes_over = false;	/* the passes waited for are done */
static uint64_t ev_base = 0;		/* ev_state when it opened */
static void _bench_pass(const char *prefix);
static __thread bool tl_cpu0_set = false;
static __thread struct timespec tl_cpu0;
static __thread struct rusage tl_ru0;
static __thread bool tl_job_timed = false;
/* this thread holds the job lock (--nss-count, below) */
static __thread bool tl_job_held = false;
static __thread struct timespec tl_job_t0;
static __thread uint64_t tl_job_cpu0;
static __thread struct rusage tl_job_ru0;
static __thread bool tl_assoc_timed = false;
static __thread struct timespec tl_assoc_t0;
static __thread char tl_assoc_levels[8];

static uint64_t _ts_ns(const struct timespec *t)
{
	return (uint64_t) t->tv_sec * 1000000000ull + t->tv_nsec;
}

static uint64_t _clock_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return _ts_ns(&t);
}

static uint64_t _since_ns(const struct timespec *t0)
{
	return _clock_ns(CLOCK_MONOTONIC) - _ts_ns(t0);
}

static void _bench_add_hold(bench_holds_t *h, uint64_t ns, uint64_t cpu_ns,
			    const struct rusage *ru0, const struct rusage *ru1)
{
	h->holds++;
	h->sum_ns += ns;
	if (ns > 2000000)
		h->over_2ms++;
	if (cpu_ns > h->cpu_max_ns) {
		h->cpu_max_ns = cpu_ns;
		h->cpu_max_at = h->holds;
	}
	if ((ns > cpu_ns + 500000) && (ru1->ru_nvcsw == ru0->ru_nvcsw) &&
	    (ru1->ru_nivcsw == ru0->ru_nivcsw))
		h->taken_away++;
	if (ns > h->max_ns) {
		h->max_ns = ns;
		h->max_at = h->holds;
		h->max_cpu_ns = cpu_ns;
		h->max_minflt = ru1->ru_minflt - ru0->ru_minflt;
		h->max_nivcsw = ru1->ru_nivcsw - ru0->ru_nivcsw;
		h->max_nvcsw = ru1->ru_nvcsw - ru0->ru_nvcsw;
	}
}

/* A plugin thread passed the gate: the CPU clock of its pass starts. */
static void _bench_gate_passed(void)
{
	if (bench_on && !tl_cpu0_set) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &tl_cpu0);
		getrusage(RUSAGE_THREAD, &tl_ru0);
		tl_cpu0_set = true;
	}
	if (bench_on && !bench_first_lock_seen) {
		/* passes after the first: the window starts at their first
		 * lock, not during the sleep between passes */
		slurm_mutex_lock(&bench_mutex);
		if (bench_window && bench_passes_seen && !bench_first_lock_seen) {
			clock_gettime(CLOCK_MONOTONIC, &bench_gate_opened);
			bench_first_lock_seen = true;
		}
		slurm_mutex_unlock(&bench_mutex);
	}
}

static void _bench_job_locked(void)
{
	if (!bench_on)
		return;
	getrusage(RUSAGE_THREAD, &tl_job_ru0);
	tl_job_cpu0 = _clock_ns(CLOCK_THREAD_CPUTIME_ID);
	clock_gettime(CLOCK_MONOTONIC, &tl_job_t0);
	tl_job_timed = true;
}

static void _bench_job_unlocking(void)
{
	uint64_t ns, cpu_ns;
	struct rusage ru;

	if (!tl_job_timed)
		return;
	ns = _since_ns(&tl_job_t0);
	cpu_ns = _clock_ns(CLOCK_THREAD_CPUTIME_ID) - tl_job_cpu0;
	getrusage(RUSAGE_THREAD, &ru);
	tl_job_timed = false;
	slurm_mutex_lock(&bench_mutex);
	if (_is_main()) {
		if (bench_main_window)
			_bench_add_hold(&bench_main_job, ns, cpu_ns,
					&tl_job_ru0, &ru);
	} else if (bench_window) {
		_bench_add_hold(&bench_pass_job, ns, cpu_ns, &tl_job_ru0,
				&ru);
	}
	slurm_mutex_unlock(&bench_mutex);
}

static char _level_char(lock_level_t l)
{
	return (l == WRITE_LOCK) ? 'W' : (l == READ_LOCK) ? 'R' : 'N';
}

static void _lock_levels(slurmctld_lock_t *l, lock_level_t *lv)
{
	lv[0] = l->conf;
	lv[1] = l->job;
	lv[2] = l->node;
	lv[3] = l->part;
	lv[4] = l->fed;
}

__attribute__((noreturn))
static void _lock_abuse(const char *what, int inx)
{
	fflush(stdout);
	fprintf(stderr, "%s: error: locking bug: %s %s lock (thread %s)\n",
		HARNESS_NAME, what, ctld_lock_name[inx],
		_is_main() ? "main" : "plugin");
	_exit(EXIT_LOCKING);
}

static void _end_job(void);
static bool end_job_done = false;	/* --end-job: the job was ended */
static bool save_mid_done = false;	/* --save-mid: done */

/* The first time a plugin thread takes ('lv') or lets go the job write
 * lock in the passes (the plugin holds no lock of the controller's then):
 * true once, to the thread that should act. */
static bool _first_in_pass(bool *done, const lock_level_t *lv)
{
	return !_is_main() && (lv[1] == WRITE_LOCK) &&
	       __atomic_load_n(&passes_started, __ATOMIC_RELAXED) &&
	       !__atomic_exchange_n(done, true, __ATOMIC_RELAXED);
}

/*
 * --save-mid CMD: right after a plugin thread first lets the job write
 * lock go in a pass (between two slices), save slurmctld's usage files as
 * its save every 5 minutes may then (dump_assoc_mgr_state(), under
 * assoc_mgr's read locks), and run CMD there: a copy of the state
 * directory it makes holds what a controller killed at that moment leaves
 * on disk. The run then goes on.
 */
static void _save_mid_at(bool at, const lock_level_t *lv)
{
	int rc;

	if (!at || !opt.mid_cmd || !_first_in_pass(&save_mid_done, lv))
		return;
	_clock_forward(opt.mid_after);
	if (dump_assoc_mgr_state() != SLURM_SUCCESS)
		_die("--save-mid: dump_assoc_mgr_state() failed");
	info("--save-mid: slurmctld's usage saved at %ld, in the pass",
	     (long) time(NULL));
	if ((rc = system(opt.mid_cmd)))
		_die("--save-mid: '%s' failed (status %d)", opt.mid_cmd, rc);
}

static void _end_job_at(bool at, const lock_level_t *lv)
{
	if (at && _first_in_pass(&end_job_done, lv))
		_end_job();
}

static void _sprio_mid(void);
static bool sprio_mid_done = false;	/* --sprio-mid: done */
static bool reweighing = false;		/* --weights-tres: begun */
static bool reweighted = false;		/* --weights-tres: done */

static void _sprio_mid_at(const lock_level_t *lv)
{
	if (opt.sprio_mid &&
	    (!opt.weights_tres ||
	     __atomic_load_n(&reweighted, __ATOMIC_RELAXED)) &&
	    _first_in_pass(&sprio_mid_done, lv))
		_sprio_mid();
}

extern void lock_slurmctld(slurmctld_lock_t lock_levels)
{
	lock_level_t lv[CTLD_LOCK_CNT];
	int i, rc = 0;

	_lock_levels(&lock_levels, lv);
	/* before taking any of it */
	_end_job_at(opt.end_before, lv);
	_save_mid_at(opt.mid_before, lv);

	slurm_mutex_lock(&ev_mutex);
	ev_ctld_locks++;
	if (!_is_main())
		_gate_wait_locked();
	slurm_mutex_unlock(&ev_mutex);
	if (!_is_main())
		_bench_gate_passed();

	for (i = 0; i < CTLD_LOCK_CNT; i++) {
		if (lv[i] == NO_LOCK)
			continue;
		if (held[i] != NO_LOCK)
			_lock_abuse("re-acquiring already held", i);
		if (lv[i] == READ_LOCK)
			rc = pthread_rwlock_rdlock(&ctld_lock[i]);
		else
			rc = pthread_rwlock_wrlock(&ctld_lock[i]);
		if (rc)
			_lock_abuse("failed to acquire", i);
		held[i] = lv[i];
	}
	if (lv[1] != NO_LOCK) {
		tl_job_held = true;
		_bench_job_locked();
	}
}

extern void unlock_slurmctld(slurmctld_lock_t lock_levels)
{
	lock_level_t lv[CTLD_LOCK_CNT];
	int i;

	_lock_levels(&lock_levels, lv);
	if (lv[1] != NO_LOCK) {
		_bench_job_unlocking();
		tl_job_held = false;
	}

	for (i = CTLD_LOCK_CNT - 1; i >= 0; i--) {
		if (lv[i] == NO_LOCK)
			continue;
		if (held[i] != lv[i])
			_lock_abuse("releasing a not (or differently) held", i);
		if (pthread_rwlock_unlock(&ctld_lock[i]))
			_lock_abuse("failed to release", i);
		held[i] = NO_LOCK;
	}

	if (!_is_main() && (lv[1] == WRITE_LOCK)) {
		slurm_mutex_lock(&ev_mutex);
		ev_job_write++;
		slurm_cond_broadcast(&ev_cond);
		slurm_mutex_unlock(&ev_mutex);
	}
	_end_job_at(opt.end_mid, lv);
	_save_mid_at(!opt.mid_before, lv);
	_sprio_mid_at(lv);
}

/* Declared in locks.h only without NDEBUG; provided for plugins that use
 * it in their own xassert()s when built with --enable-debug. */
extern bool verify_lock(lock_datatype_t datatype, lock_level_t level);
extern bool verify_lock(lock_datatype_t datatype, lock_level_t level)
{
	if ((datatype < 0) || (datatype >= CTLD_LOCK_CNT))
		return false;
	return (held[datatype] >= level);
}

static void _move_account(void);
static void _reconfig_weights_tres(void);

/* The state-file lock was released (see SLURM VERSIONS): the end of a
 * pass when a plugin thread released it. */
static void _state_files_unlocked(void)
{
	static bool moved = false;

	if (!_is_main() && bench_on) {
		bool last = false;
		struct rusage ru;

		getrusage(RUSAGE_THREAD, &ru);
		slurm_mutex_lock(&bench_mutex);
		if (bench_window && !bench_pass_done) {
			bench_pass_wall_ns = _since_ns(&bench_gate_opened);
			bench_pass_cpu_ns =
				_clock_ns(CLOCK_THREAD_CPUTIME_ID) -
				(tl_cpu0_set ? _ts_ns(&tl_cpu0) : 0);
			bench_pass_minflt = ru.ru_minflt -
					    (tl_cpu0_set ? tl_ru0.ru_minflt : 0);
			bench_pass_nivcsw = ru.ru_nivcsw -
					    (tl_cpu0_set ? tl_ru0.ru_nivcsw : 0);
			bench_pass_nvcsw = ru.ru_nvcsw -
					   (tl_cpu0_set ? tl_ru0.ru_nvcsw : 0);
			bench_passes_seen++;
			last = (bench_passes_seen >= opt.passes);
		}
		slurm_mutex_unlock(&bench_mutex);
		if (bench_passes_seen && !last && !bench_pass_done) {
			/* record this pass, start measuring the next one */
			char prefix[32];

			snprintf(prefix, sizeof(prefix), "pass%d",
				 bench_passes_seen);
			_bench_pass(prefix);
			slurm_mutex_lock(&bench_mutex);
			memset(&bench_pass_job, 0, sizeof(bench_pass_job));
			bench_assoc_cnt = 0;
			bench_first_lock_seen = false;
			slurm_mutex_unlock(&bench_mutex);
			tl_cpu0_set = false;
		} else if (last) {
			slurm_mutex_lock(&bench_mutex);
			bench_pass_done = true;
			bench_window = false;
			slurm_mutex_unlock(&bench_mutex);
		}
	}
	/*
	 * With a short --calc-period, a pass after the last one waited for
	 * would run during the sprio call and the report: close the gate
	 * again, the plugin threads then wait at their next lock until
	 * main() opens it for fini(). And from now on a plugin thread's
	 * sleep between passes lasts until fini() wakes it (see
	 * pthread_cond_timedwait() below): one that went on to the next pass
	 * would wait at the gate and run that pass when it opens for fini(),
	 * before fini() could tell it to stop.
	 */
	if (!_is_main() && opt.calc_period && (opt.pass_mode == PASS_STATE) &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED)) {
		slurm_mutex_lock(&ev_mutex);
		if (ev_state + 1 >= ev_base + opt.passes) {
			gate_open = false;
			__atomic_store_n(&passes_over, true, __ATOMIC_RELAXED);
		}
		slurm_mutex_unlock(&ev_mutex);
	}
	/* --churn: every pass ends with the gate closed; main() reports,
	 * applies the next events and opens it again */
	if (!_is_main() && opt.churn_seed &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&churn_done, __ATOMIC_RELAXED)) {
		slurm_mutex_lock(&ev_mutex);
		gate_open = false;
		ev_parked = false;
		slurm_mutex_unlock(&ev_mutex);
	}
	/*
	 * --advance: the next pass sees the clock moved by the next step
	 * (forward, or back: a clock step), the last step repeating
	 */
	if (!_is_main() && opt.n_advance && _frozen_now &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED)) {
		static int advanced = 0;
		int k = __atomic_fetch_add(&advanced, 1, __ATOMIC_RELAXED);

		if (k >= opt.n_advance)
			k = opt.n_advance - 1;
		__atomic_add_fetch(&_frozen_now, opt.advance[k],
				   __ATOMIC_RELAXED);
	}
	/* --at-pass N:CMD: after pass N, before the next one (same thread) */
	if (!_is_main() && opt.n_at &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED)) {
		static int finished = 0;
		int n = __atomic_add_fetch(&finished, 1, __ATOMIC_RELAXED);

		for (int i = 0; i < opt.n_at; i++) {
			int rc;

			if (opt.at[i].pass != n)
				continue;
			rc = system(opt.at[i].cmd);
			if (rc)
				_die("--at-pass %d: '%s' failed (status %d)",
				     n, opt.at[i].cmd, rc);
		}
	}
	/* --weights-tres: after the first pass, before the next one */
	if (!_is_main() && opt.weights_tres &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED) &&
	    !__atomic_exchange_n(&reweighing, true, __ATOMIC_RELAXED)) {
		_reconfig_weights_tres();
		/* (the reconfigure's own job lock is not the pass's) */
		__atomic_store_n(&reweighted, true, __ATOMIC_RELAXED);
	}
	/* --move: after the first pass, before the next one (same thread) */
	if (!_is_main() && opt.move_acct &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED) &&
	    !__atomic_exchange_n(&moved, true, __ATOMIC_RELAXED))
		_move_account();

	if (!_is_main()) {
		slurm_mutex_lock(&ev_mutex);
		ev_state++;
		slurm_cond_broadcast(&ev_cond);
		slurm_mutex_unlock(&ev_mutex);
	}
}

/*
 * assoc_mgr_lock() is interposed as well (libslurmfull's is called
 * through RTLD_NEXT): while the gate is closed, a plugin thread also
 * blocks before taking assoc_mgr locks.  Without this, the part of a
 * pass that needs only the association manager (multifactor without
 * Fair Tree: _set_children_usage_efctv() and the usage decay, before its
 * first lock_slurmctld()) would race with the submit path's
 * priority_g_set() calls, and the report would depend on thread timing.
 */
static void (*real_assoc_mgr_lock)(assoc_mgr_lock_t *locks) = NULL;

static void _resolve_assoc_mgr_lock(void)
{
	real_assoc_mgr_lock = dlsym(RTLD_NEXT, "assoc_mgr_lock");
}

extern void assoc_mgr_lock(assoc_mgr_lock_t *locks)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, _resolve_assoc_mgr_lock);
	if (!real_assoc_mgr_lock || (real_assoc_mgr_lock == assoc_mgr_lock)) {
		fprintf(stderr, "%s: error: cannot find libslurmfull's assoc_mgr_lock()\n",
			HARNESS_NAME);
		_exit(1);
	}
	if (!_is_main()) {
		slurm_mutex_lock(&ev_mutex);
		_gate_wait_locked();
		slurm_mutex_unlock(&ev_mutex);
		_bench_gate_passed();
	}
	real_assoc_mgr_lock(locks);
	/* --bench: time holds outside the job lock (decay, fair-share) */
	if (bench_on && !_is_main() && !tl_assoc_timed &&
	    (held[1] == NO_LOCK)) {
		tl_assoc_levels[0] = _level_char(locks->assoc);
		tl_assoc_levels[1] = _level_char(locks->file);
		tl_assoc_levels[2] = _level_char(locks->qos);
		tl_assoc_levels[3] = _level_char(locks->res);
		tl_assoc_levels[4] = _level_char(locks->tres);
		tl_assoc_levels[5] = _level_char(locks->user);
		tl_assoc_levels[6] = _level_char(locks->wckey);
		tl_assoc_levels[7] = '\0';
		clock_gettime(CLOCK_MONOTONIC, &tl_assoc_t0);
		tl_assoc_timed = true;
	}
}

/* Interposed only to time assoc_mgr holds for --bench. */
static void (*real_assoc_mgr_unlock)(assoc_mgr_lock_t *locks) = NULL;

static void _resolve_assoc_mgr_unlock(void)
{
	real_assoc_mgr_unlock = dlsym(RTLD_NEXT, "assoc_mgr_unlock");
}

extern void assoc_mgr_unlock(assoc_mgr_lock_t *locks)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, _resolve_assoc_mgr_unlock);
	if (!real_assoc_mgr_unlock ||
	    (real_assoc_mgr_unlock == assoc_mgr_unlock)) {
		fprintf(stderr, "%s: error: cannot find libslurmfull's assoc_mgr_unlock()\n",
			HARNESS_NAME);
		_exit(1);
	}
	if (tl_assoc_timed && (held[1] == NO_LOCK)) {
		uint64_t ns = _since_ns(&tl_assoc_t0);

		tl_assoc_timed = false;
		slurm_mutex_lock(&bench_mutex);
		if (bench_window &&
		    (bench_assoc_cnt < BENCH_MAX_ASSOC_HOLDS)) {
			bench_assoc[bench_assoc_cnt].ns = ns;
			memcpy(bench_assoc[bench_assoc_cnt].levels,
			       tl_assoc_levels, sizeof(tl_assoc_levels));
			bench_assoc_cnt++;
		}
		slurm_mutex_unlock(&bench_mutex);
	}
	real_assoc_mgr_unlock(locks);
}

/*
 * --churn: passes follow each other as fast as main() opens the gate.
 * A plugin thread's timed wait (the sleep of PriorityCalcPeriod between
 * passes: multifactor's on CLOCK_REALTIME, Prism's on CLOCK_MONOTONIC)
 * lasts until the gate opens, then returns ETIMEDOUT as if the period had
 * passed: the events of the churn happen while the plugin sleeps, as in
 * a controller, and the next pass starts after them.  (Holding the thread
 * at its first lock instead would let a plugin read its settings or the
 * time before the events: Prism takes its configuration when a pass
 * starts, before any lock.)  The plugin's mutex is released meanwhile,
 * as by any wait.  Only plugin threads, only once passes have started
 * and until the last churn pass; everything else (the harness's own
 * waits on the main thread) waits as asked.
 */
static int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
				  const struct timespec *) = NULL;

static void _resolve_cond_timedwait(void)
{
	real_cond_timedwait = dlsym(RTLD_NEXT, "pthread_cond_timedwait");
}

extern int pthread_cond_timedwait(pthread_cond_t *cond,
				  pthread_mutex_t *mutex,
				  const struct timespec *abstime)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, _resolve_cond_timedwait);
	if (!real_cond_timedwait ||
	    (real_cond_timedwait == pthread_cond_timedwait)) {
		fprintf(stderr, "%s: error: cannot find pthread_cond_timedwait()\n",
			HARNESS_NAME);
		_exit(1);
	}
	if (opt.churn_seed && !_is_main() && (cond != &ev_cond) &&
	    __atomic_load_n(&passes_started, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&churn_done, __ATOMIC_RELAXED)) {
		pthread_mutex_unlock(mutex);
		slurm_mutex_lock(&ev_mutex);
		_gate_wait_locked();
		slurm_mutex_unlock(&ev_mutex);
		pthread_mutex_lock(mutex);
		return ETIMEDOUT;
	}
	/*
	 * After the passes waited for (their last one closed the gate): a
	 * plugin thread's sleep between passes lasts until the plugin's
	 * fini() wakes it (both plugins signal the condition their thread
	 * sleeps on, after setting what tells it to stop), so that it does
	 * not start a pass fini() would then wait for (cpu-valgrind.sh's
	 * pass counts). Every other wait is as asked.
	 */
	if (!_is_main() && (cond != &ev_cond)) {
		/* (--handover SEC@start waits for the first) */
		slurm_mutex_lock(&ev_mutex);
		ev_slept = true;
		slurm_cond_broadcast(&ev_cond);
		slurm_mutex_unlock(&ev_mutex);
	}
	if (!_is_main() && (cond != &ev_cond) &&
	    __atomic_load_n(&passes_over, __ATOMIC_RELAXED))
		return pthread_cond_wait(cond, mutex);
	return real_cond_timedwait(cond, mutex, abstime);
}

static void _gate_set(bool open)
{
	if (open && bench_on) {
		slurm_mutex_lock(&bench_mutex);
		if (!bench_pass_done && !bench_window) {
			clock_gettime(CLOCK_MONOTONIC, &bench_gate_opened);
			bench_window = true;
		}
		slurm_mutex_unlock(&bench_mutex);
	}
	slurm_mutex_lock(&ev_mutex);
	gate_open = open;
	slurm_cond_broadcast(&ev_cond);
	slurm_mutex_unlock(&ev_mutex);
}

static uint64_t _pass_counter(void)
{
	uint64_t cnt;

	slurm_mutex_lock(&ev_mutex);
	cnt = (opt.pass_mode == PASS_STATE) ? ev_state : ev_job_write;
	slurm_mutex_unlock(&ev_mutex);
	return cnt;
}

static void _wait_for_passes(uint64_t base, int passes);

/* Wait until the pass counter exceeds base by opt.passes, bounded. */
static void _wait_for_pass(uint64_t base)
{
	_wait_for_passes(base, opt.passes);
}

/*
 * Wait (bounded) until *flag (ev_mutex's) is set; else die saying that
 * 'what' did not happen within the timeout.
 */
static void _wait_ev_flag(const bool *flag, const char *what)
{
	struct timespec deadline;
	int rc = 0;

	_mono_deadline(&deadline, opt.timeout);
	slurm_mutex_lock(&ev_mutex);
	while (!*flag && (rc != ETIMEDOUT))
		rc = pthread_cond_timedwait(&ev_cond, &ev_mutex, &deadline);
	if (!*flag) {
		slurm_mutex_unlock(&ev_mutex);
		_die_code(EXIT_TIMEOUT, "%s within %d s", what, opt.timeout);
	}
	slurm_mutex_unlock(&ev_mutex);
}

/* Wait until the pass counter exceeds base by 'passes', bounded. */
static void _wait_for_passes(uint64_t base, int passes)
{
	struct timespec deadline;
	uint64_t *cnt;
	int rc = 0;

	if (opt.pass_mode == PASS_NONE)
		return;
	cnt = (opt.pass_mode == PASS_STATE) ? &ev_state : &ev_job_write;

	_mono_deadline(&deadline, opt.timeout);
	slurm_mutex_lock(&ev_mutex);
	while ((*cnt < base + passes) && (rc != ETIMEDOUT))
		rc = pthread_cond_timedwait(&ev_cond, &ev_mutex, &deadline);
	if (*cnt < base + passes) {
		uint64_t got = *cnt - base;

		slurm_mutex_unlock(&ev_mutex);
		_die_code(EXIT_TIMEOUT, "no completed recalculation pass within %d s (--pass %s: saw %"PRIu64" of %d; slurmctld locks taken: %"PRIu64"); does the plugin run a background pass? try --pass jobwrite or --pass none",
		     opt.timeout,
		     (opt.pass_mode == PASS_STATE) ? "state" : "jobwrite",
		     got, passes, ev_ctld_locks);
	}
	slurm_mutex_unlock(&ev_mutex);
}

/*****************************************************************************\
 *  Other controller functions referenced by priority plugins
\*****************************************************************************/
static int _find_part_by_name(void *x, void *key)
{
	part_record_t *part_ptr = x;

	return !xstrcmp(part_ptr->name, (char *) key);
}

extern part_record_t *find_part_record(char *name)
{
	if (!part_list || !name)
		return NULL;
	return list_find_first(part_list, _find_part_by_name, name);
}

/*
 * Jobs by id, as slurmctld keeps them (job_mgr.c): a table of buckets
 * indexed by id modulo its size, the records of a bucket chained through
 * job_ptr->job_next. slurmctld sizes it to MaxJobCount, which a site with
 * that many jobs has raised; here it grows to twice the jobs when they
 * outnumber it. Under the job write lock, as job_list.
 */
static job_record_t **job_hash;
static uint32_t job_hash_size, job_hash_cnt;

#define JOB_HASH_INX(id) ((id) % job_hash_size)

static void _job_hash_put(job_record_t *job_ptr)
{
	uint32_t inx = JOB_HASH_INX(job_ptr->job_id);

	job_ptr->job_next = job_hash[inx];
	job_hash[inx] = job_ptr;
}

static void _job_hash_add(job_record_t *job_ptr)
{
	if (job_hash_cnt + 1 > job_hash_size) {
		job_record_t **old = job_hash;
		uint32_t old_size = job_hash_size;

		job_hash_size = MAX(slurm_conf.max_job_cnt,
				    2 * (job_hash_cnt + 1));
		job_hash = xcalloc(job_hash_size, sizeof(*job_hash));
		for (uint32_t i = 0; i < old_size; i++) {
			job_record_t *p = old[i], *next;

			for (; p; p = next) {
				next = p->job_next;
				_job_hash_put(p);
			}
		}
		xfree(old);
	}
	_job_hash_put(job_ptr);
	job_hash_cnt++;
}

static void _job_hash_remove(job_record_t *job_ptr)
{
	job_record_t **pp;

	if (!job_hash_size)
		return;
	for (pp = &job_hash[JOB_HASH_INX(job_ptr->job_id)]; *pp;
	     pp = &(*pp)->job_next) {
		if (*pp == job_ptr) {
			*pp = job_ptr->job_next;
			job_hash_cnt--;
			return;
		}
	}
}

/* slurmctld's own lookup (job_mgr.c), the same steps: counted as
 * slurmctld's work by tests/bench/cpu-valgrind.sh */
extern job_record_t *find_job_record(uint32_t job_id)
{
	job_record_t *job_ptr;

	if (!job_hash_size)
		return NULL;
	for (job_ptr = job_hash[JOB_HASH_INX(job_id)]; job_ptr;
	     job_ptr = job_ptr->job_next)
		if (job_ptr->job_id == job_id)
			return job_ptr;
	return NULL;
}

/* --end-job's job, which must be running (caller holds the job lock, or
 * the passes have not begun). */
static job_record_t *_end_job_record(void)
{
	job_record_t *job_ptr = find_job_record(opt.end_job);

	if (!job_ptr || !IS_JOB_RUNNING(job_ptr))
		_die("--end-job: job %u is not a running job of the world",
		     opt.end_job);
	return job_ptr;
}

/*
 * --end-job: end the job as job_complete() and job_completion_logger() do
 * when AccountingStorageEnforce has limits (acct_policy_job_fini() calls
 * priority_g_job_end()): completing, its end time now, the plugin told
 * under the job write lock.
 */
static void _end_job(void)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK, .node = WRITE_LOCK };
	job_record_t *job_ptr;

	_clock_forward(opt.end_after);
	lock_slurmctld(job_write);
	job_ptr = _end_job_record();
	job_ptr->job_state = JOB_COMPLETE | JOB_COMPLETING;
	job_ptr->end_time = time(NULL);
	priority_g_job_end(job_ptr);
	unlock_slurmctld(job_write);
	info("--end-job: job %u ended %s", opt.end_job,
	     _is_main() ? "after the passes" : "during the first pass");
}

extern bool validate_operator(uid_t uid)
{
	if ((uid == 0) || (uid == slurm_conf.slurm_user_id))
		return true;
	return (assoc_mgr_get_admin_level(acct_db_conn, uid) >=
		SLURMDB_ADMIN_OPERATOR);
}

/*
 * Billable TRES of an allocation, as slurmctld computes it: the
 * allocated TRES weighted by the partition's TRESBillingWeights (or the
 * allocated CPU count without weights), cached in job_ptr->billable_tres
 * until the job is resized.  Pending jobs have nothing allocated: 0.
 */
extern double calc_job_billable_tres(job_record_t *job_ptr, time_t start_time,
				     bool assoc_mgr_locked)
{
	part_record_t *part_ptr;

	if (!job_ptr || !job_ptr->tres_alloc_cnt)
		return 0.0;

	if (!fuzzy_equal(job_ptr->billable_tres, NO_VAL) &&
	    (job_ptr->resize_time < start_time))
		return job_ptr->billable_tres;

	part_ptr = job_ptr->part_ptr;
	if (!part_ptr || !part_ptr->billing_weights)
		job_ptr->billable_tres = job_ptr->total_cpus;
	else
		job_ptr->billable_tres = assoc_mgr_tres_weighted(
			job_ptr->tres_alloc_cnt, part_ptr->billing_weights,
			slurm_conf.priority_flags, assoc_mgr_locked);
	return job_ptr->billable_tres;
}

/*****************************************************************************\
 *  World file parsing
\*****************************************************************************/
static void _free_qos(void *x)
{
	w_qos_t *q = x;

	xfree(q->name);
	xfree(q);
}

static void _free_assoc(void *x)
{
	w_assoc_t *a = x;

	xfree(a->acct);
	xfree(a->user);
	xfree(a->parent);
	xfree(a->kids);
	xfree(a);
}

static void _free_part(void *x)
{
	w_part_t *p = x;

	xfree(p->name);
	xfree(p->billing);
	xfree(p);
}

static void _free_job(void *x)
{
	w_job_t *j = x;

	xfree(j->user);
	xfree(j->account);
	xfree(j->parts);
	xfree(j->qos);
	xfree(j);
}

static uint32_t _parse_u32(int line, const char *key, const char *val)
{
	char *end = NULL;
	unsigned long long v;

	errno = 0;
	v = strtoull(val, &end, 10);
	if (errno || !end || *end || (end == val) || (val[0] == '-') ||
	    (v >= NO_VAL))
		_world_error(line, "bad value for %s: '%s' (want an unsigned integer)",
			     key, val);
	return (uint32_t) v;
}

static int32_t _parse_i32(int line, const char *key, const char *val)
{
	char *end = NULL;
	long long v;

	errno = 0;
	v = strtoll(val, &end, 10);
	if (errno || !end || *end || (end == val) ||
	    (v < -2147483647LL) || (v > 2147483647LL))
		_world_error(line, "bad value for %s: '%s' (want an integer)",
			     key, val);
	return (int32_t) v;
}

static long double _parse_ldouble(int line, const char *key, const char *val)
{
	char *end = NULL;
	long double v;

	errno = 0;
	v = strtold(val, &end);
	if (errno || !end || *end || (end == val) || !isfinite(v) || (v < 0))
		_world_error(line, "bad value for %s: '%s' (want a number >= 0)",
			     key, val);
	return v;
}

/* Relative time: [+-]N[s|m|h|d], returned in seconds. */
static long _parse_rel(int line, const char *key, const char *val)
{
	char *end = NULL;
	long long v;
	long mult = 1;

	errno = 0;
	v = strtoll(val, &end, 10);
	if (errno || !end || (end == val))
		_world_error(line, "bad time for %s: '%s' (want e.g. -3600, -90m, -2h, -1d)",
			     key, val);
	if (*end) {
		if (!xstrcmp(end, "s"))
			mult = 1;
		else if (!xstrcmp(end, "m"))
			mult = 60;
		else if (!xstrcmp(end, "h"))
			mult = 3600;
		else if (!xstrcmp(end, "d"))
			mult = 86400;
		else
			_world_error(line, "bad time unit in %s: '%s'",
				     key, val);
	}
	if ((v > 100LL * 365 * 86400) || (v < -100LL * 365 * 86400))
		_world_error(line, "time for %s out of range: '%s'", key, val);
	return (long) (v * mult);
}

static int _find_ptr(void *x, void *key)
{
	return (x == key);
}

static int _find_qos_name(void *x, void *key)
{
	return !xstrcmp(((w_qos_t *) x)->name, (char *) key);
}

static int _find_part_name(void *x, void *key)
{
	return !xstrcmp(((w_part_t *) x)->name, (char *) key);
}

static uint32_t _idx_hash(const char *key)
{
	uint32_t h = 2166136261u;

	for (; *key; key++) {
		h ^= (unsigned char) *key;
		h *= 16777619u;
	}
	return h % IDX_BUCKETS;
}

static void *_idx_get(idx_t *ix, const char *key)
{
	idx_ent_t *e;

	if (!ix->b)
		return NULL;
	for (e = ix->b[_idx_hash(key)]; e; e = e->next)
		if (!xstrcmp(e->key, key))
			return e->val;
	return NULL;
}

/* Adds key -> val unless key is present; returns the value now stored. */
static void *_idx_add(idx_t *ix, const char *key, void *val)
{
	idx_ent_t *e;
	uint32_t h = _idx_hash(key);

	if (!ix->b)
		ix->b = xcalloc(IDX_BUCKETS, sizeof(*ix->b));
	for (e = ix->b[h]; e; e = e->next)
		if (!xstrcmp(e->key, key))
			return e->val;
	e = xmalloc(sizeof(*e));
	e->key = xstrdup(key);
	e->val = val;
	e->next = ix->b[h];
	ix->b[h] = e;
	return val;
}

/* Removes key (if present). */
static void _idx_del(idx_t *ix, const char *key)
{
	idx_ent_t **ep, *e;

	if (!ix->b)
		return;
	for (ep = &ix->b[_idx_hash(key)]; (e = *ep); ep = &e->next)
		if (!xstrcmp(e->key, key)) {
			*ep = e->next;
			xfree(e->key);
			xfree(e);
			return;
		}
}

static void _idx_free(idx_t *ix)
{
	idx_ent_t *e, *next;
	int i;

	if (!ix->b)
		return;
	for (i = 0; i < IDX_BUCKETS; i++)
		for (e = ix->b[i]; e; e = next) {
			next = e->next;
			xfree(e->key);
			xfree(e);
		}
	xfree(ix->b);
}

/*
 * The world's users are no accounts on this host. assoc_mgr looks up the
 * name of every user association it adds (getpwnam_r), and NSS ("files
 * systemd" on Debian) reads /etc/passwd and probes the userdb directories
 * for it, some 30 system calls each: 60% of the CPU of a run over a
 * 10,000-user world, twice that under valgrind. The harness answers those
 * lookups itself, as NSS would: no such user. The names of the host's own
 * accounts (listed once, with getpwent) and every name outside the world
 * still go to NSS. This definition takes the place of libc's for
 * libslurmfull and the plugins: the harness exports its symbols.
 */
static idx_t host_users;
static int (*nss_getpwnam_r)(const char *, struct passwd *, char *, size_t,
			     struct passwd **);
static pthread_once_t host_users_once = PTHREAD_ONCE_INIT;

static void _host_users_list(void)
{
	struct passwd pw, *res;
	char buf[4096];

	nss_getpwnam_r = dlsym(RTLD_NEXT, "getpwnam_r");
	setpwent();
	while (!getpwent_r(&pw, buf, sizeof(buf), &res) && res)
		(void) _idx_add(&host_users, pw.pw_name, (void *) 1);
	endpwent();
}

extern int getpwnam_r(const char *name, struct passwd *pw, char *buf,
		      size_t len, struct passwd **result)
{
	pthread_once(&host_users_once, _host_users_list);
	if (_idx_get(&world.uid_idx, name) && !_idx_get(&host_users, name)) {
		*result = NULL;
		return 0;
	}
	return nss_getpwnam_r(name, pw, buf, len, result);
}

/*
 * --nss-count, --nss-delay USEC: the lookups of a name by its id
 * (getpwuid_r, getgrgid_r) made by the plugin and libslurmfull for it,
 * and by the NSS modules they reach (libnss_systemd calls getgrgid_r). A
 * site's NSS may be a directory service (LDAP, SSSD) that takes
 * milliseconds a name; one made while the job lock is held holds up
 * every RPC that waits for that lock. These definitions take the place of
 * libc's, as getpwnam_r's above: they count each lookup by whether the
 * thread making it was a plugin thread (not the main thread, which plays
 * the submit path) and held the job lock, wait USEC first as a slow
 * directory would, then ask NSS.
 */
static uint64_t nss_count[2][2];		/* [plugin thread][held] */
static long nss_delay_usec = 0;
static pthread_once_t nss_once = PTHREAD_ONCE_INIT;
static int (*nss_getpwuid_r)(uid_t, struct passwd *, char *, size_t,
			     struct passwd **);
static int (*nss_getgrgid_r)(gid_t, struct group *, char *, size_t,
			     struct group **);

static void _nss_resolve(void)
{
	nss_getpwuid_r = dlsym(RTLD_NEXT, "getpwuid_r");
	nss_getgrgid_r = dlsym(RTLD_NEXT, "getgrgid_r");
}

/* Count a lookup by id and take the time a slow directory takes. */
static void _nss_lookup(void)
{
	pthread_once(&nss_once, _nss_resolve);
	__atomic_add_fetch(&nss_count[!_is_main()][tl_job_held], 1,
			   __ATOMIC_RELAXED);
	if (nss_delay_usec)
		usleep(nss_delay_usec);
}

extern int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len,
		      struct passwd **result)
{
	_nss_lookup();
	return nss_getpwuid_r(uid, pw, buf, len, result);
}

extern int getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t len,
		      struct group **result)
{
	_nss_lookup();
	return nss_getgrgid_r(gid, gr, buf, len, result);
}

/* --nss-count's report line. */
static void _report_nss(void)
{
	printf("nss-by-id plugin-locked=%" PRIu64 " plugin-unlocked=%" PRIu64
	       " main-locked=%" PRIu64 " main-unlocked=%" PRIu64 "\n",
	       __atomic_load_n(&nss_count[1][1], __ATOMIC_RELAXED),
	       __atomic_load_n(&nss_count[1][0], __ATOMIC_RELAXED),
	       __atomic_load_n(&nss_count[0][1], __ATOMIC_RELAXED),
	       __atomic_load_n(&nss_count[0][0], __ATOMIC_RELAXED));
}

static char *_assoc_key(const char *acct, const char *user)
{
	if (user)
		return xstrdup_printf("%s\001%s", user, acct);
	return xstrdup(acct);
}

static w_assoc_t *_world_assoc(const char *acct, const char *user)
{
	char *key = _assoc_key(acct, user);
	w_assoc_t *a = _idx_get(&world.assoc_idx, key);

	xfree(key);
	return a;
}

static void _world_assoc_add(w_assoc_t *a)
{
	char *key = _assoc_key(a->acct, a->user);

	_idx_add(&world.assoc_idx, key, a);
	xfree(key);
}

/* Split "key=value" in place; returns value or NULL. */
static char *_kv(char *tok)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return NULL;
	*eq = '\0';
	return eq + 1;
}

static void _parse_cluster(int line, char **tok, int ntok)
{
	int i;

	for (i = 1; i < ntok; i++) {
		char *val = _kv(tok[i]);

		if (!val)
			_world_error(line, "expected key=value, got '%s'",
				     tok[i]);
		if (!xstrcmp(tok[i], "nodes"))
			world.cluster_nodes = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "cpus"))
			world.cluster_cpus = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "mem"))
			world.cluster_mem = _parse_u32(line, tok[i], val);
		else
			_world_error(line, "unknown cluster option '%s'",
				     tok[i]);
	}
	if (!world.cluster_nodes || !world.cluster_cpus)
		_world_error(line, "cluster needs nodes=N and cpus=N (> 0)");
}

static void _parse_qos(int line, char **tok, int ntok)
{
	w_qos_t *q;
	int i;

	if (ntok < 2 || strchr(tok[1], '='))
		_world_error(line, "usage: qos NAME priority=N [usage_factor=F] [flags=F] [id=N]");
	if (list_find_first(world.qos, _find_qos_name, tok[1]))
		_world_error(line, "qos '%s' defined twice", tok[1]);

	q = xmalloc(sizeof(*q));
	q->name = xstrdup(tok[1]);
	q->usage_factor = 1.0;
	q->line = line;
	for (i = 2; i < ntok; i++) {
		char *val = _kv(tok[i]);

		if (!val)
			_world_error(line, "expected key=value, got '%s'",
				     tok[i]);
		if (!xstrcmp(tok[i], "priority"))
			q->priority = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "usage_factor"))
			q->usage_factor = _parse_ldouble(line, tok[i], val);
		else if (!xstrcmp(tok[i], "id"))
			q->id = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "flags")) {
			q->flags = str_2_qos_flags(val, 0);
			if (q->flags == INFINITE)
				_world_error(line, "bad qos flags '%s'", val);
		} else
			_world_error(line, "unknown qos option '%s'", tok[i]);
	}
	list_append(world.qos, q);
}

/*
 * An association's id= (a site's ids are slurmdbd's, not numbered from 1):
 * at least this, so that the tree order's ids never meet it; each once.
 */
#define PRISM_HARNESS_FIXED_ID_MIN 1000000

static void _world_fixed_id(int line, uint32_t id)
{
	static uint32_t seen[64];
	static int n;

	for (int i = 0; i < n; i++)
		if (seen[i] == id)
			_world_error(line, "association id %u given twice", id);
	if (n == (int) (sizeof(seen) / sizeof(seen[0])))
		_world_error(line, "at most %d associations with id=", n);
	seen[n++] = id;
}

static void _parse_assoc(int line, char **tok, int ntok)
{
	w_assoc_t *a;
	char *at;
	int i;
	bool have_shares = false, have_uid = false;

	if (ntok < 2 || strchr(tok[1], '='))
		_world_error(line, "usage: assoc ACCOUNT|USER@ACCOUNT shares=N ...");

	a = xmalloc(sizeof(*a));
	a->line = line;
	if ((at = strchr(tok[1], '@'))) {
		*at = '\0';
		a->user = xstrdup(tok[1]);
		a->acct = xstrdup(at + 1);
		a->parent = xstrdup(a->acct);
		if (!a->user[0] || !a->acct[0])
			_world_error(line, "bad association name '%s@%s'",
				     tok[1], at + 1);
	} else {
		a->acct = xstrdup(tok[1]);
		a->parent = xstrdup("root");
	}
	if (!xstrcmp(a->acct, "root") && !a->user)
		_world_error(line, "the root association is implicit");
	if (_world_assoc(a->acct, a->user))
		_world_error(line, "association '%s%s%s' defined twice",
			     a->user ? a->user : "", a->user ? "@" : "",
			     a->acct);

	for (i = 2; i < ntok; i++) {
		char *val = _kv(tok[i]);

		if (!val)
			_world_error(line, "expected key=value, got '%s'",
				     tok[i]);
		if (!xstrcmp(tok[i], "shares")) {
			if (!xstrcasecmp(val, "parent"))
				a->shares = SLURMDB_FS_USE_PARENT;
			else
				a->shares = _parse_u32(line, tok[i], val);
			have_shares = true;
		} else if (!xstrcmp(tok[i], "parent")) {
			if (a->user)
				_world_error(line, "user associations take their account as parent");
			xfree(a->parent);
			a->parent = xstrdup(val);
		} else if (!xstrcmp(tok[i], "usage")) {
			if (!a->user)
				_world_error(line, "usage= is only valid on user associations (account usage is the sum of its children)");
			a->usage = _parse_ldouble(line, tok[i], val);
		} else if (!xstrcmp(tok[i], "uid")) {
			if (!a->user)
				_world_error(line, "uid= is only valid on user associations");
			a->uid = _parse_u32(line, tok[i], val);
			have_uid = true;
		} else if (!xstrcmp(tok[i], "priority"))
			a->priority = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "id")) {
			a->fixed_id = _parse_u32(line, tok[i], val);
			if (a->fixed_id < PRISM_HARNESS_FIXED_ID_MIN)
				_world_error(line, "id= must be at least %u (the others are numbered from 1)",
					     PRISM_HARNESS_FIXED_ID_MIN);
			_world_fixed_id(line, a->fixed_id);
		} else if (!xstrcmp(tok[i], "detached")) {
			if (a->user)
				_world_error(line, "detached=1 is only valid on account associations");
			a->detached = _parse_u32(line, tok[i], val);
		} else
			_world_error(line, "unknown assoc option '%s'",
				     tok[i]);
	}
	if (!have_shares)
		_world_error(line, "assoc needs shares=N (or shares=parent)");
	if (a->user) {
		if (!_idx_get(&world.uid_idx, a->user)) {
			list_append(world.users, xstrdup(a->user));
			_idx_add(&world.uid_idx, a->user, (void *) (uintptr_t)
				 list_count(world.users));
			_idx_add(&world.user_idx, a->user, a);
		}
		if (!have_uid)
			a->uid = NO_VAL;
	}
	list_append(world.assocs, a);
	_world_assoc_add(a);
}

static void _parse_part(int line, char **tok, int ntok)
{
	w_part_t *p;
	int i;

	if (ntok < 2 || strchr(tok[1], '='))
		_world_error(line, "usage: part NAME nodes=N cpus=N [factor=N] [tier=N] ...");
	if (list_find_first(world.parts, _find_part_name, tok[1]))
		_world_error(line, "partition '%s' defined twice", tok[1]);

	p = xmalloc(sizeof(*p));
	p->name = xstrdup(tok[1]);
	p->factor = 1;
	p->tier = 1;
	p->max_time = INFINITE;
	p->line = line;
	for (i = 2; i < ntok; i++) {
		char *val = _kv(tok[i]);
		uint32_t v;

		if (!val)
			_world_error(line, "expected key=value, got '%s'",
				     tok[i]);
		if (!xstrcmp(tok[i], "nodes"))
			p->nodes = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "cpus"))
			p->cpus = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "mem"))
			p->mem = _parse_u32(line, tok[i], val);
		else if (!xstrcmp(tok[i], "factor") ||
			 !xstrcmp(tok[i], "tier")) {
			v = _parse_u32(line, tok[i], val);
			if (v > 65533)
				_world_error(line, "%s must be <= 65533",
					     tok[i]);
			if (tok[i][0] == 'f')
				p->factor = v;
			else
				p->tier = v;
		} else if (!xstrcmp(tok[i], "billing")) {
			xfree(p->billing);
			p->billing = xstrdup(val);
		} else if (!xstrcmp(tok[i], "max_time"))
			p->max_time = _parse_u32(line, tok[i], val);
		else
			_world_error(line, "unknown part option '%s'",
				     tok[i]);
	}
	if (!p->nodes || !p->cpus)
		_world_error(line, "part needs nodes=N and cpus=N (> 0)");
	list_append(world.parts, p);
}

static void _parse_job(int line, char **tok, int ntok)
{
	w_job_t *j;
	int i;
	bool have_submit = false;

	if (ntok < 2 || strchr(tok[1], '='))
		_world_error(line, "usage: job ID user=U part=P submit=REL ...");

	j = xmalloc(sizeof(*j));
	j->line = line;
	j->id = _parse_u32(line, "job id", tok[1]);
	if (!j->id)
		_world_error(line, "job id must be > 0");
	{
		char key[16];

		snprintf(key, sizeof(key), "%u", j->id);
		if (_idx_add(&world.job_idx, key, j) != j)
			_world_error(line, "job %u defined twice", j->id);
	}
	j->cpus = 1;
	j->nodes = 1;
	j->time_limit = NO_VAL;
	j->state = 'P';
	j->priority = NO_VAL;
	j->loaded = NO_VAL;
	j->uid = NO_VAL;

	for (i = 2; i < ntok; i++) {
		char *key = tok[i], *val = _kv(tok[i]);

		if (!val)
			_world_error(line, "expected key=value, got '%s'",
				     tok[i]);
		if (!xstrcmp(key, "user")) {
			xfree(j->user);
			j->user = xstrdup(val);
		} else if (!xstrcmp(key, "account")) {
			xfree(j->account);
			j->account = xstrdup(val);
		} else if (!xstrcmp(key, "part")) {
			xfree(j->parts);
			j->parts = xstrdup(val);
		} else if (!xstrcmp(key, "qos")) {
			xfree(j->qos);
			j->qos = xstrdup(val);
		} else if (!xstrcmp(key, "cpus")) {
			j->cpus = _parse_u32(line, key, val);
		} else if (!xstrcmp(key, "nodes")) {
			j->nodes = _parse_u32(line, key, val);
		} else if (!xstrcmp(key, "mem")) {
			j->mem = _parse_u32(line, key, val);
		} else if (!xstrcmp(key, "submit")) {
			j->submit = _parse_rel(line, key, val);
			have_submit = true;
		} else if (!xstrcmp(key, "begin")) {
			j->begin = _parse_rel(line, key, val);
			j->has_begin = true;
		} else if (!xstrcmp(key, "accrue")) {
			j->accrue = _parse_rel(line, key, val);
			j->has_accrue = true;
		} else if (!xstrcmp(key, "start")) {
			j->start = _parse_rel(line, key, val);
			j->has_start = true;
		} else if (!xstrcmp(key, "time_limit")) {
			j->time_limit = _parse_u32(line, key, val);
		} else if (!xstrcmp(key, "state")) {
			if (!xstrcasecmp(val, "PD") ||
			    !xstrcasecmp(val, "PENDING"))
				j->state = 'P';
			else if (!xstrcasecmp(val, "R") ||
				 !xstrcasecmp(val, "RUNNING"))
				j->state = 'R';
			else if (!xstrcasecmp(val, "HELD"))
				j->state = 'H';
			else
				_world_error(line, "bad state '%s' (PD, R or HELD)",
					     val);
		} else if (!xstrcmp(key, "nice")) {
			j->nice = _parse_i32(line, key, val);
			if ((j->nice > (int32_t) (NICE_OFFSET - 3)) ||
			    (j->nice < -(int32_t) (NICE_OFFSET - 3)))
				_world_error(line, "nice out of range");
		} else if (!xstrcmp(key, "site")) {
			j->site = _parse_i32(line, key, val);
		} else if (!xstrcmp(key, "priority")) {
			j->priority = _parse_u32(line, key, val);
			if (!j->priority)
				_world_error(line, "priority=0 is a hold, use state=HELD");
		} else if (!xstrcmp(key, "loaded")) {
			j->loaded = _parse_u32(line, key, val);
			if (!j->loaded)
				_world_error(line, "loaded=0 is a hold, use state=HELD");
		} else if (!xstrcmp(key, "uid")) {
			j->uid = _parse_u32(line, key, val);
		} else
			_world_error(line, "unknown job option '%s'", key);
	}
	if (!j->user)
		_world_error(line, "job needs user=U");
	if (!j->parts)
		_world_error(line, "job needs part=P[,P2...]");
	if (!have_submit)
		_world_error(line, "job needs submit=REL (e.g. submit=-1h)");
	if (!j->cpus || !j->nodes)
		_world_error(line, "cpus and nodes must be > 0");
	if (j->has_start && (j->state != 'R'))
		_world_error(line, "start= is only valid with state=R");
	if ((j->loaded != NO_VAL) &&
	    ((j->priority != NO_VAL) || (j->state == 'H')))
		_world_error(line, "loaded= does not go with priority= or state=HELD");
	list_append(world.jobs, j);
}

static void _world_read(const char *file)
{
	FILE *fp;
	char *buf = NULL;
	size_t len = 0;
	int line = 0;

	world.file = file;
	world.qos = list_create(_free_qos);
	world.assocs = list_create(_free_assoc);
	world.parts = list_create(_free_part);
	world.jobs = list_create(_free_job);
	world.users = list_create(xfree_ptr);

	if (!(fp = fopen(file, "r")))
		_die("cannot open world file %s: %s", file, strerror(errno));

	while (getline(&buf, &len, fp) >= 0) {
		char *tok[64], *save = NULL, *p, *hash;
		int ntok = 0;

		line++;
		if ((hash = strchr(buf, '#')))
			*hash = '\0';
		for (p = strtok_r(buf, " \t\r\n", &save); p;
		     p = strtok_r(NULL, " \t\r\n", &save)) {
			if (ntok >= 64)
				_world_error(line, "too many tokens");
			tok[ntok++] = p;
		}
		if (!ntok)
			continue;

		if (!xstrcmp(tok[0], "cluster"))
			_parse_cluster(line, tok, ntok);
		else if (!xstrcmp(tok[0], "qos"))
			_parse_qos(line, tok, ntok);
		else if (!xstrcmp(tok[0], "assoc"))
			_parse_assoc(line, tok, ntok);
		else if (!xstrcmp(tok[0], "part"))
			_parse_part(line, tok, ntok);
		else if (!xstrcmp(tok[0], "job"))
			_parse_job(line, tok, ntok);
		else
			_world_error(line, "unknown directive '%s' (cluster, qos, assoc, part, job)",
				     tok[0]);
	}
	free(buf);
	fclose(fp);
}

static int _find_qos_id_1(void *x, void *key)
{
	(void) key;
	return (((w_qos_t *) x)->id == 1);
}

/*
 * qos=Q, or qos=Q1,Q2,... (a job that asked for several QOS, Slurm 24.11
 * and later): every QOS defined, at least two different ones.
 */
static void _check_job_qos(w_job_t *j)
{
	char *tmp = xstrdup(j->qos), *tok, *save = NULL;
	list_t *seen = list_create(NULL);
	bool several = (strchr(j->qos, ',') != NULL);

	if (several && !HARNESS_2411)
		_world_error(j->line, "qos=%s: a job with several QOS needs Slurm 24.11 or later; this harness is built against Slurm %s",
			     j->qos, SLURM_VERSION_STRING);
	for (tok = strtok_r(tmp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		w_qos_t *q = list_find_first(world.qos, _find_qos_name, tok);

		if (!q)
			_world_error(j->line, "qos '%s' is not defined", tok);
		if (!list_find_first(seen, _find_ptr, q))
			list_append(seen, q);
	}
	if (!list_count(seen) || (several && (list_count(seen) < 2)))
		_world_error(j->line, "qos=%s: name two different QOS, or one",
			     j->qos);
	j->nqos = list_count(seen);
	FREE_NULL_LIST(seen);
	xfree(tmp);
}

/* Cross-reference checks, implicit objects and derived numbers. */
static void _world_check(void)
{
	list_itr_t *itr;
	w_assoc_t *a, *root;
	w_qos_t *q;
	w_part_t *p;
	w_job_t *j;
	uint32_t next_id = 1;

	/* implicit root association, first in the list */
	root = xmalloc(sizeof(*root));
	root->acct = xstrdup("root");
	root->shares = 1;
	list_prepend(world.assocs, root);
	_world_assoc_add(root);

	itr = list_iterator_create(world.assocs);
	while ((a = list_next(itr))) {
		if (a == root)
			continue;
		if (!_world_assoc(a->parent, NULL))
			_world_error(a->line, "parent account '%s' is not defined",
				     a->parent);
		if (a->user && (a->uid == NO_VAL)) {
			/* uid from the user's first appearance */
			uintptr_t n = (uintptr_t) _idx_get(&world.uid_idx,
							   a->user);

			a->uid = HARNESS_UID_BASE + n - 1;
		}
	}
	/* account cycles: every account must reach root */
	list_iterator_reset(itr);
	while ((a = list_next(itr))) {
		w_assoc_t *up = a;
		int depth = 0;

		while (up && (up != root) && (depth++ < 1000))
			up = _world_assoc(up->parent, NULL);
		if (up != root)
			_world_error(a->line, "account hierarchy of '%s' does not lead to root",
				     a->acct);
	}
	list_iterator_destroy(itr);

	/* implicit QOS "normal"; ids for the others */
	if (!list_find_first(world.qos, _find_qos_name, "normal")) {
		q = xmalloc(sizeof(*q));
		q->name = xstrdup("normal");
		q->usage_factor = 1.0;
		list_prepend(world.qos, q);
	}
	/* id 1 is "normal"'s (as in slurmdbd) unless taken explicitly */
	next_id = 2;
	itr = list_iterator_create(world.qos);
	while ((q = list_next(itr))) {
		w_qos_t *q2;
		list_itr_t *i2;

		if (!q->id)
			continue;
		next_id = MAX(next_id, q->id + 1);
		i2 = list_iterator_create(world.qos);
		while ((q2 = list_next(i2)))
			if ((q2 != q) && (q2->id == q->id))
				_world_error(q2->line, "qos id %u used twice",
					     q->id);
		list_iterator_destroy(i2);
	}
	list_iterator_reset(itr);
	while ((q = list_next(itr))) {
		if (q->id)
			continue;
		if (!xstrcmp(q->name, "normal") &&
		    !list_find_first(world.qos, _find_qos_id_1, NULL))
			q->id = 1;
		else
			q->id = next_id++;
	}
	list_iterator_destroy(itr);

	if (!list_count(world.parts))
		_world_error(0, "no partitions defined");
	itr = list_iterator_create(world.parts);
	while ((p = list_next(itr))) {
		if (!world.cluster_nodes)
			world.cluster_cpus = MAX(world.cluster_cpus, p->cpus);
		world.cluster_mem = MAX(world.cluster_mem, p->mem);
	}
	if (!world.cluster_nodes) {
		list_iterator_reset(itr);
		while ((p = list_next(itr)))
			world.cluster_nodes = MAX(world.cluster_nodes,
						  p->nodes);
	}
	list_iterator_destroy(itr);

	itr = list_iterator_create(world.jobs);
	while ((j = list_next(itr))) {
		char *tmp, *tok, *save = NULL;

		if (!j->account) {
			a = _idx_get(&world.user_idx, j->user);
			if (!a)
				_world_error(j->line, "user '%s' has no association",
					     j->user);
			j->account = xstrdup(a->acct);
		}
		if (!_world_assoc(j->account, j->user))
			_world_error(j->line, "no association %s@%s",
				     j->user, j->account);
		if (!j->qos)
			j->qos = xstrdup("normal");
		_check_job_qos(j);
		tmp = xstrdup(j->parts);
		for (tok = strtok_r(tmp, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (!list_find_first(world.parts, _find_part_name,
					     tok))
				_world_error(j->line, "partition '%s' is not defined",
					     tok);
		xfree(tmp);
	}
	list_iterator_destroy(itr);
}

/*****************************************************************************\
 *  Building the controller's in-memory state
\*****************************************************************************/

/* TRES from AccountingStorageTRES, ids as slurmctld/slurmdbd assign them. */
static void _build_tres(void)
{
	slurmdb_update_object_t update;
	list_t *names = list_create(xfree_ptr);
	char *name;
	uint32_t next_id = 1001;
	assoc_mgr_lock_t locks = { .tres = READ_LOCK };

	if (!slurm_conf.accounting_storage_tres)
		_die("no AccountingStorageTRES in the configuration");
	slurm_addto_char_list(names, slurm_conf.accounting_storage_tres);

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_ADD_TRES;
	update.objects = list_create(slurmdb_destroy_tres_rec);

	while ((name = list_pop(names))) {
		slurmdb_tres_rec_t *t = xmalloc(sizeof(*t));
		char *slash = strchr(name, '/');
		static const struct {
			const char *name;
			uint32_t id;
		} known[] = {
			{ "cpu", TRES_CPU }, { "mem", TRES_MEM },
			{ "energy", TRES_ENERGY }, { "node", TRES_NODE },
			{ "billing", TRES_BILLING },
			{ "fs/disk", TRES_FS_DISK },
			{ "vmem", TRES_VMEM }, { "pages", TRES_PAGES },
		};
		size_t k;

		for (k = 0; k < ARRAY_SIZE(known); k++)
			if (!xstrcasecmp(name, known[k].name))
				t->id = known[k].id;
		if (slash) {
			*slash = '\0';
			t->name = xstrdup(slash + 1);
		}
		t->type = name;
		if (!t->id)
			t->id = next_id++;
		list_append(update.objects, t);
	}
	FREE_NULL_LIST(names);

	assoc_mgr_update_tres(&update, false);
	FREE_NULL_LIST(update.objects);

	assoc_mgr_lock(&locks);
	slurmctld_tres_cnt = g_tres_count;
	assoc_mgr_unlock(&locks);
	if ((slurmctld_tres_cnt < TRES_ARRAY_TOTAL_CNT) ||
	    xstrcmp(assoc_mgr_tres_array[TRES_ARRAY_BILLING]->type,
		    "billing"))
		_die("AccountingStorageTRES must include the standard TRES (cpu,mem,energy,node,billing,...)");
}

/* Child lists of the account associations, in world (list) order. */
/* 'a' becomes the last child of 'p'. */
static void _add_kid(w_assoc_t *p, w_assoc_t *a)
{
	if (p->nkids == p->maxkids) {
		p->maxkids = p->maxkids ? 2 * p->maxkids : 8;
		xrecalloc(p->kids, p->maxkids, sizeof(*p->kids));
	}
	p->kids[p->nkids++] = a;
}

static void _link_assocs(w_assoc_t *root)
{
	list_itr_t *itr = list_iterator_create(world.assocs);
	w_assoc_t *a;

	while ((a = list_next(itr))) {
		if (a == root)
			continue;
		/* users hang off their account, accounts off their parent */
		_add_kid(_world_assoc(a->user ? a->acct : a->parent, NULL), a);
	}
	list_iterator_destroy(itr);
}

/* Assign ids (unless 'next_id' is NULL) and nested-set lft/rgt (as
 * slurmdbd stores them). */
static uint32_t _number_assocs(w_assoc_t *a, uint32_t *next_id, uint32_t lft)
{
	int i;

	if (next_id)
		a->id = a->fixed_id ? a->fixed_id : (*next_id)++;
	a->lft = lft++;
	for (i = 0; i < a->nkids; i++)
		lft = _number_assocs(a->kids[i], next_id, lft);
	a->rgt = lft++;
	return lft;
}

static void _build_assoc_mgr(void)
{
	assoc_init_args_t args;
	slurmdb_update_object_t update;
	assoc_mgr_lock_t locks = {
		.assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK,
		.user = WRITE_LOCK,
	};
	list_itr_t *itr;
	w_qos_t *q;
	w_assoc_t *a, *root = list_peek(world.assocs);
	uint32_t next_id = 1;

	/* slurmctld running from its cache: no slurmdbd connection */
	running_cache = RUNNING_CACHE_STATE_RUNNING;
	memset(&args, 0, sizeof(args));
	args.cache_level = ASSOC_MGR_CACHE_ALL;
	args.enforce = accounting_enforce;
	args.running_cache = &running_cache;
	_assoc_init_args_version(&args);
	if (assoc_mgr_init(acct_db_conn, &args, SLURM_SUCCESS))
		_die("assoc_mgr_init failed");

	_build_tres();

	_link_assocs(root);
	_number_assocs(root, &next_id, 1);

	assoc_mgr_lock(&locks);
	if (!assoc_mgr_qos_list)
		assoc_mgr_qos_list = list_create(slurmdb_destroy_qos_rec);
	if (!assoc_mgr_user_list)
		assoc_mgr_user_list = list_create(slurmdb_destroy_user_rec);
	if (!assoc_mgr_assoc_list)
		assoc_mgr_assoc_list = list_create(slurmdb_destroy_assoc_rec);

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_ADD_QOS;
	update.objects = list_create(slurmdb_destroy_qos_rec);
	itr = list_iterator_create(world.qos);
	while ((q = list_next(itr))) {
		slurmdb_qos_rec_t *rec = xmalloc(sizeof(*rec));

		slurmdb_init_qos_rec(rec, 0, NO_VAL);
		rec->id = q->id;
		rec->name = xstrdup(q->name);
		rec->priority = q->priority;
		rec->usage_factor = q->usage_factor;
		rec->usage_thres = (double) INFINITE;
		rec->flags = q->flags;
		rec->description = xstrdup("harness");
		list_append(update.objects, rec);
	}
	list_iterator_destroy(itr);
	assoc_mgr_update_qos(&update, true);
	FREE_NULL_LIST(update.objects);

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_ADD_ASSOC;
	update.objects = list_create(slurmdb_destroy_assoc_rec);
	itr = list_iterator_create(world.assocs);
	while ((a = list_next(itr))) {
		slurmdb_assoc_rec_t *rec = xmalloc(sizeof(*rec));
		w_assoc_t *parent = NULL;

		slurmdb_init_assoc_rec(rec, 0);
		rec->id = a->id;
#ifdef PRISM_HAVE_ASSOC_LFT
		rec->lft = a->lft;
		rec->rgt = a->rgt;
#endif
		rec->cluster = xstrdup(slurm_conf.cluster_name);
		rec->acct = xstrdup(a->acct);
		rec->user = xstrdup(a->user);
		rec->shares_raw = a->shares;
		rec->priority = a->priority;
		rec->is_def = 1;
		/* no default QOS, as slurmdbd sends it (init leaves NO_VAL,
		 * which a later modification would test as a QOS id) */
		rec->def_qos_id = 0;
		if (a != root) {
			parent = _world_assoc(a->parent, NULL);
			/* (next_id: past the last association's) */
			rec->parent_id = a->detached ? next_id : parent->id;
			if (!a->user)
				rec->parent_acct = xstrdup(a->parent);
		}
		rec->usage = slurmdb_create_assoc_usage(g_tres_count);
		if (a->user) {
			rec->usage->usage_raw = a->usage;
			rec->usage->usage_tres_raw[TRES_ARRAY_CPU] = a->usage;
			rec->usage->usage_tres_raw[TRES_ARRAY_BILLING] =
				a->usage;
		}
		a->rec = rec;
		list_append(update.objects, rec);
	}
	list_iterator_destroy(itr);
	assoc_mgr_update_assocs(&update, true);
	FREE_NULL_LIST(update.objects);

	/*
	 * The user names are not real accounts on this host, so assoc_mgr
	 * could not resolve them; use the world's uids (not rehashed).
	 */
	itr = list_iterator_create(world.assocs);
	while ((a = list_next(itr))) {
		if (a->user) {
			a->hash_uid = a->rec->uid;
			a->rec->uid = a->uid;
		}
	}
	list_iterator_destroy(itr);

	if (!assoc_mgr_root_assoc || (assoc_mgr_root_assoc != root->rec))
		_die("assoc_mgr did not accept the association tree");
	assoc_mgr_unlock(&locks);
}

/* list_for_each() on assoc_mgr's associations: no usage (--slurm-load) */
static int _zero_assoc_usage(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	slurmdb_assoc_usage_t *u[2] = { assoc->usage, assoc->leaf_usage };

	for (int i = 0; i < 2; i++) {
		if (!u[i])
			continue;
		u[i]->usage_raw = 0;
		u[i]->grp_used_wall = 0;
		for (uint32_t t = 0; t < g_tres_count; t++)
			u[i]->usage_tres_raw[t] = 0;
	}
	return 0;
}

/*
 * --slurm-load: slurmctld's usage files in the state directory put into
 * the associations and QOS as slurmctld does at start, in place of the
 * world's usage (load_assoc_usage() sets each association's own usage and
 * adds it up the tree; load_qos_usage() sets each QOS's).
 */
static void _slurm_load(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	char *path = xstrdup_printf("%s/assoc_usage", state_dir);

	if (access(path, R_OK))
		_die("--slurm-load: cannot read %s: %s", path,
		     strerror(errno));
	xfree(path);
	assoc_mgr_lock(&locks);
	list_for_each(assoc_mgr_assoc_list, _zero_assoc_usage, NULL);
	assoc_mgr_unlock(&locks);
	if ((load_assoc_usage() != SLURM_SUCCESS) ||
	    (load_qos_usage() != SLURM_SUCCESS))
		_die("--slurm-load: slurmctld's usage files in %s cannot be loaded",
		     state_dir);
}

/* Is the account association 'a' in the tree (no detached one on its way
 * up to root)? */
static bool _attached(w_assoc_t *a)
{
	w_assoc_t *root = list_peek(world.assocs);

	for (; a && (a != root); a = _world_assoc(a->parent, NULL))
		if (a->detached)
			return false;
	return a == root;
}

/* --move ACCOUNT=PARENT: refuse what sacctmgr would. */
static void _move_check(void)
{
	w_assoc_t *a, *p, *up;

	if (!opt.move_acct)
		return;
	if ((opt.pass_mode != PASS_STATE) || (opt.passes < 2))
		_die("--move needs --passes 2 or more (and --pass state)");
	a = _world_assoc(opt.move_acct, NULL);
	p = _world_assoc(opt.move_parent, NULL);
	if (!a || !p)
		_die("--move: account '%s' is not defined",
		     a ? opt.move_parent : opt.move_acct);
	if (!xstrcmp(a->acct, "root"))
		_die("--move: root cannot move");
	if (!xstrcmp(a->parent, p->acct))
		_die("--move: '%s' is already under '%s'", a->acct, p->acct);
	if (!_attached(a) || !_attached(p))
		_die("--move: '%s' and '%s' must both be in the tree (not detached)",
		     a->acct, p->acct);
	for (up = p; up && xstrcmp(up->acct, "root");
	     up = _world_assoc(up->parent, NULL))
		if (up == a)
			_die("--move: '%s' is below '%s'", p->acct, a->acct);
}

/*
 * --move, after the first pass: the account ACCOUNT (and everything below
 * it) moves under PARENT, last of its children, as slurmctld hears from
 * slurmdbd after `sacctmgr modify account ACCOUNT set parent=PARENT`: a
 * modification of ACCOUNT's parent, and of the lft (and rgt) of every
 * association the move renumbers (22.05 orders the tree by lft). The
 * tree then has as many associations as before, in another shape.
 * Called by a plugin thread at the end of the pass, holding no lock.
 */
static void _move_account(void)
{
	w_assoc_t *a = _world_assoc(opt.move_acct, NULL);
	w_assoc_t *old = _world_assoc(a->parent, NULL);
	w_assoc_t *p = _world_assoc(opt.move_parent, NULL);
	w_assoc_t *root = list_peek(world.assocs), *w;
	int n = list_count(world.assocs), i, k;
	uint32_t *lft = xcalloc(n, sizeof(*lft));
	slurmdb_update_object_t update;
	list_itr_t *itr;

	for (k = 0; old->kids[k] != a; k++)
		;
	memmove(&old->kids[k], &old->kids[k + 1],
		(old->nkids - k - 1) * sizeof(*old->kids));
	old->nkids--;
	_add_kid(p, a);
	xfree(a->parent);
	a->parent = xstrdup(p->acct);

	itr = list_iterator_create(world.assocs);
	for (i = 0; (w = list_next(itr)); i++)
		lft[i] = w->lft;
	(void) _number_assocs(root, NULL, 1);

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_MODIFY_ASSOC;
	update.objects = list_create(slurmdb_destroy_assoc_rec);
	list_iterator_reset(itr);
	for (i = 0; (w = list_next(itr)); i++) {
		slurmdb_assoc_rec_t *rec;

		if ((w != a) && (w->lft == lft[i]))
			continue;
		rec = xmalloc(sizeof(*rec));
		slurmdb_init_assoc_rec(rec, 0);
		rec->id = w->id;
		rec->cluster = xstrdup(slurm_conf.cluster_name);
		rec->acct = xstrdup(w->acct);
#ifdef PRISM_HAVE_ASSOC_LFT
		rec->lft = w->lft;
		rec->rgt = w->rgt;
#endif
		if (w == a) {
			rec->parent_id = p->id;
			rec->parent_acct = xstrdup(p->acct);
		}
		list_append(update.objects, rec);
	}
	list_iterator_destroy(itr);
	xfree(lft);
	info("--move: %s moves from %s to %s (%d associations renumbered)",
	     a->acct, old->acct, p->acct, list_count(update.objects));
	if (assoc_mgr_update_assocs(&update, false) != SLURM_SUCCESS)
		_die("--move: assoc_mgr refused the move");
	FREE_NULL_LIST(update.objects);
}

static void _free_part_record(void *x)
{
	part_record_t *part_ptr = x;

	xfree(part_ptr->name);
	xfree(part_ptr->billing_weights_str);
	xfree(part_ptr->billing_weights);
	xfree(part_ptr->tres_cnt);
	xfree(part_ptr->tres_fmt_str);
	xfree(part_ptr);
}

static void _build_parts(void)
{
	list_itr_t *itr;
	w_part_t *p;
	part_record_t *part_ptr;
	assoc_mgr_lock_t locks = { .tres = READ_LOCK };

	part_list = list_create(_free_part_record);
	part_max_priority = DEF_PART_MAX_PRIORITY;

	assoc_mgr_lock(&locks);
	itr = list_iterator_create(world.parts);
	while ((p = list_next(itr))) {
		part_ptr = xmalloc(sizeof(*part_ptr));
		part_ptr->magic = PART_MAGIC;
		part_ptr->name = xstrdup(p->name);
		part_ptr->priority_job_factor = p->factor;
		part_ptr->priority_tier = p->tier;
		part_ptr->total_nodes = p->nodes;
		part_ptr->total_cpus = p->cpus;
		part_ptr->max_nodes = INFINITE;
		part_ptr->min_nodes = 1;
#ifdef PRISM_HAVE_PART_NODES_ORIG
		part_ptr->max_nodes_orig = INFINITE;
		part_ptr->min_nodes_orig = 1;
#endif
		part_ptr->max_time = p->max_time;
		part_ptr->default_time = NO_VAL;
		part_ptr->max_cpus_per_node = INFINITE;
		part_ptr->max_share = 1;
		part_ptr->state_up = PARTITION_UP;
		part_ptr->grace_time = 0;
		part_ptr->preempt_mode = NO_VAL16;
		part_ptr->cpu_bind = 0;
		part_ptr->over_time_limit = NO_VAL16;

		if (p->billing) {
			part_ptr->billing_weights = slurm_get_tres_weight_array(
				p->billing, slurmctld_tres_cnt, false);
			if (!part_ptr->billing_weights)
				_world_error(p->line, "bad billing weights '%s'",
					     p->billing);
			part_ptr->billing_weights_str = xstrdup(p->billing);
		}

		part_ptr->tres_cnt = xcalloc(slurmctld_tres_cnt,
					     sizeof(uint64_t));
		part_ptr->tres_cnt[TRES_ARRAY_CPU] = p->cpus;
		part_ptr->tres_cnt[TRES_ARRAY_MEM] = p->mem;
		part_ptr->tres_cnt[TRES_ARRAY_NODE] = p->nodes;
		part_ptr->tres_cnt[TRES_ARRAY_BILLING] =
			assoc_mgr_tres_weighted(part_ptr->tres_cnt,
						part_ptr->billing_weights,
						slurm_conf.priority_flags,
						true);
		part_ptr->tres_fmt_str = assoc_mgr_make_tres_str_from_array(
			part_ptr->tres_cnt, TRES_STR_CONVERT_UNITS, true);

		part_max_priority = MAX(part_max_priority, p->factor);
		p->rec = part_ptr;
		list_append(part_list, part_ptr);
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);

	itr = list_iterator_create(part_list);
	while ((part_ptr = list_next(itr)))
		part_ptr->norm_priority =
			(double) part_ptr->priority_job_factor /
			(double) part_max_priority;
	list_iterator_destroy(itr);
	last_part_update = time(NULL);

	cluster_cpus = world.cluster_cpus;
	_set_node_count(world.cluster_nodes);
}

static void _free_job_record(void *x)
{
	job_record_t *job_ptr = x;

	_job_hash_remove(job_ptr);
	_job_record_free_version(job_ptr);
	if (job_ptr->details) {
		job_ptr->details->magic = 0;
		xfree(job_ptr->details);
	}
	FREE_NULL_LIST(job_ptr->part_ptr_list);
	xfree(job_ptr->account);
	xfree(job_ptr->partition);
	xfree(job_ptr->name);
	xfree(job_ptr->user_name);
	xfree(job_ptr->state_desc);	/* a plugin's hold reason */
	xfree(job_ptr->tres_req_cnt);
	xfree(job_ptr->tres_req_str);
	xfree(job_ptr->tres_fmt_req_str);
	xfree(job_ptr->tres_alloc_cnt);
	xfree(job_ptr->tres_alloc_str);
	xfree(job_ptr->tres_fmt_alloc_str);
	job_ptr->magic = 0;
	xfree(job_ptr);
}

/* Build one job record the way slurmctld has it after job_allocate(). */
static job_record_t *_build_job(w_job_t *j, time_t now)
{
	job_record_t *job_ptr = _job_record_new();
	job_details_t *d = job_ptr->details;
	w_assoc_t *a = _world_assoc(j->account, j->user);
	char *tmp, *tok, *save = NULL;

	job_ptr->job_id = j->id;
#ifdef PRISM_HAVE_JOB_STEP_ID
	job_ptr->step_id.job_id = j->id;	/* as slurmctld (25.11 on) */
#endif
	job_ptr->db_index = j->id;
	job_ptr->array_task_id = NO_VAL;
	job_ptr->user_id = (j->uid != NO_VAL) ? j->uid : a->uid;
	job_ptr->group_id = job_ptr->user_id;
	job_ptr->user_name = xstrdup(j->user);
	job_ptr->name = xstrdup_printf("job%u", j->id);
	job_ptr->account = xstrdup(j->account);
	job_ptr->assoc_id = a->rec->id;
	job_ptr->assoc_ptr = a->rec;
	if (j->nqos > 1) {
		if (!_job_set_qos_list(job_ptr, j->qos))
			_world_error(j->line, "qos=%s: several QOS need Slurm 24.11",
				     j->qos);
	} else {
		w_qos_t *q = list_find_first(world.qos, _find_qos_name,
					     j->qos);

		job_ptr->qos_id = q->id;
		job_ptr->qos_ptr = list_find_first(assoc_mgr_qos_list,
						   slurmdb_find_qos_in_list,
						   &job_ptr->qos_id);
	}
	job_ptr->partition = xstrdup(j->parts);
	job_ptr->time_limit = j->time_limit;
	job_ptr->site_factor = NICE_OFFSET + j->site;
	job_ptr->billable_tres = (double) NO_VAL;
	job_ptr->end_time_exp = NO_VAL;

	tmp = xstrdup(j->parts);
	for (tok = strtok_r(tmp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		part_record_t *part_ptr = find_part_record(tok);

		if (!job_ptr->part_ptr) {
			job_ptr->part_ptr = part_ptr;
		} else {
			if (!job_ptr->part_ptr_list) {
				job_ptr->part_ptr_list = list_create(NULL);
				list_append(job_ptr->part_ptr_list,
					    job_ptr->part_ptr);
			}
			if (!list_find_first(job_ptr->part_ptr_list,
					     _find_ptr, part_ptr))
				list_append(job_ptr->part_ptr_list, part_ptr);
		}
	}
	xfree(tmp);
	if (job_ptr->part_ptr_list)
		list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);

	d->submit_time = now + j->submit;
	d->begin_time = now + (j->has_begin ? j->begin : j->submit);
	/* as acct_policy_handle_accrue_time() leaves it */
	if (j->has_accrue)
		d->accrue_time = now + j->accrue;
	else if (slurm_conf.priority_flags & PRIORITY_FLAGS_ACCRUE_ALWAYS)
		d->accrue_time = d->submit_time;
	else if (!(accounting_enforce & ACCOUNTING_ENFORCE_LIMITS))
		d->accrue_time = d->begin_time;
	else if ((j->state == 'H') || (d->begin_time > now))
		d->accrue_time = 0;	/* not eligible: no accrual yet */
	else
		d->accrue_time = d->begin_time;
	d->min_cpus = j->cpus;
	d->orig_min_cpus = j->cpus;
	d->max_cpus = NO_VAL;
	d->orig_max_cpus = NO_VAL;
	d->min_nodes = j->nodes;
	d->max_nodes = j->nodes;
	d->num_tasks = j->cpus;
	d->pn_min_memory = j->mem;
	d->orig_pn_min_memory = j->mem;
	d->nice = NICE_OFFSET + j->nice;
	d->share_res = NO_VAL8;
	d->whole_node = 0;
	job_ptr->details = d;

	switch (j->state) {
	case 'R':
		job_ptr->job_state = JOB_RUNNING;
		job_ptr->state_reason = WAIT_NO_REASON;
		job_ptr->start_time = now + (j->has_start ? j->start :
					     (d->begin_time - now));
		job_ptr->total_cpus = j->cpus;
		job_ptr->node_cnt = j->nodes;
		if (j->time_limit != NO_VAL) {
			job_ptr->end_time = job_ptr->start_time +
					    (time_t) j->time_limit * 60;
			job_ptr->end_time_exp = job_ptr->end_time;
		} else {
			job_ptr->end_time = job_ptr->start_time +
					    365 * 86400;
			job_ptr->end_time_exp = job_ptr->end_time;
		}
		break;
	case 'H':
		job_ptr->job_state = JOB_PENDING;
		job_ptr->state_reason = WAIT_HELD_USER;
		job_ptr->priority = 0;
		break;
	default:
		job_ptr->job_state = JOB_PENDING;
		job_ptr->state_reason = WAIT_NO_REASON;
		break;
	}
	if (j->state != 'H') {
		if (j->priority != NO_VAL) {
			job_ptr->priority = j->priority;
			job_ptr->direct_set_prio = 1;
		} else if (j->loaded != NO_VAL) {
			/* as _load_job_state(): no priority_array saved */
			job_ptr->priority = j->loaded;
			if (j->loaded > 1) {
				lowest_prio = MIN(lowest_prio, j->loaded);
				highest_loaded_prio = MAX(highest_loaded_prio,
							  j->loaded);
			}
		} else
			job_ptr->priority = NO_VAL;
	}
	return job_ptr;
}

static void _set_job_alloc_tres(job_record_t *job_ptr);

/* job_set_req_tres()/job_set_alloc_tres() equivalents; assoc_mgr locked */
static void _set_job_tres(job_record_t *job_ptr, uint64_t mem_per_node)
{
	uint64_t *req = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));

	req[TRES_ARRAY_CPU] = job_ptr->details->min_cpus;
	req[TRES_ARRAY_NODE] = job_ptr->details->min_nodes;
	req[TRES_ARRAY_MEM] = mem_per_node * job_ptr->details->min_nodes;
	req[TRES_ARRAY_BILLING] = assoc_mgr_tres_weighted(
		req, job_ptr->part_ptr->billing_weights,
		slurm_conf.priority_flags, true);
	job_ptr->tres_req_cnt = req;
	job_ptr->tres_req_str = assoc_mgr_make_tres_str_from_array(
		req, TRES_STR_FLAG_SIMPLE, true);
	job_ptr->tres_fmt_req_str = assoc_mgr_make_tres_str_from_array(
		req, TRES_STR_CONVERT_UNITS, true);

	if (IS_JOB_RUNNING(job_ptr))
		_set_job_alloc_tres(job_ptr);
}

/* job_set_alloc_tres() of a running job; assoc_mgr TRES read lock held */
static void _set_job_alloc_tres(job_record_t *job_ptr)
{
	job_ptr->tres_alloc_cnt = xcalloc(slurmctld_tres_cnt,
					  sizeof(uint64_t));
	memcpy(job_ptr->tres_alloc_cnt, job_ptr->tres_req_cnt,
	       slurmctld_tres_cnt * sizeof(uint64_t));
	job_ptr->tres_alloc_cnt[TRES_ARRAY_BILLING] =
		(uint64_t) calc_job_billable_tres(job_ptr,
						  job_ptr->start_time, true);
	job_ptr->tres_alloc_str = assoc_mgr_make_tres_str_from_array(
		job_ptr->tres_alloc_cnt, TRES_STR_FLAG_SIMPLE, true);
	job_ptr->tres_fmt_alloc_str = assoc_mgr_make_tres_str_from_array(
		job_ptr->tres_alloc_cnt, TRES_STR_CONVERT_UNITS, true);
}

/* slurmctld's set_job_prio(): the submit path's priority assignment */
static void _set_job_prio(job_record_t *job_ptr)
{
	uint32_t relative_prio;

	if (bench_fp) {
		/* CLOCK_MONOTONIC is a vDSO call; the CPU clocks are not */
		uint64_t t0 = _clock_ns(CLOCK_MONOTONIC);

		job_ptr->priority = priority_g_set(lowest_prio, job_ptr);
		bench_set_ns += _clock_ns(CLOCK_MONOTONIC) - t0;
		bench_set_calls++;
	} else {
		job_ptr->priority = priority_g_set(lowest_prio, job_ptr);
	}
	if ((job_ptr->priority == 0) || job_ptr->direct_set_prio)
		return;

	relative_prio = job_ptr->priority;
	if (job_ptr->details && (job_ptr->details->nice != NICE_OFFSET)) {
		int64_t offset = job_ptr->details->nice;

		offset -= NICE_OFFSET;
		relative_prio += offset;
	}
	lowest_prio = MIN(relative_prio, lowest_prio);
}

/*
 * AccountingStorageEnforce=limits: what slurmctld counts for a running job
 * when it starts, and again when it recovers the job at a restart
 * (acct_policy_job_begin()): the TRES-seconds of its whole time limit,
 * scaled by its QOS's UsageFactor, in grp_used_tres_run_secs of the QOS
 * and of every association up to root (and on 24.11 in the QOS's
 * per-account and per-user records).  A job without a time limit got its
 * partition's when it started (the harness's partitions have no
 * DefaultTime).  The plugin then takes back what has run.  Caller holds
 * the assoc_mgr assoc and QOS write and TRES read locks.
 */
static void _job_begin_limits(job_record_t *job_ptr)
{
	slurmdb_qos_rec_t *qos = job_ptr->qos_ptr;
	slurmdb_assoc_rec_t *assoc;
	uint64_t *run = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
	uint64_t secs;
	int i;

	if (job_ptr->time_limit == NO_VAL) {
		job_ptr->time_limit = job_ptr->part_ptr->max_time;
		job_ptr->end_time_exp = job_ptr->end_time =
			job_ptr->start_time +
			(time_t) job_ptr->time_limit * 60;
	}
	secs = (uint64_t) job_ptr->time_limit * 60;
	if (qos && (qos->usage_factor >= 0))
		secs *= qos->usage_factor;	/* truncated, as Slurm */
	for (i = 0; i < slurmctld_tres_cnt; i++) {
		if ((i == TRES_ARRAY_ENERGY) ||
		    (job_ptr->tres_alloc_cnt[i] == NO_CONSUME_VAL64))
			continue;
		run[i] = job_ptr->tres_alloc_cnt[i] * secs;
	}
	if (qos && qos->usage) {
		for (i = 0; i < slurmctld_tres_cnt; i++)
			qos->usage->grp_used_tres_run_secs[i] += run[i];
		_qos_used_limits_begin(qos, job_ptr, run);
	}
	for (assoc = job_ptr->assoc_ptr; assoc && assoc->usage;
	     assoc = assoc->usage->parent_assoc_ptr)
		for (i = 0; i < slurmctld_tres_cnt; i++)
			assoc->usage->grp_used_tres_run_secs[i] += run[i];
	xfree(run);
}

/*
 * Load every job into job_list as slurmctld has it (its records built,
 * running ones counted against limits).  Their priorities are set by
 * _set_priorities().
 */
static void _load_jobs(time_t now)
{
	slurmctld_lock_t job_write = {
		.conf = READ_LOCK, .job = WRITE_LOCK, .node = WRITE_LOCK,
		.part = READ_LOCK, .fed = READ_LOCK
	};
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };
	assoc_mgr_lock_t begin_locks = { .assoc = WRITE_LOCK,
					 .qos = WRITE_LOCK,
					 .tres = READ_LOCK };
	list_itr_t *itr;
	w_job_t *j;

	lock_slurmctld(job_write);
	itr = list_iterator_create(world.jobs);
	while ((j = list_next(itr))) {
		job_record_t *job_ptr;

		assoc_mgr_lock(&locks);
		job_ptr = _build_job(j, now);
		_set_job_tres(job_ptr, j->mem);
		assoc_mgr_unlock(&locks);
		if (IS_JOB_RUNNING(job_ptr) && _limits_enforced()) {
			assoc_mgr_lock(&begin_locks);
			_job_begin_limits(job_ptr);
			assoc_mgr_unlock(&begin_locks);
		}
		list_append(job_list, job_ptr);
		_job_hash_add(job_ptr);
		last_job_update = now;
	}
	list_iterator_destroy(itr);
	unlock_slurmctld(job_write);
}

/* "Submit": the initial priority of every job that has none, in order. */
static void _set_priorities(void)
{
	slurmctld_lock_t submit_lock = {
		.conf = READ_LOCK, .job = WRITE_LOCK, .node = WRITE_LOCK,
		.part = READ_LOCK, .fed = READ_LOCK
	};
	list_itr_t *itr;
	job_record_t *job_ptr;

	lock_slurmctld(submit_lock);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr)))
		/* as job_allocate(): only jobs without a set priority */
		if (job_ptr->priority == NO_VAL)
			_set_job_prio(job_ptr);
	list_iterator_destroy(itr);
	unlock_slurmctld(submit_lock);
}

static void _proc_mem(long *rss_kb, long *hwm_kb);	/* --bench, below */

/*****************************************************************************\
 *  --churn SEED: weeks of churn (issue 32, item 5).  Between passes the
 *  main thread, with the gate closed (plugin threads wait at their next
 *  lock), applies a seeded stream of events the way slurmctld sees them:
 *  finished jobs purged, running jobs ended or timed out, pending jobs
 *  cancelled or started, jobs submitted (priority_g_set()), user and
 *  account associations added and removed and QOS modified (as slurmdbd
 *  tells slurmctld: assoc_mgr_update_assocs()/assoc_mgr_update_qos()),
 *  and now and then a reconfigure (weights, PriorityWeightTRES's memory
 *  weight dropped or restored, and PriorityFlags changed,
 *  priority_g_reconfig()).
 *  The stream depends only on the seed, the world and the counts of jobs
 *  in each state, never on a plugin's results, so every plugin sees the
 *  same events at the same (frozen) times.  After every pass it prints a
 *  "pass" line (population, heap, RSS, StateSaveLocation file sizes) and
 *  the job rows, every --churn-full K passes the full report.
\*****************************************************************************/
static uint64_t churn_rng = 0;		/* xorshift64* state */
static uint32_t churn_next_job = 1;	/* next job id */
static uint32_t churn_next_assoc = 0;	/* next association id */
static uint32_t churn_serial = 0;	/* names and uids of new ones */
static int churn_pend_target = 0, churn_run_target = 0;
static int churn_assoc_target = 0;	/* the world's associations */
static uint32_t churn_weights[2];	/* age, QOS weights from the conf */
/* PriorityWeightTRES from the conf and, in turn with it, the same without
 * the memory weight: a reconfigure that turns a TRES's weight to 0 and
 * back, which jobs request (Prism orders the TRES by their weights) */
static char *churn_tres_weights[2];
static int churn_reconfigs;		/* reconfigures so far */

typedef struct {
	int purge, end, timeout, cancel, start, submit;
	int user_add, user_rm, acct_add, acct_rm, qos, reconfig, flags;
	int tres_weights;
} churn_counts_t;

/* A random number 0 .. n-1 (n >= 1). */
static uint32_t _churn_rnd(uint32_t n)
{
	churn_rng ^= churn_rng >> 12;
	churn_rng ^= churn_rng << 25;
	churn_rng ^= churn_rng >> 27;
	return (uint32_t) (((churn_rng * 2685821657736338717ULL) >> 33) % n);
}

/* Start churn state after the world is loaded (main thread, no lock). */
/*
 * 'weights' (PriorityWeightTRES) without its Mem= item, or NULL when it
 * has none (the reconfigure then keeps the weights); xfree() it.
 */
static char *_churn_tres_without_mem(const char *weights)
{
	char *copy, *tok, *save = NULL, *out = NULL;
	bool dropped = false;

	if (!weights)
		return NULL;
	copy = xstrdup(weights);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!xstrncasecmp(tok, "mem=", 4)) {
			dropped = true;
			continue;
		}
		xstrfmtcat(out, "%s%s", out ? "," : "", tok);
	}
	xfree(copy);
	if (!dropped || !out)
		xfree(out);
	return out;
}

static void _churn_init(void)
{
	list_itr_t *itr;
	job_record_t *job_ptr;
	w_assoc_t *a;

	churn_rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t) opt.churn_seed;
	(void) _churn_rnd(1);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		churn_next_job = MAX(churn_next_job, job_ptr->job_id + 1);
		if (IS_JOB_RUNNING(job_ptr))
			churn_run_target++;
		else if (IS_JOB_PENDING(job_ptr))
			churn_pend_target++;
	}
	list_iterator_destroy(itr);
	churn_assoc_target = list_count(world.assocs);
	itr = list_iterator_create(world.assocs);
	while ((a = list_next(itr)))
		churn_next_assoc = MAX(churn_next_assoc, a->id);
	list_iterator_destroy(itr);
	/* past the id a detached account's parent_id names */
	churn_next_assoc += 2;
	churn_weights[0] = slurm_conf.priority_weight_age;
	churn_weights[1] = slurm_conf.priority_weight_qos;
	churn_tres_weights[0] = xstrdup(slurm_conf.priority_weight_tres);
	churn_tres_weights[1] = _churn_tres_without_mem(
		slurm_conf.priority_weight_tres);
	if (churn_run_target < 4)
		churn_run_target = 4;
	if (churn_pend_target < 8)
		churn_pend_target = 8;
}

/* How many of an event: 0..rate, an eighth of the excess more when 'have'
 * exceeds 'want' (the population reverts to the world's). */
static int _churn_count(int have, int want)
{
	int n = _churn_rnd(opt.churn_rate + 1);

	if (have > want)
		n += (have - want) / 8;
	return n;
}

/* A random entry of 'v' (*cnt of them), taken out of it; NULL: none. */
static job_record_t *_churn_take(job_record_t **v, int *cnt)
{
	uint32_t i;
	job_record_t *job_ptr;

	if (!*cnt)
		return NULL;
	i = _churn_rnd(*cnt);
	job_ptr = v[i];
	v[i] = v[--(*cnt)];
	return job_ptr;
}

static int _churn_purge_match(void *x, void *key)
{
	job_record_t *job_ptr = x;
	time_t *now = key;

	/* a pass has seen it finished (MinJobAge, as purge_old_job()) */
	return IS_JOB_FINISHED(job_ptr) && (job_ptr->end_time < *now);
}

/* The allocation of a starting job (job write lock held). */
static void _churn_start_job(job_record_t *job_ptr, time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };

	job_ptr->job_state = JOB_RUNNING;
	job_ptr->state_reason = WAIT_NO_REASON;
	job_ptr->start_time = now;
	job_ptr->total_cpus = job_ptr->details->min_cpus;
	job_ptr->node_cnt = job_ptr->details->min_nodes;
	job_ptr->end_time = now + ((job_ptr->time_limit != NO_VAL) ?
				   (time_t) job_ptr->time_limit * 60 :
				   365 * 86400);
	job_ptr->end_time_exp = job_ptr->end_time;
	assoc_mgr_lock(&locks);
	_set_job_alloc_tres(job_ptr);
	assoc_mgr_unlock(&locks);
	if (_limits_enforced()) {
		/* acct_policy_job_begin(): its run-seconds to come */
		assoc_mgr_lock_t begin_locks = { .assoc = WRITE_LOCK,
						 .qos = WRITE_LOCK,
						 .tres = READ_LOCK };

		assoc_mgr_lock(&begin_locks);
		_job_begin_limits(job_ptr);
		assoc_mgr_unlock(&begin_locks);
	}
	last_job_update = now;
}

/*
 * A running job ended (completed or timed out): with limits enforced,
 * slurmctld's deallocate_nodes() has acct_policy_job_fini() tell the
 * priority plugin (priority_g_job_end(), job write lock held), which
 * charges its usage since the last pass and gives back its unused
 * run-seconds.
 */
static void _churn_job_ended(job_record_t *job_ptr)
{
	if (_limits_enforced())
		priority_g_job_end(job_ptr);
}

/* The n-th element of a list (NULL: none). */
static void *_churn_nth(list_t *list, int n)
{
	list_itr_t *itr = list_iterator_create(list);
	void *x;

	while ((x = list_next(itr)) && n--)
		;
	list_iterator_destroy(itr);
	return x;
}

/* A random user (or account) association in the tree (NULL: none). */
static w_assoc_t *_churn_pick_assoc(bool user)
{
	int n = list_count(world.assocs), tries;

	for (tries = 0; tries < 64; tries++) {
		w_assoc_t *a = _churn_nth(world.assocs, _churn_rnd(n));

		if (!a || (user != (a->user != NULL)))
			continue;
		if (!_attached(_world_assoc(a->acct, NULL)))
			continue;
		return a;
	}
	return NULL;
}

/* A submitted job, as job_allocate() leaves it (job write lock held). */
static void _churn_submit(time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };
	w_assoc_t *a = _churn_pick_assoc(true);
	int nparts = list_count(world.parts), nqos = list_count(world.qos);
	w_part_t *p1, *p2;
	w_qos_t *q;
	w_job_t j;
	job_record_t *job_ptr;

	if (!a)
		return;
	memset(&j, 0, sizeof(j));
	j.id = churn_next_job++;
	j.user = a->user;
	j.account = a->acct;
	p1 = _churn_nth(world.parts, _churn_rnd(nparts));
	p2 = _churn_nth(world.parts, _churn_rnd(nparts));
	if ((p1 != p2) && !_churn_rnd(5))
		j.parts = xstrdup_printf("%s,%s", p1->name, p2->name);
	else
		j.parts = xstrdup(p1->name);
	q = _churn_nth(world.qos, _churn_rnd(nqos));
	j.qos = q->name;
	j.nqos = 1;
	j.cpus = 1 << _churn_rnd(6);
	j.nodes = 1 + (j.cpus >= 16 ? _churn_rnd(4) : 0);
	j.mem = 500 * (1 + _churn_rnd(8));
	j.submit = 0;
	if (!_churn_rnd(10)) {
		j.has_begin = true;
		j.begin = 60 * (1 + _churn_rnd(60));
	}
	j.time_limit = _churn_rnd(3) ? 60 * (1 + _churn_rnd(48)) : NO_VAL;
	j.state = _churn_rnd(25) ? 'P' : 'H';
	j.nice = _churn_rnd(10) ? 0 : (int32_t) _churn_rnd(200) - 100;
	j.priority = NO_VAL;
	j.loaded = NO_VAL;
	j.uid = NO_VAL;

	assoc_mgr_lock(&locks);
	job_ptr = _build_job(&j, now);
	_set_job_tres(job_ptr, j.mem);
	assoc_mgr_unlock(&locks);
	xfree(j.parts);
	list_append(job_list, job_ptr);
	_job_hash_add(job_ptr);
	last_job_update = now;
	if (job_ptr->priority == NO_VAL)
		_set_job_prio(job_ptr);
}

/* Jobs: purge, end, time out, cancel, start, submit. */
static void _churn_jobs(time_t now, churn_counts_t *c)
{
	slurmctld_lock_t job_write = {
		.conf = READ_LOCK, .job = WRITE_LOCK, .node = WRITE_LOCK,
		.part = READ_LOCK, .fed = READ_LOCK
	};
	int njobs, npend = 0, nready = 0, nrun = 0, n, i;
	job_record_t **pend, **ready, **run, *job_ptr;
	list_itr_t *itr;

	lock_slurmctld(job_write);
	c->purge = list_delete_all(job_list, _churn_purge_match, &now);
	njobs = list_count(job_list);
	pend = xcalloc(njobs + 1, sizeof(*pend));
	ready = xcalloc(njobs + 1, sizeof(*ready));
	run = xcalloc(njobs + 1, sizeof(*run));
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		if (IS_JOB_RUNNING(job_ptr)) {
			if (job_ptr->end_time <= now) {
				/* job_time_limit(): over its limit */
				job_ptr->job_state = JOB_TIMEOUT;
				job_ptr->end_time = now;
				_churn_job_ended(job_ptr);
				c->timeout++;
			} else {
				run[nrun++] = job_ptr;
			}
		} else if (IS_JOB_PENDING(job_ptr)) {
			/* any can be cancelled, eligible ones started */
			pend[npend++] = job_ptr;
			if (job_ptr->priority &&
			    (job_ptr->details->begin_time <= now))
				ready[nready++] = job_ptr;
		}
	}
	list_iterator_destroy(itr);

	n = _churn_count(nrun, churn_run_target);
	for (i = 0; (i < n) && (job_ptr = _churn_take(run, &nrun)); i++) {
		job_ptr->job_state = JOB_COMPLETE;
		job_ptr->end_time = now;
		_churn_job_ended(job_ptr);
		c->end++;
	}
	n = _churn_count(churn_run_target, nrun);
	for (i = 0; (i < n) && (job_ptr = _churn_take(ready, &nready)); i++) {
		_churn_start_job(job_ptr, now);
		c->start++;
	}
	n = _churn_count(npend, churn_pend_target) / 2;
	for (i = 0; (i < n) && (job_ptr = _churn_take(pend, &npend)); i++) {
		if (!IS_JOB_PENDING(job_ptr))
			continue;	/* started just now */
		/* _job_signal() of a pending job */
		job_ptr->job_state = JOB_CANCELLED;
		job_ptr->start_time = now;
		job_ptr->end_time = now;
		c->cancel++;
	}
	n = _churn_count(churn_pend_target, npend);
	for (i = 0; i < n; i++) {
		_churn_submit(now);
		c->submit++;
	}
	xfree(pend);
	xfree(ready);
	xfree(run);
	unlock_slurmctld(job_write);
}

/* Does any job in job_list belong to the association? (job lock held) */
static int _churn_job_of(void *x, void *key)
{
	return ((job_record_t *) x)->assoc_ptr == key;
}

static bool _churn_assoc_has_jobs(w_assoc_t *a)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK };
	bool has;

	lock_slurmctld(job_read);
	has = list_find_first(job_list, _churn_job_of, a->rec) != NULL;
	unlock_slurmctld(job_read);
	return has;
}

static slurmdb_assoc_rec_t *_churn_assoc_rec(w_assoc_t *a)
{
	slurmdb_assoc_rec_t *rec = xmalloc(sizeof(*rec));

	slurmdb_init_assoc_rec(rec, 0);
	rec->id = a->id;
	rec->cluster = xstrdup(slurm_conf.cluster_name);
	rec->acct = xstrdup(a->acct);
	rec->user = xstrdup(a->user);
#ifdef PRISM_HAVE_ASSOC_LFT
	rec->lft = a->lft;
	rec->rgt = a->rgt;
#endif
	return rec;
}

static void _churn_update(slurmdb_update_object_t *update, const char *what)
{
	if (assoc_mgr_update_assocs(update, false) != SLURM_SUCCESS)
		_die("--churn: assoc_mgr refused to %s", what);
	FREE_NULL_LIST(update->objects);
}

/*
 * New associations 'add' (already in the world, without ids): renumber
 * the tree and tell assoc_mgr what slurmdbd would, the new ones
 * (SLURMDB_ADD_ASSOC) and the lft/rgt of the ones that moved
 * (SLURMDB_MODIFY_ASSOC).
 */
static void _churn_add(w_assoc_t **add, int nadd)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	w_assoc_t *root = list_peek(world.assocs), *w;
	int n = list_count(world.assocs), i;
	uint32_t *lft = xcalloc(n, sizeof(*lft)), *rgt = xcalloc(n, sizeof(*rgt));
	slurmdb_update_object_t update;
	list_itr_t *itr = list_iterator_create(world.assocs);

	for (i = 0; (w = list_next(itr)); i++) {
		lft[i] = w->lft;
		rgt[i] = w->rgt;
	}
	(void) _number_assocs(root, NULL, 1);

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_ADD_ASSOC;
	update.objects = list_create(slurmdb_destroy_assoc_rec);
	for (i = 0; i < nadd; i++) {
		slurmdb_assoc_rec_t *rec;

		add[i]->id = ++churn_next_assoc;
		rec = _churn_assoc_rec(add[i]);
		rec->shares_raw = add[i]->shares;
		rec->priority = add[i]->priority;
		rec->is_def = 1;
		rec->def_qos_id = 0;
		rec->parent_id = _world_assoc(add[i]->parent, NULL)->id;
		if (!add[i]->user)
			rec->parent_acct = xstrdup(add[i]->parent);
		rec->usage = slurmdb_create_assoc_usage(g_tres_count);
		add[i]->rec = rec;
		list_append(update.objects, rec);
	}
	_churn_update(&update, "add an association");

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_MODIFY_ASSOC;
	update.objects = list_create(slurmdb_destroy_assoc_rec);
	list_iterator_reset(itr);
	for (i = 0; (w = list_next(itr)); i++) {
		if ((i >= n) || !w->id || ((w->lft == lft[i]) &&
					   (w->rgt == rgt[i])))
			continue;
		if (w->rec && (w->id <= churn_next_assoc - nadd)) {
			slurmdb_assoc_rec_t *rec = _churn_assoc_rec(w);

			xfree(rec->user);	/* as --move: id and place */
			list_append(update.objects, rec);
		}
	}
	list_iterator_destroy(itr);
	if (list_count(update.objects))
		_churn_update(&update, "renumber the tree");
	else
		FREE_NULL_LIST(update.objects);
	xfree(lft);
	xfree(rgt);

	/* the world's uids, as _build_assoc_mgr() */
	assoc_mgr_lock(&locks);
	for (i = 0; i < nadd; i++)
		if (add[i]->user) {
			add[i]->hash_uid = add[i]->rec->uid;
			add[i]->rec->uid = add[i]->uid;
		}
	assoc_mgr_unlock(&locks);
}

/* A new association in the world (not yet in assoc_mgr). */
static w_assoc_t *_churn_world_add(const char *acct, const char *user,
				   const char *parent)
{
	w_assoc_t *a = xmalloc(sizeof(*a));

	a->acct = xstrdup(acct);
	a->user = xstrdup(user);
	a->parent = xstrdup(parent);
	a->shares = 1 + _churn_rnd(10);
	/* slurmdbd: an association without a priority of its own gets its
	 * parent's (never NO_VAL, which assoc_mgr would take as one) */
	a->priority = _world_assoc(parent, NULL)->priority;
	a->uid = 200000 + churn_serial;
	list_append(world.assocs, a);
	_world_assoc_add(a);
	_add_kid(_world_assoc(parent, NULL), a);
	return a;
}

/* Forget a removed association (its assoc_mgr record is gone). */
static void _churn_world_del(w_assoc_t *a)
{
	w_assoc_t *p = _world_assoc(a->user ? a->acct : a->parent, NULL);
	char *key = _assoc_key(a->acct, a->user);
	int k;

	for (k = 0; p->kids[k] != a; k++)
		;
	memmove(&p->kids[k], &p->kids[k + 1],
		(p->nkids - k - 1) * sizeof(*p->kids));
	p->nkids--;
	_idx_del(&world.assoc_idx, key);
	xfree(key);
	list_delete_ptr(world.assocs, a);
}

/* Remove the associations 'rm' (no jobs): SLURMDB_REMOVE_ASSOC. */
static void _churn_remove(w_assoc_t **rm, int nrm)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	slurmdb_update_object_t update;
	int i;

	/*
	 * assoc_mgr hashed user associations by the uid it resolved from
	 * the name (none here); the harness set the world's uid after, so
	 * give the record that uid back for assoc_mgr to unhash it (plugin
	 * threads wait at the gate meanwhile)
	 */
	assoc_mgr_lock(&locks);
	for (i = 0; i < nrm; i++)
		if (rm[i]->user)
			rm[i]->rec->uid = rm[i]->hash_uid;
	assoc_mgr_unlock(&locks);

	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_REMOVE_ASSOC;
	update.objects = list_create(slurmdb_destroy_assoc_rec);
	for (i = 0; i < nrm; i++)
		list_append(update.objects, _churn_assoc_rec(rm[i]));
	_churn_update(&update, "remove an association");
	for (i = 0; i < nrm; i++)
		_churn_world_del(rm[i]);
}

/* A random account the churn added (NULL: none). */
static w_assoc_t *_churn_pick_added_acct(void)
{
	list_itr_t *itr = list_iterator_create(world.assocs);
	w_assoc_t *a, *pick = NULL;
	uint32_t n = 0;

	/* reservoir sampling: each of them equally likely */
	while ((a = list_next(itr)))
		if (!a->user && !strncmp(a->acct, "ca", 2) &&
		    !_churn_rnd(++n))
			pick = a;
	list_iterator_destroy(itr);
	return pick;
}

/* Associations: users and accounts come and go. */
static void _churn_assocs(churn_counts_t *c)
{
	w_assoc_t *add[4], *a;
	int nadd = 0, tries;

	if (!_churn_rnd(3)) {		/* a user joins an account */
		w_assoc_t *acct = _churn_pick_assoc(false);
		char *name = xstrdup_printf("cu%u", ++churn_serial);

		if (acct) {
			add[nadd++] = _churn_world_add(acct->acct, name,
						       acct->acct);
			c->user_add++;
		}
		xfree(name);
	}
	if (!_churn_rnd(10)) {		/* a new account with a user */
		w_assoc_t *parent = _churn_pick_assoc(false);
		char *name = xstrdup_printf("ca%u", ++churn_serial);
		char *user = xstrdup_printf("cu%u", ++churn_serial);

		if (parent) {
			add[nadd++] = _churn_world_add(name, NULL,
						       parent->acct);
			add[nadd++] = _churn_world_add(name, user, name);
			c->acct_add++;
			c->user_add++;
		}
		xfree(name);
		xfree(user);
	}
	if (nadd)
		_churn_add(add, nadd);

	/* a user without jobs leaves; one more try above the population */
	tries = !_churn_rnd(3) +
		(list_count(world.assocs) > churn_assoc_target);
	while (tries--) {
		a = _churn_pick_assoc(true);
		if (a && !_churn_assoc_has_jobs(a) &&
		    (_world_assoc(a->acct, NULL)->nkids > 1)) {
			_churn_remove(&a, 1);
			c->user_rm++;
		}
	}
	if (!_churn_rnd(10)) {		/* an account added by the churn
					 * goes, with its users (no jobs) */
		w_assoc_t *rm[16];
		int i, nrm = 0;

		a = _churn_pick_added_acct();
		if (!a || (a->nkids > 15))
			return;
		for (i = 0; i < a->nkids; i++) {
			if (!a->kids[i]->user ||
			    _churn_assoc_has_jobs(a->kids[i]))
				return;
			rm[nrm++] = a->kids[i];
		}
		rm[nrm++] = a;
		_churn_remove(rm, nrm);
		c->acct_rm++;
		c->user_rm += nrm - 1;
	}
}

/* A QOS's priority or usage factor changes (SLURMDB_MODIFY_QOS). */
static void _churn_qos(churn_counts_t *c)
{
	slurmdb_update_object_t update;
	slurmdb_qos_rec_t *rec;
	w_qos_t *q;
	static const double factors[] = { 0.5, 1.0, 2.0 };

	if (_churn_rnd(8))
		return;
	q = _churn_nth(world.qos, _churn_rnd(list_count(world.qos)));
	rec = xmalloc(sizeof(*rec));
	slurmdb_init_qos_rec(rec, 0, NO_VAL);
	rec->id = q->id;
	rec->name = xstrdup(q->name);
	if (_churn_rnd(2))
		rec->priority = _churn_rnd(1000);
	else
		rec->usage_factor = factors[_churn_rnd(ARRAY_SIZE(factors))];
	memset(&update, 0, sizeof(update));
	update.type = SLURMDB_MODIFY_QOS;
	update.objects = list_create(slurmdb_destroy_qos_rec);
	list_append(update.objects, rec);
	if (assoc_mgr_update_qos(&update, false) != SLURM_SUCCESS)
		_die("--churn: assoc_mgr refused to modify QOS %s", q->name);
	FREE_NULL_LIST(update.objects);
	c->qos++;
}

/* PriorityFlags a reconfigure turns on or off */
static const uint16_t churn_flags[] = {
	PRIORITY_FLAGS_SIZE_RELATIVE, PRIORITY_FLAGS_DEPTH_OBLIVIOUS,
	PRIORITY_FLAGS_NO_NORMAL_ASSOC, PRIORITY_FLAGS_CALCULATE_RUNNING,
};

/* scontrol reconfigure with other weights, sometimes other PriorityFlags
 * (as read_slurm_conf()). */
static void _churn_reconfig(churn_counts_t *c)
{
	slurmctld_lock_t conf_write = { .conf = WRITE_LOCK };

	if (_churn_rnd(20))
		return;
	lock_slurmctld(conf_write);
	slurm_conf.priority_weight_age = churn_weights[0] *
					 (1 + _churn_rnd(3));
	slurm_conf.priority_weight_qos = churn_weights[1] *
					 (1 + _churn_rnd(3));
	/* every other reconfigure, the other PriorityWeightTRES (counted,
	 * not drawn: the stream of events stays what it was) */
	if (churn_tres_weights[1] && !(churn_reconfigs++ % 2)) {
		bool other = !xstrcmp(slurm_conf.priority_weight_tres,
				      churn_tres_weights[0]);

		xfree(slurm_conf.priority_weight_tres);
		slurm_conf.priority_weight_tres =
			xstrdup(churn_tres_weights[other ? 1 : 0]);
		c->tres_weights++;
	}
	/* and now and then a PriorityFlags bit turned on or off */
	if (!_churn_rnd(2)) {
		slurm_conf.priority_flags ^= churn_flags[_churn_rnd(
			ARRAY_SIZE(churn_flags))];
		c->flags++;
	}
	unlock_slurmctld(conf_write);
	priority_g_reconfig(true);
	c->reconfig++;
}

/*
 * --weights-tres STR: after the first pass, before the next, in the thread
 * that ended it, a reconfigure with PriorityWeightTRES=STR (as Slurm 22.05
 * and 23.02 tell the plugin, with none of the controller's locks held).
 */
static void _reconfig_weights_tres(void)
{
	slurmctld_lock_t conf_write = { .conf = WRITE_LOCK };

	lock_slurmctld(conf_write);
	xfree(slurm_conf.priority_weight_tres);
	slurm_conf.priority_weight_tres = xstrdup(opt.weights_tres);
	unlock_slurmctld(conf_write);
	priority_g_reconfig(true);
}

/* Is the event kind left out (--churn-skip)? */
static bool _churn_skip(const char *kind)
{
	char *list = xstrdup_printf(",%s,", opt.churn_skip ? opt.churn_skip :
				    "");
	char *key = xstrdup_printf(",%s,", kind);
	bool skip = strstr(list, key) != NULL;

	xfree(list);
	xfree(key);
	return skip;
}

/* The events between pass 'k' and the next (gate closed, main thread). */
static void _churn_events(int k)
{
	churn_counts_t c;
	time_t now = time(NULL);

	memset(&c, 0, sizeof(c));
	if (!_churn_skip("jobs"))
		_churn_jobs(now, &c);
	if (!_churn_skip("assocs"))
		_churn_assocs(&c);
	if (!_churn_skip("qos"))
		_churn_qos(&c);
	if (!_churn_skip("reconfig"))
		_churn_reconfig(&c);
	printf("events %d purge=%d end=%d timeout=%d cancel=%d start=%d submit=%d user_add=%d user_rm=%d acct_add=%d acct_rm=%d qos=%d reconfig=%d flags=%d tres_weights=%d priority_flags=0x%x\n",
	       k, c.purge, c.end, c.timeout, c.cancel, c.start, c.submit,
	       c.user_add, c.user_rm, c.acct_add, c.acct_rm, c.qos,
	       c.reconfig, c.flags, c.tres_weights,
	       (unsigned) slurm_conf.priority_flags);
}

static int _cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* "pass K ..." after pass 'k': population, memory, state file sizes. */
static void _churn_pass_line(int k)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK };
	struct mallinfo2 mi = mallinfo2();
	long rss, hwm;
	int pend = 0, run = 0, njobs, nfiles = 0, i;
	char *names[64];
	list_itr_t *itr;
	job_record_t *job_ptr;
	DIR *dir;
	struct dirent *de;

	_proc_mem(&rss, &hwm);
	lock_slurmctld(job_read);
	njobs = list_count(job_list);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		if (IS_JOB_PENDING(job_ptr))
			pend++;
		else if (IS_JOB_RUNNING(job_ptr))
			run++;
	}
	list_iterator_destroy(itr);
	unlock_slurmctld(job_read);

	printf("pass %d now=%ld jobs=%d pending=%d running=%d assocs=%d heap=%zu rss_kb=%ld state=",
	       k, (long) time(NULL), njobs, pend, run,
	       list_count(world.assocs), mi.uordblks + mi.hblkhd, rss);
	if ((dir = opendir(state_dir))) {
		while ((de = readdir(dir)) && (nfiles < 64))
			if (de->d_name[0] != '.')
				names[nfiles++] = xstrdup(de->d_name);
		closedir(dir);
	}
	qsort(names, nfiles, sizeof(*names), _cmp_str);
	for (i = 0; i < nfiles; i++) {
		char *path = xstrdup_printf("%s/%s", state_dir, names[i]);
		struct stat st;

		printf("%s%s:%lld", i ? "," : "", names[i],
		       stat(path, &st) ? -1LL : (long long) st.st_size);
		xfree(path);
		xfree(names[i]);
	}
	printf("%s\n", nfiles ? "" : "-");
}

/*****************************************************************************\
 *  Report
\*****************************************************************************/
static void _print_ld(const char *key, long double v)
{
	if (isnan(v))
		printf(" %s=nan", key);
	else if (isinf(v) || (fabsl(v) >= LDBL_MAX))	/* valgrind: MAX */
		printf(" %s=%sinf", key, (v < 0) ? "-" : "");
	else if (fuzzy_equal(v, NO_VAL))
		printf(" %s=noval", key);
	else if (opt.digits)
		printf(" %s=%.*Lg", key, opt.digits, v);
	else
		printf(" %s=%.6Lf", key, v);
}

/* A factor value as the report prints it (%.6f, or --digits). */
static const char *_fmt_f(double v)
{
	static char buf[16][64];
	static int next = 0;
	char *b = buf[next++ % 16];

	if (opt.digits)
		snprintf(b, sizeof(buf[0]), "%.*g", opt.digits, v);
	else
		snprintf(b, sizeof(buf[0]), "%.6f", v);
	return b;
}

/* Does slurmctld enforce limits (AccountingStorageEnforce=limits)? */
static bool _limits_enforced(void)
{
	return (accounting_enforce & ACCOUNTING_ENFORCE_LIMITS);
}

/*
 * With limits enforced: " run_secs=TRES:N,..." (the nonzero entries of a
 * grp_used_tres_run_secs-like array, "-" for none), which the plugin
 * drains as jobs run.  Caller holds the assoc_mgr TRES read lock or
 * knows the TRES do not change.
 */
static void _print_run_secs(const uint64_t *secs)
{
	const char *sep = "";
	int64_t i;

	if (!_limits_enforced())
		return;
	printf(" run_secs=");
	for (i = 0; secs && (i < (int64_t) g_tres_count); i++) {
		if (!secs[i])
			continue;
		printf("%s%s:%" PRIu64, sep, assoc_mgr_tres_name_array[i],
		       secs[i]);
		sep = ",";
	}
	if (!*sep)
		printf("-");
}

static int _cmp_qos_name(void *x, void *y)
{
	slurmdb_qos_rec_t *a = *(slurmdb_qos_rec_t **) x;
	slurmdb_qos_rec_t *b = *(slurmdb_qos_rec_t **) y;

	return xstrcmp(a->name, b->name);
}

static int _cmp_part_name(void *x, void *y)
{
	part_record_t *a = *(part_record_t **) x;
	part_record_t *b = *(part_record_t **) y;

	return xstrcmp(a->name, b->name);
}

static void _report_world(void)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK };
	slurmctld_lock_t part_read = { .part = READ_LOCK };
	list_itr_t *itr;
	slurmdb_qos_rec_t *qos;
	slurmdb_assoc_rec_t *assoc;
	part_record_t *part_ptr;
	list_t *sorted;

	assoc_mgr_lock(&locks);
	sorted = list_shallow_copy(assoc_mgr_qos_list);
	list_sort(sorted, _cmp_qos_name);
	itr = list_iterator_create(sorted);
	while ((qos = list_next(itr))) {
		printf("qos %s priority=%u usage_factor=%.6f",
		       qos->name, qos->priority, qos->usage_factor);
		_print_ld("norm_priority", qos->usage ?
			  qos->usage->norm_priority : 0.0);
		_print_ld("usage_raw", qos->usage ? qos->usage->usage_raw : 0.0);
		if (qos->usage)
			_print_run_secs(qos->usage->grp_used_tres_run_secs);
		printf("\n");
	}
	list_iterator_destroy(itr);
	if (_limits_enforced()) {
		list_itr_t *q = list_iterator_create(sorted);

		while ((qos = list_next(q)))
			_report_qos_used_limits(qos);
		list_iterator_destroy(q);
	}
	FREE_NULL_LIST(sorted);

	/* assoc_mgr keeps the list in hierarchical (sshare) order */
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((assoc = list_next(itr))) {
		slurmdb_assoc_usage_t *u = assoc->usage;

		if (assoc->user)
			printf("assoc %s@%s", assoc->user, assoc->acct);
		else
			printf("assoc %s", assoc->acct);
		if (assoc->shares_raw == SLURMDB_FS_USE_PARENT)
			printf(" shares_raw=parent");
		else
			printf(" shares_raw=%u", assoc->shares_raw);
		_print_ld("shares_norm", u->shares_norm);
		_print_ld("usage_raw", u->usage_raw);
		_print_ld("usage_norm", u->usage_norm);
		_print_ld("usage_efctv", u->usage_efctv);
		_print_ld("fs_factor", u->fs_factor);
		_print_ld("level_fs", u->level_fs);
		_print_ld("priority_norm", u->priority_norm);
		_print_run_secs(u->grp_used_tres_run_secs);
		printf("\n");
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);

	lock_slurmctld(part_read);
	sorted = list_shallow_copy(part_list);
	list_sort(sorted, _cmp_part_name);
	itr = list_iterator_create(sorted);
	while ((part_ptr = list_next(itr))) {
		printf("part %s factor=%u tier=%u nodes=%u cpus=%u",
		       part_ptr->name, part_ptr->priority_job_factor,
		       part_ptr->priority_tier, part_ptr->total_nodes,
		       part_ptr->total_cpus);
		_print_ld("norm_priority", part_ptr->norm_priority);
		printf("\n");
	}
	list_iterator_destroy(itr);
	FREE_NULL_LIST(sorted);
	unlock_slurmctld(part_read);
}

typedef struct {
	uint32_t job_id;
	char *part;
	char *qos;			/* NULL: none printed */
	char *line;
} row_t;

static void _free_row(void *x)
{
	row_t *r = x;

	xfree(r->part);
	xfree(r->qos);
	xfree(r->line);
	xfree(r);
}

static int _cmp_row(void *x, void *y)
{
	row_t *a = *(row_t **) x;
	row_t *b = *(row_t **) y;
	int c;

	if (a->job_id != b->job_id)
		return (a->job_id < b->job_id) ? -1 : 1;
	if ((c = xstrcmp(a->part, b->part)))
		return c;
	return xstrcmp(a->qos, b->qos);
}

static void _add_row(list_t *rows, uint32_t job_id, const char *part,
		     const char *qos, char *line)
{
	row_t *r = xmalloc(sizeof(*r));

	r->job_id = job_id;
	r->part = xstrdup(part);
	r->qos = xstrdup(qos);
	r->line = line;
	list_append(rows, r);
}

static void _print_rows(list_t *rows)
{
	list_itr_t *itr;
	row_t *r;

	list_sort(rows, _cmp_row);
	itr = list_iterator_create(rows);
	while ((r = list_next(itr)))
		printf("%s\n", r->line);
	list_iterator_destroy(itr);
}

/* " qos=NAME" on Slurm 24.11 (every priority entry and sprio row has a
 * QOS there), "" on 22.05. */
static const char *_qos_field(const char *name)
{
	static char buf[4][128];
	static int next = 0;
	char *b;

	if (!HARNESS_2411)
		return "";
	b = buf[next++ % 4];
	snprintf(b, sizeof(buf[0]), " qos=%s", name ? name : "-");
	return b;
}

/* One job's rows: where the next priority-array entry is. */
typedef struct {
	list_t *rows;
	job_record_t *job_ptr;
	part_record_t *part_ptr;
	const char *state, *reason;
	uint32_t *array;		/* NULL: none */
	uint32_t size;			/* entries allocated */
	uint32_t i;			/* the entry's index */
} job_rows_t;

/* The entry of the pair (jr->part_ptr, QOS x): x NULL is the job's QOS. */
static int _report_entry(void *x, void *arg)
{
	job_rows_t *jr = arg;
	slurmdb_qos_rec_t *qos = x ? x : jr->job_ptr->qos_ptr;
	char *prio;

	if (!jr->array)
		prio = xstrdup("-");
	else if (jr->i >= jr->size)
		prio = xstrdup("beyond-array");
	else
		prio = xstrdup_printf("%u", jr->array[jr->i]);
	_add_row(jr->rows, jr->job_ptr->job_id, jr->part_ptr->name,
		 HARNESS_2411 && qos ? qos->name : NULL,
		 xstrdup_printf("job %u part=%s%s state=%s reason=%s priority=%s",
				jr->job_ptr->job_id, jr->part_ptr->name,
				_qos_field(qos ? qos->name : NULL),
				jr->state, jr->reason, prio));
	xfree(prio);
	jr->i++;
	return 0;
}

static void _report_part_entries(job_rows_t *jr, part_record_t *part_ptr)
{
	list_t *qos_list = JOB_QOS_LIST(jr->job_ptr);

	jr->part_ptr = part_ptr;
	if (qos_list)
		(void) list_for_each(qos_list, _report_entry, jr);
	else
		(void) _report_entry(NULL, jr);
}

/*
 * One row per job with job_ptr->priority.  A job with a priority array
 * (several partitions; on 24.11 also several QOS) gets a "part=*" row
 * with job_ptr->priority (on 24.11 also the array's allocated size and
 * the partition names Slurm keeps with it), then one row per entry,
 * labelled with the pair the scheduler reads it for: entries in
 * part_ptr_list order, on 24.11 partition-major with the job's qos_list
 * inside.  Every job row ends with "priority=N".
 */
static void _report_jobs(void)
{
	slurmctld_lock_t job_read = { .conf = READ_LOCK, .job = READ_LOCK,
				      .part = READ_LOCK };
	assoc_mgr_lock_t qos_read = { .qos = READ_LOCK };
	list_t *rows = list_create(_free_row);
	list_itr_t *itr;
	job_record_t *job_ptr;

	lock_slurmctld(job_read);
	assoc_mgr_lock(&qos_read);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		job_rows_t jr = {
			.rows = rows, .job_ptr = job_ptr,
			.state = job_state_string(job_ptr->job_state),
			.reason = JOB_REASON_STRING(job_ptr->state_reason),
			.array = JOB_PRIO_ARRAY(job_ptr),
			.size = _job_prio_array_size(job_ptr),
		};
		list_t *qos_list = JOB_QOS_LIST(job_ptr);
		const char *qos_name = job_ptr->qos_ptr ?
				       job_ptr->qos_ptr->name : NULL;
		part_record_t *part_ptr;
		list_itr_t *pitr;

		if (!job_ptr->part_ptr_list && !qos_list) {
			_add_row(rows, job_ptr->job_id,
				 job_ptr->part_ptr->name,
				 HARNESS_2411 ? qos_name : NULL,
				 xstrdup_printf("job %u part=%s%s state=%s reason=%s priority=%u",
						job_ptr->job_id,
						job_ptr->part_ptr->name,
						_qos_field(qos_name),
						jr.state, jr.reason,
						job_ptr->priority));
			continue;
		}
		if (HARNESS_2411) {
			const char *names = _job_prio_array_names(job_ptr);

			_add_row(rows, job_ptr->job_id, "*", "*",
				 xstrdup_printf("job %u part=* qos=* state=%s reason=%s array=%u names=%s priority=%u",
						job_ptr->job_id, jr.state,
						jr.reason, jr.size,
						names ? names : "-",
						job_ptr->priority));
		} else {
			_add_row(rows, job_ptr->job_id, "*", NULL,
				 xstrdup_printf("job %u part=* state=%s reason=%s priority=%u",
						job_ptr->job_id, jr.state,
						jr.reason,
						job_ptr->priority));
		}
		if (!job_ptr->part_ptr_list) {
			_report_part_entries(&jr, job_ptr->part_ptr);
			continue;
		}
		pitr = list_iterator_create(job_ptr->part_ptr_list);
		while ((part_ptr = list_next(pitr)))
			_report_part_entries(&jr, part_ptr);
		list_iterator_destroy(pitr);
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&qos_read);
	unlock_slurmctld(job_read);

	_print_rows(rows);
	FREE_NULL_LIST(rows);
}

/* Append 'key' and, for each TRES of a nonzero value in 'f', NAME:V with
 * V from 'v' ("none": no array), or "-" when there is none. */
static void _tres_field(char **line, const char *key,
			const row_factors_t *f, const double *v)
{
	const char *sep = "";

	xstrcat(*line, key);
	for (uint32_t i = 0; f->priority_tres && (i < f->tres_cnt) &&
			     (i < g_tres_count); i++) {
		if (f->priority_tres[i] == 0.0)
			continue;
		xstrfmtcat(*line, "%s%s:%s", sep, assoc_mgr_tres_name_array[i],
			   v ? _fmt_f(v[i]) : "none");
		sep = ",";
	}
	if (!*sep)
		xstrcat(*line, "-");
}

/* One sprio row as the report prints it.  Caller holds the assoc_mgr
 * TRES read lock. */
static char *_factors_line(priority_factors_object_t *obj)
{
	char *line = NULL;

	xstrfmtcat(line, "factors %u part=%s%s user=%u", ROW_JOB_ID(obj),
		   obj->partition ? obj->partition : "-",
		   _qos_field(ROW_QOS(obj)), obj->user_id);
#if HARNESS_2411
	xstrfmtcat(line, " account=%s", obj->account ? obj->account : "-");
#endif
	if (obj->direct_prio > 0) {
		xstrfmtcat(line, " direct=%s", _fmt_f(obj->direct_prio));
		return line;
	}
	if (!ROW_FACTORS(obj)) {
		/* slurmctld would dereference it when packing the row */
		xstrcat(line, " error=no-factors");
		return line;
	}
	xstrfmtcat(line, " age=%s assoc=%s fairshare=%s jobsize=%s partition=%s qos=%s site=%"PRId64" nice=%"PRId64,
		   _fmt_f(ROW_FACTORS(obj)->priority_age),
		   _fmt_f(ROW_FACTORS(obj)->priority_assoc),
		   _fmt_f(ROW_FACTORS(obj)->priority_fs),
		   _fmt_f(ROW_FACTORS(obj)->priority_js),
		   _fmt_f(ROW_FACTORS(obj)->priority_part),
		   _fmt_f(ROW_FACTORS(obj)->priority_qos),
		   (int64_t) ROW_FACTORS(obj)->priority_site -
		   (int64_t) NICE_OFFSET,
		   (int64_t) ROW_FACTORS(obj)->nice - (int64_t) NICE_OFFSET);
	/* the values, then the weights sprio -n divides them by */
	_tres_field(&line, " tres=", ROW_FACTORS(obj),
		    ROW_FACTORS(obj)->priority_tres);
	_tres_field(&line, " tres_w=", ROW_FACTORS(obj),
		    ROW_FACTORS(obj)->tres_weights);
	return line;
}

/*
 * sprio's factor list as root, asked for the way slurmctld does: 22.05
 * with no lock held (the plugin locks), 24.11 with the job, node and
 * partition read locks and the assoc_mgr QOS read lock held (the rows
 * are packed under them, the list freed after).  'fn' sees each row
 * under those locks.
 */
static list_t *_sprio_call(void (*fn)(priority_factors_object_t *, void *),
			   void *arg, int *nrows)
{
	list_t *factors;
	list_itr_t *itr;
	priority_factors_object_t *obj;
#if HARNESS_2411
	slurmctld_lock_t job_read = { .job = READ_LOCK, .node = READ_LOCK,
				      .part = READ_LOCK };
	assoc_mgr_lock_t qos_read = { .qos = READ_LOCK };

	lock_slurmctld(job_read);
	assoc_mgr_lock(&qos_read);
#endif
	factors = GET_FACTORS_LIST(0);
	*nrows = factors ? list_count(factors) : 0;
	if (factors && fn) {
		itr = list_iterator_create(factors);
		while ((obj = list_next(itr)))
			fn(obj, arg);
		list_iterator_destroy(itr);
	}
#if HARNESS_2411
	assoc_mgr_unlock(&qos_read);
	unlock_slurmctld(job_read);
#endif
	return factors;
}

/* Where sprio's rows go, each line after 'prefix'. */
typedef struct {
	list_t *rows;
	const char *prefix;
} factors_rows_t;

static void _factors_row(priority_factors_object_t *obj, void *arg)
{
	assoc_mgr_lock_t tres_read = { .tres = READ_LOCK };
	factors_rows_t *fr = arg;
	char *line;

	assoc_mgr_lock(&tres_read);
	line = _factors_line(obj);
	_add_row(fr->rows, ROW_JOB_ID(obj), obj->partition, ROW_QOS(obj),
		 xstrdup_printf("%s%s", fr->prefix, line));
	xfree(line);
	assoc_mgr_unlock(&tres_read);
}

/* What sprio shows: priority_g_get_priority_factors_list() as root, each
 * row printed after 'prefix'. */
static void _print_factors(const char *prefix)
{
	factors_rows_t fr = { .rows = list_create(_free_row),
			      .prefix = prefix };
	list_t *factors;
	int nrows;

	factors = _sprio_call(_factors_row, &fr, &nrows);
	FREE_NULL_LIST(factors);
	_print_rows(fr.rows);
	FREE_NULL_LIST(fr.rows);
	fflush(stdout);
}

/*
 * --sprio-mid: what sprio shows right after a plugin thread first lets
 * the job write lock go in the passes (between two slices of a pass that
 * gives it up; at the end of one that holds it throughout), printed at
 * once, each row as "mid factors ...".
 */
static void _sprio_mid(void)
{
	_print_factors("mid ");
}

static void _report(void)
{
	if (opt.report == REPORT_NONE)
		return;
	printf("plugin %s\n", slurm_conf.priority_type);
	if (opt.report == REPORT_FULL)
		_report_world();
	_report_jobs();
	if (opt.report == REPORT_FULL)
		_print_factors("");
	if (opt.nss_count)
		_report_nss();
	fflush(stdout);
}

/*
 * After a pass, wait (bounded) until the plugin thread that ended it
 * waits at the gate: it has freed what it frees after saving its state,
 * so the heap measured is the plugin's between passes, not a race with
 * the end of its pass.
 */
static void _churn_wait_parked(void)
{
	_wait_ev_flag(&ev_parked,
		      "--churn: no plugin thread waited at the gate after a pass");
}

/*
 * --churn: passes 1..N, each reported (the job rows, every K-th and the
 * last the full report) and followed by the next events, gate closed.
 */
static void _churn_run(uint64_t base)
{
	report_mode_t mode = opt.report;
	static char phase[32];	/* the watchdog reads it */
	int k;

	_churn_init();
	ev_base = base;
	__atomic_store_n(&passes_started, true, __ATOMIC_RELAXED);
	for (k = 1; k <= opt.passes; k++) {
		snprintf(phase, sizeof(phase), "churn pass %d", k);
		_phase(phase);
		_gate_set(true);
		_wait_for_passes(base, k);
		_churn_wait_parked();
		_churn_pass_line(k);
		if (k == opt.passes) {
			__atomic_store_n(&churn_done, true, __ATOMIC_RELAXED);
			break;		/* main() prints the full report */
		}
		opt.report = (opt.churn_full && !(k % opt.churn_full)) ?
			     mode : REPORT_JOBS;
		_report();
		opt.report = mode;
		_churn_events(k);
		fflush(stdout);
	}
}

/*****************************************************************************\
 *  --bench FILE: one "key value" line per measurement (see README)
\*****************************************************************************/
static void _bench_put(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void _bench_put(const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!bench_fp)
		return;
	fprintf(bench_fp, "%s ", key);
	va_start(ap, fmt);
	vfprintf(bench_fp, fmt, ap);
	va_end(ap);
	fputc('\n', bench_fp);
	fflush(bench_fp);
}

/* VmRSS and VmHWM (kB) from /proc/self/status; -1 when unknown */
static void _proc_mem(long *rss_kb, long *hwm_kb)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];

	*rss_kb = *hwm_kb = -1;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, "VmRSS:", 6))
			*rss_kb = strtol(line + 6, NULL, 10);
		else if (!strncmp(line, "VmHWM:", 6))
			*hwm_kb = strtol(line + 6, NULL, 10);
	}
	fclose(fp);
}

/* mem_TAG_heap (bytes malloc'ed, all arenas), mem_TAG_rss_kb, hwm */
static void _bench_mem(const char *tag)
{
	struct mallinfo2 mi;
	long rss, hwm;
	char key[64];

	if (!bench_fp)
		return;
	mi = mallinfo2();
	_proc_mem(&rss, &hwm);
	snprintf(key, sizeof(key), "mem_%s_heap", tag);
	_bench_put(key, "%zu", mi.uordblks + mi.hblkhd);
	snprintf(key, sizeof(key), "mem_%s_rss_kb", tag);
	_bench_put(key, "%ld", rss);
	snprintf(key, sizeof(key), "mem_%s_hwm_kb", tag);
	_bench_put(key, "%ld", hwm);
}

/* One figure of a hold summary: key PREFIX_NAME. */
static void _bench_hold_key(const char *prefix, const char *name, uint64_t v)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_%s", prefix, name);
	_bench_put(key, "%" PRIu64, v);
}

static void _bench_holds(const char *prefix, const bench_holds_t *h)
{
	const struct {
		const char *name;
		uint64_t v;
	} fig[] = {
		{ "holds", h->holds },
		{ "hold_max_ns", h->max_ns },
		{ "hold_max_at", h->max_at },
		{ "hold_sum_ns", h->sum_ns },
		{ "holds_over_2ms", h->over_2ms },
		{ "hold_max_cpu_ns", h->max_cpu_ns },
		{ "hold_max_minflt", (uint64_t) h->max_minflt },
		{ "hold_max_nivcsw", (uint64_t) h->max_nivcsw },
		{ "hold_max_nvcsw", (uint64_t) h->max_nvcsw },
		{ "hold_cpu_max_ns", h->cpu_max_ns },
		{ "hold_cpu_max_at", h->cpu_max_at },
		{ "holds_taken_away", h->taken_away },
	};

	for (size_t i = 0; i < sizeof(fig) / sizeof(fig[0]); i++)
		_bench_hold_key(prefix, fig[i].name, fig[i].v);
}

/* Counts of the jobs the world put in job_list (after submit). */
static void _bench_jobs(void)
{
	list_itr_t *itr = list_iterator_create(job_list);
	job_record_t *job_ptr;
	uint64_t all = 0, pending = 0, held_jobs = 0;

	while ((job_ptr = list_next(itr))) {
		all++;
		if (IS_JOB_PENDING(job_ptr)) {
			pending++;
			if (!job_ptr->priority)
				held_jobs++;
		}
	}
	list_iterator_destroy(itr);
	_bench_put("jobs", "%" PRIu64, all);
	_bench_put("jobs_pending", "%" PRIu64, pending);
	_bench_put("jobs_held", "%" PRIu64, held_jobs);
	_bench_put("assocs", "%d", list_count(assoc_mgr_assoc_list));
}

/*
 * The figures of a pass, once it is over: PREFIX "pass" for the measured
 * (last) pass, "passN" for earlier ones (--passes N).
 */
static void _bench_pass(const char *prefix)
{
	char key[64];
	int i;

	if (!bench_fp)
		return;
	slurm_mutex_lock(&bench_mutex);
	snprintf(key, sizeof(key), "%s_done", prefix);
	_bench_put(key, "%d", bench_pass_done ? 1 : 0);
	snprintf(key, sizeof(key), "%s_wall_ns", prefix);
	_bench_put(key, "%" PRIu64, bench_pass_wall_ns);
	snprintf(key, sizeof(key), "%s_cpu_ns", prefix);
	_bench_put(key, "%" PRIu64, bench_pass_cpu_ns);
	snprintf(key, sizeof(key), "%s_minflt", prefix);
	_bench_put(key, "%ld", bench_pass_minflt);
	snprintf(key, sizeof(key), "%s_nivcsw", prefix);
	_bench_put(key, "%ld", bench_pass_nivcsw);
	snprintf(key, sizeof(key), "%s_nvcsw", prefix);
	_bench_put(key, "%ld", bench_pass_nvcsw);
	snprintf(key, sizeof(key), "%s_job", prefix);
	_bench_holds(key, &bench_pass_job);
	for (i = 0; i < bench_assoc_cnt; i++) {
		snprintf(key, sizeof(key), "%s_assoc_hold_%d", prefix, i);
		_bench_put(key, "%s %" PRIu64, bench_assoc[i].levels,
			   bench_assoc[i].ns);
	}
	slurm_mutex_unlock(&bench_mutex);
}

/* The sprio path: priority_g_get_priority_factors_list() as root, timed. */
static void _bench_sprio(void)
{
	uint64_t t0, c0, ns, cpu;
	list_t *factors;
	int nrows;

	slurm_mutex_lock(&bench_mutex);
	bench_main_window = true;
	slurm_mutex_unlock(&bench_mutex);
	t0 = _clock_ns(CLOCK_MONOTONIC);
	c0 = _clock_ns(CLOCK_THREAD_CPUTIME_ID);
	factors = _sprio_call(NULL, NULL, &nrows);
	cpu = _clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	ns = _clock_ns(CLOCK_MONOTONIC) - t0;
	slurm_mutex_lock(&bench_mutex);
	bench_main_window = false;
	slurm_mutex_unlock(&bench_mutex);
	_bench_put("sprio_rows", "%d", nrows);
	_bench_put("sprio_ns", "%" PRIu64, ns);
	_bench_put("sprio_cpu_ns", "%" PRIu64, cpu);
	_bench_holds("sprio_job", &bench_main_job);
	_bench_mem("sprio");
	t0 = _clock_ns(CLOCK_MONOTONIC);
	FREE_NULL_LIST(factors);
	_bench_put("sprio_free_ns", "%" PRIu64,
		   _clock_ns(CLOCK_MONOTONIC) - t0);
}

/*****************************************************************************\
 *  Setup, options, main
\*****************************************************************************/
static void _setup_state_dir(void)
{
	if (opt.state_dir) {
		DIR *dir;
		struct dirent *ent;
		bool empty = true;

		if (mkdir(opt.state_dir, 0700) && (errno != EEXIST))
			_die("cannot create state dir %s: %s",
			     opt.state_dir, strerror(errno));
		if (!(dir = opendir(opt.state_dir)))
			_die("cannot open state dir %s: %s",
			     opt.state_dir, strerror(errno));
		while ((ent = readdir(dir))) {
			if (xstrcmp(ent->d_name, ".") &&
			    xstrcmp(ent->d_name, ".."))
				empty = false;
		}
		closedir(dir);
		if (!empty && !opt.keep_state)
			_die("state dir %s is not empty; a plugin's saved state (e.g. multifactor's priority_last_decay_ran) makes results depend on earlier runs. Empty it, or pass --keep-state to reuse it on purpose",
			     opt.state_dir);
		state_dir = xstrdup(opt.state_dir);
	} else {
		const char *tmp = getenv("TMPDIR");

		state_dir = xstrdup_printf("%s/prism-harness.XXXXXX",
					   (tmp && *tmp) ? tmp : "/tmp");
		if (!mkdtemp(state_dir))
			_die("cannot create a temporary state dir: %s",
			     strerror(errno));
		state_dir_is_temp = true;
	}
	xfree(slurm_conf.state_save_location);
	slurm_conf.state_save_location = xstrdup(state_dir);
}

static void _write_file(const char *name, const void *data, size_t len)
{
	char *path = xstrdup_printf("%s/%s", state_dir, name);
	FILE *fp = fopen(path, "w");

	if (!fp || (fwrite(data, 1, len, fp) != len) || fclose(fp))
		_die("cannot write %s: %s", path, strerror(errno));
	xfree(path);
}

/*
 * --last-ran: the saved state of a controller whose last recalculation
 * pass (and usage reset) was at 'when', for both plugins, so that the
 * first pass of this run has (now - when) seconds to decay and charge:
 *  - multifactor: priority_last_decay_ran, pack_time(last_ran) and
 *    pack_time(last_reset), as its _write_last_decay_ran() saves it;
 *  - prism: priority_prism_state, its four-line text format with a
 *    32-bit FNV-1a checksum of the lines before the checksum line.
 */
static void _write_last_ran(time_t when)
{
	buf_t *buffer = init_buf(BUF_SIZE);
	char body[256], all[320];
	uint32_t h = 2166136261u;
	int len, i;

	pack_time(when, buffer);	/* last_ran */
	pack_time(when, buffer);	/* last_reset */
	_write_file("priority_last_decay_ran", get_buf_data(buffer),
		    get_buf_offset(buffer));
	free_buf(buffer);

	len = snprintf(body, sizeof(body),
		       "prism-state 1\nlast_recalc %"PRId64"\nlast_reset %"PRId64"\n",
		       (int64_t) when, (int64_t) when);
	for (i = 0; i < len; i++) {
		h ^= (unsigned char) body[i];
		h *= 16777619u;
	}
	len = snprintf(all, sizeof(all), "%schecksum %08"PRIx32"\n", body, h);
	_write_file("priority_prism_state", all, len);
}

static void _usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s --conf FILE --world FILE [options]\n"
"  --conf FILE         slurm.conf to parse (Slurm's own parser)\n"
"  --world FILE        world description (see tests/harness/README)\n"
"  --plugin TYPE       override PriorityType (e.g. priority/prism)\n"
"  --plugindir DIRS    override PluginDir (colon separated list)\n"
"  --state DIR         StateSaveLocation (must be empty unless\n"
"                      --keep-state); default: a temporary directory\n"
"  --keep-state        allow a non-empty --state DIR\n"
"  --pass MODE         how to detect a finished recalculation pass:\n"
"                      state (default): a plugin thread released the\n"
"                      state-file lock (multifactor saves its state at\n"
"                      the end of each pass); jobwrite: a plugin thread\n"
"                      released a job write lock; none: no pass, plugin\n"
"                      threads stay blocked in lock_slurmctld() until\n"
"                      after the report (shows priority_g_set() values)\n"
"  --passes N          wait for N such events (default 1)\n"
"  --timeout SEC       bound for every phase (default 60)\n"
"  --now EPOCH         the frozen \"now\" (default: real time at start)\n"
"  --real-clock        do not freeze time()\n"
"  --last-ran EPOCH    pre-write both plugins' saved state with a last\n"
"                      recalculation (and usage reset) at EPOCH, so the\n"
"                      first pass decays and charges (now - EPOCH) s\n"
"  --digits N          print floating values with N significant digits\n"
"                      (%%.Ng) instead of %%.6f\n"
"  --report MODE       full (default): world, jobs and factors rows;\n"
"                      jobs: the plugin line and job rows; none\n"
"  --calc-period SEC   replace PriorityCalcPeriod (seconds)\n"
"  --advance SEC[,SEC...]  move the frozen clock SEC seconds at the end\n"
"                      of every pass (with --passes N > 1: each pass has\n"
"                      SEC seconds to decay and charge); a list gives\n"
"                      each pass its own step, the last one repeating; a\n"
"                      negative SEC steps the clock back (at most 16\n"
"                      steps, each nonzero and within a week)\n"
"  --at-pass N:CMD     after pass N (before the next), run the shell\n"
"                      command CMD (a fault made or undone between\n"
"                      passes); its failure ends the run; up to 4 times\n"
"  --slurm-save        after the report, save slurmctld's own state of\n"
"                      the associations (assoc_usage, qos_usage, ...) in\n"
"                      --state DIR with assoc_mgr's dump, as slurmctld\n"
"                      does every 5 minutes and at shutdown (its header\n"
"                      has the frozen now)\n"
"  --slurm-load        before the plugin starts, put slurmctld's usage\n"
"                      files of --state DIR (assoc_usage, qos_usage) into\n"
"                      the associations and QOS in place of the world's\n"
"                      usage, as slurmctld does at start\n"
"                      (load_assoc_usage(), load_qos_usage())\n"
"  --save-mid CMD      during the first pass, in the plugin thread right\n"
"                      after it first lets the job write lock go (between\n"
"                      two slices): save slurmctld's usage files as\n"
"                      --slurm-save does (its save every 5 minutes may\n"
"                      come then), then run the shell command CMD (a copy\n"
"                      of --state DIR made there is what a controller\n"
"                      killed at that moment leaves); its failure ends\n"
"                      the run\n"
"  --save-mid-at @mid|@before[+SEC]  when --save-mid saves: @mid (the\n"
"                      default) as above; @before, in the same thread\n"
"                      right before it first asks for that lock (after\n"
"                      the classic pass's fair-share walk, before its\n"
"                      charges); +SEC: the frozen clock moves SEC seconds\n"
"                      forward first (and stays there)\n"
"  --storm USEC        while the passes run, a thread of the harness\n"
"                      takes the job read lock, holds it USEC\n"
"                      microseconds and asks for it again at once, as\n"
"                      a stream of squeue RPCs does: a writer gets the\n"
"                      lock only between two such holds\n"
"  --handover SEC[@start]  before fini(), play a controller that another\n"
"                      asked for control SEC seconds ago (slurmctld's\n"
"                      REQUEST_CONTROL: resume_backup set, shutdown_time\n"
"                      SEC seconds before the frozen now); with @start,\n"
"                      so from before the plugin starts (its passes run\n"
"                      while slurmctld waits to answer), and the run\n"
"                      waits for the plugin thread's first sleep between\n"
"                      passes instead of a pass's state file\n"
"  --move ACCOUNT=PARENT  after the first pass, move the account\n"
"                      association ACCOUNT (and all below it) under\n"
"                      PARENT, as slurmdbd tells slurmctld after sacctmgr\n"
"                      modify account ACCOUNT set parent=PARENT (needs\n"
"                      --passes 2 or more)\n"
"  --end-job ID[@mid|@before][+SEC]  end the running job ID as slurmctld\n"
"                      does when a job completes with limits enforced\n"
"                      (state COMPLETING, end time now,\n"
"                      priority_g_job_end() under the job write lock):\n"
"                      after the passes, before the report; with @mid,\n"
"                      during the first pass, in the plugin thread right\n"
"                      after it first lets the job write lock go (as an\n"
"                      RPC between two slices); with @before, in the same\n"
"                      thread right before it first asks for that lock;\n"
"                      +SEC: the frozen clock moves SEC seconds forward\n"
"                      first (and stays there)\n"
"  --churn SEED        weeks of churn: between passes (--passes N, at\n"
"                      least 2, with --advance) apply a seeded stream of\n"
"                      events: jobs purged, ended, timed out, cancelled,\n"
"                      started and submitted, user and account\n"
"                      associations added and removed, QOS priority or\n"
"                      usage factor modified, reconfigure with new\n"
"                      weights and PriorityFlags; plugin threads do not\n"
"                      sleep between passes.  After each pass: a\n"
"                      \"pass K\" line (population, heap, RSS,\n"
"                      StateSaveLocation file sizes), the job rows, and\n"
"                      an \"events K\" line\n"
"  --churn-rate N      events of each kind per pass, about N/2 (default 4)\n"
"  --churn-skip KINDS  leave out event kinds (comma list of jobs,\n"
"                      assocs, qos, reconfig)\n"
"  --churn-full K      the full report after every K-th pass and the last\n"
"                      (default 10; 0: only after the last)\n"
"  --weights-tres STR  after the first pass, before the next (in the\n"
"                      thread that ended it), reconfigure with\n"
"                      PriorityWeightTRES=STR\n"
"  --sprio-mid         right after a plugin thread first lets the job\n"
"                      write lock go in the passes (with --weights-tres,\n"
"                      after that reconfigure), print sprio's rows as\n"
"                      \"mid factors ...\" lines at once\n"
"  --nss-count         end the report with a line counting the lookups\n"
"                      of a user's or group's name by its id (getpwuid_r,\n"
"                      getgrgid_r): by plugin threads holding the job\n"
"                      lock, plugin threads not holding it, and the\n"
"                      main thread (the submit path) holding it or not\n"
"  --nss-delay USEC    each such lookup takes USEC microseconds more, as\n"
"                      from a slow directory service (LDAP)\n"
"  --bench FILE        write timings of the submit path, the pass (CPU,\n"
"                      job-lock holds), the sprio call and memory figures\n"
"                      to FILE, one \"key value\" line each\n"
"  -v, --verbose       more logging on stderr (repeatable)\n"
"  -h, --help          this text\n", HARNESS_NAME);
}

/*
 * "@mid" or "@before" (or neither), then "+SEC" or nothing, and nothing
 * after: which one in *mid or *before, SEC (1 to 86400) in *after. False
 * when 's' is not that.
 */
static bool _parse_when(const char *s, bool *mid, bool *before, long *after)
{
	char *end = (char *) s;

	if (!strncmp(end, "@mid", 4)) {
		*mid = true;
		end += 4;
	} else if (!strncmp(end, "@before", 7)) {
		*before = true;
		end += 7;
	}
	if (*end == '+') {
		*after = strtol(end + 1, &end, 10);
		if ((*after < 1) || (*after > 86400))
			return false;
	}
	return !*end;
}

static void _parse_args(int argc, char **argv)
{
	static struct option long_opts[] = {
		{ "conf", required_argument, NULL, 'c' },
		{ "world", required_argument, NULL, 'w' },
		{ "state", required_argument, NULL, 's' },
		{ "keep-state", no_argument, NULL, 'k' },
		{ "plugin", required_argument, NULL, 'p' },
		{ "plugindir", required_argument, NULL, 'd' },
		{ "pass", required_argument, NULL, 'P' },
		{ "passes", required_argument, NULL, 'N' },
		{ "timeout", required_argument, NULL, 't' },
		{ "now", required_argument, NULL, 'n' },
		{ "real-clock", no_argument, NULL, 'r' },
		{ "last-ran", required_argument, NULL, 'L' },
		{ "digits", required_argument, NULL, 'D' },
		{ "report", required_argument, NULL, 'R' },
		{ "bench", required_argument, NULL, 'B' },
		{ "calc-period", required_argument, NULL, 'C' },
		{ "advance", required_argument, NULL, 'A' },
		{ "move", required_argument, NULL, 'M' },
		{ "at-pass", required_argument, NULL, 'T' },
		{ "slurm-save", no_argument, NULL, 'S' },
		{ "slurm-load", no_argument, NULL, 'U' },
		{ "save-mid", required_argument, NULL, 'Q' },
		{ "save-mid-at", required_argument, NULL, 'q' },
		{ "storm", required_argument, NULL, 'W' },
		{ "handover", required_argument, NULL, 'H' },
		{ "churn", required_argument, NULL, 'X' },
		{ "churn-rate", required_argument, NULL, 'Y' },
		{ "churn-full", required_argument, NULL, 'Z' },
		{ "churn-skip", required_argument, NULL, 'K' },
		{ "end-job", required_argument, NULL, 'E' },
		{ "nss-count", no_argument, NULL, 'G' },
		{ "weights-tres", required_argument, NULL, 'F' },
		{ "sprio-mid", no_argument, NULL, 'I' },
		{ "nss-delay", required_argument, NULL, 'g' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.conf_file = optarg;
			break;
		case 'w':
			opt.world_file = optarg;
			break;
		case 's':
			opt.state_dir = optarg;
			break;
		case 'k':
			opt.keep_state = true;
			break;
		case 'S':
			opt.slurm_save = true;
			break;
		case 'U':
			opt.slurm_load = true;
			break;
		case 'Q':
			opt.mid_cmd = optarg;
			break;
		case 'W':
			errno = 0;
			opt.storm_usec = strtol(optarg, &end, 10);
			if (errno || *end || (opt.storm_usec < 1) ||
			    (opt.storm_usec > 10000000))
				_die("--storm must be 1 to 10000000 (microseconds)");
			break;
		case 'H':
			errno = 0;
			opt.handover = strtol(optarg, &end, 10);
			if (!errno && (end != optarg) &&
			    !strcmp(end, "@start")) {
				opt.handover_start = true;
				end += strlen(end);
			}
			if (errno || *end || (end == optarg) ||
			    (opt.handover < 0) || (opt.handover > 3600))
				_die("--handover must be 0 to 3600 (seconds)");
			break;
		case 'p':
			opt.plugin = optarg;
			break;
		case 'd':
			opt.plugindir = optarg;
			break;
		case 'P':
			if (!xstrcmp(optarg, "state"))
				opt.pass_mode = PASS_STATE;
			else if (!xstrcmp(optarg, "jobwrite"))
				opt.pass_mode = PASS_JOBWRITE;
			else if (!xstrcmp(optarg, "none"))
				opt.pass_mode = PASS_NONE;
			else
				_die("--pass must be state, jobwrite or none");
			break;
		case 'N':
			opt.passes = strtol(optarg, &end, 10);
			/* (--churn: simulated weeks are thousands) */
			if (*end || (opt.passes < 1) || (opt.passes > 100000))
				_die("--passes must be 1..100000");
			break;
		case 't':
			opt.timeout = strtol(optarg, &end, 10);
			if (*end || (opt.timeout < 1) || (opt.timeout > 3600))
				_die("--timeout must be 1..3600 seconds");
			break;
		case 'n':
			opt.now = strtoll(optarg, &end, 10);
			if (*end || (opt.now <= 0))
				_die("--now must be a positive epoch time");
			break;
		case 'r':
			opt.real_clock = true;
			break;
		case 'L':
			opt.last_ran = strtoll(optarg, &end, 10);
			if (*end || (opt.last_ran <= 0))
				_die("--last-ran must be a positive epoch time");
			break;
		case 'D':
			opt.digits = strtol(optarg, &end, 10);
			if (*end || (opt.digits < 1) || (opt.digits > 21))
				_die("--digits must be 1..21");
			break;
		case 'R':
			if (!xstrcmp(optarg, "full"))
				opt.report = REPORT_FULL;
			else if (!xstrcmp(optarg, "jobs"))
				opt.report = REPORT_JOBS;
			else if (!xstrcmp(optarg, "none"))
				opt.report = REPORT_NONE;
			else
				_die("--report must be full, jobs or none");
			break;
		case 'B':
			opt.bench_file = optarg;
			break;
		case 'C':
			opt.calc_period = strtol(optarg, &end, 10);
			if (*end || (opt.calc_period < 1) ||
			    (opt.calc_period > 86400))
				_die("--calc-period must be 1..86400 seconds");
			break;
		case 'A':
			end = optarg;
			opt.n_advance = 0;
			do {
				long v;

				if ((size_t) opt.n_advance == ARRAY_SIZE(opt.advance))
					_die("--advance takes at most %zu steps",
					     ARRAY_SIZE(opt.advance));
				v = strtol(end + (end != optarg), &end, 10);
				if ((*end && (*end != ',')) || !v ||
				    (v < -7 * 86400) || (v > 7 * 86400))
					_die("--advance: each step is a nonzero number of seconds within a week (-604800..604800), comma-separated");
				opt.advance[opt.n_advance++] = v;
			} while (*end);
			break;
		case 'T':
			if ((size_t) opt.n_at == ARRAY_SIZE(opt.at))
				_die("--at-pass is given at most %zu times",
				     ARRAY_SIZE(opt.at));
			opt.at[opt.n_at].pass = strtol(optarg, &end, 10);
			if ((*end != ':') || !end[1] ||
			    (opt.at[opt.n_at].pass < 1))
				_die("--at-pass must be N:CMD, N a pass (1 or more)");
			opt.at[opt.n_at++].cmd = end + 1;
			break;
		case 'M':
			opt.move_acct = optarg;
			opt.move_parent = strchr(optarg, '=');
			if (!opt.move_parent || (opt.move_parent == optarg) ||
			    !opt.move_parent[1])
				_die("--move must be ACCOUNT=PARENT");
			*opt.move_parent++ = '\0';
			break;
		case 'X':
			opt.churn_seed = strtol(optarg, &end, 10);
			if (*end || (opt.churn_seed < 1))
				_die("--churn: SEED must be a number >= 1");
			break;
		case 'Y':
			opt.churn_rate = strtol(optarg, &end, 10);
			if (*end || (opt.churn_rate < 0) ||
			    (opt.churn_rate > 1000))
				_die("--churn-rate: N must be 0..1000");
			break;
		case 'K':
			opt.churn_skip = optarg;
			break;
		case 'E': {
			unsigned long id = strtoul(optarg, &end, 10);

			if (!_parse_when(end, &opt.end_mid, &opt.end_before,
					 &opt.end_after) ||
			    !id || (id > UINT32_MAX))
				_die("--end-job must be ID[@mid|@before][+SEC], ID a job of the world, SEC 1 to 86400");
			opt.end_job = id;
			break;
		}
		case 'q': {
			bool mid = false;

			if (!_parse_when(optarg, &mid, &opt.mid_before,
					 &opt.mid_after) ||
			    (!mid && !opt.mid_before))
				_die("--save-mid-at must be @mid or @before, then +SEC or nothing, SEC 1 to 86400");
			break;
		}
		case 'G':
			opt.nss_count = true;
			break;
		case 'F':
			opt.weights_tres = optarg;
			break;
		case 'I':
			opt.sprio_mid = true;
			break;
		case 'g':
			nss_delay_usec = strtol(optarg, &end, 10);
			if (*end || (nss_delay_usec < 0) ||
			    (nss_delay_usec > 1000000))
				_die("--nss-delay must be 0..1000000 microseconds");
			break;
		case 'Z':
			opt.churn_full = strtol(optarg, &end, 10);
			if (*end || (opt.churn_full < 0))
				_die("--churn-full: K must be 0 or more");
			break;
		case 'v':
			opt.verbose++;
			break;
		case 'h':
			_usage(stdout);
			exit(0);
		default:
			_usage(stderr);
			exit(EXIT_USAGE);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n",
			HARNESS_NAME, argv[optind]);
		_usage(stderr);
		exit(EXIT_USAGE);
	}
	if (!opt.conf_file || !opt.world_file) {
		_usage(stderr);
		exit(EXIT_USAGE);
	}
	if (opt.storm_usec && (opt.bench_file || opt.churn_seed ||
			       (opt.pass_mode == PASS_NONE)))
		_die("--storm needs passes, and no --bench or --churn");
	if (opt.end_job && ((opt.pass_mode != PASS_STATE) || opt.churn_seed ||
			    opt.bench_file))
		_die("--end-job needs --pass state, and no --churn or --bench");
	if ((opt.mid_before || opt.mid_after) && !opt.mid_cmd)
		_die("--save-mid-at needs --save-mid");
	if ((opt.mid_after || opt.end_after) && opt.real_clock)
		_die("--save-mid-at and --end-job with +SEC need the frozen clock (no --real-clock)");
	if (opt.mid_cmd && ((opt.pass_mode != PASS_STATE) ||
			    opt.churn_seed || opt.bench_file || !opt.state_dir))
		_die("--save-mid needs --pass state and --state, and no --churn or --bench");
	if (opt.slurm_load && !opt.state_dir)
		_die("--slurm-load needs --state");
	if (opt.handover_start &&
	    ((opt.pass_mode != PASS_STATE) || opt.churn_seed ||
	     opt.bench_file || opt.end_job || opt.mid_cmd || opt.storm_usec))
		_die("--handover SEC@start needs --pass state, and no --churn, --bench, --end-job, --save-mid or --storm");
	if (opt.churn_seed) {
		int i;

		if ((opt.pass_mode != PASS_STATE) || (opt.passes < 2) ||
		    !opt.n_advance || opt.real_clock || opt.move_acct ||
		    opt.bench_file || (opt.report != REPORT_FULL))
			_die("--churn needs --pass state, --passes 2 or more and --advance, and no --real-clock, --move, --bench or --report");
		for (i = 0; i < opt.n_advance; i++)
			if (opt.advance[i] <= 0)
				_die("--churn: --advance steps must be positive");
	}
}

/*
 * --storm: take the job read lock, hold it, let it go and ask again at
 * once, until told to stop. One reader is enough: glibc's read-write lock
 * wakes the readers that wait when a writer lets go, so a writer that asks
 * again (the next slice) waits for the next hold to end.
 */
static bool storm_stop;

static void *_storm(void *arg)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK };
	struct timespec hold = { .tv_sec = opt.storm_usec / 1000000,
				 .tv_nsec = (opt.storm_usec % 1000000) * 1000 };

	while (!__atomic_load_n(&storm_stop, __ATOMIC_RELAXED)) {
		lock_slurmctld(job_read);
		nanosleep(&hold, NULL);
		unlock_slurmctld(job_read);
	}
	return NULL;
}

/* --handover SEC: asked for control SEC seconds ago, as
 * _slurm_rpc_request_control() and the signal thread leave it */
static void _handover(void)
{
	slurmctld_config.resume_backup = true;
	slurmctld_config.shutdown_time = _frozen_now ?
		_frozen_now - opt.handover : time(NULL) - opt.handover;
}

static void _cleanup(void)
{
	FREE_NULL_LIST(job_list);
	xfree(job_hash);
	job_hash_size = job_hash_cnt = 0;
	FREE_NULL_LIST(part_list);
	assoc_mgr_fini(false);
	FREE_NULL_LIST(world.qos);
	FREE_NULL_LIST(world.assocs);
	FREE_NULL_LIST(world.parts);
	FREE_NULL_LIST(world.jobs);
	FREE_NULL_LIST(world.users);
	_idx_free(&world.assoc_idx);
	_idx_free(&world.user_idx);
	_idx_free(&world.uid_idx);
	_idx_free(&world.job_idx);
	_idx_free(&host_users);
	if (state_dir_is_temp && (rmdir_recursive(state_dir, true) != 0))
		fprintf(stderr, "%s: warning: could not remove %s\n",
			HARNESS_NAME, state_dir);
	xfree(state_dir);
	slurm_conf_destroy();
	log_fini();
}

int main(int argc, char **argv)
{
	log_options_t logopt = LOG_OPTS_STDERR_ONLY;
	pthread_condattr_t cattr;
	pthread_t wd_tid, storm_tid;
	uint64_t base, bench_t0 = 0, load_ns = 0;
	time_t now;

	main_tid = pthread_self();
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&ev_cond, &cattr);
	pthread_condattr_destroy(&cattr);

	_parse_args(argc, argv);

	/* plugins must bind to our controller symbols and time() */
	if ((dlsym(RTLD_DEFAULT, "job_list") != (void *) &job_list) ||
	    (dlsym(RTLD_DEFAULT, "lock_slurmctld") !=
	     (void *) lock_slurmctld) ||
	    (dlsym(RTLD_DEFAULT, "assoc_mgr_lock") !=
	     (void *) assoc_mgr_lock) ||
	    (dlsym(RTLD_DEFAULT, "time") != (void *) time))
		_die("controller symbols are not exported; link %s with -rdynamic",
		     HARNESS_NAME);

	logopt.stderr_level = MIN(LOG_LEVEL_ERROR + opt.verbose,
				  LOG_LEVEL_DEBUG5);
	log_init(HARNESS_NAME, logopt, 0, NULL);

	now = opt.now ? opt.now : _real_now();
	if (!opt.real_clock)
		_frozen_now = now;

	if (pthread_create(&wd_tid, NULL, _watchdog, NULL))
		_die("cannot start the watchdog thread");

	if (opt.bench_file) {
		if (!(bench_fp = fopen(opt.bench_file, "w")))
			_die("cannot write %s: %s", opt.bench_file,
			     strerror(errno));
		bench_on = true;
	}

	_phase("configuration");
	/* slurm_conf_init() would retry a missing file for 60 s */
	if (access(opt.conf_file, R_OK))
		_die("cannot read configuration %s: %s", opt.conf_file,
		     strerror(errno));
	if (slurm_conf_init(opt.conf_file) != SLURM_SUCCESS)
		_die("cannot read configuration %s", opt.conf_file);
	if (opt.plugin) {
		xfree(slurm_conf.priority_type);
		slurm_conf.priority_type = xstrdup(opt.plugin);
	}
	if (opt.calc_period)
		slurm_conf.priority_calc_period = opt.calc_period;
	if (opt.plugindir) {
		xfree(slurm_conf.plugindir);
		slurm_conf.plugindir = xstrdup(opt.plugindir);
	}
	if (!slurm_with_slurmdbd())
		fprintf(stderr, "%s: warning: AccountingStorageType is not accounting_storage/slurmdbd; priority/multifactor then ignores age and fair-share\n",
			HARNESS_NAME);
	accounting_enforce = slurm_conf.accounting_storage_enforce;
	_setup_state_dir();
	if (opt.last_ran) {
		if (opt.last_ran > now)
			_die("--last-ran %ld is after now (%ld)",
			     (long) opt.last_ran, (long) now);
		_write_last_ran(opt.last_ran);
	}

	_phase("world");
	bench_t0 = _clock_ns(CLOCK_MONOTONIC);
	_world_read(opt.world_file);
	_world_check();
	_move_check();
	_bench_put("world_read_ns", "%" PRIu64,
		   _clock_ns(CLOCK_MONOTONIC) - bench_t0);

	_phase("build");
	job_list = list_create(_free_job_record);
	_build_assoc_mgr();
	if (opt.slurm_load)
		_slurm_load();
	_build_parts();
	_bench_put("plugin", "%s", slurm_conf.priority_type);
	_bench_put("priority_flags", "%u", slurm_conf.priority_flags);
	_bench_mem("build");

	/* plugin threads block in lock_slurmctld() until jobs exist */
	_gate_set(false);
	if (HARNESS_JOBS_BEFORE_INIT) {
		_phase("load jobs");
		bench_t0 = _clock_ns(CLOCK_MONOTONIC);
		_load_jobs(now);
		load_ns = _clock_ns(CLOCK_MONOTONIC) - bench_t0;
	}
	if (opt.handover_start)
		_handover();
	_phase("priority_g_init");
	if (priority_g_init() != SLURM_SUCCESS)
		_die("cannot load priority plugin '%s' (PluginDir %s)",
		     slurm_conf.priority_type, slurm_conf.plugindir);
	base = _pass_counter();

	_phase("submit");
	bench_t0 = _clock_ns(CLOCK_MONOTONIC);
	if (!HARNESS_JOBS_BEFORE_INIT)
		_load_jobs(now);
	_set_priorities();
	if (bench_fp) {
		_bench_put("submit_ns", "%" PRIu64, load_ns +
			   _clock_ns(CLOCK_MONOTONIC) - bench_t0);
		_bench_put("set_calls", "%" PRIu64, bench_set_calls);
		_bench_put("set_ns", "%" PRIu64, bench_set_ns);
		_bench_jobs();
		_bench_mem("submit");
	}
	_phase("thread start and recover");
	_plugin_jobs_loaded(&lowest_prio, highest_loaded_prio);
	if (opt.end_job)
		(void) _end_job_record();	/* running when the passes begin */

	/*
	 * With --pass none the gate stays closed through the report, so it
	 * shows the submit-path (priority_g_set) results deterministically;
	 * it must open before fini() so that plugin threads can finish.
	 */
	if (opt.churn_seed) {
		_phase("churn");
		_churn_run(base);
	} else if (opt.pass_mode != PASS_NONE) {
		_phase("recalculation pass");
		ev_base = base;
		__atomic_store_n(&passes_started, true, __ATOMIC_RELAXED);
		if (opt.storm_usec &&
		    pthread_create(&storm_tid, NULL, _storm, NULL))
			_die("cannot start the --storm thread");
		_gate_set(true);
		/* (once control is given away no state file is written:
		 * the first sleep between passes ends the first pass, or
		 * its not beginning) */
		if (opt.handover_start)
			_wait_ev_flag(&ev_slept,
				      "--handover ...@start: no plugin thread slept between passes");
		else
			_wait_for_pass(base);
		if (opt.storm_usec) {
			__atomic_store_n(&storm_stop, true, __ATOMIC_RELAXED);
			pthread_join(storm_tid, NULL);
		}
		if (opt.end_job) {
			_phase("end job");
			if (!opt.end_mid && !opt.end_before)
				_end_job();
			else if (!__atomic_load_n(&end_job_done,
						  __ATOMIC_RELAXED))
				_die("--end-job %u: no plugin thread took and let go the job write lock during the passes",
				     opt.end_job);
		}
	}
	if (bench_fp) {
		if (opt.pass_mode != PASS_NONE) {
			_bench_pass("pass");
			_bench_mem("pass");
		}
		_phase("bench sprio");
		_bench_sprio();
		_bench_mem("end");
	}

	_phase("report");
	_report();
	if (opt.slurm_save) {
		/* (before the gate opens: the usage the report shows) */
		_phase("slurm save");
		if (dump_assoc_mgr_state() != SLURM_SUCCESS)
			_die("dump_assoc_mgr_state() failed");
	}
	_gate_set(true);

	if (opt.handover >= 0)
		_handover();
	_phase("priority_g_fini");
	if (priority_g_fini() != SLURM_SUCCESS)
		_die("priority_g_fini failed");

	_phase("cleanup");
	_cleanup();

	slurm_mutex_lock(&wd_mutex);
	wd_stop = true;
	slurm_mutex_unlock(&wd_mutex);
	pthread_join(wd_tid, NULL);
	if (bench_fp) {
		_bench_put("done", "1");
		fclose(bench_fp);
	}
	return 0;
}
