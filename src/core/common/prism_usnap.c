/*****************************************************************************\
 *  prism_usnap.c - the usage snapshot image (see prism_usnap.h).
 *
 *  Header (PRISM_USNAP_HEAD bytes, native byte order):
 *       0  magic "PRSMUSNP"
 *       8  uint32 version        12  uint32 LD (bytes of a long double)
 *      16  uint32 0x01020304     20  uint32 tres_cnt
 *      24  int64 last_recalc     32  int64 last_reset
 *      40  int64 taken           48  uint32 assoc_cnt
 *      52  uint32 qos_cnt        56  8 bytes zero
 *  Record, unaligned (16 + LD + n * (4 + LD) bytes):
 *       0  uint32 id             4  uint32 n (TRES usages stored)
 *       8  double grp_used_wall  16  long double usage_raw
 *      then n uint32 TRES indexes (ascending, < tres_cnt), then their n
 *      long double usages
 *  Trailer: uint64 checksum of all the bytes before it.
 *  LD is 10 where a long double is x87's 80-bit format (its 6 padding
 *  bytes are not stored), else sizeof(long double).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <float.h>
#include <inttypes.h>
#include <string.h>

#include "prism_format.h"
#include "prism_usnap.h"

static const char magic[8] = { 'P', 'R', 'S', 'M', 'U', 'S', 'N', 'P' };
#define BOM 0x01020304u
#if (LDBL_MANT_DIG == 64) && (LDBL_MAX_EXP == 16384)
#define LD 10
#else
#define LD sizeof(long double)
#endif
/* a record without TRES usages */
#define REC_FIXED (16 + LD)
/* an image is at most 4 GiB (offsets fit in 32 bits) */
#define IMAGE_MAX ((uint64_t) UINT32_MAX)

