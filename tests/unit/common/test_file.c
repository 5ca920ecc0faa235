/*****************************************************************************\
 *  test_file.c - unit tests of prism_file (reading a policy file) and
 *  prism_idmap (the id caches).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prism_file.h"
#include "prism_idmap.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static char dir[] = "/tmp/prism-test-file-XXXXXX";

static void _setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void _teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_file: could not remove %s\n", dir);
	strcpy(dir, "/tmp/prism-test-file-XXXXXX");
}

/* Write 'text' to DIR/name; returns the path (static buffer). */
static const char *_make(const char *name, const char *text, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

START_TEST(test_read_good)
{
	const char *path = _make("moab.cfg", "# only a comment\n", 17);
	char *buf = NULL;
	size_t len = 0;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_file_read(path, &buf, &len, &err), "%s",
		      err.text);
	ck_assert_uint_eq(len, 17);
	ck_assert_str_eq(buf, "# only a comment\n");
	free(buf);
}
END_TEST

/* Each row: how to make the bad file, and what the message must say. */
enum { MISSING, EMPTY, DIRECTORY, FIFO, BAD_PATH };
static const struct {
	int kind;
	const char *want;
} bad[] = {
	{ MISSING, "cannot open: No such file or directory" },
	{ EMPTY, "file is empty" },
	{ DIRECTORY, "is a directory, not a file" },
	{ FIFO, "not a regular file" },
	{ BAD_PATH, "cannot open: Not a directory" },
};

START_TEST(test_read_bad)
{
	char path[256], *buf = (char *) 0x1;
	size_t len = 7;
	prism_error_t err = { "" };

	snprintf(path, sizeof(path), "%s/x", dir);
	switch (bad[_i].kind) {
	case EMPTY:
		_make("x", "", 0);
		break;
	case DIRECTORY:
		ck_assert_int_eq(mkdir(path, 0755), 0);
		break;
	case FIFO:
		ck_assert_int_eq(mkfifo(path, 0644), 0);
		break;
	case BAD_PATH:
		_make("x", "a", 1);
		snprintf(path, sizeof(path), "%s/x/y", dir);
		break;
	}
	ck_assert_int_eq(prism_file_read(path, &buf, &len, &err), -1);
	ck_assert_msg(strstr(err.text, bad[_i].want), "'%s'", err.text);
	ck_assert_msg(!strncmp(err.text, path, strlen(path)),
		      "message does not name the file: '%s'", err.text);
	ck_assert_ptr_eq(buf, (char *) 0x1);
	ck_assert_uint_eq(len, 7);
}
END_TEST

/* A file its reader may not open. Root may open anything, so as root the
 * check runs in a child that has become nobody. */
START_TEST(test_read_unreadable)
{
	const char *path = _make("secret.cfg", "FSWEIGHT 1\n", 11);
	pid_t pid;
	int status;

	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prism_error_t err = { "" };
		char *buf = NULL;
		size_t len;

		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		if (prism_file_read(path, &buf, &len, &err) != -1)
			_exit(3);
		_exit(strstr(err.text, "cannot open: Permission denied") ? 0 :
									   4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child status %d", status);
}
END_TEST

START_TEST(test_read_bad_param)
{
	char *buf;
	size_t len;
	prism_error_t err = { "" };

	ck_assert_int_eq(prism_file_read(NULL, &buf, &len, &err), -1);
	ck_assert_int_eq(prism_file_read("", &buf, &len, &err), -1);
	ck_assert_int_eq(prism_file_read("/etc/hostname", NULL, &len, &err),
			 -1);
	ck_assert(strstr(err.text, "bad parameter"));
}
END_TEST

START_TEST(test_idmap)
{
	prism_idmap_t *m = prism_idmap_create();
	uint32_t v;

	ck_assert_ptr_nonnull(m);
	ck_assert(!prism_idmap_get(m, 0, &v));
	/* enough consecutive ids to grow the table several times */
	for (uint32_t id = 0; id < 5000; id++)
		ck_assert_int_eq(prism_idmap_put(m, id * 3, id + 7), 0);
	ck_assert_uint_eq(prism_idmap_count(m), 5000);
	for (uint32_t id = 0; id < 5000; id++) {
		ck_assert(prism_idmap_get(m, id * 3, &v));
		ck_assert_uint_eq(v, id + 7);
		ck_assert(!prism_idmap_get(m, id * 3 + 1, &v));
	}
	/* a second put replaces; UINT32_MAX is a key like any other */
	ck_assert_int_eq(prism_idmap_put(m, 3, 99), 0);
	ck_assert_int_eq(prism_idmap_put(m, UINT32_MAX, UINT32_MAX), 0);
	ck_assert(prism_idmap_get(m, 3, &v) && v == 99);
	ck_assert(prism_idmap_get(m, UINT32_MAX, &v) && v == UINT32_MAX);
	ck_assert_uint_eq(prism_idmap_count(m), 5001);
	prism_idmap_clear(m);
	ck_assert_uint_eq(prism_idmap_count(m), 0);
	ck_assert(!prism_idmap_get(m, 3, &v));
	prism_idmap_free(m);
	/* bad parameters */
	prism_idmap_free(NULL);
	prism_idmap_clear(NULL);
	ck_assert(!prism_idmap_get(NULL, 1, &v));
	ck_assert_int_eq(prism_idmap_put(NULL, 1, 1), -1);
	ck_assert_uint_eq(prism_idmap_count(NULL), 0);
}
END_TEST

extern Suite *file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *file = tcase_create("read");
	TCase *idmap = tcase_create("idmap");

	tcase_add_checked_fixture(file, _setup, _teardown);
	tcase_add_test(file, test_read_good);
	tcase_add_loop_test(file, test_read_bad, 0, N(bad));
	tcase_add_test(file, test_read_unreadable);
	tcase_add_test(file, test_read_bad_param);
	suite_add_tcase(s, file);
	tcase_add_test(idmap, test_idmap);
	suite_add_tcase(s, idmap);
	return s;
}
