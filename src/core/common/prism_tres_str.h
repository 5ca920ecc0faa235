/*****************************************************************************\
 *  prism_tres_str.h - one entry of a TRES string as Slurm's public records
 *  carry it ("cpu=4,mem=8000M,node=1,billing=4,gres/gpu=2"), for the
 *  prism command, which has the string where the controller has counts.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_TRES_STR_H
#define PRISM_TRES_STR_H

#include <stdint.h>

/*
 * The 'name'= entry ("mem", "gres/gpu") of the TRES string 'tres', names
 * matched without case: a bare number, or one with a K, M, G, T or P
 * suffix read as a size in MB (powers of 1024, rounded up). Returns 0
 * and sets *val (0 when the string has no such entry or is NULL), or -1
 * when the entry is not a number or 'name' or 'val' is NULL; *val is
 * untouched then.
 */
extern int prism_tres_str_get(const char *tres, const char *name,
			      uint64_t *val);

#endif /* PRISM_TRES_STR_H */
