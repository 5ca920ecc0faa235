/*****************************************************************************\
 *  prism_sumtext.h - the checksummed texts the usage states are saved as
 *  (prism_moab.h, prism_ge_usage.h): lines of text, numbers written so
 *  that they read back exactly, and a last line with the checksum of
 *  everything before it, so that a truncated or damaged file is
 *  recognised.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_SUMTEXT_H
#define PRISM_SUMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "prism_buf.h"

/*
 * Notes
 *
 * The last line is "checksum HEX\n": HEX exactly 8 hex digits (written
 * lower-case, read in either case) of prism_state_checksum() of every
 * byte before that line. What the lines before it say is the caller's
 * business; each state text names its kind and version on its first line.
 *
 * Numbers. A real is written as " %.17g", which reads back to the same
 * double. Read back, a value too small for a normal double (a subnormal
 * one, as repeated decay leaves) is valid even though strtod() reports
 * ERANGE for it; an overflow reads as HUGE_VAL and fails the range check.
 */

/* Longest text prism_sumtext_put_real() writes, with its blank. */
#define PRISM_SUMTEXT_REAL_MAX 26

/* What prism_sumtext_open() found. */
typedef enum {
	PRISM_SUMTEXT_OK,
	PRISM_SUMTEXT_EMPTY,		/* no byte at all */
	PRISM_SUMTEXT_TRUNCATED,	/* no newline at the end */
	PRISM_SUMTEXT_NO_CHECKSUM,	/* the last line is not "checksum " */
	PRISM_SUMTEXT_BAD_LENGTH,	/* "checksum " and not 8 digits */
	PRISM_SUMTEXT_MISMATCH,		/* not hex, or not the text's sum */
	PRISM_SUMTEXT_NO_MEMORY,
	PRISM_SUMTEXT_BAD_PARAMETER,	/* a NULL argument */
} prism_sumtext_rc_t;

/* What 'rc' means, for messages: "empty", "checksum mismatch", ... */
extern const char *prism_sumtext_why(prism_sumtext_rc_t rc);

/* Append 'v' as " %.17g" to 'b'. */
extern void prism_sumtext_put_real(prism_buf_t *b, double v);

/*
 * Append the checksum line of everything 'b' holds; nothing after an
 * overflow (prism_buf_end() then reports it).
 */
extern void prism_sumtext_put_checksum(prism_buf_t *b);

/*
 * Check that the text 'buf' of 'len' bytes ends with its checksum line
 * and copy the lines before it into *body, NUL-terminated, *body_len
 * bytes without the NUL; the caller frees *body. Returns PRISM_SUMTEXT_OK,
 * or what is wrong with *body and *body_len untouched. The checks run in
 * the order of the codes (a text with no newline at the end is
 * TRUNCATED, whatever else is wrong with it).
 */
extern prism_sumtext_rc_t prism_sumtext_open(const char *buf, size_t len,
					     char **body, size_t *body_len);

/*
 * The next line of 'body' ('len' bytes) from *pos, its newline replaced
 * by a NUL; *pos moves past it. NULL at the end.
 */
extern char *prism_sumtext_line(char *body, size_t len, size_t *pos);

/*
 * The decimal integer min..max that is all of 's' (strtoll(): blanks
 * and a sign before it pass) into *out. Returns 0, or -1 with *out
 * untouched.
 */
extern int prism_sumtext_int(const char *s, int64_t min, int64_t max,
			     int64_t *out);

/*
 * The number min..max at the start of 's' (strtod(); blanks before it
 * pass) into *out, *end past it. Returns 0, or -1 with *out and *end
 * untouched when 's' starts with no number or the value (NAN, an
 * overflow) is out of range; a subnormal value is valid (see the notes).
 */
extern int prism_sumtext_real(const char *s, double min, double max,
			      char **end, double *out);

#endif /* PRISM_SUMTEXT_H */
