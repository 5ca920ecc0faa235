/*****************************************************************************\
 *  prism_moab_diag.c - Moab's `mdiag -p` table (see prism_moab_diag.h).
 *
 *  Every line is built into the caller's buffer by prism_buf_put(), which
 *  notes an overflow instead of failing at once, so each formatter checks
 *  once, at its end.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_buf.h"
#include "prism_moab_diag.h"
#include "prism_tres_str.h"

/* Widths of the fixed columns and of each cell. */
#define _LABEL_W 12
#define _SLURM_W 11
#define _PRIO_W 11		/* and one more for the '*' */
#define _COMP_W 9
#define _SUB_W 6

/* Moab's short names for the header. */
static const char *_comp_short[PRISM_MC_CNT] = {
	[PRISM_MC_CRED] = "Cred",   [PRISM_MC_FS] = "FS",
	[PRISM_MC_RES] = "Res",	    [PRISM_MC_SERV] = "Serv",
	[PRISM_MC_TARGET] = "Targ", [PRISM_MC_USAGE] = "Usage",
	[PRISM_MC_ATTR] = "Attr",
};

static const char *_sub_short[PRISM_MS_CNT] = {
	[PRISM_MS_USER] = "User",
	[PRISM_MS_GROUP] = "Group",
	[PRISM_MS_ACCOUNT] = "Accnt",
	[PRISM_MS_QOS] = "QOS",
	[PRISM_MS_CLASS] = "Class",
	[PRISM_MS_FSUSER] = "User",
	[PRISM_MS_FSGROUP] = "Group",
	[PRISM_MS_FSACCOUNT] = "Accnt",
	[PRISM_MS_FSQOS] = "QOS",
	[PRISM_MS_FSCLASS] = "Class",
	[PRISM_MS_FSGUSER] = "GUser",
	[PRISM_MS_FSGGROUP] = "GGroup",
	[PRISM_MS_FSGACCOUNT] = "GAcct",
	[PRISM_MS_FSJPU] = "JPU",
	[PRISM_MS_FSPPU] = "PPU",
	[PRISM_MS_FSPSPU] = "PSPU",
	[PRISM_MS_WCACCURACY] = "WCAcc",
	[PRISM_MS_NODE] = "Node",
	[PRISM_MS_PROC] = "Proc",
	[PRISM_MS_MEM] = "Mem",
	[PRISM_MS_SWAP] = "Swap",
	[PRISM_MS_DISK] = "Disk",
	[PRISM_MS_PS] = "PS",
	[PRISM_MS_PE] = "PE",
	[PRISM_MS_WALLTIME] = "WTime",
	[PRISM_MS_QUEUETIME] = "QTime",
	[PRISM_MS_XFACTOR] = "XFctr",
	[PRISM_MS_BYPASS] = "Bypass",
	[PRISM_MS_STARTCOUNT] = "StCnt",
	[PRISM_MS_DEADLINE] = "Deadl",
	[PRISM_MS_SPVIOLATION] = "SPViol",
	[PRISM_MS_USERPRIO] = "UPrio",
	[PRISM_MS_TARGETQUEUETIME] = "QTime",
	[PRISM_MS_TARGETXFACTOR] = "XFctr",
	[PRISM_MS_CONSUMED] = "Cons",
	[PRISM_MS_HUNGER] = "Hunger",
	[PRISM_MS_REMAINING] = "Rem",
	[PRISM_MS_PERCENT] = "Perc",
	[PRISM_MS_EXECUTIONTIME] = "ExeTm",
	[PRISM_MS_ATTRATTR] = "Attr",
	[PRISM_MS_ATTRSTATE] = "State",
	[PRISM_MS_ATTRGRES] = "GRes",
};

/* ---- output ----------------------------------------------------------- */

/* Start writing into 'buf'; -1 with err set when it cannot be used. */
static int _start(prism_buf_t *o, char *buf, size_t size, const void *a,
		  const void *b, const char *what, prism_error_t *err)
{
	if (!buf || !size || !a || !b) {
		prism_error_set(err, "%s: bad parameter", what);
		return -1;
	}
	prism_buf_init(o, buf, size);
	return 0;
}

/*
 * 'v' in at most 'width' characters if it can be: an integer as one, else
 * with as many decimals as fit (at most 2), else in short exponent form.
 * NAN prints '?'.
 */
