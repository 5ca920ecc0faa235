/*****************************************************************************\
 *  prism_ge_job.c - Slurm's jobs and associations through the Grid Engine
 *  policy core: the share tree, the pending jobs of a pass, their
 *  priorities, sprio columns and priority_array written back; the
 *  share-tree usage charged; a submitted job's first priority.
 *
 *  What each Slurm field stands for (PriorityParameters=policy=gridengine):
 *
 *  Job inputs. The waiting time counts from the job's submit time
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
 *  sprio columns. A job's Slurm priority splits (prism_ge_sprio()) into
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
#include "src/common/slurm_priority.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "prism_adapter.h"
#include "prism_idmap.h"

#define NONE PRISM_GE_NONE
#define AMOUNT_MAX 1e18

/* Lookups under the policy in force, and the last pass's ranges; under
 * policy_lock. */
static struct {
	uint64_t gen;		/* prism_policy_generation() they are of */
	prism_idmap_t *users;	/* uid -> USER handle */
	int *tres_pos;		/* per resource handle: TRES position or -1 */
	uint32_t tres_cap;
	bool tres_known;
	prism_ge_range_t range;
	double *amount;		/* a submitted job's requests */
	uint32_t amount_cap;
} cache;

/* The pass under way; only the recalculation thread touches it. */
static struct {
	const prism_ge_policy_t *pol;	/* NULL: none under way */
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

/* Forget the caches of an older policy. Caller holds policy_lock. */
static void _cache_check(void)
{
	if (cache.gen == prism_policy_generation())
		return;
	if (!cache.users)
		cache.users = prism_idmap_create();
	prism_idmap_clear(cache.users);
	cache.tres_known = false;
	cache.range = (prism_ge_range_t) { 0 };
	cache.gen = prism_policy_generation();
}

extern void prism_ge_job_fini(void)
{
	prism_idmap_free(cache.users);
	xfree(cache.tres_pos);
	xfree(cache.amount);
	memset(&cache, 0, sizeof(cache));
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

/* The number of TRES slurmctld tracks (its arrays' length). */
static uint32_t _ctl_tres_cnt(void)
{
	if (!prism_ctl.tres_cnt || (*prism_ctl.tres_cnt < 0))
		return 0;
	return *prism_ctl.tres_cnt;
}

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

/* Map the policy's resources beyond slots, mem and nodes to TRES.
 * Caller holds the assoc_mgr TRES read lock and policy_lock. */
static void _tres_map(const prism_ge_policy_t *pol)
{
	uint32_t nres = prism_ge_count(pol, PRISM_GE_RESOURCE);

	if (nres > cache.tres_cap) {
		xrecalloc(cache.tres_pos, nres, sizeof(*cache.tres_pos));
		cache.tres_cap = nres;
	}
	for (uint32_t r = 0; r < nres; r++)
		cache.tres_pos[r] =
			r <= PRISM_GE_RES_NODES ?
				-1 :
				_tres_pos(prism_ge_get(pol, PRISM_GE_RESOURCE,
						       r)->name);
	cache.tres_known = true;
}

/* The USER handle of 'uid'. Caller holds policy_lock. */
static uint32_t _user(const prism_ge_policy_t *pol, uid_t uid)
{
	uint32_t h;

	if (prism_idmap_get(cache.users, uid, &h))
		return h;
	h = prism_ge_find(pol, PRISM_GE_USER, uid_to_string_cached(uid));
	(void) prism_idmap_put(cache.users, uid, h);
	return h;
}

static uint32_t _partition(const prism_ge_policy_t *pol,
			   const part_record_t *part_ptr)
{
	return part_ptr ? prism_ge_find(pol, PRISM_GE_PARTITION, part_ptr->name)
			: NONE;
}

/* A TRES request as an amount: 0 for Slurm's markers of none. */
static double _amount(uint64_t v)
{
	if (v == NO_VAL64 || v == INFINITE64 || v == NO_CONSUME_VAL64)
		return 0.0;
	return MIN((double) v, AMOUNT_MAX);
}

/*
 * Read 'job_ptr' into 'job' and its 'nres' requests into 'amount' (node:
 * none). Caller holds the job lock and policy_lock; cache.tres_pos is of
 * the policy 'pol'.
 */
static void _inputs(const prism_ge_policy_t *pol, const job_record_t *job_ptr,
		    prism_ge_job_t *job, double *amount, uint32_t nres)
{
	const struct job_details *details = job_ptr->details;
	const uint64_t *req = job_ptr->tres_req_cnt;
	uint32_t tres_cnt = req ? _ctl_tres_cnt() : 0;

	*job = (prism_ge_job_t) {
		.job_id = job_ptr->job_id,
		.submit = details->submit_time,
		.deadline = job_ptr->deadline,
		.nice = (int64_t) details->nice - (int64_t) NICE_OFFSET,
		.node = NONE,
		.user = _user(pol, job_ptr->user_id),
		.account = prism_ge_find(pol, PRISM_GE_ACCOUNT,
					 job_ptr->account),
		.partition = _partition(pol, job_ptr->part_ptr),
		.amount = amount,
	};
	amount[PRISM_GE_RES_SLOTS] = prism_job_cpus(job_ptr);
	amount[PRISM_GE_RES_MEM] =
		tres_cnt > TRES_ARRAY_MEM ? _amount(req[TRES_ARRAY_MEM]) : 0.0;
	amount[PRISM_GE_RES_NODES] = details->min_nodes;
	for (uint32_t r = PRISM_GE_RES_NODES + 1; r < nres; r++) {
		int pos = cache.tres_pos[r];

		amount[r] = (pos >= 0 && (uint32_t) pos < tres_cnt) ?
				    _amount(req[pos]) :
				    0.0;
	}
}

/* A pending job the policy computes: not held, not admin-set. */
static bool _wanted(const job_record_t *job_ptr)
{
	if (!IS_JOB_PENDING(job_ptr) || !job_ptr->details)
		return false;
	if (job_ptr->direct_set_prio && job_ptr->priority)
		return false;
	/* held, but for Prism's own hold under the Moab policy before */
	return job_ptr->priority || prism_moab_held(job_ptr);
}

/* ---- writing back ------------------------------------------------------- */

/* sprio's columns of 'res' (see the top of this file). */
static void _store_columns(const prism_ge_policy_t *pol,
			   job_record_t *job_ptr, const prism_ge_result_t *res)
{
	priority_factors_object_t *f;
	prism_error_t err = { "" };
	prism_ge_sprio_t c;

	if (prism_ge_sprio(pol, res, &c, &err)) {
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
		prism_job_clear_factors(job_ptr);
		return;
	}
	f = prism_job_reset_factors(job_ptr, 0);
	f->priority_age = c.urgency;
	f->priority_assoc = c.tickets;
	f->priority_qos = c.posix;
	f->priority_site = (uint32_t) MIN((uint64_t) c.offset + NICE_OFFSET,
					  UINT32_MAX);
	f->nice = NICE_OFFSET;
}

extern void prism_ge_factors_rebase(priority_factors_object_t *f,
				    uint32_t slurm)
{
	int64_t offset = (int64_t) f->priority_site - (int64_t) NICE_OFFSET;
	prism_ge_sprio_t c = {
		.urgency = (uint32_t) f->priority_age,
		.tickets = (uint32_t) f->priority_assoc,
		.posix = (uint32_t) f->priority_qos,
		.offset = (uint32_t) MAX(offset, 0),
	};

	prism_ge_sprio_rebase(&c, slurm);
	f->priority_age = c.urgency;
	f->priority_assoc = c.tickets;
	f->priority_qos = c.posix;
	f->priority_site = (uint32_t) MIN((uint64_t) c.offset + NICE_OFFSET,
					  UINT32_MAX);
}

/*
 * One priority per partition of a multi-partition job, tier order: 'res'
 * (computed in partition handle 'from') in each partition, with 'range'.
 */
static void _priority_array(const prism_ge_policy_t *pol,
			    job_record_t *job_ptr,
			    const prism_ge_result_t *res, uint32_t from,
			    const prism_ge_range_t *range)
{
	ListIterator itr = prism_job_parts_begin(job_ptr);
	part_record_t *part_ptr;
	int i = 0;

	while ((part_ptr = list_next(itr))) {
		prism_error_t err = { "" };
		prism_ge_result_t r;

		if (prism_ge_in_partition(pol, range, res, from,
					  _partition(pol, part_ptr), &r,
					  &err)) {
			error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
			r.slurm = res->slurm;
		}
		job_ptr->priority_array[i++] = r.slurm;
	}
	list_iterator_destroy(itr);
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
	_store_columns(pol, job_ptr, res);
	if (job_ptr->part_ptr_list)
		_priority_array(pol, job_ptr, res, from, range);
	_log(job_ptr, res, when);
}

/* ---- usage -------------------------------------------------------------- */

/*
 * Charge the CPU-seconds of 'job_ptr' between 'start' (0: none) and 'end'
 * to its association; returns the amount. Caller holds policy_lock.
 */
static double _charge(job_record_t *job_ptr, time_t start, time_t end)
{
	prism_error_t err = { "" };
	double amount;

	if (!start || !job_ptr->start_time || !job_ptr->assoc_id ||
	    !job_ptr->details)
		return 0.0;
	if (start < job_ptr->start_time)
		start = job_ptr->start_time;
	if (end <= start)
		return 0.0;
	amount = prism_ge_usage_amount(prism_job_cpus(job_ptr),
				       (double) (end - start));
	if (prism_ge_usage_charge(prism_ge_usage(), job_ptr->assoc_id, amount,
				  &err)) {
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
		return 0.0;
	}
	return amount;
}

extern void prism_ge_charge(job_record_t *job_ptr, time_t start, time_t end)
{
	if (prism_ge_policy())
		(void) _charge(job_ptr, start, end);
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
	ListIterator itr;

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

extern void prism_ge_pass_begin(const prism_ge_policy_t *pol, time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .tres = READ_LOCK };
	prism_error_t err = { "" };

	ge.pol = NULL;
	ge.n = ge.node_cnt = 0;
	ge.now = now;
	if (!ge.assoc_node)
		ge.assoc_node = prism_idmap_create();
	prism_idmap_clear(ge.assoc_node);
	if (!ge.core && !(ge.core = prism_ge_pass_create(&err))) {
		error("%s: %s", plugin_type, err.text);
		return;
	}
	assoc_mgr_lock(&locks);
	prism_policy_lock();
	if (pol && pol == prism_ge_policy()) {
		prism_ge_usage_t *u = prism_ge_usage();

		ge.pol = pol;
		prism_ge_usage_decay(u, now,
				     prism_ge_policy_params(pol)->halftime);
		_cache_check();
		_tres_map(pol);
		if (assoc_mgr_root_assoc)
			_tree_add(assoc_mgr_root_assoc, NONE, u);
	}
	prism_policy_unlock();
	assoc_mgr_unlock(&locks);
	if (!ge.pol)
		return;
	ge.nres = prism_ge_count(pol, PRISM_GE_RESOURCE);
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
	double amount = _charge(job_ptr, last, ge.now);

	if (node != NONE) {
		ge.nodes[node].running++;
		ge.nodes[node].usage += amount;
	}
	h = _user(pol, job_ptr->user_id);
	if (h != NONE)
		ge.user_running[h]++;
	h = prism_ge_find(pol, PRISM_GE_ACCOUNT, job_ptr->account);
	if (h != NONE)
		ge.account_running[h]++;
}

/* Room for one more job (and its requests, nres of them). */
static void _jobs_grow(void)
{
	size_t need;

	if (ge.n == ge.cap) {
		ge.cap = ge.cap ? 2 * ge.cap : 1024;
		xrecalloc(ge.jobs, ge.cap, sizeof(*ge.jobs));
		xrecalloc(ge.res, ge.cap, sizeof(*ge.res));
	}
	need = (size_t) ge.cap * ge.nres;
	if (need > ge.amount_cap) {
		xrecalloc(ge.amount, need, sizeof(*ge.amount));
		ge.amount_cap = need;
	}
}

extern void prism_ge_collect(job_record_t *job_ptr, time_t last)
{
	if (!ge.pol || !job_ptr->details)
		return;
	if (IS_JOB_RUNNING(job_ptr)) {
		_running(job_ptr, last);
		return;
	}
	if (!_wanted(job_ptr))
		return;
	_jobs_grow();
	_inputs(ge.pol, job_ptr, &ge.jobs[ge.n],
		ge.amount + (size_t) ge.n * ge.nres, ge.nres);
	ge.jobs[ge.n].node = _node(job_ptr);
	if (ge.jobs[ge.n].node != NONE && !ge.nodes[ge.jobs[ge.n].node].user)
		ge.jobs[ge.n].node = NONE;
	ge.n++;
}

extern uint32_t prism_ge_pass_compute(void)
{
	prism_error_t err = { "" };
	prism_ge_input_t in;

	if (!ge.pol)
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
		      plugin_type, err.text);
		ge.n = 0;
		return 0;
	}
	prism_policy_lock();
	if (prism_ge_policy() == ge.pol) {
		_cache_check();
		cache.range = *prism_ge_pass_range(ge.core);
	}
	prism_policy_unlock();
	return ge.n;
}

