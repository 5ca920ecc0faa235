/*****************************************************************************\
 *  cli_check.c - `prism check` (a policy file as slurmctld would read it,
 *  found through slurm.conf's PriorityParameters or named directly);
 *  `prism convert` is in cli_convert.c.
 *
 *  slurm.conf is scanned here for two keys only (PriorityType,
 *  PriorityParameters: which policy, which file), not parsed with Slurm's
 *  own parser, which needs a complete configuration and exits on errors.
 *  Under policy=multifactor the settings themselves are read with Slurm's
 *  parser (cli_check_mf.c); the scanner here then only finds the line of
 *  each key (cli_conf_locate()).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_check.h"
#include "cli_check_mf.h"
#include "cli_policy.h"
#include "cli_release.h"
#include "cli_summary.h"
#include "prism_cli.h"
#include "prism_file.h"
#include "prism_moab.h"
#include "prism_params.h"

#define DEFAULT_SLURM_CONF "/etc/slurm/slurm.conf"
#define INCLUDE_DEPTH_MAX 8

/* ---- shared with explain ---------------------------------------------- */

extern prism_moab_policy_t *cli_moab_read(const char *path,
					  prism_error_t *err)
{
	prism_moab_policy_t *pol = NULL;
	char *text = NULL;
	size_t len = 0;

	if (prism_file_read(path, &text, &len, err) ||
	    prism_moab_conf_parse(text, len, path, &pol, err))
		pol = NULL;
	free(text);
	return pol;
}

extern prism_ge_policy_t *cli_ge_read(const char *path, prism_error_t *err)
{
	prism_ge_policy_t *pol = NULL;
	char *text = NULL;
	size_t len = 0;

	if (prism_file_read(path, &text, &len, err) ||
	    prism_ge_conf_parse(text, len, path, &pol, err))
		pol = NULL;
	free(text);
	return pol;
}

/* How many Moab priority parameters 'text' sets; 0 if it is refused. */
static unsigned _moab_kept(const char *text, size_t len)
{
	prism_moab_policy_t *pol = NULL;
	unsigned kept;

	if (prism_moab_conf_parse(text, len, NULL, &pol, NULL))
		return 0;
	kept = prism_moab_policy_kept(pol);
	prism_moab_policy_free(pol);
	return kept;
}

/* The file policy that is not 'kind': Moab's and Grid Engine's swap. */
static prism_policy_t _other(prism_policy_t kind)
{
	return kind == PRISM_POLICY_MOAB ? PRISM_POLICY_GRIDENGINE :
					   PRISM_POLICY_MOAB;
}

static const char *_long_name(prism_policy_t kind)
{
	return kind == PRISM_POLICY_MOAB ? "Moab" : "Grid Engine";
}

extern bool cli_file_lookalike(prism_policy_t kind, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	unsigned mine, other;

	if (prism_file_read(path, &text, &len, NULL))
		return false;
	mine = kind == PRISM_POLICY_MOAB ? _moab_kept(text, len) :
					   prism_ge_conf_kept(text, len);
	other = kind == PRISM_POLICY_MOAB ? prism_ge_conf_kept(text, len) :
					    _moab_kept(text, len);
	free(text);
	return !mine && other;
}

extern void cli_not_understood(FILE *out, const char *lead,
			       prism_policy_t kind, const char *path,
			       size_t notices, const char *tail)
{
	const char *opt = prism_policy_name(kind);

	fprintf(out, "%snothing in %s was understood as a %s policy", lead,
		path, _long_name(kind));
	if (notices)
		fprintf(out, ": no priority parameter, %zu notice%s (`prism check --%s %s` lists them)",
			notices, notices == 1 ? "" : "s", opt, path);
	if (cli_file_lookalike(kind, path))
		fprintf(out, "; it looks like a %s file (`prism check --%s %s` reads it as one)",
			_long_name(_other(kind)),
			prism_policy_name(_other(kind)), path);
	else
		fprintf(out, "; is it a file of another policy?");
	fprintf(out, "%s\n", tail);
}

