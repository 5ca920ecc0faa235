/*****************************************************************************\
 *  state_file.c - Prism's state file in StateSaveLocation:
 *  read at start, written atomically (temporary file, fsync, rename) at
 *  the end of every recalculation pass. The text itself comes from the
 *  core (prism_state.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/common/pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "prism_format.h"
#include "state_file.h"

#define STATE_NAME "priority_prism_state"
/* priority/multifactor's state: read and written too, so that switching
 * between the two plugins neither charges running jobs twice nor loses a
 * usage reset. */
#define MF_STATE_NAME "priority_last_decay_ran"
#define STATE_MAX 4096
/* the pass-begun mark (prism_state_begun_save()) */
#define BEGUN_NAME "priority_prism_begun"

/*
 * StateSaveLocation as slurm_conf held it at the plugin's start and at
 * its last reconfigure (prism_state_dir_load()). The pass thread saves
 * its files without slurmctld's configuration lock, and a reconfigure of
 * Slurm before 24.11 frees and rereads slurm_conf in the running
 * controller, under that lock: read there, slurm_conf.state_save_location
 * was once NULL in test-load.sh ("cannot create
 * (null)/priority_prism_pass.new").
 */
static char *state_dir;
static pthread_mutex_t state_dir_lock = PTHREAD_MUTEX_INITIALIZER;

extern void prism_state_dir_load(void)
{
	slurm_mutex_lock(&state_dir_lock);
	xfree(state_dir);
	state_dir = xstrdup(slurm_conf.state_save_location);
	slurm_mutex_unlock(&state_dir_lock);
}

extern void prism_state_dir_free(void)
{
	slurm_mutex_lock(&state_dir_lock);
	xfree(state_dir);
	slurm_mutex_unlock(&state_dir_lock);
}

extern char *prism_state_dir(void)
{
	char *dir;

	slurm_mutex_lock(&state_dir_lock);
	dir = xstrdup(state_dir);
	slurm_mutex_unlock(&state_dir_lock);
	return dir;
}

extern bool prism_state_dir_none(void)
{
	bool none;

	slurm_mutex_lock(&state_dir_lock);
	none = !xstrcmp(state_dir, "/dev/null");
	slurm_mutex_unlock(&state_dir_lock);
	return none;
}

static char *_path(const char *name, const char *suffix)
{
	char *dir = prism_state_dir();
	char *path = xstrdup_printf("%s/%s%s", dir, name, suffix);

	xfree(dir);
	return path;
}

static char *_state_path(const char *suffix)
{
	return _path(STATE_NAME, suffix);
}

static int _write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Flush the directory entry of a rename. */
static void _sync_dir(void)
{
	char *dir = prism_state_dir();
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY) : -1;

	xfree(dir);

	if (fd < 0)
		return;
	(void) fsync(fd);
	close(fd);
}

/*
 * The files whose last save failed (a full or read-only StateSaveLocation,
 * a file that cannot be replaced): a save that fails is logged as an
 * error when it starts failing, and once more when it works again; the
 * failures between are debug lines, not one error per pass.
 */
#define FAILING_MAX 8
static struct {
	char name[64];		/* "" when the slot is free */
	unsigned count;		/* saves failed since the first */
} failing[FAILING_MAX];
static pthread_mutex_t failing_lock = PTHREAD_MUTEX_INITIALIZER;
/* every failed save since the plugin started (the pass figures' count;
 * prism_state_file_start()) */
static uint64_t failed_saves;

/* Log a failed save of 'name' (what: the step and errno's words). */
static void _save_failed(const char *name, const char *what)
{
	int i, free_slot = -1;

	slurm_mutex_lock(&failing_lock);
	failed_saves++;
	for (i = 0; i < FAILING_MAX; i++) {
		if (failing[i].name[0] && !xstrcmp(failing[i].name, name))
			break;
		if (!failing[i].name[0] && (free_slot < 0))
			free_slot = i;
	}
	if (i < FAILING_MAX) {
		failing[i].count++;
		debug("%s: saving %s failed again (%u times): %s",
		      PRISM_PLUGIN_TYPE, name, failing[i].count, what);
	} else {
		if (free_slot >= 0) {
			snprintf(failing[free_slot].name,
				 sizeof(failing[free_slot].name), "%s", name);
			failing[free_slot].count = 1;
		}
		error("%s: cannot save %s: %s; the file keeps its last whole version, priorities are computed as before, and the save is tried again at every pass (logged again when it works)",
		      PRISM_PLUGIN_TYPE, name, what);
	}
	slurm_mutex_unlock(&failing_lock);
}

/* A save of 'name' worked: say so if it had been failing. */
static void _save_worked(const char *name)
{
	int i;

	slurm_mutex_lock(&failing_lock);
	for (i = 0; i < FAILING_MAX; i++) {
		if (!failing[i].name[0] || xstrcmp(failing[i].name, name))
			continue;
		info("%s: %s saved again, whole, after %u failed saves",
		     PRISM_PLUGIN_TYPE, name, failing[i].count);
		failing[i].name[0] = '\0';
		failing[i].count = 0;
	}
	slurm_mutex_unlock(&failing_lock);
}

