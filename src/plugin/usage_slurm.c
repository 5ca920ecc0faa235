/*****************************************************************************\
 *  usage_slurm.c - usage accounting on slurmctld's records: decay and
 *  reset of association and QOS usage, the charge of a running job to its
 *  associations and QOS, and the rebuild of run-seconds after a restart.
 *
 *  The arithmetic is the core's (prism_usage.h); this file reads Slurm's
 *  records, takes the assoc_mgr locks as priority/multifactor does, and
 *  logs what the core reports.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/assoc_mgr.h"
#include "src/common/slurm_protocol_api.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/locks.h"

#include "prism_idmap.h"
#include "prism_usage.h"
#include "usage_slurm.h"

static const char plugin[] = PRISM_PLUGIN_TYPE;

_Static_assert(PRISM_USAGE_NO_CONSUME == NO_CONSUME_VAL64,
	       "the core's NO_CONSUME differs from Slurm's");

/*
 * The usage settings. prism_usage_conf_load() writes them (init,
 * reconfig); the recalculation thread and priority_p_job_end() read them.
 * usage_lock is a leaf lock: nothing else is taken while it is held.
 */
static pthread_mutex_t usage_lock = PTHREAD_MUTEX_INITIALIZER;
static double decay_factor = 1.0;
static prism_reset_t reset_period = PRISM_RESET_NONE;
static time_t next_reset;	/* 0: to compute from the last reset */
static bool calc_running;	/* PriorityFlags=CALCULATE_RUNNING */
static bool with_dbd;		/* usage is kept only with slurmdbd */

/* Slurm's PriorityUsageResetPeriod values and the core's names. */
static const struct {
	uint16_t slurm;
	prism_reset_t core;
} reset_map[] = {
	{ PRIORITY_RESET_NONE, PRISM_RESET_NONE },
	{ PRIORITY_RESET_NOW, PRISM_RESET_NOW },
	{ PRIORITY_RESET_DAILY, PRISM_RESET_DAILY },
	{ PRIORITY_RESET_WEEKLY, PRISM_RESET_WEEKLY },
	{ PRIORITY_RESET_MONTHLY, PRISM_RESET_MONTHLY },
	{ PRIORITY_RESET_QUARTERLY, PRISM_RESET_QUARTERLY },
	{ PRIORITY_RESET_YEARLY, PRISM_RESET_YEARLY },
};

static prism_reset_t _core_reset(uint16_t slurm_period)
{
	for (size_t i = 0; i < sizeof(reset_map) / sizeof(reset_map[0]); i++)
		if (reset_map[i].slurm == slurm_period)
			return reset_map[i].core;
	error("%s: unknown PriorityUsageResetPeriod %u, no reset", plugin,
	      slurm_period);
	return PRISM_RESET_NONE;
}

extern void prism_usage_conf_load(void)
{
	double factor = prism_usage_decay_factor(slurm_conf.priority_decay_hl);
	prism_reset_t period = _core_reset(slurm_conf.priority_reset_period);
	bool running = slurm_conf.priority_flags &
		       PRIORITY_FLAGS_CALCULATE_RUNNING;
	bool dbd = slurm_with_slurmdbd();

	slurm_mutex_lock(&usage_lock);
	decay_factor = factor;
	reset_period = period;
	next_reset = 0;
	calc_running = running;
	with_dbd = dbd;
	slurm_mutex_unlock(&usage_lock);
}

extern bool prism_usage_with_dbd(void)
{
	bool dbd;

	slurm_mutex_lock(&usage_lock);
	dbd = with_dbd;
	slurm_mutex_unlock(&usage_lock);
	return dbd;
}

static int _tres_cnt(void)
{
	return (int) prism_ctl_tres_cnt();
}

static bool _limits_enforced(void)
{
	return slurm_conf.accounting_storage_enforce &
	       ACCOUNTING_ENFORCE_LIMITS;
}

static prism_usage_rec_t _assoc_rec(slurmdb_assoc_usage_t *usage)
{
	return (prism_usage_rec_t) {
		.usage_raw = &usage->usage_raw,
		.usage_tres_raw = usage->usage_tres_raw,
		.grp_used_wall = &usage->grp_used_wall,
		.grp_used_tres_run_secs = usage->grp_used_tres_run_secs,
	};
}

