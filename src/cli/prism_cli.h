/*****************************************************************************\
 *  prism_cli.h - the parts of the `prism` command: its subcommands
 *  (check, convert, explain) and the explain view built from the
 *  controller's records, kept apart from the RPCs so that a test can feed
 *  it records of its own.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_H
#define PRISM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

#include "prism_cols.h"
#include "prism_ge.h"
#include "prism_ge_conf.h"
#include "prism_ge_usage.h"
#include "prism_moab.h"
#include "prism_moab_conf.h"
#include "prism_params.h"
#include "prism_mf_whatif.h"
#include "prism_whatif.h"

/* Exit statuses of every subcommand. */
/*
 * What differs between the Slurm releases the command builds for (the
 * public <slurm/slurm.h> only), decided by configure's probes
 * (m4/prism_slurm.m4, -DPRISM_CLI_HAVE_...): from 23.02 the lists are
 * list_t and list_itr_t, a sprio row keeps its factors behind a pointer
 * (with its account and QOS), and sprio filters its rows in the client;
 * from 26.05 a row names its job by step_id, and slurm_free_ctl_conf is
 * slurm_free_conf.
 */
#ifndef PRISM_CLI_HAVE_LIST_T
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif
#ifdef PRISM_CLI_HAVE_ROW_STEP_ID
#define CLI_ROW_JOB_ID(row) ((row)->step_id.job_id)
#else
#define CLI_ROW_JOB_ID(row) ((row)->job_id)
#endif
/* slurm_load_ctl_conf()'s answer freed (slurm_free_conf from 26.05) */
#ifdef PRISM_CLI_HAVE_FREE_CONF
#define cli_free_ctl_conf(c) slurm_free_conf(c)
#else
#define cli_free_ctl_conf(c) slurm_free_ctl_conf(c)
#endif

#define CLI_OK 0
#define CLI_ERROR 1
#define CLI_USAGE 2

/*
 * The configuration slurm_init() reads with Slurm's own parser (Include,
 * continuations, every time form). libslurm exports it (22.05 and 24.11:
 * src/common/read_config.c defines it, and libslurm's version script
 * exports every slurm_* symbol) but <slurm/slurm.h> does not declare it.
 */
extern slurm_conf_t slurm_conf;

/*
 * Slurm's reader of the time forms of slurm.conf ("30", "48:00:00",
 * "7-0"): minutes, NO_VAL when bad, INFINITE for "unlimited". libslurm
 * exports it (src/common/parse_time.c, 22.05 and 24.11); no public header
 * declares it.
 */
extern int slurm_time_str2mins(const char *string);

/* Names of Prism's files in StateSaveLocation (src/plugin/). */
#define CLI_STATE_NAME "priority_prism_state"
#define CLI_SAVED_POLICY_NAME "priority_prism_policy"
#define CLI_MOAB_USAGE_NAME "priority_prism_moab_usage"
#define CLI_GE_USAGE_NAME "priority_prism_ge_usage"

/*
 * The subcommands: 'argc'/'argv' start at the subcommand's name. Each
 * prints its results on stdout and its errors on stderr and returns an
 * exit status.
 */
/* What the controller's RPCs returned (prism explain); cli_explain.c
 * loads and frees it. */
typedef struct {
	slurm_conf_t *conf;
	job_info_msg_t *jobs;
	priority_factors_response_msg_t *prio;
	partition_info_msg_t *parts;
	priority_factors_object_t **factors;	/* sprio's rows */
	uint32_t factor_cnt;
	/* associations and QOS with their usage (scontrol show assoc_mgr);
	 * NULL: not asked for, or refused (assoc_err says why); their
	 * records in arrays for the views */
	assoc_mgr_info_msg_t *assocs;
	slurmdb_assoc_rec_t **assoc_recs;
	uint32_t assoc_cnt;
	slurmdb_qos_rec_t **qos_recs;
	uint32_t qos_cnt;
	char assoc_err[PRISM_ERROR_MAX];
	bool slurm_inited;		/* slurm_init() was called */
	/* the policy in force, from the copy the plugin keeps in
	 * StateSaveLocation (priority_prism_policy); NULL: not readable,
	 * the file is read as it is now */
	char *policy_text;
	size_t policy_len;
	/* why the configuration or the file now differ from it; NULL:
	 * they do not */
	char *policy_note;
} cli_records_t;

