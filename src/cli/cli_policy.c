/*****************************************************************************\
 *  cli_policy.c - the prism command's table of policies: what `prism
 *  check` and `prism explain` do under each. A new policy is one line
 *  here (docs/ADDING-A-POLICY.md).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "cli_check.h"
#include "cli_explain.h"
#include "cli_policy.h"

static const cli_policy_t policies[] = {
	{
		.kind = PRISM_POLICY_MULTIFACTOR,
		.reads_file = false,
		.explain = cli_explain_multifactor,
		.json_ok = true,
		.reads_assocs = true,
		.whatif = cli_whatif_multifactor,
	},
	{
		.kind = PRISM_POLICY_MOAB,
		.reads_file = true,
		.check = cli_check_moab,
		.explain = cli_explain_moab,
		.whatif = cli_whatif_moab,
		.whatif_file = true,
	},
	{
		.kind = PRISM_POLICY_GRIDENGINE,
		.reads_file = true,
		.check = cli_check_gridengine,
		.explain = cli_explain_ge,
		.whatif = cli_whatif_ge,
		.whatif_file = true,
		.whatif_assocs = true,	/* the share tree */
	},
};

extern const cli_policy_t *cli_policy_find(prism_policy_t kind)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].kind == kind)
			return &policies[i];
	return &policies[0];
}
