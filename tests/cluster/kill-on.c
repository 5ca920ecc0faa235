/*****************************************************************************\
 *  kill-on.c - SIGKILL a process the moment something shows on disk, so
 *  that tests/cluster/test-crash.sh can aim its kills:
 *
 *    kill-on rename DIR NAME PID TIMEOUT
 *        when NAME is renamed into place in DIR (inotify IN_MOVED_TO):
 *        right after that file was saved (Prism's usage snapshot, before
 *        its state file: the next write takes milliseconds of fsync);
 *    kill-on log FILE TEXT PID TIMEOUT
 *        when a line holding TEXT is appended to FILE (inotify IN_MODIFY,
 *        reading only what was appended since the start): inside the
 *        step of a pass that logs it.
 *
 *  Prints "killed" and exits 0 once PID was sent SIGKILL; exits 1 on a
 *  timeout (nothing killed) or an error, 2 on a usage error.
 *  Built by tests/cluster/test-crash.sh with: cc -o X kill-on.c
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

/* What is watched, and how far a log has been read. */
typedef struct {
	bool log;		/* log mode, else rename mode */
	const char *name;	/* NAME (rename) or TEXT (log) */
	int fd;			/* the log, read from where it ended */
	char tail[4096];	/* the last, unfinished line of the log */
	size_t tail_len;
} watch_t;

/* Has a complete line holding w->name been appended since last time? */
static bool _log_matches(watch_t *w)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (w->tail_len < sizeof(w->tail) - 1)
					w->tail[w->tail_len++] = buf[i];
				continue;
			}
			w->tail[w->tail_len] = '\0';
			w->tail_len = 0;
			if (strstr(w->tail, w->name))
				return true;
		}
	}
	return false;
}

/* Do the events in 'buf' (n bytes) say the awaited thing happened? */
static bool _happened(watch_t *w, const char *buf, ssize_t n)
{
	if (w->log)
		return _log_matches(w);
	for (const char *e = buf; e < buf + n;) {
		const struct inotify_event *ev =
			(const struct inotify_event *) e;

		if (ev->len && !strcmp(ev->name, w->name))
			return true;
		e += sizeof(*ev) + ev->len;
	}
	return false;
}

int main(int argc, char **argv)
{
	char buf[sizeof(struct inotify_event) + NAME_MAX + 1]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	watch_t w = { .fd = -1 };
	time_t deadline;
	pid_t pid;
	int fd;

	if (argc != 6 ||
	    (strcmp(argv[1], "rename") && strcmp(argv[1], "log"))) {
		fprintf(stderr, "usage: %s rename DIR NAME PID TIMEOUT\n"
				"       %s log FILE TEXT PID TIMEOUT\n",
			argv[0], argv[0]);
		return 2;
	}
	w.log = !strcmp(argv[1], "log");
	w.name = argv[3];
	pid = (pid_t) strtol(argv[4], NULL, 10);
	deadline = time(NULL) + strtol(argv[5], NULL, 10);
	if (w.log) {
		/* only what is appended from now on counts */
		if ((w.fd = open(argv[2], O_RDONLY | O_CLOEXEC)) < 0 ||
		    lseek(w.fd, 0, SEEK_END) < 0) {
			perror(argv[2]);
			return 1;
		}
	}
	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0 || inotify_add_watch(fd, argv[2], w.log ? IN_MODIFY :
							      IN_MOVED_TO) < 0) {
		perror("inotify");
		return 1;
	}
	while (time(NULL) < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("read");
			return 1;
		}
		if (!_happened(&w, buf, n))
			continue;
		if (kill(pid, SIGKILL)) {
			perror("kill");
			return 1;
		}
		puts("killed");
		return 0;
	}
	return 1;
}
