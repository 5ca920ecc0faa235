/*****************************************************************************\
 *  cli_whatif.h - prism whatif's report (cli_whatif.c): the line naming
 *  the change and how the order moves.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_WHATIF_H
#define PRISM_CLI_WHATIF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "prism_whatif.h"

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

#endif /* PRISM_CLI_WHATIF_H */
