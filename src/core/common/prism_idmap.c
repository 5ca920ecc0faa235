/*****************************************************************************\
 *  prism_idmap.c - a map from 32-bit ids to 32-bit values.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "prism_idmap.h"

typedef struct {
	uint32_t key;
	uint32_t val;
	bool used;
} _slot_t;

struct prism_idmap {
	_slot_t *slot;
	uint32_t size;		/* a power of two */
	uint32_t count;
};

#define _SIZE_MIN 16u

static uint32_t _hash(uint32_t key)
{
	/* a 32-bit finaliser: ids are often consecutive */
	key ^= key >> 16;
	key *= 0x7feb352dU;
	key ^= key >> 15;
	key *= 0x846ca68bU;
	key ^= key >> 16;
	return key;
}

static _slot_t *_find(const prism_idmap_t *m, uint32_t key)
{
	uint32_t i = _hash(key) & (m->size - 1);

	while (m->slot[i].used && m->slot[i].key != key)
		i = (i + 1) & (m->size - 1);
	return &m->slot[i];
}

extern prism_idmap_t *prism_idmap_create(void)
{
	prism_idmap_t *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->slot = calloc(_SIZE_MIN, sizeof(*m->slot));
	if (!m->slot) {
		free(m);
		return NULL;
	}
	m->size = _SIZE_MIN;
	return m;
}

extern void prism_idmap_free(prism_idmap_t *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m);
}

extern void prism_idmap_clear(prism_idmap_t *m)
{
	if (!m)
		return;
	memset(m->slot, 0, sizeof(*m->slot) * m->size);
	m->count = 0;
}

extern bool prism_idmap_get(const prism_idmap_t *m, uint32_t key,
			    uint32_t *val)
{
	const _slot_t *s;

	if (!m)
		return false;
	s = _find(m, key);
	if (!s->used)
		return false;
	if (val)
		*val = s->val;
	return true;
}

/* Double the table; -1 when out of memory (the map is unchanged). */
static int _grow(prism_idmap_t *m)
{
	prism_idmap_t bigger = { .size = m->size * 2 };

	if (bigger.size < m->size)
		return -1;
	bigger.slot = calloc(bigger.size, sizeof(*bigger.slot));
	if (!bigger.slot)
		return -1;
	for (uint32_t i = 0; i < m->size; i++) {
		if (m->slot[i].used)
			*_find(&bigger, m->slot[i].key) = m->slot[i];
	}
	free(m->slot);
	m->slot = bigger.slot;
	m->size = bigger.size;
	return 0;
}

extern int prism_idmap_put(prism_idmap_t *m, uint32_t key, uint32_t val)
{
	_slot_t *s;

	if (!m)
		return -1;
	s = _find(m, key);
	if (s->used) {
		s->val = val;
		return 0;
	}
	if ((m->count + 1) * 2 > m->size) {
		if (_grow(m))
			return -1;
		s = _find(m, key);
	}
	*s = (_slot_t) { .key = key, .val = val, .used = true };
	m->count++;
	return 0;
}

extern uint32_t prism_idmap_count(const prism_idmap_t *m)
{
	return m ? m->count : 0;
}
