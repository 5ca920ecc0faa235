/*****************************************************************************\
 *  test_lines.c - unit tests of prism_lines: the FILE:LINE messages and
 *  notices, reading a text line by line, the UTF-8 check, tokens, names
 *  and brackets, and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "prism_lines.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

START_TEST(test_messages)
{
	prism_lines_notices_t notices = { 0 };
	prism_error_t err = { "" };
	prism_lines_t at = { .file = "x.cfg", .line = 7, .err = &err,
			     .notices = &notices };
	char longer[400];

	ck_assert_int_eq(prism_lines_fail(&at, "%s: bad", "NAME"), -1);
	ck_assert_str_eq(err.text, "x.cfg:7: NAME: bad");
	ck_assert_int_eq(prism_lines_oom(&at), -1);
	ck_assert_str_eq(err.text, "x.cfg: out of memory");
	ck_assert_int_eq(prism_lines_notice(&at, "%s: ignored", "A"), 0);
	at.line = 9;
	ck_assert_int_eq(prism_lines_notice(&at, "B"), 0);
	ck_assert_uint_eq(notices.n, 2);
	ck_assert_str_eq(prism_lines_notices_get(&notices, 0),
			 "x.cfg:7: A: ignored");
	ck_assert_str_eq(prism_lines_notices_get(&notices, 1), "x.cfg:9: B");
	ck_assert_ptr_null(prism_lines_notices_get(&notices, 2));
	/* a notice is never cut (issue 35) */
	memset(longer, 'n', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	ck_assert_int_eq(prism_lines_notice(&at, "%s", longer), 0);
	ck_assert_uint_eq(strlen(prism_lines_notices_get(&notices, 2)),
			  strlen("x.cfg:9: ") + sizeof(longer) - 1);
	prism_lines_notices_free(&notices);
	ck_assert_uint_eq(notices.n, 0);
	ck_assert_ptr_null(notices.v);
}
END_TEST

/* One text read by prism_lines_read(): what comes back. */
static const struct {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	int rc;
	unsigned lines;		/* lines seen by the callback */
	const char *last;	/* the last line seen, or the error */
} reads[] = {
	{ "a\nb b\n", 0, 0, 2, "b b" },
	{ "a\n\nc", 0, 0, 3, "c" },
	{ "a\r\n", 0, 0, 1, "a\r" },
	{ "", 0, 0, 0, "" },
	{ "a\nb\0c\n", 6, -1, 1, "t.cfg:2: NUL byte at column 2" },
	{ "\xc3\xa9t\xc3\xa9\n\xc3(\n", 0, -1, 1,
	  "t.cfg:2: invalid UTF-8 (byte 0xc3 at column 1)" },
	{ "a\nstop\nc\n", 0, -1, 2, "t.cfg:2: stopped" },
};

typedef struct {
	unsigned lines;
	char last[64];
	const prism_lines_t *at;
} _seen_t;

static int _seen(void *arg, char *line)
{
	_seen_t *s = arg;

	s->lines++;
	snprintf(s->last, sizeof(s->last), "%s", line);
	if (!strcmp(line, "stop"))
		return prism_lines_fail(s->at, "stopped");
	return 0;
}

START_TEST(test_read)
{
	prism_error_t err = { "" };
	prism_lines_t at = { .file = "t.cfg", .err = &err };
	_seen_t seen = { .at = &at };
	size_t len = reads[_i].len ? reads[_i].len : strlen(reads[_i].text);
	int rc = prism_lines_read(&at, reads[_i].text, len, _seen, &seen);

	ck_assert_int_eq(rc, reads[_i].rc);
	ck_assert_uint_eq(seen.lines, reads[_i].lines);
	ck_assert_str_eq(rc ? err.text : seen.last, reads[_i].last);
}
END_TEST

START_TEST(test_read_long)
{
	static char text[PRISM_LINES_MAX + 3];
	prism_error_t err = { "" };
	prism_lines_t at = { .file = "t.cfg", .err = &err };
	_seen_t seen = { .at = &at };

	/* PRISM_LINES_MAX bytes pass, one more does not */
	memset(text, 'a', PRISM_LINES_MAX);
	text[PRISM_LINES_MAX] = '\n';
	ck_assert_int_eq(prism_lines_read(&at, text, PRISM_LINES_MAX + 1,
					  _seen, &seen),
			 0);
	at.line = 0;
	text[PRISM_LINES_MAX] = 'a';
	text[PRISM_LINES_MAX + 1] = '\n';
	ck_assert_int_eq(prism_lines_read(&at, text, PRISM_LINES_MAX + 2,
					  _seen, &seen),
			 -1);
	ck_assert_str_eq(err.text, "t.cfg:1: line is longer than 1024 bytes");
	ck_assert_uint_eq(seen.lines, 1);
}
END_TEST

