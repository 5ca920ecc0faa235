/*****************************************************************************\
 *  cli_explain.c - `prism explain`: the multifactor terms of each pending
 *  job (cli_mf_view.c), Moab's mdiag -p view or Grid Engine's qstat -pri
 *  and -urg views of the pending jobs, from the running slurmctld. The
 *  controller's configuration says which policy file and
 *  StateSaveLocation the plugin uses; the job, sprio, partition and
 *  association RPCs give the records (PrivateData applies to them as to
 *  squeue, sprio and sshare); cli_mf_view.c (multifactor), cli_diag.c
 *  (Moab) and cli_ge_diag.c (Grid Engine) build the view.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm_errno.h>

#include "cli_check.h"
#include "cli_compare.h"
#include "cli_diag.h"
#include "cli_explain.h"
#include "cli_ge_diag.h"
#include "cli_mf_view.h"
#include "cli_policy.h"
#include "cli_release.h"
#include "cli_whatif.h"
#include "prism_cli.h"
#include "prism_file.h"
#include "prism_params.h"
#include "prism_saved_policy.h"
#include "prism_state.h"

static void _records_free(cli_records_t *r)
{
	free(r->assoc_recs);
	free(r->qos_recs);
	if (r->assocs)
		slurm_free_assoc_mgr_info_msg(r->assocs);
	free(r->factors);
	if (r->parts)
		slurm_free_partition_info_msg(r->parts);
	if (r->prio)
		slurm_free_priority_factors_response_msg(r->prio);
	if (r->jobs)
		slurm_free_job_info_msg(r->jobs);
	if (r->conf)
		cli_free_ctl_conf(r->conf);
	free(r->policy_text);
	free(r->policy_note);
}

/* Read the job ids of argv[optind..] into a new array *ids. */
static int _job_ids(const char *cmd, int argc, char **argv, uint32_t **ids,
		    uint32_t *cnt)
{
	*cnt = 0;
	*ids = calloc((size_t) argc + 1, sizeof(**ids));
	if (!*ids) {
		fprintf(stderr, "prism: out of memory\n");
		return CLI_ERROR;
	}
	for (; optind < argc; optind++) {
		const char *s = argv[optind];
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(s, &end, 10);
		if (s[0] < '0' || s[0] > '9' || *end || errno || !v ||
		    v >= NO_VAL) {
			free(*ids);
			*ids = NULL;
			return cli_usage_error("%s: '%s' is not a job id",
					       cmd, s);
		}
		(*ids)[(*cnt)++] = (uint32_t) v;
	}
	return CLI_OK;
}

/* cli_slurm_keep(): Slurm's API stays open; it was opened (slurm_init()) */
static bool _slurm_keep, _slurm_kept;

extern void cli_slurm_keep(void)
{
	_slurm_keep = true;
}

extern void cli_slurm_keep_end(void)
{
	if (_slurm_kept)
		slurm_fini();
	_slurm_keep = _slurm_kept = false;
}

/*
 * The controller's configuration; CLI_ERROR after saying that it cannot
 * be reached. A SLURM_CONF that names no file (or is empty) is reported
 * at once: Slurm would retry reading it for a minute.
 */
static int _load_conf(cli_records_t *r)
{
	const char *env = getenv("SLURM_CONF");
	struct stat st;

	if (env && !*env) {
		fprintf(stderr, "prism: cannot reach slurmctld: SLURM_CONF is set but empty (unset it for Slurm's default)\n");
		return CLI_ERROR;
	}
	if (env && stat(env, &st)) {
		fprintf(stderr, "prism: cannot reach slurmctld: SLURM_CONF=%s: %s\n",
			env, strerror(errno));
		return CLI_ERROR;
	}
	/* Slurm's API wants it first (23.02 on: its hash plugins) */
	if (!_slurm_keep) {
		slurm_init(NULL);
		r->slurm_inited = true;
	} else if (!_slurm_kept) {
		slurm_init(NULL);
		_slurm_kept = true;
	}
	if (slurm_load_ctl_conf((time_t) 0, &r->conf) != SLURM_SUCCESS) {
		r->conf = NULL;
		fprintf(stderr, "prism: cannot reach slurmctld: %s\n",
			slurm_strerror(errno));
		return CLI_ERROR;
	}
	cli_release_warn_running(r->conf->version);
	return CLI_OK;
}