static void _fit(char *out, size_t size, double v, int width)
{
	char m[32];
	int e;

	if (isnan(v)) {
		snprintf(out, size, "?");
		return;
	}
	if (v == 0.0)
		v = 0.0;	/* no "-0" */
	if (fabs(v - round(v)) < 1e-9 && fabs(v) < 1e15) {
		snprintf(out, size, "%.0f", v);
		if ((int) strlen(out) <= width)
			return;
	} else {
		for (int prec = 2; prec >= 0; prec--) {
			snprintf(out, size, "%.*f", prec, v);
			if ((int) strlen(out) <= width)
				return;
		}
	}
	if (isinf(v)) {
		snprintf(out, size, "%s", v > 0 ? "inf" : "-inf");
		return;
	}
	e = (int) floor(log10(fabs(v)));
	snprintf(m, sizeof(m), "%.1f", v / pow(10.0, e));
	if (fabs(atof(m)) >= 10.0) {	/* 9.96 rounded up to 10.0 */
		e++;
		snprintf(m, sizeof(m), "%.1f", v / pow(10.0, e));
	}
	snprintf(out, size, "%se%d", m, e);
	if ((int) strlen(out) > width)
		snprintf(out, size, "%.0fe%d", v / pow(10.0, e), e);
}

/* A cell: 'v' fitted, right-aligned in 'width'. */
static void _cell(prism_buf_t *o, double v, int width)
{
	char s[64];

	_fit(s, sizeof(s), v, width);
	prism_buf_put(o, "%*s", width, s);
}

/* ---- columns ---------------------------------------------------------- */

/* The weight a credential adds to 'sub' (QTWEIGHT, XFWEIGHT, FSWEIGHT). */
static int64_t _cred_extra(const prism_moab_cred_t *cr, int sub)
{
	if (sub == PRISM_MS_QUEUETIME)
		return cr->qt_weight;
	if (sub == PRISM_MS_XFACTOR)
		return cr->xf_weight;
	return cr->fs_weight;
}

/* Does any credential of 'pol' add to the weight of 'sub'? */
static bool _cred_weight(const prism_moab_policy_t *pol, int sub)
{
	prism_moab_cred_kind_t kind;

	if (sub >= PRISM_MS_FSUSER && sub <= PRISM_MS_FSCLASS)
		kind = (prism_moab_cred_kind_t) (sub - PRISM_MS_FSUSER);
	else if (sub == PRISM_MS_QUEUETIME || sub == PRISM_MS_XFACTOR)
		kind = PRISM_MOAB_QOS;
	else
		return false;
	for (uint32_t i = 0; i < prism_moab_cred_count(pol, kind); i++) {
		const prism_moab_cred_t *cr = prism_moab_cred_get(pol, kind, i);

		if (cr && _cred_extra(cr, sub))
			return true;
	}
	return false;
}

extern void prism_moab_diag_cols(const prism_moab_policy_t *pol,
				 prism_moab_diag_cols_t *out)
{
	const prism_moab_params_t *p;

	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!pol)
		return;
	p = prism_moab_policy_params(pol);
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		prism_moab_comp_t c = prism_moab_sub_comp((prism_moab_sub_t) s);

		if (!p->comp_weight[c])
			continue;
		if (p->sub_weight[s] || _cred_weight(pol, s)) {
			out->sub[s] = true;
			out->comp[c] = true;
		}
	}
}

static bool _in(int sub, int comp)
{
	return prism_moab_sub_comp((prism_moab_sub_t) sub) ==
	       (prism_moab_comp_t) comp;
}

/* ---- rows ------------------------------------------------------------- */