/* UTF-8: each row a line and the error, "" when it passes. */
static const struct {
	const char *s;
	const char *err;
} utf8[] = {
	{ "plain", "" },
	{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "" },	/* é € 😀 */
	{ "a\xc3", "u:1: invalid UTF-8 (byte 0xc3 at column 2)" },
	{ "\xc0\xaf", "u:1: invalid UTF-8 (byte 0xc0 at column 1)" },
	{ "\xed\xa0\x80", "u:1: invalid UTF-8 (byte 0xed at column 1)" },
	{ "\xf4\x90\x80\x80", "u:1: invalid UTF-8 (byte 0xf4 at column 1)" },
	{ "ab\xff", "u:1: invalid UTF-8 (byte 0xff at column 3)" },
	{ "\x80", "u:1: invalid UTF-8 (byte 0x80 at column 1)" },
};

START_TEST(test_utf8)
{
	prism_error_t err = { "" };
	prism_lines_t at = { .file = "u", .line = 1, .err = &err };
	int rc = prism_lines_utf8(&at, utf8[_i].s, strlen(utf8[_i].s));

	ck_assert_int_eq(rc, utf8[_i].err[0] ? -1 : 0);
	ck_assert_str_eq(err.text, utf8[_i].err);
}
END_TEST

START_TEST(test_tok)
{
	char line[] = " \tA  b\r\v\fc \f";
	const char *want[] = { "A", "b", "c" };
	char *cur = line, *tok;
	int n = 0;

	while ((tok = prism_lines_tok(&cur))) {
		ck_assert_int_lt(n, N(want));
		ck_assert_str_eq(tok, want[n++]);
	}
	ck_assert_int_eq(n, N(want));
	ck_assert_ptr_null(prism_lines_tok(&cur));
}
END_TEST

/* Names: Moab's ("", "_.-") and Grid Engine's ("_", "_") rules. */
static const struct {
	const char *s, *first, *more;
	bool want;
} names[] = {
	{ "USERCFG", "", "_.-", true },
	{ "MAX.WCLIMIT-2_x", "", "_.-", true },
	{ "_X", "", "_.-", false },
	{ "9X", "", "_.-", false },
	{ "", "", "_.-", false },
	{ "A=B", "", "_.-", false },
	{ "weight_user", "_", "_", true },
	{ "_x1", "_", "_", true },
	{ "a.b", "_", "_", false },
	{ "a-b", "_", "_", false },
	{ "", "_", "_", false },
};

START_TEST(test_is_name)
{
	ck_assert_msg(prism_lines_is_name(names[_i].s, names[_i].first,
					  names[_i].more) == names[_i].want,
		      "'%s'", names[_i].s);
}
END_TEST

/* NAME[id] split in place: the name and id left, or the error. */
static const struct {
	const char *tok;
	const char *name, *id;	/* id NULL: no brackets */
	const char *err;	/* "" when it passes */
} brackets[] = {
	{ "USERCFG[bob]", "USERCFG", "bob", "" },
	{ "urgency[gres/gpu]", "urgency", "gres/gpu", "" },
	{ "PLAIN", "PLAIN", NULL, "" },
	{ "A]", NULL, NULL, "b:3: 'A]': ']' without '['" },
	{ "A[x", NULL, NULL, "b:3: 'A[x': missing ']'" },
	{ "A[x]y", NULL, NULL, "b:3: 'A[x]y': text after ']'" },
	{ "A[x[y]", NULL, NULL, "b:3: 'A[x[y]': bad brackets" },
	{ "A]x[]", NULL, NULL, "b:3: 'A]x[]': text after ']'" },
	{ "A[]", NULL, NULL, "b:3: 'A[]': empty name in brackets" },
	{ "[x]", NULL, NULL, "b:3: '[x]': missing name before '['" },
};

