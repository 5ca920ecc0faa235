/*****************************************************************************\
 *  cli_metrics_cmd.c - the `prism metrics` subcommand: loads the
 *  controller's records (cli_records_load()) and the plugin's pass
 *  figures, and has cli_metrics.c write the exposition: once on stdout,
 *  or with --listen ADDR:PORT at every GET /metrics over HTTP
 *  (libmicrohttpd), where a scrape that cannot be made is a 503 whose
 *  body is the reason.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef PRISM_HAVE_MHD
#include <microhttpd.h>
#endif

#include "cli_check.h"
#include "cli_explain.h"
#include "cli_metrics.h"
#include "cli_policy.h"
#include "prism_cli.h"
#include "prism_file.h"

#ifndef PRISM_VERSION
#define PRISM_VERSION "unknown"
#endif

/* ---- the subcommand ---------------------------------------------------- */

/* --users WORD into *out; false when WORD is none of them. */
static bool _users_opt(const char *word, cli_metrics_users_t *out)
{
	if (!strcmp(word, "all"))
		*out = CLI_METRICS_USERS_ALL;
	else if (!strcmp(word, "pending"))
		*out = CLI_METRICS_USERS_PENDING;
	else if (!strcmp(word, "none"))
		*out = CLI_METRICS_USERS_NONE;
	else
		return false;
	return true;
}

/*
 * The Grid Engine share-tree usage the plugin saved in 'dir', or NULL
 * after a note on stderr (the series are left out, the rest is written).
 */
static prism_ge_usage_t *_ge_usage(const char *dir)
{
	prism_ge_usage_t *u = NULL;
	prism_error_t err = { "" };
	char path[4096], *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".",
		 CLI_GE_USAGE_NAME);
	if (prism_file_read(path, &buf, &len, &err) ||
	    prism_ge_usage_parse(buf, len, &u, &err)) {
		fprintf(stderr, "prism: note: %s: %s; no share-tree usage series\n",
			path, err.text);
		u = NULL;
	}
	free(buf);
	return u;
}

/*
 * The Moab policy in force (the copy the plugin keeps, else the file as it
 * is now) into *pol and the fair-share usage the plugin saved into *u;
 * both NULL after a note on stderr, or when the policy has no FSPOLICY.
 */
static void _moab_usage(const cli_records_t *r, const char *path,
			prism_moab_policy_t **pol, prism_moab_usage_t **u)
{
	prism_error_t err = { "" };
	char file[4096], *buf = NULL;
	size_t len = 0;

	*pol = NULL;
	*u = NULL;
	if (r->policy_text ?
		    prism_moab_conf_parse(r->policy_text, r->policy_len, path,
					  pol, &err) != 0 :
		    !(*pol = cli_moab_read(path, &err))) {
		fprintf(stderr, "prism: note: the Moab policy: %s; no Moab usage series\n",
			err.text);
		*pol = NULL;
		return;
	}
	if (prism_moab_policy_params(*pol)->fs_policy == PRISM_MOAB_FS_OFF)
		return;
	snprintf(file, sizeof(file), "%s/%s",
		 r->conf->state_save_location ? r->conf->state_save_location :
						".",
		 CLI_MOAB_USAGE_NAME);
	if (prism_file_read(file, &buf, &len, &err) ||
	    prism_moab_usage_parse(buf, len, *pol, u, &err)) {
		fprintf(stderr, "prism: note: %s: %s; no Moab usage series\n",
			file, err.text);
		*u = NULL;
	}
	free(buf);
}

/*
 * One scrape: load the records and the pass figures, write the
 * exposition to 'out'. Returns CLI_OK, or CLI_ERROR after one line on
 * stderr saying why (nothing is written to 'out' then).
 */