/* The number of items of 'list' (NULL: none). */
static uint32_t _list_count(list_t *list)
{
	return list ? (uint32_t) slurm_list_count(list) : 0;
}

/* The associations of r->assocs into r->assoc_recs; -1: out of memory. */
static int _assoc_array(cli_records_t *r)
{
	uint32_t n = _list_count(r->assocs->assoc_list);
	slurmdb_assoc_rec_t *rec;
	list_itr_t *it;

	r->assoc_recs = calloc((size_t) n + 1, sizeof(*r->assoc_recs));
	if (!r->assoc_recs)
		return -1;
	if (!n)
		return 0;
	it = slurm_list_iterator_create(r->assocs->assoc_list);
	while ((rec = slurm_list_next(it)) && r->assoc_cnt < n)
		r->assoc_recs[r->assoc_cnt++] = rec;
	slurm_list_iterator_destroy(it);
	return 0;
}

/* The QOS of r->assocs into r->qos_recs; -1: out of memory. */
static int _qos_array(cli_records_t *r)
{
	uint32_t n = _list_count(r->assocs->qos_list);
	slurmdb_qos_rec_t *q;
	list_itr_t *it;

	r->qos_recs = calloc((size_t) n + 1, sizeof(*r->qos_recs));
	if (!r->qos_recs)
		return -1;
	if (!n)
		return 0;
	it = slurm_list_iterator_create(r->assocs->qos_list);
	while ((q = slurm_list_next(it)) && r->qos_cnt < n)
		r->qos_recs[r->qos_cnt++] = q;
	slurm_list_iterator_destroy(it);
	return 0;
}

/* The jobs, sprio's rows (only 'ids' when given) and the partitions. */
static int _load_records(cli_records_t *r, const uint32_t *ids, uint32_t cnt)
{
#ifndef PRISM_CLI_HAVE_LOAD_PRIO_FLAGS
	list_t *want = NULL;
#endif
	list_itr_t *it;
	priority_factors_object_t *f;
	uint32_t n = 0;
	int rc;

	if (slurm_load_jobs((time_t) 0, &r->jobs, SHOW_ALL) != SLURM_SUCCESS) {
		r->jobs = NULL;
		fprintf(stderr, "prism: cannot load the jobs from slurmctld: %s\n",
			slurm_strerror(errno));
		return CLI_ERROR;
	}
#ifdef PRISM_CLI_HAVE_LOAD_PRIO_FLAGS
	/* sprio's rows of every job: the views pick the jobs asked for */
	rc = slurm_load_job_prio(&r->prio, 0);
#else
	if (cnt) {
		want = slurm_list_create(free);
		for (uint32_t i = 0; i < cnt; i++) {
			uint32_t *id = malloc(sizeof(*id));

			if (!id) {
				slurm_list_destroy(want);
				fprintf(stderr, "prism: out of memory\n");
				return CLI_ERROR;
			}
			*id = ids[i];
			slurm_list_append(want, id);
		}
	}
	rc = slurm_load_job_prio(&r->prio, want, NULL, NULL, 0);
	if (want)
		slurm_list_destroy(want);
#endif
	if (rc != SLURM_SUCCESS) {
		r->prio = NULL;
		fprintf(stderr, "prism: cannot load the priority factors (sprio) from slurmctld: %s\n",
			slurm_strerror(errno));
		return CLI_ERROR;
	}
	if (slurm_load_partitions((time_t) 0, &r->parts, SHOW_ALL) !=
	    SLURM_SUCCESS) {
		r->parts = NULL;
		fprintf(stderr, "prism: cannot load the partitions from slurmctld: %s\n",
			slurm_strerror(errno));
		return CLI_ERROR;
	}
	if (!r->prio || !r->prio->priority_factors_list)
		return CLI_OK;
	it = slurm_list_iterator_create(r->prio->priority_factors_list);
	while (slurm_list_next(it))
		n++;
	slurm_list_iterator_destroy(it);
	r->factors = calloc((size_t) n + 1, sizeof(*r->factors));
	if (!r->factors) {
		fprintf(stderr, "prism: out of memory\n");
		return CLI_ERROR;
	}
	it = slurm_list_iterator_create(r->prio->priority_factors_list);
	while ((f = slurm_list_next(it)) && r->factor_cnt < n)
		r->factors[r->factor_cnt++] = f;
	slurm_list_iterator_destroy(it);
	return CLI_OK;
}

