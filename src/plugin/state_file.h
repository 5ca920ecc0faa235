/*****************************************************************************\
 *  state_file.h - files in StateSaveLocation: Prism's own state (with
 *  multifactor's last-decay file kept in step) and any named file,
 *  written atomically.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_STATE_FILE_H
#define PRISM_STATE_FILE_H

#include "ctl.h"
#include "prism_state.h"

/*
 * Read Prism's state file from StateSaveLocation into 'st'; a missing or
 * damaged file is reported and gives a fresh (zero) state. Returns
 * SLURM_ERROR (logged) when the file is of a later format than this
 * Prism reads (a downgrade): it is not read, and the plugin must not
 * start (it would write over it).
 */
extern int prism_state_load(prism_state_t *st);

/* Write 'st' atomically. Returns SLURM_SUCCESS or SLURM_ERROR (logged). */
extern int prism_state_save(const prism_state_t *st);

/*
 * Write 'len' bytes of 'buf' as StateSaveLocation/'name' (atomically:
 * temporary file, flush, rename; on failure the file keeps its last
 * version). Returns SLURM_SUCCESS or SLURM_ERROR. A failure is logged as
 * an error when saves of 'name' start failing and in a line when they
 * work again; the failures between are debug lines. Once this controller
 * gives control away (prism_ctl_control_given_away()), no file is written
 * (SLURM_SUCCESS; one info line). Takes Slurm's state-file lock.
 */
extern int prism_state_file_write(const char *name, const char *buf,
				  size_t len);

/*
 * prism_state_file_write() without Slurm's state-file lock, for a file
 * that only the calling thread writes (the usage snapshot): the lock
 * serialises slurmctld's own state saves, which never touch it.
 */
extern int prism_state_file_write_own(const char *name, const char *buf,
				      size_t len);

/* The number of saves (of any file above) that failed since the plugin
 * was started (prism_state_file_start()). Thread-safe. */
extern uint64_t prism_state_file_failures(void);

/* The plugin starts (slurmctld loads it, or a controller that gave up
 * control takes it again in the same process): no save has failed yet,
 * and a file whose saves fail is logged again when they start failing.
 * Reads StateSaveLocation (prism_state_dir_load()). */
extern void prism_state_file_start(void);

/*
 * StateSaveLocation, read from slurm_conf by prism_state_dir_load() (at
 * the start and at every reconfigure, where slurmctld holds its
 * configuration lock) and kept: the pass thread, which does not hold that
 * lock, never reads slurm_conf's, which a reconfigure of Slurm before
 * 24.11 frees and rereads in the running controller. prism_state_dir(): a
 * copy (xfree()), NULL before the first load; prism_state_dir_none(): it
 * is /dev/null (nothing is saved); prism_state_dir_free(): forget it
 * (fini()). Thread-safe.
 */
extern void prism_state_dir_load(void);
extern void prism_state_dir_free(void);
extern char *prism_state_dir(void);
extern bool prism_state_dir_none(void);

/*
 * Read StateSaveLocation/'name' into a new NUL-terminated buffer *buf
 * (xfree()) of *len bytes. False when it does not exist or cannot be
 * read (logged). Takes Slurm's state-file lock.
 */
extern bool prism_state_file_read(const char *name, char **buf, size_t *len);

/*
 * The pass-begun mark (StateSaveLocation/priority_prism_begun): the time
 * of a pass that charges usage, written as prism_state_file_write_own()
 * does (atomically, flushed) as it begins, before it changes any usage,
 * so that a save of slurmctld's own usage made during a pass the
 * controller never finished is recognised at start (prism_usnap_decide()).
 * Returns as prism_state_file_write().
 */
extern int prism_state_begun_save(time_t begun);

/*
 * At start: the time the pass-begun mark holds (0 when there is none; a
 * damaged one, or one of a later format, is logged and taken as none).
 * The mark stays until the next pass writes its own.
 */
extern int64_t prism_state_begun_read(void);

#endif /* PRISM_STATE_FILE_H */
