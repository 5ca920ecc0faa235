/*****************************************************************************\
 *  prism_moab_conf.h - a Moab/Maui priority file (moab.cfg, maui.cfg
 *  syntax) read into a policy: component and subcomponent weights and
 *  caps, credential priorities and fair-share targets, JOBPRIOF
 *  attribute priorities, fair-share windows and the priority bounds.
 *
 *  Part of Prism's core: pure C, no Slurm header, no I/O, no global state.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_MOAB_CONF_H
#define PRISM_MOAB_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prism_error.h"

/*
 * Notes
 *
 * Syntax. One parameter a line: "NAME VALUE". '#' starts a comment that
 * runs to the end of the line. Names are matched without regard to case.
 * Credential lines are "NAMECFG[id] KEY=VALUE ..." for USERCFG, GROUPCFG,
 * ACCOUNTCFG, QOSCFG and CLASSCFG; JOBPRIOF lines are "JOBPRIOF
 * STATE[s]=N ATTR[a]=N GRES[g]=N ...". A parameter given twice keeps its
 * last value; two lines for the same credential merge.
 *
 * Defaults (seed 001): component weights 1, subcomponent weights 0 except
 * QUEUETIMEWEIGHT 1, every cap 0 (no cap), MAX_PRIO_VAL 1000000000: an
 * empty file orders jobs by queue time (FIFO). Fair-share (Moab's own
 * defaults): FSPOLICY unset (fair-share off: every usage delta is 0),
 * FSINTERVAL 12:00:00, FSDEPTH 8, FSDECAY 1.0.
 *
 * Names. Each subcomponent X has the weight XWEIGHT and the cap XCAP
 * (XFACTORCAP, QUEUETIMECAP, FSUSERCAP, ...). The usage weights also go
 * by their Maui names (USAGECONSUMEDWEIGHT, ...), SERVICE* by SERV*, and
 * TARGET* by TARG*. *WEIGHT, *CAP and PRIORITY are integers (seed 000).
 * Times (FSINTERVAL, XFMINWCLIMIT, QTTARGET) are [[[DD:]HH:]MM:]SS.
 * A cap above 0 bounds a value to -cap..cap (seed 000); 0 or a negative
 * cap means no cap.
 *
 * The rule: a file Moab or Maui ran loads. Anything that is not about
 * priority (RMCFG[x] ..., LOGLEVEL 3, LOGLEVEL alone, USERCFG[x] MAXJOB=4,
 * MAXPROC[USER:u]=4, FEATURES+=x, PLIST=, #INCLUDE, a line starting with
 * KEY=VALUE) is accepted with one "ignored" notice naming file and line.
 * Older spellings (RESOURCEWEIGHT, RESOURCECAP, XFACTOR, FSPOLICY
 * PSDEDICATED, PSUTILIZED, PEDEDICATED) are read as the current names,
 * with a notice. FSTARGET is 0..1e6 percent: above 100, and targets of
 * a kind summing past 100, are used as written (Moab's delta is target
 * minus usage), with a notice. Errors name file, line and what is wrong:
 * a malformed priority value, a *WEIGHT or *CAP that is no name old or
 * new ("did you mean" the nearest one).
 *
 * Credential handles are indices into the policy's tables: stable for
 * the life of the policy, assigned in the order names first appear.
 * Lookups by name are O(1) (hash). PRISM_MOAB_NONE stands for a name
 * without a CFG line.
 */

/* Longest line accepted, in bytes, without its newline. */
#define PRISM_MOAB_LINE_MAX 1024

/* At most this many distinct ATTR[] and GRES[] names (bits of a mask). */
#define PRISM_MOAB_BITS_MAX 64

/* Largest MAX_PRIO_VAL: 3 * MAX_PRIO_VAL + 1 must fit in 32 bits. */
#define PRISM_MOAB_MAX_PRIO_LIMIT 1431655764

/* Handle of a credential the policy does not know. */
#define PRISM_MOAB_NONE UINT32_MAX

