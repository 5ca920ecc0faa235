/*****************************************************************************\
 *  test_error.c - unit tests of prism_error: the longest message of each
 *  kind the parsers and checks can make fits whole (issue 35: messages
 *  were cut at 159 bytes), and a message that would not fit is marked.
 *
 *  Each row builds its input from the longest parts a message can quote:
 *  a file path of PRISM_ERROR_PATH_MAX - 1 bytes (the longest open(2)
 *  takes) and a line of PRISM_LINES_MAX bytes (the longest the parsers
 *  read), split between the pieces the message quotes.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_error.h"
#include "prism_ge_conf.h"
#include "prism_lines.h"
#include "prism_mf_whatif.h"
#include "prism_moab_conf.h"
#include "prism_params.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

/*
 * One message: 'fmt' makes the input from two fillers, '%1$s' and '%2$s'
 * (runs of 'a' and 'b' that together fill the line); the message must
 * hold both whole and end with 'tail'.
 */
static const struct {
	const char *what;
	char kind;		/* 'm' Moab file, 'g' Grid Engine file,
				 * 'w' whatif setting, 'p' PriorityParameters */
	const char *fmt;
	const char *tail;
} rows[] = {
	{ "Moab: a misspelt weight (the issue's example)", 'm',
	  "FSWEIGHT 1\nFSUSRWEIGHT%1$.0s%2$.0s 5\n",
	  ":2: FSUSRWEIGHT: unknown priority weight or cap (did you mean FSUSERWEIGHT?)" },
	{ "Moab: a credential's id and its value", 'm',
	  "USERCFG[%1$s] PRIORITY=%2$s\n", "' is not a number" },
	{ "Moab: a long unknown weight", 'm', "%1$s%2$sWEIGHT 5\n",
	  ": unknown priority weight or cap" },
	{ "Moab: a credential attribute's value", 'm',
	  "USERCFG[%1$s] FSTARGET=%2$s\n", "' is not a number" },
	{ "Moab: brackets", 'm', "USERCFG[%1$s%2$s PRIORITY=1\n",
	  ": missing ']'" },
	{ "Grid Engine: a long unknown weight", 'g', "weight_%1$s%2$s 1\n",
	  "?)" },
	{ "Grid Engine: a value", 'g', "weight_ticket %1$s%2$s\n",
	  "' is not a number" },
	{ "whatif: an unknown setting lists those it knows", 'w',
	  "Prio%1$.20s=%2$.20s", " and PriorityMaxAge" },
	{ "whatif: a weight", 'w', "PriorityWeightAge=%1$s%2$s",
	  "' is not a weight (an integer from 0 to 4294967295)" },
	{ "PriorityParameters: a relative config", 'p',
	  "policy=moab,config=%1$s%2$s", " is not an absolute path" },
};

/* A new string of 'len' bytes of 'c'. */
static char *_run(char c, size_t len)
{
	char *s = malloc(len + 1);

	ck_assert_ptr_nonnull(s);
	memset(s, c, len);
	s[len] = '\0';
	return s;
}