static prism_usage_rec_t _qos_rec(slurmdb_qos_usage_t *usage)
{
	return (prism_usage_rec_t) {
		.usage_raw = &usage->usage_raw,
		.usage_tres_raw = usage->usage_tres_raw,
		.grp_used_wall = &usage->grp_used_wall,
		.grp_used_tres_run_secs = usage->grp_used_tres_run_secs,
	};
}

static const char *_tres_name(int i)
{
	if (!assoc_mgr_tres_name_array || !assoc_mgr_tres_name_array[i])
		return "?";
	return assoc_mgr_tres_name_array[i];
}

/* ---- decay and reset ---- */

/*
 * A Fair Tree pass's decay of the associations, deferred to each record's
 * first touch (prism_usage_decay_defer()): a charge decays the records it
 * reaches first, the fair-share walk the others. 'done' has a bit per
 * association id decayed so far, 'all' says every record is; an id at or
 * above PRISM_DEFER_IDS has every record left decayed at once. Under the
 * association write lock.
 */
#define PRISM_DEFER_IDS (1u << 27)	/* 16 MiB of bits at most */

static struct {
	bool on;
	prism_deferred_t v;	/* v.done is done */
	uint64_t *done;
} defer;

static bool _decayed(uint32_t id)
{
	return !prism_deferred_pending(&defer.v, id);
}

extern const prism_deferred_t *prism_usage_deferred(void)
{
	return defer.on ? &defer.v : NULL;
}

/* Mark 'id' decayed; false when it cannot be marked (too large an id). */
static bool _mark_decayed(uint32_t id)
{
	if (id >= PRISM_DEFER_IDS)
		return false;
	if (id / 64 >= defer.v.words) {
		uint32_t words = MAX(id / 64 + 1, 2 * defer.v.words);

		words = MIN(MAX(words, 1024), PRISM_DEFER_IDS / 64);
		xrecalloc(defer.done, words, sizeof(*defer.done));
		defer.v.done = defer.done;
		defer.v.words = words;
	}
	defer.done[id / 64] |= UINT64_C(1) << (id % 64);
	return true;
}

extern void prism_usage_decay_assoc_now(const prism_decay_t *d,
					slurmdb_assoc_rec_t *assoc)
{
	prism_usage_rec_t rec;

	if (!assoc->usage)
		return;
	rec = _assoc_rec(assoc->usage);
	prism_usage_rec_decay(&rec, d->tres_cnt, d->decay);
	/* usage kept for users deleted under an account */
	if (assoc->leaf_usage && (assoc->leaf_usage != assoc->usage)) {
		rec = _assoc_rec(assoc->leaf_usage);
		prism_usage_rec_decay(&rec, d->tres_cnt, d->decay);
	}
}

extern void prism_usage_decay_assoc(const prism_decay_t *d,
				    slurmdb_assoc_rec_t *assoc)
{
	if (defer.on && _decayed(assoc->id))
		return;
	prism_usage_decay_assoc_now(d, assoc);
}

static int _decay_assoc(void *x, void *arg)
{
	prism_usage_decay_assoc(arg, x);
	return 0;
}

/* Every record not decayed yet, now. */
static void _decay_the_rest(void)
{
	if (assoc_mgr_assoc_list)
		prism_assoc_list_walk(assoc_mgr_assoc_list,
				      defer.v.d.tres_cnt, _decay_assoc,
				      &defer.v.d);
	defer.v.all = true;
}

/* A charge reaches 'assoc': decayed first, if the pass has not yet. */
static void _touch(slurmdb_assoc_rec_t *assoc)
{
	if (!defer.on || _decayed(assoc->id))
		return;
	if (!_mark_decayed(assoc->id)) {
		log_flag(PRIO, "%s: association id %u too large to defer the decay: every association decayed now",
			 plugin, assoc->id);
		_decay_the_rest();
		return;
	}
	prism_usage_decay_assoc_now(&defer.v.d, assoc);
}

