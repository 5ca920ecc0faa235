/*****************************************************************************\
 *  cli_convert.c - `prism convert`: a whole moab.cfg or maui.cfg into a
 *  Prism policy file.
 *
 *  It never fails on a file it can read: each line is kept (a priority
 *  line), commented out with the reason (not about priority), or
 *  commented out as needing attention (a line Prism refuses). The result
 *  is parsed whole before it is printed, and a line the whole parse
 *  refuses (a limit that spans lines) is commented out in turn, so the
 *  output always passes `prism check`.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_convert.h"
#include "prism_cli.h"
#include "prism_file.h"
#include "prism_lines.h"
#include "prism_moab_conf.h"

#define CONV_NAME "(converted)"	/* the output's name in its own parse */
#define CONV_COPY_MAX 900	/* longest part of a refused line copied */

/* The converted file, line by line, and what became of the input. */
typedef struct {
	char **v;		/* lines without newline, owned */
	size_t n, cap;
	char **orig;		/* v[i]'s input line, NULL: none (owned) */
	unsigned kept, ignored, refused;
} _conv_t;

static void _conv_free(_conv_t *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i]);
		free(o->orig[i]);
	}
	free(o->v);
	free(o->orig);
}

/*
 * Add a printf line to 'o', remembering 'orig' (the input line, may be
 * NULL) beside it. Returns 0, or -1 when out of memory.
 */
static int _add(_conv_t *o, const char *orig, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int _add(_conv_t *o, const char *orig, const char *fmt, ...)
{
	char buf[2 * PRISM_MOAB_LINE_MAX];
	va_list ap;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 64;
		char **v = realloc(o->v, cap * sizeof(*v)), **w;

		if (!v)
			return -1;
		o->v = v;
		w = realloc(o->orig, cap * sizeof(*w));
		if (!w)
			return -1;
		o->orig = w;
		o->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	o->v[o->n] = strdup(buf);
	o->orig[o->n] = orig ? strdup(orig) : NULL;
	if (!o->v[o->n] || (orig && !o->orig[o->n])) {
		free(o->v[o->n]);
		free(o->orig[o->n]);
		return -1;
	}
	o->n++;
	return 0;
}

/* 'text' after "file:line: " when it starts so; else 'text'. */
static const char *_after_at(const char *text, const char *file,
			     unsigned line)
{
	char at[64];
	size_t n = strlen(file);
	int m;

	if (strncmp(text, file, n))
		return text;
	m = snprintf(at, sizeof(at), ":%u: ", line);
	if (m < 0 || strncmp(text + n, at, (size_t) m))
		return text;
	return text + n + (size_t) m;
}

/* 'why' without a final ", ignored" (the comment says so already). */
static void _trim_ignored(prism_error_t *why)
{
	size_t n = strlen(why->text);

	if (n > 9 && !strcmp(why->text + n - 9, ", ignored"))
		why->text[n - 9] = '\0';
}

/* A line Prism refuses: commented out with the reason, copied if safe. */
static int _refused(_conv_t *o, const char *line, size_t len,
		    const char *reason)
{
	o->refused++;
	if (len > CONV_COPY_MAX || prism_lines_utf8(
			&(prism_lines_t) { .file = "", .err = NULL }, line,
			len))
		return _add(o, NULL,
			    "# needs attention, refused by Prism (%s): line not copied",
			    reason);
	return _add(o, line, "# needs attention, refused by Prism (%s): %s",
		    reason, line);
}

/* One input line 'line' ('len' bytes, may hold a NUL) into 'o'. */
static int _convert_line(_conv_t *o, const char *path, unsigned lineno,
			 const char *line, size_t len)
{
	prism_error_t err = { "" }, why = { "" };
	prism_moab_line_t kind;

	if (len > PRISM_MOAB_LINE_MAX)
		return _refused(o, line, len, "line is longer than 1024 bytes");
	if (strlen(line) != len)
		return _refused(o, line, len, "NUL byte in the line");
	if (prism_moab_conf_line(line, path, lineno, &kind, &why, &err))
		return _refused(o, line, len,
				_after_at(err.text, path, lineno));
	switch (kind) {
	case PRISM_MOAB_LINE_BLANK:
		return _add(o, NULL, "%s", line);
	case PRISM_MOAB_LINE_MIXED:
		o->kept++;
		_trim_ignored(&why);
		if (_add(o, NULL, "# note: only the priority attributes of the next line count (%s)",
			 why.text))
			return -1;
		return _add(o, line, "%s", line);
	case PRISM_MOAB_LINE_PRIORITY:
		o->kept++;
		if (why.text[0] && _add(o, NULL, "# note: %s", why.text))
			return -1;
		return _add(o, line, "%s", line);
	case PRISM_MOAB_LINE_IGNORED:
		break;
	}
	o->ignored++;
	_trim_ignored(&why);
	return _add(o, line, "# ignored (%s): %s", why.text, line);
}

/* Every line of 'text' ('len' bytes) into 'o'; -1 when out of memory. */
static int _convert_text(_conv_t *o, const char *path, const char *text,
			 size_t len)
{
	char *line = malloc(len + 1);
	unsigned lineno = 0;
	size_t pos = 0;
	int rc = 0;

	if (!line)
		return -1;
	while (!rc && pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - (text + pos)) : len - pos;

		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + (nl ? 1 : 0);
		rc = _convert_line(o, path, ++lineno, line, n);
	}
	free(line);
	return rc;
}

