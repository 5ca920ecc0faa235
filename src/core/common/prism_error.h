/*****************************************************************************\
 *  prism_error.h - human-readable errors returned in a caller's buffer.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_ERROR_H
#define PRISM_ERROR_H

typedef struct {
	char text[160];
} prism_error_t;

/* Set err->text from a printf format; a NULL 'err' is ignored. */
extern void prism_error_set(prism_error_t *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* PRISM_ERROR_H */