/* The same lines as the plugin's _notices() (src/plugin/prism_policy.c). */
extern void cli_moab_notices(const prism_moab_policy_t *pol,
			     const char *path, FILE *out)
{
	const prism_moab_params_t *params = prism_moab_policy_params(pol);

	for (size_t i = 0; i < prism_moab_policy_notice_count(pol); i++)
		fprintf(out, "%s\n", prism_moab_policy_notice(pol, i));
	for (int s = 0; s < PRISM_MS_CNT; s++) {
		const char *why = prism_moab_sub_no_data((prism_moab_sub_t) s);

		if (why && params->sub_weight[s])
			fprintf(out, "%s: %sWEIGHT: %s; its value is always 0\n",
				path, prism_moab_sub_name((prism_moab_sub_t) s),
				why);
	}
}

/* ---- slurm.conf ------------------------------------------------------- */

/* The keys `prism check` needs from slurm.conf: the last of each. */
typedef struct {
	char *params;		/* PriorityParameters, NULL: not set */
	char *type;		/* PriorityType, NULL: not set */
	cli_conf_loc_t *locs;	/* keys to locate, NULL: none */
	size_t loc_cnt;
} _slurm_conf_t;

/* Where each physical line starts in a logical (continued) line. */
typedef struct {
	size_t off;
	unsigned no;
} _seg_t;

/* One logical line being read: its file, its physical lines. */
typedef struct {
	const char *path;
	const _seg_t *segs;
	size_t seg_cnt;
} _where_t;

static void _slurm_conf_free(_slurm_conf_t *c)
{
	free(c->params);
	free(c->type);
	c->params = c->type = NULL;
}

static int _conf_file(const char *path, const char *dir, _slurm_conf_t *c,
		      int depth);

/* Keep a copy of 'val' in *slot; -1 when out of memory. */
static int _keep(char **slot, const char *val, size_t len);

/*
 * Note that 'key' (of 'klen') at 'off' in the line 'w' sets a key to
 * 'val' (of 'vlen'). Returns 0, or -1 when out of memory.
 */
static int _locate(_slurm_conf_t *c, const _where_t *w, const char *key,
		   size_t klen, size_t off, const char *val, size_t vlen)
{
	unsigned no = w->seg_cnt ? w->segs[0].no : 0;

	for (size_t i = 0; i < w->seg_cnt && w->segs[i].off <= off; i++)
		no = w->segs[i].no;
	for (size_t i = 0; i < c->loc_cnt; i++) {
		cli_conf_loc_t *l = &c->locs[i];

		if (strlen(l->key) != klen || strncasecmp(key, l->key, klen))
			continue;
		snprintf(l->file, sizeof(l->file), "%s", w->path);
		l->line = no;
		if (_keep(&l->text, val, vlen))
			return -1;
	}
	return 0;
}

/* Cut a comment off 'line': '#' outside quotes and not after '\'. */
static void _strip_comment(char *line)
{
	bool quoted = false;

	for (char *p = line; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '#' && !quoted && (p == line || p[-1] != '\\')) {
			*p = '\0';
			return;
		}
	}
}

/* Keep a copy of 'val' in *slot; -1 when out of memory. */
static int _keep(char **slot, const char *val, size_t len)
{
	char *v = malloc(len + 1);

	if (!v)
		return -1;
	memcpy(v, val, len);
	v[len] = '\0';
	free(*slot);
	*slot = v;
	return 0;
}

/*
 * One line of slurm.conf: "Include FILE" or KEY=VALUE items separated by
 * blanks (a VALUE may be quoted). Returns 0, or 1 after printing an error.
 */
