/*****************************************************************************\
 *  fs_tree.c - fair-share over the association tree: copies the
 *  tree assoc_mgr keeps into the core's node arrays, runs Fair Tree or
 *  the classic algorithm there, and writes the results back into the
 *  association usage records sshare reads. A pass that decays usage
 *  after fair-share has the walk back over the records decay each one:
 *  one walk instead of two.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/assoc_mgr.h"
#include "src/common/xmalloc.h"

#include "fs_tree.h"
#include "prism_fairtree.h"
#include "prism_fs.h"
#include "prism_usage.h"
#include "usage_slurm.h"
#include "usage_snap.h"

/*
 * A pass's node arrays: nodes[] and recs[] are allocated (not cleared:
 * the walk writes every entry it uses) when a pass's walk begins and
 * freed when the pass's fair-share is done, so that slurmctld does not
 * keep 72 bytes an association for them between passes (at ten
 * associations a pending job, 720 bytes a job: most of what multifactor
 * keeps per job; issue 34). Only the recalculation thread uses them,
 * under the assoc_mgr write lock.
 */
static prism_ft_node_t *nodes;
static slurmdb_assoc_rec_t **recs;
static size_t nodes_cap;
static size_t recs_cap;
/*
 * The nodes are numbered breadth first, each node's children in list
 * order, so the children's index array in list order is 1, 2, ..., n - 1
 * and each node's children are a range of indices. ranked[]: the order
 * the last Fair Tree run left them in (its ranking), of ranked_n nodes (0
 * for none), kept between passes (4 bytes a node). A pass with as many
 * nodes ranks each sibling set starting from there, one comparison per
 * node where the levels kept their order; when the tree changed shape
 * meanwhile, prism_fairtree_rerun() says so and the pass ranks from list
 * order (logged with DebugFlags=Priority).
 */
static uint32_t *ranked;
static size_t ranked_n;
static size_t ranked_cap;
static long double *sibling_norms;
static size_t sibling_cap;
/*
 * The classic factors a pass has taken, by association (prism_fs.h):
 * read and written by the pass's thread only (under the job write lock
 * and the assoc_mgr assoc lock); 40 bytes a slot, 1.3 to 2.7 slots an
 * association walked or a job, whichever are fewer; freed when the pass
 * is done (prism_fs_tree_pass_done()), as the node arrays are.
 */
static prism_fs_memo_t memo;

/* The capacity for 'need' entries, from 'cap': doubled, or 'need'. */
static size_t _cap_for(size_t need, size_t cap)
{
	return need < 2 * cap ? 2 * cap : need;
}

/* Room for 'need' records in recs[] (the classic pass needs no more). */
static void _grow_recs(size_t need)
{
	if (need <= recs_cap)
		return;
	recs_cap = _cap_for(need, recs_cap);
	xrealloc_nz(recs, recs_cap * sizeof(*recs));
}

static void _grow(size_t need)
{
	_grow_recs(need);
	if (need > nodes_cap) {
		nodes_cap = _cap_for(need, nodes_cap);
		xrealloc_nz(nodes, nodes_cap * sizeof(*nodes));
	}
	if (need > ranked_cap) {
		ranked_cap = _cap_for(need, ranked_cap);
		xrecalloc(ranked, ranked_cap, sizeof(*ranked));
	}
}

/* The pass's fair-share is done: free its node arrays. */
static void _release(void)
{
	xfree(nodes);
	xfree(recs);
	nodes_cap = 0;
	recs_cap = 0;
}

/* Where _add_child() puts the next child of node 'parent'. */
typedef struct {
	size_t parent;
	size_t n;		/* nodes so far (children: n - 1) */
	const prism_deferred_t *dv;	/* a deferred decay, or NULL */
} build_t;

/* The usage of 'assoc' as decayed by the pass ('dv': a deferred decay
 * that may not have reached it). */