/*
 * What the prism command does for each policy: one entry per policy
 * (cli_policy.c), found by the kind PriorityParameters names; check and
 * explain call the entry, never a named policy.
 */
typedef struct {
	prism_policy_t kind;
	bool reads_file;		/* takes a policy file (config=) */
	/* prism check of the policy file 'path': prints its notices and
	 * "OK"; CLI_OK, or CLI_ERROR after printing why. NULL iff
	 * !reads_file. */
	int (*check)(const char *path);
	/* prism explain of the records 'r' under the file 'path' (--json:
	 * 'json', only when json_ok); NULL: sprio shows it all, explain_hint
	 * says so. */
	int (*explain)(const cli_records_t *r, const char *path,
		       const uint32_t *ids, uint32_t id_cnt, bool long_fmt,
		       bool json);
	const char *explain_hint;
	bool json_ok;			/* explain takes --json */
	bool reads_assocs;		/* explain needs r->assocs */
	/*
	 * prism whatif: the priority of each pending row of 'r' now and
	 * under the change (multifactor: the 'nset' slurm.conf settings
	 * 'set'; the others: the candidate policy file 'cand', their file
	 * in force being 'path') into a new array *out (freed by the
	 * caller; its strings point into 'r') of *cnt. CLI_OK, or
	 * CLI_ERROR after printing why on stderr.
	 */
	int (*whatif)(const cli_records_t *r, const char *path,
		      char *const *set, int nset, const char *cand,
		      prism_whatif_job_t **out, uint32_t *cnt);
	bool whatif_file;		/* whatif takes --policy-file */
	bool whatif_assocs;		/* whatif needs r->assocs */
} cli_policy_t;

/* The entry of 'kind' (never NULL: an unknown kind gets multifactor's). */
extern const cli_policy_t *cli_policy_find(prism_policy_t kind);

/* The policies' check and explain (cli_check.c, cli_explain.c). */
extern int cli_check_moab(const char *path);
extern int cli_check_gridengine(const char *path);

/*
 * prism check under policy=multifactor (cli_check_mf.c): read the
 * slurm.conf 'conf_path' with Slurm's parser, print a line per warning
 * with file and line, the settings in force and "OK". CLI_OK (warnings
 * too), or CLI_ERROR when the file cannot be read; a file Slurm's parser
 * refuses makes Slurm print its error and exit 1.
 */
extern int cli_check_multifactor(const char *conf_path);

/* Where a slurm.conf key is set: the last line that sets it. */
typedef struct {
	const char *key;	/* as slurm.conf spells it, case ignored */
	char file[4096];	/* "" when no line sets it (the default) */
	unsigned line;
	char *text;		/* the value as written there, NULL: none */
} cli_conf_loc_t;

/*
 * Find the last line of the slurm.conf 'conf_path' and its Include files
 * that sets each of the 'cnt' keys of 'locs', and the value as written
 * there (freed with cli_conf_locs_free(), on failure too). A locator:
 * the values come from Slurm's parser, the text only where Slurm keeps
 * none (PriorityFlags: Slurm drops the names it does not know). CLI_OK,
 * or CLI_ERROR after printing why a file cannot be read.
 */
extern int cli_conf_locate(const char *conf_path, cli_conf_loc_t *locs,
			   size_t cnt);
extern void cli_conf_locs_free(cli_conf_loc_t *locs, size_t cnt);
extern int cli_explain_moab(const cli_records_t *r, const char *path,
			    const uint32_t *ids, uint32_t id_cnt,
			    bool long_fmt, bool json);
extern int cli_explain_ge(const cli_records_t *r, const char *path,
			  const uint32_t *ids, uint32_t id_cnt, bool long_fmt,
			  bool json);
extern int cli_explain_multifactor(const cli_records_t *r, const char *path,
				   const uint32_t *ids, uint32_t id_cnt,
				   bool long_fmt, bool json);

