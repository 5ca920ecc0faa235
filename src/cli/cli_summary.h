/*****************************************************************************\
 *  cli_summary.h - what a Moab or Grid Engine policy will do, on one
 *  screen (cli_summary.c; prism check --summary).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_SUMMARY_H
#define PRISM_CLI_SUMMARY_H

#include <stdio.h>

#include "prism_ge_conf.h"
#include "prism_moab_conf.h"

/*
 * Print to 'out' what the policy 'pol' will do, on one screen: the
 * components in force with weights and caps, the credentials with
 * priorities and targets, the fair-share settings and bounds, how many
 * things were ignored. Never fails.
 */
extern void cli_moab_summary(const prism_moab_policy_t *pol, FILE *out);
extern void cli_ge_summary(const prism_ge_policy_t *pol, FILE *out);

#endif /* PRISM_CLI_SUMMARY_H */
