/*****************************************************************************\
 *  cli_check_mf.c - `prism check` under policy=multifactor: slurm.conf's
 *  priority settings as the plugin reads them, checked by the core
 *  (prism_mf_check), each warning with the file and line that sets it.
 *
 *  The values come from Slurm's own parser (slurm_init(), which fills
 *  the global slurm_conf): Include files, continuations and every time
 *  form are read as slurmctld reads them. Slurm's parser keeps no line
 *  numbers, so the lines come from cli_conf_locate(), a scan for each
 *  "Key=" (last one wins) that is never a source of values.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_check.h"
#include "cli_check_mf.h"
#include "prism_cli.h"
#include "prism_mf_check.h"

/* The keys a finding may name, and the summary prints. */
static const char *const keys[] = {
	"PriorityWeightAge",	   "PriorityWeightFairshare",
	"PriorityWeightJobSize",   "PriorityWeightPartition",
	"PriorityWeightQOS",	   "PriorityWeightAssoc",
	"PriorityWeightTRES",	   "PriorityFlags",
	"PriorityMaxAge",	   "PriorityCalcPeriod",
	"PriorityDecayHalfLife",   "PriorityUsageResetPeriod",
	"PriorityFavorSmall",
};
#define KEY_CNT (sizeof(keys) / sizeof(keys[0]))

/* Slurm's PriorityFlags bits to the core's (the same names). */
static uint32_t _flags(uint16_t f)
{
	static const struct {
		uint32_t slurm, prism;
	} map[] = {
		{ PRIORITY_FLAGS_ACCRUE_ALWAYS, PRISM_MF_F_ACCRUE_ALWAYS },
		{ PRIORITY_FLAGS_MAX_TRES, PRISM_MF_F_MAX_TRES },
		{ PRIORITY_FLAGS_SIZE_RELATIVE, PRISM_MF_F_SIZE_RELATIVE },
		{ PRIORITY_FLAGS_DEPTH_OBLIVIOUS, PRISM_MF_F_DEPTH_OBLIVIOUS },
		{ PRIORITY_FLAGS_CALCULATE_RUNNING,
		  PRISM_MF_F_CALCULATE_RUNNING },
		{ PRIORITY_FLAGS_FAIR_TREE, PRISM_MF_F_FAIR_TREE },
		{ PRIORITY_FLAGS_INCR_ONLY, PRISM_MF_F_INCR_ONLY },
		{ PRIORITY_FLAGS_NO_NORMAL_ASSOC, PRISM_MF_F_NO_NORMAL_ASSOC },
		{ PRIORITY_FLAGS_NO_NORMAL_PART, PRISM_MF_F_NO_NORMAL_PART },
		{ PRIORITY_FLAGS_NO_NORMAL_QOS, PRISM_MF_F_NO_NORMAL_QOS },
		{ PRIORITY_FLAGS_NO_NORMAL_TRES, PRISM_MF_F_NO_NORMAL_TRES },
	};
	uint32_t out = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (f & map[i].slurm)
			out |= map[i].prism;
	return out;
}

/* PriorityUsageResetPeriod as slurm.conf spells it. */
static const char *_reset_name(uint16_t r)
{
	static const char *const names[] = {
		[PRIORITY_RESET_NONE] = "NONE",
		[PRIORITY_RESET_NOW] = "NOW",
		[PRIORITY_RESET_DAILY] = "DAILY",
		[PRIORITY_RESET_WEEKLY] = "WEEKLY",
		[PRIORITY_RESET_MONTHLY] = "MONTHLY",
		[PRIORITY_RESET_QUARTERLY] = "QUARTERLY",
		[PRIORITY_RESET_YEARLY] = "YEARLY",
	};

	if (r < sizeof(names) / sizeof(names[0]) && names[r])
		return names[r];
	return "?";
}

/* slurm_conf (after slurm_init()) into the core's settings 's'. */
static void _settings(prism_mf_settings_t *s)
{
	memset(s, 0, sizeof(*s));
	s->weight_age = slurm_conf.priority_weight_age;
	s->weight_fs = slurm_conf.priority_weight_fs;
	s->weight_js = slurm_conf.priority_weight_js;
	s->weight_part = slurm_conf.priority_weight_part;
	s->weight_qos = slurm_conf.priority_weight_qos;
	s->weight_assoc = slurm_conf.priority_weight_assoc;
	s->weight_tres = slurm_conf.priority_weight_tres;
	s->flags = _flags(slurm_conf.priority_flags);
	s->max_age = slurm_conf.priority_max_age;
	s->calc_period = slurm_conf.priority_calc_period;
	s->decay_hl = slurm_conf.priority_decay_hl;
	s->reset = _reset_name(slurm_conf.priority_reset_period);
	s->favor_small = slurm_conf.priority_favor_small != 0;
	/* AccountingStorageTRES with Slurm's always-on TRES added */
	s->tres_names = slurm_conf.accounting_storage_tres;
}