extern int cli_whatif_moab(const cli_records_t *r, const char *path,
			   char *const *set, int nset, const char *cand,
			   prism_whatif_job_t **out, uint32_t *cnt);
extern int cli_whatif_ge(const cli_records_t *r, const char *path,
			 char *const *set, int nset, const char *cand,
			 prism_whatif_job_t **out, uint32_t *cnt);
extern int cli_whatif_multifactor(const cli_records_t *r, const char *path,
				  char *const *set, int nset, const char *cand,
				  prism_whatif_job_t **out, uint32_t *cnt);

/*
 * Load what the controller reports into 'r' (zeroed by the caller): its
 * configuration, the policy in force (*entry, its file's path into
 * 'path' of 'size' bytes), every job and sprio row, the partitions and,
 * with 'assocs', the associations and QOS with their usage. Returns
 * CLI_OK, or CLI_ERROR after one line on stderr (no controller, a bad
 * PriorityParameters, not priority/prism). Free with cli_records_free()
 * either way.
 */
extern int cli_records_load(cli_records_t *r, bool assocs,
			    const cli_policy_t **entry, char *path,
			    size_t size);
/* Free what cli_records_load() loaded and close Slurm's API. */
extern void cli_records_free(cli_records_t *r);

/*
 * Slurm's API for the rest of the process (prism metrics --listen, which
 * loads the records at every scrape): the first load opens it and no
 * cli_records_free() closes it; cli_slurm_keep_end() does. Slurm 24.11's
 * library cannot be opened again once closed (a crash in its plugin
 * loader at the second slurm_init()).
 */
extern void cli_slurm_keep(void);
extern void cli_slurm_keep_end(void);

extern int cli_check(int argc, char **argv);
extern int cli_convert(int argc, char **argv);
extern int cli_explain(int argc, char **argv);

/* Print the usage text to 'out'. */
extern void cli_usage(FILE *out);

/*
 * Print "prism: MESSAGE" and a pointer to --help on stderr; returns
 * CLI_USAGE.
 */
extern int cli_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Print the notices of the Moab policy 'pol' read from 'path' to 'out':
 * the parser's, then one per weighted subcomponent Slurm has no data for
 * (the plugin logs the same lines).
 */
extern void cli_moab_notices(const prism_moab_policy_t *pol,
			     const char *path, FILE *out);

/*
 * Print to 'out' what the policy 'pol' will do, on one screen: the
 * components in force with weights and caps, the credentials with
 * priorities and targets, the fair-share settings and bounds, how many
 * things were ignored. Never fails.
 */
extern void cli_moab_summary(const prism_moab_policy_t *pol, FILE *out);
extern void cli_ge_summary(const prism_ge_policy_t *pol, FILE *out);

/*
 * Read and parse the Moab policy file 'path'. Returns the policy (freed
 * by the caller), or NULL with the reason ("file:line: ...") in err.
 */
extern prism_moab_policy_t *cli_moab_read(const char *path,
					  prism_error_t *err);

/*
 * Read and parse the Grid Engine policy file 'path'. Returns the policy
 * (freed by the caller), or NULL with the reason ("file:line: ...") in
 * err.
 */
extern prism_ge_policy_t *cli_ge_read(const char *path, prism_error_t *err);

/*
 * Whether nothing in the policy file 'path' reads as a 'kind' policy
 * (moab or gridengine) while the other file policy reads something in it:
 * a file of the other policy. False when 'path' cannot be read.
 */
extern bool cli_file_lookalike(prism_policy_t kind, const char *path);

/*
 * Print on 'out' one line: 'lead', that nothing in 'path' was understood
 * as a 'kind' policy (with its 'notices' when not 0), that it looks like
 * a file of the other policy (cli_file_lookalike()) or asks whether it is
 * one, then 'tail'.
 */
extern void cli_not_understood(FILE *out, const char *lead,
			       prism_policy_t kind, const char *path,
			       size_t notices, const char *tail);

/* ---- explain: what both views share (src/cli/cli_diag.c) ---- */

/*
 * Why job 'id' (its record 'job', NULL: not found) has no sprio row, as
 * one line "prism: job ID: ..." on 'err' (not found, not pending, held,
 * not eligible yet).
 */
