dnl prism_slurm.m4: what a configured Slurm source tree has, decided by
dnl compiling against it (not by its version number: point releases
dnl changed fields too). Each check that passes adds -DPRISM_HAVE_... to
dnl PRISM_SLURM_DEFS, which only the plugin and the harness compile with;
dnl src/plugin/compat.h is the one place the adapter reads them.

dnl The headers every probe starts from, as src/plugin/compat.h includes
dnl them. $1: more lines.
AC_DEFUN([_PRISM_SLURM_PROLOGUE], [[
#include "slurm/slurm.h"
#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"
#ifdef PRISM_HAVE_INTERFACES
#include "src/interfaces/priority.h"
#include "src/interfaces/site_factor.h"
#else
#include "src/common/site_factor.h"
#include "src/common/slurm_priority.h"
#endif
]$1])

dnl _PRISM_SLURM_PROBE(MACRO, WHAT, INCLUDES, BODY)
dnl Compile BODY against the tree; define MACRO when it compiles.
AC_DEFUN([_PRISM_SLURM_PROBE], [
	AC_MSG_CHECKING([whether the Slurm tree has $2])
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([_PRISM_SLURM_PROLOGUE([$3])], [$4])],
		[AC_MSG_RESULT([yes])
		 prism_probe_defs="$prism_probe_defs -D$1"
		 CPPFLAGS="$CPPFLAGS -D$1"],
		[AC_MSG_RESULT([no])])
])