/* The location of 'key' among 'locs' (NULL: not one of them). */
static const cli_conf_loc_t *_loc(const cli_conf_loc_t *locs,
				  const char *key)
{
	for (size_t i = 0; key && i < KEY_CNT; i++)
		if (!strcmp(locs[i].key, key))
			return &locs[i];
	return NULL;
}

/*
 * "FILE:LINE: warning: KEY=VALUE: text" on stdout for each warning, the
 * same with "error:" on stderr for each finding slurmctld refuses the
 * file for; returns how many of those.
 */
static size_t _print_findings(const prism_mf_findings_t *out,
			      const cli_conf_loc_t *locs,
			      const char *conf_path)
{
	size_t errors = 0;

	for (size_t i = 0; i < out->cnt; i++) {
		const prism_mf_finding_t *f = &out->item[i];
		const cli_conf_loc_t *l = _loc(locs, f->key);
		FILE *to = f->error ? stderr : stdout;
		const char *kind = f->error ? "error" : "warning";

		errors += f->error;
		if (!f->key)
			fprintf(to, "%s: %s: %s\n", conf_path, kind, f->text);
		else if (l && l->file[0])
			fprintf(to, "%s:%u: %s: %s=%s: %s\n", l->file, l->line,
				kind, f->key, f->value, f->text);
		else
			fprintf(to, "%s:(default): %s: %s=%s: %s\n",
				conf_path, kind, f->key, f->value, f->text);
	}
	if (out->lost)
		printf("%s: warning: %zu more warnings not shown\n", conf_path,
		       out->lost);
	return errors;
}

/* What multifactor will do with these settings, on a few lines. */
static void _print_summary(const prism_mf_settings_t *s)
{
	char flags[PRISM_MF_FLAGS_STR_MAX], max_age[32], hl[32], calc[32];

	prism_mf_flags_str(s->flags, flags, sizeof(flags));
	prism_mf_time_str(s->max_age, max_age, sizeof(max_age));
	prism_mf_time_str(s->decay_hl, hl, sizeof(hl));
	prism_mf_time_str(s->calc_period, calc, sizeof(calc));
	printf("Priority = Age %u + Fairshare %u + JobSize %u + Partition %u + QOS %u + Assoc %u (weights; each factor 0..1)\n",
	       s->weight_age, s->weight_fs, s->weight_js, s->weight_part,
	       s->weight_qos, s->weight_assoc);
	printf("  PriorityWeightTRES: %s\n",
	       s->weight_tres && *s->weight_tres ? s->weight_tres : "none");
	printf("  PriorityFlags: %s\n", flags);
	printf("  PriorityMaxAge %s, PriorityCalcPeriod %s\n", max_age, calc);
	printf("  PriorityDecayHalfLife %s, PriorityUsageResetPeriod %s\n", hl,
	       s->reset);
	printf("  PriorityFavorSmall %s\n", s->favor_small ? "YES" : "NO");
}

extern int cli_check_multifactor(const char *conf_path)
{
	cli_conf_loc_t locs[KEY_CNT];
	prism_mf_settings_t s;
	prism_mf_findings_t out;
	prism_error_t err = { "" };
	size_t warnings, errors;
	char full[PATH_MAX];

	/*
	 * Slurm would retry a missing file for a minute, and reads an Include
	 * of "slurm.conf" (no '/') from "slurm.conf/FILE": give it the full
	 * path.
	 */
	if (!realpath(conf_path, full)) {
		fprintf(stderr, "%s: cannot open: %s\n", conf_path,
			strerror(errno));
		return CLI_ERROR;
	}
	for (size_t i = 0; i < KEY_CNT; i++)
		locs[i].key = keys[i];
	if (cli_conf_locate(conf_path, locs, KEY_CNT)) {
		cli_conf_locs_free(locs, KEY_CNT);
		return CLI_ERROR;
	}
	/* a file Slurm refuses: Slurm prints why and exits 1 */
	slurm_init(full);
	_settings(&s);
	s.flags_text = _loc(locs, "PriorityFlags")->text;
	if (prism_mf_check(&s, &out, &err)) {
		fprintf(stderr, "%s: %s\n", conf_path, err.text);
		cli_conf_locs_free(locs, KEY_CNT);
		slurm_fini();
		return CLI_ERROR;
	}
	errors = _print_findings(&out, locs, conf_path);
	warnings = out.cnt + out.lost - errors;
	prism_mf_findings_free(&out);
	cli_conf_locs_free(locs, KEY_CNT);
	if (errors) {
		fprintf(stderr, "%s: slurmctld refuses this file: %zu error%s\n",
			conf_path, errors, errors == 1 ? "" : "s");
		slurm_fini();
		return CLI_ERROR;
	}
	_print_summary(&s);
	if (warnings)
		printf("%s: OK (policy=multifactor), %zu warning%s\n",
		       conf_path, warnings, warnings == 1 ? "" : "s");
	else
		printf("%s: OK (policy=multifactor)\n", conf_path);
	slurm_fini();
	return CLI_OK;
}
