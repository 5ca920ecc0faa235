/*****************************************************************************\
 *  ctld-latency.c - the client side of tests/bench/ctld-latency.sh: what
 *  a busy controller's users feel, measured against a real slurmctld.
 *
 *  ctld-latency submit COUNT THREADS UID0 USERS GID WORKDIR
 *	Submit COUNT small batch jobs (slurm_submit_batch_job, the RPC
 *	sbatch uses) from THREADS threads, each job as one of the USERS
 *	uids UID0+1.. (spread evenly; root may submit for any user), to
 *	partition low or high, 1-8 CPUs, QOS normal, high or low. Prints
 *	"submitted N, failed M"; exit 1 if any failed for good.
 *
 *  ctld-latency measure KIND STATEDIR PASSES RATE LIST_EVERY OWN_RATE
 *		UID0 USERS GID WORKDIR CALLS PASSFILE
 *	Until PASSES passes of priority plugin KIND (prism or multifactor)
 *	have ended (seen in STATEDIR), client threads call the controller
 *	at a steady pace: submit one job (RATE a second), read one job
 *	(slurm_load_job, as `scontrol show job`; RATE a second), list the
 *	whole queue (slurm_load_jobs, the RPC squeue uses; one call every
 *	LIST_EVERY seconds; 0: none) and list one user's jobs
 *	(slurm_load_job_user, the RPC of `squeue --me`, a user picked at
 *	random; OWN_RATE a second; 0: none). A call that ends late moves
 *	the next one to when it ended (no burst to catch up). Each call is
 *	one line of CALLS: "TYPE START LATENCY_MS RC" (START: wall clock
 *	at its start, epoch seconds; latency from CLOCK_MONOTONIC). Each
 *	pass is one line of PASSFILE: "START END HOLD_USEC" (epoch
 *	seconds; HOLD_USEC the pass's longest job lock hold, -1 unknown):
 *	  prism        StateSaveLocation/priority_prism_pass is replaced at
 *	               the end of every pass: END its mtime, START END less
 *	               its duration_usec, HOLD_USEC its lock_hold_max_usec
 *	  multifactor  priority_last_decay_ran is replaced at the end of
 *	               every pass: END its mtime, START the time it holds
 *	               (the pass's start_time, whole seconds: the window may
 *	               start up to 1 s early); it holds the job write
 *	               lock for the whole pass: HOLD_USEC -1
 *
 *  ctld-latency report LABEL CALLS PASSFILE [LABEL CALLS PASSFILE]
 *	Markdown table per plugin and call type: count, median, p99, max;
 *	p99 and max of the calls that overlapped a pass, of those among
 *	them that started inside the pass window, and of the others; with
 *	two plugins, the ratios second/first of the during-pass p99 and
 *	max. (A call that was already waiting when a pass began, for a lock
 *	some other thread held, overlaps the pass; and a pass that waits
 *	for the same lock stretches its window over that wait: "started
 *	inside" leaves such calls out.)
 *
 *  Built by ctld-latency.sh: cc -O2 -o X ctld-latency.c -lslurm -lpthread
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

static char *job_env[] = { "PATH=/usr/bin:/bin", NULL };
static char *qos_names[] = { "normal", "high", "low" };

static long parse_long(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "ctld-latency: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static double parse_double(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0)) {
		fprintf(stderr, "ctld-latency: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static double ts_sec(const struct timespec *ts)
{
	return ts->tv_sec + ts->tv_nsec / 1e9;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_sec(&ts);
}

static double now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts_sec(&ts);
}

static void sleep_until_mono(double t)
{
	struct timespec ts = { .tv_sec = (time_t) t };

	ts.tv_nsec = (long) ((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* ------------------------------------------------------------ submit */

typedef struct {
	long uid0, users, gid;
	const char *workdir;
} who_t;

/* parse_who(argv) -- UID0 USERS GID WORKDIR, as both subcommands take them */
static who_t parse_who(char **argv)
{
	who_t who;

	who.uid0 = parse_long(argv[0], "UID0");
	who.users = parse_long(argv[1], "USERS");
	who.gid = parse_long(argv[2], "GID");
	who.workdir = argv[3];
	return who;
}

/* Fill 'desc' with job number 'i' of the benchmark's mix. */
static void job_desc(job_desc_msg_t *desc, const who_t *who, long i)
{
	slurm_init_job_desc_msg(desc);
	desc->name = "bench";
	desc->partition = (i % 3) ? "low" : "high";
	desc->qos = qos_names[(i / 7) % 3];
	desc->work_dir = (char *) who->workdir;
	desc->std_out = "/dev/null";
	desc->script = "#!/bin/sh\nsleep 1\n";
	desc->environment = job_env;
	desc->env_size = 1;
	desc->min_cpus = 1 + (i % 8);
	desc->min_nodes = 1;
	desc->time_limit = 10 + (i % 50);
	desc->user_id = who->uid0 + 1 + (i * 7919) % who->users;
	desc->group_id = who->gid;
}

