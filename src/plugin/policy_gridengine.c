/*****************************************************************************\
 *  policy_gridengine.c - the Grid Engine policy: its file and share-tree
 *  usage; Slurm's jobs and associations through the Grid Engine policy
 *  core: the share tree, the pending jobs of a pass, their
 *  priorities, sprio columns and priority_array written back; the
 *  share-tree usage charged; a submitted job's first priority.
 *
 *  What each Slurm field stands for (PriorityParameters=policy=gridengine):
 *
 *  Job inputs (the record's fields copied into the core's facts,
 *  prism_ge_facts.h, as `prism explain` copies the public record's). The
 *  waiting time counts from the job's submit time
 *  (details->submit_time), as Grid Engine's counts from submission, also
 *  while the job waits for its begin time or a dependency. Slurm's
 *  --deadline (when the job must end) stands for GE's -dl. The POSIX
 *  priority is -nice (bounded to -1023..1024). The user (by name), account
 *  and partition are matched against the file's [NAME] entries.
 *  Resources: slots = the job's CPUs (the count Slurm sizes it by), mem =
 *  its total memory request in MB, nodes = its minimum node count, any
 *  other name = the job's request of the TRES of that name (gres/gpu,
 *  license/x, billing, ...; 0 when AccountingStorageTRES does not track
 *  it).
 *
 *  Which jobs. A pass computes every pending job at once (GE normalises
 *  across the jobs) except held jobs (priority 0, they stay 0) and jobs
 *  with an admin-set priority (scontrol update priority=, kept as is;
 *  mind the scale: Grid Engine priorities spread over Slurm's 32 bits).
 *  PriorityFlags=INCR_ONLY and CALCULATE_RUNNING do not apply: a running
 *  job keeps the priority it started with.
 *
 *  Share tree. Slurm's association tree is GE's share tree: the root,
 *  accounts as inner nodes, user associations as leaves; shares = the
 *  association's raw Fairshare (FairShare=parent counts as 1). Running
 *  jobs are counted on their association, their user and their account.
 *
 *  Usage. In Grid Engine a node's usage decays with the scheduler's
 *  halftime, so Prism keeps that usage itself, per association id
 *  (prism_ge_usage.h), not Slurm's usage_raw (which decays with
 *  PriorityDecayHalfLife and is billed by TRESBillingWeights): every pass
 *  decays it to the pass's time with the file's halftime and charges each
 *  running job's CPU-seconds since the last pass to its association (GE's
 *  usage_weight_list cpu=1); a job that ends is charged up to its end. It
 *  is saved in StateSaveLocation/priority_prism_ge_usage after every pass
 *  and at shutdown, and survives a reconfigure and a restart (decayed for
 *  the time in between). Slurm's own usage is still charged and decayed
 *  as with the other policies (sshare shows it), but does not enter
 *  priorities.
 *
 *  sprio columns (encoded and decoded by the core, prism_ge_facts.h). A
 *  job's Slurm priority splits (prism_ge_sprio()) into
 *      AGE    = urgency part  (it grows with the waiting time)
 *      ASSOC  = tickets part  (override + functional + share-tree)
 *      QOS    = POSIX priority part (weight_priority * npprior)
 *      SITE   = offset: 1 (a Slurm priority is never 0) plus what
 *               rounding the three parts down dropped (1..3 in all)
 *      FAIRSHARE, JOBSIZE, PARTITION, NICE, TRES = 0
 *  so that sprio's PRIORITY, the sum of the columns, is the job's
 *  priority. A job of several partitions gets one priority per partition
 *  (priority_array), which differ only in the partition's urgency; its
 *  row in another partition keeps ASSOC, QOS and SITE and AGE takes the
 *  difference (prism_ge_sprio_rebase()).
 *
 *  Submission. A job submitted between passes gets a priority from its
 *  urgency and its override tickets, normalised with the last pass's
 *  ranges (prism_ge_estimate()), never 0; the next pass (every
 *  PriorityCalcPeriod) recomputes every pending job with all tickets.
 *
 *  DebugFlags=Priority logs one line per job and pass: urgency and its
 *  parts, tickets and theirs, ppri, the normalised values, the weighted
 *  sum and the Slurm priority.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "hold.h"
#include "jobrec.h"
#include "policy_ops.h"
#include "prism_ge.h"
#include "prism_ge_facts.h"
#include "prism_format.h"
#include "prism_ge_usage.h"
#include "prism_idmap.h"

#define USAGE_NAME "priority_prism_ge_usage"

#define NONE PRISM_GE_NONE

/* A Grid Engine policy instance: the policy, its usage, lookups under it
 * and the last pass's ranges; everything under policy_lock. */