dnl PRISM_SLURM_FEATURES(TREE): every probe; fails when one the plugin
dnl cannot do without is missing.
AC_DEFUN([PRISM_SLURM_FEATURES], [
	prism_save_CPPFLAGS=$CPPFLAGS
	prism_save_CFLAGS=$CFLAGS
	prism_probe_defs=
	CPPFLAGS="$CPPFLAGS -isystem $1 -isystem $1/slurm"
	dnl a call of a function the tree does not declare, or with other
	dnl argument types, must fail the probe (not warn)
	CFLAGS="$CFLAGS -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion"

	dnl The headers a probe needs first.
	dnl Slurm's plugin interfaces are in src/interfaces/ (23.02); the
	dnl state-file lock in src/common/state_save.h (24.11).
	AS_IF([test -f "$1/src/interfaces/priority.h"], [
		prism_probe_defs="$prism_probe_defs -DPRISM_HAVE_INTERFACES"
		CPPFLAGS="$CPPFLAGS -DPRISM_HAVE_INTERFACES"])
	AS_IF([test -f "$1/src/common/state_save.h"], [
		prism_probe_defs="$prism_probe_defs -DPRISM_HAVE_STATE_SAVE_H"])

	dnl What the plugin cannot be built without, in every release.
	AC_MSG_CHECKING([whether the tree's headers compile for a priority plugin])
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([_PRISM_SLURM_PROLOGUE([])],
		[[job_record_t *j = NULL; slurmdb_assoc_rec_t *a = NULL;
		  (void) j->priority; (void) a->usage->usage_raw;
		  (void) assoc_mgr_root_assoc;]])],
		[AC_MSG_RESULT([yes])],
		[AC_MSG_RESULT([no])
		 AC_MSG_ERROR([the Slurm tree $1 does not compile with a priority plugin's headers (slurm/slurm.h, src/common/assoc_mgr.h, src/slurmctld/slurmctld.h, the priority interface): see config.log. Releases known to work: 22.05.8, 23.02.8, 23.11.11, 24.05.8, 24.11.5, 25.05.8, 25.11.7, 26.05.3])])

	_PRISM_SLURM_PROBE([PRISM_HAVE_LIST_T], [list_t], [],
		[[list_t *l = NULL; list_itr_t *i = NULL; (void) l; (void) i;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_JOB_DETAILS_T], [job_details_t], [],
		[[job_details_t *d = NULL; (void) d;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_PRIORITY_FACTORS_T],
		[priority_factors_t (the sprio row points to its factors)], [],
		[[priority_factors_object_t o; priority_factors_t *f = o.prio_factors;
		  (void) f; (void) o.account; (void) o.qos;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_FACTORS_STEP_ID],
		[an sprio row naming its job by step_id], [],
		[[priority_factors_object_t o; (void) o.step_id.job_id;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_SITE_FACTOR_G],
		[site_factor_g_init], [],
		[[(void) site_factor_g_init();]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_SITE_FACTOR_RECONFIG],
		[site_factor_g_reconfig], [],
		[[site_factor_g_reconfig();]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_COORD_IS_LOCKED],
		[assoc_mgr_is_user_acct_coord with is_locked], [],
		[[(void) assoc_mgr_is_user_acct_coord(NULL, 0, NULL, false);]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_ACTIVE_NODE_COUNT],
		[active_node_record_count], [],
		[[(void) active_node_record_count;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_JOB_PART_PRIO],
		[job_record_t.part_prio (24.05 to 24.11.6, 25.05.0)], [],
		[[job_record_t *j = NULL; (void) j->part_prio->priority_array;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_JOB_PRIO_MULT],
		[job_record_t.prio_mult (24.11.7, 25.05.1 on)], [],
		[[job_record_t *j = NULL; (void) j->prio_mult->priority_array;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_PRIO_ARRAY_NAMES],
		[priority_mult_t.priority_array_names], [],
		[[priority_mult_t *p = NULL; (void) p->priority_array_names;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_JOB_QOS_LIST],
		[multi-QOS jobs (job_record_t.qos_list)], [],
		[[job_record_t *j = NULL; (void) j->qos_list;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_PRIORITY_RECOVER],
		[priority_g_recover], [],
		[[(void) priority_g_recover(0);]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_PRIORITY_THREAD_START],
		[priority_g_thread_start], [],
		[[priority_g_thread_start();]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_SPRIO_UID_ONLY],
		[the sprio hook taking only a uid], [],
		[[list_t *(*f)(uid_t) = priority_g_get_priority_factors_list;
		  (void) f;]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_CALC_FS_FACTOR],
		[priority_g_calc_fs_factor (the plugin computes classic fair-share on request)], [],
		[[(void) priority_g_calc_fs_factor(0.0L, 1.0L);]])
	_PRISM_SLURM_PROBE([PRISM_HAVE_ASSOC_LFT],
		[slurmdb_assoc_rec_t.lft], [],
		[[slurmdb_assoc_rec_t a; (void) a.lft;]])
	dnl (the harness's job records: slurmctld sets step_id.job_id too)
	_PRISM_SLURM_PROBE([PRISM_HAVE_JOB_STEP_ID],
		[job_record_t.step_id], [],
		[[job_record_t *j = NULL; (void) j->step_id.job_id;]])
	dnl (the harness's partitions)
	_PRISM_SLURM_PROBE([PRISM_HAVE_PART_NODES_ORIG],
		[part_record_t.max_nodes_orig], [],
		[[part_record_t *p = NULL; (void) p->max_nodes_orig;]])

	dnl A tree that answers none of the two priority-array shapes and
	dnl has no per-job array either is not one the plugin knows.
	AC_MSG_CHECKING([whether the tree has a per-partition priority array])
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([_PRISM_SLURM_PROLOGUE([])],
		[[job_record_t *j = NULL;
#if defined(PRISM_HAVE_JOB_PART_PRIO)
		  (void) j->part_prio->priority_array;
#elif defined(PRISM_HAVE_JOB_PRIO_MULT)
		  (void) j->prio_mult->priority_array;
#else
		  (void) j->priority_array;
#endif
		]])],
		[AC_MSG_RESULT([yes])],
		[AC_MSG_RESULT([no])
		 AC_MSG_ERROR([the Slurm tree $1 has no per-partition priority array Prism knows (job_record_t.prio_mult, .part_prio or .priority_array): see config.log. Releases known to work: 22.05.8, 23.02.8, 23.11.11, 24.05.8, 24.11.5, 25.05.8, 25.11.7, 26.05.3])])

	CPPFLAGS=$prism_save_CPPFLAGS
	CFLAGS=$prism_save_CFLAGS
	PRISM_SLURM_DEFS=$prism_probe_defs
])

dnl _PRISM_CLI_PROBE(MACRO, WHAT, BODY): compile BODY against the public
dnl <slurm/slurm.h> the command builds with; add -DMACRO when it compiles.
AC_DEFUN([_PRISM_CLI_PROBE], [
	AC_MSG_CHECKING([whether <slurm/slurm.h> has $2])
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <slurm/slurm.h>]], [$3])],
		[AC_MSG_RESULT([yes])
		 PRISM_CLI_DEFS="$PRISM_CLI_DEFS -D$1"],
		[AC_MSG_RESULT([no])])
])

dnl PRISM_SLURM_CLI_FEATURES: the prism command's probes (PRISM_CLI_DEFS).
AC_DEFUN([PRISM_SLURM_CLI_FEATURES], [
	prism_save_CFLAGS=$CFLAGS
	CFLAGS="$CFLAGS -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion"
	_PRISM_CLI_PROBE([PRISM_CLI_HAVE_LIST_T], [list_t],
		[[list_t *l = NULL; list_itr_t *i = NULL; (void) l; (void) i;]])
	_PRISM_CLI_PROBE([PRISM_CLI_HAVE_ROW_FACTORS],
		[sprio rows pointing to their factors, with account and QOS],
		[[priority_factors_object_t o; (void) o.prio_factors->priority_fs;
		  (void) o.qos;]])
	_PRISM_CLI_PROBE([PRISM_CLI_HAVE_ROW_STEP_ID],
		[sprio rows naming their job by step_id],
		[[priority_factors_object_t o; (void) o.step_id.job_id;]])
	_PRISM_CLI_PROBE([PRISM_CLI_HAVE_LOAD_PRIO_FLAGS],
		[slurm_load_job_prio(RESP, FLAGS) (sprio filters in the client)],
		[[priority_factors_response_msg_t *r = NULL;
		  (void) slurm_load_job_prio(&r, (uint16_t) 0);]])
	_PRISM_CLI_PROBE([PRISM_CLI_HAVE_FREE_CONF],
		[slurm_free_conf (slurm_free_ctl_conf before 26.05)],
		[[slurm_free_conf(NULL);]])
	CFLAGS=$prism_save_CFLAGS
])
