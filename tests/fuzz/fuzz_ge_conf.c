/*****************************************************************************\
 *  fuzz_ge_conf.c - libFuzzer target for prism_ge_conf_parse() (a Grid
 *  Engine scheduler configuration plus Prism's keys) and the model that
 *  uses the policy.
 *
 *  The input is the file text. Checked besides memory safety and UB:
 *   - on failure: -1, *out untouched, an error naming the file;
 *   - on success, the policy: scalar parameters within their documented
 *     ranges, the expanded policy_hierarchy a permutation whose dependent
 *     policies are the listed ones; every notice readable; every entry
 *     found again by its name at its own handle, urgencies finite and
 *     >= 0; lookups of every word of the input agree with the tables;
 *   - then the policy is used: a pass over 17 jobs with every handle,
 *     every resource, deadlines, nice values and a share tree; every
 *     result finite and in range, the Slurm priority the mapping of the
 *     weighted sum, the sprio columns adding up to it, the single-job
 *     urgency equal to the pass's, the explanation written or refused
 *     whole; the mapping monotone and its inverse below; usage decay
 *     never growing; and freed.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_ge.h"
#include "prism_ge_conf.h"

#define FILE_NAME "fuzz.conf"
#define JOBS 17

static void check_params(const prism_ge_params_t *p)
{
	bool seen[PRISM_GE_TPOLICY_CNT] = { false };
	size_t listed = strlen(p->policy_hierarchy);

	FUZZ_CHECK(p->weight_priority >= 0 && p->weight_priority <= 1e9 &&
			   p->weight_urgency >= 0 && p->weight_urgency <= 1e9 &&
			   p->weight_ticket >= 0 && p->weight_ticket <= 1e9,
		   "weights %g %g %g", p->weight_priority, p->weight_urgency,
		   p->weight_ticket);
	FUZZ_CHECK(p->weight_waiting_time >= 0 &&
			   p->weight_waiting_time <= 1e9 &&
			   p->weight_deadline >= 0 &&
			   p->weight_deadline <= 1e12 &&
			   p->compensation_factor >= 0 &&
			   p->compensation_factor <= 1e9,
		   "urgency weights");
	FUZZ_CHECK(p->weight_user >= 0 && p->weight_project >= 0 &&
			   p->weight_department >= 0 && p->weight_job >= 0,
		   "functional weights");
	FUZZ_CHECK(p->halftime <= 1000000, "halftime %u", p->halftime);
	FUZZ_CHECK(p->weight_tickets_share <= 1000000000u &&
			   p->weight_tickets_functional <= 1000000000u,
		   "pools");
	FUZZ_CHECK(p->max_functional_jobs <= 1000000, "max jobs");
	FUZZ_CHECK(listed <= PRISM_GE_TPOLICY_CNT, "hierarchy '%s'",
		   p->policy_hierarchy);
	for (int k = 0; k < PRISM_GE_TPOLICY_CNT; k++) {
		FUZZ_CHECK((unsigned) p->order[k] < PRISM_GE_TPOLICY_CNT &&
				   !seen[p->order[k]],
			   "order[%d] %d", k, (int) p->order[k]);
		seen[p->order[k]] = true;
		FUZZ_CHECK(p->dependent[k] == ((size_t) k < listed),
			   "dependent[%d]", k);
		if ((size_t) k < listed)
			FUZZ_CHECK(p->policy_hierarchy[k] ==
					   "OFS"[p->order[k]],
				   "hierarchy '%s' order[%d]",
				   p->policy_hierarchy, k);
	}
}

static void check_entries(const prism_ge_policy_t *pol)
{
	static const char *fixed[] = { "slots", "mem", "nodes" };

	for (int k = 0; k < PRISM_GE_KIND_CNT; k++) {
		prism_ge_kind_t kind = (prism_ge_kind_t) k;
		uint32_t n = prism_ge_count(pol, kind);

		FUZZ_CHECK(prism_ge_kind_name(kind), "kind %d", k);
		for (uint32_t i = 0; i < n; i++) {
			const prism_ge_entry_t *e = prism_ge_get(pol, kind, i);

			FUZZ_CHECK(e && e->name && e->name[0], "entry %d/%u", k,
				   i);
			FUZZ_CHECK(prism_ge_find(pol, kind, e->name) == i,
				   "%s: not found at its handle", e->name);
			FUZZ_CHECK(isfinite(e->urgency) && e->urgency >= 0 &&
					   e->urgency <= 1e9,
				   "urgency %g", e->urgency);
			FUZZ_CHECK(e->fshare <= 1000000000u &&
					   e->oticket <= 1000000000u,
				   "shares");
		}
		FUZZ_CHECK(!prism_ge_get(pol, kind, n), "past the end");
		FUZZ_CHECK(!prism_ge_get(pol, kind, PRISM_GE_NONE), "NONE");
	}
	for (uint32_t r = 0; r < 3; r++) {
		const prism_ge_entry_t *e =
			prism_ge_get(pol, PRISM_GE_RESOURCE, r);

		FUZZ_CHECK(e && !strcmp(e->name, fixed[r]), "resource %u", r);
	}
	FUZZ_CHECK(prism_ge_find(pol, PRISM_GE_RESOURCE, "cpu") ==
			   PRISM_GE_RES_SLOTS,
		   "cpu");
	FUZZ_CHECK(!prism_ge_count(pol, PRISM_GE_KIND_CNT), "count");
	FUZZ_CHECK(prism_ge_find(pol, PRISM_GE_KIND_CNT, "x") == PRISM_GE_NONE,
		   "find bad kind");
}

/* Look up every word of the text (cut at blanks, '[', ']', '#'). */
static void lookup_words(const prism_ge_policy_t *pol, const uint8_t *data,
			 size_t size)
{
	char word[PRISM_GE_LINE_MAX + 1];
	size_t i = 0, lookups = 0;

	while (i < size && lookups < 256) {
		size_t n = 0;

		while (i < size && data[i] && strchr(" \t\r\n[]#", data[i]))
			i++;
		while (i < size && data[i] && !strchr(" \t\r\n[]#", data[i])) {
			if (n < PRISM_GE_LINE_MAX)
				word[n++] = (char) data[i];
			i++;
		}
		if (i < size && !data[i])
			i++;
		if (!n)
			continue;
		word[n] = '\0';
		lookups++;
		for (int k = 0; k < PRISM_GE_KIND_CNT; k++) {
			uint32_t h = prism_ge_find(pol, (prism_ge_kind_t) k,
						   word);
			const prism_ge_entry_t *e;

			if (h == PRISM_GE_NONE)
				continue;
			e = prism_ge_get(pol, (prism_ge_kind_t) k, h);
			FUZZ_CHECK(e && (!strcmp(e->name, word) ||
					 k == PRISM_GE_RESOURCE),
				   "find '%s' gave another", word);
		}
	}
}