/*
 * The associations and QOS with their usage, as `scontrol show assoc_mgr`
 * reads them (the controller applies PrivateData=usage as for sshare).
 * A refusal is not an error: r->assoc_err says why, and the view says so.
 */
static int _load_assocs(cli_records_t *r)
{
	assoc_mgr_info_request_msg_t req = {
		.flags = ASSOC_MGR_INFO_FLAG_ASSOC | ASSOC_MGR_INFO_FLAG_QOS,
	};

	if (slurm_load_assoc_mgr_info(&req, &r->assocs) != SLURM_SUCCESS) {
		r->assocs = NULL;
		snprintf(r->assoc_err, sizeof(r->assoc_err),
			 "the controller refused the association records: %s",
			 slurm_strerror(errno));
		return CLI_OK;
	}
	if (_assoc_array(r) || _qos_array(r)) {
		fprintf(stderr, "prism: out of memory\n");
		return CLI_ERROR;
	}
	return CLI_OK;
}

/* Read StateSaveLocation/NAME into a new buffer; -1 with err set. */
static int _state_file(const cli_records_t *r, const char *name, char **buf,
		       size_t *len, prism_error_t *err)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s",
		 r->conf->state_save_location ? r->conf->state_save_location
					      : ".",
		 name);
	return prism_file_read(path, buf, len, err);
}

/*
 * The time of the plugin's last pass (priority_prism_state in
 * StateSaveLocation) into *t: 0, or -1 with 'why' saying why not.
 */
static int _pass_time(const cli_records_t *r, int64_t *t,
		      prism_error_t *why)
{
	prism_state_t st = { 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	int rc = -1;

	why->text[0] = '\0';
	if (!_state_file(r, CLI_STATE_NAME, &buf, &len, why) &&
	    !prism_state_parse(buf, len, &st, why) && st.last_recalc > 0) {
		*t = st.last_recalc;
		rc = 0;
	} else if (!why->text[0]) {
		prism_error_set(why, "%s/%s: no pass recorded yet",
				r->conf->state_save_location, CLI_STATE_NAME);
	}
	free(buf);
	return rc;
}

/* The time of the plugin's last pass, or now (and a note saying so). */
static int64_t _last_pass(const cli_records_t *r, FILE *out)
{
	prism_error_t err = { "" };
	char when[64];
	int64_t pass;
	time_t t;

	if (!_pass_time(r, &pass, &err)) {
		t = (time_t) pass;
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S",
			 localtime(&t));
		fprintf(out, "Recomputed at the plugin's last pass, %s.\n",
			when);
		return pass;
	}
	fprintf(out, "note: %s; recomputed at the current time instead of the plugin's last pass.\n",
		err.text);
	return (int64_t) time(NULL);
}

/* The Moab fair-share usage the plugin saved, or NULL with a note. */
static prism_moab_usage_t *_usage(const cli_records_t *r,
				  const prism_moab_policy_t *pol, FILE *out)
{
	prism_moab_usage_t *u = NULL;
	prism_error_t err = { "" };
	char *buf = NULL;
	size_t len = 0;

	if (prism_moab_policy_params(pol)->fs_policy == PRISM_MOAB_FS_OFF)
		return NULL;	/* FSPOLICY unset: no usage to read */
	if (_state_file(r, CLI_MOAB_USAGE_NAME, &buf, &len, &err) ||
	    prism_moab_usage_parse(buf, len, pol, &u, &err)) {
		fprintf(out, "note: %s; fair-share values show as '?' (read access to StateSaveLocation needed).\n",
			err.text);
		u = NULL;
	}
	free(buf);
	return u;
}

