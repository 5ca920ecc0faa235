/*****************************************************************************\
 *  prism.c - the `prism` command for administrators: check a policy file
 *  (Moab or Grid Engine), convert a moab.cfg, explain how the controller
 *  ranks pending jobs.
 *  This file holds the usage text and picks the subcommand; the
 *  subcommands live in cli_check.c (check; cli_summary.c prints what a
 *  policy does), cli_convert.c (convert), cli_explain.c and
 *  cli_metrics.c (metrics).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli_check.h"
#include "cli_convert.h"
#include "cli_explain.h"
#include "cli_metrics.h"
#include "cli_release.h"
#include "prism_cli.h"

#ifndef PRISM_VERSION
#define PRISM_VERSION "unknown"
#endif

/* The manual, in short: what `prism help` prints. */
static const char usage_text[] =
	"Usage: prism COMMAND [OPTION...] [ARGUMENT...]\n"
	"       prism --help | --version\n"
	"\n"
	"Prism is a job-priority plugin for Slurm (PriorityType=priority/prism)\n"
	"that computes Slurm's multifactor priorities, a Moab/Maui policy or\n"
	"a Grid Engine policy (sched_conf(5)).\n"
	"This command checks and converts its policy files and shows how the\n"
	"controller ranks pending jobs.\n"
	"\n"
	"COMMANDS\n"
	"  check [--slurm-conf FILE] [POLICYFILE]\n"
	"  check --gridengine | --moab POLICYFILE\n"
	"      Check a policy file as slurmctld would read it. With POLICYFILE\n"
	"      alone, read it as a Moab policy (--gridengine: as a Grid Engine\n"
	"      policy, PriorityParameters=policy=gridengine, the format of\n"
	"      `qconf -ssconf` plus Prism's keys; --moab: as a Moab policy);\n"
	"      without, read PriorityParameters= from slurm.conf (FILE, else\n"
	"      $SLURM_CONF, else /etc/slurm/slurm.conf) and the file it names\n"
	"      (config=, else prism.conf next to slurm.conf); with both,\n"
	"      POLICYFILE is checked as the policy slurm.conf selects. Prints\n"
	"      each notice (parameters that are not about priority, weights\n"
	"      Slurm has no data for, older names read), what the policy will\n"
	"      do on one screen, then \"FILE: OK (policy=...)\"; an error\n"
	"      names the file and line and exits 1. Under policy=multifactor\n"
	"      slurm.conf's own priority settings are checked, read with\n"
	"      Slurm's parser: a warning per setting admins get wrong, with\n"
	"      file and line (exit 0), an error per setting slurmctld stops\n"
	"      on (a TRES weight it cannot read; exit 1).\n"
	"\n"
	"  convert MOAB.CFG\n"
	"      Write a Prism policy file made from a whole moab.cfg or maui.cfg\n"
	"      to standard output: its priority parameters as they are, every\n"
	"      other line commented out with the reason, a summary at the\n"
	"      end; never fails on a readable file. Save it, check it with\n"
	"      `prism check FILE` and select it in slurm.conf with\n"
	"          PriorityType=priority/prism\n"
	"          PriorityParameters=policy=moab,config=FILE\n"
	"\n"
	"  explain [-l | --long] [--json] [JOBID...]\n"
	"      With policy=multifactor (no policy= in PriorityParameters):\n"
	"      one block per pending job and partition (only JOBID... if\n"
	"      given): each term as the controller computed it (sprio's\n"
	"      columns), its factor, weight and inputs; the sum and the\n"
	"      priority it gives (clamped to 1..4294967295); the fair-share\n"
	"      path from root to the job's association (shares, usage,\n"
	"      fair-share factor, level fair-share) and, under Fair Tree, the\n"
	"      user's rank and the siblings that decided it. --json prints the\n"
	"      same for scripts. A JOBID not found, not pending or held is an\n"
	"      error (exit 1).\n"
	"      With policy=moab: Moab's `mdiag -p` view of the pending jobs (only JOBID... if\n"
	"      given), from the running slurmctld: per job its Slurm and Moab\n"
	"      priority, each component's contribution as the controller\n"
	"      computed it (sprio's columns) and, in parentheses, the\n"
	"      subcomponent values recomputed from the job at the plugin's last\n"
	"      pass; then each component's share of the total. A job whose\n"
	"      recomputed priority differs from the controller's gets a note.\n"
	"      --long adds each job's whole computation. Fair-share values need\n"
	"      read access to StateSaveLocation (run it as SlurmUser or root);\n"
	"      with PrivateData=jobs a user sees only their own jobs.\n"
	"      With policy=gridengine: Grid Engine's `qstat -pri` and\n"
	"      `qstat -urg` views instead: per job prior, nurg, npprior and\n"
	"      ntckts read back from the controller's sprio columns (AGE =\n"
	"      urgency, ASSOC = tickets, QOS = POSIX priority), ppri from its\n"
	"      nice, and its urgency (urg = rrcontr + wtcontr + dlcontr)\n"
	"      recomputed at the plugin's last pass; --long adds nothing there.\n"
	"      --json is for policy=multifactor only.\n"
	"\n"
	"  compare JOBID OTHERJOBID\n"
	"      Which terms decide the order of two pending jobs, under any\n"
	"      policy: each of sprio's columns for both (in a partition they\n"
	"      share, else each one's first), the difference, the terms that\n"
	"      decide alone (without one of them the order turns or ties) or,\n"
	"      when none does, those in the leader's favour. Two jobs of the\n"
	"      same priority are taken in job id order; a priority an\n"
	"      administrator set (scontrol update job=ID priority=N) decides\n"
	"      alone. A JOBID not found, not pending, held or not eligible\n"
	"      yet is an error (exit 1); anything but two different job ids\n"
	"      is a usage error (exit 2).\n"
	"\n"
	"  whatif [--top N] [--all] SETTING=VALUE...\n"
	"  whatif [--top N] [--all] --policy-file FILE\n"
	"      Recompute the pending queue as the plugin would under changed\n"
	"      settings, with the plugin's own arithmetic, and print how the\n"
	"      order changes: how many jobs move, the N (10) that move most\n"
	"      with rank and priority now and after, a summary per account\n"
	"      and, with --all, the whole new order. Nothing changes in the\n"
	"      controller. With policy=multifactor the settings are slurm.conf's\n"
	"      PriorityWeightAge, PriorityWeightAssoc, PriorityWeightFairshare,\n"
	"      PriorityWeightJobSize, PriorityWeightPartition, PriorityWeightQOS,\n"
	"      PriorityWeightTRES and PriorityMaxAge (a weight that is 0\n"
	"      now needs a factor the controller did not compute: age,\n"
	"      partition, QOS and Fair Tree's fair-share are read from the\n"
	"      records; job size and association are refused). With policy=moab\n"
	"      or policy=gridengine, FILE is a candidate policy file read in\n"
	"      place of the one in force. An unknown setting, a bad value or an\n"
	"      unreadable file is an error (exit 1).\n"
	"\n"
	"  metrics [--users all|pending|none] [--listen ADDR:PORT]\n"
	"      Print the Prometheus text exposition format (0.0.4) for\n"
	"      node_exporter's textfile collector, under any policy:\n"
	"      prism_info; the plugin's last pass from priority_prism_pass in\n"
	"      StateSaveLocation (read access needed: run it as SlurmUser or\n"
	"      root); pending jobs per partition and account; per partition\n"
	"      the lowest, highest and mean priority and the mean of each of\n"
	"      sprio's terms (named for the policy's components); per\n"
	"      association sshare's FairShare, LevelFS, NormShares, RawUsage\n"
	"      and EffectvUsage, and under Fair Tree each user's rank. No\n"
	"      series per job. --users pending: user associations only with a\n"
	"      pending job; none: accounts only (default all). No controller,\n"
	"      or no pass figures: one line on stderr, exit 1. --listen\n"
	"      ADDR:PORT (numeric: 127.0.0.1:9100, [::1]:9100) serves the same\n"
	"      at GET /metrics over HTTP, read afresh at each scrape, until\n"
	"      SIGINT or SIGTERM; a scrape that cannot be made is HTTP 503 with\n"
	"      the reason, an address that cannot be bound exit 1.\n"
	"\n"
	"  help\n"
	"      Print this text.\n"
	"\n"
	"OPTIONS\n"
	"  -h, --help      print this text and exit\n"
	"  -V, --version   print the version and exit\n"
	"  A subcommand's options may come before or after its arguments\n"
	"  (prism explain 10 --json); none after '--'. With POSIXLY_CORRECT\n"
	"  set, options must come first, as in every GNU tool.\n"
	"\n"
	"ENVIRONMENT\n"
	"  SLURM_CONF      the slurm.conf check reads without --slurm-conf (unset\n"
	"                  or empty: /etc/slurm/slurm.conf), and through which\n"
	"                  explain, compare and whatif find the controller (one\n"
	"                  that names no file, or is empty, is an error at once),\n"
	"                  and metrics finds it the same way;\n"
	"                  convert reads none\n"
	"  POSIXLY_CORRECT when set, a subcommand's options end at its first\n"
	"                  other argument (getopt_long(3)); -h, --help still\n"
	"                  print this text\n"
	"\n"
	"EXIT STATUS\n"
	"  0 success, 1 an error (a bad file, no controller), 2 a usage error.\n";

