/*****************************************************************************\
 *  prism_ge_diag.c - Grid Engine's `qstat -pri` and `qstat -urg` tables
 *  for `prism explain` (see prism_ge_diag.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prism_ge_diag.h"

#define PRI_HEAD "job-ID     prior   nurg    npprior ntckts   ppri"
#define URG_HEAD \
	"job-ID     prior   nurg             urg   rrcontr   wtcontr   dlcontr"

/* A column 'part' of sprio read back to its normalised value. */
static double _unscale(uint32_t part, double scale, double weight)
{
	if (!(scale * weight > 0))
		return NAN;
	return (double) part / (scale * weight);
}

extern int prism_ge_diag_row_fill(const prism_ge_policy_t *pol,
				  const char *label, uint32_t slurm,
				  const prism_ge_sprio_t *cols,
				  const prism_ge_result_t *res, int32_t ppri,
				  prism_ge_diag_row_t *row, prism_error_t *err)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	double s;

	if (!p || !label || !res || !row) {
		prism_error_set(err, "prism_ge_diag_row_fill: NULL argument");
		return -1;
	}
	s = prism_ge_slurm_scale(pol);
	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%s", label);
	row->slurm = slurm;
	row->known = cols != NULL;
	row->prio = prism_ge_from_slurm(pol, slurm);
	row->nurg = row->ntckts = row->npprior = NAN;
	if (cols) {
		row->nurg = _unscale(cols->urgency, s, p->weight_urgency);
		row->ntckts = _unscale(cols->tickets, s, p->weight_ticket);
		row->npprior = _unscale(cols->posix, s, p->weight_priority);
	}
	row->ppri = ppri;
	row->urg = res->urg;
	row->rrcontr = res->rrcontr;
	row->wtcontr = res->wtcontr;
	row->dlcontr = res->dlcontr;
	return 0;
}

/* 'v' in 'width' columns with 'prec' decimals, or '-' when NAN. */
static void _num(char *out, size_t size, double v, int width, int prec)
{
	if (isnan(v))
		snprintf(out, size, "%*s", width, "-");
	else
		snprintf(out, size, "%*.*f", width, prec, v);
}

/* Write 'head' and a line of dashes as long into 'buf'. */
static int _header(const char *head, char *buf, size_t size,
		   prism_error_t *err)
{
	size_t n = strlen(head);

	if (!buf) {
		prism_error_set(err, "qstat header: NULL argument");
		return -1;
	}
	if (2 * (n + 1) + 1 > size) {
		prism_error_set(err, "qstat header: buffer of %zu bytes is too small",
				size);
		return -1;
	}
	memcpy(buf, head, n);
	buf[n] = '\n';
	memset(buf + n + 1, '-', n);
	buf[2 * n + 1] = '\n';
	buf[2 * n + 2] = '\0';
	return (int) (2 * n + 2);
}

extern int prism_ge_diag_pri_header(char *buf, size_t size,
				    prism_error_t *err)
{
	return _header(PRI_HEAD, buf, size, err);
}

extern int prism_ge_diag_urg_header(char *buf, size_t size,
				    prism_error_t *err)
{
	return _header(URG_HEAD, buf, size, err);
}

/* The result of snprintf() into 'buf' of 'size' as a length or -1. */
static int _fits(int n, size_t size, const char *what, prism_error_t *err)
{
	if (n < 0 || (size_t) n >= size) {
		prism_error_set(err, "%s: buffer of %zu bytes is too small",
				what, size);
		return -1;
	}
	return n;
}

extern int prism_ge_diag_pri_row(const prism_ge_diag_row_t *row, char *buf,
				 size_t size, prism_error_t *err)
{
	char prio[64], nurg[64], npprior[64], ntckts[64];

	if (!row || !buf) {
		prism_error_set(err, "qstat -pri row: NULL argument");
		return -1;
	}
	_num(prio, sizeof(prio), row->prio, 7, 5);
	_num(nurg, sizeof(nurg), row->nurg, 7, 5);
	_num(npprior, sizeof(npprior), row->npprior, 7, 5);
	_num(ntckts, sizeof(ntckts), row->ntckts, 7, 5);
	return _fits(snprintf(buf, size, "%-10s %s %s %s %s %5d\n",
			      row->label, prio, nurg, npprior, ntckts,
			      (int) row->ppri),
		     size, "qstat -pri row", err);
}

extern int prism_ge_diag_urg_row(const prism_ge_diag_row_t *row, char *buf,
				 size_t size, prism_error_t *err)
{
	char prio[64], nurg[64], urg[400], rr[400], wt[400], dl[400];

	if (!row || !buf) {
		prism_error_set(err, "qstat -urg row: NULL argument");
		return -1;
	}
	_num(prio, sizeof(prio), row->prio, 7, 5);
	_num(nurg, sizeof(nurg), row->nurg, 7, 5);
	_num(urg, sizeof(urg), row->urg, 12, 0);
	_num(rr, sizeof(rr), row->rrcontr, 9, 0);
	_num(wt, sizeof(wt), row->wtcontr, 9, 0);
	_num(dl, sizeof(dl), row->dlcontr, 9, 0);
	return _fits(snprintf(buf, size, "%-10s %s %s %s %s %s %s\n",
			      row->label, prio, nurg, urg, rr, wt, dl),
		     size, "qstat -urg row", err);
}