static int _conf_line(char *line, const _where_t *w, const char *dir,
		      _slurm_conf_t *c, int depth)
{
	const char *path = w->path;
	char *p = line;

	_strip_comment(line);
	while (isspace((unsigned char) *p))
		p++;
	if (!strncasecmp(p, "include", 7) && isspace((unsigned char) p[7])) {
		char *file = p + 8, *end;

		while (isspace((unsigned char) *file))
			file++;
		end = file + strlen(file);
		while (end > file && isspace((unsigned char) end[-1]))
			*--end = '\0';
		if (!*file)
			return 0;
		return _conf_file(file, dir, c, depth + 1);
	}
	while (*p) {
		char *key = p, *eq, *val;
		size_t klen, vlen;

		while (*p && !isspace((unsigned char) *p) && *p != '=')
			p++;
		klen = (size_t) (p - key);
		eq = p;
		if (*eq != '=') {	/* a word without '=': not ours */
			while (isspace((unsigned char) *p))
				p++;
			continue;
		}
		val = ++p;
		if (*val == '"') {
			val = ++p;
			while (*p && *p != '"')
				p++;
			vlen = (size_t) (p - val);
			if (*p)
				p++;
		} else {
			while (*p && !isspace((unsigned char) *p))
				p++;
			vlen = (size_t) (p - val);
		}
		if (_locate(c, w, key, klen, (size_t) (key - line), val,
			    vlen) ||
		    (klen == 18 && !strncasecmp(key, "PriorityParameters", 18) &&
		     _keep(&c->params, val, vlen)) ||
		    (klen == 12 && !strncasecmp(key, "PriorityType", 12) &&
		     _keep(&c->type, val, vlen))) {
			fprintf(stderr, "%s: out of memory\n", path);
			return 1;
		}
		while (isspace((unsigned char) *p))
			p++;
	}
	return 0;
}

/* The directory of 'path' into 'buf' of 'size' ("." when it has none). */
static void _dir_of(const char *path, char *buf, size_t size)
{
	char *slash;

	snprintf(buf, size, "%s", path);
	slash = strrchr(buf, '/');
	if (slash)
		*(slash == buf ? slash + 1 : slash) = '\0';
	else
		snprintf(buf, size, ".");
}

/* Remember that physical line 'no' starts at 'off' of the logical one. */
static int _seg_add(_seg_t **segs, size_t *cnt, size_t *cap, size_t off,
		    unsigned no)
{
	if (*cnt == *cap) {
		size_t want = *cap ? *cap * 2 : 8;
		_seg_t *grown = realloc(*segs, want * sizeof(**segs));

		if (!grown)
			return -1;
		*segs = grown;
		*cap = want;
	}
	(*segs)[*cnt].off = off;
	(*segs)[(*cnt)++].no = no;
	return 0;
}

/*
 * Scan the slurm.conf 'path' into 'c'; an included 'path' (depth > 0)
 * that is relative is read from 'dir', the directory of the file that
 * names it, as Slurm's parser does. Returns 0, or 1 after printing an
 * error.
 */
static int _conf_file(const char *path, const char *dir, _slurm_conf_t *c,
		      int depth)
{
	char full[4096], here[4096], *line = NULL, *acc = NULL;
	size_t cap = 0, acc_len = 0, seg_cnt = 0, seg_cap = 0;
	_seg_t *segs = NULL;
	_where_t w = { NULL, NULL, 0 };
	unsigned no = 0;
	ssize_t n;
	FILE *f;
	int rc = 0;

	if (path[0] != '/' && depth && dir)
		snprintf(full, sizeof(full), "%s/%s", dir, path);
	else
		snprintf(full, sizeof(full), "%s", path);
	if (depth > INCLUDE_DEPTH_MAX) {
		fprintf(stderr, "%s: Include nested deeper than %d files\n",
			full, INCLUDE_DEPTH_MAX);
		return 1;
	}
	/* Slurm reads an Include relative to the file that names it */
	_dir_of(full, here, sizeof(here));
	f = fopen(full, "r");
	if (!f) {
		fprintf(stderr, "%s: cannot open: %s\n", full, strerror(errno));
		return 1;
	}
	w.path = full;
	/* a line ending in '\' goes on on the next one */
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t) n;
		bool more;
		char *grown;

		no++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		more = len && line[len - 1] == '\\';
		if (more)
			line[--len] = '\0';
		grown = realloc(acc, acc_len + len + 1);
		if (!grown ||
		    _seg_add(&segs, &seg_cnt, &seg_cap, acc_len, no)) {
			if (grown)
				acc = grown;
			fprintf(stderr, "%s: out of memory\n", full);
			rc = 1;
			break;
		}
		acc = grown;
		memcpy(acc + acc_len, line, len + 1);
		acc_len += len;
		if (more)
			continue;
		w.segs = segs;
		w.seg_cnt = seg_cnt;
		rc = _conf_line(acc, &w, here, c, depth);
		acc_len = seg_cnt = 0;
	}
	if (!rc && acc_len) {
		w.segs = segs;
		w.seg_cnt = seg_cnt;
		rc = _conf_line(acc, &w, here, c, depth);
	}
	free(segs);
	free(acc);
	free(line);
	fclose(f);
	return rc;
}

