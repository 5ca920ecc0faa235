/*****************************************************************************\
 *  usage_snap.c - the usage snapshot (see usage_snap.h): a copy of the
 *  usage fields Prism charges, read from and written to assoc_mgr's
 *  records; the image, its checksum and the decision at start are the
 *  core's (prism_usnap.h).
 *
 *  Why: slurmctld saves association usage only every 5 minutes and at
 *  shutdown. A controller killed in between would come back with older
 *  usage while Prism's state says it was charged. Slurm's own save
 *  (dump_assoc_mgr_state()) after every pass closed that gap but packs
 *  every association, user and QOS as text under the assoc_mgr locks;
 *  the snapshot copies only the usage, under read locks, and writes it
 *  after letting them go.
 *
 *  Who copies: a pass's fair-share walk, which writes every association
 *  back under the write lock, puts each association's usage into the image
 *  as it goes (the stage; its lines are in cache then). What is charged
 *  after it (the classic pass charges after fair-share; a job may end on
 *  another thread before the save) is listed by the charge with the usage
 *  it left (usage_slurm.h), and the save puts those records again (a later
 *  record of an id wins when the image is read) and adds the QOS under the
 *  read locks. The image is then of the save's moment for everything
 *  charged and of the walk's for the rest, which nothing but a charge
 *  changes in a pass (an operator's RawUsage change in between is in the
 *  next pass's snapshot); its "taken" time is the walk's, the older of the
 *  two, for the decision at start. A walk that does not meet every
 *  association (one outside the tree) leaves the save to copy everything
 *  under the read locks.
 *
 *  Order, so that nothing is charged twice: a pass charges, then its
 *  snapshot is written (with the pass's last_recalc and last_reset), then
 *  Prism's state file. Killed before the snapshot: both files are of the
 *  previous pass, the usage of this one is lost (at most one pass). Killed
 *  between the two: the snapshot's pass is newer than the state's, and at
 *  start its times are taken as the last pass's (charging from the state's
 *  older time would charge this pass twice). A snapshot older than the
 *  state (a later pass whose snapshot failed, or multifactor ran since)
 *  is stale and ignored. Its usage replaces what slurmctld loaded only
 *  when slurmctld's usage file was not saved after the snapshot was taken
 *  (a later save holds the same pass and the job ends charged since), or
 *  when that save was made during a pass that never ended: slurmctld
 *  saves every 5 minutes whatever a pass is doing, and between two of its
 *  slices the save holds the pass's decay and some of its charges. A pass
 *  marks when it begins (state_file.h: the pass-begun mark), before it
 *  changes any usage, so such a save is recognised (prism_usnap_decide()).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "src/common/assoc_mgr.h"
#include "src/common/pack.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "prism_format.h"
#include "prism_idmap.h"
#include "prism_usnap.h"
#include "state_file.h"
#include "usage_slurm.h"
#include "usage_snap.h"

#define SNAP_NAME "priority_prism_usage"
/* slurmctld's own association usage file (assoc_mgr.c) */
#define SLURM_USAGE_NAME "assoc_usage"

static const char plugin[] = PRISM_PLUGIN_TYPE;

/*
 * The image a pass's save builds: allocated (not cleared: only the pages
 * the records reach are touched) when the pass begins its copy, at the
 * size of the last image, grown as the records need, not to the size of
 * every TRES of every record, and freed once written, so that slurmctld
 * does not keep it between passes (60-76 bytes an association in
 * tests/bench/run.sh's worlds of 100,000);
 * the recalculation thread's only.
 */
static char *snap_buf;
static size_t snap_cap;
static size_t snap_last;	/* the last image's size */

typedef struct {
	size_t pos;		/* where the next record goes */
	size_t rec_max;		/* the most one record takes */
	size_t max;		/* the most the whole image takes */
	uint32_t tres_cnt;
	uint32_t n;		/* records put */
	uint32_t room;		/* records the list may put */
	bool failed;		/* out of memory */
} put_arg_t;

/*
 * Room in snap_buf for 'need' bytes: grown by half, or to 'need', never
 * beyond the whole image's most. False when out of memory (logged).
 */
