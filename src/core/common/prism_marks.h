/*****************************************************************************\
 *  prism_marks.h - the special values Slurm's records use (no limit, no
 *  value, the offset of nice), as the core's own constants: the core
 *  includes no Slurm header, so the adapter and the prism command, which
 *  do, check with _Static_assert that each equals Slurm's.
 *
 *  Part of Prism's core: pure C, no Slurm header.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MARKS_H
#define PRISM_MARKS_H

/* Slurm's NICE_OFFSET: a nice of 0 as a job record keeps it. */
#define PRISM_NICE_OFFSET 0x80000000u

/* Slurm's INFINITE and NO_VAL (32 bits): no limit, no value set. */
#define PRISM_INFINITE 0xffffffffu
#define PRISM_NO_VAL 0xfffffffeu

/* Their 64-bit forms and NO_CONSUME_VAL64 (a TRES count that is none). */
#define PRISM_INFINITE64 0xffffffffffffffffull
#define PRISM_NO_VAL64 0xfffffffffffffffeull
#define PRISM_NO_CONSUME_VAL64 0xfffffffffffffffdull

#endif /* PRISM_MARKS_H */
