/*****************************************************************************\
 *  kill-on-rename.c - SIGKILL a process the moment a file is renamed into
 *  place in a directory (inotify IN_MOVED_TO), so that the kill lands
 *  right after that file was saved: tests/cluster/test-crash.sh kills
 *  slurmctld between Prism's usage snapshot and its state file (the kill
 *  follows within microseconds; the next file write takes milliseconds of
 *  fsync).
 *
 *  Usage: kill-on-rename DIR NAME PID TIMEOUT_SECONDS
 *  Prints "killed" and exits 0 once PID was sent SIGKILL; exits 1 on a
 *  timeout (nothing killed) or an error.
 *  Built by tests/cluster/test-crash.sh with: cc -o X kill-on-rename.c
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[sizeof(struct inotify_event) + NAME_MAX + 1]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	time_t deadline;
	pid_t pid;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DIR NAME PID TIMEOUT\n", argv[0]);
		return 2;
	}
	pid = (pid_t) strtol(argv[3], NULL, 10);
	deadline = time(NULL) + strtol(argv[4], NULL, 10);
	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0 || inotify_add_watch(fd, argv[1], IN_MOVED_TO) < 0) {
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
		for (char *e = buf; e < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *) e;

			if (ev->len && !strcmp(ev->name, argv[2])) {
				if (kill(pid, SIGKILL)) {
					perror("kill");
					return 1;
				}
				puts("killed");
				return 0;
			}
			e += sizeof(*ev) + ev->len;
		}
	}
	return 1;
}
