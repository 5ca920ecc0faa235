/*****************************************************************************\
 *  prism_format.h - the format numbers of the files Prism saves in
 *  StateSaveLocation, and what a reader does with a number it does not
 *  write: a newer one (a file of a later Prism, after a downgrade) is
 *  refused by name, never read as if it were this one's.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_FORMAT_H
#define PRISM_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * What a parser of a saved file returns for a file of a newer format than
 * it reads (-1 is every other failure). Callers refuse such a file: it
 * holds what a later Prism saved, and writing over it would lose that.
 */
#define PRISM_FORMAT_NEWER (-2)

/*
 * Check the format number 'got' of a 'what' file (e.g. "usage snapshot")
 * against the formats this Prism reads, 'oldest' to 'newest'. Returns 0,
 * PRISM_FORMAT_NEWER with err saying so ("... format 2, newer than format
 * 1, the newest this Prism reads: written by a later Prism"), or -1 with
 * err set for a number no Prism wrote (below 'oldest').
 */
extern int prism_format_check(const char *what, int64_t got, int oldest,
			      int newest, prism_error_t *err);

/*
 * The format number of a text whose first line is "KIND N" ('kind' given
 * without the blank): N (0 or more) into *out. Returns 0, or -1 when the
 * text does not start so (err then says it is not a 'what' file). Reads
 * only the first line: a file of a later format is recognised whatever
 * comes after it.
 */
extern int prism_format_first_line(const char *buf, size_t len,
				   const char *kind, const char *what,
				   int64_t *out, prism_error_t *err);

/*
 * Read the line "NAME VALUE\n" at *pos of the text 'buf' ('len' bytes):
 * VALUE (in 'base', as strtoll) into *value, and *pos past the line.
 * Returns 0, or -1 with err set (truncated text, another name, a value
 * that is not a whole number). The line format of Prism's text files.
 */
extern int prism_format_read_field(const char *buf, size_t len, size_t *pos,
				   const char *name, int base, int64_t *value,
				   prism_error_t *err);

#endif /* PRISM_FORMAT_H */