/* whether the first save refused after giving control away was logged
 * (under failing_lock; prism_state_file_start()) */
static bool given_away_logged;

/*
 * This controller gives control to the one that asked and slurmctld may
 * have answered it (prism_ctl_control_given_away()): the other controller
 * reads the files now and writes them from its first pass, so none is
 * written here any more (one info line). True when 'name' is not to be
 * written.
 */
static bool _control_given_away(const char *name)
{
	time_t now = time(NULL);

	if (!prism_ctl_control_given_away(now))
		return false;
	slurm_mutex_lock(&failing_lock);
	if (!given_away_logged) {
		given_away_logged = true;
		info("%s: this slurmctld gives control to the controller that asked for it %ld s ago, which reads the state files once slurmctld answers it: Prism writes none of its files here any more (not %s; the other controller goes on from the last pass's)",
		     PRISM_PLUGIN_TYPE,
		     (long) (now - prism_ctl.config->shutdown_time), name);
	} else {
		debug("%s: control given away: %s not written",
		      PRISM_PLUGIN_TYPE, name);
	}
	slurm_mutex_unlock(&failing_lock);
	return true;
}

/*
 * Replace StateSaveLocation/NAME by 'len' bytes of 'buf': written to
 * NAME.new, flushed, renamed; on failure NAME is left as it was and
 * NAME.new removed. Not written at all (SLURM_SUCCESS) once control is
 * given away. Caller holds the state files lock.
 */
static int _replace_file(const char *name, const char *buf, size_t len)
{
	char *tmp, *path, *what = NULL;
	int fd, rc = SLURM_ERROR;

	if (_control_given_away(name))
		return SLURM_SUCCESS;
	tmp = _path(name, ".new");
	path = _path(name, "");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		what = xstrdup_printf("cannot create %s: %m", tmp);
		goto done;
	}
	if (_write_all(fd, buf, len) || fsync(fd)) {
		what = xstrdup_printf("cannot write %s: %m", tmp);
		close(fd);
		(void) unlink(tmp);
		goto done;
	}
	close(fd);
	if (rename(tmp, path)) {
		what = xstrdup_printf("cannot rename %s to %s: %m", tmp, path);
		(void) unlink(tmp);
		goto done;
	}
	_sync_dir();
	rc = SLURM_SUCCESS;
done:
	if (rc == SLURM_SUCCESS)
		_save_worked(name);
	else
		_save_failed(name, what);
	xfree(what);
	xfree(tmp);
	xfree(path);
	return rc;
}

extern int prism_state_file_write(const char *name, const char *buf,
				  size_t len)
{
	int rc;

	if (prism_state_dir_none())
		return SLURM_SUCCESS;
	lock_state_files();
	rc = _replace_file(name, buf, len);
	unlock_state_files();
	return rc;
}

extern int prism_state_file_write_own(const char *name, const char *buf,
				      size_t len)
{
	if (prism_state_dir_none())
		return SLURM_SUCCESS;
	return _replace_file(name, buf, len);
}

extern void prism_state_file_start(void)
{
	prism_state_dir_load();
	slurm_mutex_lock(&failing_lock);
	failed_saves = 0;
	memset(failing, 0, sizeof(failing));
	given_away_logged = false;
	slurm_mutex_unlock(&failing_lock);
}

extern uint64_t prism_state_file_failures(void)
{
	uint64_t n;

	slurm_mutex_lock(&failing_lock);
	n = failed_saves;
	slurm_mutex_unlock(&failing_lock);
	return n;
}

extern bool prism_state_file_read(const char *name, char **buf, size_t *len)
{
	char *path = _path(name, "");
	char *data = NULL;
	size_t size = 0, got = 0;
	int fd;
	bool ok = false;

	lock_state_files();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			error("%s: cannot open %s: %m; ignored",
			      PRISM_PLUGIN_TYPE, path);
		goto done;
	}
	while (true) {
		ssize_t n;

		if (got == size) {
			size = size ? 2 * size : 65536;
			xrealloc(data, size + 1);
		}
		n = read(fd, data + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("%s: cannot read %s: %m; ignored",
			      PRISM_PLUGIN_TYPE, path);
			close(fd);
			xfree(data);
			goto done;
		}
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	data[got] = '\0';
	*buf = data;
	*len = got;
	ok = true;
done:
	unlock_state_files();
	xfree(path);
	return ok;
}

/* multifactor's file: the two times packed as Slurm packs them. */
static int _save_mf_state(const prism_state_t *st)
{
	buf_t *buffer = init_buf(64);
	int rc;

	pack_time(st->last_recalc, buffer);
	pack_time(st->last_reset, buffer);
	rc = _replace_file(MF_STATE_NAME, get_buf_data(buffer),
			   get_buf_offset(buffer));
	free_buf(buffer);
	return rc;
}

