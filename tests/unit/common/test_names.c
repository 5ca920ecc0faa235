/*****************************************************************************\
 *  test_names.c - unit tests of prism_names: entries added in order and
 *  found by name (case matters) across growth, zeroed when new, and bad
 *  parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_names.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

typedef struct {
	const char *name;
	int value;
} _ent_t;

/* Names added in this order; 'idx' is the index each must get. */
static const struct {
	const char *name;
	uint32_t idx;
} adds[] = {
	{ "bob", 0 },
	{ "alice", 1 },
	{ "Bob", 2 },		/* case matters */
	{ "bob", 0 },		/* again: the same entry */
	{ "", 3 },
	{ "gres/gpu", 4 },
};

START_TEST(test_add)
{
	prism_names_t t;

	prism_names_init(&t, sizeof(_ent_t));
	for (int i = 0; i < N(adds); i++) {
		uint32_t idx = PRISM_NAMES_NONE;
		_ent_t *e = prism_names_add(&t, adds[i].name, &idx);

		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(idx, adds[i].idx);
		if (!e->name) {		/* new: zeroed */
			ck_assert_int_eq(e->value, 0);
			e->name = prism_names_name(&t, idx);
			e->value = (int) idx + 100;
		}
		ck_assert_str_eq(e->name, adds[i].name);
	}
	ck_assert_uint_eq(t.n, 5);
	for (int i = 0; i < N(adds); i++) {
		_ent_t *e = prism_names_at(&t, adds[i].idx);

		ck_assert_uint_eq(prism_names_find(&t, adds[i].name),
				  adds[i].idx);
		ck_assert_int_eq(e->value, (int) adds[i].idx + 100);
		ck_assert_str_eq(prism_names_name(&t, adds[i].idx),
				 adds[i].name);
	}
	ck_assert_uint_eq(prism_names_find(&t, "carol"), PRISM_NAMES_NONE);
	prism_names_free(&t);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_uint_eq(prism_names_find(&t, "bob"), PRISM_NAMES_NONE);
}
END_TEST

/* Many names: the slots and entries grow, every handle stays. */
START_TEST(test_grow)
{
	prism_names_t t;
	char name[32];

	prism_names_init(&t, sizeof(int));
	for (int i = 0; i < 5000; i++) {
		uint32_t idx;
		int *v;

		snprintf(name, sizeof(name), "user%d", i);
		v = prism_names_add(&t, name, &idx);
		ck_assert_ptr_nonnull(v);
		ck_assert_uint_eq(idx, (uint32_t) i);
		*v = i;
	}
	ck_assert_uint_ge(t.nslot, 2 * t.n);
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "user%d", i);
		ck_assert_uint_eq(prism_names_find(&t, name), (uint32_t) i);
		ck_assert_int_eq(*(int *) prism_names_at(&t, (uint32_t) i), i);
	}
	prism_names_free(&t);
}
END_TEST

START_TEST(test_dup)
{
	char *d = prism_names_dup("copy me");

	ck_assert_str_eq(d, "copy me");
	free(d);
}
END_TEST

START_TEST(test_bad_param)
{
	prism_names_t t;

	prism_names_init(&t, sizeof(int));
	/* an empty table answers nothing */
	ck_assert_uint_eq(prism_names_find(&t, "x"), PRISM_NAMES_NONE);
	ck_assert_ptr_null(prism_names_at(&t, 0));
	ck_assert_ptr_null(prism_names_name(&t, 0));
	ck_assert_ptr_nonnull(prism_names_add(&t, "x", NULL));
	/* an index out of range */
	ck_assert_ptr_null(prism_names_at(&t, 1));
	ck_assert_ptr_null(prism_names_name(&t, PRISM_NAMES_NONE));
	prism_names_free(&t);
	prism_names_free(NULL);
}
END_TEST

extern Suite *names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_dup);
	tcase_add_test(tc, test_bad_param);
	suite_add_tcase(s, tc);
	return s;
}