extern void cli_job_why_unranked(const slurm_job_info_t *job, uint32_t id,
				 FILE *err);

/* Is 'job' pending? */
extern bool cli_job_pending(const slurm_job_info_t *job);

/*
 * The CPUs the plugin's prism_job_cpus() sizes 'job' by: for a pending
 * job its maximum when it gave one (sent as 0 when not), else its
 * minimum.
 */
extern uint32_t cli_job_cpus(const slurm_job_info_t *job);

/*
 * Pointers to the 'cnt' jobs of 'jobs', sorted by job id, in a new array
 * (room for cnt + 1) the caller frees. NULL when out of memory.
 */
extern const slurm_job_info_t **cli_jobs_by_id(const slurm_job_info_t *jobs,
					       uint32_t cnt);

/* The job 'id' among the 'cnt' of cli_jobs_by_id()'s 'sorted', or NULL. */
extern const slurm_job_info_t *cli_job_find(const slurm_job_info_t **sorted,
					    uint32_t cnt, uint32_t id);

/*
 * The order of both views' tables, for qsort(): Slurm priority 'prio_a'
 * of job 'id_a' before 'prio_b' of 'id_b' (< 0), after it (> 0) or the
 * same job (0): highest priority first, then lowest job id.
 */
extern int cli_rank_cmp(uint32_t prio_a, uint32_t id_a, uint32_t prio_b,
			uint32_t id_b);

/* Was job 'id' asked for among the 'cnt' 'ids' (none asked: every job)? */
extern bool cli_job_asked(const uint32_t *ids, uint32_t cnt, uint32_t id);

/* Is 'part' the first partition of the comma list 'list' (false: NULL)? */
extern bool cli_first_part(const char *list, const char *part);

/* The first partition of the comma list 'list' into 'buf' of 'size'. */
extern void cli_first_part_copy(char *buf, size_t size, const char *list);

/* sprio's row 'f' copied into the core's record 'c' (the columns, the
 * admin-set priority, the TRES columns), for a policy's decoder. */
extern void cli_cols_read(const priority_factors_object_t *f, prism_cols_t *c);

/* The TRES names and weights of sprio's row 'f' into *names and *weights
 * (the row's own arrays, or NULL; Slurm versions keep them apart). */
extern void cli_row_tres(const priority_factors_object_t *f, char ***names,
			 double **weights);

/*
 * prism compare (cli_compare.c): the sprio rows of jobs 'a' and 'b' in
 * 'r' (in a partition both share, else each one's first) term by term
 * under policy 'kind', the difference of each and the terms that decide
 * their order, to 'out'. CLI_OK, or CLI_ERROR with one line on 'err' per
 * job that has no row (not found, not pending, held).
 */
extern int cli_compare_print(const cli_records_t *r, prism_policy_t kind,
			     uint32_t a, uint32_t b, FILE *out, FILE *err);
extern int cli_compare(int argc, char **argv);

/*
 * The line naming a whatif's change, after "What if ": "policy=POLICY
 * with SETTING=VALUE ...:" for the 'nset' settings 'set', or "policy=POLICY
 * read CAND instead of its file in force:" for a candidate file 'cand'
 * (not NULL), in a new string of its length that the caller frees; NULL
 * when out of memory.
 */
extern char *cli_whatif_what(const char *policy, char *const *set, int nset,
			     const char *cand);

/*
 * prism whatif (cli_whatif.c): rank the 'n' entries of 'jobs' before and
 * after the change 'what' (a line naming it) and print to 'out' how the
 * order changes: how many move, the 'top' that move most (rank and
 * priority before and after), a summary per account and, with 'all',
 * every entry in the new order. CLI_OK, or CLI_ERROR with a message on
 * 'err' when out of memory.
 */
extern int cli_whatif_print(const char *what, prism_whatif_job_t *jobs,
			    uint32_t n, uint32_t top, bool all, FILE *out,
			    FILE *err);
extern int cli_whatif(int argc, char **argv);

/* ---- explain: from the controller's records to the mdiag -p view ---- */