extern void cli_usage(FILE *out)
{
	fputs(usage_text, out);
}

extern int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("prism: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'prism --help'.\n", stderr);
	return CLI_USAGE;
}

/* Does a subcommand's argument list ask for help? */
static bool _wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	}
	return false;
}

/*
 * 'rc', or CLI_ERROR after saying so when standard output could not be
 * written (a full disk, a closed pipe): prism(1) promises status 1 then.
 */
static int _out_written(int rc)
{
	int err = 0;

	if (fflush(stdout))
		err = errno;
	else if (!ferror(stdout))
		return rc;
	if (rc)
		return rc;
	/* an earlier write's error is no longer known */
	if (err)
		fprintf(stderr, "prism: cannot write the output: %s\n",
			strerror(err));
	else
		fprintf(stderr, "prism: cannot write the output\n");
	return CLI_ERROR;
}

static int _run(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} cmds[] = {
		{ "check", cli_check },
		{ "convert", cli_convert },
		{ "explain", cli_explain },
		{ "compare", cli_compare },
		{ "whatif", cli_whatif },
		{ "metrics", cli_metrics },
	};
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		return cli_usage_error("missing command");
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help")) {
		/* -h among the arguments is help too, as for any command */
		if (argc > 2 && !_wants_help(argc - 1, argv + 1))
			return cli_usage_error("unexpected argument '%s'",
					    argv[2]);
		cli_usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		if (argc > 2)
			return cli_usage_error("unexpected argument '%s'",
					    argv[2]);
		printf("prism %s (built for Slurm %s)\n", PRISM_VERSION,
		       cli_release_built());
		return CLI_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(cmd, cmds[i].name))
			continue;
		if (_wants_help(argc - 1, argv + 1)) {
			cli_usage(stdout);
			return CLI_OK;
		}
		return cmds[i].run(argc - 1, argv + 1);
	}
	if (cmd[0] == '-')
		return cli_usage_error("unknown option '%s'", cmd);
	return cli_usage_error("unknown command '%s'", cmd);
}

int main(int argc, char **argv)
{
	return _out_written(_run(argc, argv));
}