/* Credential kinds, in the order of the CRED and FS subcomponents. */
typedef enum {
	PRISM_MOAB_USER,
	PRISM_MOAB_GROUP,
	PRISM_MOAB_ACCOUNT,
	PRISM_MOAB_QOS,
	PRISM_MOAB_CLASS,
	PRISM_MOAB_CRED_CNT
} prism_moab_cred_kind_t;

/* Priority components (seed 000). */
typedef enum {
	PRISM_MC_CRED,
	PRISM_MC_FS,
	PRISM_MC_RES,
	PRISM_MC_SERV,
	PRISM_MC_TARGET,
	PRISM_MC_USAGE,
	PRISM_MC_ATTR,
	PRISM_MC_CNT
} prism_moab_comp_t;

/* Subcomponents, grouped by component (see prism_moab_sub_comp()). */
typedef enum {
	PRISM_MS_USER,		/* CRED: credential PRIORITY= */
	PRISM_MS_GROUP,
	PRISM_MS_ACCOUNT,
	PRISM_MS_QOS,
	PRISM_MS_CLASS,
	PRISM_MS_FSUSER,	/* FS: target minus usage, percent */
	PRISM_MS_FSGROUP,
	PRISM_MS_FSACCOUNT,
	PRISM_MS_FSQOS,
	PRISM_MS_FSCLASS,
	PRISM_MS_FSGUSER,	/* FS: imported global deltas */
	PRISM_MS_FSGGROUP,
	PRISM_MS_FSGACCOUNT,
	PRISM_MS_FSJPU,		/* FS: the user's active jobs */
	PRISM_MS_FSPPU,		/* FS: the user's active processors */
	PRISM_MS_FSPSPU,	/* FS: the user's active proc-seconds */
	PRISM_MS_WCACCURACY,	/* FS: the user's wall-clock accuracy */
	PRISM_MS_NODE,		/* RES */
	PRISM_MS_PROC,
	PRISM_MS_MEM,		/* MB */
	PRISM_MS_SWAP,		/* MB */
	PRISM_MS_DISK,		/* MB */
	PRISM_MS_PS,		/* proc-seconds requested */
	PRISM_MS_PE,		/* processor equivalents */
	PRISM_MS_WALLTIME,	/* seconds */
	PRISM_MS_QUEUETIME,	/* SERV: minutes */
	PRISM_MS_XFACTOR,
	PRISM_MS_BYPASS,
	PRISM_MS_STARTCOUNT,
	PRISM_MS_DEADLINE,
	PRISM_MS_SPVIOLATION,
	PRISM_MS_USERPRIO,
	PRISM_MS_TARGETQUEUETIME, /* TARGET */
	PRISM_MS_TARGETXFACTOR,
	PRISM_MS_CONSUMED,	/* USAGE: running jobs only */
	PRISM_MS_HUNGER,
	PRISM_MS_REMAINING,
	PRISM_MS_PERCENT,
	PRISM_MS_EXECUTIONTIME,
	PRISM_MS_ATTRATTR,	/* ATTR: JOBPRIOF */
	PRISM_MS_ATTRSTATE,
	PRISM_MS_ATTRGRES,
	PRISM_MS_CNT
} prism_moab_sub_t;

/* Job states JOBPRIOF STATE[] can name. */
typedef enum {
	PRISM_MOAB_IDLE,
	PRISM_MOAB_STARTING,
	PRISM_MOAB_RUNNING,
	PRISM_MOAB_SUSPENDED,
	PRISM_MOAB_HOLD,
	PRISM_MOAB_DEFERRED,
	PRISM_MOAB_BLOCKED,
	PRISM_MOAB_STATE_CNT
} prism_moab_state_t;

/* FSPOLICY: what a unit of fair-share usage is. */
typedef enum {
	PRISM_MOAB_FS_OFF,		/* unset: no fair-share */
	PRISM_MOAB_FS_DEDICATEDPS,	/* dedicated proc-seconds */
	PRISM_MOAB_FS_DEDICATEDPES,	/* dedicated PE-seconds */
	PRISM_MOAB_FS_UTILIZEDPS,	/* utilised proc-seconds */
	PRISM_MOAB_FS_PDEDICATEDPS,	/* proc-speed scaled */
	PRISM_MOAB_FS_SDEDICATEDPS,
} prism_moab_fspolicy_t;