/*
 * A locator only: Slurm's parser, run by the caller, holds the values;
 * this scan (which knows no value) just finds the last "Key=" line.
 */
extern int cli_conf_locate(const char *conf_path, cli_conf_loc_t *locs,
			   size_t cnt)
{
	_slurm_conf_t c = { NULL, NULL, locs, cnt };
	int rc;

	for (size_t i = 0; i < cnt; i++) {
		locs[i].file[0] = '\0';
		locs[i].line = 0;
		locs[i].text = NULL;
	}
	rc = _conf_file(conf_path, NULL, &c, 0);
	_slurm_conf_free(&c);
	return rc ? CLI_ERROR : CLI_OK;
}

extern void cli_conf_locs_free(cli_conf_loc_t *locs, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		free(locs[i].text);
		locs[i].text = NULL;
	}
}

/* The slurm.conf to read: 'opt', else $SLURM_CONF, else the default. */
static const char *_slurm_conf_path(const char *opt)
{
	const char *env = getenv("SLURM_CONF");

	if (opt)
		return opt;
	if (env && *env)
		return env;
	return DEFAULT_SLURM_CONF;
}

/* ---- check ------------------------------------------------------------ */

/*
 * A file of which nothing was read as a 'kind' policy (no priority
 * parameter, only notices) is taken by slurmctld, which runs the policy's
 * defaults: a warning that says so and what the file looks like.
 */
static void _check_kept(prism_policy_t kind, const char *path, unsigned kept,
			size_t notices)
{
	char lead[PRISM_ERROR_PATH_MAX + 64];

	if (kept || !notices)
		return;
	snprintf(lead, sizeof(lead),
		 "%s: warning: slurmctld would run %s's defaults: ", path,
		 _long_name(kind));
	/* the notices are listed above */
	cli_not_understood(stdout, lead, kind, path, 0, "");
}

extern int cli_check_moab(const char *path)
{
	prism_error_t err = { "" };
	prism_moab_policy_t *pol = cli_moab_read(path, &err);

	if (!pol) {
		fprintf(stderr, "%s\n", err.text);
		return CLI_ERROR;
	}
	cli_moab_notices(pol, path, stdout);
	_check_kept(PRISM_POLICY_MOAB, path, prism_moab_policy_kept(pol),
		    prism_moab_policy_notice_count(pol));
	cli_moab_summary(pol, stdout);
	printf("%s: OK (policy=moab)\n", path);
	prism_moab_policy_free(pol);
	return CLI_OK;
}

extern int cli_check_gridengine(const char *path)
{
	prism_error_t err = { "" };
	prism_ge_policy_t *pol = cli_ge_read(path, &err);

	if (!pol) {
		fprintf(stderr, "%s\n", err.text);
		if (cli_file_lookalike(PRISM_POLICY_GRIDENGINE, path))
			cli_not_understood(stderr, "prism: check: ",
					   PRISM_POLICY_GRIDENGINE, path, 0,
					   "");
		return CLI_ERROR;
	}
	for (size_t i = 0; i < prism_ge_policy_notice_count(pol); i++)
		printf("%s\n", prism_ge_policy_notice(pol, i));
	_check_kept(PRISM_POLICY_GRIDENGINE, path, prism_ge_policy_kept(pol),
		    prism_ge_policy_notice_count(pol));
	cli_ge_summary(pol, stdout);
	printf("%s: OK (policy=gridengine)\n", path);
	prism_ge_policy_free(pol);
	return CLI_OK;
}

static int _check_file(prism_policy_t policy, const char *path)
{
	const cli_policy_t *entry = cli_policy_find(policy);

	if (entry->check)
		return entry->check(path);
	printf("PriorityParameters: policy=%s reads no file\n",
	       prism_policy_name(policy));
	return CLI_OK;
}

