/*****************************************************************************\
 *  prism_state_file.c - Prism's state file in StateSaveLocation:
 *  read at start, written atomically (temporary file, fsync, rename) at
 *  the end of every recalculation pass. The text itself comes from the
 *  core (prism_state.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "prism_adapter.h"
#include "prism_state.h"

#define STATE_NAME "priority_prism_state"
#define STATE_MAX 4096

static char *_state_path(const char *suffix)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      STATE_NAME, suffix);
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
	int fd = open(slurm_conf.state_save_location, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return;
	(void) fsync(fd);
	close(fd);
}

extern int prism_state_save(const prism_state_t *st)
{
	char buf[STATE_MAX];
	prism_error_t err = { "" };
	char *tmp, *path;
	int len, fd, rc = SLURM_ERROR;

	len = prism_state_format(st, buf, sizeof(buf), &err);
	if (len < 0) {
		error("%s: cannot format state: %s", "priority/prism",
		      err.text);
		return SLURM_ERROR;
	}
	tmp = _state_path(".new");
	path = _state_path("");
	lock_state_files();
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		error("%s: cannot create %s: %m", "priority/prism", tmp);
		goto done;
	}
	if (_write_all(fd, buf, len) || fsync(fd)) {
		error("%s: cannot write %s: %m", "priority/prism", tmp);
		close(fd);
		(void) unlink(tmp);
		goto done;
	}
	close(fd);
	if (rename(tmp, path)) {
		error("%s: cannot rename %s to %s: %m", "priority/prism", tmp,
		      path);
		(void) unlink(tmp);
		goto done;
	}
	_sync_dir();
	rc = SLURM_SUCCESS;
done:
	unlock_state_files();
	xfree(tmp);
	xfree(path);
	return rc;
}

extern void prism_state_load(prism_state_t *st)
{
	char buf[STATE_MAX];
	prism_error_t err = { "" };
	char *path = _state_path("");
	ssize_t len;
	int fd;

	*st = (prism_state_t) { 0 };
	lock_state_files();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			info("%s: no state file %s, starting fresh",
			     "priority/prism", path);
		else
			error("%s: cannot open %s: %m; starting fresh",
			      "priority/prism", path);
		goto done;
	}
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len < 0) {
		error("%s: cannot read %s: %m; starting fresh",
		      "priority/prism", path);
		goto done;
	}
	if (prism_state_parse(buf, len, st, &err)) {
		error("%s: state file %s is damaged (%s); starting fresh",
		      "priority/prism", path, err.text);
		goto done;
	}
	debug("%s: state loaded, last recalculation at %ld",
	      "priority/prism", (long) st->last_recalc);
done:
	unlock_state_files();
	xfree(path);
}
