/*****************************************************************************\
 *  sprio.c - sprio's factor list: the rows of the jobs a request selects
 *  and its user may see, one per partition, with the columns the policy
 *  in force filled.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stddef.h>

#include "src/common/assoc_mgr.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "jobrec.h"
#include "policy.h"
#include "sprio.h"

/* May 'uid' see 'job_ptr' under PrivateData=jobs? */
static bool _may_see(const job_record_t *job_ptr, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS))
		return true;
	if (job_ptr->user_id == uid || validate_operator(uid))
		return true;
	if (slurm_mcs_get_privatedata() == 1)
		return mcs_g_check_mcs_label(uid, job_ptr->mcs_label, false) ==
		       0;
	return prism_is_coord(*prism_ctl.acct_db_conn, uid, job_ptr->account);
}

/* Is 'job_ptr' one sprio lists at 'now'? */
static bool _listed(const job_record_t *job_ptr,
		    const prism_prio_conf_t *conf, time_t now)
{
	time_t eligible;

	if (!(conf->flags & PRISM_F_CALCULATE_RUNNING) &&
	    !IS_JOB_PENDING(job_ptr))
		return false;
	if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
		return false;
	eligible = (conf->flags & PRISM_F_ACCRUE_ALWAYS) ?
		   job_ptr->details->submit_time :
		   job_ptr->details->begin_time;
	if (!eligible || eligible > now)
		return false;
	return job_ptr->priority != 0;	/* held */
}

/* What a factor list is built for. */
typedef struct {
	list_t *ret;
	prism_prio_conf_t conf;
	prism_policy_inst_t *inst;	/* whose columns */
	bool own;			/* the policy's own columns */
	struct row_block *block;	/* where the next row is cut from */
	struct row_tres *tres;		/* the TRES weights and names */
#ifndef PRISM_SPRIO_UID_ONLY
	priority_factors_request_msg_t *req_msg;	/* NULL: all */
	list_t *part_filter;
#endif
} rows_t;

/*
 * A row (with, from Slurm 23.02 on, its factors object) and its TRES
 * arrays are cut in one piece from a block of ROW_BLOCK bytes, one
 * allocation for a few hundred rows where copying the job's factors costs
 * three allocations a row (five from 23.02 on). slurmctld frees the list
 * with the destructor it was created with (this file's), a row at a time:
 * a block is freed with the last of its rows. A row points to the job's
 * and partition's strings, and to the shared TRES names: nothing else is
 * freed. From 23.02 on the caller packs the list before it lets go of the
 * job lock (PRISM_SPRIO_CALLER_LOCKS); 22.05 packs it after this file let
 * go, and its multifactor's rows point to the partition's name as these
 * do. So a row's numbers are copies: on 22.05 a pass may rewrite or
 * reallocate the job's own arrays before the pack.
 */
#define ROW_BLOCK (64 * 1024)

/*
 * The TRES weights and names are the same in the rows of (nearly) every
 * job: the rows whose arrays are equal to the first row's point to one
 * copy of them per list, freed with the last block holding such a row,
 * instead of carrying their own (a third of a row's bytes, and sprio's
 * time goes mostly to the memory its rows are written to).
 */
typedef struct row_tres {
	uint32_t blocks;	/* blocks whose rows point to it */
	uint32_t cnt;
	double *weights;	/* NULL: none shared */
	char **names;		/* NULL: none shared */
} row_tres_t;

typedef struct row_block {
	uint32_t rows;		/* rows of the block not yet freed */
	size_t used;		/* bytes cut from it, this header included */
	size_t size;
	row_tres_t *tres;	/* what its rows share, or NULL */
} row_block_t;

typedef struct {
	row_block_t *block;
	priority_factors_object_t obj;	/* what the list holds */
#ifdef PRISM_SPRIO_ROW_FACTORS
	priority_factors_t factors;	/* obj.prio_factors, unless direct */
#endif
} row_t;

static void _row_free(void *x)
{
	row_block_t *b;
	row_tres_t *t;

	if (!x)
		return;
	/* (xfree() clears the pointer it is given: not one in the block) */
	b = ((row_t *) ((char *) x - offsetof(row_t, obj)))->block;
	if (__atomic_sub_fetch(&b->rows, 1, __ATOMIC_ACQ_REL))
		return;
	t = b->tres;
	if (t && !__atomic_sub_fetch(&t->blocks, 1, __ATOMIC_ACQ_REL))
		xfree(t);
	xfree(b);
}

/* The arrays the rows share, copied from the first row's factors that
 * have any ('weights': theirs, prism_job_factors_weights()). */