static bool _grow(put_arg_t *a, size_t need)
{
	size_t want = snap_cap + snap_cap / 2;
	char *buf;

	if (need <= snap_cap)
		return true;
	if (a->failed)
		return false;
	want = want < need ? need : want > a->max ? a->max : want;
	/* (libc's realloc: the new room is not cleared, so only the pages
	 * the records reach are touched) */
	if (!(buf = realloc(snap_buf, want))) {
		error("%s: usage snapshot: out of memory (%zu bytes)", plugin,
		      want);
		a->failed = true;
		return false;
	}
	snap_buf = buf;
	snap_cap = want;
	return true;
}

/* Room for one more record and the checksum after it. */
static bool _room(put_arg_t *a)
{
	return _grow(a, a->pos + a->rec_max + 8);
}

/* list_for_each() on assoc_mgr_assoc_list: put the next record. Caller
 * holds the association read lock. */
static int _put_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	put_arg_t *a = arg;
	prism_usnap_rec_t r;

	if (!assoc->usage || (a->n == a->room) || !_room(a))
		return 0;
	r = (prism_usnap_rec_t) { .id = assoc->id,
				  .grp_used_wall = assoc->usage->grp_used_wall,
				  .usage_raw = assoc->usage->usage_raw };
	prism_usnap_put(snap_buf, &a->pos, a->tres_cnt, &r,
			assoc->usage->usage_tres_raw);
	a->n++;
	return 0;
}

/* The same for assoc_mgr_qos_list (QOS read lock). */
static int _put_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	put_arg_t *a = arg;
	prism_usnap_rec_t r;

	if (!qos->usage || (a->n == a->room) || !_room(a))
		return 0;
	r = (prism_usnap_rec_t) { .id = qos->id,
				  .grp_used_wall = qos->usage->grp_used_wall,
				  .usage_raw = qos->usage->usage_raw };
	prism_usnap_put(snap_buf, &a->pos, a->tres_cnt, &r,
			qos->usage->usage_tres_raw);
	a->n++;
	return 0;
}

/* The stage (see usage_snap.h): the recalculation thread's only (the list
 * of what was charged since is usage_slurm.c's). */
static struct {
	bool want;		/* the pass asked for it */
	bool begun;		/* put_arg and head are set */
	bool whole;		/* every association was put */
	put_arg_t a;
	prism_usnap_head_t h;
} stage;

