/*****************************************************************************\
 *  prism_saved_policy.h - the policy in force, kept as text.
 *
 *  Slurm 23.11 and later carry out `scontrol reconfigure` by starting a
 *  new slurmctld process: the policy in force is then gone from memory.
 *  The plugin keeps a copy of what it put in force (PriorityParameters,
 *  the policy file's path and its text) in StateSaveLocation, so that a
 *  process started by a reconfigure whose new file is bad goes on with
 *  the policy in force before, as an in-process reconfigure does.
 *
 *  Format (text; the policy's text last, as it was read):
 *      prism-saved-policy 1
 *      params PRIORITY_PARAMETERS
 *      path PATH                  (empty: the policy reads no file)
 *      length N                   (bytes of text that follow)
 *      <blank line>
 *      TEXT
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_SAVED_POLICY_H
#define PRISM_SAVED_POLICY_H

#include <stddef.h>

#include "prism_error.h"
#include "prism_params.h"

/* A saved policy, as prism_saved_policy_parse() reads it: 'text' points
 * into the buffer parsed. */
typedef struct {
	char params[PRISM_PARAMS_MAX + 1];
	char path[PRISM_PARAMS_MAX + 64];
	const char *text;	/* NULL when len is 0 */
	size_t len;
} prism_saved_policy_t;

/*
 * The saved form of PriorityParameters 'params' (NULL: empty), the file
 * 'path' (NULL: none) and its 'len' bytes of 'text', as a new buffer the
 * caller frees with free(), of *out_len bytes (NUL-terminated besides).
 * Returns NULL with err set when params or path hold a newline or are too
 * long, or when out of memory.
 */
extern char *prism_saved_policy_format(const char *params, const char *path,
				       const char *text, size_t len,
				       size_t *out_len, prism_error_t *err);

/*
 * Read the saved form 'buf' of 'len' bytes into 'out'. Returns 0, or -1
 * with err set (not this format, a line missing or too long, a length
 * that does not match the text) and 'out' unspecified.
 */
extern int prism_saved_policy_parse(const char *buf, size_t len,
				    prism_saved_policy_t *out,
				    prism_error_t *err);

#endif /* PRISM_SAVED_POLICY_H */
