/*****************************************************************************\
 *  prism_usnap.h - the usage snapshot: after every pass that charged
 *  usage, the usage Prism charges (per association and per QOS: raw
 *  usage, raw TRES usage, group wall time) as a compact binary image with
 *  the pass's times and a checksum, so that a controller killed between
 *  two of slurmctld's own usage saves comes back with the usage of its
 *  last pass; and the rule that decides, at start, whether the snapshot
 *  or slurmctld's own usage file is the newer.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_USNAP_H
#define PRISM_USNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * The image is native (the machine that wrote it reads it): a header of
 * PRISM_USNAP_HEAD bytes (magic "PRSMUSNP", version, the bytes a long
 * double is stored in, a byte-order mark, the pass's last_recalc and
 * last_reset, the time the usage was copied, the TRES, association and
 * QOS counts), then one record per association and then per QOS, then an
 * 8-byte checksum of everything before it. A record holds the id, the
 * group wall time, the raw usage and only the raw TRES usages that are
 * not zero (each with its TRES index): most associations use a few of
 * the TRES slurmctld counts, and the image is written after every pass.
 * Records are read in order (prism_usnap_next()); an adapter that looks
 * them up by id keeps their offsets. An id may have more than one record
 * (one put when the usage was staged, one put again after a later
 * charge): the last one holds its usage.
 */

#define PRISM_USNAP_VERSION 1
#define PRISM_USNAP_HEAD 64
/* Most TRES a snapshot holds per record (slurmctld counts tens). */
#define PRISM_USNAP_TRES_MAX 65536

typedef struct {
	int64_t last_recalc;	/* the pass the usage was charged up to */
	int64_t last_reset;	/* the last usage reset as of that pass */
	int64_t taken;		/* when the usage was copied */
	uint32_t tres_cnt;	/* TRES per record (sparse in the image) */
	uint32_t assoc_cnt;	/* association records (first) */
	uint32_t qos_cnt;	/* QOS records (after) */
} prism_usnap_head_t;

/* One association's or QOS's usage. */
typedef struct {
	uint32_t id;
	double grp_used_wall;
	long double usage_raw;
} prism_usnap_rec_t;

/*
 * The most bytes an image of 'h' takes (every TRES usage not zero),
 * checksum included; 0 when that would exceed 4 GiB or h->tres_cnt
 * PRISM_USNAP_TRES_MAX.
 */
extern size_t prism_usnap_max_size(const prism_usnap_head_t *h);

/* The most bytes one record with 'tres_cnt' TRES takes (<= 4 GiB for a
 * count prism_usnap_max_size() accepts). */
extern size_t prism_usnap_rec_max(uint32_t tres_cnt);

/*
 * Append a record at offset *pos of the image 'buf' (first at
 * PRISM_USNAP_HEAD): 'r' and those of the 'tres_cnt' values of 'tres'
 * that are not zero ('tres' may be NULL: none). *pos moves past it. The
 * caller gives 'buf' prism_usnap_rec_max() bytes from *pos on (and 8 more
 * after the last record for prism_usnap_end()).
 */
extern void prism_usnap_put(char *buf, size_t *pos, uint32_t tres_cnt,
			    const prism_usnap_rec_t *r, const long double *tres);

/*
 * Close the image 'buf' whose records end at 'pos': write the header of
 * 'h' (its counts those of the records put) and the checksum. Returns the
 * image's length.
 */
extern size_t prism_usnap_end(char *buf, size_t pos,
			      const prism_usnap_head_t *h);

/*
 * Check the image 'buf' of 'len' bytes (magic, version, long double
 * size, byte order, checksum, counts within prism_usnap_max_size()'s
 * bounds, every record whole and in bounds, nothing after the last) and read its header into 'h'. Returns 0, or -1 with
 * err saying what is wrong ('h' untouched).
 */
extern int prism_usnap_parse(const char *buf, size_t len,
			     prism_usnap_head_t *h, prism_error_t *err);

/*
 * Read the record at offset *pos of a checked image (the first is at
 * PRISM_USNAP_HEAD) into 'r' and, when 'tres' is not NULL, its
 * h->tres_cnt raw TRES usages (zero those not stored) into 'tres'; *pos
 * moves to the next record.
 */
extern void prism_usnap_next(const char *buf, const prism_usnap_head_t *h,
			     size_t *pos, prism_usnap_rec_t *r,
			     long double *tres);

/* The checksum of 'len' bytes: 4 lanes of 64-bit xor-multiply over 8-byte
 * words, the length and the tail mixed in. */
extern uint64_t prism_usnap_checksum(const char *buf, size_t len);

/* What to do at start with a checked snapshot. */
typedef struct {
	bool apply;		/* overwrite the loaded usage with it */
	bool adopt_times;	/* take its last_recalc and last_reset */
	bool in_pass;		/* applied because slurmctld's save was made
				 * during a pass that never ended */
} prism_usnap_use_t;

/*
 * Decide for the snapshot 'h' given the state loaded ('last_recalc': the
 * newer of Prism's and multifactor's state files), the time in the
 * header of slurmctld's own usage file ('slurm_saved', 0 when there is
 * none) and the pass-begun mark ('begun': the time of the last pass that
 * began, 0 when there is none):
 *   - a snapshot of a pass older than last_recalc is stale (a later pass
 *     ran, by this plugin or another): neither;
 *   - else its times are adopted when its pass is newer than last_recalc
 *     (killed between the snapshot and the state file: the usage was
 *     charged up to its pass, charging again from last_recalc would
 *     charge that pass twice);
 *   - and its usage is applied unless slurmctld saved its own usage
 *     strictly after the snapshot was taken (that save holds everything
 *     the snapshot holds, and job ends charged since);
 *   - but it is applied whenever slurmctld's save was made after a pass
 *     began that never ended (begun newer than the snapshot's pass, the
 *     save not older than begun): that save may hold the pass's decay and
 *     some of its charges, which the next pass, going on from the
 *     snapshot's pass, would make again. The snapshot loses the job ends
 *     charged between its pass and the kill (at most a pass's worth);
 *     that save would have charged a pass twice. A save in the second the
 *     pass began is taken as made in it.
 */
extern prism_usnap_use_t prism_usnap_decide(const prism_usnap_head_t *h,
					    int64_t last_recalc,
					    int64_t slurm_saved,
					    int64_t begun);

#endif /* PRISM_USNAP_H */