/* The CPU time of the calling thread, in microseconds. */
static int64_t _cpu_usec(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (int64_t) t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/*
 * Begin a copy into snap_buf: the header's counts, TRES count and time
 * into *h, the walk's state into *a. Caller holds the association, QOS
 * and TRES locks (read or write). False when there is nothing to save or
 * no memory.
 */
static bool _copy_begin(put_arg_t *a, prism_usnap_head_t *h)
{
	if (!assoc_mgr_assoc_list || !assoc_mgr_qos_list)
		return false;
	*h = (prism_usnap_head_t) {
		.taken = time(NULL),
		.tres_cnt = prism_ctl_tres_cnt(),
		.assoc_cnt = list_count(assoc_mgr_assoc_list),
		.qos_cnt = list_count(assoc_mgr_qos_list),
	};
	*a = (put_arg_t) { .pos = PRISM_USNAP_HEAD,
			   .rec_max = prism_usnap_rec_max(h->tres_cnt),
			   .max = prism_usnap_max_size(h),
			   .tres_cnt = h->tres_cnt, .room = h->assoc_cnt };
	if (!a->max) {
		error("%s: usage snapshot: too many records", plugin);
		return false;
	}
	/* as much as the last image took, at least one TRES per record */
	return _grow(a, MIN(a->max,
			    MAX(snap_last,
				PRISM_USNAP_HEAD + 8 +
					(size_t) (h->assoc_cnt + h->qos_cnt) *
						prism_usnap_rec_max(1))));
}

/* The image is written (or given up): free it. */
static void _release(void)
{
	free(snap_buf);
	snap_buf = NULL;
	snap_cap = 0;
}

/*
 * After the associations: the QOS, and room for the checksum. Caller holds
 * the QOS and TRES locks (read or write).
 */
static bool _copy_end(put_arg_t *a, prism_usnap_head_t *h)
{
	h->assoc_cnt = a->n;
	a->n = 0;
	a->room = h->qos_cnt;
	list_for_each(assoc_mgr_qos_list, _put_qos, a);
	h->qos_cnt = a->n;
	return !a->failed && _room(a);
}

extern void prism_usage_snap_stage_want(bool want)
{
	stage.want = want;
	stage.begun = stage.whole = false;
}

extern bool prism_usage_snap_stage_begin(void)
{
	if (!stage.want || stage.begun ||
	    prism_state_dir_none())
		return false;
	stage.whole = false;
	stage.begun = _copy_begin(&stage.a, &stage.h);
	/* (more than a quarter charged after the walk: cheaper to copy all
	 * than to list them and grow the image) */
	if (stage.begun)
		prism_usage_charged_start(MAX(stage.h.assoc_cnt / 4, 1024));
	return stage.begun;
}

/*
 * Put again, after a whole stage, the 'n' associations charged since it
 * began, with their usage as of their last charge (usage_slurm.h): a
 * later record of an id replaces an earlier one when the image is read.
 */
static void _put_charged(put_arg_t *a, uint32_t n)
{
	for (uint32_t i = 0; i < n && _room(a); i++) {
		prism_usnap_rec_t r;
		const long double *tres = prism_usage_charged_get(i, &r);

		prism_usnap_put(snap_buf, &a->pos, a->tres_cnt, &r, tres);
		a->n++;
	}
}

extern void prism_usage_snap_stage_put(const slurmdb_assoc_rec_t *assoc)
{
	(void) _put_assoc((void *) assoc, &stage.a);
}

extern void prism_usage_snap_stage_done(bool all)
{
	stage.whole = stage.begun && all && !stage.a.failed;
}

/* How the save's copy went (for its log line). */
typedef struct {
	bool staged;		/* the associations were put by fair-share */
	uint32_t again;		/* of them, charged since and put again */
} copy_how_t;

/*
 * A whole stage: the 'n' associations charged since it began put again,
 * and the QOS added. The QOS count is today's, and the image's bounds
 * with it. Caller holds the QOS and TRES read locks. False when out of
 * memory.
 */
static bool _stage_end(uint32_t n)
{
	/* (the associations' room as counted at the begin) */
	stage.h.assoc_cnt += n;
	stage.a.room += n;
	stage.h.qos_cnt = list_count(assoc_mgr_qos_list);
	stage.a.max = prism_usnap_max_size(&stage.h);
	if (!stage.a.max) {
		error("%s: usage snapshot: too many records", plugin);
		return false;
	}
	_put_charged(&stage.a, n);
	return _copy_end(&stage.a, &stage.h);
}

/*
 * The usage into snap_buf under the read locks: from a whole stage when
 * there is one and every association charged since was kept, else every
 * record copied here. The records' end in *end, the image's header in
 * *h, how in *how. False when there is nothing to save or no memory.
 */
static bool _copy(prism_usnap_head_t *h, size_t *end, copy_how_t *how)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };
	put_arg_t a = { 0 };
	uint32_t n, tres_cnt;
	bool ok, listed;

	assoc_mgr_lock(&locks);
	listed = prism_usage_charged_stop(&n, &tres_cnt);
	how->staged = stage.whole && listed && assoc_mgr_qos_list &&
		      (tres_cnt == stage.h.tres_cnt);
	if (how->staged) {
		how->again = n;
		ok = _stage_end(n);
		a = stage.a;
		*h = stage.h;
	} else {
		ok = _copy_begin(&a, h);
		if (ok) {
			prism_assoc_list_walk(assoc_mgr_assoc_list,
					      h->tres_cnt, _put_assoc, &a);
			ok = _copy_end(&a, h);
		}
	}
	assoc_mgr_unlock(&locks);
	*end = a.pos;
	return ok;
}

/*
 * Write the image copied into snap_buf ('len' bytes so far, of header
 * 'h', copied as 'how' says from CPU time 'cpu0' on) for the pass 'st'.
 */
static void _write(const prism_state_t *st, prism_usnap_head_t *h,
		   size_t len, const copy_how_t *how, int64_t cpu0)
{
	int64_t cpu_copy = _cpu_usec();
	char staged[96] = "";

	h->last_recalc = st->last_recalc;
	h->last_reset = st->last_reset;
	len = prism_usnap_end(snap_buf, len, h);
	snap_last = len;
	log_flag(PRIO, "%s: usage snapshot: writing pass %" PRId64,
		 plugin, h->last_recalc);
	if (prism_state_file_write_own(SNAP_NAME, snap_buf, len))
		return;
	if (how->staged)
		snprintf(staged, sizeof(staged),
			 ": associations put by fair-share, %u charged since put again",
			 how->again);
	log_flag(PRIO, "%s: usage snapshot: written pass %" PRId64 ", %u association records, %u QOS, %zu bytes, CPU %" PRId64 " us (copy under the read locks %" PRId64 " us%s)",
		 plugin, h->last_recalc, h->assoc_cnt, h->qos_cnt, len,
		 _cpu_usec() - cpu0, cpu_copy - cpu0, staged);
}