START_TEST(test_longest)
{
	size_t room = rows[_i].kind == 'p' ? PRISM_PARAMS_MAX - 1 :
					     PRISM_LINES_MAX;
	char *path = _run('d', PRISM_ERROR_PATH_MAX - 1);
	char *a, *b, *text;
	prism_error_t err = { "" };
	int n, rc = 0;

	path[0] = '/';
	/* the fillers take what the format's own text leaves of the line */
	n = snprintf(NULL, 0, rows[_i].fmt, "", "");
	ck_assert_int_gt((int) room, n + 2);
	a = _run('a', (room - n) / 2);
	b = _run('b', room - n - (room - n) / 2);
	text = malloc(room + 2);
	ck_assert_ptr_nonnull(text);
	n = snprintf(text, room + 2, rows[_i].fmt, a, b);
	if (strchr(rows[_i].fmt, '%') && !strstr(rows[_i].fmt, ".0s"))
		ck_assert_int_le(n, (int) room + 1); /* + its newline */
	switch (rows[_i].kind) {
	case 'm': {
		prism_moab_policy_t *pol = NULL;

		rc = prism_moab_conf_parse(text, strlen(text), path, &pol,
					   &err);
		prism_moab_policy_free(pol);
		break;
	}
	case 'g': {
		prism_ge_policy_t *pol = NULL;

		rc = prism_ge_conf_parse(text, strlen(text), path, &pol, &err);
		prism_ge_policy_free(pol);
		break;
	}
	case 'w': {
		prism_mf_change_t ch = { 0 };

		rc = prism_mf_change_read(text, NULL, &ch, &err);
		break;
	}
	case 'p': {
		prism_params_t p;

		rc = prism_params_parse(text, &p, &err);
		break;
	}
	}
	ck_assert_msg(rc == -1, "%s: accepted", rows[_i].what);
	ck_assert_msg(!prism_error_cut(&err), "%s: cut (%zu bytes)",
		      rows[_i].what, strlen(err.text));
	if (strchr("mg", rows[_i].kind))
		ck_assert_msg(!strncmp(err.text, path, strlen(path)),
			      "%s: the path is not whole", rows[_i].what);
	if (!strstr(rows[_i].fmt, ".0s") && !strstr(rows[_i].fmt, ".20s"))
		ck_assert_msg(strstr(err.text, a) && strstr(err.text, b),
			      "%s: a piece of the line is not whole",
			      rows[_i].what);
	ck_assert_msg(strlen(err.text) >= strlen(rows[_i].tail) &&
			      !strcmp(err.text + strlen(err.text) -
					      strlen(rows[_i].tail),
				      rows[_i].tail),
		      "%s: does not end with '%s': ...%s", rows[_i].what,
		      rows[_i].tail,
		      err.text + (strlen(err.text) > 80 ?
					  strlen(err.text) - 80 : 0));
	free(text);
	free(a);
	free(b);
	free(path);
}
END_TEST

/* A notice quotes as much as an error: kept whole. */
START_TEST(test_notice)
{
	char *path = _run('d', PRISM_ERROR_PATH_MAX - 1);
	char *name = _run('N', PRISM_LINES_MAX - 2);
	char *text = malloc(PRISM_LINES_MAX + 2);
	prism_moab_policy_t *pol = NULL;
	prism_error_t err = { "" };
	const char *notice;

	path[0] = '/';
	snprintf(text, PRISM_LINES_MAX + 2, "%sCFG[x]\n", name + 6);
	ck_assert_int_eq(prism_moab_conf_parse(text, strlen(text), path, &pol,
					       &err), 0);
	ck_assert_uint_eq(prism_moab_policy_notice_count(pol), 1);
	notice = prism_moab_policy_notice(pol, 0);
	ck_assert(!strncmp(notice, path, strlen(path)));
	ck_assert_ptr_nonnull(strstr(notice, name + 6));
	prism_moab_policy_free(pol);
	free(text);
	free(name);
	free(path);
}
END_TEST

/* A message too long for the buffer ends in "..." and says so. */
START_TEST(test_cut)
{
	char *big = _run('x', PRISM_ERROR_MAX);
	prism_error_t err = { "" };

	prism_error_set(&err, "%s", "short");
	ck_assert_str_eq(err.text, "short");
	ck_assert(!prism_error_cut(&err));
	prism_error_set(&err, "%s", big);
	ck_assert(prism_error_cut(&err));
	ck_assert_uint_eq(strlen(err.text), PRISM_ERROR_MAX - 1);
	ck_assert_str_eq(err.text + PRISM_ERROR_MAX - 4, "...");
	ck_assert(!prism_error_cut(NULL));
	prism_error_set(NULL, "%s", "ignored");
	free(big);
}
END_TEST

extern Suite *error_suite(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("error");

	tcase_add_loop_test(tc, test_longest, 0, N(rows));
	tcase_add_test(tc, test_notice);
	tcase_add_test(tc, test_cut);
	suite_add_tcase(s, tc);
	return s;
}
