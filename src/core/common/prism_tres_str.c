/*****************************************************************************\
 *  prism_tres_str.c - one entry of a TRES string (see prism_tres_str.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prism_tres_str.h"

/* MB in one unit of 'suffix' (K, M, G, T, P), 0 for an unknown suffix. */
static double _unit_mb(char suffix)
{
	switch (toupper((unsigned char) suffix)) {
	case 'K':
		return 1.0 / 1024.0;
	case 'M':
		return 1.0;
	case 'G':
		return 1024.0;
	case 'T':
		return 1024.0 * 1024.0;
	case 'P':
		return 1024.0 * 1024.0 * 1024.0;
	default:
		return 0.0;
	}
}

extern int prism_tres_str_get(const char *tres, const char *name,
			      uint64_t *val)
{
	size_t n;

	if (!name || !val)
		return -1;
	if (!tres) {
		*val = 0;
		return 0;
	}
	n = strlen(name);
	for (const char *s = tres; *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t) (end - s) : strlen(s);

		if (len > n && s[n] == '=' && !strncasecmp(s, name, n)) {
			char num[64], *rest;
			double v, unit = 1.0;

			if (len - n - 1 >= sizeof(num) || len == n + 1)
				return -1;
			memcpy(num, s + n + 1, len - n - 1);
			num[len - n - 1] = '\0';
			errno = 0;
			v = strtod(num, &rest);
			if (rest == num || errno || !isfinite(v) || v < 0)
				return -1;
			if (*rest) {
				unit = _unit_mb(*rest);
				if (!unit || rest[1])
					return -1;
			}
			v = ceil(v * unit);
			if (v >= 18446744073709551615.0)
				return -1;
			*val = (uint64_t) v;
			return 0;
		}
		s += len;
		if (*s == ',')
			s++;
	}
	*val = 0;
	return 0;
}
