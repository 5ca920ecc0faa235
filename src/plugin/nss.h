/*****************************************************************************\
 *  nss.h - the names of users and groups a policy matches jobs by,
 *  looked up with no lock held.
 *
 *  The Moab policy matches a job's user and group by name (USERCFG,
 *  GROUPCFG), the Grid Engine policy its user; slurmctld keeps a job's
 *  uid and gid. Where NSS is a directory service (LDAP, SSSD) a lookup
 *  can take milliseconds, and one made under the job write lock holds up
 *  every RPC waiting for that lock: a controller's first pass after a
 *  start would meet every user at once. So a pass of a policy state that
 *  has not done it yet first notes, under the job read lock, the ids
 *  whose names its policy lacks, then looks them up here with no lock
 *  held; the policy keeps them before the pass takes the job write lock.
 *  Jobs submitted later come through the submit path, which looks a new
 *  user's name up itself, once (policy_ops.h: names_note, names_keep).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_NSS_H
#define PRISM_NSS_H

#include <stdint.h>

typedef enum {
	PRISM_NSS_USER,
	PRISM_NSS_GROUP,
} prism_nss_kind_t;

/* Ids wanted, then their names; opaque. */
typedef struct prism_nss prism_nss_t;

/* A new empty set, freed with prism_nss_free(). */
extern prism_nss_t *prism_nss_create(void);

/* Free 'names'; NULL is ignored. */
extern void prism_nss_free(prism_nss_t *names);

/* Want the name of the user or group 'id'; an id already wanted is noted
 * once. */
extern void prism_nss_want(prism_nss_t *names, prism_nss_kind_t kind,
			   uint32_t id);

/*
 * Look up the name of every id wanted (NSS), as the submit path does: a
 * user's with uid_to_string_cached() ("nobody" for a uid without one;
 * slurmctld's own cache then holds it), a group's with
 * gid_to_string_or_null(). Call it with no lock held: it may take long.
 */
extern void prism_nss_lookup(prism_nss_t *names);

/*
 * Call 'fn' with 'arg' for every id wanted, in the order they were: its
 * kind and id, and its name once looked up (NULL: a group without one, or
 * not looked up yet), which is the set's until it is cleared or freed.
 */
extern void prism_nss_each(const prism_nss_t *names,
			   void (*fn)(prism_nss_kind_t kind, uint32_t id,
				      const char *name, void *arg),
			   void *arg);

#endif /* PRISM_NSS_H */
