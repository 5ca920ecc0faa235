/*****************************************************************************\
 *  prism_idmap.h - a map from 32-bit ids (uid, gid) to 32-bit values, for
 *  the adapters' caches of per-id lookups that are too slow to repeat for
 *  every job of every pass (a group name from the name service, then its
 *  credential in a policy).
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_IDMAP_H
#define PRISM_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

/* Open addressing, linear probing, at most half full; opaque. */
typedef struct prism_idmap prism_idmap_t;

/* A new empty map, freed with prism_idmap_free(); NULL when out of memory. */
extern prism_idmap_t *prism_idmap_create(void);

/* Free 'm'; NULL is ignored. */
extern void prism_idmap_free(prism_idmap_t *m);

/* Forget every entry (the memory is kept). */
extern void prism_idmap_clear(prism_idmap_t *m);

/* The value of 'key' into *val: true, or false when 'key' is absent. */
extern bool prism_idmap_get(const prism_idmap_t *m, uint32_t key,
			    uint32_t *val);

/*
 * Set 'key' to 'val'. Returns 0, or -1 when out of memory (the map is
 * unchanged then).
 */
extern int prism_idmap_put(prism_idmap_t *m, uint32_t key, uint32_t val);

/* Number of entries. */
extern uint32_t prism_idmap_count(const prism_idmap_t *m);

#endif /* PRISM_IDMAP_H */
