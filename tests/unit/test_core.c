/*****************************************************************************\
 *  test_core.c - runs every unit-test suite of Prism's core.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>

#include "test_core.h"

int main(void)
{
	SRunner *runner;
	int failed;

	/*
	 * No Check timer: tests check behaviour, never time. Check kills a
	 * case after 4 s by default, and on a loaded machine (the test
	 * command runs cluster tests and compilers beside make check) a
	 * 0.3-s case took longer. Read by tcase_create(), so set first; a
	 * value in the environment is kept.
	 */
	setenv("CK_DEFAULT_TIMEOUT", "0", 0);
	runner = srunner_create(prio_suite());

	srunner_add_suite(runner, fs_suite());
	srunner_add_suite(runner, state_suite());
	srunner_add_suite(runner, passinfo_suite());
	srunner_add_suite(runner, slice_suite());
	srunner_add_suite(runner, usnap_suite());
	srunner_add_suite(runner, usage_suite());
	srunner_add_suite(runner, tres_suite());
	srunner_add_suite(runner, fairtree_suite());
	srunner_add_suite(runner, moab_suite());
	srunner_add_suite(runner, moab_conf_suite());
	srunner_add_suite(runner, moab_diag_suite());
	srunner_add_suite(runner, moab_facts_suite());
	srunner_add_suite(runner, ge_suite());
	srunner_add_suite(runner, ge_conf_suite());
	srunner_add_suite(runner, ge_usage_suite());
	srunner_add_suite(runner, ge_diag_suite());
	srunner_add_suite(runner, ge_facts_suite());
	srunner_add_suite(runner, params_suite());
	srunner_add_suite(runner, file_suite());
	srunner_add_suite(runner, buf_suite());
	srunner_add_suite(runner, sumtext_suite());
	srunner_add_suite(runner, lines_suite());
	srunner_add_suite(runner, names_suite());
	srunner_add_suite(runner, cols_suite());
	srunner_add_suite(runner, tres_str_suite());
	srunner_add_suite(runner, saved_policy_suite());
	srunner_add_suite(runner, format_suite());
	srunner_add_suite(runner, mf_check_suite());
	srunner_add_suite(runner, mf_explain_suite());
	srunner_add_suite(runner, json_suite());
	srunner_add_suite(runner, compare_suite());
	srunner_add_suite(runner, whatif_suite());
	srunner_add_suite(runner, error_suite());
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