static void _note(char **note, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* printf's text of 'fmt' in a new string *note (NULL: out of memory). */
static void _note(char **note, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*note = len < 0 ? NULL : malloc((size_t) len + 1);
	if (!*note)
		return;
	va_start(ap, fmt);
	vsnprintf(*note, (size_t) len + 1, fmt, ap);
	va_end(ap);
}

/*
 * The policy the plugin put in force last, from the copy it keeps in
 * StateSaveLocation, into *params and r->policy_text; false when that
 * copy cannot be read (no access: the caller reads the file as it is
 * now). r->policy_note says when the configuration or the file now
 * differ from it: slurmctld refused them, or has not reread them yet.
 */
static bool _in_force(cli_records_t *r, prism_params_t *params, char *path,
		      size_t size)
{
	prism_saved_policy_t saved;
	prism_error_t err = { "" };
	char *buf = NULL, *now = NULL;
	size_t len = 0, now_len = 0;
	bool ok = false;

	if (_state_file(r, CLI_SAVED_POLICY_NAME, &buf, &len, &err) ||
	    prism_saved_policy_parse(buf, len, &saved, &err) ||
	    prism_params_parse(saved.params, params, &err))
		goto out;
	r->policy_text = malloc(saved.len + 1);
	if (!r->policy_text)
		goto out;
	memcpy(r->policy_text, saved.text ? saved.text : "", saved.len);
	r->policy_text[saved.len] = '\0';
	r->policy_len = saved.len;
	snprintf(path, size, "%s", saved.path);
	ok = true;
	if (strcmp(saved.params, r->conf->priority_params ?
					 r->conf->priority_params : ""))
		_note(&r->policy_note, "slurmctld's PriorityParameters=%s is not in force (refused at reconfigure?): shown is the policy in force, PriorityParameters=%s",
		      r->conf->priority_params ? r->conf->priority_params : "",
		      saved.params);
	else if (saved.path[0] &&
		 (prism_file_read_text(saved.path, &now, &now_len, &err) ||
		  now_len != saved.len || memcmp(now, saved.text, now_len)))
		_note(&r->policy_note, "%s is not the file in force (changed since slurmctld read it, or refused at reconfigure): shown is the policy in force, the copy the plugin keeps",
		      saved.path);
out:
	free(now);
	free(buf);
	return ok;
}

/*
 * The policy in force (_in_force()), else the one the controller's
 * PriorityParameters select, into *entry and its file into 'path' (when
 * it reads one). Returns CLI_OK, or CLI_ERROR after printing an error.
 */
static int _policy(cli_records_t *r, const cli_policy_t **entry, char *path,
		   size_t size)
{
	const slurm_conf_t *conf = r->conf;
	prism_params_t params;
	prism_error_t err = { "" };

	if (conf->priority_type &&
	    !strcasecmp(conf->priority_type, "priority/prism") &&
	    _in_force(r, &params, path, size)) {
		*entry = cli_policy_find(params.policy);
		return CLI_OK;
	}
	if (prism_params_parse(conf->priority_params, &params, &err)) {
		fprintf(stderr, "prism: slurmctld's %s\n", err.text);
		return CLI_ERROR;
	}
	if (!conf->priority_type ||
	    strcasecmp(conf->priority_type, "priority/prism")) {
		fprintf(stderr, "prism: slurmctld runs PriorityType=%s, not priority/prism: use `sprio -l`\n",
			conf->priority_type ? conf->priority_type : "(none)");
		return CLI_ERROR;
	}
	*entry = cli_policy_find(params.policy);
	if ((*entry)->reads_file &&
	    prism_params_config_path(&params, conf->slurm_conf, path, size,
				     &err)) {
		fprintf(stderr, "prism: %s\n", err.text);
		return CLI_ERROR;
	}
	return CLI_OK;
}

/* Where the policy shown comes from, for the view's first line. */
static const char *_source_said(const cli_records_t *r)
{
	return r->policy_text ?
		       "in force: the copy the plugin keeps in StateSaveLocation" :
		       "as read now; slurmctld reads it at start and on reconfigure";
}

/* The policy file slurmctld uses could not be read. */
static int _unreadable(const prism_error_t *err)
{
	fprintf(stderr, "prism: cannot read the policy slurmctld uses: %s\n",
		err->text);
	return CLI_ERROR;
}

/* The multifactor view of 'r'; 'why' holds the note when the time of
 * the plugin's last pass is not known (and must outlive the view). */
static cli_mf_explain_t _mf_input(const cli_records_t *r, const uint32_t *ids,
				  uint32_t id_cnt, bool json,
				  prism_error_t *why)
{
	int64_t pass = 0;
	bool known = !_pass_time(r, &pass, why);

	return (cli_mf_explain_t) {
		.conf = r->conf,
		.now = known ? (time_t) pass : time(NULL),
		.pass_known = known,
		.pass_note = why->text,
		.jobs = r->jobs->job_array,
		.job_cnt = r->jobs->record_count,
		.factors = r->factors,
		.factor_cnt = r->factor_cnt,
		.parts = r->parts->partition_array,
		.part_cnt = r->parts->record_count,
		.assocs_read = r->assocs != NULL,
		.assoc_err = r->assoc_err,
		.assocs = r->assoc_recs,
		.assoc_cnt = r->assoc_cnt,
		.qos = r->qos_recs,
		.qos_cnt = r->qos_cnt,
		.ids = ids,
		.id_cnt = id_cnt,
		.json = json,
	};
}

extern int cli_explain_multifactor(const cli_records_t *r, const char *path,
				   const uint32_t *ids, uint32_t id_cnt,
				   bool long_fmt, bool json)
{
	prism_error_t why = { "" };
	cli_mf_explain_t x = _mf_input(r, ids, id_cnt, json, &why);

	return cli_mf_explain_print(&x, stdout, stderr);
}

/* Slurm's time forms in minutes; -1 when bad ("unlimited" included). */
static long _mins(const char *s)
{
	int m = slurm_time_str2mins(s);

	return m < 0 ? -1 : m;
}

extern int cli_whatif_multifactor(const cli_records_t *r, const char *path,
				  char *const *set, int nset, const char *cand,
				  prism_whatif_job_t **out, uint32_t *cnt)
{
	prism_error_t why = { "" };
	cli_mf_explain_t x = _mf_input(r, NULL, 0, false, &why);
	prism_mf_change_t ch;

	memset(&ch, 0, sizeof(ch));
	*out = NULL;
	*cnt = 0;
	if (cand) {
		fprintf(stderr, "prism: whatif: policy=multifactor reads no policy file: give slurm.conf settings (SETTING=VALUE)\n");
		return CLI_ERROR;
	}
	for (int i = 0; i < nset; i++) {
		prism_error_t err = { "" };

		if (prism_mf_change_read(set[i], _mins, &ch, &err)) {
			fprintf(stderr, "prism: whatif: %s\n", err.text);
			return CLI_ERROR;
		}
	}
	*out = calloc((size_t) r->factor_cnt + 1, sizeof(**out));
	if (!*out) {
		fprintf(stderr, "prism: out of memory\n");
		return CLI_ERROR;
	}
	return cli_mf_whatif(&x, &ch, *out, cnt, stderr);
}

/* Room for the whatif entries of 'r' in a new *out; CLI_ERROR: no memory. */
static int _whatif_alloc(const cli_records_t *r, prism_whatif_job_t **out)
{
	*out = calloc((size_t) r->factor_cnt + 1, sizeof(**out));
	if (!*out) {
		fprintf(stderr, "prism: out of memory\n");
		return CLI_ERROR;
	}
	return CLI_OK;
}

/* The Moab view's records from 'r', its policy 'pol' and 'usage'. */
static void _moab_input(cli_explain_t *x, const cli_records_t *r,
			const prism_moab_policy_t *pol,
			const prism_moab_usage_t *usage)
{
	x->pol = pol;
	x->usage = usage;
	x->jobs = r->jobs->job_array;
	x->job_cnt = r->jobs->record_count;
	x->factors = r->factors;
	x->factor_cnt = r->factor_cnt;
	x->parts = r->parts->partition_array;
	x->part_cnt = r->parts->record_count;
}

/* A candidate policy file that cannot be read or parsed ("FILE:LINE: "). */
static int _bad_candidate(const prism_error_t *err)
{
	fprintf(stderr, "prism: whatif: %s\n", err->text);
	return CLI_ERROR;
}

extern int cli_whatif_moab(const cli_records_t *r, const char *path,
			   char *const *set, int nset, const char *cand,
			   prism_whatif_job_t **out, uint32_t *cnt)
{
	prism_error_t err = { "" };
	prism_moab_policy_t *pol;
	prism_moab_usage_t *usage;
	cli_explain_t x = { .pol_path = cand };
	int rc;

	*out = NULL;
	*cnt = 0;
	pol = cli_moab_read(cand, &err);
	if (!pol)
		return _bad_candidate(&err);
	if (!prism_moab_policy_kept(pol) &&
	    prism_moab_policy_notice_count(pol)) {
		cli_not_understood(stderr, "prism: whatif: ", PRISM_POLICY_MOAB,
				   cand, prism_moab_policy_notice_count(pol),
				   ". Nothing computed.");
		prism_moab_policy_free(pol);
		return CLI_ERROR;
	}
	x.now = _last_pass(r, stdout);
	/* the usage the plugin keeps, read under the candidate's
	 * credentials, as the plugin adopts it on reconfigure */
	usage = _usage(r, pol, stdout);
	_moab_input(&x, r, pol, usage);
	rc = _whatif_alloc(r, out);
	if (!rc)
		rc = cli_moab_whatif(&x, *out, cnt, stderr);
	prism_moab_usage_free(usage);
	prism_moab_policy_free(pol);
	return rc;
}

/*
 * The Grid Engine share-tree usage the plugin saved, decayed to 'now'
 * with 'pol''s halftime as the plugin's next pass would; NULL with a note
 * when it cannot be read (share-tree tickets then see no usage).
 */
static prism_ge_usage_t *_ge_usage(const cli_records_t *r,
				   const prism_ge_policy_t *pol, int64_t now,
				   FILE *out)
{
	prism_ge_usage_t *u = NULL;
	prism_error_t err = { "" };
	char *buf = NULL;
	size_t len = 0;

	if (_state_file(r, CLI_GE_USAGE_NAME, &buf, &len, &err) ||
	    prism_ge_usage_parse(buf, len, &u, &err)) {
		fprintf(out, "note: %s; share-tree tickets computed without usage (read access to StateSaveLocation needed).\n",
			err.text);
		u = NULL;
	} else {
		prism_ge_usage_decay(u, now,
				     prism_ge_policy_params(pol)->halftime);
	}
	free(buf);
	return u;
}

extern int cli_whatif_ge(const cli_records_t *r, const char *path,
			 char *const *set, int nset, const char *cand,
			 prism_whatif_job_t **out, uint32_t *cnt)
{
	prism_error_t err = { "" };
	prism_ge_policy_t *pol;
	prism_ge_usage_t *usage;
	cli_ge_explain_t x = { .pol = NULL };
	int rc;

	*out = NULL;
	*cnt = 0;
	pol = cli_ge_read(cand, &err);
	if (!pol) {
		_bad_candidate(&err);
		if (cli_file_lookalike(PRISM_POLICY_GRIDENGINE, cand))
			cli_not_understood(stderr, "prism: whatif: ",
					   PRISM_POLICY_GRIDENGINE, cand, 0,
					   ". Nothing computed.");
		return CLI_ERROR;
	}
	if (!prism_ge_policy_kept(pol) && prism_ge_policy_notice_count(pol)) {
		cli_not_understood(stderr, "prism: whatif: ",
				   PRISM_POLICY_GRIDENGINE, cand,
				   prism_ge_policy_notice_count(pol),
				   ". Nothing computed.");
		prism_ge_policy_free(pol);
		return CLI_ERROR;
	}
	x.now = _last_pass(r, stdout);
	usage = _ge_usage(r, pol, x.now, stdout);
	if (!r->assocs)
		printf("note: %s; share-tree tickets computed without the share tree.\n",
		       r->assoc_err);
	x.pol = pol;
	x.jobs = r->jobs->job_array;
	x.job_cnt = r->jobs->record_count;
	x.factors = r->factors;
	x.factor_cnt = r->factor_cnt;
	x.assocs = r->assoc_recs;
	x.assoc_cnt = r->assoc_cnt;
	x.usage = usage;
	rc = _whatif_alloc(r, out);
	if (!rc)
		rc = cli_ge_whatif(&x, *out, cnt, stderr);
	prism_ge_usage_free(usage);
	prism_ge_policy_free(pol);
	return rc;
}

extern int cli_explain_ge(const cli_records_t *r, const char *path,
			  const uint32_t *ids, uint32_t id_cnt, bool long_fmt,
			  bool json)
{
	prism_error_t err = { "" };
	prism_ge_policy_t *ge = NULL;
	cli_ge_explain_t x = {
		.jobs = r->jobs->job_array,
		.job_cnt = r->jobs->record_count,
		.factors = r->factors,
		.factor_cnt = r->factor_cnt,
		.ids = ids,
		.id_cnt = id_cnt,
	};
	int rc;

	if (r->policy_text ? prism_ge_conf_parse(r->policy_text, r->policy_len,
						 path, &ge, &err) != 0 :
			     !(ge = cli_ge_read(path, &err)))
		return _unreadable(&err);
	x.pol = ge;
	printf("Prism policy=gridengine from %s (%s).\n", path,
	       _source_said(r));
	x.now = _last_pass(r, stdout);
	printf("\n");
	rc = cli_ge_explain_print(&x, stdout, stderr);
	prism_ge_policy_free(ge);
	return rc;
}

extern int cli_explain_moab(const cli_records_t *r, const char *path,
			    const uint32_t *ids, uint32_t id_cnt,
			    bool long_fmt, bool json)
{
	prism_error_t err = { "" };
	prism_moab_policy_t *pol = NULL;
	prism_moab_usage_t *usage;
	cli_explain_t x = { .long_fmt = long_fmt };
	int rc;

	if (r->policy_text ?
		    prism_moab_conf_parse(r->policy_text, r->policy_len, path,
					  &pol, &err) != 0 :
		    !(pol = cli_moab_read(path, &err)))
		return _unreadable(&err);
	printf("Prism policy=moab from %s (%s).\n", path, _source_said(r));
	x.now = _last_pass(r, stdout);
	usage = _usage(r, pol, stdout);
	printf("\n");
	x.pol_path = path;
	_moab_input(&x, r, pol, usage);
	x.ids = ids;
	x.id_cnt = id_cnt;
	rc = cli_explain_print(&x, stdout, stderr);
	prism_moab_usage_free(usage);
	prism_moab_policy_free(pol);
	return rc;
}

extern int cli_records_load(cli_records_t *r, bool assocs,
			    const cli_policy_t **entry, char *path,
			    size_t size)
{
	int rc = _load_conf(r);

	if (!rc)
		rc = _policy(r, entry, path, size);
	if (!rc)
		rc = _load_records(r, NULL, 0);
	if (!rc && assocs)
		rc = _load_assocs(r);
	return rc;
}

extern void cli_records_free(cli_records_t *r)
{
	_records_free(r);
	if (r->slurm_inited)
		slurm_fini();
	*r = (cli_records_t) { .conf = NULL };
}

extern int cli_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "long", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	cli_records_t r = { .conf = NULL };
	const cli_policy_t *entry = NULL;
	char path[PRISM_PARAMS_MAX + 64];
	bool long_fmt = false, json = false;
	uint32_t *ids = NULL, id_cnt = 0;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "l", opts, NULL)) != -1) {
		if (c == 'l')
			long_fmt = true;
		else if (c == 'J')
			json = true;
		else
			return cli_usage_error("explain: unknown option '%s'",
					       argv[optind - 1]);
	}
	rc = _job_ids("explain", argc, argv, &ids, &id_cnt);
	if (rc)
		return rc;
	rc = _load_conf(&r);
	if (!rc)
		rc = _policy(&r, &entry, path, sizeof(path));
	if (rc)
		goto out;
	if (!entry->explain) {
		printf("PriorityParameters: policy=%s: %s\n",
		       prism_policy_name(entry->kind), entry->explain_hint);
		goto out;
	}
	if (json && !entry->json_ok) {
		rc = cli_usage_error("explain: --json is not available under policy=%s",
				     prism_policy_name(entry->kind));
		goto out;
	}
	rc = _load_records(&r, ids, id_cnt);
	if (!rc && entry->reads_assocs)
		rc = _load_assocs(&r);
	if (!rc && r.policy_note)
		fprintf(stderr, "prism: note: %s\n", r.policy_note);
	if (!rc)
		rc = entry->explain(&r, path, ids, id_cnt, long_fmt, json);
