/*****************************************************************************\
 *  cli_summary.c - what a policy file will do, on one screen: printed by
 *  `prism check` after the notices. The components in force with their
 *  weights and caps, the credentials with priorities and targets (the
 *  first few of each kind), and what is ignored.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "cli_summary.h"
#include "prism_moab.h"

#define SUMMARY_CREDS 5		/* credentials shown per kind */
#define SUMMARY_NOTICES 8	/* notice subjects shown */

/*
 * Print the subject of notice 'i' ("FILE:LINE: SUBJECT: what": SUBJECT,
 * 60 bytes at most) when 'i' is among the first SUMMARY_NOTICES, and
 * "..." after the last of them when more follow.
 */
/* Length of the subject at 's': up to the first ':' outside brackets. */
static size_t _subject_len(const char *s)
{
	size_t len = 0;
	int depth = 0;

	for (; s[len] && (s[len] != ':' || depth > 0); len++) {
		if (s[len] == '[')
			depth++;
		else if (s[len] == ']' && depth > 0)
			depth--;
	}
	return len;
}

static void _subject(const char *notice, size_t i, size_t n, FILE *out)
{
	const char *s = notice ? strstr(notice, ": ") : NULL;
	size_t len;

	if (i >= SUMMARY_NOTICES || !s)
		return;
	s += 2;
	len = _subject_len(s);
	fprintf(out, "%s%.*s", i ? ", " : " ", (int) (len > 60 ? 60 : len),
		s);
	if (i == SUMMARY_NOTICES - 1 && n > SUMMARY_NOTICES)
		fprintf(out, ", ... (%zu in all)", n);
}

/* " cap N" when 'cap' is above 0 (a cap), else "". */
static const char *_cap(int64_t cap, char *buf, size_t size)
{
	if (cap <= 0)
		return "";
	snprintf(buf, size, " cap %lld", (long long) cap);
	return buf;
}

/* Does 'comp' have a subcomponent with a weight in 'p'? */
static bool _comp_used(const prism_moab_params_t *p, prism_moab_comp_t comp)
{
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		if (prism_moab_sub_comp((prism_moab_sub_t) s) == comp &&
		    p->sub_weight[s])
			return true;
	}
	return false;
}

/* One component in force: its weight and cap, its weighted subs. */
static void _comp(const prism_moab_params_t *p, prism_moab_comp_t comp,
		  FILE *out)
{
	char cap[32];

	fprintf(out, "  %-8s weight %lld%s:", prism_moab_comp_name(comp),
		(long long) p->comp_weight[comp],
		_cap(p->comp_cap[comp], cap, sizeof(cap)));
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		if (prism_moab_sub_comp((prism_moab_sub_t) s) != comp ||
		    !p->sub_weight[s])
			continue;
		fprintf(out, " %s %lld%s%s",
			prism_moab_sub_name((prism_moab_sub_t) s),
			(long long) p->sub_weight[s],
			_cap(p->sub_cap[s], cap, sizeof(cap)),
			prism_moab_sub_no_data((prism_moab_sub_t) s) ?
				" (no data: 0)" :
				"");
	}
	fprintf(out, "\n");
}

static const char *_fs_type(prism_moab_fstarget_t t)
{
	switch (t) {
	case PRISM_MOAB_FST_FLOOR:
		return "+ (floor)";
	case PRISM_MOAB_FST_CEILING:
		return "- (ceiling)";
	case PRISM_MOAB_FST_CAP:
		return "^ (usage cap)";
	default:
		return "";
	}
}

/* One credential: "name priority N, target T%". */
static void _cred(const prism_moab_cred_t *e, FILE *out)
{
	fprintf(out, " %s", e->name);
	if (e->prio_set)
		fprintf(out, " prio %lld", (long long) e->prio);
	if (e->fs_type != PRISM_MOAB_FST_NONE)
		fprintf(out, " target %g%%%s", e->fs_target,
			_fs_type(e->fs_type));
	if (e->fs_weight)
		fprintf(out, " fsweight %lld", (long long) e->fs_weight);
	if (e->qt_weight || e->xf_weight)
		fprintf(out, " qtweight %lld xfweight %lld",
			(long long) e->qt_weight, (long long) e->xf_weight);
	fprintf(out, ";");
}