/* Native-order stores and loads at any alignment. */
static void _put32(char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void _put64(char *p, int64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint32_t _get32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int64_t _get64(const char *p)
{
	int64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A long double from its LD stored bytes. */
static long double _get_ld(const char *p)
{
	long double v = 0;

	memcpy(&v, p, LD);
	return v;
}

extern size_t prism_usnap_rec_max(uint32_t tres_cnt)
{
	return REC_FIXED + (uint64_t) tres_cnt * (4 + LD);
}

extern size_t prism_usnap_max_size(const prism_usnap_head_t *h)
{
	uint64_t n = (uint64_t) h->assoc_cnt + h->qos_cnt;
	uint64_t rec = prism_usnap_rec_max(h->tres_cnt);
	uint64_t size;

	if ((h->tres_cnt > PRISM_USNAP_TRES_MAX) ||
	    (n && (rec > IMAGE_MAX / n)))
		return 0;
	size = PRISM_USNAP_HEAD + n * rec + 8;
	return (size > IMAGE_MAX) ? 0 : (size_t) size;
}

/*
 * Is the long double at 'p' non-zero (-0 counts as zero)? Where it is
 * x87's 80-bit format, from its bytes: the 64-bit significand and the
 * 15-bit exponent (the sign left out) are both zero only for a zero. An
 * integer test instead of loading each into the x87 stack to compare.
 */
static inline bool _nonzero(const long double *p)
{
#if LD == 10
	uint64_t m;
	uint16_t e;

	memcpy(&m, p, sizeof(m));
	memcpy(&e, (const char *) p + 8, sizeof(e));
	return (m | (e & 0x7fffu)) != 0;
#else
	return *p != 0.0L;
#endif
}

extern void prism_usnap_put(char *buf, size_t *pos, uint32_t tres_cnt,
			    const prism_usnap_rec_t *r, const long double *tres)
{
	char *p = buf + *pos;
	uint32_t n = 0;

	_put32(p, r->id);
	memcpy(p + 8, &r->grp_used_wall, sizeof(double));
	memcpy(p + 16, &r->usage_raw, LD);
	if (tres) {
		char *idx = p + REC_FIXED;

		for (uint32_t t = 0; t < tres_cnt; t++)
			if (_nonzero(&tres[t]))
				_put32(idx + 4 * n++, t);
		for (uint32_t k = 0; k < n; k++)
			memcpy(idx + 4 * n + LD * k, &tres[_get32(idx + 4 * k)],
			       LD);
	}
	_put32(p + 4, n);
	*pos += REC_FIXED + (size_t) n * (4 + LD);
}

/* The next 8 bytes at 'p', native order. */
static inline uint64_t _word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

extern uint64_t prism_usnap_checksum(const char *buf, size_t len)
{
	const uint64_t prime = 0x100000001b3ull;
	/* four independent lanes, each in a register: a multiply's latency
	 * is not on one chain, and no lane goes through memory */
	uint64_t l0 = 0xcbf29ce484222325ull, l1 = 0x84222325cbf29ce4ull;
	uint64_t l2 = 0x9e3779b97f4a7c15ull, l3 = 0xbf58476d1ce4e5b9ull;
	uint64_t h, w;
	size_t i = 0;

	for (; i + 32 <= len; i += 32) {
		l0 = (l0 ^ _word(buf + i)) * prime;
		l1 = (l1 ^ _word(buf + i + 8)) * prime;
		l2 = (l2 ^ _word(buf + i + 16)) * prime;
		l3 = (l3 ^ _word(buf + i + 24)) * prime;
	}
	/* up to three whole words left: lanes 0, 1 and 2 in turn */
	if (i + 8 <= len) {
		l0 = (l0 ^ _word(buf + i)) * prime;
		i += 8;
	}
	if (i + 8 <= len) {
		l1 = (l1 ^ _word(buf + i)) * prime;
		i += 8;
	}
	if (i + 8 <= len) {
		l2 = (l2 ^ _word(buf + i)) * prime;
		i += 8;
	}
	/* the last 0-7 bytes and their count into lane 3 */
	w = 0;
	memcpy(&w, buf + i, len - i);
	l3 = (l3 ^ w ^ ((uint64_t) (len - i) << 56)) * prime;
	/* combine with the length, then splitmix64's finaliser */
	h = (uint64_t) len;
	h = (h ^ l0) * 0xff51afd7ed558ccdull;
	h = (h ^ l1) * 0xff51afd7ed558ccdull + 1;
	h = (h ^ l2) * 0xff51afd7ed558ccdull + 2;
	h = (h ^ l3) * 0xff51afd7ed558ccdull + 3;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h;
}

extern size_t prism_usnap_end(char *buf, size_t pos,
			      const prism_usnap_head_t *h)
{
	memset(buf, 0, PRISM_USNAP_HEAD);
	memcpy(buf, magic, sizeof(magic));
	_put32(buf + 8, PRISM_USNAP_VERSION);
	_put32(buf + 12, (uint32_t) LD);
	_put32(buf + 16, BOM);
	_put32(buf + 20, h->tres_cnt);
	_put64(buf + 24, h->last_recalc);
	_put64(buf + 32, h->last_reset);
	_put64(buf + 40, h->taken);
	_put32(buf + 48, h->assoc_cnt);
	_put32(buf + 52, h->qos_cnt);
	_put64(buf + pos, (int64_t) prism_usnap_checksum(buf, pos));
	return pos + 8;
}

/*
 * Check that 'cnt' whole records of 'h' lie in buf[PRISM_USNAP_HEAD, end)
 * and end exactly there. Returns 0, or -1 with err set.
 */
static int _check_records(const char *buf, size_t end,
			  const prism_usnap_head_t *h, prism_error_t *err)
{
	uint64_t cnt = (uint64_t) h->assoc_cnt + h->qos_cnt;
	size_t pos = PRISM_USNAP_HEAD;

	for (uint64_t i = 0; i < cnt; i++) {
		uint32_t n, last = 0;

		if (end - pos < REC_FIXED)
			goto truncated;
		n = _get32(buf + pos + 4);
		if (n > h->tres_cnt) {
			prism_error_set(err, "record %" PRIu64 " has %u TRES of %u",
					i, n, h->tres_cnt);
			return -1;
		}
		if ((end - pos - REC_FIXED) / (4 + LD) < n)
			goto truncated;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t t = _get32(buf + pos + REC_FIXED + 4 * k);

			if ((t >= h->tres_cnt) || (k && (t <= last))) {
				prism_error_set(err, "record %" PRIu64 ": bad TRES index %u",
						i, t);
				return -1;
			}
			last = t;
		}
		pos += REC_FIXED + (size_t) n * (4 + LD);
	}
	if (pos != end) {
		prism_error_set(err, "%zu bytes after the last record",
				end - pos);
		return -1;
	}
	return 0;
truncated:
	prism_error_set(err, "truncated (records end past %zu bytes)", end);
	return -1;
}

extern int prism_usnap_parse(const char *buf, size_t len,
			     prism_usnap_head_t *h, prism_error_t *err)
{
	prism_usnap_head_t got;
	uint32_t version;

	/* the magic and the format first: a later format may differ in
	 * everything after them */
	if (len < sizeof(magic) + 4) {
		prism_error_set(err, "truncated (%zu bytes)", len);
		return -1;
	}
	if (memcmp(buf, magic, sizeof(magic))) {
		prism_error_set(err, "not a usage snapshot (bad magic)");
		return -1;
	}
	version = _get32(buf + 8);
	if (prism_format_check("usage snapshot", version, PRISM_USNAP_VERSION,
			       PRISM_USNAP_VERSION, err))
		return version > PRISM_USNAP_VERSION ? PRISM_FORMAT_NEWER : -1;
	if (len < PRISM_USNAP_HEAD + 8) {
		prism_error_set(err, "truncated (%zu bytes)", len);
		return -1;
	}
	if ((_get32(buf + 12) != LD) || (_get32(buf + 16) != BOM)) {
		prism_error_set(err, "written on another kind of machine");
		return -1;
	}
	if (len > IMAGE_MAX) {
		prism_error_set(err, "larger than %" PRIu64 " bytes",
				IMAGE_MAX);
		return -1;
	}
	if ((uint64_t) _get64(buf + len - 8) !=
	    prism_usnap_checksum(buf, len - 8)) {
		prism_error_set(err, "checksum mismatch (%zu bytes)", len);
		return -1;
	}
	got = (prism_usnap_head_t) {
		.tres_cnt = _get32(buf + 20),
		.last_recalc = _get64(buf + 24),
		.last_reset = _get64(buf + 32),
		.taken = _get64(buf + 40),
		.assoc_cnt = _get32(buf + 48),
		.qos_cnt = _get32(buf + 52),
	};
	if (!prism_usnap_max_size(&got)) {
		prism_error_set(err, "counts out of range (%u TRES, %u associations, %u QOS)",
				got.tres_cnt, got.assoc_cnt, got.qos_cnt);
		return -1;
	}
	if (_check_records(buf, len - 8, &got, err))
		return -1;
	*h = got;
	return 0;
}

extern void prism_usnap_next(const char *buf, const prism_usnap_head_t *h,
			     size_t *pos, prism_usnap_rec_t *r,
			     long double *tres)
{
	const char *p = buf + *pos;
	uint32_t n = _get32(p + 4);

	r->id = _get32(p);
	memcpy(&r->grp_used_wall, p + 8, sizeof(double));
	r->usage_raw = _get_ld(p + 16);
	if (tres) {
		const char *idx = p + REC_FIXED;

		memset(tres, 0, sizeof(*tres) * h->tres_cnt);
		for (uint32_t k = 0; k < n; k++)
			tres[_get32(idx + 4 * k)] =
				_get_ld(idx + 4 * n + LD * k);
	}
	*pos += REC_FIXED + (size_t) n * (4 + LD);
}

extern prism_usnap_use_t prism_usnap_decide(const prism_usnap_head_t *h,
					    int64_t last_recalc,
					    int64_t slurm_saved,
					    int64_t begun)
{
	prism_usnap_use_t use = { false, false, false };

	if (h->last_recalc < last_recalc)
		return use;
	use.adopt_times = h->last_recalc > last_recalc;
	use.in_pass = (slurm_saved > h->taken) && (begun > h->last_recalc) &&
		      (slurm_saved >= begun);
	use.apply = (slurm_saved <= h->taken) || use.in_pass;
	return use;
}