extern void prism_moab_diag_row_fill(prism_moab_diag_row_t *row,
				     const prism_moab_policy_t *pol,
				     const prism_moab_result_t *res,
				     const prism_moab_columns_t *cols)
{
	double usage;

	if (!row || !pol || !res)
		return;
	row->prio = row->slurm ? prism_moab_from_slurm(pol, row->slurm)
			       : res->prio;
	row->comp_known = true;
	memcpy(row->value, res->value, sizeof(row->value));
	memcpy(row->term, res->term, sizeof(row->term));
	memset(row->unknown, 0, sizeof(row->unknown));
	if (!cols) {
		memcpy(row->comp, res->comp, sizeof(row->comp));
		return;
	}
	/* sprio's QOS column holds TARGET + USAGE, each truncated */
	usage = trunc(res->comp[PRISM_MC_USAGE]) + 0.0;	/* no -0 */
	row->comp[PRISM_MC_CRED] = (double) cols->cred;
	row->comp[PRISM_MC_FS] = (double) cols->fs;
	row->comp[PRISM_MC_RES] = (double) cols->res;
	row->comp[PRISM_MC_SERV] = (double) cols->serv;
	row->comp[PRISM_MC_TARGET] = (double) cols->target_usage - usage;
	row->comp[PRISM_MC_USAGE] = usage;
	row->comp[PRISM_MC_ATTR] = (double) cols->attr;
}

/* The cells of one line: per component a value and its subcomponents. */
typedef void (*_cell_fn)(prism_buf_t *o, const void *arg, int idx, bool comp);

static void _cells(prism_buf_t *o, const prism_moab_diag_cols_t *cols,
		   _cell_fn fn, const void *arg)
{
	for (int c = 0; c < PRISM_MC_CNT; c++) {
		bool first = true;

		if (!cols->comp[c])
			continue;
		prism_buf_put(o, " ");
		fn(o, arg, c, true);
		prism_buf_put(o, "(");
		for (int s = 0; s < PRISM_MS_CNT; s++) {
			if (!_in(s, c) || !cols->sub[s])
				continue;
			if (!first)
				prism_buf_put(o, ":");
			first = false;
			fn(o, arg, s, false);
		}
		prism_buf_put(o, ")");
	}
	prism_buf_put(o, "\n");
}

static void _header_cell(prism_buf_t *o, const void *arg, int idx, bool comp)
{
	if (comp)
		prism_buf_put(o, "%*s", _COMP_W, _comp_short[idx]);
	else
		prism_buf_put(o, "%*s", _SUB_W, _sub_short[idx]);
}

extern int prism_moab_diag_header(const prism_moab_diag_cols_t *cols,
				  char *buf, size_t size, prism_error_t *err)
{
	prism_buf_t o;

	if (_start(&o, buf, size, cols, cols, "prism_moab_diag_header", err))
		return -1;
	prism_buf_put(&o, "%-*s%*s%*s", _LABEL_W, "Job", _SLURM_W, "Slurm",
		      _PRIO_W + 1, "PRIORITY*");
	_cells(&o, cols, _header_cell, NULL);
	return prism_buf_end(&o, "mdiag", err);
}

static void _weight_cell(prism_buf_t *o, const void *arg, int idx, bool comp)
{
	const prism_moab_params_t *p = arg;

	if (comp)
		_cell(o, (double) p->comp_weight[idx], _COMP_W);
	else
		_cell(o, (double) p->sub_weight[idx], _SUB_W);
}

extern int prism_moab_diag_weights(const prism_moab_diag_cols_t *cols,
				   const prism_moab_policy_t *pol, char *buf,
				   size_t size, prism_error_t *err)
{
	prism_buf_t o;

	if (_start(&o, buf, size, cols, pol, "prism_moab_diag_weights", err))
		return -1;
	prism_buf_put(&o, "%-*s%*s%*s", _LABEL_W, "Weights", _SLURM_W,
		      "--------", _PRIO_W + 1, "-------- ");
	_cells(&o, cols, _weight_cell, prism_moab_policy_params(pol));
	return prism_buf_end(&o, "mdiag", err);
}

static void _row_cell(prism_buf_t *o, const void *arg, int idx, bool comp)
{
	const prism_moab_diag_row_t *row = arg;

	if (!comp) {
		_cell(o, row->unknown[idx] ? NAN : row->value[idx], _SUB_W);
		return;
	}
	/* the controller's figures are integers: print them whole */
	if (!row->comp_known)
		prism_buf_put(o, "%*s", _COMP_W, "?");
	else
		prism_buf_put(o, "%*.0f", _COMP_W, row->comp[idx]);
}

