/*****************************************************************************\
 *  prism_names.h - a table of named entries: the credentials of a Moab
 *  policy, the users, accounts, partitions and resources of a Grid Engine
 *  policy. Entries keep the order their names were first added in and are
 *  found by name in O(1).
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_NAMES_H
#define PRISM_NAMES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Notes
 *
 * An entry is a block of 'size' bytes the caller gives a type, zeroed
 * when added; its index (its handle) never changes, its address moves
 * when the table grows. Names are compared byte for byte (case matters)
 * and owned by the table. Open addressing over FNV-1a hashes
 * (prism_state_checksum()), at most half full.
 */

/* Index of no entry. */
#define PRISM_NAMES_NONE UINT32_MAX

/* The table; the caller owns the struct, the table what it points to. */
typedef struct {
	size_t size;		/* bytes of one entry */
	uint32_t n, cap;	/* entries, room for entries */
	char *v;		/* the entries */
	char **name;		/* the name of each entry */
	uint32_t *slot;		/* indices, PRISM_NAMES_NONE when free */
	uint32_t nslot;		/* 0 or a power of two, >= 2 * n */
} prism_names_t;

/*
 * An empty table of entries of 'size' bytes (above 0); no memory is
 * taken yet. Every other function needs a table made by this one.
 */
extern void prism_names_init(prism_names_t *t, size_t size);

/* Free what 't' holds and make it empty; NULL is ignored. */
extern void prism_names_free(prism_names_t *t);

/* Index of the entry 'name', or PRISM_NAMES_NONE. */
extern uint32_t prism_names_find(const prism_names_t *t, const char *name);

/*
 * The entry 'name', added zeroed when new, its index into *idx (may be
 * NULL). NULL when out of memory or full ('t' is unchanged then).
 */
extern void *prism_names_add(prism_names_t *t, const char *name,
			     uint32_t *idx);

/* The entry at 'idx', or NULL when out of range. */
extern void *prism_names_at(const prism_names_t *t, uint32_t idx);

/* The name of the entry at 'idx', owned by 't'; NULL when out of range. */
extern const char *prism_names_name(const prism_names_t *t, uint32_t idx);

/* A copy of 's' the caller frees; NULL when out of memory. */
extern char *prism_names_dup(const char *s);

#endif /* PRISM_NAMES_H */
