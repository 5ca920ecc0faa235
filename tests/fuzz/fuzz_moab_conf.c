/*****************************************************************************\
 *  fuzz_moab_conf.c - libFuzzer target for prism_moab_conf_parse() (the
 *  Moab/Maui priority file) and the policy it builds.
 *
 *  The input is the file text. Checked besides memory safety and UB:
 *   - on failure: -1, *out untouched, an error naming the file;
 *   - on success, the policy: scalar parameters within their documented
 *     ranges; every notice readable; every credential found again by its
 *     name at its own handle; lookups of every word of the input (CFG
 *     names, ATTR/GRES names) agree with the tables; Slurm priority
 *     mapping inverts; then the policy is used: fair-share usage created,
 *     charged, rolled, formatted and parsed back; a priority and its
 *     explanation computed for a job of each credential; and freed;
 *   - each line of a good file classified alone (prism convert).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_moab.h"
#include "prism_moab_conf.h"

#define FILE_NAME "fuzz.cfg"

static void check_params(const prism_moab_params_t *p)
{
	FUZZ_CHECK(p->fs_depth >= 1 && p->fs_depth <= 32, "FSDEPTH %u",
		   p->fs_depth);
	FUZZ_CHECK(p->fs_decay > 0.0 && p->fs_decay <= 1.0, "FSDECAY %g",
		   p->fs_decay);
	FUZZ_CHECK(p->fs_interval > 0, "FSINTERVAL %lld",
		   (long long) p->fs_interval);
	FUZZ_CHECK(p->max_prio >= 1 &&
		   p->max_prio <= PRISM_MOAB_MAX_PRIO_LIMIT,
		   "MAX_PRIO_VAL %lld", (long long) p->max_prio);
	FUZZ_CHECK(p->xf_min_wclimit >= 0, "XFMINWCLIMIT %lld",
		   (long long) p->xf_min_wclimit);
	FUZZ_CHECK((unsigned) p->fs_policy <= PRISM_MOAB_FS_SDEDICATEDPS,
		   "FSPOLICY %d", (int) p->fs_policy);
}

static void check_creds(const prism_moab_policy_t *pol)
{
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		prism_moab_cred_kind_t kind = (prism_moab_cred_kind_t) k;
		uint32_t n = prism_moab_cred_count(pol, kind);

		FUZZ_CHECK(prism_moab_cred_kind_name(kind), "kind %d", k);
		for (uint32_t i = 0; i < n; i++) {
			const prism_moab_cred_t *c =
				prism_moab_cred_get(pol, kind, i);

			FUZZ_CHECK(c && c->name && c->name[0],
				   "credential %d/%u", k, i);
			FUZZ_CHECK(prism_moab_cred_find(pol, kind, c->name) ==
					   i, "%s: not found at its handle",
				   c->name);
			FUZZ_CHECK(c->fs_target >= 0.0 &&
				   c->fs_target <= 1e6, "FSTARGET %g",
				   c->fs_target);
			FUZZ_CHECK((unsigned) c->fs_type <=
					   PRISM_MOAB_FST_CAP,
				   "fs_type %d", (int) c->fs_type);
			FUZZ_CHECK(c->qt_target >= 0, "QTTARGET");
			FUZZ_CHECK(c->xf_target == 0.0 ||
				   (c->xf_target >= 1.0 &&
				    c->xf_target <= 1e9), "XFTARGET %g",
				   c->xf_target);
		}
		FUZZ_CHECK(!prism_moab_cred_get(pol, kind, n), "past the end");
		FUZZ_CHECK(!prism_moab_cred_get(pol, kind, PRISM_MOAB_NONE),
			   "NONE");
	}
	FUZZ_CHECK(!prism_moab_cred_count(pol, PRISM_MOAB_CRED_CNT), "count");
	FUZZ_CHECK(prism_moab_cred_find(pol, PRISM_MOAB_CRED_CNT, "x") ==
			   PRISM_MOAB_NONE, "find bad kind");
}

static void check_bits(const prism_moab_policy_t *pol)
{
	for (int b = -2; b <= PRISM_MOAB_BITS_MAX + 1; b++) {
		(void) prism_moab_attr_prio(pol, b);
		(void) prism_moab_gres_prio(pol, b);
	}
	FUZZ_CHECK(prism_moab_attr_bit(pol, NULL) == -1, "attr NULL");
	FUZZ_CHECK(prism_moab_gres_bit(pol, NULL) == -1, "gres NULL");
}

/* Look up every word of the text (cut at blanks, '[', ']', '='). */
static void lookup_words(const prism_moab_policy_t *pol, const uint8_t *data,
			 size_t size)
{
	char word[PRISM_MOAB_LINE_MAX + 1];
	size_t i = 0, lookups = 0;

	while (i < size && lookups < 256) {
		size_t n = 0;

		while (i < size && strchr(" \t\r\n[]=#", data[i]) && data[i])
			i++;
		while (i < size && data[i] && !strchr(" \t\r\n[]=#", data[i])) {
			if (n < PRISM_MOAB_LINE_MAX)
				word[n++] = (char) data[i];
			i++;
		}
		if (i < size && !data[i])
			i++;
		if (!n)
			continue;
		word[n] = '\0';
		lookups++;
		for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
			uint32_t h = prism_moab_cred_find(
				pol, (prism_moab_cred_kind_t) k, word);

			if (h != PRISM_MOAB_NONE) {
				const prism_moab_cred_t *c = prism_moab_cred_get(
					pol, (prism_moab_cred_kind_t) k, h);

				FUZZ_CHECK(c && !strcmp(c->name, word),
					   "find '%s' gave another", word);
			}
		}
		{
			int a = prism_moab_attr_bit(pol, word);
			int g = prism_moab_gres_bit(pol, word);

			FUZZ_CHECK(a >= -1 && a < PRISM_MOAB_BITS_MAX,
				   "attr bit %d", a);
			FUZZ_CHECK(g >= -1 && g < PRISM_MOAB_BITS_MAX,
				   "gres bit %d", g);
		}
	}
}

