/*****************************************************************************\
 *  test_core.h - the suites of the core's unit tests.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_TEST_CORE_H
#define PRISM_TEST_CORE_H

#include <check.h>

extern Suite *prio_suite(void);
extern Suite *saved_policy_suite(void);
extern Suite *format_suite(void);
extern Suite *fs_suite(void);
extern Suite *state_suite(void);
extern Suite *passinfo_suite(void);
extern Suite *slice_suite(void);
extern Suite *usnap_suite(void);
extern Suite *usage_suite(void);
extern Suite *tres_suite(void);
extern Suite *fairtree_suite(void);
extern Suite *moab_suite(void);
extern Suite *moab_conf_suite(void);
extern Suite *moab_diag_suite(void);
extern Suite *moab_facts_suite(void);
extern Suite *ge_suite(void);
extern Suite *ge_conf_suite(void);
extern Suite *ge_usage_suite(void);
extern Suite *ge_diag_suite(void);
extern Suite *ge_facts_suite(void);
extern Suite *params_suite(void);
extern Suite *file_suite(void);
extern Suite *buf_suite(void);
extern Suite *sumtext_suite(void);
extern Suite *lines_suite(void);
extern Suite *names_suite(void);
extern Suite *cols_suite(void);
extern Suite *tres_str_suite(void);
extern Suite *mf_check_suite(void);
extern Suite *mf_explain_suite(void);
extern Suite *json_suite(void);
extern Suite *compare_suite(void);
extern Suite *whatif_suite(void);
extern Suite *error_suite(void);

#endif /* PRISM_TEST_CORE_H */
