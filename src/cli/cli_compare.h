/*****************************************************************************\
 *  cli_compare.h - prism compare's view of two jobs (cli_compare.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_COMPARE_H
#define PRISM_CLI_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "cli_explain.h"
#include "prism_params.h"

/*
 * prism compare (cli_compare.c): the sprio rows of jobs 'a' and 'b' in
 * 'r' (in a partition both share, else each one's first) term by term
 * under policy 'kind', the difference of each and the terms that decide
 * their order, to 'out'. CLI_OK, or CLI_ERROR with one line on 'err' per
 * job that has no row (not found, not pending, held).
 */
extern int cli_compare_print(const cli_records_t *r, prism_policy_t kind,
			     uint32_t a, uint32_t b, FILE *out, FILE *err);

#endif /* PRISM_CLI_COMPARE_H */
