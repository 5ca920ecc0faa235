/*****************************************************************************\
 *  cli_release.c - the release the plugin was built for against the
 *  slurmctld installed here and the one that answers (cli_release.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_release.h"
#include "prism_cli.h"

extern const char *cli_release_built(void)
{
#ifdef PRISM_PLUGIN_SLURM
	return PRISM_PLUGIN_SLURM;
#else
	static char buf[32];

	if (!buf[0])
		snprintf(buf, sizeof(buf), "%u.%02u.%u",
			 SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			 SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			 SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
	return buf;
#endif
}

/* The first executable 'name' in $PATH, then the sbin directories a
 * daemon is installed in, into 'buf'; false: none. */
static bool _find_program(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH");
	char dirs[4096];
	char *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/usr/local/sbin:/sbin",
		 path ? path : "");
	for (char *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		if ((size_t) snprintf(buf, size, "%s/%s", d, name) >= size)
			continue;
		if (!access(buf, X_OK))
			return true;
	}
	return false;
}

/* The release "PROG -V" prints ("slurm 24.11.5", "slurm-wlm 22.05.8")
 * into 'out'; false: it printed none. */
static bool _program_release(const char *prog, char *out, size_t size)
{
	char cmd[PATH_MAX + 32], line[256], *v;
	bool found = false;
	FILE *f;

	if (strchr(prog, '\''))
		return false;
	snprintf(cmd, sizeof(cmd), "'%s' -V 2>/dev/null", prog);
	if (!(f = popen(cmd, "r")))
		return false;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "slurm", 5) &&
	    (v = strchr(line, ' '))) {
		v += strspn(v, " ");
		v[strcspn(v, " \n")] = '\0';
		if (*v) {
			snprintf(out, size, "%s", v);
			found = true;
		}
	}
	pclose(f);
	return found;
}

extern int cli_release_check_installed(void)
{
	const char *env = getenv("PRISM_SLURMCTLD");
	char prog[PATH_MAX], release[64];

	if (env && *env) {
		snprintf(prog, sizeof(prog), "%s", env);
	} else if (!_find_program("slurmctld", prog, sizeof(prog))) {
		printf("priority_prism.so: built for Slurm %s (no slurmctld installed here to compare)\n",
		       cli_release_built());
		return CLI_OK;
	}
	if (!_program_release(prog, release, sizeof(release))) {
		printf("priority_prism.so: built for Slurm %s (%s -V printed no release)\n",
		       cli_release_built(), prog);
		return CLI_OK;
	}
	if (!strcmp(release, cli_release_built())) {
		printf("priority_prism.so: built for Slurm %s, the release of %s\n",
		       cli_release_built(), prog);
		return CLI_OK;
	}
	fprintf(stderr, "prism: error: %s is Slurm %s, but priority_prism.so was built for Slurm %s: slurmctld refuses to load it (a plugin loads only into the release it was built for); install Prism built for Slurm %s\n",
		prog, release, cli_release_built(), release);
	return CLI_ERROR;
}

extern void cli_release_warn_running(const char *version)
{
	if (!version || !strcmp(version, cli_release_built()))
		return;
	fprintf(stderr, "prism: warning: slurmctld runs Slurm %s, but priority_prism.so was built for Slurm %s: that slurmctld cannot have loaded it\n",
		version, cli_release_built());
}
