/*****************************************************************************\
 *  test_ge_diag.c - unit tests of prism_ge_diag: a row read back from
 *  sprio columns made by prism_ge_sprio() (round trip), values that
 *  cannot be read back, the qstat -pri and -urg lines (exact text,
 *  columns under their headers), small buffers and bad parameters.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_ge_diag.h"
#include "test_core.h"

#define N(a) ((int) (sizeof(a) / sizeof((a)[0])))

static prism_ge_policy_t *_policy(const char *text)
{
	prism_ge_policy_t *pol = NULL;
	prism_error_t err = { "" };

	ck_assert_msg(!prism_ge_conf_parse(text, strlen(text), "ge.conf", &pol,
					   &err),
		      "%s", err.text);
	return pol;
}

/* A result with the normalised values and urgency given, through the
 * Slurm mapping as a pass makes it. */
static prism_ge_result_t _result(const prism_ge_policy_t *pol, double nurg,
				 double ntckts, double npprior)
{
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	prism_ge_result_t r = {
		.rrcontr = 4000, .wtcontr = 1000.8, .dlcontr = 0,
		.urg = 5000.8, .nurg = nurg, .ntckts = ntckts,
		.npprior = npprior,
	};

	r.prio = p->weight_urgency * nurg + p->weight_ticket * ntckts +
		 p->weight_priority * npprior;
	r.slurm = prism_ge_to_slurm(pol, r.prio);
	return r;
}

/* ---- reading sprio columns back --------------------------------------- */

static const struct {
	const char *policy;
	double nurg, ntckts, npprior;
	const char *what;
} trips[] = {
	{ "# defaults\n", 1.0, 0.5, 0.5, "defaults: posix weight 0 reads back as NAN" },
	{ "weight_priority 1\n", 0.25, 0.75, 0.6, "all three weights" },
	{ "weight_priority 0.1\nweight_urgency 1\nweight_ticket 0.01\n",
	  0.0, 1.0, 0.5, "stock Grid Engine's weights" },
};

