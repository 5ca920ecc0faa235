/*****************************************************************************\
 *  cli_mf_view.h - explain's multifactor view, compare's Fair Tree
 *  paths and whatif under policy=multifactor (cli_mf_view.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_MF_VIEW_H
#define PRISM_CLI_MF_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

#include "prism_mf_whatif.h"
#include "prism_whatif.h"

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

#endif /* PRISM_CLI_MF_VIEW_H */