static long double _usage_raw(const slurmdb_assoc_rec_t *assoc,
			      const prism_deferred_t *dv)
{
	if (prism_deferred_pending(dv, assoc->id))
		return prism_usage_raw_decayed(assoc->usage->usage_raw,
					       dv->d.decay);
	return assoc->usage->usage_raw;
}

static int _add_child(void *x, void *arg)
{
	slurmdb_assoc_rec_t *child = x;
	build_t *b = arg;

	_grow(b->n + 1);
	recs[b->n] = child;
	nodes[b->n] = (prism_ft_node_t) {
		.fs_parent = b->parent,
		.is_user = child->user != NULL,
		.use_parent = child->shares_raw == SLURMDB_FS_USE_PARENT,
		.shares_norm = child->usage->shares_norm,
		.usage_raw = _usage_raw(child, b->dv),
	};
	b->n++;
	nodes[b->parent].n_children++;
	return 0;
}

/*
 * Number the tree breadth first from the root, each node's fair-share
 * children (children_list) in list order, each list walked under one
 * lock of its own. Returns the node count.
 */
static size_t _build_tree(void)
{
	build_t b = { .n = 1, .dv = prism_usage_deferred() };

	/* room for every association at once: no growth during the walk */
	_grow(assoc_mgr_assoc_list ? list_count(assoc_mgr_assoc_list) + 1 :
				     64);
	recs[0] = assoc_mgr_root_assoc;
	nodes[0] = (prism_ft_node_t) {
		.fs_parent = PRISM_FT_NONE,
		.usage_raw = _usage_raw(assoc_mgr_root_assoc, b.dv),
	};
	for (b.parent = 0; b.parent < b.n; b.parent++) {
		list_t *children = recs[b.parent]->usage->children_list;

		nodes[b.parent].first_child = b.n - 1;
		nodes[b.parent].n_children = 0;
		if (children)
			(void) list_for_each(children, _add_child, &b);
	}
	return b.n;
}

/*
 * After a walk that put 'n' records in recs[]: the Fair Tree results
 * written back (nodes[], when 'results'), the decay 'd' applied to each
 * record (when not NULL) and each record's usage put in the usage
 * snapshot's stage (when 'stage'), in one walk with the records, their
 * usage records and TRES arrays prefetched a few ahead.
 */
static void _write_back(size_t n, bool results, const prism_decay_t *d,
			bool stage)
{
	const size_t s = PRISM_ASSOC_STAGE;
	const bool tres = d || stage;
	const int tres_cnt = d ? d->tres_cnt : (int) prism_ctl_tres_cnt();
	/* (a deferred decay reached some records already) */
	const prism_deferred_t *dv = prism_usage_deferred();

	for (size_t i = 0; i < n; i++) {
		slurmdb_assoc_usage_t *usage;

		if (i + 3 * s < n)
			__builtin_prefetch(&recs[i + 3 * s]->usage);
		if (i + 2 * s < n)
			prism_assoc_prefetch_usage(recs[i + 2 * s]);
		if (tres && (i + s < n))
			prism_assoc_prefetch_tres(recs[i + s], tres_cnt);
		usage = recs[i]->usage;
		if (results) {
			usage->level_fs = nodes[i].level_fs;
			if (i) {
				prism_fairtree_usages(nodes, i,
						      &usage->usage_efctv,
						      &usage->usage_norm);
				if (nodes[i].is_user)
					usage->fs_factor = nodes[i].fs_factor;
			}
		}
		if (d && (!dv || prism_deferred_pending(dv, recs[i]->id)))
			prism_usage_decay_assoc_now(d, recs[i]);
		if (stage)
			prism_usage_snap_stage_put(recs[i]);
	}
}

/*
 * Does recs[0..n-1] hold every association (each once, by construction of
 * the walk)? Not when one is outside the tree.
 */
static bool _all_walked(size_t n)
{
	return n && assoc_mgr_assoc_list &&
	       (n == (size_t) list_count(assoc_mgr_assoc_list));
}