extern int prism_state_save(const prism_state_t *st)
{
	char buf[STATE_MAX];
	prism_error_t err = { "" };
	int len, rc;

	if (prism_state_dir_none())
		return SLURM_SUCCESS;
	len = prism_state_format(st, buf, sizeof(buf), &err);
	if (len < 0) {
		error("%s: cannot format state: %s", PRISM_PLUGIN_TYPE,
		      err.text);
		return SLURM_ERROR;
	}
	lock_state_files();
	rc = _replace_file(STATE_NAME, buf, len);
	if (rc == SLURM_SUCCESS)
		rc = _save_mf_state(st);
	unlock_state_files();
	return rc;
}

/*
 * Read multifactor's state into 'st'. Returns false when there is none or
 * it is damaged (reported). Caller holds the state files lock.
 */
static bool _load_mf_state(prism_state_t *st)
{
	char *path = _path(MF_STATE_NAME, "");
	buf_t *buffer = create_mmap_buf(path);
	time_t last_ran = 0, last_reset = 0;
	bool ok = false;

	if (!buffer)
		goto done;
	if (unpack_time(&last_ran, buffer) ||
	    unpack_time(&last_reset, buffer)) {
		error("%s: %s is incomplete, ignored", PRISM_PLUGIN_TYPE, path);
		goto done;
	}
	st->last_recalc = last_ran;
	st->last_reset = last_reset;
	ok = true;
done:
	if (buffer)
		free_buf(buffer);
	xfree(path);
	return ok;
}

/* Prism's own file; false when there is none or it is damaged; *newer
 * when it is of a later format (refused). */
static bool _load_own_state(prism_state_t *st, bool *newer)
{
	char buf[STATE_MAX];
	prism_error_t err = { "" };
	char *path = _state_path("");
	ssize_t len;
	int fd, rc;
	bool ok = false;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			error("%s: cannot open %s: %m; ignored",
			      PRISM_PLUGIN_TYPE, path);
		goto done;
	}
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len < 0) {
		error("%s: cannot read %s: %m; ignored", PRISM_PLUGIN_TYPE,
		      path);
		goto done;
	}
	if ((rc = prism_state_parse(buf, len, st, &err)) ==
	    PRISM_FORMAT_NEWER) {
		error("%s: %s: %s; not read, and this Prism does not start (start the later Prism again, or move the file away to start this one without it)",
		      PRISM_PLUGIN_TYPE, path, err.text);
		*newer = true;
		goto done;
	}
	if (rc) {
		error("%s: state file %s is damaged (%s); ignored",
		      PRISM_PLUGIN_TYPE, path, err.text);
		goto done;
	}
	ok = true;
done:
	xfree(path);
	return ok;
}

extern int prism_state_load(prism_state_t *st)
{
	prism_state_t own = { 0 }, mf = { 0 };
	bool have_own, have_mf, newer = false;

	lock_state_files();
	have_own = _load_own_state(&own, &newer);
	have_mf = _load_mf_state(&mf);
	unlock_state_files();
	if (newer)
		return SLURM_ERROR;

	/* the newer of the two: the plugin that ran last charged up to it */
	if (have_mf && (!have_own || mf.last_recalc > own.last_recalc)) {
		*st = mf;
		info("%s: continuing from %s (last recalculation at %ld)",
		     PRISM_PLUGIN_TYPE, MF_STATE_NAME, (long) st->last_recalc);
	} else if (have_own) {
		*st = own;
		debug("%s: state loaded, last recalculation at %ld",
		      PRISM_PLUGIN_TYPE, (long) st->last_recalc);
	} else {
		*st = (prism_state_t) { 0 };
		info("%s: no saved state, starting fresh", PRISM_PLUGIN_TYPE);
	}
	return SLURM_SUCCESS;
}

extern int prism_state_begun_save(time_t begun)
{
	char buf[128];
	prism_error_t err = { "" };
	int len = prism_begun_format(begun, buf, sizeof(buf), &err);

	if (len < 0) {
		error("%s: cannot format the pass-begun mark: %s",
		      PRISM_PLUGIN_TYPE, err.text);
		return SLURM_ERROR;
	}
	return prism_state_file_write_own(BEGUN_NAME, buf, len);
}

extern int64_t prism_state_begun_read(void)
{
	prism_error_t err = { "" };
	char *buf = NULL;
	size_t len = 0;
	int64_t begun = 0;

	if (prism_state_dir_none() ||
	    !prism_state_file_read(BEGUN_NAME, &buf, &len))
		return 0;
	if (prism_begun_parse(buf, len, &begun, &err)) {
		error("%s: pass-begun mark %s is damaged (%s); ignored",
		      PRISM_PLUGIN_TYPE, BEGUN_NAME, err.text);
		begun = 0;
	}
	xfree(buf);
	return begun;
}