extern int prism_moab_diag_row(const prism_moab_diag_cols_t *cols,
			       const prism_moab_diag_row_t *row, char *buf,
			       size_t size, prism_error_t *err)
{
	prism_buf_t o;

	if (_start(&o, buf, size, cols, row, "prism_moab_diag_row", err))
		return -1;
	/* the label is never cut: people grep for job ids */
	prism_buf_put(&o, "%-*s", _LABEL_W - 1, row->label);
	prism_buf_put(&o, " %*" PRIu32 "%*" PRId64 "%c", _SLURM_W, row->slurm,
		      _PRIO_W, row->prio, row->sys ? '*' : ' ');
	_cells(&o, cols, _row_cell, row);
	return prism_buf_end(&o, "mdiag", err);
}

/* ---- Percent Contribution --------------------------------------------- */

extern void prism_moab_diag_add(prism_moab_diag_sum_t *sum,
				const prism_moab_policy_t *pol,
				const prism_moab_diag_row_t *row)
{
	const prism_moab_params_t *p;

	if (!sum || !pol || !row || !row->comp_known)
		return;
	p = prism_moab_policy_params(pol);
	sum->rows++;
	for (int c = 0; c < PRISM_MC_CNT; c++)
		sum->comp[c] += fabs(row->comp[c]);
	/* a system priority replaces the sum: its terms count for nothing */
	if (row->sys)
		return;
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		prism_moab_comp_t c = prism_moab_sub_comp((prism_moab_sub_t) s);

		if (row->unknown[s])
			sum->unknown[s] = true;
		else
			sum->term[s] += fabs((double) p->comp_weight[c] *
					     row->term[s]);
	}
}

extern void prism_moab_diag_percent(const prism_moab_diag_cols_t *cols,
				    const prism_moab_diag_sum_t *sum,
				    double comp_pct[PRISM_MC_CNT],
				    double sub_pct[PRISM_MS_CNT])
{
	double total = 0.0;

	for (int c = 0; c < PRISM_MC_CNT; c++)
		total += cols->comp[c] ? sum->comp[c] : 0.0;
	for (int c = 0; c < PRISM_MC_CNT; c++) {
		double terms = 0.0;
		bool unknown = false;

		comp_pct[c] = (cols->comp[c] && total > 0.0) ?
				      100.0 * sum->comp[c] / total : 0.0;
		for (int s = 0; s < PRISM_MS_CNT; s++) {
			if (!_in(s, c) || !cols->sub[s])
				continue;
			terms += sum->term[s];
			unknown |= sum->unknown[s];
		}
		for (int s = 0; s < PRISM_MS_CNT; s++) {
			if (!_in(s, c))
				continue;
			if (!cols->sub[s])
				sub_pct[s] = 0.0;
			else if (unknown)
				sub_pct[s] = NAN;
			else
				sub_pct[s] = terms > 0.0 ? comp_pct[c] *
							   sum->term[s] / terms
							 : 0.0;
		}
	}
}

typedef struct {
	const double *comp, *sub;
} _pct_t;

static void _pct_cell(prism_buf_t *o, const void *arg, int idx, bool comp)
{
	const _pct_t *pct = arg;
	double v = comp ? pct->comp[idx] : pct->sub[idx];
	int width = comp ? _COMP_W : _SUB_W;

	if (isnan(v))
		prism_buf_put(o, "%*s", width, "?");
	else
		prism_buf_put(o, "%*.1f", width, v);
}

extern int prism_moab_diag_footer(const prism_moab_diag_cols_t *cols,
				  const prism_moab_diag_sum_t *sum, char *buf,
				  size_t size, prism_error_t *err)
{
	double comp_pct[PRISM_MC_CNT], sub_pct[PRISM_MS_CNT];
	_pct_t pct = { comp_pct, sub_pct };
	prism_buf_t o;

	if (_start(&o, buf, size, cols, sum, "prism_moab_diag_footer", err))
		return -1;
	prism_moab_diag_percent(cols, sum, comp_pct, sub_pct);
	prism_buf_put(&o, "%-*s", _LABEL_W + _SLURM_W + _PRIO_W + 1,
		      "Percent Contribution");
	_cells(&o, cols, _pct_cell, &pct);
	return prism_buf_end(&o, "mdiag", err);
}

/* ---- TRES strings ----------------------------------------------------- */

extern int prism_moab_diag_tres_mb(const char *tres, const char *name,
				   uint64_t *mb)
{
	return prism_tres_str_get(tres, name, mb);
}
