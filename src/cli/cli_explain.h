/*****************************************************************************\
 *  cli_explain.h - prism explain, compare and whatif (cli_explain.c):
 *  the controller's records they read (cli_records_t, loaded and freed
 *  here), each policy's explain and whatif over them, and the three
 *  subcommands.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_EXPLAIN_H
#define PRISM_CLI_EXPLAIN_H

#include "prism_cli.h"
#include "prism_params.h"
#include "prism_whatif.h"

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

/* The policy table's entry (cli_policy.h). */
struct cli_policy;

/* Each policy's explain and whatif: the entries of the policy table
 * (cli_policy.h, whose comments say what they do). */
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
			    const struct cli_policy **entry, char *path,
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

extern int cli_explain(int argc, char **argv);
extern int cli_compare(int argc, char **argv);
extern int cli_whatif(int argc, char **argv);

#endif /* PRISM_CLI_EXPLAIN_H */