typedef struct {
	prism_ge_policy_t *pol;
	prism_ge_usage_t *usage;	/* share-tree usage (adopt) */
	prism_idmap_t *users;	/* uid -> USER handle */
	int *tres_pos;		/* per resource handle: TRES position or -1 */
	uint32_t tres_cap;
	bool tres_known;
	prism_ge_range_t range;
	double *amount;		/* a submitted job's requests */
	uint32_t amount_cap;
} ge_t;

/* The pass under way; only the recalculation thread touches it. */
static struct {
	ge_t *g;			/* NULL: none under way */
	const prism_ge_policy_t *pol;	/* g->pol */
	bool ok;			/* the core computed the pass */
	time_t now;
	prism_ge_pass_t *core;
	prism_ge_job_t *jobs;
	prism_ge_result_t *res;
	double *amount;			/* nres per job */
	size_t amount_cap;
	uint32_t n, cap, nres;
	prism_ge_node_t *nodes;
	uint32_t node_cnt, node_cap;
	prism_idmap_t *assoc_node;	/* association id -> node */
	uint32_t *user_running, *account_running;
	uint32_t user_cap, account_cap;
} ge;

/* The pass's arrays (plugin fini). */
static void _fini(void)
{
	prism_ge_pass_free(ge.core);
	xfree(ge.jobs);
	xfree(ge.res);
	xfree(ge.amount);
	xfree(ge.nodes);
	prism_idmap_free(ge.assoc_node);
	xfree(ge.user_running);
	xfree(ge.account_running);
	memset(&ge, 0, sizeof(ge));
}

/* ---- lookups ------------------------------------------------------------ */

/* Position of the TRES 'name' ("gres/gpu", "billing"), -1 if untracked.
 * Caller holds the assoc_mgr TRES read lock. */
static int _tres_pos(const char *name)
{
	slurmdb_tres_rec_t rec = { 0 };
	char *copy, *slash;
	int pos;

	if (!assoc_mgr_tres_array || g_tres_count <= 0)
		return -1;
	copy = xstrdup(name);
	slash = strchr(copy, '/');
	if (slash) {
		*slash = '\0';
		rec.name = slash + 1;
	}
	rec.type = copy;
	pos = assoc_mgr_find_tres_pos(&rec, true);
	xfree(copy);
	return pos;
}

/* Map the policy's resources to TRES positions: mem to the memory's,
 * those beyond slots, mem and nodes by name. Caller holds the assoc_mgr
 * TRES read lock and policy_lock. */
static void _tres_map(ge_t *g)
{
	const prism_ge_policy_t *pol = g->pol;
	uint32_t nres = prism_ge_count(pol, PRISM_GE_RESOURCE);

	if (nres > g->tres_cap) {
		xrecalloc(g->tres_pos, nres, sizeof(*g->tres_pos));
		g->tres_cap = nres;
	}
	for (uint32_t r = 0; r < nres; r++)
		g->tres_pos[r] =
			r <= PRISM_GE_RES_NODES ?
				-1 :
				_tres_pos(prism_ge_get(pol, PRISM_GE_RESOURCE,
						       r)->name);
	g->tres_pos[PRISM_GE_RES_MEM] = TRES_ARRAY_MEM;
	g->tres_known = true;
}

/* Keep and return the USER handle of 'uid', whose name is 'name'. Caller
 * holds policy_lock. */
static uint32_t _user_keep(ge_t *g, uid_t uid, const char *name)
{
	uint32_t h = prism_ge_find(g->pol, PRISM_GE_USER, name);

	(void) prism_idmap_put(g->users, uid, h);
	return h;
}

/* The USER handle of 'uid'; its name looked up here when no pass did
 * (nss.h: a job submitted since). Caller holds policy_lock. */
static uint32_t _user(ge_t *g, uid_t uid)
{
	uint32_t h;

	if (prism_idmap_get(g->users, uid, &h))
		return h;
	return _user_keep(g, uid, uid_to_string_cached(uid));
}

