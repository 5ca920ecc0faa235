/*****************************************************************************\
 *  prism_params.h - PriorityParameters= of slurm.conf, as Prism reads it:
 *  which policy drives the priorities and where its file is.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_PARAMS_H
#define PRISM_PARAMS_H

#include <stddef.h>

#include "prism_error.h"

/*
 * Notes
 *
 * Syntax: comma-separated KEY=VALUE items, e.g.
 *     PriorityParameters=policy=moab,config=/etc/slurm/moab-prio.cfg
 * Keys: policy (multifactor, the default; moab; gridengine) and config
 * (an absolute path; without it the policy file is prism.conf next to
 * slurm.conf). Keys and policy names are matched without regard to case;
 * an unknown key, an unknown policy, a key given twice, an empty value, a
 * relative config path, a config for policy=multifactor (which reads no
 * file) and non-printable bytes are errors.
 */

/* Longest PriorityParameters value accepted. */
#define PRISM_PARAMS_MAX 4096

typedef enum {
	PRISM_POLICY_MULTIFACTOR,
	PRISM_POLICY_MOAB,
	PRISM_POLICY_GRIDENGINE,
} prism_policy_t;

typedef struct {
	prism_policy_t policy;
	char config[PRISM_PARAMS_MAX];	/* "" when not given */
} prism_params_t;

/*
 * Read 'text' (NULL or "" gives the defaults) into 'out'. Returns 0, or -1
 * with err saying what is wrong ("PriorityParameters: ..."); 'out' is left
 * untouched on failure.
 */
extern int prism_params_parse(const char *text, prism_params_t *out,
			      prism_error_t *err);

/* The name of 'policy' as PriorityParameters spells it. */
extern const char *prism_policy_name(prism_policy_t policy);

/*
 * The policy file to read: params->config, or prism.conf in the
 * directory of 'slurm_conf_path'. Writes it into 'buf' of 'size' bytes.
 * Returns 0, or -1 with err set when it does not fit.
 */
extern int prism_params_config_path(const prism_params_t *params,
				    const char *slurm_conf_path, char *buf,
				    size_t size, prism_error_t *err);

#endif /* PRISM_PARAMS_H */