/*
 * The association list in a pipeline: each record's own lines are asked
 * for (prefetched) when the list hands it over, its usage record STAGE
 * records later, its TRES usage array STAGE records after that, and it is
 * handed to the caller's function STAGE records after that: the cache
 * misses of scattered records overlap instead of stalling the walk one
 * after the other.
 */
#define STAGE PRISM_ASSOC_STAGE
#define RING 16		/* > 3 * STAGE */

typedef struct {
	int (*fn)(void *x, void *arg);
	void *arg;
	int tres_cnt;
	slurmdb_assoc_rec_t *ring[RING];
	uint32_t n;		/* records handed over so far */
} assoc_pipe_t;

extern void prism_assoc_prefetch_usage(const slurmdb_assoc_rec_t *assoc)
{
	if (assoc->usage)
		__builtin_prefetch(&assoc->usage->usage_raw, 1);
}

extern void prism_assoc_prefetch_tres(const slurmdb_assoc_rec_t *assoc,
				      int tres_cnt)
{
	const char *t;

	if (!assoc->usage ||
	    !(t = (const char *) assoc->usage->usage_tres_raw))
		return;
	for (size_t off = 0; off < sizeof(long double) * tres_cnt; off += 64)
		__builtin_prefetch(t + off, 1);
}

static int _assoc_piped(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	assoc_pipe_t *p = arg;
	uint32_t n = p->n;

	__builtin_prefetch(&assoc->usage);
	if (n >= STAGE)
		prism_assoc_prefetch_usage(p->ring[(n - STAGE) % RING]);
	if (n >= 2 * STAGE)
		prism_assoc_prefetch_tres(p->ring[(n - 2 * STAGE) % RING],
					  p->tres_cnt);
	if (n >= 3 * STAGE)
		(void) p->fn(p->ring[(n - 3 * STAGE) % RING], p->arg);
	p->ring[n % RING] = assoc;
	p->n++;
	return 0;
}

extern void prism_assoc_list_walk(list_t *assocs, int tres_cnt,
				  int (*fn)(void *x, void *arg),
				  void *arg)
{
	assoc_pipe_t p = { .fn = fn, .arg = arg, .tres_cnt = tres_cnt };

	(void) list_for_each(assocs, _assoc_piped, &p);
	/* the records still in the pipeline */
	for (uint32_t i = p.n > 3 * STAGE ? p.n - 3 * STAGE : 0; i < p.n; i++)
		(void) fn(p.ring[i % RING], arg);
}

static int _decay_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	prism_decay_t *d = arg;
	prism_usage_rec_t rec;

	if (!qos->usage || (qos->flags & QOS_FLAG_NO_DECAY))
		return 0;
	rec = _qos_rec(qos->usage);
	prism_usage_rec_decay(&rec, d->tres_cnt, d->decay);
	return 0;
}

extern bool prism_usage_decay_prepare(time_t last, time_t now,
				      prism_decay_t *d)
{
	prism_error_t err = { "" };
	double factor;
	bool enabled;

	slurm_mutex_lock(&usage_lock);
	factor = decay_factor;
	enabled = with_dbd;
	slurm_mutex_unlock(&usage_lock);
	if (!enabled || !prism_in_controller())
		return false;
	*d = (prism_decay_t) { .tres_cnt = _tres_cnt() };
	if (prism_usage_decay_between(factor, last, now, &d->decay, &err)) {
		error("%s: problem applying decay: %s", plugin, err.text);
		return false;
	}
	if (d->decay == 1.0)
		return false;	/* no half-life, or no time passed */
	log_flag(PRIO, "%s: decay from %ld to %ld: %.15f -> %.15f", plugin,
		 (long) last, (long) now, factor, d->decay);
	return true;
}

extern void prism_usage_decay_locked(const prism_decay_t *d, bool assocs_done)
{
	bool deferred = defer.on;

	if (!assocs_done && assoc_mgr_assoc_list)
		prism_assoc_list_walk(assoc_mgr_assoc_list, d->tres_cnt,
				      _decay_assoc, (void *) d);
	defer.on = false;
	defer.v.all = false;
	/* (a deferred decay did the QOS when it began) */
	if (!deferred && assoc_mgr_qos_list)
		list_for_each(assoc_mgr_qos_list, _decay_qos, (void *) d);
}