static int _scrape(cli_metrics_users_t users, FILE *out)
{
	cli_records_t r = { .conf = NULL };
	const cli_policy_t *entry = NULL;
	prism_passinfo_t pass;
	prism_error_t err = { "" };
	prism_ge_usage_t *ge = NULL;
	prism_moab_policy_t *moab = NULL;
	prism_moab_usage_t *moab_usage = NULL;
	cli_metrics_in_t in = { .r = &r, .pass = &pass,
				.version = PRISM_VERSION, .users = users };
	char path[PRISM_PARAMS_MAX + 64];
	char *text = NULL;
	size_t len = 0;
	FILE *buf = NULL;
	int rc;

	rc = cli_records_load(&r, true, &entry, path, sizeof(path));
	if (rc)
		goto out;
	in.policy = entry->kind;
	if (cli_metrics_pass_read(r.conf->state_save_location, &pass, &err)) {
		fprintf(stderr, "prism: no pass figures from the plugin: %s\n",
			err.text);
		rc = CLI_ERROR;
		goto out;
	}
	if (!r.assocs)
		fprintf(stderr, "prism: note: %s; no association series\n",
			r.assoc_err);
	if (in.policy == PRISM_POLICY_GRIDENGINE)
		in.ge_usage = ge = _ge_usage(r.conf->state_save_location);
	if (in.policy == PRISM_POLICY_MOAB) {
		_moab_usage(&r, path, &moab, &moab_usage);
		in.moab = moab;
		in.moab_usage = moab_usage;
	}
	/* whole or nothing: written to memory first */
	buf = open_memstream(&text, &len);
	if (!buf) {
		fprintf(stderr, "prism: out of memory\n");
		rc = CLI_ERROR;
		goto out;
	}
	rc = cli_metrics_write(&in, buf, &err);
	if (fclose(buf) && !rc) {
		prism_error_set(&err, "out of memory");
		rc = CLI_ERROR;
	}
	if (rc)
		fprintf(stderr, "prism: %s\n", err.text);
	else
		fwrite(text, 1, len, out);
out:
	free(text);
	prism_ge_usage_free(ge);
	prism_moab_usage_free(moab_usage);
	prism_moab_policy_free(moab);
	cli_records_free(&r);
	return rc;
}

/* ---- --listen ----------------------------------------------------------- */

/*
 * Parse "ADDR:PORT" (IPv4, or IPv6 in brackets: "[::1]:9100"; numeric
 * only, no wildcard default) into 'sa'. Returns 0, or -1 with 'err' set.
 */
static int _listen_addr(const char *text, struct sockaddr_storage *sa,
			socklen_t *sa_len, prism_error_t *err)
{
	char host[64];
	const char *colon, *port_s;
	char *end;
	long port;

	memset(sa, 0, sizeof(*sa));
	if (text[0] == '[') {
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':' ||
		    (size_t) (close - text - 1) >= sizeof(host))
			goto bad;
		snprintf(host, sizeof(host), "%.*s", (int) (close - text - 1),
			 text + 1);
		port_s = close + 2;
	} else {
		colon = strrchr(text, ':');
		if (!colon || (size_t) (colon - text) >= sizeof(host) ||
		    colon == text)
			goto bad;
		snprintf(host, sizeof(host), "%.*s", (int) (colon - text),
			 text);
		port_s = colon + 1;
	}
	errno = 0;
	port = strtol(port_s, &end, 10);
	if (!*port_s || *end || errno || port < 1 || port > 65535)
		goto bad;
	if (text[0] == '[') {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *) sa;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t) port);
		if (inet_pton(AF_INET6, host, &s6->sin6_addr) != 1)
			goto bad;
		*sa_len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *) sa;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t) port);
		if (inet_pton(AF_INET, host, &s4->sin_addr) != 1)
			goto bad;
		*sa_len = sizeof(*s4);
	}
	return 0;
bad:
	prism_error_set(err, "--listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not '%s'",
			text);
	return -1;
}

#ifdef PRISM_HAVE_MHD
/* What the HTTP handler needs. */
typedef struct {
	cli_metrics_users_t users;
} _serve_t;

/*
 * Held while stderr points at a scrape's buffer, and by the main thread
 * while it writes to stderr: a line printed by the main thread during a
 * scrape would go to the buffer, and the buffer could be closed under it
 * (the first scrape can come as the server announces itself).
 */
static pthread_mutex_t _stderr_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A scrape for HTTP: the text into *body (malloc()ed) and CLI_OK, or
 * CLI_ERROR with the reason (what the stdout form prints on stderr) in
 * *body. stderr is pointed at a buffer for the scrape (under
 * _stderr_lock): the loaders say why on it, and the daemon serves one
 * request at a time.
 */
static int _scrape_http(const _serve_t *s, char **body, size_t *len)
{
	char *text = NULL, *why = NULL;
	size_t tlen = 0, wlen = 0;
	FILE *out = open_memstream(&text, &tlen);
	FILE *errs = open_memstream(&why, &wlen);
	FILE *saved = stderr;
	int rc = CLI_ERROR;

	pthread_mutex_lock(&_stderr_lock);
	if (out && errs) {
		stderr = errs;
		rc = _scrape(s->users, out);
		stderr = saved;
	}
	if (out)
		fclose(out);
	if (errs)
		fclose(errs);
	/* the reason goes to the server's own stderr as well */
	if (why && wlen)
		fputs(why, stderr);
	pthread_mutex_unlock(&_stderr_lock);
	if (rc == CLI_OK && text) {
		free(why);
		*body = text;
		*len = tlen;
		return CLI_OK;
	}
	free(text);
	if (!why || !wlen) {
		free(why);
		why = strdup("prism: out of memory\n");
		wlen = why ? strlen(why) : 0;
	}
	*body = why;
	*len = wlen;
	return CLI_ERROR;
}