extern bool prism_ge_store(uint32_t i)
{
	const prism_ge_result_t *res;
	job_record_t *job_ptr;

	if (!ge.pol || i >= ge.n)
		return false;
	job_ptr = find_job_record(ge.jobs[i].job_id);
	/* it may have started, ended, been held or set by an admin since */
	if (!job_ptr || !_wanted(job_ptr))
		return false;
	res = &ge.res[i];
	prism_moab_release(job_ptr);
	_store(ge.pol, job_ptr, res, ge.jobs[i].partition,
	       prism_ge_pass_range(ge.core), "");
	if (job_ptr->priority == res->slurm)
		return false;
	job_ptr->priority = res->slurm;
	return true;
}

/* ---- submission --------------------------------------------------------- */

extern uint32_t prism_ge_job_compute(job_record_t *job_ptr, time_t now)
{
	const prism_ge_policy_t *pol = prism_ge_policy();
	prism_error_t err = { "" };
	prism_ge_result_t res;
	prism_ge_job_t job;
	uint32_t nres;

	if (job_ptr->direct_set_prio && job_ptr->priority) {
		prism_job_clear_factors(job_ptr);
		return job_ptr->priority;
	}
	if (!job_ptr->details) {
		error("%s: %pJ has no details, cannot set its priority",
		      plugin_type, job_ptr);
		prism_job_clear_factors(job_ptr);
		return 0;
	}
	_cache_check();
	if (!cache.tres_known)
		_tres_map(pol);
	nres = prism_ge_count(pol, PRISM_GE_RESOURCE);
	if (nres > cache.amount_cap) {
		xrecalloc(cache.amount, nres, sizeof(*cache.amount));
		cache.amount_cap = nres;
	}
	_inputs(pol, job_ptr, &job, cache.amount, nres);
	if (prism_ge_estimate(pol, &cache.range, &job, now, &res, &err)) {
		error("%s: %pJ: %s", plugin_type, job_ptr, err.text);
		prism_job_clear_factors(job_ptr);
		return 1;
	}
	prism_moab_release(job_ptr);
	_store(pol, job_ptr, &res, job.partition, &cache.range,
	       " (submission)");
	return res.slurm;
}