extern bool prism_usage_decay_defer(time_t last, time_t now,
				    prism_decay_t *d)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };

	if (!prism_usage_decay_prepare(last, now, d))
		return false;
	assoc_mgr_lock(&locks);
	if (assoc_mgr_qos_list)
		list_for_each(assoc_mgr_qos_list, _decay_qos, (void *) d);
	if (defer.v.words)
		memset(defer.done, 0, defer.v.words * sizeof(*defer.done));
	defer.v.d = *d;
	defer.v.all = false;
	defer.on = true;
	assoc_mgr_unlock(&locks);
	return true;
}

extern void prism_usage_decay_fini(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };

	assoc_mgr_lock(&locks);
	xfree(defer.done);
	memset(&defer, 0, sizeof(defer));
	assoc_mgr_unlock(&locks);
}

extern void prism_usage_decay(time_t last, time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	prism_decay_t d;

	if (!prism_usage_decay_prepare(last, now, &d))
		return;
	assoc_mgr_lock(&locks);
	prism_usage_decay_locked(&d, false);
	assoc_mgr_unlock(&locks);
}

static int _reset_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	int *tres_cnt = arg;
	prism_usage_rec_t rec;

	if (!assoc->usage)
		return 0;
	rec = _assoc_rec(assoc->usage);
	prism_usage_rec_clear(&rec, *tres_cnt);
	if (assoc->leaf_usage && (assoc->leaf_usage != assoc->usage)) {
		slurmdb_destroy_assoc_usage(assoc->leaf_usage);
		assoc->leaf_usage = NULL;
	}
	return 0;
}

/* NoDecay QOS are reset too. */
static int _reset_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	int *tres_cnt = arg;
	prism_usage_rec_t rec;

	if (!qos->usage)
		return 0;
	rec = _qos_rec(qos->usage);
	prism_usage_rec_clear(&rec, *tres_cnt);
	return 0;
}

static void _reset_all(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	int tres_cnt = _tres_cnt();

	assoc_mgr_lock(&locks);
	if (assoc_mgr_assoc_list)
		list_for_each(assoc_mgr_assoc_list, _reset_assoc, &tres_cnt);
	if (assoc_mgr_qos_list)
		list_for_each(assoc_mgr_qos_list, _reset_qos, &tres_cnt);
	assoc_mgr_unlock(&locks);
}

extern void prism_usage_reset_if_due(prism_state_t *st, time_t now)
{
	prism_reset_state_t rs = { .last_reset = st->last_reset };
	prism_error_t err = { "" };
	bool due = false;
	int rc;

	if (!prism_in_controller())
		return;
	slurm_mutex_lock(&usage_lock);
	if (!with_dbd) {
		slurm_mutex_unlock(&usage_lock);
		return;
	}
	rs.period = reset_period;
	rs.next_reset = next_reset;
	rc = prism_usage_reset_step(&rs, now, &due, &err);
	if (!rc) {
		reset_period = rs.period;
		next_reset = rs.next_reset;
	}
	slurm_mutex_unlock(&usage_lock);

	if (rc) {
		error("%s: usage reset: %s", plugin, err.text);
		return;
	}
	st->last_reset = rs.last_reset;
	if (!due)
		return;
	log_flag(PRIO, "%s: resetting usage (PriorityUsageResetPeriod), next reset at %ld",
		 plugin, (long) rs.next_reset);
	_reset_all();
}

/* ---- charging jobs ---- */

/* The job as the core sees it. */
static void _job_view(const job_record_t *job_ptr, int tres_cnt,
		      prism_usage_job_t *job)
{
	*job = (prism_usage_job_t) {
		.start_time = job_ptr->start_time,
		.end_time = job_ptr->end_time,
		.end_time_exp = job_ptr->end_time_exp,
		.time_limit = job_ptr->time_limit,
		.finished = IS_JOB_FINISHED(job_ptr) ||
			    IS_JOB_COMPLETING(job_ptr) ||
			    IS_JOB_RESIZING(job_ptr),
		.usage_factor = job_ptr->qos_ptr ?
					job_ptr->qos_ptr->usage_factor : -1.0,
		.tres_alloc = job_ptr->tres_alloc_cnt,
		.tres_cnt = tres_cnt,
	};
}

