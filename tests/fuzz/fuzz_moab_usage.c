/*****************************************************************************\
 *  fuzz_moab_usage.c - libFuzzer target for prism_moab_usage_parse() (the
 *  Moab fair-share usage state text) and what the plugin does next with
 *  what it read.
 *
 *  Three fixed policies (built once from small Moab texts: four windows
 *  with credentials of every kind; 32 windows with one user; the default
 *  policy, with no credential) each parse every input, once as it is and
 *  once with its checksum line replaced by the right one (see
 *  fuzz_common.h) so that the fuzzer reaches the body. The texts are
 *  parsed from exact-size heap copies (ASan) and from copies that end
 *  right before an unmapped page, so that reads past their end inside
 *  libc (strtoul, not intercepted by ASan) fault. Checked besides memory
 *  safety and UB:
 *   - on failure: -1, *out untouched, an error text;
 *   - on success: format -> parse -> format gives the same text; the
 *     usage percentages and a priority for a job of each credential are
 *     computed; the usage is rolled to "now" and charged as a pass would.
 *
 *  Built with -DPRISM_FUZZ_SKIP_KNOWN (PRISM_FUZZ_CFLAGS of run.sh), the
 *  target steps around the crashes already in crashes/, to look for
 *  others until those are fixed.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_format.h"
#include "prism_moab.h"
#include "prism_moab_conf.h"

static const char *policy_texts[] = {
	"FSPOLICY DEDICATEDPS\n"
	"FSDEPTH 4\n"
	"FSINTERVAL 1:00:00\n"
	"FSDECAY 0.5\n"
	"FSWEIGHT 100\n"
	"FSUSERWEIGHT 10\n"
	"FSGROUPWEIGHT 20\n"
	"FSACCOUNTWEIGHT 30\n"
	"FSQOSWEIGHT 40\n"
	"FSCLASSWEIGHT 5\n"
	"USERCFG[alice] FSTARGET=30\n"
	"USERCFG[bob] FSTARGET=20+ PRIORITY=100\n"
	"USERCFG[carol] FSTARGET=5-\n"
	"GROUPCFG[staff] FSTARGET=50-\n"
	"ACCOUNTCFG[physics] FSTARGET=40 FSWEIGHT=5\n"
	"ACCOUNTCFG[chem] FSTARGET=60^\n"
	"QOSCFG[high] FSTARGET=10 QTWEIGHT=5 XFTARGET=4 QTTARGET=2:00:00\n"
	"CLASSCFG[batch] FSTARGET=25\n",

	"FSPOLICY UTILIZEDPS\n"
	"FSDEPTH 32\n"
	"FSINTERVAL 1\n"
	"FSDECAY 1.0\n"
	"FSUSERWEIGHT 1\n"
	"ENABLENEGJOBPRIORITY TRUE\n"
	"USERCFG[alice] FSTARGET=50\n",
};

#define NPOL (sizeof(policy_texts) / sizeof(policy_texts[0]) + 1)

static prism_moab_policy_t *policies[NPOL];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	for (size_t i = 0; i < NPOL - 1; i++) {
		prism_error_t err = { "" };

		if (prism_moab_conf_parse(policy_texts[i],
					  strlen(policy_texts[i]), "fixed.cfg",
					  &policies[i], &err)) {
			fprintf(stderr, "fixed policy %zu: %s\n", i, err.text);
			abort();
		}
	}
	policies[NPOL - 1] = prism_moab_policy_default();
	if (!policies[NPOL - 1])
		abort();
	return 0;
}

static void use_usage(const prism_moab_policy_t *pol, prism_moab_usage_t *u)
{
	prism_moab_pass_t pass = { pol, u, 1700000000 };
	prism_error_t err = { "" };

	/* a pass: percentages and a priority for a job of each credential */
	for (uint32_t i = 0; i <= 4; i++) {
		prism_moab_job_t job;
		prism_moab_result_t res;

		memset(&job, 0, sizeof(job));
		for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
			uint32_t n = prism_moab_cred_count(
				pol, (prism_moab_cred_kind_t) k);

			(void) prism_moab_usage_pct(
				u, (prism_moab_cred_kind_t) k, i);
			job.cred[k] = i < n ? i : PRISM_MOAB_NONE;
		}
		job.procs = 4;
		job.wclimit = 3600;
		job.queue_time = 60;
		job.state = PRISM_MOAB_IDLE;
		FUZZ_CHECK(!prism_moab_prio(&pass, &job, &res, &err), "prio: %s",
			   err.text);
		FUZZ_CHECK(res.slurm != 0, "Slurm priority 0");
	}
	/* then, as the next pass would: roll to now and charge */