/* Everything the explain view is built from; the caller owns it all. */
typedef struct {
	const prism_moab_policy_t *pol;
	const char *pol_path;
	const prism_moab_usage_t *usage; /* NULL: fair-share usage unknown */
	int64_t now;			/* the plugin's last pass */
	const slurm_job_info_t *jobs;	/* every job the caller may see */
	uint32_t job_cnt;
	priority_factors_object_t *const *factors; /* sprio's rows */
	uint32_t factor_cnt;
	const partition_info_t *parts;
	uint32_t part_cnt;
	const uint32_t *ids;		/* the jobs asked for; none: all */
	uint32_t id_cnt;
	bool long_fmt;			/* prism_moab_explain() per job */
} cli_explain_t;

/*
 * Print the mdiag -p table of 'x' and its notes to 'out'. Returns
 * CLI_OK, or CLI_ERROR with a message on 'err' when out of memory or per
 * job asked for that has no row (the rows found are printed either way).
 */
extern int cli_explain_print(const cli_explain_t *x, FILE *out, FILE *err);

/*
 * prism whatif under a candidate Moab policy x->pol (cli_diag.c): each
 * pending sprio row of 'x' with its priority now (prism_moab_cols_decode())
 * and the one the plugin computes under x->pol at x->now with x->usage
 * (prism_moab_prio(): the job in the row's partition, an admin-set
 * priority as Moab's system priority; 0 when REJECTNEGPRIOJOBS would hold
 * it) into 'out' (room for x->factor_cnt), *cnt of them. CLI_OK, or
 * CLI_ERROR with one line on 'err' (a job the core refuses, out of
 * memory).
 */
extern int cli_moab_whatif(const cli_explain_t *x, prism_whatif_job_t *out,
			   uint32_t *cnt, FILE *err);

/* Per-job lookups shared over one explain run; opaque. */
typedef struct cli_jobmap cli_jobmap_t;

/*
 * New lookups for 'pol' (uid/gid to credential handles) and the per-user
 * totals of the active jobs among 'jobs'. NULL when out of memory; freed
 * with cli_jobmap_free().
 */
extern cli_jobmap_t *cli_jobmap_create(const prism_moab_policy_t *pol,
				       const slurm_job_info_t *jobs,
				       uint32_t job_cnt, int64_t now);
extern void cli_jobmap_free(cli_jobmap_t *m);

/*
 * Read 'job' in partition 'part' (NULL: none known) at 'now' into 'in'
 * and 'tot' the way the plugin reads a job record
 * (src/plugin/prism_moab_job.c), from the fields Slurm sends to clients;
 * 'direct_prio' is sprio's admin-set priority (0: none).
 */
extern void cli_job_inputs(cli_jobmap_t *m, const slurm_job_info_t *job,
			   const partition_info_t *part, double direct_prio,
			   prism_moab_job_t *in, prism_moab_totals_t *tot);

/* ---- explain: the qstat -pri and -urg views (policy=gridengine) ---- */

/* Everything the Grid Engine view is built from; the caller owns it all. */
typedef struct {
	const prism_ge_policy_t *pol;
	int64_t now;			/* the plugin's last pass */
	const slurm_job_info_t *jobs;	/* every job the caller may see */
	uint32_t job_cnt;
	priority_factors_object_t *const *factors; /* sprio's rows */
	uint32_t factor_cnt;
	const uint32_t *ids;		/* the jobs asked for; none: all */
	uint32_t id_cnt;
	/* prism whatif only: the share tree and its usage */
	slurmdb_assoc_rec_t *const *assocs; /* NULL: no share tree */
	uint32_t assoc_cnt;
	const prism_ge_usage_t *usage;	/* NULL: no usage */
} cli_ge_explain_t;

/*
 * Print the qstat -pri and -urg tables of 'x' and their notes to 'out'.
 * Returns CLI_OK, or CLI_ERROR with a message on 'err' (out of memory, a
 * job the core refuses, a job asked for that has no row: the rows found
 * are printed either way).
 */
extern int cli_ge_explain_print(const cli_ge_explain_t *x, FILE *out,
				FILE *err);