static void _log_qos_underflow(uint32_t job_id, const slurmdb_qos_rec_t *qos,
			       const prism_usage_underflow_t *uf, int n)
{
	for (int i = 0; i < n; i++)
		error("%s: job %u: QOS %s TRES %s grp_used_tres_run_secs underflow, tried to remove %" PRIu64 " seconds when only %" PRIu64 " remained.",
		      plugin, job_id, qos->name, _tres_name(uf[i].tres),
		      uf[i].delta, uf[i].remained);
}

static void _log_assoc_underflow(uint32_t job_id,
				 const slurmdb_assoc_rec_t *assoc,
				 const prism_usage_underflow_t *uf, int n)
{
	for (int i = 0; i < n; i++)
		error("%s: job %u: assoc %u TRES %s grp_used_tres_run_secs underflow, tried to remove %" PRIu64 " seconds when only %" PRIu64 " remained.",
		      plugin, job_id, assoc->id, _tres_name(uf[i].tres),
		      uf[i].delta, uf[i].remained);
}

/* The job's QOS, and its partition's QOS when that is another one. */
static slurmdb_qos_rec_t *_part_qos(const job_record_t *job_ptr)
{
	if (!job_ptr->part_ptr || (job_ptr->part_ptr->qos_ptr ==
				   job_ptr->qos_ptr))
		return NULL;
	return job_ptr->part_ptr->qos_ptr;
}

#if PRISM_QOS_USER_RUN_SECS
/*
 * Release 'delta' run-seconds from what 'qos' counts for the job's
 * account and user (MaxTRESRunMinsPerAccount/PerUser; Slurm 24.05 keeps
 * these counters and the priority plugin drains them as it does the
 * QOS's own). Caller holds the assoc_mgr QOS write lock.
 */
static void _release_used_limits(const job_record_t *job_ptr,
				 slurmdb_qos_rec_t *qos, const uint64_t *delta,
				 int tres_cnt, prism_usage_underflow_t *uf)
{
	slurmdb_used_limits_t *used[2] = {
		acct_policy_get_acct_used_limits(&qos->usage->acct_limit_list,
						 job_ptr->assoc_ptr->acct),
		acct_policy_get_user_used_limits(&qos->usage->user_limit_list,
						 job_ptr->user_id),
	};
	static const char *const whose[2] = { "account", "user" };

	for (int w = 0; w < 2; w++) {
		prism_usage_rec_t rec = {
			.grp_used_tres_run_secs = used[w]->tres_run_secs };
		int n = prism_usage_rec_release(&rec, NULL, delta, tres_cnt,
						TRES_ARRAY_ENERGY, uf);

		for (int i = 0; i < n; i++)
			error("%s: job %u: QOS %s TRES %s %s used limit tres_run_secs underflow, tried to remove %" PRIu64 " seconds when only %" PRIu64 " remained.",
			      plugin, job_ptr->job_id, qos->name,
			      _tres_name(uf[i].tres), whose[w], uf[i].delta,
			      uf[i].remained);
	}
}
#endif

static void _charge_qos(const job_record_t *job_ptr, slurmdb_qos_rec_t *qos,
			const prism_usage_charge_t *c, int tres_cnt,
			bool limits, prism_usage_underflow_t *uf)
{
	prism_usage_rec_t rec;
	int n;

	if (!qos || !qos->usage)
		return;
#if PRISM_QOS_USER_RUN_SECS
	/* 24.05's multifactor leaves the run-seconds (and TRES usage) of
	 * the QOS of a job without association alone */
	if (!job_ptr->assoc_ptr)
		limits = false;
#endif
	rec = _qos_rec(qos->usage);
	n = prism_usage_rec_charge(&rec, c, tres_cnt,
				   qos->flags & QOS_FLAG_NO_DECAY, limits,
				   TRES_ARRAY_ENERGY, uf);
	_log_qos_underflow(job_ptr->job_id, qos, uf, n);
#if PRISM_QOS_USER_RUN_SECS
	if (limits)
		_release_used_limits(job_ptr, qos, c->tres_run_delta, tres_cnt,
				     uf);
#endif
}

