/*****************************************************************************\
 *  prism_buf.h - text built piece by piece into a caller's buffer of
 *  fixed size (explain views, mdiag tables, the usage state texts).
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_BUF_H
#define PRISM_BUF_H

#include <stdbool.h>
#include <stddef.h>

#include "prism_error.h"

/*
 * Notes
 *
 * A writer notes an overflow instead of failing at once: every piece
 * after it is dropped, and the writer checks once, at its end, with
 * prism_buf_end(). The buffer always holds a NUL-terminated text: the
 * pieces written whole before any overflow (never a piece cut short).
 */

/* A buffer being written; the caller owns 'buf'. */
typedef struct {
	char *buf;
	size_t size;		/* bytes of 'buf' */
	size_t len;		/* bytes written, without the NUL */
	bool overflow;		/* a piece did not fit */
} prism_buf_t;

/*
 * Start writing into 'buf' of 'size' bytes (made the empty string when
 * 'size' is above 0). A NULL 'buf' or a 'size' of 0 gives a buffer that
 * overflows at its first piece.
 */
extern void prism_buf_init(prism_buf_t *b, char *buf, size_t size);

/* Append printf's text of 'fmt'; after an overflow, nothing. */
extern void prism_buf_put(prism_buf_t *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The length written, or -1 after an overflow with err set to "WHAT
 * buffer of SIZE bytes is too small" ('what' names the text).
 */
extern int prism_buf_end(const prism_buf_t *b, const char *what,
			 prism_error_t *err);

#endif /* PRISM_BUF_H */