#ifdef PRISM_FUZZ_SKIP_KNOWN
	/* known: crashes/moab_usage-roll-overflow-* */
	if (prism_moab_usage_start(u) < INT64_MAX / 2 &&
	    prism_moab_usage_start(u) > INT64_MIN / 2)
#endif
	(void) prism_moab_usage_roll(u, pass.now);
	{
		uint32_t cred[PRISM_MOAB_CRED_CNT] = { 0, 0, 0, 0, 0 };

		FUZZ_CHECK(!prism_moab_usage_charge(u, cred, 3600.0, &err),
			   "charge: %s", err.text);
	}
}

static void round_trip(const prism_moab_policy_t *pol,
		       const prism_moab_usage_t *u)
{
	size_t size = prism_moab_usage_format_size(u);
	char *text = malloc(size), *text2 = malloc(size);
	prism_moab_usage_t *back = NULL;
	prism_error_t err = { "" };
	int n, n2;

	if (!text || !text2)
		abort();
	n = prism_moab_usage_format(u, text, size, &err);
	FUZZ_CHECK(n > 0 && (size_t) n < size, "format %d (size %zu): %s", n,
		   size, err.text);
	FUZZ_CHECK(!prism_moab_usage_parse(text, (size_t) n, pol, &back, &err),
		   "formatted usage refused: %s\n%s", err.text, text);
	n2 = prism_moab_usage_format(back, text2, size, &err);
	FUZZ_CHECK(n2 == n && !memcmp(text, text2, (size_t) n),
		   "usage round trip differs:\n%s\n---\n%.*s", text,
		   n2 > 0 ? n2 : 0, text2);
	FUZZ_CHECK(prism_moab_usage_start(back) == prism_moab_usage_start(u),
		   "start changed");
	prism_moab_usage_free(back);
	/* a buffer one byte short fails cleanly */
	{
		char *small = malloc((size_t) n);

		if (!small)
			abort();
		FUZZ_CHECK(prism_moab_usage_format(u, small, (size_t) n, &err) ==
				   -1, "short buffer accepted");
		free(small);
	}
	free(text);
	free(text2);
}

static void parse_one(const prism_moab_policy_t *pol, const char *buf,
		      size_t len)
{
	prism_moab_usage_t *const sentinel = (prism_moab_usage_t *) 0x1;
	prism_moab_usage_t *u = sentinel;
	prism_error_t err = { "" };
	int rc = prism_moab_usage_parse(buf, len, pol, &u, &err);

	if (rc) {
		FUZZ_CHECK(rc == -1 || rc == PRISM_FORMAT_NEWER, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		FUZZ_CHECK(u == sentinel, "*out changed on failure");
		return;
	}
	FUZZ_CHECK(u && u != sentinel, "no usage");
	round_trip(pol, u);
	use_usage(pol, u);
	prism_moab_usage_free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = fuzz_dup(data, size), *fixed, *graw, *gfixed;
	size_t fixed_len;

	fixed = fuzz_fix_checksum(data, size, &fixed_len);
	graw = fuzz_guarded(0, data, size);
#ifdef PRISM_FUZZ_SKIP_KNOWN
	/* known: crashes/moab_usage-checksum-overread ("checksum" + blanks) */
	if (graw && size >= 10 && data[size - 1] == '\n') {
		size_t last = size - 1;

		while (last > 0 && data[last - 1] != '\n')
			last--;
		if (size - last >= 10 && !memcmp(data + last, "checksum ", 9) &&
		    strchr(" \t\n\v\f\r", data[last + 9]))
			graw = NULL;
	}
#endif
	gfixed = fuzz_guarded(1, (const uint8_t *) fixed, fixed_len);
	/* heap copies (ASan) with the first policy; page-guarded copies
	 * (reads past the end inside libc fault) with every policy */
	parse_one(policies[0], raw, size);
	parse_one(policies[0], fixed, fixed_len);
	for (size_t i = 0; i < NPOL; i++) {
		if (graw)
			parse_one(policies[i], graw, size);
		if (gfixed)
			parse_one(policies[i], gfixed, fixed_len);
	}
	free(raw);
	free(fixed);
	return 0;
}
