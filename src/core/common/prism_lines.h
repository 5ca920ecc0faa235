/*****************************************************************************\
 *  prism_lines.h - reading a policy file (Moab's moab.cfg, Grid Engine's
 *  sched_conf) line by line: errors and notices that name the file and
 *  line, the UTF-8 check, tokens, parameter names and "NAME[id]".
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_LINES_H
#define PRISM_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "prism_error.h"

/*
 * Notes
 *
 * A parser keeps a prism_lines_t for where it is and hands it to every
 * function here that can fail. Failures set at->err to "FILE:LINE: what
 * is wrong" and return -1, so a parser can return what they return;
 * "FILE: out of memory" names no line. Notices ("FILE:LINE: what", of any
 * length) are kept in the list at->notices points to, which the policy
 * being built owns. Neither is cut: a message quotes pieces of one line
 * (at most PRISM_LINES_MAX bytes), which prism_error_t has room for.
 */

/* Longest line accepted, in bytes, without its newline. */
#define PRISM_LINES_MAX 1024
_Static_assert(PRISM_LINES_MAX <= PRISM_ERROR_LINE_MAX,
	       "an error has room for two pieces of a line");

/* Notices of a parse, in the order they were made. */
typedef struct {
	char **v;		/* "FILE:LINE: what", owned by the list */
	size_t n, cap;
} prism_lines_notices_t;

/* Where a parse is. */
typedef struct {
	const char *file;	/* names the text in messages */
	unsigned line;		/* the line being read, from 1 */
	prism_error_t *err;	/* a failure's message; may be NULL */
	prism_lines_notices_t *notices;	/* where notices go */
} prism_lines_t;

/* Set at->err to "FILE:LINE: " and printf's text of 'fmt'; returns -1. */
extern int prism_lines_fail(const prism_lines_t *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set at->err to "FILE: out of memory"; returns -1. */
extern int prism_lines_oom(const prism_lines_t *at);

/*
 * Add "FILE:LINE: " and printf's text of 'fmt' to at->notices. Returns 0,
 * or -1 with at->err set when out of memory (the list is unchanged).
 */
extern int prism_lines_notice(const prism_lines_t *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The notice 'i' of 'l' (owned by 'l'); NULL when out of range. */
extern const char *prism_lines_notices_get(const prism_lines_notices_t *l,
					   size_t i);

/* Free every notice of 'l' and make it empty; NULL is ignored. */
extern void prism_lines_notices_free(prism_lines_notices_t *l);

/*
 * Call 'fn' with 'arg' for each line of 'text' ('len' bytes, need not be
 * NUL-terminated), NUL-terminated without its newline in a buffer 'fn'
 * may change; at->line counts the lines. A line longer than
 * PRISM_LINES_MAX or not UTF-8 fails before 'fn' sees it. Returns 0, or
 * -1 at the first failure (at->err set by it or by 'fn').
 */
extern int prism_lines_read(prism_lines_t *at, const char *text, size_t len,
			    int (*fn)(void *arg, char *line), void *arg);

/*
 * Returns 0 if the 'len' bytes at 's' are UTF-8 without a NUL byte, else
 * -1 with at->err naming the first bad byte and its column.
 */
extern int prism_lines_utf8(const prism_lines_t *at, const char *s,
			    size_t len);

/*
 * The next token of *cur (ends at a blank: space, tab, CR, VT, FF),
 * NUL-terminated in place; *cur moves past it. NULL at the end.
 */
extern char *prism_lines_tok(char **cur);

/*
 * Is 's' a parameter name: a letter or one of 'first', then letters,
 * digits and characters of 'more'? False for an empty 's'.
 */
extern bool prism_lines_is_name(const char *s, const char *first,
				const char *more);

/*
 * Split the token "NAME[id]" in place: *id points to "id" and 'tok'
 * ends before '['; *id is NULL for a token without brackets. Returns 0,
 * or -1 with at->err set when the brackets are malformed (*id NULL).
 */
extern int prism_lines_brackets(const prism_lines_t *at, char *tok,
				char **id);

/*
 * Start reading 'line': cut its '#' comment off, split its first token
 * with prism_lines_brackets() into *name and *id, and check *name with
 * prism_lines_is_name(first, more) ("'NAME' is not a parameter name");
 * *cur points to the rest of the line for prism_lines_tok(). Returns 0
 * (*name NULL for a line of blanks or a comment), or -1 with at->err set.
 */
extern int prism_lines_head(const prism_lines_t *at, char *line,
			    const char *first, const char *more, char **name,
			    char **id, char **cur);

/*
 * The edit distance (Levenshtein) of 'a' and 'b' without regard to case,
 * for "did you mean" suggestions; UINT_MAX when either is longer than 63
 * bytes.
 */
extern unsigned prism_lines_distance(const char *a, const char *b);

#endif /* PRISM_LINES_H */