/*
 * Fair Tree; decays the records it walks by 'd' when they are every
 * association, and says so; puts them in the usage snapshot's stage when
 * the pass wants one (usage_snap.h).
 */
static bool _fair_tree(const prism_decay_t *d)
{
	prism_error_t err = { "" };
	size_t n = _build_tree();
	bool all = _all_walked(n);
	bool stage = prism_usage_snap_stage_begin();
	int rc = 1;
	bool ok;

	if (ranked_n && (n == ranked_n)) {
		/* from the last ranking (1: the tree changed shape) */
		rc = prism_fairtree_rerun(nodes, n, ranked, n - 1,
					  g_user_assoc_count, &err);
		if (rc == 1)
			log_flag(PRIO, "%s: Fair Tree: the tree changed shape since the last pass, ranking from list order",
				 PRISM_PLUGIN_TYPE);
	}
	if (rc == 1) {
		for (size_t i = 0; i + 1 < n; i++)
			ranked[i] = i + 1;	/* list order */
		rc = prism_fairtree_run(nodes, n, ranked, n - 1,
					g_user_assoc_count, &err);
	}
	ok = !rc;
	ranked_n = ok ? n : 0;
	if (!ok)
		error("%s: Fair Tree: %s", PRISM_PLUGIN_TYPE, err.text);
	_write_back(n, ok, all ? d : NULL, stage);
	if (stage)
		prism_usage_snap_stage_done(all);
	return all;
}

/* list_for_each_ro() over a parent's children: the usage_norm of each
 * sibling that is not FairShare=parent into sibling_norms[*arg...]. */
static int _sibling_norm(void *x, void *arg)
{
	slurmdb_assoc_rec_t *sib = x;
	size_t *n = arg;

	if (sib->shares_raw == SLURMDB_FS_USE_PARENT)
		return 0;
	if (*n == sibling_cap) {
		sibling_cap = sibling_cap ? 2 * sibling_cap : 64;
		xrecalloc(sibling_norms, sibling_cap, sizeof(*sibling_norms));
	}
	sibling_norms[(*n)++] = sib->usage->usage_norm;
	return 0;
}

/*
 * Effective usage of 'assoc' under DEPTH_OBLIVIOUS. (The siblings' list
 * is read with list_for_each_ro(): the classic walk may hold the same
 * list's read lock already, and a read lock can be taken twice.)
 */
static long double _depth_oblivious(slurmdb_assoc_rec_t *assoc)
{
	slurmdb_assoc_rec_t *parent = assoc->usage->fs_assoc_ptr;
	size_t n = 0;

	if (parent->usage->children_list)
		(void) list_for_each_ro(parent->usage->children_list,
					_sibling_norm, &n);
	return prism_fs_usage_efctv_depth_oblivious(
		assoc->usage->usage_norm, assoc->usage->shares_norm,
		parent->usage->usage_efctv, parent->usage->shares_norm,
		sibling_norms, n);
}

extern void prism_fs_tree_pass_done(void)
{
	prism_fs_memo_free(&memo);
}

extern void prism_fs_tree_fini(void)
{
	_release();
	prism_fs_memo_free(&memo);
	xfree(ranked);
	ranked_n = 0;
	ranked_cap = 0;
	xfree(sibling_norms);
	sibling_cap = 0;
}

/* The association whose usage and shares decide the fair-share of
 * 'assoc': its parent's for FairShare=parent. */
static slurmdb_assoc_rec_t *_fs_assoc(slurmdb_assoc_rec_t *assoc)
{
	if (assoc->shares_raw == SLURMDB_FS_USE_PARENT &&
	    assoc->usage->fs_assoc_ptr)
		return assoc->usage->fs_assoc_ptr;
	return assoc;
}

/* Classic fair-share's factor from 'fs_assoc' (0 while its effective
 * usage is not set this pass), through 'm' (NULL: computed). */
