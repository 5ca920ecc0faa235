/*****************************************************************************\
 *  prism_state.h - Prism's own state (last recalculation, last usage
 *  reset) and the mark of a pass that began, as the texts they are saved
 *  as: versioned and checksummed, so a truncated or corrupted file is
 *  recognised.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_STATE_H
#define PRISM_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/* Version written by this code; older versions are refused. */
#define PRISM_STATE_VERSION 1
/* The pass-begun mark's. */
#define PRISM_BEGUN_VERSION 1

typedef struct {
	int64_t last_recalc;	/* end of the last recalculation pass */
	int64_t last_reset;	/* last PriorityUsageResetPeriod reset */
} prism_state_t;

/* The checksum Prism's state texts carry: 32-bit FNV-1a of 'len' bytes. */
extern uint32_t prism_state_checksum(const char *buf, size_t len);

/*
 * Write 'st' as text into 'buf' of 'size' bytes, NUL-terminated.
 * Returns the length, or -1 with err set when 'buf' is too small.
 */
extern int prism_state_format(const prism_state_t *st, char *buf,
			      size_t size, prism_error_t *err);

/*
 * Read the text 'buf' of 'len' bytes into 'st'. Returns 0, or -1 with err
 * saying what is wrong (truncated, bad checksum, unknown version, bad
 * line); 'st' is left untouched on failure.
 */
extern int prism_state_parse(const char *buf, size_t len, prism_state_t *st,
			     prism_error_t *err);

/*
 * The pass-begun mark: the time of a pass that has begun (written before
 * it changes any usage), so that at start a save of slurmctld's own
 * usage made during a pass that never ended is recognised (see
 * prism_usnap_decide()). Format and parse as the state above: the length,
 * or -1 (err set) when 'buf' is too small; 0, -1 or PRISM_FORMAT_NEWER
 * (err set), '*begun' untouched on failure.
 */
extern int prism_begun_format(int64_t begun, char *buf, size_t size,
			      prism_error_t *err);
extern int prism_begun_parse(const char *buf, size_t len, int64_t *begun,
			     prism_error_t *err);

#endif /* PRISM_STATE_H */