static row_tres_t *_tres_shared(rows_t *rows, const prism_factors_t *src,
				const double *weights)
{
	uint32_t cnt = src->tres_cnt;
	row_tres_t *t;

	if (rows->tres || !cnt || (!weights && !src->tres_names))
		return rows->tres;
	t = xmalloc(sizeof(*t) + (sizeof(double) + sizeof(char *)) * cnt);
	t->cnt = cnt;
	if (weights) {
		t->weights = (double *) (t + 1);
		memcpy(t->weights, weights, sizeof(double) * cnt);
	}
	if (src->tres_names) {
		t->names = (char **) ((double *) (t + 1) + cnt);
		memcpy(t->names, src->tres_names, sizeof(char *) * cnt);
	}
	return rows->tres = t;
}

/* 'size' bytes, zeroed, for a row, from rows->block or a new block. */
static row_t *_row_alloc(rows_t *rows, size_t size)
{
	const size_t head = (sizeof(row_block_t) + 15) & ~(size_t) 15;
	row_block_t *b = rows->block;
	row_t *row;

	size = (size + 15) & ~(size_t) 15;
	if (!b || (b->used + size > b->size)) {
		size_t bsize = MAX(ROW_BLOCK, head + size);

		b = xmalloc_nz(bsize);
		*b = (row_block_t) { .used = head, .size = bsize };
		rows->block = b;
	}
	row = (row_t *) ((char *) b + b->used);
	b->used += size;
	b->rows++;
	memset(row, 0, size);
	row->block = b;
	return row;
}

/* The factors of 'row' (from Slurm 23.02 on, apart from the object). */
static prism_factors_t *_row_factors(row_t *row)
{
#ifdef PRISM_SPRIO_ROW_FACTORS
	return &row->factors;
#else
	return &row->obj;
#endif
}

/* What names 'row' in the list: its job, partition (and, from 23.02 on,
 * account and QOS), or the admin-set priority it shows. */
static void _row_name(row_t *row, const job_record_t *job_ptr,
		      part_record_t *part_ptr,
		      const slurmdb_qos_rec_t *qos_ptr, bool direct)
{
	priority_factors_object_t *obj = &row->obj;

	prism_sprio_row_job(obj, job_ptr);
	obj->partition = part_ptr->name;
	obj->user_id = job_ptr->user_id;
#ifdef PRISM_SPRIO_ROW_FACTORS
	obj->account = job_ptr->account;
	obj->qos = qos_ptr ? qos_ptr->name :
		   job_ptr->qos_ptr ? job_ptr->qos_ptr->name : NULL;
	if (!direct)
		obj->prio_factors = &row->factors;
#endif
	if (direct)
		obj->direct_prio = job_ptr->priority;
}

/*
 * A new row of 'job_ptr' in 'part_ptr' with 'qos_ptr' (NULL: its own;
 * multi-QOS jobs), appended to 'ret'. Returns its factors, copied from
 * the job's for the caller to adjust; NULL when the row shows an
 * admin-set priority.
 */
static prism_factors_t *_row_add(rows_t *rows, const job_record_t *job_ptr,
				 part_record_t *part_ptr,
				 const slurmdb_qos_rec_t *qos_ptr, bool direct)
{
	const prism_factors_t *src = direct ? NULL : job_ptr->prio_factors;
	const double *w = src ? prism_job_factors_weights(src) : NULL;
	uint32_t cnt = src ? src->tres_cnt : 0;
	/* (values without weights would have sprio -n divide by nothing) */
	size_t tres = (src && src->priority_tres && w) ? cnt : 0;
	size_t weights = w ? cnt : 0;
	size_t names = (src && src->tres_names) ? cnt : 0;
	row_tres_t *sh = src ? _tres_shared(rows, src, w) : NULL;
	bool sh_weights = weights && sh && sh->weights && (sh->cnt == cnt) &&
			  !memcmp(sh->weights, w, sizeof(double) * cnt);
	bool sh_names = names && sh && sh->names && (sh->cnt == cnt) &&
			!memcmp(sh->names, src->tres_names,
				sizeof(char *) * cnt);
	row_t *row;
	prism_factors_t *f;
	double *d;

	if (sh_weights)
		weights = 0;
	if (sh_names)
		names = 0;
	row = _row_alloc(rows, sizeof(row_t) +
				       sizeof(double) * (tres + weights) +
				       sizeof(char *) * names);
	f = _row_factors(row);
	d = (double *) (row + 1);
	if ((sh_weights || sh_names) && !row->block->tres) {
		row->block->tres = sh;
		sh->blocks++;
	}
	if (src) {
		*f = *src;
		if (!tres)
			f->tres_cnt = 0;
		f->priority_tres = tres ? d : NULL;
		f->tres_weights = sh_weights ? sh->weights :
				  weights ? d + tres : NULL;
		f->tres_names = sh_names ? sh->names :
				names ? (char **) (d + tres + weights) : NULL;
		if (tres)
			memcpy(f->priority_tres, src->priority_tres,
			       sizeof(double) * tres);
		if (weights)
			memcpy(f->tres_weights, w, sizeof(double) * weights);
		if (names)
			memcpy(f->tres_names, src->tres_names,
			       sizeof(char *) * names);
	}
	_row_name(row, job_ptr, part_ptr, qos_ptr, direct);
	list_append(rows->ret, &row->obj);
	return direct ? NULL : f;
}