out:
	_records_free(&r);
	free(ids);
	if (r.slurm_inited)
		slurm_fini();
	return rc;
}

extern int cli_compare(int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	cli_records_t r = { .conf = NULL };
	const cli_policy_t *entry = NULL;
	char path[PRISM_PARAMS_MAX + 64];
	uint32_t *ids = NULL, id_cnt = 0;
	int rc;

	opterr = 0;
	optind = 1;
	if (getopt_long(argc, argv, "", opts, NULL) != -1)
		return cli_usage_error("compare: unknown option '%s'",
				       argv[optind - 1]);
	rc = _job_ids("compare", argc, argv, &ids, &id_cnt);
	if (rc)
		return rc;
	if (id_cnt != 2 || ids[0] == ids[1]) {
		free(ids);
		return cli_usage_error("compare: needs two different job ids");
	}
	rc = _load_conf(&r);
	if (!rc)
		rc = _policy(&r, &entry, path, sizeof(path));
	if (!rc)
		rc = _load_records(&r, ids, id_cnt);
	if (!rc && entry->reads_assocs)
		rc = _load_assocs(&r);
	if (!rc)
		rc = cli_compare_print(&r, entry->kind, ids[0], ids[1], stdout,
				       stderr);
	if (!rc && entry->kind == PRISM_POLICY_MULTIFACTOR) {
		prism_error_t why = { "" };
		cli_mf_explain_t x = _mf_input(&r, ids, id_cnt, false, &why);

		rc = cli_mf_fairshare_why(&x, ids[0], ids[1], stdout);
	}
	_records_free(&r);
	free(ids);
	if (r.slurm_inited)
		slurm_fini();
	return rc;
}