/*
 * The associations charged (usage_slurm.h): each once, in the order first
 * charged, with its usage as of its last charge. Changed only with the
 * association write lock held (the charges, start, fini) or by the one
 * thread that stops it under the read lock, when no charge can run: the
 * association lock is its lock.
 */
typedef struct {
	prism_usnap_rec_t r;
	long double tres[];	/* charged.tres_cnt */
} charged_rec_t;

static struct {
	bool on;
	bool failed;		/* out of memory, too many, or the TRES count
				 * changed */
	int tres_cnt;		/* as at the start */
	uint32_t max;		/* the most listed */
	size_t size;		/* of a record with its TRES */
	uint32_t n;
	uint32_t cap;
	char *recs;		/* n records of 'size' bytes */
	prism_idmap_t *at;	/* id -> index in recs */
} charged;

static charged_rec_t *_charged_rec(uint32_t i)
{
	return (charged_rec_t *) (charged.recs + (size_t) i * charged.size);
}

/*
 * List 'assoc' (once) with its usage now, after a charge. Caller holds
 * the association write lock; 'tres_cnt' is the charge's.
 */
static void _list_charged(const slurmdb_assoc_rec_t *assoc, int tres_cnt)
{
	const slurmdb_assoc_usage_t *usage = assoc->usage;
	charged_rec_t *c;
	uint32_t i;

	if (!charged.on || charged.failed)
		return;
	if (tres_cnt != charged.tres_cnt) {
		charged.failed = true;
		return;
	}
	if (!prism_idmap_get(charged.at, assoc->id, &i)) {
		if (charged.n == charged.max) {
			charged.failed = true;
			return;
		}
		if (charged.n == charged.cap) {
			uint32_t cap = charged.cap ? charged.cap * 2 : 1024;
			char *recs = realloc(charged.recs, cap * charged.size);

			if (!recs)
				goto oom;
			charged.recs = recs;
			charged.cap = cap;
		}
		if (prism_idmap_put(charged.at, assoc->id, charged.n))
			goto oom;
		i = charged.n++;
	}
	c = _charged_rec(i);
	c->r = (prism_usnap_rec_t) { .id = assoc->id,
				     .grp_used_wall = usage->grp_used_wall,
				     .usage_raw = usage->usage_raw };
	if (tres_cnt && usage->usage_tres_raw)
		memcpy(c->tres, usage->usage_tres_raw,
		       tres_cnt * sizeof(long double));
	else if (tres_cnt)
		memset(c->tres, 0, tres_cnt * sizeof(long double));
	return;
oom:
	error("%s: out of memory listing the associations charged; the usage snapshot copies every association",
	      plugin);
	charged.failed = true;
}

extern void prism_usage_charged_start(uint32_t max)
{
	int tres_cnt = _tres_cnt() > 0 ? _tres_cnt() : 0;
	size_t size = sizeof(charged_rec_t) + tres_cnt * sizeof(long double);

	charged.on = true;
	charged.failed = false;
	charged.n = 0;
	charged.max = max;
	if (size != charged.size) {
		/* (a TRES count not seen before: the records change size) */
		free(charged.recs);
		charged.recs = NULL;
		charged.cap = 0;
		charged.size = size;
	}
	charged.tres_cnt = tres_cnt;
	if (!charged.at)
		charged.at = prism_idmap_create();
	prism_idmap_clear(charged.at);
	if (!charged.at) {
		error("%s: out of memory listing the associations charged; the usage snapshot copies every association",
		      plugin);
		charged.failed = true;
	}
}

extern bool prism_usage_charged_stop(uint32_t *n, uint32_t *tres_cnt)
{
	bool whole = charged.on && !charged.failed;

	charged.on = false;
	*n = charged.n;
	*tres_cnt = charged.tres_cnt;
	return whole;
}