/* The credentials of 'kind': count and the first SUMMARY_CREDS. */
static void _creds(const prism_moab_policy_t *pol,
		   prism_moab_cred_kind_t kind, FILE *out)
{
	uint32_t n = prism_moab_cred_count(pol, kind);

	if (!n)
		return;
	fprintf(out, "  %-8s %u:", prism_moab_cred_kind_name(kind), n);
	for (uint32_t i = 0; i < n && i < SUMMARY_CREDS; i++)
		_cred(prism_moab_cred_get(pol, kind, i), out);
	if (n > SUMMARY_CREDS)
		fprintf(out, " ... and %u more", n - SUMMARY_CREDS);
	fprintf(out, "\n");
}

extern void cli_moab_summary(const prism_moab_policy_t *pol, FILE *out)
{
	const prism_moab_params_t *p = prism_moab_policy_params(pol);
	static const char *fsp[] = { "off", "DEDICATEDPS", "DEDICATEDPES",
				     "UTILIZEDPS", "PDEDICATEDPS",
				     "SDEDICATEDPS" };
	size_t n = prism_moab_policy_notice_count(pol);
	uint32_t creds = 0;

	fprintf(out, "Components in force (weight, cap; subcomponents):\n");
	for (int c = 0; c < PRISM_MC_CNT; c++) {
		if (p->comp_weight[c] && _comp_used(p, (prism_moab_comp_t) c))
			_comp(p, (prism_moab_comp_t) c, out);
	}
	fprintf(out, "Credentials (priority, fair-share target):\n");
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		_creds(pol, (prism_moab_cred_kind_t) k, out);
		creds += prism_moab_cred_count(pol, (prism_moab_cred_kind_t) k);
	}
	if (!creds)
		fprintf(out, "  none\n");
	fprintf(out,
		"Fair-share: %s, interval %llds, depth %u, decay %g\n"
		"Bounds: 0..%lld (MAX_PRIO_VAL), negative priorities %s\n"
		"Ignored or read under an older name (notices above):",
		fsp[p->fs_policy], (long long) p->fs_interval, p->fs_depth,
		p->fs_decay, (long long) p->max_prio,
		p->enable_neg ? "allowed (down to -MAX_PRIO_VAL)" :
				"raised to 0");
	for (size_t i = 0; i < n; i++)
		_subject(prism_moab_policy_notice(pol, i), i, n, out);
	fprintf(out, "%s\n", n ? "" : " nothing");
}

extern void cli_ge_summary(const prism_ge_policy_t *pol, FILE *out)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	size_t n = prism_ge_policy_notice_count(pol);

	fprintf(out,
		"Priority = %g * priority + %g * urgency + %g * tickets (normalized)\n"
		"Urgency: waiting time %g/s, deadline %g, %u resource%s, %u partition%s\n"
		"Tickets: share-tree %u (halftime %uh), functional %u, hierarchy %s\n"
		"Functional: %u user%s, %u account%s\n"
		"Ignored (notices above):",
		p->weight_priority, p->weight_urgency, p->weight_ticket,
		p->weight_waiting_time, p->weight_deadline,
		prism_ge_count(pol, PRISM_GE_RESOURCE),
		prism_ge_count(pol, PRISM_GE_RESOURCE) == 1 ? "" : "s",
		prism_ge_count(pol, PRISM_GE_PARTITION),
		prism_ge_count(pol, PRISM_GE_PARTITION) == 1 ? "" : "s",
		p->weight_tickets_share, p->halftime,
		p->weight_tickets_functional,
		p->policy_hierarchy[0] ? p->policy_hierarchy : "NONE",
		prism_ge_count(pol, PRISM_GE_USER),
		prism_ge_count(pol, PRISM_GE_USER) == 1 ? "" : "s",
		prism_ge_count(pol, PRISM_GE_ACCOUNT),
		prism_ge_count(pol, PRISM_GE_ACCOUNT) == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		_subject(prism_ge_policy_notice(pol, i), i, n, out);
	fprintf(out, "%s\n", n ? "" : " nothing");
}