extern void prism_usage_snap_save(const prism_state_t *st)
{
	prism_usnap_head_t h;
	int64_t cpu0 = _cpu_usec();
	copy_how_t how = { 0 };
	bool ok = false;
	size_t len;

	if (!prism_state_dir_none())
		ok = _copy(&h, &len, &how);
	prism_usage_snap_stage_want(false);
	if (ok)
		_write(st, &h, len, &how, cpu0);
	_release();
}

/* The leaf usage every association holds as slurmctld loaded it. */
typedef struct {
	prism_idmap_t *ids;	/* association id -> index in raw */
	long double *raw;	/* its leaf usage_raw; NAN without one */
	uint32_t n;
} loaded_t;

/* list_for_each() on assoc_mgr_assoc_list: note one association (the
 * association read lock is held). */
static int _note_loaded(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	loaded_t *l = arg;

	if (prism_idmap_put(l->ids, assoc->id, l->n))
		return -1;
	l->raw[l->n++] = assoc->leaf_usage ? assoc->leaf_usage->usage_raw :
					     NAN;
	return 0;
}

/*
 * The header time of slurmctld's usage file 'name' (in StateSaveLocation)
 * and, given the usage loaded 'l', only when it is the save this slurmctld
 * loaded: every record of an association that still exists holds the leaf
 * usage that association has now (load_assoc_usage() puts each record's
 * usage_raw there as the same text makes it; nothing but a pass changes it
 * before the plugin starts). 0 when there is no such file, -1 when it is
 * not that save, -2 when it cannot be read.
 */
static int64_t _loaded_save(const char *name, const loaded_t *l)
{
	char *dir = prism_state_dir();
	char *path = xstrdup_printf("%s/%s", dir, name);
	buf_t *buffer = create_mmap_buf(path);
	uint16_t ver = 0;
	time_t saved = 0;
	int64_t rc;

	xfree(dir);
	xfree(path);
	if (!buffer)
		return 0;
	rc = (unpack16(&ver, buffer) || unpack_time(&saved, buffer)) ?
		-2 : saved;
	while (l && (rc > 0) && (remaining_buf(buffer) > 0)) {
		uint32_t id = 0, wall = 0, len = 0, at = 0;
		long double raw = 0;
		char *tres = NULL;

		if (unpack32(&id, buffer) || unpacklongdouble(&raw, buffer) ||
		    unpackmem_ptr(&tres, &len, buffer) ||
		    unpack32(&wall, buffer))
			rc = -2;
		else if (prism_idmap_get(l->ids, id, &at) &&
			 !(l->raw[at] == raw))
			rc = -1;
	}
	free_buf(buffer);
	return rc;
}

/*
 * When slurmctld saved the association usage it loaded; 0 when it loaded
 * none. Its usage file's header says when it was saved, but another
 * slurmctld may have replaced the file after this one loaded it: a backup
 * that gives up control saves its state only after it has answered the
 * primary's request (slurmctld logs "Old state possible"), while the
 * primary is reading the same files. Only when the header is newer than
 * the snapshot 'taken' (where it decides) is the loaded usage compared
 * with the file's, and then with assoc_usage.old's (the save it replaced).
 * A usage matching neither is taken as older than the snapshot: applying
 * the snapshot loses at most the job ends charged since its pass.
 */