static uint32_t _partition(const prism_ge_policy_t *pol,
			   const part_record_t *part_ptr)
{
	return part_ptr ? prism_ge_find(pol, PRISM_GE_PARTITION, part_ptr->name)
			: NONE;
}

/*
 * Read 'job_ptr' into 'job' and its requests into 'amount' (node: none),
 * through its record's facts. Caller holds the job lock and policy_lock;
 * g->tres_pos is filled.
 */
static void _inputs(ge_t *g, const job_record_t *job_ptr,
		    prism_ge_job_t *job, double *amount)
{
	const job_details_t *details = job_ptr->details;
	const part_record_t *part_ptr = job_ptr->part_ptr;
	prism_ge_facts_t f = {
		.job_id = job_ptr->job_id,
		.submit_time = details->submit_time,
		.deadline = job_ptr->deadline,
		.nice = details->nice,
		.user = _user(g, job_ptr->user_id),
		.account = job_ptr->account,
		.partition = part_ptr ? part_ptr->name : NULL,
		.cpus = prism_job_cpus(job_ptr),
		.nodes = details->min_nodes,
		.tres_cnt = job_ptr->tres_req_cnt,
		.tres_len = job_ptr->tres_req_cnt ? prism_ctl_tres_cnt() : 0,
		.tres_pos = g->tres_pos,
	};

	(void) prism_ge_job_from_facts(g->pol, &f, job, amount, NULL);
}

/* A pending job the policy computes: not held, not admin-set. */
static bool _wanted(const job_record_t *job_ptr)
{
	if (!IS_JOB_PENDING(job_ptr) || !job_ptr->details)
		return false;
	if (job_ptr->direct_set_prio && job_ptr->priority)
		return false;
	/* held, but for Prism's own hold under the Moab policy before */
	return job_ptr->priority || prism_hold_is_ours(job_ptr);
}

/* ---- writing back ------------------------------------------------------- */

/* sprio's columns of 'res' (see the top of this file). */
static void _store_columns(const prism_ge_policy_t *pol,
			   job_record_t *job_ptr, const prism_ge_result_t *res)
{
	prism_error_t err = { "" };
	prism_ge_sprio_t c;
	prism_cols_t cols;

	if (prism_ge_sprio(pol, res, &c, &err) ||
	    prism_ge_cols_encode(&c, &cols, &err)) {
		error("%s: %pJ: %s", PRISM_PLUGIN_TYPE, job_ptr, err.text);
		prism_job_clear_factors(job_ptr);
		return;
	}
	prism_job_cols_put(prism_job_reset_factors(job_ptr, 0), &cols);
}

/* sprio's row in another partition: this partition's priority 'slurm'
 * differs in the urgency (AGE). */
static void _sprio_entry_row(prism_factors_t *f, const job_record_t *job_ptr,
			     part_record_t *part_ptr,
			     slurmdb_qos_rec_t *qos_ptr, uint32_t slurm,
			     const prism_prio_conf_t *conf)
{
	prism_cols_t cols;

	prism_job_cols_get(f, &cols);
	(void) prism_ge_cols_rebase(&cols, slurm, NULL);
	prism_job_cols_put(f, &cols);
}

/* What a multi-partition job's entries are computed from: 'res'
 * (computed in partition handle 'from') with 'range'. */
typedef struct {
	const prism_ge_policy_t *pol;
	const prism_ge_result_t *res;
	uint32_t from;
	const prism_ge_range_t *range;
} part_arg_t;

/* The job's priority in 'part_ptr' (the QOS does not enter Grid Engine's
 * priority: every QOS of a partition gets the same). */
static uint32_t _in_entry(void *arg, job_record_t *job_ptr,
			  part_record_t *part_ptr, slurmdb_qos_rec_t *qos_ptr,
			  int i, uint32_t prev)
{
	const part_arg_t *a = arg;
	prism_error_t err;
	prism_ge_result_t r;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	if (prism_ge_in_partition(a->pol, a->range, a->res, a->from,
				  _partition(a->pol, part_ptr), &r, &err)) {
		error("%s: %pJ: %s", PRISM_PLUGIN_TYPE, job_ptr, err.text);
		return a->res->slurm;
	}
	return r.slurm;
}

