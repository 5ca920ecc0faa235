/*****************************************************************************\
 *  fuzz_common.h - helpers shared by Prism's libFuzzer targets.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_FUZZ_COMMON_H
#define PRISM_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "prism_state.h"

/* A property the code under test must keep: abort (a libFuzzer crash). */
#define FUZZ_CHECK(cond, ...)                                              \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s: ",       \
				__FILE__, __LINE__, #cond);                \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
			abort();                                           \
		}                                                          \
	} while (0)

/* An error text must be NUL-terminated within its buffer, not empty and
 * not cut (prism_error.h: the buffer is a bound on every message). */
#define FUZZ_CHECK_ERR(e)                                                  \
	FUZZ_CHECK(memchr((e).text, '\0', sizeof((e).text)) &&             \
		   (e).text[0] != '\0' && !prism_error_cut(&(e)),          \
		   "error text not set, or cut")

/* An exact-size heap copy of data, so ASan sees any read past its end. */
static inline char *fuzz_dup(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);

	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	return p;
}

/*
 * A copy of data that ends right before an unmapped page, in one of two
 * reusable slots. ASan does not see reads done inside libc functions it
 * does not intercept (strtoul, ...); a read past the end of this copy
 * faults instead (SEGV, which libFuzzer reports as a crash). Inputs
 * larger than a slot get an ordinary exact-size heap copy.
 */
#define FUZZ_GUARD_SLOT (1u << 20)

static inline char *fuzz_guarded(int slot, const uint8_t *data, size_t size)
{
	static char *base[2];
	static size_t page;

	if (slot < 0 || slot > 1)
		abort();
	if (!base[slot]) {
		void *m;

		page = (size_t) sysconf(_SC_PAGESIZE);
		m = mmap(NULL, FUZZ_GUARD_SLOT + page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED ||
		    mprotect((char *) m + FUZZ_GUARD_SLOT, page, PROT_NONE))
			abort();
		base[slot] = m;
	}
	if (size > FUZZ_GUARD_SLOT)
		return NULL;
	if (size)
		memcpy(base[slot] + FUZZ_GUARD_SLOT - size, data, size);
	return base[slot] + FUZZ_GUARD_SLOT - size;
}

/*
 * Prism's state texts end with "checksum HEX\n", HEX the FNV-1a hash of
 * all that comes before. A fuzzer hardly ever guesses it, so targets also
 * parse a "fixed" copy of the input: the input without a final checksum
 * line (and with a newline at its end), followed by the right checksum
 * line. Returns a malloc'd buffer of *out_len bytes (exact size).
 */
static inline char *fuzz_fix_checksum(const uint8_t *data, size_t size,
				      size_t *out_len)
{
	size_t body = size, start;
	char tail[32];
	int n;
	char *out;

	if (body && data[body - 1] == '\n') {
		start = body - 1;
		while (start > 0 && data[start - 1] != '\n')
			start--;
		if (body - start >= 8 &&
		    !memcmp(data + start, "checksum", 8))
			body = start;
	}
	out = malloc(body + 1 + sizeof(tail));
	if (!out)
		abort();
	memcpy(out, data, body);
	if (body && out[body - 1] != '\n')
		out[body++] = '\n';
	n = snprintf(tail, sizeof(tail), "checksum %08x\n",
		     (unsigned) prism_state_checksum(out, body));
	memcpy(out + body, tail, (size_t) n);
	*out_len = body + (size_t) n;
	/* shrink to the exact size so ASan catches reads past the end */
	{
		char *exact = fuzz_dup((const uint8_t *) out, *out_len);

		free(out);
		out = exact;
	}
	return out;
}

#endif /* PRISM_FUZZ_COMMON_H */
