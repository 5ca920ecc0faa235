/*****************************************************************************\
 *  prism_file.h - read a whole policy file (Moab, Grid Engine) with an
 *  error an administrator can act on.
 *
 *  Part of Prism's core library but its one I/O module: no Slurm header,
 *  no logging, no global state. The plugin and the prism command share it
 *  so that both refuse the same files with the same words.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_FILE_H
#define PRISM_FILE_H

#include <stddef.h>

#include "prism_error.h"

/*
 * Notes
 *
 * A policy file must be a regular file (or a link to one) that can be
 * read, not empty and at most PRISM_FILE_MAX bytes. A zero-byte file is
 * refused: it is far more often a failed copy than a choice; a file of
 * comments only gives the policy's defaults. Errors read
 * "PATH: what is wrong" ("PATH: cannot open: Permission denied",
 * "PATH: is a directory, not a file", "PATH: file is empty (...)").
 */

/* Largest policy file accepted, in bytes. */
#define PRISM_FILE_MAX (16 * 1024 * 1024)

/*
 * Read the file 'path' into a new NUL-terminated buffer *out (freed by
 * the caller with free()) of *len bytes (without the NUL). Returns 0, or
 * -1 with err set and *out, *len untouched.
 */
extern int prism_file_read(const char *path, char **out, size_t *len,
			   prism_error_t *err);

/*
 * prism_file_read() that takes a zero-byte file too (*len 0): for a
 * file that is converted rather than loaded (prism convert).
 */
extern int prism_file_read_text(const char *path, char **out, size_t *len,
				prism_error_t *err);

#endif /* PRISM_FILE_H */