static void _log(const job_record_t *job_ptr, const prism_ge_result_t *r,
		 const char *when)
{
	log_flag(PRIO, "%pJ Grid Engine priority%s: urg %.2f (rr %.2f + wait %.2f + deadline %.2f) nurg %.6f, tickets %.2f (override %.2f + functional %.2f + share %.2f) ntckts %.6f, ppri %d npprior %.6f: prio %.6f (slurm %u)",
		 job_ptr, when, r->urg, r->rrcontr, r->wtcontr, r->dlcontr,
		 r->nurg, r->tckts, r->otckt, r->ftckt, r->stckt, r->ntckts,
		 (int) r->ppri, r->npprior, r->prio, r->slurm);
}

/* Store 'res' (of partition 'from') in 'job_ptr': columns, array, log. */
static void _store(const prism_ge_policy_t *pol, job_record_t *job_ptr,
		   const prism_ge_result_t *res, uint32_t from,
		   const prism_ge_range_t *range, const char *when)
{
	part_arg_t arg = { .pol = pol, .res = res, .from = from,
			   .range = range };

	_store_columns(pol, job_ptr, res);
	prism_job_prio_array_fill(job_ptr, _in_entry, &arg);
	_log(job_ptr, res, when);
}

/* ---- usage -------------------------------------------------------------- */

/*
 * Charge the CPU-seconds of 'job_ptr' between 'start' (0: none) and 'end'
 * to its association; returns the amount. Caller holds policy_lock.
 */
static double _charge(ge_t *g, job_record_t *job_ptr, time_t start,
		      time_t end)
{
	prism_error_t err;
	double amount;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	if (!start || !job_ptr->start_time || !job_ptr->assoc_id ||
	    !job_ptr->details)
		return 0.0;
	if (start < job_ptr->start_time)
		start = job_ptr->start_time;
	if (end <= start)
		return 0.0;
	amount = prism_ge_usage_amount(prism_job_cpus(job_ptr),
				       (double) (end - start));
	if (prism_ge_usage_charge(g->usage, job_ptr->assoc_id, amount,
				  &err)) {
		error("%s: %pJ: %s", PRISM_PLUGIN_TYPE, job_ptr, err.text);
		return 0.0;
	}
	return amount;
}

static void _job_end(void *st, job_record_t *job_ptr, time_t last,
		     time_t now)
{
	(void) _charge(st, job_ptr, last, now);
}

/* ---- the pass ----------------------------------------------------------- */

/* Raw Fairshare as GE shares (parent or unset: 1). */
static uint32_t _shares(const slurmdb_assoc_rec_t *assoc)
{
	if (assoc->shares_raw == SLURMDB_FS_USE_PARENT ||
	    assoc->shares_raw == NO_VAL)
		return 1;
	return assoc->shares_raw;
}

/*
 * Add 'assoc' below node 'parent' and its subtree after it (pre-order, a
 * parent before its children). Caller holds the assoc_mgr assoc read lock
 * and policy_lock.
 */
static void _tree_add(slurmdb_assoc_rec_t *assoc, uint32_t parent,
		      const prism_ge_usage_t *u)
{
	uint32_t i = ge.node_cnt;
	slurmdb_assoc_rec_t *child;
	list_itr_t *itr;

	if (ge.node_cnt == ge.node_cap) {
		ge.node_cap = ge.node_cap ? 2 * ge.node_cap : 256;
		xrecalloc(ge.nodes, ge.node_cap, sizeof(*ge.nodes));
	}
	ge.nodes[i] = (prism_ge_node_t) {
		.parent = parent,
		.shares = _shares(assoc),
		.usage = prism_ge_usage_get(u, assoc->id),
		.user = assoc->user != NULL,
	};
	ge.node_cnt++;
	(void) prism_idmap_put(ge.assoc_node, assoc->id, i);
	if (assoc->user || !assoc->usage || !assoc->usage->children_list)
		return;
	itr = list_iterator_create(assoc->usage->children_list);
	while ((child = list_next(itr)))
		_tree_add(child, i, u);
	list_iterator_destroy(itr);
}

/* Zeroed counters of 'n' entries in *arr of capacity *cap. */
static void _counters(uint32_t **arr, uint32_t *cap, uint32_t n)
{
	if (n > *cap) {
		xrecalloc(*arr, n, sizeof(**arr));
		*cap = n;
	}
	if (n)
		memset(*arr, 0, n * sizeof(**arr));
}