static double _classic_factor(const slurmdb_assoc_rec_t *fs_assoc,
			      prism_fs_memo_t *m)
{
	if (fuzzy_equal(fs_assoc->usage->usage_efctv, NO_VAL))
		return 0.0;
	return prism_fs_factor_memo(m, fs_assoc,
				    &fs_assoc->usage->usage_efctv,
				    fs_assoc->usage->shares_norm,
				    slurm_conf.fs_dampening_factor);
}

#ifdef PRISM_STORE_FS_FACTOR
/*
 * Classic fair-share's factor of 'assoc', kept in the association where
 * the release has no priority_p_calc_fs_factor (25.11 on): slurmctld's
 * usage_thres check and sshare's FairShare column read it there. Stored
 * whenever an association's effective usage is set, and for every job's
 * association after each pass (prism_fs_store_job_factor()), as
 * multifactor does: 0 where the effective usage is not set this pass.
 */
static void _store_fs_factor(slurmdb_assoc_rec_t *assoc, prism_fs_memo_t *m)
{
	assoc->usage->fs_factor = _classic_factor(_fs_assoc(assoc), m);
}

extern void prism_fs_store_job_factor(job_record_t *job_ptr)
{
	if (job_ptr->assoc_ptr && job_ptr->assoc_ptr->usage)
		_store_fs_factor(job_ptr->assoc_ptr, &memo);
}
#endif

extern void prism_fs_set_assoc_usage(slurmdb_assoc_rec_t *assoc,
				     uint32_t flags)
{
	slurmdb_assoc_usage_t *usage = assoc->usage;
	slurmdb_assoc_rec_t *parent = usage->fs_assoc_ptr;

	usage->usage_norm = prism_fs_usage_norm(
		usage->usage_raw, assoc_mgr_root_assoc->usage->usage_raw);
	if (!parent || parent == assoc_mgr_root_assoc)
		usage->usage_efctv = usage->usage_norm;
	else if (assoc->shares_raw == SLURMDB_FS_USE_PARENT)
		usage->usage_efctv = parent->usage->usage_efctv;
	else if (flags & PRISM_F_DEPTH_OBLIVIOUS)
		usage->usage_efctv = _depth_oblivious(assoc);
	else
		usage->usage_efctv = prism_fs_usage_efctv(
			usage->usage_norm, parent->usage->usage_efctv,
			assoc->shares_raw, usage->level_shares);
#ifdef PRISM_STORE_FS_FACTOR
	if (!(flags & PRISM_F_FAIR_TREE))
		_store_fs_factor(assoc, NULL);
#endif
}

/* The classic walk's arguments (list_for_each_ro() passes one). */
typedef struct {
	uint32_t flags;
	size_t *n;
} classic_t;

static void _classic(list_t *children, uint32_t flags, size_t *n);

/* list_for_each_ro() over a children_list: one record of the walk. */
static int _classic_one(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	classic_t *c = arg;

	_grow_recs(*c->n + 1);
	recs[(*c->n)++] = assoc;
	if (assoc->user) {
		assoc->usage->usage_efctv = (long double) NO_VAL;
		return 0;
	}
	prism_fs_set_assoc_usage(assoc, c->flags);
	_classic(assoc->usage->children_list, c->flags, c->n);
	return 0;
}

/*
 * The classic pass: accounts get their effective usage top down; users
 * are marked "not computed" (NO_VAL) and get theirs when one of their
 * jobs asks for its fair-share factor, as with Slurm's plugin. Each
 * record walked is put in recs[] from *n on. Each list is read under its
 * lock once, not once per step as with a list iterator (no one changes
 * it meanwhile: the association write lock is held).
 */
static void _classic(list_t *children, uint32_t flags, size_t *n)
{
	classic_t c = { .flags = flags, .n = n };

	if (children)
		(void) list_for_each_ro(children, _classic_one, &c);
}

