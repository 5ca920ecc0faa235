/*****************************************************************************\
 *  fuzz_params.c - libFuzzer target for prism_params_parse()
 *  (PriorityParameters= of slurm.conf).
 *
 *  The input, cut at its first NUL, is the PriorityParameters value.
 *  Checked besides memory safety and UB:
 *   - on failure: -1, 'out' untouched, an error starting
 *     "PriorityParameters: ";
 *   - on success: a known policy, config "" or an absolute path, no
 *     config for multifactor; the canonical text "policy=P[,config=C]"
 *     parses back to the same value; prism_params_config_path() never
 *     writes past its buffer, whatever its size.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prism_params.h"

static prism_params_t sentinel_params(void)
{
	prism_params_t p;

	memset(&p, 0xa5, sizeof(p));
	p.policy = PRISM_POLICY_GRIDENGINE;
	strcpy(p.config, "/sentinel");
	return p;
}

static void check_config_path(const prism_params_t *p, const char *conf)
{
	static const size_t sizes[] = { 1, 2, 11, 12, 64, PRISM_PARAMS_MAX + 16 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *buf = malloc(sizes[i]);
		prism_error_t err = { "" };
		int rc;

		if (!buf)
			abort();
		rc = prism_params_config_path(p, conf, buf, sizes[i], &err);
		if (rc == 0) {
			FUZZ_CHECK(memchr(buf, '\0', sizes[i]),
				   "config path not terminated");
			if (p->config[0])
				FUZZ_CHECK(!strcmp(buf, p->config),
					   "config path '%s' is not '%s'", buf,
					   p->config);
		} else {
			FUZZ_CHECK(rc == -1, "rc %d", rc);
			FUZZ_CHECK_ERR(err);
		}
		free(buf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	prism_params_t p = sentinel_params(), keep = sentinel_params();
	prism_error_t err = { "" };
	int rc;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';

	rc = prism_params_parse(text, &p, &err);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1, "rc %d", rc);
		FUZZ_CHECK_ERR(err);
		FUZZ_CHECK(!strncmp(err.text, "PriorityParameters: ", 20),
			   "error '%s'", err.text);
		FUZZ_CHECK(!memcmp(&p, &keep, sizeof(p)),
			   "output changed on failure");
		free(text);
		return 0;
	}

	FUZZ_CHECK((unsigned) p.policy <= PRISM_POLICY_GRIDENGINE,
		   "policy %d", (int) p.policy);
	FUZZ_CHECK(memchr(p.config, '\0', sizeof(p.config)),
		   "config not terminated");
	FUZZ_CHECK(!p.config[0] || p.config[0] == '/', "config '%s'",
		   p.config);
	FUZZ_CHECK(!p.config[0] || p.policy != PRISM_POLICY_MULTIFACTOR,
		   "config with multifactor");
	FUZZ_CHECK(strcmp(prism_policy_name(p.policy), "unknown"),
		   "no name for policy %d", (int) p.policy);

	/* round trip through the canonical text */
	{
		char canon[PRISM_PARAMS_MAX + 64];
		prism_params_t q = sentinel_params();
		prism_error_t err2 = { "" };
		int n;

		if (p.config[0])
			n = snprintf(canon, sizeof(canon), "policy=%s,config=%s",
				     prism_policy_name(p.policy), p.config);
		else
			n = snprintf(canon, sizeof(canon), "policy=%s",
				     prism_policy_name(p.policy));
		if (n > 0 && (size_t) n < PRISM_PARAMS_MAX) {
			FUZZ_CHECK(!prism_params_parse(canon, &q, &err2),
				   "canonical '%s' refused: %s", canon,
				   err2.text);
			FUZZ_CHECK(q.policy == p.policy &&
				   !strcmp(q.config, p.config),
				   "canonical '%s' parses differently", canon);
		}
	}

	check_config_path(&p, "/etc/slurm/slurm.conf");
	check_config_path(&p, "slurm.conf");
	check_config_path(&p, NULL);
	check_config_path(&p, text);	/* any string as slurm.conf path */
	free(text);
	return 0;
}