static void check_mapping(const prism_ge_policy_t *pol,
			  const prism_ge_params_t *p)
{
	double w = p->weight_urgency + p->weight_ticket + p->weight_priority;
	double s = prism_ge_slurm_scale(pol);
	uint32_t prev = 0;

	FUZZ_CHECK(s >= 0 && isfinite(s), "scale %g", s);
	for (int i = 0; i <= 64; i++) {
		double prio = w * i / 64.0;
		uint32_t v = prism_ge_to_slurm(pol, prio);

		FUZZ_CHECK(v >= 1 && v <= PRISM_GE_SLURM_MAX, "slurm %u", v);
		FUZZ_CHECK(v >= prev, "not monotone at %g", prio);
		FUZZ_CHECK(prism_ge_from_slurm(pol, v) <= prio * (1 + 1e-12),
			   "inverse above %g", prio);
		prev = v;
	}
}

/* A pass over jobs of every handle, as the plugin would run it. */
static void use_policy(const prism_ge_policy_t *pol,
		       const prism_ge_params_t *p)
{
	static const prism_ge_node_t nodes[6] = {
		{ .parent = PRISM_GE_NONE, .shares = 1 },
		{ .parent = 0, .shares = 300 },
		{ .parent = 0, .shares = 100, .usage = 50 },
		{ .parent = 1, .shares = 10, .usage = 1000, .user = true,
		  .running = 1 },
		{ .parent = 1, .shares = 30, .usage = 10, .user = true },
		{ .parent = 2, .shares = 5, .usage = 0.5, .user = true,
		  .running = 3 },
	};
	uint32_t nres = prism_ge_count(pol, PRISM_GE_RESOURCE);
	uint32_t nu = prism_ge_count(pol, PRISM_GE_USER);
	uint32_t na = prism_ge_count(pol, PRISM_GE_ACCOUNT);
	uint32_t np = prism_ge_count(pol, PRISM_GE_PARTITION);
	double *amount = calloc((size_t) JOBS * nres, sizeof(*amount));
	uint32_t *urun = calloc(nu ? nu : 1, sizeof(*urun));
	uint32_t *arun = calloc(na ? na : 1, sizeof(*arun));
	prism_ge_job_t jobs[JOBS];
	prism_ge_result_t res[JOBS];
	prism_error_t err = { "" };
	prism_ge_pass_t *pass = prism_ge_pass_create(&err);
	prism_ge_input_t in = { .pol = pol, .now = 1700000000,
				.nodes = nodes, .node_cnt = 6,
				.user_running = urun, .account_running = arun };
	double w = p->weight_urgency + p->weight_ticket + p->weight_priority;
	char explain[2048];

	if (!amount || !urun || !arun || !pass)
		abort();
	for (uint32_t u = 0; u < nu; u++)
		urun[u] = u % 3;
	for (uint32_t a = 0; a < na; a++)
		arun[a] = a % 2;
	for (uint32_t i = 0; i < JOBS; i++) {
		double *am = amount + (size_t) i * nres;

		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].job_id = 100 + i % 5;
		jobs[i].submit = in.now - (int64_t) i * 3600;
		jobs[i].deadline = i % 4 == 1 ? in.now + (int64_t) i * 60 - 300
					      : 0;
		jobs[i].nice = (int64_t) (i * 997 % 4001) - 2000;
		jobs[i].node = i % 4 == 3 ? PRISM_GE_NONE : 3 + i % 3;
		jobs[i].user = nu && i % 5 ? i % nu : PRISM_GE_NONE;
		jobs[i].account = na && i % 3 ? i % na : PRISM_GE_NONE;
		jobs[i].partition = np && i % 2 ? i % np : PRISM_GE_NONE;
		jobs[i].jobshare = i % 6 == 0 ? 10 * i : 0;
		jobs[i].otickets = i % 7 == 0 ? 50 : 0;
		for (uint32_t r = 0; r < nres; r++)
			am[r] = (double) ((i + r) % 9) * (r == 1 ? 1024 : 1);
		jobs[i].amount = i == 16 ? NULL : am;
	}
	FUZZ_CHECK(!prism_ge_pass_run(pass, &in, jobs, JOBS, res, &err),
		   "pass: %s", err.text);
	for (uint32_t i = 0; i < JOBS; i++) {
		const prism_ge_result_t *r = &res[i];
		prism_ge_result_t one;
		prism_ge_sprio_t col;
		int n;

		FUZZ_CHECK(isfinite(r->urg) && r->urg >= 0 &&
				   isfinite(r->tckts) && r->tckts >= 0,
			   "job %u: urg %g tckts %g", i, r->urg, r->tckts);
		FUZZ_CHECK(r->nurg >= 0 && r->nurg <= 1 && r->ntckts >= 0 &&
				   r->ntckts <= 1 && r->npprior > 0 &&
				   r->npprior <= 1,
			   "job %u: normalised %g %g %g", i, r->nurg,
			   r->ntckts, r->npprior);
		FUZZ_CHECK(r->ppri >= PRISM_GE_PPRI_MIN &&
				   r->ppri <= PRISM_GE_PPRI_MAX,
			   "ppri %d", (int) r->ppri);
		FUZZ_CHECK(r->prio >= 0 && r->prio <= w * (1 + 1e-12),
			   "job %u: prio %g of %g", i, r->prio, w);
		FUZZ_CHECK(r->slurm == prism_ge_to_slurm(pol, r->prio) &&
				   r->slurm >= 1 &&
				   r->slurm <= PRISM_GE_SLURM_MAX,
			   "job %u: slurm %u", i, r->slurm);
		FUZZ_CHECK(r->stckt <= p->weight_tickets_share * (1 + 1e-12),
			   "job %u: stckt %g", i, r->stckt);
		FUZZ_CHECK(!prism_ge_sprio(pol, r, &col, &err), "sprio");
		FUZZ_CHECK((uint64_t) col.urgency + col.tickets + col.posix +
					   col.offset ==
				   r->slurm,
			   "sprio sum");
		FUZZ_CHECK(col.offset >= 1 && col.offset <= 4,
			   "sprio offset %u", col.offset);
		FUZZ_CHECK(!prism_ge_urgency(pol, &jobs[i], in.now, &one,
					     &err),
			   "urgency: %s", err.text);
		FUZZ_CHECK(one.urg == r->urg && one.rrcontr == r->rrcontr,
			   "urgency differs");
		n = prism_ge_explain(pol, r, explain, sizeof(explain), &err);
		FUZZ_CHECK(n > 0 && (size_t) n < sizeof(explain) &&
				   strlen(explain) == (size_t) n,
			   "explain %d", n);
		n = prism_ge_explain(pol, r, explain, (size_t) n, &err);
		FUZZ_CHECK(n == -1, "explain into a short buffer: %d", n);
	}
	FUZZ_CHECK(prism_ge_pass_range(pass)->jobs == JOBS, "range");
	for (int k = 0; k < 4; k++) {
		double u = prism_ge_decay(1000.0, k * 86400.0, p->halftime);

		FUZZ_CHECK(u >= 0 && u <= 1000.0, "decay %g", u);
	}
	prism_ge_pass_free(pass);
	free(amount);
	free(urun);
	free(arun);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	prism_ge_policy_t *const sentinel = (prism_ge_policy_t *) 0x1;
	prism_ge_policy_t *pol = sentinel;
	prism_error_t err = { "" };
	char *copy = fuzz_dup(data, size);
	const prism_ge_params_t *p;
	int rc;

	rc = prism_ge_conf_parse(copy, size, FILE_NAME, &pol, &err);
	free(copy);
	if (rc) {
		FUZZ_CHECK(rc == -1, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		FUZZ_CHECK(!strncmp(err.text, FILE_NAME ":", 10) ||
				   !strcmp(err.text,
					   FILE_NAME ": file is empty") ||
				   !strcmp(err.text,
					   FILE_NAME ": out of memory"),
			   "error '%s'", err.text);
		FUZZ_CHECK(pol == sentinel, "*out changed on failure");
		FUZZ_CHECK(size == 0 || strcmp(err.text,
					       FILE_NAME ": file is empty"),
			   "empty for %zu bytes", size);
		return 0;
	}
	FUZZ_CHECK(pol && pol != sentinel, "no policy");
	FUZZ_CHECK(size > 0, "an empty text parsed");
	p = prism_ge_policy_params(pol);
	check_params(p);
	for (size_t i = 0; i < prism_ge_policy_notice_count(pol); i++)
		FUZZ_CHECK(prism_ge_policy_notice(pol, i) &&
				   !strncmp(prism_ge_policy_notice(pol, i),
					    FILE_NAME ":", 10),
			   "notice %zu", i);
	FUZZ_CHECK(!prism_ge_policy_notice(pol,
					   prism_ge_policy_notice_count(pol)),
		   "notice past the end");
	check_entries(pol);
	lookup_words(pol, data, size);
	check_mapping(pol, p);
	use_policy(pol, p);
	prism_ge_policy_free(pol);
	return 0;
}
