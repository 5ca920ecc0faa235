/*****************************************************************************\
 *  cli_compare.c - `prism compare JOBID OTHERJOBID`: which terms decide
 *  the order of two pending jobs and by how much, under any of Prism's
 *  policies. The terms are sprio's columns as the plugin filled them
 *  (each policy's mapping of its components onto them is in
 *  priority_prism(5)); prism_compare (core) finds the deciding ones.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_compare.h"
#include "cli_diag.h"
#include "prism_cli.h"
#include "prism_compare.h"
#include "prism_marks.h"

#define COLUMNS 8	/* age .. nice; the TRES columns follow */

/* Each column's name under each policy (what the policy puts there). */
static const char *_label(prism_policy_t kind, size_t i)
{
	static const char *mf[COLUMNS] = {
		"age", "assoc", "fairshare", "jobsize", "partition", "qos",
		"site", "nice",
	};
	static const char *moab[COLUMNS] = {
		"AGE (SERV)", "ASSOC (CRED)", "FAIRSHARE (FS)", "JOBSIZE (RES)",
		"PARTITION (ATTR)", "QOS (TARGET+USAGE)", "SITE (rest)",
		"NICE",
	};
	static const char *ge[COLUMNS] = {
		"AGE (urgency)", "ASSOC (tickets)", "FAIRSHARE", "JOBSIZE",
		"PARTITION", "QOS (POSIX priority)", "SITE (offset)", "NICE",
	};

	if (kind == PRISM_POLICY_MOAB)
		return moab[i];
	if (kind == PRISM_POLICY_GRIDENGINE)
		return ge[i];
	return mf[i];
}

/* sprio's row 'f' as terms (nice counted against the job, as sprio
 * subtracts it); returns how many. */
static size_t _terms(const priority_factors_object_t *f, double *v,
		     prism_cols_t *c)
{
	size_t n = 0;

	cli_cols_read(f, c);
	v[n++] = c->age;
	v[n++] = c->assoc;
	v[n++] = c->fs;
	v[n++] = c->js;
	v[n++] = c->part;
	v[n++] = c->qos;
	v[n++] = (double) ((int64_t) c->site - PRISM_NICE_OFFSET);
	v[n++] = (double) ((int64_t) PRISM_NICE_OFFSET - c->nice);
	for (uint32_t i = 0; c->tres && i < c->tres_cnt &&
			     n < PRISM_COMPARE_MAX; i++)
		v[n++] = c->tres[i];
	return n;
}

/* Job 'id''s sprio row in partition 'part' (NULL: its first row). */
static const priority_factors_object_t *_row(const cli_records_t *r,
					     uint32_t id, const char *part)
{
	for (uint32_t i = 0; i < r->factor_cnt; i++) {
		const priority_factors_object_t *f = r->factors[i];

		if (CLI_ROW_JOB_ID(f) == id &&
		    (!part || (f->partition && !strcmp(f->partition, part))))
			return f;
	}
	return NULL;
}

/* The two rows to compare: in a partition both jobs share when there is
 * one (the order that matters there), else each job's first row. */
static void _rows(const cli_records_t *r, uint32_t a, uint32_t b,
		  const priority_factors_object_t **fa,
		  const priority_factors_object_t **fb)
{
	*fa = _row(r, a, NULL);
	*fb = _row(r, b, NULL);
	for (uint32_t i = 0; *fa && i < r->factor_cnt; i++) {
		const priority_factors_object_t *f = r->factors[i];
		const priority_factors_object_t *g;

		if (CLI_ROW_JOB_ID(f) != a || !f->partition)
			continue;
		g = _row(r, b, f->partition);
		if (g) {
			*fa = f;
			*fb = g;
			return;
		}
	}
}

/* Why job 'id' cannot be compared, on 'err'; CLI_ERROR. */
static int _no_row(const cli_records_t *r, uint32_t id, FILE *err)
{
	const slurm_job_info_t *job = NULL;

	for (uint32_t i = 0; r->jobs && i < r->jobs->record_count; i++)
		if (r->jobs->job_array[i].job_id == id)
			job = &r->jobs->job_array[i];
	if (!job)
		fprintf(err, "prism: job %" PRIu32 ": not found (or not visible to you)\n",
			id);
	else if (!cli_job_pending(job))
		fprintf(err, "prism: job %" PRIu32 ": not pending: only pending jobs are ranked\n",
			id);
	else
		fprintf(err, "prism: job %" PRIu32 ": pending but not ranked (held, or not eligible yet)\n",
			id);
	return CLI_ERROR;
}

/* The row's priority as sprio prints it (the sum of its columns). */
static uint32_t _prio(const priority_factors_object_t *f, const double *v,
		      size_t n)
{
	double sum = 0;

	if (f->direct_prio > 0)
		return prism_cols_prio32(f->direct_prio);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return prism_cols_prio32(sum);
}

static const char *_name(prism_policy_t kind, const prism_cols_t *c,
			 const priority_factors_object_t *f, size_t i,
			 char *buf, size_t size)
{
	char **names = NULL;
	double *weights = NULL;

	if (i < COLUMNS)
		return _label(kind, i);
	cli_row_tres(f, &names, &weights);
	snprintf(buf, size, "tres %s",
		 names && c->tres && i - COLUMNS < c->tres_cnt &&
				 names[i - COLUMNS] ?
			 names[i - COLUMNS] : "?");
	return buf;
}