static int64_t _slurm_saved(int64_t taken)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK };
	int64_t now_file = _loaded_save(SLURM_USAGE_NAME, NULL);
	loaded_t l = { 0 };
	int64_t cur = -1, old = -1;
	uint32_t cnt;

	if (now_file <= taken)
		return now_file < 0 ? 0 : now_file;
	assoc_mgr_lock(&locks);
	cnt = assoc_mgr_assoc_list ? list_count(assoc_mgr_assoc_list) : 0;
	l.ids = prism_idmap_create();
	l.raw = xcalloc(cnt ? cnt : 1, sizeof(*l.raw));
	if (l.ids && assoc_mgr_assoc_list &&
	    list_for_each(assoc_mgr_assoc_list, _note_loaded, &l) < 0)
		l.n = UINT32_MAX;
	assoc_mgr_unlock(&locks);
	if (!l.ids || (l.n == UINT32_MAX)) {
		error("%s: usage snapshot: out of memory comparing slurmctld's usage file; taking it as saved at %" PRId64,
		      plugin, now_file);
		cur = now_file;
		goto done;
	}
	if ((cur = _loaded_save(SLURM_USAGE_NAME, &l)) >= 0)
		goto done;
	if (cur == -2) {
		error("%s: slurmctld's usage file %s: its records cannot be read; taking it as the save this slurmctld loaded (saved at %" PRId64 ")",
		      plugin, SLURM_USAGE_NAME, now_file);
		cur = now_file;
		goto done;
	}
	old = _loaded_save(SLURM_USAGE_NAME ".old", &l);
	if (old > 0)
		info("%s: slurmctld's usage file %s (saved at %" PRId64 ") was replaced after this slurmctld loaded it (another slurmctld saving as it gave up control): the usage loaded is that of %s.old, saved at %" PRId64,
		     plugin, SLURM_USAGE_NAME, now_file, SLURM_USAGE_NAME,
		     old);
	else
		info("%s: slurmctld's usage file %s (saved at %" PRId64 ") is not the one this slurmctld loaded, nor is %s.old: the usage loaded is taken as older than the snapshot",
		     plugin, SLURM_USAGE_NAME, now_file, SLURM_USAGE_NAME);
	cur = old > 0 ? old : 0;
done:
	prism_idmap_free(l.ids);
	xfree(l.raw);
	return cur;
}

typedef struct {
	const char *buf;
	const prism_usnap_head_t *h;
	prism_idmap_t *ids;	/* id -> record offset */
	bool tres;		/* the TRES count is unchanged */
	uint32_t applied;
} apply_arg_t;

/* Map the ids of the next 'n' records of the image, from *pos on, to
 * their offsets in 'ids' (a later record of an id replaces an earlier
 * one); false when out of memory. */
static bool _index(const char *buf, const prism_usnap_head_t *h,
		   size_t *pos, uint32_t n, prism_idmap_t *ids)
{
	for (uint32_t i = 0; i < n; i++) {
		prism_usnap_rec_t r;
		uint32_t at = (uint32_t) *pos;

		prism_usnap_next(buf, h, pos, &r, NULL);
		if (prism_idmap_put(ids, r.id, at))
			return false;
	}
	return true;
}

/* list_for_each() on assoc_mgr_assoc_list: an association's usage from
 * its record in the image, if it has one. Caller holds the write lock. */
static int _apply_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	apply_arg_t *a = arg;
	prism_usnap_rec_t r;
	uint32_t at;
	size_t pos;

	if (!assoc->usage || !prism_idmap_get(a->ids, assoc->id, &at))
		return 0;
	pos = at;
	prism_usnap_next(a->buf, a->h, &pos, &r,
			 a->tres ? assoc->usage->usage_tres_raw : NULL);
	assoc->usage->usage_raw = r.usage_raw;
	assoc->usage->grp_used_wall = r.grp_used_wall;
	a->applied++;
	return 0;
}

/* The same for assoc_mgr_qos_list (QOS write lock). */
static int _apply_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	apply_arg_t *a = arg;
	prism_usnap_rec_t r;
	uint32_t at;
	size_t pos;

	if (!qos->usage || !prism_idmap_get(a->ids, qos->id, &at))
		return 0;
	pos = at;
	prism_usnap_next(a->buf, a->h, &pos, &r,
			 a->tres ? qos->usage->usage_tres_raw : NULL);
	qos->usage->usage_raw = r.usage_raw;
	qos->usage->grp_used_wall = r.grp_used_wall;
	a->applied++;
	return 0;
}

/* Put the usage of the checked image 'buf' of 'h' into the association
 * and QOS records (by id), and log how many. Takes the write locks. */
