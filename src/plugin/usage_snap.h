/*****************************************************************************\
 *  usage_snap.h - the usage snapshot in StateSaveLocation: the usage
 *  Prism charged, saved after every pass that charged (or reset) it, and
 *  put back at start when slurmctld's own usage file is older.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_USAGE_SNAP_H
#define PRISM_USAGE_SNAP_H

#include <stdbool.h>

#include "src/common/slurmdb_defs.h"

#include "ctl.h"
#include "prism_state.h"

/*
 * Save the usage of every association and QOS with the times of the pass
 * that just charged it ('st': the state about to be saved). Call it
 * before prism_state_save() (see usage_snap.c on the order). Takes the
 * assoc_mgr association, QOS and TRES read locks for the copy only.
 */
extern void prism_usage_snap_save(const prism_state_t *st);

/*
 * Staging: a pass's fair-share walk, which writes every association back
 * under the association write lock, puts each association's usage into
 * the image as it goes (the record's lines are in cache then) instead of
 * a walk of its own under the read locks when the snapshot is saved. The
 * associations charged after that walk (the classic pass charges after
 * fair-share; a job may end on another thread meanwhile) are listed as
 * they are charged and put again by the save. The recalculation thread
 * says at the start of every pass whether it wants a stage (true only
 * when the pass will save the snapshot; any stage left is dropped); the
 * walk, holding the association write lock, begins (false: nothing to
 * stage), puts every association it writes, and says when it is done
 * whether it met every association. prism_usage_snap_save() then puts
 * the charged associations again and adds the QOS to a whole stage or,
 * when there is none or the list is not whole (more than a quarter of
 * the associations charged, out of memory), copies everything itself; it
 * drops the stage and the wish either way.
 */
extern void prism_usage_snap_stage_want(bool want);
extern bool prism_usage_snap_stage_begin(void);
extern void prism_usage_snap_stage_put(const slurmdb_assoc_rec_t *assoc);
extern void prism_usage_snap_stage_done(bool all);

/*
 * At start, after prism_state_load() into 'st': read the snapshot (and
 * the pass-begun mark); put its usage into the association and QOS
 * records when it is newer than slurmctld's own usage file or that file
 * was saved during a pass that never ended, and take its times into 'st'
 * when its pass is newer than st->last_recalc. A damaged snapshot is
 * reported and ignored. Returns SLURM_ERROR (logged) for a snapshot of a later format
 * than this Prism reads: not read, and the plugin must not start.
 * Takes the assoc_mgr write locks.
 */
extern int prism_usage_snap_load(prism_state_t *st);

/*
 * Free what is kept from pass to pass (the list of the associations
 * charged; a save frees its image itself). Call it once the
 * recalculation thread has stopped (the plugin is about to be unloaded).
 */
extern void prism_usage_snap_fini(void);

#endif /* PRISM_USAGE_SNAP_H */