/* Room for 'n' jobs (and their requests, nres each). */
static void _jobs_room(uint32_t n)
{
	size_t need;

	if (n > ge.cap) {
		ge.cap = n;
		xrecalloc(ge.jobs, ge.cap, sizeof(*ge.jobs));
		xrecalloc(ge.res, ge.cap, sizeof(*ge.res));
	}
	need = (size_t) ge.cap * ge.nres;
	if (need > ge.amount_cap) {
		xrecalloc(ge.amount, need, sizeof(*ge.amount));
		ge.amount_cap = need;
	}
}

/* Room for one more job: doubled when full (a job submitted during the
 * pass beyond the room made as it began). */
static void _jobs_grow(void)
{
	if (ge.n == ge.cap)
		_jobs_room(ge.cap ? 2 * ge.cap : 1024);
}

/* Decay the share-tree usage, build the share tree from the association
 * tree, forget the last pass's jobs. */
static void _pass_begin(void *st, const prism_pass_t *pass)
{
	ge_t *g = st;
	const prism_ge_policy_t *pol = g->pol;
	prism_error_t err = { "" };

	ge.g = NULL;
	ge.pol = NULL;
	ge.ok = false;
	ge.n = ge.node_cnt = 0;
	ge.now = pass->now;
	if (!ge.assoc_node)
		ge.assoc_node = prism_idmap_create();
	prism_idmap_clear(ge.assoc_node);
	if (!ge.core && !(ge.core = prism_ge_pass_create(&err))) {
		error("%s: %s", PRISM_PLUGIN_TYPE, err.text);
		return;
	}
	ge.g = g;
	ge.pol = pol;
	prism_ge_usage_decay(g->usage, pass->now,
			     prism_ge_policy_params(pol)->halftime);
	_tres_map(g);
	if (assoc_mgr_root_assoc)
		_tree_add(assoc_mgr_root_assoc, NONE, g->usage);
	ge.nres = prism_ge_count(pol, PRISM_GE_RESOURCE);
	/*
	 * Room for every job there is, and an eighth more for those
	 * submitted during the pass, made here: grown in the charging walk,
	 * under the job write lock, the arrays were copied there as they
	 * doubled (47-114 ms in one hold at 100,000 pending jobs).
	 */
	_jobs_room(pass->jobs + pass->jobs / 8);
	_counters(&ge.user_running, &ge.user_cap,
		  prism_ge_count(pol, PRISM_GE_USER));
	_counters(&ge.account_running, &ge.account_cap,
		  prism_ge_count(pol, PRISM_GE_ACCOUNT));
}

/* The share-tree node of the association of 'job_ptr', or NONE. */
static uint32_t _node(const job_record_t *job_ptr)
{
	uint32_t i;

	if (!job_ptr->assoc_id ||
	    !prism_idmap_get(ge.assoc_node, job_ptr->assoc_id, &i))
		return NONE;
	return i;
}

/* Count a running job and charge its usage since 'last'. */
static void _running(job_record_t *job_ptr, time_t last)
{
	const prism_ge_policy_t *pol = ge.pol;
	uint32_t node = _node(job_ptr), h;
	double amount = _charge(ge.g, job_ptr, last, ge.now);

	if (node != NONE) {
		ge.nodes[node].running++;
		ge.nodes[node].usage += amount;
	}
	h = _user(ge.g, job_ptr->user_id);
	if (h != NONE)
		ge.user_running[h]++;
	h = prism_ge_find(pol, PRISM_GE_ACCOUNT, job_ptr->account);
	if (h != NONE)
		ge.account_running[h]++;
}

/* Charge and count a running job; keep a pending one's inputs. */
static void _pass_charge(void *st, job_record_t *job_ptr,
			 const prism_pass_t *pass)
{
	time_t last = pass->decayed ? pass->last : 0;

	if (ge.g != st || !job_ptr->details)
		return;
	if (IS_JOB_RUNNING(job_ptr)) {
		_running(job_ptr, last);
		return;
	}
	if (!_wanted(job_ptr))
		return;
	_jobs_grow();
	_inputs(ge.g, job_ptr, &ge.jobs[ge.n],
		ge.amount + (size_t) ge.n * ge.nres);
	ge.jobs[ge.n].node = _node(job_ptr);
	if (ge.jobs[ge.n].node != NONE && !ge.nodes[ge.jobs[ge.n].node].user)
		ge.jobs[ge.n].node = NONE;
	ge.n++;
}

