/*****************************************************************************\
 *  prism_error.h - human-readable errors returned in a caller's buffer.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_ERROR_H
#define PRISM_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

/*
 * Notes
 *
 * An error is a fixed buffer on the caller's stack, so that no caller has
 * to free it (several hundred do not). Its size is a bound on every
 * message the core and the command make, not a cut: a message is made of
 * at most
 *  - one path of a file read or named (PRISM_ERROR_PATH_MAX, the longest
 *    path open(2) takes on Linux; a longer one is reported by its length,
 *    never quoted),
 *  - pieces of one policy-file line, quoted at most twice
 *    (2 * PRISM_ERROR_LINE_MAX: the parsers refuse a longer line, and
 *    PriorityParameters and whatif's SETTING=VALUE are refused past that
 *    length by their length),
 *  - the parser's own words and names (PRISM_ERROR_WORDS_MAX),
 * and tests/unit/common/test_error.c builds the longest of each kind and
 * checks it whole. Should a message ever outgrow the buffer anyway, it
 * ends in "..." and prism_error_cut() says so (the fuzzers check it).
 * At this size, code run once per job declares its error without an
 * initializer and sets text[0] to '\0': "= { "" }" zeroes all of it.
 */
#define PRISM_ERROR_PATH_MAX 4096
#define PRISM_ERROR_LINE_MAX 1024
#define PRISM_ERROR_WORDS_MAX 1024
#define PRISM_ERROR_MAX                                               \
	(PRISM_ERROR_PATH_MAX + 2 * PRISM_ERROR_LINE_MAX +            \
	 PRISM_ERROR_WORDS_MAX)

typedef struct {
	char text[PRISM_ERROR_MAX];
} prism_error_t;

/* Set err->text from a printf format; a NULL 'err' is ignored. */
extern void prism_error_set(prism_error_t *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Set err->text to 'prefix' followed by the text of 'fmt' and 'ap'; a
 * NULL 'err' is ignored.
 */
extern void prism_error_vset(prism_error_t *err, const char *prefix,
			     const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Was err->text too long for the buffer (it then ends in "...")? */
extern bool prism_error_cut(const prism_error_t *err);

#endif /* PRISM_ERROR_H */
