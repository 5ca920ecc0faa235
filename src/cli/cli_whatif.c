/*****************************************************************************\
 *  cli_whatif.c - the view of `prism whatif`: how the order of the pending
 *  queue changes (the entries that move most, a summary per account, the
 *  new order), from the priorities a policy computed before and after the
 *  change (prism_whatif in the core ranks them). The policies compute the
 *  priorities: cli_mf_view.c (multifactor), cli_diag.c (Moab),
 *  cli_ge_diag.c (Grid Engine); cli_explain.c loads the records.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli_whatif.h"
#include "prism_cli.h"

extern char *cli_whatif_what(const char *policy, char *const *set, int nset,
			     const char *cand)
{
	static const char read_fmt[] =
		"policy=%s read %s instead of its file in force:";
	size_t size, len;
	char *buf;

	if (cand)
		size = sizeof(read_fmt) + strlen(policy) + strlen(cand);
	else
		size = sizeof("policy= with:") + strlen(policy);
	for (int i = 0; !cand && i < nset; i++)
		size += 1 + strlen(set[i]);
	buf = malloc(size);
	if (!buf)
		return NULL;
	if (cand) {
		snprintf(buf, size, read_fmt, policy, cand);
		return buf;
	}
	len = (size_t) snprintf(buf, size, "policy=%s with", policy);
	for (int i = 0; i < nset; i++)
		len += (size_t) snprintf(buf + len, size - len, " %s", set[i]);
	snprintf(buf + len, size - len, ":");
	return buf;
}

static const char *_s(const char *s)
{
	return s && *s ? s : "-";
}

/* "+3" (up three places), "-2", "=". */
static void _move_str(const prism_whatif_job_t *j, char *buf, size_t size)
{
	if (j->rank_after == j->rank_before)
		snprintf(buf, size, "=");
	else if (j->rank_after < j->rank_before)
		snprintf(buf, size, "up %" PRIu32,
			 j->rank_before - j->rank_after);
	else
		snprintf(buf, size, "down %" PRIu32,
			 j->rank_after - j->rank_before);
}

static void _row_head(FILE *out)
{
	fprintf(out, "  %-10s %-12s %-12s %9s %9s %12s %12s  %s\n", "JOBID",
		"PARTITION", "ACCOUNT", "RANK_NOW", "RANK_NEW", "PRIO_NOW",
		"PRIO_NEW", "MOVE");
}

static void _row(const prism_whatif_job_t *j, FILE *out)
{
	char move[32];

	_move_str(j, move, sizeof(move));
	fprintf(out, "  %-10" PRIu32 " %-12s %-12s %9" PRIu32 " %9" PRIu32
		" %12" PRIu32 " %12" PRIu32 "  %s\n",
		j->id, _s(j->partition), _s(j->account), j->rank_before,
		j->rank_after, j->before, j->after, move);
}

static void _accounts(const prism_whatif_account_t *a, size_t n, FILE *out)
{
	fprintf(out, "\nPer account (mean rank: 1 is the head of the queue):\n");
	fprintf(out, "  %-16s %6s %6s %6s %14s %14s\n", "ACCOUNT", "JOBS",
		"UP", "DOWN", "MEAN_RANK_NOW", "MEAN_RANK_NEW");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-16s %6" PRIu32 " %6" PRIu32 " %6" PRIu32
			" %14.1f %14.1f\n",
			_s(a[i].account), a[i].jobs, a[i].up, a[i].down,
			a[i].mean_before, a[i].mean_after);
}

/* Every entry by its new rank. */
static int _all(const prism_whatif_job_t *jobs, uint32_t n, FILE *out,
		FILE *err)
{
	const prism_whatif_job_t **by = calloc((size_t) n + 1, sizeof(*by));

	if (!by) {
		fprintf(err, "prism: out of memory\n");
		return CLI_ERROR;
	}
	for (uint32_t i = 0; i < n; i++)
		if (jobs[i].rank_after >= 1 && jobs[i].rank_after <= n)
			by[jobs[i].rank_after - 1] = &jobs[i];
	fprintf(out, "\nThe new order:\n");
	_row_head(out);
	for (uint32_t i = 0; i < n; i++)
		if (by[i])
			_row(by[i], out);
	free(by);
	return CLI_OK;
}

extern int cli_whatif_print(const char *what, prism_whatif_job_t *jobs,
			    uint32_t n, uint32_t top, bool all, FILE *out,
			    FILE *err)
{
	prism_error_t perr = { "" };
	prism_whatif_account_t *acc = NULL;
	size_t *order = calloc((size_t) n + 1, sizeof(*order));
	size_t acc_cnt = 0, moved;
	int rc = CLI_ERROR;

	if (!order || prism_whatif_rank(jobs, n, &perr) ||
	    prism_whatif_accounts(jobs, n, &acc, &acc_cnt, &perr)) {
		fprintf(err, "prism: %s\n",
			perr.text[0] ? perr.text : "out of memory");
		goto out;
	}
	moved = prism_whatif_moves(jobs, n, order);
	fprintf(out, "What if %s\n", what);
	fprintf(out, "(computed by the prism command; nothing is changed in the controller)\n\n");
	if (!n) {
		fprintf(out, "no pending job is ranked: nothing to reorder\n");
		rc = CLI_OK;
		goto out;
	}
	fprintf(out, "%" PRIu32 " pending entr%s (job and partition): %zu move%s, %zu keep%s %s place.\n",
		n, n == 1 ? "y" : "ies", moved, moved == 1 ? "s" : "",
		n - moved, n - moved == 1 ? "s" : "",
		n - moved == 1 ? "its" : "their");
	if (moved) {
		size_t shown = moved < top ? moved : top;

		fprintf(out, "\nThe %zu that move most%s:\n", shown,
			shown < moved ? " (--top N shows more)" : "");
		_row_head(out);
		for (size_t i = 0; i < shown; i++)
			_row(&jobs[order[i]], out);
	}
	_accounts(acc, acc_cnt, out);
	rc = all ? _all(jobs, n, out, err) : CLI_OK;
out:
	free(acc);
	free(order);
	return rc;
}
