/*****************************************************************************\
 *  prism_file.c - read a whole policy file with a clear error.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prism_file.h"

/* Read all 'size' bytes of 'fd' into 'buf'; -1 with errno on error. */
static int _read_all(int fd, char *buf, size_t size, size_t *got)
{
	*got = 0;
	while (*got < size) {
		ssize_t n = read(fd, buf + *got, size - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		*got += (size_t) n;
	}
	return 0;
}

/* prism_file_read(), and prism_file_read_text() when 'empty_ok'. */
static int _read(const char *path, bool empty_ok, char **out, size_t *len,
		 prism_error_t *err)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd;

	if (!path || !*path || !out || !len) {
		prism_error_set(err, "prism_file_read: bad parameter");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		prism_error_set(err, "%s: cannot open: %s", path,
				strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		prism_error_set(err, "%s: cannot stat: %s", path,
				strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		prism_error_set(err, "%s: is a directory, not a file", path);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		prism_error_set(err, "%s: not a regular file", path);
		goto fail;
	}
	if (st.st_size > PRISM_FILE_MAX) {
		prism_error_set(err, "%s: larger than %d bytes", path,
				PRISM_FILE_MAX);
		goto fail;
	}
	buf = malloc((size_t) st.st_size + 2);
	if (!buf) {
		prism_error_set(err, "%s: out of memory", path);
		goto fail;
	}
	/* one byte more than stat said, to see a file that grew */
	if (_read_all(fd, buf, (size_t) st.st_size + 1, &got)) {
		prism_error_set(err, "%s: cannot read: %s", path,
				strerror(errno));
		goto fail;
	}
	if (got > (size_t) st.st_size) {
		prism_error_set(err, "%s: changed while being read", path);
		goto fail;
	}
	if (!got && !empty_ok) {
		prism_error_set(err, "%s: file is empty (a file of comments only gives the policy's defaults)",
				path);
		goto fail;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
fail:
	free(buf);
	close(fd);
	return -1;
}

extern int prism_file_read(const char *path, char **out, size_t *len,
			   prism_error_t *err)
{
	return _read(path, false, out, len, err);
}

extern int prism_file_read_text(const char *path, char **out, size_t *len,
				prism_error_t *err)
{
	return _read(path, true, out, len, err);
}
