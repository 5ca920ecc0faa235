/*****************************************************************************\
 *  nss.c - the names of users and groups a policy matches jobs by,
 *  looked up with no lock held (nss.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "nss.h"
#include "prism_idmap.h"

typedef struct {
	prism_nss_kind_t kind;
	uint32_t id;
	char *name;		/* xmalloc()ed; NULL: none (yet) */
} entry_t;

struct prism_nss {
	entry_t *e;
	uint32_t n, cap;
	prism_idmap_t *seen[2];	/* per kind: the ids wanted */
};

extern prism_nss_t *prism_nss_create(void)
{
	prism_nss_t *names = xmalloc(sizeof(*names));

	names->seen[PRISM_NSS_USER] = prism_idmap_create();
	names->seen[PRISM_NSS_GROUP] = prism_idmap_create();
	return names;
}

extern void prism_nss_free(prism_nss_t *names)
{
	if (!names)
		return;
	for (uint32_t i = 0; i < names->n; i++)
		xfree(names->e[i].name);
	prism_idmap_free(names->seen[PRISM_NSS_USER]);
	prism_idmap_free(names->seen[PRISM_NSS_GROUP]);
	xfree(names->e);
	xfree(names);
}

extern void prism_nss_want(prism_nss_t *names, prism_nss_kind_t kind,
			   uint32_t id)
{
	uint32_t i;

	if (prism_idmap_get(names->seen[kind], id, &i))
		return;
	/* (out of memory the id is simply not looked up here: the policy's
	 * own lookup under the lock then finds it) */
	if (prism_idmap_put(names->seen[kind], id, names->n))
		return;
	if (names->n == names->cap) {
		names->cap = names->cap ? 2 * names->cap : 64;
		xrecalloc(names->e, names->cap, sizeof(*names->e));
	}
	names->e[names->n++] = (entry_t) { .kind = kind, .id = id };
}

extern void prism_nss_lookup(prism_nss_t *names)
{
	for (uint32_t i = 0; i < names->n; i++) {
		entry_t *e = &names->e[i];

		xfree(e->name);
		if (e->kind == PRISM_NSS_USER)
			e->name = xstrdup(uid_to_string_cached(e->id));
		else
			e->name = gid_to_string_or_null(e->id);
	}
}

extern void prism_nss_each(const prism_nss_t *names,
			   void (*fn)(prism_nss_kind_t kind, uint32_t id,
				      const char *name, void *arg),
			   void *arg)
{
	for (uint32_t i = 0; i < names->n; i++)
		fn(names->e[i].kind, names->e[i].id, names->e[i].name, arg);
}
