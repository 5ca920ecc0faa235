/*****************************************************************************\
 *  cli_metrics_cmd.c - the `prism metrics` subcommand: loads the
 *  controller's records (cli_records_load()) and the plugin's pass
 *  figures, and has cli_metrics.c write the exposition.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_metrics.h"

#ifndef PRISM_VERSION
#define PRISM_VERSION "unknown"
#endif

/* ---- the subcommand ---------------------------------------------------- */

/* --users WORD into *out; false when WORD is none of them. */
static bool _users_opt(const char *word, cli_metrics_users_t *out)
{
	if (!strcmp(word, "all"))
		*out = CLI_METRICS_USERS_ALL;
	else if (!strcmp(word, "pending"))
		*out = CLI_METRICS_USERS_PENDING;
	else if (!strcmp(word, "none"))
		*out = CLI_METRICS_USERS_NONE;
	else
		return false;
	return true;
}

extern int cli_metrics(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "users", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 },
	};
	cli_records_t r = { .conf = NULL };
	const cli_policy_t *entry = NULL;
	prism_passinfo_t pass;
	prism_error_t err = { "" };
	cli_metrics_in_t in = { .r = &r, .pass = &pass,
				.version = PRISM_VERSION,
				.users = CLI_METRICS_USERS_ALL };
	char path[PRISM_PARAMS_MAX + 64];
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'u' && _users_opt(optarg, &in.users))
			continue;
		if (c == 'u')
			return cli_usage_error("metrics: --users takes all, pending or none, not '%s'",
					       optarg);
		return cli_usage_error("metrics: unknown option '%s'",
				       argv[optind - 1]);
	}
	if (optind < argc)
		return cli_usage_error("metrics: unexpected argument '%s'",
				       argv[optind]);
	rc = cli_records_load(&r, true, &entry, path, sizeof(path));
	if (rc)
		goto out;
	in.policy = entry->kind;
	if (cli_metrics_pass_read(r.conf->state_save_location, &pass, &err)) {
		fprintf(stderr, "prism: no pass figures from the plugin: %s\n",
			err.text);
		rc = CLI_ERROR;
		goto out;
	}
	if (!r.assocs)
		fprintf(stderr, "prism: note: %s; no association series\n",
			r.assoc_err);
	rc = cli_metrics_write(&in, stdout, &err);
	if (rc)
		fprintf(stderr, "prism: %s\n", err.text);
out:
	cli_records_free(&r);
	return rc;
}