/*
 * Read 'job' in partition 'part' (NULL: none known) into 'in' and its
 * requests into 'amount' (prism_ge_count(pol, RESOURCE) of them) the way
 * the plugin reads a job record (src/plugin/prism_ge_job.c), from the
 * fields Slurm sends to clients: slots = CPUs, mem = MB, nodes, any other
 * resource = the TRES of that name in tres_req_str. in->amount points to
 * 'amount'.
 */
extern void cli_ge_job_inputs(const prism_ge_policy_t *pol,
			      const slurm_job_info_t *job, const char *part,
			      prism_ge_job_t *in, double *amount);

/*
 * prism whatif under a candidate Grid Engine policy x->pol
 * (cli_ge_diag.c): one pass over every pending job of x->jobs at x->now
 * as the plugin's pass runs it (prism_ge_pass_run(): the share tree of
 * x->assocs with the usage x->usage, the running jobs counted on their
 * association, user and account; held jobs and admin-set priorities left
 * out), then each pending sprio row of 'x' with its priority now
 * (prism_ge_cols_decode()) and under the candidate (in the row's
 * partition; an admin-set priority kept) into 'out' (room for
 * x->factor_cnt), *cnt of them. CLI_OK, or CLI_ERROR with one line on
 * 'err' (the core refuses the pass, out of memory).
 */
extern int cli_ge_whatif(const cli_ge_explain_t *x, prism_whatif_job_t *out,
			 uint32_t *cnt, FILE *err);

/* ---- explain: the multifactor view (cli_mf_view.c) ---- */

/* Everything the multifactor view is built from; the caller owns it all. */
typedef struct {
	const slurm_conf_t *conf;	/* weights, PriorityMaxAge, flags */
	time_t now;			/* ages are measured to it: */
	bool pass_known;		/* the plugin's last pass, whose terms
					 * sprio shows; false: the current
					 * time, pass_note says why */
	const char *pass_note;
	const slurm_job_info_t *jobs;	/* every job the caller may see */
	uint32_t job_cnt;
	priority_factors_object_t *const *factors; /* sprio's rows */
	uint32_t factor_cnt;
	const partition_info_t *parts;
	uint32_t part_cnt;
	bool assocs_read;		/* false: not readable, see: */
	const char *assoc_err;		/* why not */
	slurmdb_assoc_rec_t *const *assocs; /* every one the caller may see */
	uint32_t assoc_cnt;
	slurmdb_qos_rec_t *const *qos;	/* every QOS */
	uint32_t qos_cnt;
	const uint32_t *ids;		/* the jobs asked for; none: all */
	uint32_t id_cnt;
	bool json;			/* JSON instead of text */
} cli_mf_explain_t;

/*
 * Print one block per sprio row of the pending jobs of 'x' (each term:
 * factor, weight, value, inputs; their sum; the fair-share path and Fair
 * Tree rank) to 'out', as text or JSON. Returns CLI_OK, or CLI_ERROR
 * with a message on 'err' per job asked for that has no row (not found,
 * not pending, held) or when out of memory; the rows found are printed
 * either way.
 */
extern int cli_mf_explain_print(const cli_mf_explain_t *x, FILE *out,
				FILE *err);

/*
 * For prism compare under Fair Tree: both jobs' fair-share factors and,
 * from the association records of 'x', where in the tree the two users'
 * paths part and which two siblings' level fair-shares ordered them (or
 * why that cannot be shown), to 'out'. Returns CLI_OK, or CLI_ERROR when
 * out of memory.
 */
extern int cli_mf_fairshare_why(const cli_mf_explain_t *x, uint32_t a,
				uint32_t b, FILE *out);

/*
 * prism whatif under policy=multifactor (cli_mf_view.c): each pending row
 * of 'x' with its priority now (its terms added up) and under 'ch'
 * (prism_mf_whatif_prio(), the factors a weight of 0 hides read from the
 * job's records) into 'out' (room for x->factor_cnt), *cnt of them.
 * CLI_OK, or CLI_ERROR with one line on 'err' (a job whose new priority
 * cannot be known, out of memory).
 */
extern int cli_mf_whatif(const cli_mf_explain_t *x, const prism_mf_change_t *ch,
			 prism_whatif_job_t *out, uint32_t *cnt, FILE *err);

#endif /* PRISM_CLI_H */