/* The priorities of the jobs kept, without any lock. */
static uint32_t _pass_batch(void *st, const prism_pass_t *pass)
{
	prism_error_t err = { "" };
	prism_ge_input_t in;

	if (ge.g != st)
		return 0;
	for (uint32_t i = 0; i < ge.n; i++)
		ge.jobs[i].amount = ge.amount + (size_t) i * ge.nres;
	in = (prism_ge_input_t) {
		.pol = ge.pol,
		.now = ge.now,
		.nodes = ge.node_cnt ? ge.nodes : NULL,
		.node_cnt = ge.node_cnt,
		.user_running = ge.user_cap ? ge.user_running : NULL,
		.account_running = ge.account_cap ? ge.account_running : NULL,
	};
	if (prism_ge_pass_run(ge.core, &in, ge.jobs, ge.n, ge.res, &err)) {
		error("%s: Grid Engine pass: %s; priorities unchanged",
		      PRISM_PLUGIN_TYPE, err.text);
		ge.n = 0;
		return 0;
	}
	ge.ok = true;
	return ge.n;
}

/* The last pass's ranges, for the jobs submitted until the next. */
static void _pass_end(void *st, const prism_pass_t *pass)
{
	ge_t *g = st;

	if (ge.g == g && ge.ok)
		g->range = *prism_ge_pass_range(ge.core);
}

/* Result 'i' into its job, found again by id, when it is still pending,
 * not held and not admin-set: priority, sprio columns, priority_array. */
static bool _pass_store(void *st, uint32_t i, const prism_pass_t *pass)
{
	const prism_ge_result_t *res;
	job_record_t *job_ptr;

	if (ge.g != st || i >= ge.n)
		return false;
	job_ptr = find_job_record(ge.jobs[i].job_id);
	/* it may have started, ended, been held or set by an admin since */
	if (!job_ptr || !_wanted(job_ptr))
		return false;
	res = &ge.res[i];
	prism_hold_release(job_ptr);
	_store(ge.pol, job_ptr, res, ge.jobs[i].partition,
	       prism_ge_pass_range(ge.core), "");
	if (job_ptr->priority == res->slurm)
		return false;
	job_ptr->priority = res->slurm;
	return true;
}

/* ---- submission --------------------------------------------------------- */

/* A submitted job's first priority, from its urgency and override
 * tickets with the last pass's ranges; never 0. */
static uint32_t _job_compute(void *st, job_record_t *job_ptr,
			     const prism_pass_t *pass)
{
	ge_t *g = st;
	prism_error_t err;
	prism_ge_result_t res;
	prism_ge_job_t job;
	uint32_t nres;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	if (!g->tres_known)
		_tres_map(g);
	nres = prism_ge_count(g->pol, PRISM_GE_RESOURCE);
	if (nres > g->amount_cap) {
		xrecalloc(g->amount, nres, sizeof(*g->amount));
		g->amount_cap = nres;
	}
	_inputs(g, job_ptr, &job, g->amount);
	if (prism_ge_estimate(g->pol, &g->range, &job, pass->now, &res,
			      &err)) {
		error("%s: %pJ: %s", PRISM_PLUGIN_TYPE, job_ptr, err.text);
		prism_job_clear_factors(job_ptr);
		return 1;
	}
	prism_hold_release(job_ptr);
	_store(g->pol, job_ptr, &res, job.partition, &g->range,
	       " (submission)");
	return res.slurm;
}

/* ---- life cycle ---------------------------------------------------------- */

static void _unload(void *st)
{
	ge_t *g = st;

	if (!g)
		return;
	prism_ge_policy_free(g->pol);
	prism_ge_usage_free(g->usage);
	prism_idmap_free(g->users);
	xfree(g->tres_pos);
	xfree(g->amount);
	xfree(g);
}

/* Parse the file 'path' (its 'len' bytes in 'text'), log its notices
 * (ignored parameters). */
static void *_load(const char *text, size_t len, const char *path)
{
	prism_error_t err = { "" };
	ge_t *g = xmalloc(sizeof(*g));

	if (prism_ge_conf_parse(text, len, path, &g->pol, &err)) {
		error("%s: %s", PRISM_PLUGIN_TYPE, err.text);
		g->pol = NULL;
		_unload(g);
		return NULL;
	}
	for (size_t i = 0; i < prism_ge_policy_notice_count(g->pol); i++)
		info("%s: %s", PRISM_PLUGIN_TYPE,
		     prism_ge_policy_notice(g->pol, i));
	g->users = prism_idmap_create();
	return g;
}