/* The associations a classic pass's jobs may ask the factor of: those
 * walked, 'n', or fewer when there are fewer jobs. */
static uint32_t _memo_keys(size_t n)
{
	list_t *jobs = *prism_ctl.job_list;
	size_t k = jobs ? list_count(jobs) : 0;

	return MIN(MIN(n, k), UINT32_MAX);
}

extern void prism_fs_tree_update(const prism_prio_conf_t *conf,
				 const prism_decay_t *d)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK,
				   .qos = d ? WRITE_LOCK : NO_LOCK };
	bool all = false;

	assoc_mgr_lock(&locks);
	if (assoc_mgr_root_assoc && assoc_mgr_root_assoc->usage) {
		if (conf->flags & PRISM_F_FAIR_TREE) {
			all = _fair_tree(d);
		} else {
			size_t n = 0;
			bool stage;

			_grow_recs(assoc_mgr_assoc_list ?
				   list_count(assoc_mgr_assoc_list) + 1 : 64);
			recs[n++] = assoc_mgr_root_assoc;
			_classic(assoc_mgr_root_assoc->usage->children_list,
				 conf->flags, &n);
			/* (out of memory: the jobs' factors computed each) */
			if (conf->weight_fs)
				(void) prism_fs_memo_begin(&memo,
							   _memo_keys(n));
			/* after the walk, which read the root's usage */
			all = _all_walked(n);
			stage = all && prism_usage_snap_stage_begin();
			if (all && (d || stage))
				_write_back(n, false, d, stage);
			if (stage)
				prism_usage_snap_stage_done(all);
		}
	}
	/* the associations outside the walk's records, and the QOS */
	if (d)
		prism_usage_decay_locked(d, all);
	assoc_mgr_unlock(&locks);
	_release();
}

extern double prism_fs_job_factor(job_record_t *job_ptr,
				  const prism_prio_conf_t *conf, bool pass)
{
	slurmdb_assoc_rec_t *assoc = job_ptr->assoc_ptr;
	slurmdb_assoc_rec_t *fs_assoc;

	if (!assoc || !assoc->usage)
		return 0.0;
#ifdef PRISM_STORE_FS_FACTOR
	/*
	 * From 25.11 on, as multifactor there: the factor stored in the
	 * job's own association, set with its effective usage when that is
	 * not set this pass (a FairShare=parent user's too, from its
	 * parent's), else as stored last.
	 */
	if (!(conf->flags & PRISM_F_FAIR_TREE)) {
		if (fuzzy_equal(assoc->usage->usage_efctv, NO_VAL))
			prism_fs_set_assoc_usage(assoc, conf->flags);
		return assoc->usage->fs_factor;
	}
#endif
	fs_assoc = _fs_assoc(assoc);
	if (fuzzy_equal(fs_assoc->usage->usage_efctv, NO_VAL))
		prism_fs_set_assoc_usage(fs_assoc, conf->flags);
	if (conf->flags & PRISM_F_FAIR_TREE)
		return assoc->usage->fs_factor;
	return _classic_factor(fs_assoc, pass ? &memo : NULL);
}

/* Normalise the shares of 'children' and their subtrees again. */
static void _normalize_shares(list_t *children)
{
	slurmdb_assoc_rec_t *assoc;
	list_itr_t *itr;

	if (!children)
		return;
	itr = list_iterator_create(children);
	while ((assoc = list_next(itr))) {
		assoc_mgr_normalize_assoc_shares(assoc);
		if (!assoc->user)
			_normalize_shares(assoc->usage->children_list);
	}
	list_iterator_destroy(itr);
}

extern void prism_fs_tree_renormalize(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };

	assoc_mgr_lock(&locks);
	if (assoc_mgr_root_assoc)
		_normalize_shares(assoc_mgr_root_assoc->usage->children_list);
	assoc_mgr_unlock(&locks);
}