#ifdef PRISM_SPRIO_ROW_FACTORS
/* Does a row of an admin-set job show its priority? Always. */
static bool _direct(const job_record_t *job_ptr, bool one_entry, bool own)
{
	return job_ptr->direct_set_prio;
}
#else
/* Does a row of an admin-set job show its priority? Under multifactor
 * only when the job has one partition (22.05's multifactor). */
static bool _direct(const job_record_t *job_ptr, bool one_entry, bool own)
{
	return job_ptr->direct_set_prio && (one_entry || own);
}
#endif

#ifdef PRISM_SPRIO_UID_ONLY
static bool _job_wanted(const job_record_t *job_ptr, const rows_t *rows)
{
	return true;	/* sprio filters by job, user and partition itself */
}

static bool _part_wanted(const rows_t *rows, part_record_t *part_ptr)
{
	return true;
}
#else

static bool _uint_in_list(list_t *list, uint32_t value)
{
	uint32_t *v;
	list_itr_t *itr;
	bool found = false;

	if (!list)
		return true;
	itr = list_iterator_create(list);
	while ((v = list_next(itr)))
		if (*v == value) {
			found = true;
			break;
		}
	list_iterator_destroy(itr);
	return found;
}

/* (23.02 and 23.11: a request of a newer sprio is NULL, and sprio
 * filters itself) */
static bool _job_wanted(const job_record_t *job_ptr, const rows_t *rows)
{
	if (!rows->req_msg)
		return true;
	return _uint_in_list(rows->req_msg->job_id_list, job_ptr->job_id) &&
	       _uint_in_list(rows->req_msg->uid_list, job_ptr->user_id);
}

static int _same_ptr(void *x, void *key)
{
	return x == key;
}

static bool _part_wanted(const rows_t *rows, part_record_t *part_ptr)
{
	return !rows->part_filter ||
	       list_find_first(rows->part_filter, _same_ptr, part_ptr);
}

static list_t *_part_filter(const priority_factors_request_msg_t *req_msg)
{
	const char *names = req_msg ? req_msg->partitions : NULL;
	list_t *filter;
	char *copy, *tok, *save = NULL;

	if (!names)
		return NULL;
	filter = list_create(NULL);
	copy = xstrdup(names);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		part_record_t *part_ptr = find_part_record(tok);

		if (part_ptr)
			list_append(filter, part_ptr);
	}
	xfree(copy);
	return filter;
}
#endif

/* One job's rows while they are added: where the next entry is. */
typedef struct {
	rows_t *rows;
	const job_record_t *job_ptr;
	part_record_t *part_ptr;	/* this partition */
	bool multi_part;
	bool one_entry;
	int i;				/* the entry's index */
} job_rows_t;

static int _add_entry(void *x, void *arg)
{
	job_rows_t *j = arg;
	slurmdb_qos_rec_t *qos_ptr = x;
	rows_t *rows = j->rows;
	prism_factors_t *f;

	if (_part_wanted(rows, j->part_ptr)) {
		f = _row_add(rows, j->job_ptr, j->part_ptr, qos_ptr,
			     _direct(j->job_ptr, j->one_entry, rows->own));
		if (f && !j->one_entry)
			prism_policy_sprio_entry(
				rows->inst, f, j->job_ptr,
				j->multi_part ? j->part_ptr : NULL, qos_ptr,
				j->i, &rows->conf);
	}
	j->i++;
	return 0;
}

static void _add_part(job_rows_t *j, part_record_t *part_ptr)
{
	list_t *qos_list = prism_job_qos_list(j->job_ptr);

	j->part_ptr = part_ptr;
	if (qos_list)
		(void) list_for_each(qos_list, _add_entry, j);
	else
		(void) _add_entry(NULL, j);
}

/* list_for_each() over a job's partitions: the rows of one. */
static int _add_part_of(void *x, void *arg)
{
	_add_part(arg, x);
	return 0;
}

static void _add_job_rows(const job_record_t *job_ptr, rows_t *rows)
{
	job_rows_t j = { .rows = rows, .job_ptr = job_ptr };

	if (!_job_wanted(job_ptr, rows))
		return;
	j.multi_part = job_ptr->part_ptr_list != NULL;
	j.one_entry = !j.multi_part && !prism_job_qos_list(job_ptr);
	if (!j.multi_part) {
		if (job_ptr->part_ptr)
			_add_part(&j, job_ptr->part_ptr);
		return;
	}
	/* (one lock of the list, and no iterator to allocate) */
	(void) list_for_each(job_ptr->part_ptr_list, _add_part_of, &j);
}