/* How a fair-share target applies (FSTARGET=N, N+, N-, N^). */
typedef enum {
	PRISM_MOAB_FST_NONE,		/* no target: delta 0 */
	PRISM_MOAB_FST_TARGET,		/* delta = target - usage */
	PRISM_MOAB_FST_FLOOR,		/* '+': only when usage is below */
	PRISM_MOAB_FST_CEILING,		/* '-': only when usage is above */
	PRISM_MOAB_FST_CAP,		/* '^': a usage limit, delta 0 */
} prism_moab_fstarget_t;

/* One credential's CFG line(s); the QT/XF fields only for QOSCFG. */
typedef struct {
	const char *name;		/* owned by the policy */
	int64_t prio;			/* PRIORITY= */
	bool prio_set;			/* PRIORITY= given */
	prism_moab_fstarget_t fs_type;	/* FSTARGET= kind */
	double fs_target;		/* percent, 0..1e6 */
	int64_t fs_weight;		/* FSWEIGHT=: + FS<kind>WEIGHT */
	int64_t qt_weight;		/* QTWEIGHT=: + QUEUETIMEWEIGHT */
	int64_t xf_weight;		/* XFWEIGHT=: + XFACTORWEIGHT */
	int64_t qt_target;		/* QTTARGET=, seconds, 0: none */
	double xf_target;		/* XFTARGET=, 0: none */
} prism_moab_cred_t;

/* The scalar parameters of a policy. */
typedef struct {
	int64_t comp_weight[PRISM_MC_CNT];
	int64_t comp_cap[PRISM_MC_CNT];		/* 0: no cap */
	int64_t sub_weight[PRISM_MS_CNT];
	int64_t sub_cap[PRISM_MS_CNT];		/* 0: no cap */
	int64_t state_prio[PRISM_MOAB_STATE_CNT]; /* JOBPRIOF STATE[] */
	int64_t xf_min_wclimit;			/* seconds, 0: none */
	int64_t fs_interval;			/* seconds */
	uint32_t fs_depth;			/* windows, 1..32 */
	double fs_decay;			/* 0 < d <= 1 */
	prism_moab_fspolicy_t fs_policy;
	int64_t max_prio;			/* MAX_PRIO_VAL */
	bool enable_neg;			/* ENABLENEGJOBPRIORITY */
	bool reject_neg;			/* REJECTNEGPRIOJOBS */
	bool enable_pos_userprio;		/* ENABLEPOSUSERPRIORITY */
} prism_moab_params_t;

/* A parsed policy; opaque. */
typedef struct prism_moab_policy prism_moab_policy_t;

/*
 * Parse 'len' bytes of 'text' (need not be NUL-terminated); 'file' names
 * it in messages. On success returns 0 and sets *out to a new policy the
 * caller frees with prism_moab_policy_free(). On failure returns -1, sets
 * err to "file:line: what is wrong" (or "out of memory") and leaves *out
 * untouched, so the caller keeps its previous policy.
 */
extern int prism_moab_conf_parse(const char *text, size_t len,
				 const char *file, prism_moab_policy_t **out,
				 prism_error_t *err);

/* What one line of a Moab file is to Prism (prism_moab_conf_line()). */
typedef enum {
	PRISM_MOAB_LINE_BLANK,		/* empty, blanks or a comment */
	PRISM_MOAB_LINE_PRIORITY,	/* a priority parameter */
	PRISM_MOAB_LINE_MIXED,		/* a CFG line with priority attributes
					   and others, which are ignored */
	PRISM_MOAB_LINE_IGNORED,	/* not about priority: a notice */
} prism_moab_line_t;

/*
 * Classify one line 'line' (NUL-terminated, no newline), line 'lineno' of
 * 'file', the way prism_moab_conf_parse() reads it. Returns 0 and sets
 * *out, and 'why' (may be NULL) to the line's first notice without its
 * "file:line: " ("" when none); or -1 with err set to "file:line: what is
 * wrong" when the line is malformed (the whole file would be refused).
 * Limits that span lines (JOBPRIOF names) are only checked by
 * prism_moab_conf_parse().
 */