extern const long double *prism_usage_charged_get(uint32_t i,
						  prism_usnap_rec_t *r)
{
	const charged_rec_t *c = _charged_rec(i);

	*r = c->r;
	return c->tres;
}

extern void prism_usage_charged_fini(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };

	assoc_mgr_lock(&locks);
	free(charged.recs);
	prism_idmap_free(charged.at);
	memset(&charged, 0, sizeof(charged));
	assoc_mgr_unlock(&locks);
}

/* Charge 'c' to the QOS and the whole association chain of 'job_ptr'. */
static void _charge_records(const job_record_t *job_ptr,
			    const prism_usage_charge_t *c, int tres_cnt,
			    prism_usage_underflow_t *uf)
{
	bool limits = _limits_enforced();
	slurmdb_assoc_rec_t *assoc;

	_charge_qos(job_ptr, job_ptr->qos_ptr, c, tres_cnt, limits, uf);
	_charge_qos(job_ptr, _part_qos(job_ptr), c, tres_cnt, limits, uf);
	for (assoc = job_ptr->assoc_ptr; assoc && assoc->usage;
	     assoc = assoc->usage->parent_assoc_ptr) {
		prism_usage_rec_t rec;
		int n;

		_touch(assoc);
		rec = _assoc_rec(assoc->usage);
		n = prism_usage_rec_charge(&rec, c, tres_cnt, false, limits,
					   TRES_ARRAY_ENERGY, uf);

		log_flag(PRIO, "%s: adding %f new usage to assoc %u (%s/%s/%s) raw usage is now %Lf. Group wall added %f making it %f.",
			 plugin, c->real_decay, assoc->id, assoc->acct,
			 assoc->user, assoc->partition,
			 assoc->usage->usage_raw, c->run_decay,
			 assoc->usage->grp_used_wall);
		_log_assoc_underflow(job_ptr->job_id, assoc, uf, n);
		_list_charged(assoc, tres_cnt);
	}
}

/* Charge the job; caller holds the assoc_mgr locks. */
static void _charge(job_record_t *job_ptr, time_t start, time_t end,
		    bool at_end, double factor)
{
	int tres_cnt = _tres_cnt();
	int room = tres_cnt > 0 ? tres_cnt : 1;
	uint64_t run_delta[room];
	long double run_decay[room], run_nodecay[room];
	prism_usage_underflow_t uf[room];
	prism_usage_charge_t c = { .tres_run_delta = run_delta,
				   .tres_run_decay = run_decay,
				   .tres_run_nodecay = run_nodecay };
	prism_error_t err;
	prism_usage_job_t job;
	double billable;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	_job_view(job_ptr, tres_cnt, &job);
	/* settle the end only once */
	if (at_end)
		job_ptr->end_time_exp = (time_t) NO_VAL;
	billable = calc_job_billable_tres(
		job_ptr, prism_usage_period_start(&job, start), true);
	if (prism_usage_charge_compute(&job, start, end, at_end, factor,
				       billable, &c, &err)) {
		error("%s: %pJ: %s", plugin, job_ptr, err.text);
		return;
	}
	log_flag(PRIO, "%s: %pJ ran for %g seconds, billable TRES %f",
		 plugin, job_ptr, c.run_delta, billable);
	_charge_records(job_ptr, &c, tres_cnt, uf);
}

/*
 * What the pass does with 'job_ptr' (multifactor's decay_apply_new_usage):
 * -1: nothing, the job needs no further processing; 0: nothing to
 * charge; 1: charge it.
 */
static int _pass_choice(const job_record_t *job_ptr, bool running_too)
{
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))
		return -1;
	if ((running_too || !IS_JOB_PENDING(job_ptr)) &&
	    !IS_JOB_POWER_UP_NODE(job_ptr) && job_ptr->start_time &&
	    job_ptr->assoc_ptr)
		return 1;
	return 0;
}