static void check_mapping(const prism_moab_policy_t *pol,
			  const prism_moab_params_t *p)
{
	int64_t lo = p->enable_neg ? -p->max_prio : 0;
	int64_t probe[] = { lo, lo + 1, 0, p->max_prio - 1, p->max_prio,
			    2 * p->max_prio };

	for (size_t i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		uint32_t s;

		if (probe[i] < lo)
			continue;
		s = prism_moab_to_slurm(pol, probe[i]);
		FUZZ_CHECK(s != 0, "Slurm priority 0 for %lld",
			   (long long) probe[i]);
		FUZZ_CHECK(prism_moab_from_slurm(pol, s) == probe[i],
			   "mapping of %lld does not invert",
			   (long long) probe[i]);
	}
}

/* Use the policy as the plugin would, one pass. */
static void use_policy(const prism_moab_policy_t *pol,
		       const prism_moab_params_t *p)
{
	prism_error_t err = { "" };
	prism_moab_usage_t *u = prism_moab_usage_create(pol, 1700000000, &err);
	prism_moab_totals_t part = { 64, 256000, 0, 1000000 };
	prism_moab_pass_t pass = { pol, u, 1700003600 };
	char *text, explain[8192];
	size_t size;
	int n;

	FUZZ_CHECK(u, "usage_create: %s", err.text);
	for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
		uint32_t cnt = prism_moab_cred_count(pol,
						     (prism_moab_cred_kind_t) k);

		for (uint32_t i = 0; i < cnt && i < 64; i++)
			FUZZ_CHECK(!prism_moab_usage_add(
					   u, (prism_moab_cred_kind_t) k, i,
					   1000.0 * (i + 1), &err),
				   "usage_add: %s", err.text);
	}
	FUZZ_CHECK(!prism_moab_usage_add_total(u, 1e6, &err), "add_total");
	(void) prism_moab_usage_roll(u, 1700000000 + p->fs_interval);

	/* one job per handle (and one with no credential at all) */
	for (uint32_t i = 0; i <= 16; i++) {
		prism_moab_job_t job;
		prism_moab_result_t res;

		memset(&job, 0, sizeof(job));
		for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
			uint32_t cnt = prism_moab_cred_count(
				pol, (prism_moab_cred_kind_t) k);

			job.cred[k] = i < cnt ? i : PRISM_MOAB_NONE;
		}
		job.class_prio = 10;
		job.part = &part;
		job.nodes = 2;
		job.procs = 16;
		job.mem_mb = 4096;
		job.wclimit = 3600;
		job.queue_time = 600 * (int64_t) i;
		job.deadline = i & 1 ? pass.now + 7200 : 0;
		job.user_prio = -(int32_t) i;
		job.state = (prism_moab_state_t) (i % PRISM_MOAB_STATE_CNT);
		job.exec_time = 100;
		job.attr_mask = i & 2 ? UINT64_MAX : 0;
		job.gres_mask = i & 4 ? UINT64_MAX : 1;
		job.sys_prio = i == 16 ? 5 : 0;
		FUZZ_CHECK(!prism_moab_prio(&pass, &job, &res, &err),
			   "prio: %s", err.text);
		FUZZ_CHECK(res.slurm != 0, "Slurm priority 0");
		FUZZ_CHECK(res.prio >= (p->enable_neg ? -p->max_prio : 0) &&
			   res.prio <= 2 * p->max_prio, "priority %lld",
			   (long long) res.prio);
		FUZZ_CHECK(prism_moab_from_slurm(pol, res.slurm) == res.prio,
			   "mapping");
		n = prism_moab_explain(pol, &res, explain, sizeof(explain),
				       &err);
		FUZZ_CHECK(n == -1 || (size_t) n < sizeof(explain),
			   "explain %d", n);
		(void) prism_moab_explain(pol, &res, explain, 16, &err);
	}

	/* usage text round trip */
	size = prism_moab_usage_format_size(u);
	text = malloc(size);
	if (!text)
		abort();
	n = prism_moab_usage_format(u, text, size, &err);
	FUZZ_CHECK(n > 0 && (size_t) n < size, "usage_format %d (size %zu): %s",
		   n, size, err.text);
	{
		prism_moab_usage_t *back = NULL;
		char *text2;
		int n2;

		FUZZ_CHECK(!prism_moab_usage_parse(text, (size_t) n, pol, &back,
						   &err),
			   "usage text refused: %s", err.text);
		text2 = malloc(size);
		if (!text2)
			abort();
		n2 = prism_moab_usage_format(back, text2, size, &err);
		FUZZ_CHECK(n2 == n && !memcmp(text, text2, (size_t) n),
			   "usage round trip differs");
		free(text2);
		prism_moab_usage_free(back);
	}
	free(text);
	prism_moab_usage_free(u);
}