extern int prism_moab_conf_line(const char *line, const char *file,
				unsigned lineno, prism_moab_line_t *out,
				prism_error_t *why, prism_error_t *err);

/*
 * A policy with every default (what an empty file gives). Returns NULL
 * when out of memory; the caller frees it with prism_moab_policy_free().
 */
extern prism_moab_policy_t *prism_moab_policy_default(void);

/* Free 'pol' and everything it owns; NULL is ignored. */
extern void prism_moab_policy_free(prism_moab_policy_t *pol);

/*
 * How many priority parameters and attributes the parse of 'pol' read
 * (0 for NULL and for the default policy): 0 with notices means nothing
 * in the file was understood, as for a file of another policy.
 */
extern unsigned prism_moab_policy_kept(const prism_moab_policy_t *pol);

/* The scalar parameters of 'pol'; owned by 'pol'. Never NULL. */
extern const prism_moab_params_t *
prism_moab_policy_params(const prism_moab_policy_t *pol);

/*
 * The "ignored" notices of the parse, one per non-priority parameter, as
 * "file:line: NAME: not a priority parameter, ignored". Strings are owned
 * by 'pol'; index out of range gives NULL.
 */
extern size_t prism_moab_policy_notice_count(const prism_moab_policy_t *pol);
extern const char *prism_moab_policy_notice(const prism_moab_policy_t *pol,
					    size_t i);

/* Number of credentials of 'kind' in 'pol' (0 for a bad kind). */
extern uint32_t prism_moab_cred_count(const prism_moab_policy_t *pol,
				      prism_moab_cred_kind_t kind);

/*
 * Handle of the credential 'name' of 'kind', O(1); PRISM_MOAB_NONE when
 * 'pol' has no CFG line for it or an argument is bad.
 */
extern uint32_t prism_moab_cred_find(const prism_moab_policy_t *pol,
				     prism_moab_cred_kind_t kind,
				     const char *name);

/*
 * The credential behind handle 'idx' of 'kind', owned by 'pol'; NULL for
 * PRISM_MOAB_NONE or a bad handle.
 */
extern const prism_moab_cred_t *
prism_moab_cred_get(const prism_moab_policy_t *pol,
		    prism_moab_cred_kind_t kind, uint32_t idx);

/*
 * Bit of JOBPRIOF ATTR['name'] / GRES['name'] (case-insensitive) for a
 * job's attr_mask / gres_mask, or -1 if the policy gives it no priority.
 */
extern int prism_moab_attr_bit(const prism_moab_policy_t *pol,
			       const char *name);
extern int prism_moab_gres_bit(const prism_moab_policy_t *pol,
			       const char *name);

/*
 * The ATTR bits of the node features named in 'features' (Slurm's
 * --constraint: names joined by &, |, *N, [ ] and ( )), and the GRES bits
 * of the generic resources and licenses in 'list' (comma separated:
 * "gres:NAME[:TYPE][:N]", "gres/NAME...", "license:NAME...", "NAME:N",
 * "NAME*N"). Names are compared without regard to case; 0 when none
 * matches or an argument is NULL.
 */
extern uint64_t prism_moab_attr_mask(const prism_moab_policy_t *pol,
				     const char *features);
extern uint64_t prism_moab_gres_mask(const prism_moab_policy_t *pol,
				     const char *list);

/* Priority of ATTR / GRES bit 'bit' (0 for an unused bit). */
extern int64_t prism_moab_attr_prio(const prism_moab_policy_t *pol, int bit);
extern int64_t prism_moab_gres_prio(const prism_moab_policy_t *pol, int bit);

/* Names for messages and explain views (static strings; NULL if bad). */
extern const char *prism_moab_comp_name(prism_moab_comp_t comp);
extern const char *prism_moab_sub_name(prism_moab_sub_t sub);
extern const char *prism_moab_cred_kind_name(prism_moab_cred_kind_t kind);

/* The component subcomponent 'sub' belongs to (PRISM_MC_CNT if bad). */
extern prism_moab_comp_t prism_moab_sub_comp(prism_moab_sub_t sub);

#endif /* PRISM_MOAB_CONF_H */