static bool _charge_job(job_record_t *job_ptr, time_t start, time_t end,
			bool at_end, bool take_locks)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	double factor;
	bool running_too;

	if (!prism_in_controller())
		return false;
	slurm_mutex_lock(&usage_lock);
	factor = decay_factor;
	running_too = calc_running;
	slurm_mutex_unlock(&usage_lock);

	if (!at_end) {
		int choice = _pass_choice(job_ptr, running_too);

		if (choice <= 0)
			return choice == 0;
	}
	/* end_time_exp NO_VAL: the end was settled already */
	if (job_ptr->end_time_exp == (time_t) NO_VAL)
		return false;
	if (take_locks)
		assoc_mgr_lock(&locks);
	_charge(job_ptr, start, end, at_end, factor);
	if (take_locks)
		assoc_mgr_unlock(&locks);
	return true;
}

extern bool prism_usage_charge_job(job_record_t *job_ptr, time_t start,
				   time_t end, bool at_end)
{
	return _charge_job(job_ptr, start, end, at_end, true);
}

extern bool prism_usage_charge_job_locked(job_record_t *job_ptr,
					  time_t start, time_t end,
					  bool at_end)
{
	return _charge_job(job_ptr, start, end, at_end, false);
}

/* ---- run-seconds after a restart ---- */

static void _release(job_record_t *job_ptr, const uint64_t *delta,
		     int tres_cnt, prism_usage_underflow_t *uf)
{
	slurmdb_qos_rec_t *qos[2] = { job_ptr->qos_ptr, _part_qos(job_ptr) };
	slurmdb_assoc_rec_t *assoc;
	prism_usage_rec_t rec;
	int n;

	for (int q = 0; q < 2; q++) {
		if (!qos[q] || !qos[q]->usage)
			continue;
#if PRISM_QOS_USER_RUN_SECS
		if (!job_ptr->assoc_ptr)
			continue;
#endif
		rec = _qos_rec(qos[q]->usage);
		n = prism_usage_rec_release(&rec, NULL, delta, tres_cnt,
					    TRES_ARRAY_ENERGY, uf);
		_log_qos_underflow(job_ptr->job_id, qos[q], uf, n);
#if PRISM_QOS_USER_RUN_SECS
		_release_used_limits(job_ptr, qos[q], delta, tres_cnt, uf);
#endif
	}
	for (assoc = job_ptr->assoc_ptr; assoc && assoc->usage;
	     assoc = assoc->usage->parent_assoc_ptr) {
		rec = _assoc_rec(assoc->usage);
		n = prism_usage_rec_release(&rec, NULL, delta, tres_cnt,
					    TRES_ARRAY_ENERGY, uf);
		_log_assoc_underflow(job_ptr->job_id, assoc, uf, n);
	}
}

static int _init_job(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	time_t last_ran = *(time_t *) arg;
	int tres_cnt = _tres_cnt();
	int room = tres_cnt > 0 ? tres_cnt : 1;
	uint64_t delta[room];
	prism_usage_underflow_t uf[room];
	prism_error_t err;
	prism_usage_job_t job;
	int rc;

	err.text[0] = '\0'; /* not = { "" }: 7 KB zeroed a job */
	if ((job_ptr->end_time_exp == (time_t) NO_VAL) ||
	    !IS_JOB_RUNNING(job_ptr))
		return 0;
	_job_view(job_ptr, tres_cnt, &job);
	rc = prism_usage_init_delta(&job, last_ran, delta, &err);
	if (rc < 0)
		error("%s: %pJ: %s", plugin, job_ptr, err.text);
	if (rc)
		return 0;
	log_flag(PRIO, "%s: %pJ: removing run-seconds used before %ld",
		 plugin, job_ptr, (long) last_ran);
	_release(job_ptr, delta, tres_cnt, uf);
	return 0;
}

extern void prism_usage_init_run_secs(time_t last_ran)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };

	log_flag(PRIO, "%s: initializing grp_used_tres_run_secs", plugin);
	if (!prism_in_controller() || !_limits_enforced())
		return;
	if (!*prism_ctl.job_list || !list_count(*prism_ctl.job_list))
		return;
	lock_slurmctld(job_read_lock);
	assoc_mgr_lock(&locks);
	list_for_each(*prism_ctl.job_list, _init_job, &last_ran);
	assoc_mgr_unlock(&locks);
	unlock_slurmctld(job_read_lock);
}
