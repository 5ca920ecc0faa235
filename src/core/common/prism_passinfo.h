/*****************************************************************************\
 *  prism_passinfo.h - the figures of the plugin's last recalculation pass
 *  (when it ran, how long it took, how much it did, the longest job-lock
 *  hold, counters since the plugin started) as the small text file the
 *  plugin replaces after every pass and `prism metrics` reads: versioned
 *  and checksummed like Prism's state, so a reader never takes a damaged
 *  file for figures.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_PASSINFO_H
#define PRISM_PASSINFO_H

#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/* Version written by this code. */
#define PRISM_PASSINFO_VERSION 1

/* The file's name in StateSaveLocation. */
#define PRISM_PASSINFO_NAME "priority_prism_pass"

typedef struct {
	int64_t plugin_start;	/* epoch when the plugin (slurmctld) started */
	int64_t pass_start;	/* epoch: the pass's "now" */
	int64_t pass_end;	/* epoch when the figures were taken */
	int64_t duration_usec;	/* the pass, up to its figures (monotonic) */
	int64_t jobs_computed;	/* jobs whose priority the pass computed */
	int64_t jobs_charged;	/* running jobs whose usage it charged */
	int64_t lock_hold_max_usec; /* longest job write lock hold */
	int64_t usage_save_usec; /* usage snapshot's save; -1: none saved */
	int64_t passes;		/* passes since plugin_start, this one too */
	int64_t save_errors;	/* failed saves of Prism's files since then */
} prism_passinfo_t;

/*
 * Write 'pi' as text into 'buf' of 'size' bytes, NUL-terminated.
 * Returns the length, or -1 with err set when 'buf' is too small.
 */
extern int prism_passinfo_format(const prism_passinfo_t *pi, char *buf,
				 size_t size, prism_error_t *err);

/*
 * Read the text 'buf' of 'len' bytes into 'pi'. Returns 0;
 * PRISM_FORMAT_NEWER for a file of a later format; or -1 with err saying
 * what is wrong (truncated, bad checksum, bad or missing line). 'pi' is
 * left untouched on failure.
 */
extern int prism_passinfo_parse(const char *buf, size_t len,
				prism_passinfo_t *pi, prism_error_t *err);

#endif /* PRISM_PASSINFO_H */