/*
 * The share-tree usage saved in StateSaveLocation ('saved', 'len' bytes;
 * NULL: none), or a fresh one at 'now' (a damaged file is reported).
 * NULL only when out of memory.
 */
static prism_ge_usage_t *_usage_saved(const char *saved, size_t len,
				       time_t now)
{
	prism_ge_usage_t *u = NULL;
	prism_error_t err = { "" };
	int rc;

	if (saved && (rc = prism_ge_usage_parse(saved, len, &u, &err))) {
		if (rc == PRISM_FORMAT_NEWER) {
			/* refused, and so not written over */
			error("%s: %s/%s: %s; the Grid Engine policy is not put in force",
			      PRISM_PLUGIN_TYPE,
			      slurm_conf.state_save_location, USAGE_NAME,
			      err.text);
			return NULL;
		}
		error("%s: %s/%s is damaged (%s); Grid Engine share-tree usage starts afresh",
		      PRISM_PLUGIN_TYPE, slurm_conf.state_save_location,
		      USAGE_NAME, err.text);
		u = NULL;
	}
	if (!u && !(u = prism_ge_usage_create(now)))
		error("%s: Grid Engine share-tree usage: out of memory",
		      PRISM_PLUGIN_TYPE);
	return u;
}

/* The usage of a Grid Engine policy in force goes on with the new one. */
static int _adopt(void *st, const prism_policy_ops_t *prev_ops, void *prev,
		  const char *saved, size_t saved_len, time_t now)
{
	ge_t *g = st, *old = (prev_ops == &prism_gridengine_ops) ? prev : NULL;

	if (old && old->usage) {
		g->usage = old->usage;
		old->usage = NULL;
	} else {
		g->usage = _usage_saved(saved, saved_len, now);
	}
	return g->usage ? SLURM_SUCCESS : SLURM_ERROR;
}

static char *_usage_format(void *st, size_t *len)
{
	ge_t *g = st;
	prism_error_t err = { "" };
	size_t size;
	char *buf;
	int n;

	if (!g->usage)
		return NULL;
	size = prism_ge_usage_format_size(g->usage);
	buf = xmalloc(size);
	n = prism_ge_usage_format(g->usage, buf, size, &err);
	if (n < 0) {
		error("%s: cannot format the Grid Engine share-tree usage: %s",
		      PRISM_PLUGIN_TYPE, err.text);
		xfree(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static bool _after_fs(const prism_pass_t *pass)
{
	return true;
}

/* ---- names (nss.h) ----------------------------------------------------- */

/* The user of a job a pass counts (running) or computes (pending). */
static void _names_note(void *st, const job_record_t *job_ptr,
			prism_nss_t *names)
{
	ge_t *g = st;
	uint32_t h;

	if (!job_ptr->details ||
	    (!IS_JOB_RUNNING(job_ptr) && !_wanted(job_ptr)))
		return;
	if (!prism_idmap_get(g->users, job_ptr->user_id, &h))
		prism_nss_want(names, PRISM_NSS_USER, job_ptr->user_id);
}

static void _name_keep(prism_nss_kind_t kind, uint32_t id, const char *name,
		       void *st)
{
	if (kind == PRISM_NSS_USER)
		(void) _user_keep(st, id, name);
}

static void _names_keep(void *st, const prism_nss_t *names)
{
	prism_nss_each(names, _name_keep, st);
}

const prism_policy_ops_t prism_gridengine_ops = {
	.kind = PRISM_POLICY_GRIDENGINE,
	.reads_file = true,
	.load = _load,
	.adopt = _adopt,
	.unload = _unload,
	.usage_file = USAGE_NAME,
	.usage_format = _usage_format,
	.fini = _fini,
	.keeps_admin_prio = true,
	.incr_only = false,
	.job_compute = _job_compute,
	.after_fs = _after_fs,
	.pass_begin = _pass_begin,
	.pass_charge = _pass_charge,
	.pass_batch = _pass_batch,
	.pass_store = _pass_store,
	.pass_end = _pass_end,
	.names_note = _names_note,
	.names_keep = _names_keep,
	.job_end = _job_end,
	.sprio_entry_row = _sprio_entry_row,
	.sprio_own_columns = true,
};