/*
 * Each line of a file that parsed whole classifies alone (what prism
 * convert does), and a line with ignored parts says why.
 */
static void check_lines(const uint8_t *data, size_t size)
{
	char line[PRISM_MOAB_LINE_MAX + 1];
	unsigned lineno = 0;
	size_t pos = 0;

	while (pos < size) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t n = nl ? (size_t) (nl - (data + pos)) : size - pos;
		prism_error_t err = { "" }, why = { "" };
		prism_moab_line_t kind;

		memcpy(line, data + pos, n);
		line[n] = '\0';
		pos += n + (nl ? 1 : 0);
		FUZZ_CHECK(!prism_moab_conf_line(line, FILE_NAME, ++lineno,
						 &kind, &why, &err),
			   "line %u alone: %s", lineno, err.text);
		FUZZ_CHECK(kind <= PRISM_MOAB_LINE_IGNORED, "kind %d",
			   (int) kind);
		FUZZ_CHECK(why.text[0] || kind == PRISM_MOAB_LINE_BLANK ||
				   kind == PRISM_MOAB_LINE_PRIORITY,
			   "line %u: ignored without a reason", lineno);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	prism_moab_policy_t *const sentinel = (prism_moab_policy_t *) 0x1;
	prism_moab_policy_t *pol = sentinel;
	prism_error_t err = { "" };
	const prism_moab_params_t *p;
	int rc;

	rc = prism_moab_conf_parse((const char *) data, size, FILE_NAME, &pol,
				   &err);
	if (rc) {
		FUZZ_CHECK(rc == -1, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		FUZZ_CHECK(!strncmp(err.text, FILE_NAME ":", 9),
			   "error '%s'", err.text);
		FUZZ_CHECK(pol == sentinel, "*out changed on failure");
		return 0;
	}
	FUZZ_CHECK(pol && pol != sentinel, "no policy");
	p = prism_moab_policy_params(pol);
	check_params(p);
	for (size_t i = 0; i < prism_moab_policy_notice_count(pol); i++)
		FUZZ_CHECK(prism_moab_policy_notice(pol, i) &&
			   !strncmp(prism_moab_policy_notice(pol, i),
				    FILE_NAME ":", 9), "notice %zu", i);
	FUZZ_CHECK(!prism_moab_policy_notice(pol,
				prism_moab_policy_notice_count(pol)),
		   "notice past the end");
	check_creds(pol);
	check_bits(pol);
	check_lines(data, size);
	lookup_words(pol, data, size);
	check_mapping(pol, p);
	use_policy(pol, p);
	prism_moab_policy_free(pol);
	return 0;
}