START_TEST(test_round_trip)
{
	prism_ge_policy_t *pol = _policy(trips[_i].policy);
	const prism_ge_params_t *p = prism_ge_policy_params(pol);
	prism_ge_result_t r = _result(pol, trips[_i].nurg, trips[_i].ntckts,
				      trips[_i].npprior);
	prism_error_t err = { "" };
	prism_ge_sprio_t c;
	prism_ge_diag_row_t row;

	ck_assert(!prism_ge_sprio(pol, &r, &c, &err));
	ck_assert(!prism_ge_diag_row_fill(pol, "12", r.slurm, &c, &r, 7, &row,
					  &err));
	ck_assert_str_eq(row.label, "12");
	ck_assert(row.known);
	ck_assert_uint_eq(row.slurm, r.slurm);
	ck_assert_msg(fabs(row.prio - r.prio) < 1e-6, "%s: prio %f, want %f",
		      trips[_i].what, row.prio, r.prio);
	ck_assert_msg(fabs(row.nurg - r.nurg) < 1e-6, "%s: nurg %f",
		      trips[_i].what, row.nurg);
	ck_assert_msg(fabs(row.ntckts - r.ntckts) < 1e-6, "%s: ntckts %f",
		      trips[_i].what, row.ntckts);
	if (p->weight_priority > 0)
		ck_assert_msg(fabs(row.npprior - r.npprior) < 1e-6,
			      "%s: npprior %f", trips[_i].what, row.npprior);
	else
		ck_assert_msg(isnan(row.npprior), "%s", trips[_i].what);
	ck_assert_int_eq(row.ppri, 7);
	ck_assert(row.urg == r.urg && row.rrcontr == r.rrcontr &&
		  row.wtcontr == r.wtcontr && row.dlcontr == r.dlcontr);
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_no_columns)
{
	prism_ge_policy_t *pol = _policy("# defaults\n");
	prism_ge_result_t r = _result(pol, 1.0, 0.0, 0.5);
	prism_error_t err = { "" };
	prism_ge_diag_row_t row;
	char buf[256];

	ck_assert(!prism_ge_diag_row_fill(pol, "99", r.slurm, NULL, &r, 0, &row,
					  &err));
	ck_assert(!row.known);
	ck_assert(isnan(row.nurg) && isnan(row.ntckts) && isnan(row.npprior));
	ck_assert_int_gt(prism_ge_diag_pri_row(&row, buf, sizeof(buf), &err), 0);
	ck_assert_str_eq(buf, "99         0.50000       -       -       -     0\n");
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- the lines ---------------------------------------------------------- */

START_TEST(test_lines)
{
	prism_ge_policy_t *pol = _policy("weight_priority 1\n");
	prism_ge_result_t r = _result(pol, 0.25, 0.75, 0.6);
	prism_error_t err = { "" };
	prism_ge_sprio_t c;
	prism_ge_diag_row_t row;
	char head[256], line[256];
	int n;

	ck_assert(!prism_ge_sprio(pol, &r, &c, &err));
	ck_assert(!prism_ge_diag_row_fill(pol, "1234", r.slurm, &c, &r, -5,
					  &row, &err));

	n = prism_ge_diag_pri_header(head, sizeof(head), &err);
	ck_assert_int_eq(n, (int) strlen(head));
	ck_assert_str_eq(head,
			 "job-ID     prior   nurg    npprior ntckts   ppri\n"
			 "------------------------------------------------\n");
	n = prism_ge_diag_pri_row(&row, line, sizeof(line), &err);
	ck_assert_int_eq(n, (int) strlen(line));
	ck_assert_str_eq(line,
			 "1234       1.10000 0.25000 0.60000 0.75000    -5\n");
	/* each row as wide as its header */
	ck_assert_uint_eq(strchr(head, '\n') - head, strlen(line) - 1);

	n = prism_ge_diag_urg_header(head, sizeof(head), &err);
	ck_assert_int_eq(n, (int) strlen(head));
	ck_assert_str_eq(head,
			 "job-ID     prior   nurg             urg   rrcontr   wtcontr   dlcontr\n"
			 "---------------------------------------------------------------------\n");
	n = prism_ge_diag_urg_row(&row, line, sizeof(line), &err);
	ck_assert_int_eq(n, (int) strlen(line));
	ck_assert_str_eq(line,
			 "1234       1.10000 0.25000         5001      4000      1001         0\n");
	ck_assert_uint_eq(strchr(head, '\n') - head, strlen(line) - 1);
	prism_ge_policy_free(pol);
}
END_TEST

/* ---- small buffers and bad parameters --------------------------------- */

START_TEST(test_small_buffers)
{
	prism_ge_policy_t *pol = _policy("# defaults\n");
	prism_ge_result_t r = _result(pol, 0.5, 0.5, 0.5);
	prism_error_t err = { "" };
	prism_ge_diag_row_t row;
	char buf[256];
	int need;

	ck_assert(!prism_ge_diag_row_fill(pol, "1", r.slurm, NULL, &r, 0, &row,
					  &err));
	need = prism_ge_diag_pri_row(&row, buf, sizeof(buf), &err);
	ck_assert_int_gt(need, 0);
	ck_assert_int_eq(prism_ge_diag_pri_row(&row, buf, (size_t) need, &err),
			 -1);
	ck_assert(strstr(err.text, "too small"));
	ck_assert_int_eq(prism_ge_diag_pri_row(&row, buf, (size_t) need + 1,
					       &err),
			 need);
	need = prism_ge_diag_urg_row(&row, buf, sizeof(buf), &err);
	ck_assert_int_eq(prism_ge_diag_urg_row(&row, buf, (size_t) need, &err),
			 -1);
	need = prism_ge_diag_pri_header(buf, sizeof(buf), &err);
	ck_assert_int_eq(prism_ge_diag_pri_header(buf, (size_t) need, &err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_pri_header(buf, (size_t) need + 1,
						  &err),
			 need);
	need = prism_ge_diag_urg_header(buf, sizeof(buf), &err);
	ck_assert_int_eq(prism_ge_diag_urg_header(buf, (size_t) need, &err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_urg_header(buf, 0, &err), -1);
	prism_ge_policy_free(pol);
}
END_TEST

START_TEST(test_bad_params)
{
	prism_ge_policy_t *pol = _policy("# defaults\n");
	prism_ge_result_t r = { .urg = 0 };
	prism_error_t err = { "" };
	prism_ge_diag_row_t row = { .label = "keep" };
	char buf[256];

	ck_assert_int_eq(prism_ge_diag_row_fill(NULL, "1", 1, NULL, &r, 0,
						&row, &err),
			 -1);
	ck_assert(strstr(err.text, "NULL argument"));
	ck_assert_str_eq(row.label, "keep");
	ck_assert_int_eq(prism_ge_diag_row_fill(pol, NULL, 1, NULL, &r, 0,
						&row, &err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_row_fill(pol, "1", 1, NULL, NULL, 0,
						&row, &err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_row_fill(pol, "1", 1, NULL, &r, 0, NULL,
						&err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_pri_row(NULL, buf, sizeof(buf), &err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_pri_row(&row, NULL, 10, &err), -1);
	ck_assert_int_eq(prism_ge_diag_urg_row(NULL, buf, sizeof(buf), &err),
			 -1);
	ck_assert_int_eq(prism_ge_diag_pri_header(NULL, 10, &err), -1);
	ck_assert_int_eq(prism_ge_diag_urg_header(NULL, 10, &err), -1);
	prism_ge_policy_free(pol);
}
END_TEST

extern Suite *ge_diag_suite(void)
{
	Suite *s = suite_create("ge_diag");
	TCase *tc = tcase_create("ge_diag");

	tcase_add_loop_test(tc, test_round_trip, 0, N(trips));
	tcase_add_test(tc, test_no_columns);
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_small_buffers);
	tcase_add_test(tc, test_bad_params);
	suite_add_tcase(s, tc);
	return s;
}