/* Submit job 'i'; returns 0 or the Slurm error. */
static int submit_one(const who_t *who, long i, uint32_t *job_id)
{
	job_desc_msg_t desc;
	submit_response_msg_t *resp = NULL;

	job_desc(&desc, who, i);
	if (slurm_submit_batch_job(&desc, &resp))
		return slurm_get_errno() ? slurm_get_errno() : -1;
	if (job_id)
		*job_id = resp->job_id;
	slurm_free_submit_response_response_msg(resp);
	return 0;
}

typedef struct {
	const who_t *who;
	long from, count, step;
	long ok, failed;
	int first_err;
} submitter_t;

static void *submitter(void *arg)
{
	submitter_t *s = arg;

	for (long k = 0; k < s->count; k++) {
		long i = s->from + k * s->step;
		int rc = 0;

		/* a busy controller may refuse for a while: try again */
		for (int tries = 0; tries < 10; tries++) {
			rc = submit_one(s->who, i, NULL);
			if (!rc)
				break;
			sleep(1);
		}
		if (rc) {
			if (!s->failed)
				s->first_err = rc;
			s->failed++;
		} else {
			s->ok++;
		}
		if (s->from == 0 && k % 5000 == 0 && k)
			fprintf(stderr, "  submitter 0: %ld jobs\n", k);
	}
	return NULL;
}

static int cmd_submit(int argc, char **argv)
{
	long count, threads, ok = 0, failed = 0;
	who_t who;
	submitter_t *s;
	pthread_t *tid;

	if (argc != 8) {
		fprintf(stderr, "usage: %s submit COUNT THREADS UID0 USERS GID WORKDIR\n",
			argv[0]);
		return 2;
	}
	count = parse_long(argv[2], "COUNT");
	threads = parse_long(argv[3], "THREADS");
	who = parse_who(argv + 4);
	if (!threads || !who.users) {
		fprintf(stderr, "ctld-latency: THREADS and USERS must be > 0\n");
		return 2;
	}
	s = calloc(threads, sizeof(*s));
	tid = calloc(threads, sizeof(*tid));
	if (!s || !tid)
		return 1;
	for (long t = 0; t < threads; t++) {
		s[t].who = &who;
		s[t].from = t;
		s[t].step = threads;
		s[t].count = (count - t + threads - 1) / threads;
		if (pthread_create(&tid[t], NULL, submitter, &s[t])) {
			fprintf(stderr, "ctld-latency: pthread_create failed\n");
			return 1;
		}
	}
	for (long t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		ok += s[t].ok;
		failed += s[t].failed;
		if (s[t].failed)
			fprintf(stderr, "ctld-latency: thread %ld: %ld failed, first: %s\n",
				t, s[t].failed, slurm_strerror(s[t].first_err));
	}
	printf("submitted %ld, failed %ld\n", ok, failed);
	free(s);
	free(tid);
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------ measure */

enum { T_SUBMIT, T_LIST, T_READ, T_OWN, T_N };
static const char *type_name[T_N] = { "submit", "list", "read-one",
				      "list-own" };

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *calls_out;
static volatile bool stop_clients;
static uint32_t job_lo, job_hi;	/* job ids read-one picks from */
static who_t mwho;

static void record(int type, double start_wall, double lat, int rc)
{
	pthread_mutex_lock(&out_lock);
	fprintf(calls_out, "%s %.6f %.3f %d\n", type_name[type], start_wall,
		lat * 1e3, rc);
	pthread_mutex_unlock(&out_lock);
}

/* One call of 'type'; returns 0 or the Slurm error. */
static int call_once(int type, unsigned *seed, long *serial)
{
	job_info_msg_t *msg = NULL;
	uint32_t id;
	int rc = 0;

	switch (type) {
	case T_SUBMIT:
		/* job numbers far from the queue builder's */
		rc = submit_one(&mwho, 100000000 + (*serial)++, NULL);
		break;
	case T_LIST:
		if (slurm_load_jobs(0, &msg, SHOW_ALL))
			rc = slurm_get_errno() ? slurm_get_errno() : -1;
		break;
	case T_READ:
		id = job_lo + rand_r(seed) % (job_hi - job_lo + 1);
		if (slurm_load_job(&msg, id, SHOW_ALL))
			rc = slurm_get_errno() ? slurm_get_errno() : -1;
		break;
	case T_OWN:
		id = mwho.uid0 + 1 + rand_r(seed) % mwho.users;
		if (slurm_load_job_user(&msg, id, SHOW_ALL))
			rc = slurm_get_errno() ? slurm_get_errno() : -1;
		break;
	}
	if (msg)
		slurm_free_job_info_msg(msg);
	return rc;
}

typedef struct {
	int type;
	double period;
} client_t;

static void *client(void *arg)
{
	client_t *c = arg;
	unsigned seed = 12345 + c->type;
	long serial = c->type * 10000000L;
	double next = now_mono();

	while (!stop_clients) {
		double w, t0, lat;
		int rc;

		sleep_until_mono(next);
		if (stop_clients)
			break;
		w = now_wall();
		t0 = now_mono();
		rc = call_once(c->type, &seed, &serial);
		lat = now_mono() - t0;
		record(c->type, w, lat, rc);
		next += c->period;
		if (next < t0 + lat)
			next = t0 + lat;
	}
	return NULL;
}

/* The pass window the file 'path' (just replaced) describes. */
static bool pass_window(const char *kind, const char *path,
			const struct stat *st, double *start, double *end,
			long long *hold)
{
	FILE *f = fopen(path, "r");
	bool ok = false;

	*end = ts_sec(&st->st_mtim);
	*hold = -1;
	if (!f)
		return false;
	if (!strcmp(kind, "prism")) {
		char line[256];
		long long dur;

		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "duration_usec %lld", &dur) == 1) {
				*start = *end - dur / 1e6;
				ok = true;
			}
			(void) sscanf(line, "lock_hold_max_usec %lld", hold);
		}
	} else {
		unsigned char b[8];

		if (fread(b, 1, 8, f) == 8) {
			uint64_t t = 0;

			for (int i = 0; i < 8; i++)
				t = (t << 8) | b[i];
			*start = (double) t;
			ok = true;
		}
	}
	fclose(f);
	return ok;
}