/* Say so when slurmctld would not load Prism at all. */
static void _check_type(const char *conf_path, const char *type)
{
	if (!type)
		printf("%s: note: PriorityType is not set (Slurm's default is priority/basic): slurmctld does not run Prism\n",
		       conf_path);
	else if (strcasecmp(type, "priority/prism"))
		printf("%s: note: PriorityType=%s: slurmctld does not run Prism (PriorityType=priority/prism)\n",
		       conf_path, type);
}

/*
 * The policy slurm.conf 'conf_path' selects into 'params', and its file
 * into 'path'. Returns 0, or CLI_ERROR after printing why.
 */
static int _policy_from_conf(const char *conf_path, prism_params_t *params,
			     char *path, size_t size)
{
	_slurm_conf_t c = { NULL, NULL, NULL, 0 };
	prism_error_t err = { "" };
	int rc;

	rc = _conf_file(conf_path, NULL, &c, 0);
	if (!rc) {
		_check_type(conf_path, c.type);
		if (prism_params_parse(c.params, params, &err) ||
		    (cli_policy_find(params->policy)->reads_file &&
		     prism_params_config_path(params, conf_path, path, size,
					      &err))) {
			fprintf(stderr, "%s: %s\n", conf_path, err.text);
			rc = CLI_ERROR;
		}
	}
	_slurm_conf_free(&c);
	return rc ? CLI_ERROR : CLI_OK;
}

extern int cli_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slurm-conf", required_argument, NULL, 's' },
		{ "gridengine", no_argument, NULL, 'g' },
		{ "moab", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conf_opt = NULL, *file = NULL;
	int forced = -1;	/* --gridengine, --moab: the file's policy */
	char path[PRISM_PARAMS_MAX + 64];
	prism_params_t params;
	int c, rc, rel;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's')
			conf_opt = optarg;
		else if ((c == 'g' && forced == PRISM_POLICY_MOAB) ||
			 (c == 'm' && forced == PRISM_POLICY_GRIDENGINE))
			return cli_usage_error("check: --gridengine and --moab exclude each other");
		else if (c == 'g')
			forced = PRISM_POLICY_GRIDENGINE;
		else if (c == 'm')
			forced = PRISM_POLICY_MOAB;
		else if (optopt == 's')
			return cli_usage_error("check: --slurm-conf needs a file");
		else
			return cli_usage_error("check: unknown option '%s'",
					       argv[optind - 1]);
	}
	if (optind < argc)
		file = argv[optind++];
	if (optind < argc)
		return cli_usage_error("check: unexpected argument '%s'",
				       argv[optind]);
	if (forced >= 0 && !file)
		return cli_usage_error("check: --%s needs a POLICYFILE",
				       forced == PRISM_POLICY_GRIDENGINE ?
					       "gridengine" :
					       "moab");
	if (forced >= 0 && conf_opt)
		return cli_usage_error("check: --%s and --slurm-conf exclude each other",
				       forced == PRISM_POLICY_GRIDENGINE ?
					       "gridengine" :
					       "moab");
	if (forced >= 0)
		return _check_file((prism_policy_t) forced, file);
	/* a file alone is a Moab policy file */
	if (file && !conf_opt)
		return cli_check_moab(file);
	rc = _policy_from_conf(_slurm_conf_path(conf_opt), &params, path,
			       sizeof(path));
	if (rc)
		return rc;
	/* a file with --slurm-conf: checked as the policy slurm.conf names */
	if (file && !cli_policy_find(params.policy)->reads_file) {
		fprintf(stderr, "%s: PriorityParameters: policy=%s reads no file, %s is not used\n",
			_slurm_conf_path(conf_opt),
			prism_policy_name(params.policy), file);
		return CLI_ERROR;
	}
	/* multifactor: slurm.conf's own priority settings */
	if (!cli_policy_find(params.policy)->reads_file)
		rc = cli_check_multifactor(_slurm_conf_path(conf_opt));
	else
		rc = _check_file(params.policy, file ? file : path);
	/* the slurmctld here would refuse a plugin of another release */
	rel = cli_release_check_installed();
	return rc ? rc : rel;
}
