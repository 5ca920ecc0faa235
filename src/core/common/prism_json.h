/*****************************************************************************\
 *  prism_json.h - JSON strings and numbers written by hand for the prism
 *  command's --json output (no JSON library needed).
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_JSON_H
#define PRISM_JSON_H

#include "prism_buf.h"

/*
 * Append 's' to 'b' as a JSON string: quoted, with '"', '\\' and every
 * control character escaped (\n, \t, ... or \u00XX); bytes from 0x80 are
 * copied as they are (UTF-8 passes through). A NULL 's' appends null.
 */
extern void prism_json_str(prism_buf_t *b, const char *s);

/*
 * Append 'v' to 'b' as a JSON number, in the fewest digits (15 to 17)
 * that read back as 'v', or null when 'v' is not finite (JSON has no NaN
 * or infinity).
 */
extern void prism_json_num(prism_buf_t *b, double v);

#endif /* PRISM_JSON_H */
