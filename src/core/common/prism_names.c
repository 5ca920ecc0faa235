/*****************************************************************************\
 *  prism_names.c - a table of named entries (see prism_names.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "prism_names.h"
#include "prism_state.h"

/* The first size of the entries and of the slots. */
#define _CAP_MIN 16

static uint32_t _hash(const char *name)
{
	return prism_state_checksum(name, strlen(name));
}

static void _place(uint32_t *slot, uint32_t nslot, const char *name,
		   uint32_t idx)
{
	uint32_t h = _hash(name) & (nslot - 1);

	while (slot[h] != PRISM_NAMES_NONE)
		h = (h + 1) & (nslot - 1);
	slot[h] = idx;
}

static int _rehash(prism_names_t *t, uint32_t nslot)
{
	uint32_t *slot = malloc(nslot * sizeof(*slot));

	if (!slot)
		return -1;
	for (uint32_t i = 0; i < nslot; i++)
		slot[i] = PRISM_NAMES_NONE;
	for (uint32_t i = 0; i < t->n; i++)
		_place(slot, nslot, t->name[i], i);
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

/* Room for one more entry and its name; -1 when out of memory. */
static int _reserve(prism_names_t *t)
{
	uint32_t cap;
	char **name;
	char *v;

	if ((uint64_t) (t->n + 1) * 2 > t->nslot &&
	    _rehash(t, t->nslot ? t->nslot * 2 : _CAP_MIN))
		return -1;
	if (t->n < t->cap)
		return 0;
	cap = t->cap ? t->cap * 2 : _CAP_MIN;
	v = realloc(t->v, (size_t) cap * t->size);
	if (!v)
		return -1;
	t->v = v;
	name = realloc(t->name, cap * sizeof(*name));
	if (!name)
		return -1;
	t->name = name;
	t->cap = cap;
	return 0;
}

extern void prism_names_init(prism_names_t *t, size_t size)
{
	*t = (prism_names_t) { .size = size };
}

extern void prism_names_free(prism_names_t *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->v);
	free(t->slot);
	prism_names_init(t, t->size);
}

extern uint32_t prism_names_find(const prism_names_t *t, const char *name)
{
	uint32_t h;

	if (!t->nslot)
		return PRISM_NAMES_NONE;
	h = _hash(name) & (t->nslot - 1);
	while (t->slot[h] != PRISM_NAMES_NONE) {
		if (!strcmp(t->name[t->slot[h]], name))
			return t->slot[h];
		h = (h + 1) & (t->nslot - 1);
	}
	return PRISM_NAMES_NONE;
}

extern void *prism_names_add(prism_names_t *t, const char *name,
			     uint32_t *idx)
{
	uint32_t i = prism_names_find(t, name);
	char *copy;

	if (i == PRISM_NAMES_NONE) {
		/* the slots stay at most half full, within 32 bits */
		if (t->n >= PRISM_NAMES_NONE / 4 || _reserve(t))
			return NULL;
		copy = prism_names_dup(name);
		if (!copy)
			return NULL;
		i = t->n++;
		t->name[i] = copy;
		memset(t->v + (size_t) i * t->size, 0, t->size);
		_place(t->slot, t->nslot, copy, i);
	}
	if (idx)
		*idx = i;
	return t->v + (size_t) i * t->size;
}

extern void *prism_names_at(const prism_names_t *t, uint32_t idx)
{
	if (idx >= t->n)
		return NULL;
	return t->v + (size_t) idx * t->size;
}

extern const char *prism_names_name(const prism_names_t *t, uint32_t idx)
{
	if (idx >= t->n)
		return NULL;
	return t->name[idx];
}

extern char *prism_names_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}