/* --top N: a count from 1 to 1000000. */
static int _top(const char *s, uint32_t *top)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || !v || v > 1000000)
		return cli_usage_error("whatif: --top '%s' is not a count from 1 to 1000000",
				       s);
	*top = (uint32_t) v;
	return CLI_OK;
}

extern int cli_whatif(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy-file", required_argument, NULL, 'p' },
		{ "top", required_argument, NULL, 't' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	cli_records_t r = { .conf = NULL };
	const cli_policy_t *entry = NULL;
	prism_whatif_job_t *jobs = NULL;
	char path[PRISM_PARAMS_MAX + 64], *what;
	const char *cand = NULL;
	uint32_t top = 10, cnt = 0;
	bool all = false;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'p') {
			cand = optarg;
		} else if (c == 't') {
			rc = _top(optarg, &top);
			if (rc)
				return rc;
		} else if (c == 'a') {
			all = true;
		} else {
			return cli_usage_error("whatif: unknown option or missing value '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind == argc && !cand)
		return cli_usage_error("whatif: give SETTING=VALUE... (policy=multifactor) or --policy-file FILE (policy=moab, policy=gridengine)");
	if (cand && optind < argc)
		return cli_usage_error("whatif: either SETTING=VALUE... or --policy-file FILE, not both");
	if (cand && access(cand, R_OK)) {
		fprintf(stderr, "prism: whatif: cannot read %s: %s\n", cand,
			strerror(errno));
		return CLI_ERROR;
	}
	rc = _load_conf(&r);
	if (!rc)
		rc = _policy(&r, &entry, path, sizeof(path));
	if (rc)
		goto out;
	if (!entry->whatif) {
		fprintf(stderr, "prism: whatif is not available under policy=%s\n",
			prism_policy_name(entry->kind));
		rc = CLI_ERROR;
		goto out;
	}
	if (cand && !entry->whatif_file) {
		fprintf(stderr, "prism: whatif: policy=%s reads no policy file: give slurm.conf settings (SETTING=VALUE)\n",
			prism_policy_name(entry->kind));
		rc = CLI_ERROR;
		goto out;
	}
	if (!cand && entry->whatif_file) {
		fprintf(stderr, "prism: whatif: under policy=%s the priority comes from %s: give a candidate with --policy-file FILE\n",
			prism_policy_name(entry->kind), path);
		rc = CLI_ERROR;
		goto out;
	}
	rc = _load_records(&r, NULL, 0);
	if (!rc && (entry->reads_assocs || entry->whatif_assocs))
		rc = _load_assocs(&r);
	if (!rc)
		rc = entry->whatif(&r, path, argv + optind, argc - optind, cand,
				   &jobs, &cnt);
	if (!rc && (r.conf->private_data & PRIVATE_DATA_JOBS) && getuid() &&
	    getuid() != r.conf->slurm_user_id)
		printf("note: PrivateData=jobs: the controller shows you only your own jobs (unless you are an operator); the ranks below are among the jobs you see, not the whole queue.\n");
	if (!rc) {
		what = cli_whatif_what(prism_policy_name(entry->kind),
				       argv + optind, argc - optind, cand);
		rc = what ? cli_whatif_print(what, jobs, cnt, top, all, stdout,
					     stderr) :
			    CLI_ERROR;
		if (!what)
			fprintf(stderr, "prism: whatif: out of memory\n");
		free(what);
	}
out:
	free(jobs);
	_records_free(&r);
	if (r.slurm_inited)
		slurm_fini();
	return rc;
}
