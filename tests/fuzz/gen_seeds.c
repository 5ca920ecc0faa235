/*****************************************************************************\
 *  gen_seeds.c - writes the state-text seeds of corpus/state and
 *  corpus/moab_usage with Prism's own format functions, so they carry
 *  the right checksums. Run from the top of the tree:
 *      c=src/core/common m=src/core/moab
 *      cc -I$c -I$m -o /tmp/gen_seeds tests/fuzz/gen_seeds.c \
 *          $m/prism_moab.c $m/prism_moab_conf.c $c/prism_idmap.c \
 *          $c/prism_lines.c $c/prism_names.c $c/prism_buf.c \
 *          $c/prism_sumtext.c $c/prism_state.c $c/prism_error.c -lm
 *      /tmp/gen_seeds tests/fuzz/corpus
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_moab.h"
#include "prism_moab_conf.h"
#include "prism_state.h"

static void put(const char *dir, const char *sub, const char *name,
		const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void state_seed(const char *dir, const char *name, int64_t recalc,
		       int64_t reset)
{
	prism_state_t st = { recalc, reset };
	prism_error_t err;
	char buf[256];
	int n = prism_state_format(&st, buf, sizeof(buf), &err);

	if (n < 0) {
		fprintf(stderr, "%s\n", err.text);
		exit(1);
	}
	put(dir, "state", name, buf, (size_t) n);
}

/* The fixed policy A of fuzz_moab_usage.c (names must match). */
static const char *pol_a =
	"FSPOLICY DEDICATEDPS\nFSDEPTH 4\nFSINTERVAL 1:00:00\nFSDECAY 0.5\n"
	"USERCFG[alice] FSTARGET=30\nUSERCFG[bob] FSTARGET=20+\n"
	"USERCFG[carol] FSTARGET=5-\nGROUPCFG[staff] FSTARGET=50-\n"
	"ACCOUNTCFG[physics] FSTARGET=40\nACCOUNTCFG[chem] FSTARGET=60^\n"
	"QOSCFG[high] FSTARGET=10\nCLASSCFG[batch] FSTARGET=25\n";

static const char *pol_b =
	"FSPOLICY UTILIZEDPS\nFSDEPTH 32\nFSINTERVAL 1\nUSERCFG[alice] "
	"FSTARGET=50\n";

static void usage_seed(const char *dir, const char *name, const char *ptext,
		       int64_t now, int rolls, double scale)
{
	prism_moab_policy_t *pol;
	prism_moab_usage_t *u;
	prism_error_t err;
	char *buf;
	size_t size;
	int n;

	if (prism_moab_conf_parse(ptext, strlen(ptext), "seed.cfg", &pol,
				  &err)) {
		fprintf(stderr, "%s\n", err.text);
		exit(1);
	}
	u = prism_moab_usage_create(pol, now, &err);
	if (!u)
		exit(1);
	for (int r = 0; r < rolls; r++) {
		for (int k = 0; k < PRISM_MOAB_CRED_CNT; k++) {
			uint32_t cnt = prism_moab_cred_count(
				pol, (prism_moab_cred_kind_t) k);

			for (uint32_t i = 0; i < cnt; i++)
				prism_moab_usage_add(
					u, (prism_moab_cred_kind_t) k, i,
					scale * (r + 1) * (i + 1) * (k + 1),
					&err);
		}
		prism_moab_usage_add_total(u, scale * 1000.0 * (r + 1), &err);
		prism_moab_usage_roll(u, now + (int64_t) (r + 1) *
					      prism_moab_policy_params(pol)
						      ->fs_interval);
	}
	size = prism_moab_usage_format_size(u);
	buf = malloc(size);
	n = prism_moab_usage_format(u, buf, size, &err);
	if (n < 0) {
		fprintf(stderr, "%s\n", err.text);
		exit(1);
	}
	put(dir, "moab_usage", name, buf, (size_t) n);
	free(buf);
	prism_moab_usage_free(u);
	prism_moab_policy_free(pol);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/fuzz/corpus";

	state_seed(dir, "zero", 0, 0);
	state_seed(dir, "typical", 1700000000, 1699990000);
	state_seed(dir, "negative", -1, -86400);
	state_seed(dir, "extremes", INT64_MAX, INT64_MIN);

	usage_seed(dir, "empty_a", pol_a, 1700000000, 0, 1.0);
	usage_seed(dir, "used_a", pol_a, 1700000000, 3, 1.0);
	usage_seed(dir, "full_a", pol_a, 1700000000, 6, 0.125);
	usage_seed(dir, "used_b", pol_b, 1700000000, 5, 3.5);
	usage_seed(dir, "big_a", pol_a, -1700000000, 2, 1e300);
	return 0;
}