static void _header(const priority_factors_object_t *fa,
		    const priority_factors_object_t *fb, uint32_t pa,
		    uint32_t pb, FILE *out)
{
	fprintf(out, "job %" PRIu32 " (partition %s) priority %" PRIu32 "  vs  job %" PRIu32 " (partition %s) priority %" PRIu32 "\n",
		CLI_ROW_JOB_ID(fa), fa->partition ? fa->partition : "-", pa,
		CLI_ROW_JOB_ID(fb), fb->partition ? fb->partition : "-", pb);
	fprintf(out, "  %-22s %14" PRIu32 " %14" PRIu32 " %14s\n", "term",
		CLI_ROW_JOB_ID(fa), CLI_ROW_JOB_ID(fb), "difference");
}

static void _table(prism_policy_t kind, const prism_compare_t *cmp,
		   const double *va, const double *vb,
		   const priority_factors_object_t *fa, prism_cols_t *ca,
		   FILE *out)
{
	char buf[80];

	for (size_t k = 0; k < cmp->n; k++) {
		size_t i = cmp->order[k];

		if (va[i] == 0 && vb[i] == 0)
			continue;
		fprintf(out, "  %-22s %14.2f %14.2f %+14.2f%s\n",
			_name(kind, ca, fa, i, buf, sizeof(buf)), va[i], vb[i],
			cmp->diff[i], cmp->decides[i] ? "  decides" : "");
	}
}

/* The conclusion: who runs first and which terms decide. */
static void _verdict(prism_policy_t kind, const prism_compare_t *cmp,
		     const priority_factors_object_t *fa,
		     const priority_factors_object_t *fb, uint32_t pa,
		     uint32_t pb, prism_cols_t *ca, FILE *out)
{
	const priority_factors_object_t *win, *lose;
	char buf[80];
	size_t shown = 0;

	if (cli_rank_cmp(pa, CLI_ROW_JOB_ID(fa), pb, CLI_ROW_JOB_ID(fb)) < 0)
		win = fa, lose = fb;
	else
		win = fb, lose = fa;
	if (pa == pb) {
		fprintf(out, "  same priority %" PRIu32 ": job %" PRIu32 " (the lower job id) is considered first\n",
			pa, CLI_ROW_JOB_ID(win));
		return;
	}
	if (fa->direct_prio > 0 || fb->direct_prio > 0) {
		fprintf(out, "  job %" PRIu32 " ranks above job %" PRIu32 " by %" PRIu32 "\n",
			CLI_ROW_JOB_ID(win), CLI_ROW_JOB_ID(lose),
			pa > pb ? pa - pb : pb - pa);
		fprintf(out, "  decided by: the priority an administrator set (scontrol update job=ID priority=N)\n");
		return;
	}
	fprintf(out, "  job %" PRIu32 " ranks above job %" PRIu32 " by %" PRIu32 ": %.2f in its favour, %.2f against\n",
		CLI_ROW_JOB_ID(win), CLI_ROW_JOB_ID(lose), pa > pb ? pa - pb : pb - pa,
		cmp->for_winner, cmp->against);
	fprintf(out, "  %s", cmp->deciders ? "decided by:" :
					     "no term decides alone; together:");
	for (size_t k = 0; k < cmp->n; k++) {
		size_t i = cmp->order[k];
		bool favours = (cmp->diff[i] > 0) == (win == fa) &&
			       cmp->diff[i] != 0;

		if (cmp->deciders ? !cmp->decides[i] : !favours)
			continue;
		fprintf(out, "%s %s (%.2f)", shown++ ? "," : "",
			_name(kind, ca, fa, i, buf, sizeof(buf)),
			fabs(cmp->diff[i]));
	}
	fputc('\n', out);
}

extern int cli_compare_print(const cli_records_t *r, prism_policy_t kind,
			     uint32_t a, uint32_t b, FILE *out, FILE *err)
{
	const priority_factors_object_t *fa, *fb;
	double va[PRISM_COMPARE_MAX], vb[PRISM_COMPARE_MAX];
	prism_cols_t ca, cb;
	prism_compare_t cmp;
	prism_error_t perr = { "" };
	size_t na, nb;
	uint32_t pa, pb;

	_rows(r, a, b, &fa, &fb);
	if (!fa)
		return _no_row(r, a, err);
	if (!fb)
		return _no_row(r, b, err);
	na = _terms(fa, va, &ca);
	nb = _terms(fb, vb, &cb);
	for (; nb < na; nb++)
		vb[nb] = 0;
	for (; na < nb; na++)
		va[na] = 0;
	if (prism_compare_terms(va, vb, na, &cmp, &perr)) {
		fprintf(err, "prism: compare: %s\n", perr.text);
		return CLI_ERROR;
	}
	pa = _prio(fa, va, na);
	pb = _prio(fb, vb, nb);
	fprintf(out, "Prism policy=%s: the terms are sprio's columns.\n",
		prism_policy_name(kind));
	_header(fa, fb, pa, pb, out);
	if (fa->direct_prio > 0 || fb->direct_prio > 0)
		fprintf(out, "  an administrator set the priority of %s: its terms do not count\n",
			fa->direct_prio > 0 && fb->direct_prio > 0 ?
				"both" : "one of them");
	_table(kind, &cmp, va, vb, fa, &ca, out);
	_verdict(kind, &cmp, fa, fb, pa, pb, &ca, out);
	return CLI_OK;
}