static void _apply(const char *buf, const prism_usnap_head_t *h)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	prism_idmap_t *assoc_ids = prism_idmap_create();
	prism_idmap_t *qos_ids = prism_idmap_create();
	apply_arg_t a = { .buf = buf, .h = h };
	uint32_t assocs = 0, qos = 0;
	size_t pos = PRISM_USNAP_HEAD;

	if (!assoc_ids || !qos_ids ||
	    !_index(buf, h, &pos, h->assoc_cnt, assoc_ids) ||
	    !_index(buf, h, &pos, h->qos_cnt, qos_ids)) {
		error("%s: usage snapshot: out of memory; not applied",
		      plugin);
		goto done;
	}
	assoc_mgr_lock(&locks);
	a.tres = (prism_ctl_tres_cnt() == h->tres_cnt);
	if (!a.tres)
		error("%s: usage snapshot: it has %u TRES, slurmctld %u: TRES usage left as slurmctld loaded it",
		      plugin, h->tres_cnt, prism_ctl_tres_cnt());
	if (assoc_mgr_assoc_list) {
		a.ids = assoc_ids;
		list_for_each(assoc_mgr_assoc_list, _apply_assoc, &a);
		assocs = a.applied;
	}
	if (assoc_mgr_qos_list) {
		a.ids = qos_ids;
		a.applied = 0;
		list_for_each(assoc_mgr_qos_list, _apply_qos, &a);
		qos = a.applied;
	}
	assoc_mgr_unlock(&locks);
	/* (an association put again after its charge is counted once) */
	info("%s: usage snapshot of the pass at %" PRId64 " (taken at %" PRId64 ") applied to %u of its %u associations and %u of its %u QOS (the others no longer exist)",
	     plugin, h->last_recalc, h->taken, assocs,
	     prism_idmap_count(assoc_ids), qos, h->qos_cnt);
done:
	prism_idmap_free(assoc_ids);
	prism_idmap_free(qos_ids);
}

extern int prism_usage_snap_load(prism_state_t *st)
{
	prism_usnap_head_t h;
	prism_usnap_use_t use;
	prism_error_t err = { "" };
	char *buf = NULL;
	size_t len = 0;
	int64_t saved, begun;
	int rc = SLURM_SUCCESS;

	if (!slurm_with_slurmdbd() ||
	    prism_state_dir_none())
		return SLURM_SUCCESS;
	begun = prism_state_begun_read();
	if (!prism_state_file_read(SNAP_NAME, &buf, &len))
		return SLURM_SUCCESS;
	if ((rc = prism_usnap_parse(buf, len, &h, &err)) ==
	    PRISM_FORMAT_NEWER) {
		error("%s: %s/%s: %s; not read, and this Prism does not start (start the later Prism again, or move the file away to start this one without it)",
		      plugin, slurm_conf.state_save_location, SNAP_NAME,
		      err.text);
		rc = SLURM_ERROR;
		goto done;
	}
	if (rc) {
		error("%s: usage snapshot %s is damaged (%s); ignored",
		      plugin, SNAP_NAME, err.text);
		rc = SLURM_SUCCESS;
		goto done;
	}
	saved = _slurm_saved(h.taken);
	use = prism_usnap_decide(&h, st->last_recalc, saved, begun);
	if (use.adopt_times) {
		info("%s: usage snapshot of the pass at %" PRId64 " is newer than the state's %" PRId64 " (killed in between): continuing from that pass",
		     plugin, h.last_recalc, (int64_t) st->last_recalc);
		st->last_recalc = h.last_recalc;
		st->last_reset = h.last_reset;
	}
	if (use.in_pass)
		info("%s: slurmctld saved its usage at %" PRId64 ", during the pass begun at %" PRId64 ", which did not end (the controller stopped in it): that save may hold some of the pass's decay and charges, so the usage snapshot of the pass at %" PRId64 " is put back instead (job ends charged since that pass are lost, nothing is charged twice)",
		     plugin, saved, begun, h.last_recalc);
	if (use.apply)
		_apply(buf, &h);
	else
		info("%s: usage snapshot of the pass at %" PRId64 " not applied (slurmctld saved its usage at %" PRId64 ", the last pass was at %" PRId64 ")",
		     plugin, h.last_recalc, saved, (int64_t) st->last_recalc);
done:
	xfree(buf);
	return rc;
}

extern void prism_usage_snap_fini(void)
{
	_release();
	snap_last = 0;
	prism_usage_snap_stage_want(false);
	prism_usage_charged_fini();
}
