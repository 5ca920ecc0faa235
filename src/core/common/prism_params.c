/*****************************************************************************\
 *  prism_params.c - PriorityParameters= as Prism reads it (see
 *  prism_params.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "prism_params.h"

static const char *policy_names[] = {
	[PRISM_POLICY_MULTIFACTOR] = "multifactor",
	[PRISM_POLICY_MOAB] = "moab",
	[PRISM_POLICY_GRIDENGINE] = "gridengine",
};

extern const char *prism_policy_name(prism_policy_t policy)
{
	if ((size_t) policy >= sizeof(policy_names) / sizeof(policy_names[0]))
		return "unknown";
	return policy_names[policy];
}

static int _policy(const char *value, size_t len, prism_policy_t *out)
{
	for (size_t i = 0; i < sizeof(policy_names) / sizeof(policy_names[0]);
	     i++)
		if (strlen(policy_names[i]) == len &&
		    !strncasecmp(policy_names[i], value, len)) {
			*out = (prism_policy_t) i;
			return 0;
		}
	return -1;
}

/* One "key=value" item of 'len' bytes into 'p'; 'seen' tracks keys. */
static int _item(const char *item, size_t len, prism_params_t *p,
		 unsigned *seen, prism_error_t *err)
{
	const char *eq = memchr(item, '=', len);
	size_t klen, vlen;
	const char *value;

	if (!eq) {
		prism_error_set(err, "PriorityParameters: '%.*s' is not KEY=VALUE",
				(int) len, item);
		return -1;
	}
	klen = eq - item;
	value = eq + 1;
	vlen = len - klen - 1;
	if (!vlen) {
		prism_error_set(err, "PriorityParameters: %.*s has no value",
				(int) klen, item);
		return -1;
	}
	if (klen == 6 && !strncasecmp(item, "policy", 6)) {
		if (*seen & 1)
			goto twice;
		*seen |= 1;
		if (_policy(value, vlen, &p->policy)) {
			prism_error_set(err, "PriorityParameters: unknown policy '%.*s' (multifactor, moab or gridengine)",
					(int) vlen, value);
			return -1;
		}
		return 0;
	}
	if (klen == 6 && !strncasecmp(item, "config", 6)) {
		if (*seen & 2)
			goto twice;
		*seen |= 2;
		if (value[0] != '/') {
			prism_error_set(err, "PriorityParameters: config=%.*s is not an absolute path",
					(int) vlen, value);
			return -1;
		}
		memcpy(p->config, value, vlen);
		p->config[vlen] = '\0';
		return 0;
	}
	prism_error_set(err, "PriorityParameters: unknown key '%.*s' (policy, config)",
			(int) klen, item);
	return -1;
twice:
	prism_error_set(err, "PriorityParameters: %.*s given twice", (int) klen,
			item);
	return -1;
}

extern int prism_params_parse(const char *text, prism_params_t *out,
			      prism_error_t *err)
{
	prism_params_t p = { .policy = PRISM_POLICY_MULTIFACTOR };
	unsigned seen = 0;
	size_t len;

	if (!out) {
		prism_error_set(err, "PriorityParameters: no output");
		return -1;
	}
	if (!text)
		text = "";
	len = strlen(text);
	if (len >= PRISM_PARAMS_MAX) {
		prism_error_set(err, "PriorityParameters: longer than %d bytes",
				PRISM_PARAMS_MAX - 1);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char) text[i] < 0x20 ||
		    (unsigned char) text[i] > 0x7e) {
			prism_error_set(err, "PriorityParameters: byte 0x%02x at offset %zu is not printable",
					(unsigned char) text[i], i);
			return -1;
		}
	for (const char *item = text; len && item <= text + len;) {
		const char *comma = memchr(item, ',', text + len - item);
		size_t ilen = comma ? (size_t) (comma - item) :
				      (size_t) (text + len - item);

		if (!ilen) {
			prism_error_set(err, "PriorityParameters: empty item at offset %zu",
					(size_t) (item - text));
			return -1;
		}
		if (_item(item, ilen, &p, &seen, err))
			return -1;
		if (!comma)
			break;
		item = comma + 1;
	}
	if ((seen & 2) && p.policy == PRISM_POLICY_MULTIFACTOR) {
		prism_error_set(err, "PriorityParameters: config= needs policy=moab or policy=gridengine");
		return -1;
	}
	*out = p;
	return 0;
}

extern int prism_params_config_path(const prism_params_t *params,
				    const char *slurm_conf_path, char *buf,
				    size_t size, prism_error_t *err)
{
	const char *slash;
	int n;

	if (params->config[0])
		n = snprintf(buf, size, "%s", params->config);
	else if (slurm_conf_path &&
		 (slash = strrchr(slurm_conf_path, '/')))
		n = snprintf(buf, size, "%.*s/prism.conf",
			     (int) (slash - slurm_conf_path), slurm_conf_path);
	else
		n = snprintf(buf, size, "prism.conf");
	if (n < 0 || (size_t) n >= size) {
		prism_error_set(err, "policy file path longer than %zu bytes",
				size - 1);
		return -1;
	}
	return 0;
}