START_TEST(test_brackets)
{
	prism_error_t err = { "" };
	prism_lines_t at = { .file = "b", .line = 3, .err = &err };
	char tok[64];
	char *id = (char *) 1;
	int rc;

	snprintf(tok, sizeof(tok), "%s", brackets[_i].tok);
	rc = prism_lines_brackets(&at, tok, &id);
	ck_assert_str_eq(err.text, brackets[_i].err);
	if (brackets[_i].err[0]) {
		ck_assert_int_eq(rc, -1);
		ck_assert_ptr_null(id);
		return;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(tok, brackets[_i].name);
	if (brackets[_i].id)
		ck_assert_str_eq(id, brackets[_i].id);
	else
		ck_assert_ptr_null(id);
}
END_TEST

/* The head of a line (Moab's name rule): name, id, next token or error. */
static const struct {
	const char *line;
	const char *name, *id, *next;	/* name NULL: a blank line */
	const char *err;		/* "" when it passes */
} heads[] = {
	{ "USERCFG[bob] PRIORITY=5 # why", "USERCFG", "bob", "PRIORITY=5",
	  "" },
	{ "  QOSWEIGHT\t10", "QOSWEIGHT", NULL, "10", "" },
	{ "FSPOLICY", "FSPOLICY", NULL, NULL, "" },
	{ "", NULL, NULL, NULL, "" },
	{ "  \t ", NULL, NULL, NULL, "" },
	{ "# USERCFG[bob]", NULL, NULL, NULL, "" },
	{ "X#Y 1", "X", NULL, NULL, "" },
	{ "9LIVES 1", NULL, NULL, NULL,
	  "h:4: '9LIVES' is not a parameter name" },
	{ "A[b 1", NULL, NULL, NULL, "h:4: 'A[b': missing ']'" },
};

START_TEST(test_head)
{
	prism_error_t err = { "" };
	prism_lines_t at = { .file = "h", .line = 4, .err = &err };
	char line[64], *name = (char *) 1, *id = (char *) 1, *cur = NULL;
	int rc;

	snprintf(line, sizeof(line), "%s", heads[_i].line);
	rc = prism_lines_head(&at, line, "", "_.-", &name, &id, &cur);
	ck_assert_str_eq(err.text, heads[_i].err);
	if (heads[_i].err[0]) {
		ck_assert_int_eq(rc, -1);
		return;
	}
	ck_assert_int_eq(rc, 0);
	if (!heads[_i].name) {
		ck_assert_ptr_null(name);
		return;
	}
	ck_assert_str_eq(name, heads[_i].name);
	if (heads[_i].id)
		ck_assert_str_eq(id, heads[_i].id);
	else
		ck_assert_ptr_null(id);
	if (heads[_i].next)
		ck_assert_str_eq(prism_lines_tok(&cur), heads[_i].next);
	else
		ck_assert_ptr_null(prism_lines_tok(&cur));
}
END_TEST

START_TEST(test_bad_param)
{
	prism_lines_t at = { .file = "n", .err = NULL };
	prism_lines_notices_t empty = { 0 };

	/* a NULL err is ignored; NULL lists answer nothing */
	ck_assert_int_eq(prism_lines_fail(&at, "x"), -1);
	ck_assert_int_eq(prism_lines_oom(&at), -1);
	ck_assert_ptr_null(prism_lines_notices_get(NULL, 0));
	ck_assert_ptr_null(prism_lines_notices_get(&empty, 0));
	prism_lines_notices_free(NULL);
	prism_lines_notices_free(&empty);
	/* no text: no line, no call */
	ck_assert_int_eq(prism_lines_read(&at, NULL, 0, NULL, NULL), 0);
	ck_assert_uint_eq(at.line, 0);
}
END_TEST

extern Suite *lines_suite(void)
{
	Suite *s = suite_create("lines");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_messages);
	tcase_add_loop_test(tc, test_read, 0, N(reads));
	tcase_add_test(tc, test_read_long);
	tcase_add_loop_test(tc, test_utf8, 0, N(utf8));
	tcase_add_test(tc, test_tok);
	tcase_add_loop_test(tc, test_is_name, 0, N(names));
	tcase_add_loop_test(tc, test_brackets, 0, N(brackets));
	tcase_add_loop_test(tc, test_head, 0, N(heads));
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
