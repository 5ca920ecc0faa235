/*****************************************************************************\
 *  prism_ge_usage.h - the share-tree usage of the Grid Engine policy: per
 *  Slurm association id, the CPU-seconds its running jobs used, decayed
 *  with the policy's halftime; and the text it is saved as (versioned and
 *  checksummed, so a damaged file is recognised).
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_GE_USAGE_H
#define PRISM_GE_USAGE_H

#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * Grid Engine keeps a usage per share-tree node that decays with the
 * scheduler's halftime (sched_conf(5)); the share tree divides tickets by
 * it (prism_ge.h). Prism keeps that usage per association id, apart from
 * Slurm's own usage_raw (which decays with PriorityDecayHalfLife): the GE
 * file's halftime governs. An id is a node of the share tree; its value
 * is the node's own usage (the core sums subtrees).
 *
 * decay(now) multiplies every value by 2^(-(now - last) / (3600 *
 * halftime)) (prism_ge_decay(); halftime 0: no decay) and moves 'last'
 * to 'now'; a 'now' not after 'last' changes nothing. charge() adds
 * usage undecayed: the adapter charges the time since the last pass
 * right after decaying to the pass's time.
 *
 * Text:
 *     prism-ge-usage VERSION
 *     last EPOCH
 *     assoc ID USAGE          one line per id with usage > 0 (%.17g)
 *     checksum HEX            32-bit FNV-1a of everything before it
 */

/* Version of the text written by this code; others are refused. */
#define PRISM_GE_USAGE_VERSION 1

/* Usage per association id; opaque. */
typedef struct prism_ge_usage prism_ge_usage_t;

/*
 * A new usage, every id at 0, last decayed at 'now'. NULL when out of
 * memory. Free with prism_ge_usage_free().
 */
extern prism_ge_usage_t *prism_ge_usage_create(int64_t now);

/* Free 'u'; NULL is ignored. */
extern void prism_ge_usage_free(prism_ge_usage_t *u);

/* When 'u' was last decayed (epoch seconds; 0 for NULL). */
extern int64_t prism_ge_usage_last(const prism_ge_usage_t *u);

/* Decay every value from the last decay to 'now' (see the notes). */
extern void prism_ge_usage_decay(prism_ge_usage_t *u, int64_t now,
				 uint32_t halftime);

/*
 * Add 'amount' (finite, 0..1e18) to the usage of 'id'; the total stays at
 * most 1e18, what the saved text holds. Returns 0, or -1 with err set for
 * a NULL 'u', a bad amount or no memory ('u' unchanged).
 */
extern int prism_ge_usage_charge(prism_ge_usage_t *u, uint32_t id,
				 double amount, prism_error_t *err);

/*
 * The usage a job with 'cpus' CPUs adds in 'seconds' of running: its
 * CPU-seconds (Grid Engine's usage_weight_list cpu=1). 0 for 'seconds'
 * not above 0 or not finite.
 */
extern double prism_ge_usage_amount(uint32_t cpus, double seconds);

/* The usage of 'id' (0 when it has none or 'u' is NULL). */
extern double prism_ge_usage_get(const prism_ge_usage_t *u, uint32_t id);

/* Number of ids with an entry (also those decayed to 0). */
extern uint32_t prism_ge_usage_count(const prism_ge_usage_t *u);

/* An upper bound of the length prism_ge_usage_format() needs. */
extern size_t prism_ge_usage_format_size(const prism_ge_usage_t *u);

/*
 * Write 'u' as text into 'buf' of 'size' bytes, NUL-terminated. Returns
 * the length, or -1 with err set when 'buf' is too small or an argument
 * is NULL.
 */
extern int prism_ge_usage_format(const prism_ge_usage_t *u, char *buf,
				 size_t size, prism_error_t *err);

/*
 * Read the text 'buf' of 'len' bytes into a new usage *out (free with
 * prism_ge_usage_free()). Returns 0, or -1 with err saying what is wrong
 * (truncated, checksum, version, a bad or repeated line) and *out
 * untouched.
 */
extern int prism_ge_usage_parse(const char *buf, size_t len,
				prism_ge_usage_t **out, prism_error_t *err);

#endif /* PRISM_GE_USAGE_H */