static enum MHD_Result _reply(struct MHD_Connection *conn, unsigned status,
			      char *body, size_t len, const char *type)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
		len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (!resp) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result _request(void *cls, struct MHD_Connection *conn,
				const char *url, const char *method,
				const char *version, const char *upload,
				size_t *upload_len, void **req_cls)
{
	static const char text_type[] = "text/plain; charset=utf-8";
	const _serve_t *s = cls;
	char *body;
	size_t len;

	(void) version;
	(void) upload;
	(void) upload_len;
	if (!*req_cls) {	/* the headers: answer on the next call */
		*req_cls = (void *) 1;
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		body = strdup("only GET /metrics\n");
		return _reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, body,
			      body ? strlen(body) : 0, text_type);
	}
	if (strcmp(url, "/metrics")) {
		body = strdup("not found: the metrics are at /metrics\n");
		return _reply(conn, MHD_HTTP_NOT_FOUND, body,
			      body ? strlen(body) : 0, text_type);
	}
	if (_scrape_http(s, &body, &len) != CLI_OK)
		return _reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, body, len,
			      text_type);
	return _reply(conn, MHD_HTTP_OK, body, len,
		      "text/plain; version=0.0.4; charset=utf-8");
}

/*
 * Serve GET /metrics on 'addr' until SIGINT or SIGTERM. Returns CLI_OK
 * then, or CLI_ERROR after one line when 'addr' cannot be bound.
 */
static int _serve(const char *addr, cli_metrics_users_t users)
{
	struct sockaddr_storage sa;
	socklen_t sa_len = 0;
	prism_error_t err = { "" };
	_serve_t s = { .users = users };
	struct MHD_Daemon *d;
	sigset_t sigs;
	int fd, one = 1, sig = 0;

	if (_listen_addr(addr, &sa, &sa_len, &err))
		return cli_usage_error("metrics: %s", err.text);
	fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *) &sa, sa_len) || listen(fd, 16)) {
		fprintf(stderr, "prism: cannot listen on %s: %s\n", addr,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return CLI_ERROR;
	}
	/* the signals are waited for below, not delivered to a thread */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	/* Slurm's API opened at the first scrape, closed at the end */
	cli_slurm_keep();
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
				     MHD_USE_ERROR_LOG,
			     0, NULL, NULL, _request, &s,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     MHD_OPTION_CONNECTION_TIMEOUT, 60u,
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "prism: cannot serve on %s: libmicrohttpd did not start\n",
			addr);
		close(fd);
		return CLI_ERROR;
	}
	pthread_mutex_lock(&_stderr_lock);
	fprintf(stderr, "prism: serving the metrics at http://%s/metrics\n",
		addr);
	pthread_mutex_unlock(&_stderr_lock);
	while (sigwait(&sigs, &sig))
		;
	MHD_stop_daemon(d);
	close(fd);
	cli_slurm_keep_end();
	return CLI_OK;
}
#else
static int _serve(const char *addr, cli_metrics_users_t users)
{
	struct sockaddr_storage sa;
	socklen_t sa_len = 0;
	prism_error_t err = { "" };

	(void) users;
	if (_listen_addr(addr, &sa, &sa_len, &err))
		return cli_usage_error("metrics: %s", err.text);
	fprintf(stderr, "prism: --listen: this prism was built without libmicrohttpd (configure found no libmicrohttpd-dev)\n");
	return CLI_ERROR;
}
#endif

extern int cli_metrics(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "users", required_argument, NULL, 'u' },
		{ "listen", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	cli_metrics_users_t users = CLI_METRICS_USERS_ALL;
	const char *listen_at = NULL;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'u' && _users_opt(optarg, &users))
			continue;
		if (c == 'u')
			return cli_usage_error("metrics: --users takes all, pending or none, not '%s'",
					       optarg);
		if (c == 'L') {
			listen_at = optarg;
			continue;
		}
		if (c == '?' && (optopt == 'u' || optopt == 'L'))
			return cli_usage_error("metrics: %s needs a value",
					       optopt == 'u' ? "--users" :
							       "--listen");
		return cli_usage_error("metrics: unknown option '%s'",
				       argv[optind - 1]);
	}
	if (optind < argc)
		return cli_usage_error("metrics: unexpected argument '%s'",
				       argv[optind]);
	if (listen_at)
		return _serve(listen_at, users);
	return _scrape(users, stdout);
}