/* The lines of 'o' joined with newlines, to be freed; NULL: no memory. */
static char *_join(const _conv_t *o, size_t *len)
{
	size_t total = 1, at = 0;
	char *s;

	for (size_t i = 0; i < o->n; i++)
		total += strlen(o->v[i]) + 1;
	s = malloc(total);
	if (!s)
		return NULL;
	for (size_t i = 0; i < o->n; i++) {
		size_t n = strlen(o->v[i]);

		memcpy(s + at, o->v[i], n);
		s[at + n] = '\n';
		at += n + 1;
	}
	s[at] = '\0';
	*len = at;
	return s;
}

/*
 * Parse the output whole; comment out each line that whole parse refuses
 * (JOBPRIOF names past the limit). Returns 0 when the output passes, -1
 * with 'err' set when it cannot be made to (out of memory, or a refusal
 * that names no line of the output).
 */
static int _settle(_conv_t *o, prism_error_t *err)
{
	for (;;) {
		prism_moab_policy_t *pol = NULL;
		size_t len = 0, at = strlen(CONV_NAME) + 1;
		char *text = _join(o, &len), *end;
		unsigned long l;
		char redo[2 * PRISM_MOAB_LINE_MAX], *copy;

		if (!text)
			return -1;
		if (!prism_moab_conf_parse(text, len, CONV_NAME, &pol, err)) {
			prism_moab_policy_free(pol);
			free(text);
			return 0;
		}
		free(text);
		l = strtoul(err->text + at, &end, 10);
		if (strncmp(err->text, CONV_NAME ":", at) || *end != ':' ||
		    !l || l > o->n || !o->orig[l - 1])
			return -1;
		snprintf(redo, sizeof(redo),
			 "# needs attention, refused by Prism (%s): %s",
			 end + 2, o->orig[l - 1]);
		copy = strdup(redo);
		if (!copy)
			return -1;
		free(o->v[l - 1]);
		o->v[l - 1] = copy;
		free(o->orig[l - 1]);
		o->orig[l - 1] = NULL;
		o->kept--;
		o->refused++;
	}
}

static void _header(const char *path, FILE *out)
{
	fprintf(out,
		"# Prism policy file (PriorityParameters=policy=moab), made by\n"
		"#     prism convert %s\n"
		"# The priority parameters of that file are kept as they were;\n"
		"# every other line is commented out where it stood, with the\n"
		"# reason: \"# ignored (...)\" for what is not about priority\n"
		"# (Slurm's own settings cover resource managers, nodes, limits\n"
		"# and logging), \"# needs attention, refused by Prism (...)\" for\n"
		"# a priority line Prism cannot read: correct it by hand.\n"
		"#\n"
		"# To use it: save it, for example as /etc/slurm/prism.conf, check\n"
		"# it with `prism check /etc/slurm/prism.conf`, and set in slurm.conf\n"
		"#     PriorityType=priority/prism\n"
		"#     PriorityParameters=policy=moab,config=/etc/slurm/prism.conf\n"
		"# (without config= Prism reads prism.conf next to slurm.conf).\n"
		"# slurmctld reads it at start and on `scontrol reconfigure`.\n"
		"\n",
		path);
}

/* The summary: "N priority lines kept, ..." (no newline). */
static void _summary(const _conv_t *o, FILE *out)
{
	fprintf(out,
		"%u priority line%s kept, %u other line%s commented out, %u line%s need%s attention",
		o->kept, o->kept == 1 ? "" : "s", o->ignored,
		o->ignored == 1 ? "" : "s", o->refused,
		o->refused == 1 ? "" : "s", o->refused == 1 ? "s" : "");
}

/* Print 'o' after the header, and the summary as its last line. */
static int _print(const _conv_t *o, const char *path)
{
	_header(path, stdout);
	for (size_t i = 0; i < o->n; i++)
		printf("%s\n", o->v[i]);
	printf("\n# prism convert: ");
	_summary(o, stdout);
	printf("\n");
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "prism: convert: cannot write the output: %s\n",
			strerror(errno));
		return CLI_ERROR;
	}
	fprintf(stderr, "%s: ", path);
	_summary(o, stderr);
	fprintf(stderr, "\n");
	return CLI_OK;
}

extern int cli_convert(int argc, char **argv)
{
	prism_error_t err = { "" };
	_conv_t o = { 0 };
	char *text = NULL;
	size_t len = 0;
	int rc = CLI_ERROR;
	const char *file = NULL;
	bool dashes = false;	/* after "--": no option */

	/* no option, wherever it stands (the other subcommands permute) */
	for (int i = 1; i < argc; i++) {
		if (!dashes && !strcmp(argv[i], "--")) {
			dashes = true;
		} else if (!dashes && argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("convert: unknown option '%s'",
					       argv[i]);
		} else if (file) {
			return cli_usage_error("convert: unexpected argument '%s'",
					       argv[i]);
		} else {
			file = argv[i];
		}
	}
	if (!file)
		return cli_usage_error("convert: missing MOAB.CFG");
	if (prism_file_read_text(file, &text, &len, &err)) {
		fprintf(stderr, "%s\n", err.text);
		return CLI_ERROR;
	}
	if (_convert_text(&o, file, text, len) || _settle(&o, &err))
		fprintf(stderr, "%s: %s\n", file,
			err.text[0] ? err.text : "out of memory");
	else
		rc = _print(&o, file);
	_conv_free(&o);
	free(text);
	return rc;
}