/* What _add_listed() needs besides the rows. */
typedef struct {
	rows_t *rows;
	uid_t uid;
	time_t now;
} add_arg_t;

static int _add_listed(void *x, void *arg)
{
	const job_record_t *job_ptr = x;
	add_arg_t *a = arg;

	if (_listed(job_ptr, &a->rows->conf, a->now) &&
	    _may_see(job_ptr, a->uid))
		_add_job_rows(job_ptr, a->rows);
	return 0;
}

/*
 * job_list in a pipeline: a job's record is asked for (prefetched) when
 * the list hands it over, its details and factors STAGE jobs later, its
 * factors' TRES array STAGE after that, and it is listed STAGE after
 * that: the cache misses of scattered records overlap instead of
 * stalling the walk one after the other. The job read lock is held
 * throughout.
 */
#define STAGE 4
#define RING 16		/* > 3 * STAGE */

typedef struct {
	add_arg_t *arg;
	job_record_t *ring[RING];
	uint32_t n;		/* jobs handed over so far */
} job_pipe_t;

static void _prefetch_more(const job_record_t *job_ptr)
{
	if (job_ptr->details)
		__builtin_prefetch(&job_ptr->details->begin_time);
	if (job_ptr->prio_factors)
		__builtin_prefetch(job_ptr->prio_factors);
}

static void _prefetch_tres(const job_record_t *job_ptr)
{
	if (job_ptr->prio_factors && job_ptr->prio_factors->priority_tres)
		__builtin_prefetch(job_ptr->prio_factors->priority_tres);
}

static int _job_piped(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	job_pipe_t *p = arg;
	uint32_t n = p->n;

	__builtin_prefetch(&job_ptr->job_state);
	__builtin_prefetch(&job_ptr->details);
	__builtin_prefetch(&job_ptr->prio_factors);
	if (n >= STAGE)
		_prefetch_more(p->ring[(n - STAGE) % RING]);
	if (n >= 2 * STAGE)
		_prefetch_tres(p->ring[(n - 2 * STAGE) % RING]);
	if (n >= 3 * STAGE)
		(void) _add_listed(p->ring[(n - 3 * STAGE) % RING], p->arg);
	p->ring[n % RING] = job_ptr;
	p->n++;
	return 0;
}

/* Every listed job's rows into rows->ret. Caller holds the job read
 * lock (one walk of job_list: one lock of the list, not one a job). */
static void _add_rows(rows_t *rows, uid_t uid)
{
	add_arg_t arg = { .rows = rows, .uid = uid, .now = time(NULL) };
	job_pipe_t p = { .arg = &arg };

	if (!*prism_ctl.job_list)
		return;
	(void) list_for_each(*prism_ctl.job_list, _job_piped, &p);
	/* the jobs still in the pipeline */
	for (uint32_t i = p.n > 3 * STAGE ? p.n - 3 * STAGE : 0; i < p.n; i++)
		(void) _add_listed(p.ring[i % RING], &arg);
}

#ifdef PRISM_SPRIO_UID_ONLY
extern list_t *prism_sprio_list(uid_t uid)
{
	rows_t rows = { .inst = prism_policy_get() };

	rows.own = prism_policy_own_columns(rows.inst);
	prism_conf_get(&rows.conf);
	rows.ret = list_create(_row_free);
	_add_rows(&rows, uid);
	prism_policy_put(rows.inst);
	if (!list_count(rows.ret))
		FREE_NULL_LIST(rows.ret);
	return rows.ret;
}
#else
extern list_t *prism_sprio_list(priority_factors_request_msg_t *req_msg,
				uid_t uid)
{
#if !PRISM_SPRIO_CALLER_LOCKS
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
#endif
	rows_t rows = { .req_msg = req_msg, .inst = prism_policy_get() };

	rows.own = prism_policy_own_columns(rows.inst);
	prism_conf_get(&rows.conf);
#if !PRISM_SPRIO_CALLER_LOCKS
	lock_slurmctld(job_read_lock);
#endif
	rows.part_filter = _part_filter(req_msg);
	if (*prism_ctl.job_list) {
		rows.ret = list_create(_row_free);
		_add_rows(&rows, uid);
		if (!list_count(rows.ret))
			FREE_NULL_LIST(rows.ret);
	}
#if !PRISM_SPRIO_CALLER_LOCKS
	unlock_slurmctld(job_read_lock);
#endif
	FREE_NULL_LIST(rows.part_filter);
	prism_policy_put(rows.inst);
	return rows.ret;
}
#endif