static int find_job_range(void)
{
	job_info_msg_t *msg = NULL;

	if (slurm_load_jobs(0, &msg, SHOW_ALL)) {
		slurm_perror("slurm_load_jobs");
		return -1;
	}
	job_lo = UINT32_MAX;
	job_hi = 0;
	for (uint32_t i = 0; i < msg->record_count; i++) {
		job_info_t *j = &msg->job_array[i];

		if (j->job_state != JOB_PENDING)
			continue;
		if (j->job_id < job_lo)
			job_lo = j->job_id;
		if (j->job_id > job_hi)
			job_hi = j->job_id;
	}
	fprintf(stderr, "  %u jobs in the queue, pending ids %u-%u\n",
		msg->record_count, job_lo, job_hi);
	slurm_free_job_info_msg(msg);
	return job_hi >= job_lo ? 0 : -1;
}

static int cmd_measure(int argc, char **argv)
{
	const char *kind, *statedir;
	char path[4096];
	long passes, seen = 0;
	double rate, list_every, own_rate, limit, t_start;
	struct timespec last = { 0, 0 };
	struct stat st;
	client_t c[T_N];
	pthread_t tid[T_N];
	bool started[T_N] = { false };
	FILE *pass_out;

	if (argc != 14) {
		fprintf(stderr, "usage: %s measure KIND STATEDIR PASSES RATE LIST_EVERY OWN_RATE UID0 USERS GID WORKDIR CALLS PASSFILE\n",
			argv[0]);
		return 2;
	}
	kind = argv[2];
	statedir = argv[3];
	passes = parse_long(argv[4], "PASSES");
	rate = parse_double(argv[5], "RATE");
	list_every = strcmp(argv[6], "0") ?
			     parse_double(argv[6], "LIST_EVERY") : 0;
	own_rate = strcmp(argv[7], "0") ? parse_double(argv[7], "OWN_RATE") :
					  0;
	mwho = parse_who(argv + 8);
	if (!mwho.users) {
		fprintf(stderr, "ctld-latency: USERS must be > 0\n");
		return 2;
	}
	if (strcmp(kind, "prism") && strcmp(kind, "multifactor")) {
		fprintf(stderr, "ctld-latency: KIND must be prism or multifactor\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/%s", statedir,
		 strcmp(kind, "prism") ? "priority_last_decay_ran" :
					 "priority_prism_pass");
	calls_out = fopen(argv[12], "w");
	pass_out = fopen(argv[13], "w");
	if (!calls_out || !pass_out) {
		perror("ctld-latency: cannot open output");
		return 1;
	}
	if (find_job_range())
		return 1;
	if (!stat(path, &st))
		last = st.st_mtim;

	c[T_SUBMIT] = (client_t) { T_SUBMIT, 1 / rate };
	c[T_READ] = (client_t) { T_READ, 1 / rate };
	c[T_LIST] = (client_t) { T_LIST, list_every };
	c[T_OWN] = (client_t) { T_OWN, own_rate ? 1 / own_rate : 0 };
	for (int t = 0; t < T_N; t++) {
		if (!c[t].period)	/* that kind of call is off */
			continue;
		if (pthread_create(&tid[t], NULL, client, &c[t])) {
			fprintf(stderr, "ctld-latency: pthread_create failed\n");
			return 1;
		}
		started[t] = true;
	}

	/*
	 * Watch the pass file every 20 ms; give up after 3 minutes a pass
	 * (the script sets PriorityCalcPeriod=1 minute)
	 */
	t_start = now_mono();
	limit = t_start + passes * 180 + 120;
	while (seen < passes && now_mono() < limit) {
		double s, e;
		long long hold;

		usleep(20000);
		if (stat(path, &st) || (st.st_mtim.tv_sec == last.tv_sec &&
					st.st_mtim.tv_nsec == last.tv_nsec))
			continue;
		last = st.st_mtim;
		if (!pass_window(kind, path, &st, &s, &e, &hold))
			continue;
		fprintf(pass_out, "%.6f %.6f %lld\n", s, e, hold);
		fflush(pass_out);
		seen++;
		if (hold >= 0)
			fprintf(stderr, "  pass %ld of %ld: %.3f s, longest job lock hold %.1f ms (%s)\n",
				seen, passes, e - s, hold / 1e3, kind);
		else
			fprintf(stderr, "  pass %ld of %ld: %.3f s (%s)\n",
				seen, passes, e - s, kind);
	}
	/* a few seconds after the last pass, to have calls after it */
	if (seen == passes)
		usleep(5 * 1000000);
	stop_clients = true;
	for (int t = 0; t < T_N; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	fclose(pass_out);
	fclose(calls_out);
	if (seen < passes) {
		fprintf(stderr, "ctld-latency: saw %ld of %ld passes in time\n",
			seen, passes);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ report */

typedef struct {
	double *v;
	size_t n, cap;
} vec_t;

static void vec_add(vec_t *a, double x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->v = realloc(a->v, a->cap * sizeof(*a->v));
		if (!a->v) {
			perror("realloc");
			exit(1);
		}
	}
	a->v[a->n++] = x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile 'p' (0-100) of sorted 'a'; NAN when empty. */
static double pct(const vec_t *a, double p)
{
	size_t k;

	if (!a->n)
		return NAN;
	k = (size_t) ceil(p / 100 * a->n);
	if (k < 1)
		k = 1;
	return a->v[k - 1];
}

typedef struct {
	vec_t all, during, started, between;
	long errors;
} stats_t;

typedef struct {
	const char *label;
	stats_t s[T_N];
	long passes;
	double pass_sec_max;
	long long hold_usec_max;	/* -1: not known */
} plugin_t;

static int load_plugin(plugin_t *p, const char *label, const char *calls,
		       const char *passfile)
{
	double (*win)[2] = NULL;
	size_t nwin = 0;
	char type[32];
	double start, lat, a, b;
	long long hold;
	char line[256];
	int rc;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->label = label;
	p->hold_usec_max = -1;
	if (!(f = fopen(passfile, "r"))) {
		perror(passfile);
		return -1;
	}
	/* (files of earlier runs have no HOLD_USEC) */
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%lf %lf %lld", &a, &b, &hold);

		if (n < 2)
			continue;
		if (n == 3 && hold > p->hold_usec_max)
			p->hold_usec_max = hold;
		win = realloc(win, (nwin + 1) * sizeof(*win));
		win[nwin][0] = a;
		win[nwin][1] = b;
		nwin++;
		if (b - a > p->pass_sec_max)
			p->pass_sec_max = b - a;
	}
	fclose(f);
	p->passes = nwin;
	if (!(f = fopen(calls, "r"))) {
		perror(calls);
		return -1;
	}
	while (fscanf(f, "%31s %lf %lf %d", type, &start, &lat, &rc) == 4) {
		int t;
		bool during = false, started = false;
		double end = start + lat / 1e3;
		stats_t *s;

		for (t = 0; t < T_N; t++)
			if (!strcmp(type, type_name[t]))
				break;
		if (t == T_N)
			continue;
		s = &p->s[t];
		if (rc)
			s->errors++;
		/* the call overlapped a pass window */
		for (size_t w = 0; w < nwin; w++)
			if (start <= win[w][1] && end >= win[w][0]) {
				during = true;
				if (start >= win[w][0])
					started = true;
			}
		vec_add(&s->all, lat);
		vec_add(during ? &s->during : &s->between, lat);
		if (started)
			vec_add(&s->started, lat);
	}
	fclose(f);
	free(win);
	for (int t = 0; t < T_N; t++) {
		qsort(p->s[t].all.v, p->s[t].all.n, sizeof(double), cmp_double);
		qsort(p->s[t].during.v, p->s[t].during.n, sizeof(double),
		      cmp_double);
		qsort(p->s[t].started.v, p->s[t].started.n, sizeof(double),
		      cmp_double);
		qsort(p->s[t].between.v, p->s[t].between.n, sizeof(double),
		      cmp_double);
	}
	return 0;
}

static void print_ms(double v)
{
	if (isnan(v))
		printf(" - |");
	else
		printf(" %.1f |", v);
}

/* "a/b", or "-" when a pass had no call of that type to compare */
static void print_ratio(double a, double b)
{
	if (isnan(a) || isnan(b) || b <= 0)
		printf(" - |");
	else
		printf(" %.3f |", a / b);
}

static int cmd_report(int argc, char **argv)
{
	plugin_t p[2];
	int np = (argc - 2) / 3;

	if ((argc - 2) % 3 || np < 1 || np > 2) {
		fprintf(stderr, "usage: %s report LABEL CALLS PASSFILE [LABEL CALLS PASSFILE]\n",
			argv[0]);
		return 2;
	}
	for (int i = 0; i < np; i++)
		if (load_plugin(&p[i], argv[2 + 3 * i], argv[3 + 3 * i],
				argv[4 + 3 * i]))
			return 1;
	printf("| plugin | call | count | errors | median ms | p99 ms | max ms | during passes: n | p99 ms | max ms | started inside a pass: n | p99 ms | max ms | between: n | p99 ms | max ms |\n");
	printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int i = 0; i < np; i++)
		for (int t = 0; t < T_N; t++) {
			stats_t *s = &p[i].s[t];

			if (!s->all.n)	/* that kind of call was off */
				continue;
			printf("| %s | %s | %zu | %ld |", p[i].label,
			       type_name[t], s->all.n, s->errors);
			print_ms(pct(&s->all, 50));
			print_ms(pct(&s->all, 99));
			print_ms(pct(&s->all, 100));
			printf(" %zu |", s->during.n);
			print_ms(pct(&s->during, 99));
			print_ms(pct(&s->during, 100));
			printf(" %zu |", s->started.n);
			print_ms(pct(&s->started, 99));
			print_ms(pct(&s->started, 100));
			printf(" %zu |", s->between.n);
			print_ms(pct(&s->between, 99));
			print_ms(pct(&s->between, 100));
			printf("\n");
		}
	printf("\n");
	for (int i = 0; i < np; i++) {
		printf("%s: %ld passes measured, longest %.3f s (pass window as seen in StateSaveLocation)",
		       p[i].label, p[i].passes, p[i].pass_sec_max);
		if (p[i].hold_usec_max >= 0)
			printf("; its longest job lock hold in them %.1f ms",
			       p[i].hold_usec_max / 1e3);
		printf("\n");
	}
	if (np == 2) {
		printf("\n| call | during-pass p99 %s/%s | during-pass max %s/%s | started inside: p99 | max |\n",
		       p[1].label, p[0].label, p[1].label, p[0].label);
		printf("|---|---:|---:|---:|---:|\n");
		for (int t = 0; t < T_N; t++) {
			if (!p[0].s[t].all.n && !p[1].s[t].all.n)
				continue;
			printf("| %s |", type_name[t]);
			print_ratio(pct(&p[1].s[t].during, 99),
				    pct(&p[0].s[t].during, 99));
			print_ratio(pct(&p[1].s[t].during, 100),
				    pct(&p[0].s[t].during, 100));
			print_ratio(pct(&p[1].s[t].started, 99),
				    pct(&p[0].s[t].started, 99));
			print_ratio(pct(&p[1].s[t].started, 100),
				    pct(&p[0].s[t].started, 100));
			printf("\n");
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: %s submit|measure|report ...\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc, argv);
	slurm_init(NULL);
	if (!strcmp(argv[1], "submit"))
		rc = cmd_submit(argc, argv);
	else if (!strcmp(argv[1], "measure"))
		rc = cmd_measure(argc, argv);
	else {
		fprintf(stderr, "%s: unknown command %s\n", argv[0], argv[1]);
		rc = 2;
	}
	slurm_fini();
	return rc;
}
