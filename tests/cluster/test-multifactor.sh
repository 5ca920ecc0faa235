#!/bin/bash
# tests/cluster/test-multifactor.sh -- cluster test of the "drop-in
# replacement for priority/multifactor" issue: usage accounting, decay,
# fair share, limits and switching between Prism and Slurm's own plugin.
#
# Starts a private loopback cluster (cluster-start.sh) in a fresh temp dir
# with a fast-moving fair-share configuration (PriorityCalcPeriod=1 minute,
# PriorityDecayHalfLife 10 minutes, fair-share/age/QOS/job-size weights,
# AccountingStorageEnforce=associations,limits) and checks:
#   (a) usage grows: an 8-CPU job of user daemon runs over two
#       recalculation passes; sshare RawUsage of daemon's association, of
#       account physics and of the root association grows from 0 and grows
#       again at the next pass; daemon's EffectvUsage/NormUsage are > 0.
#   (b) usage decays: after the job has ended, daemon's RawUsage falls
#       between two later passes by about the factor the half-life predicts
#       (ratio printed; accepted if the implied half-life is within
#       [half, double] the configured one).
#   (c) fair share: with every node filled by other jobs, identical pending
#       jobs of daemon (has used the machine) and root in account physics
#       (has not; its shares are raised to daemon's 30 first): root's job has
#       the higher FAIRSHARE factor in sprio -l and the higher priority.
#   (d) switch and compare: with the nodes drained (no job runs, so usage
#       only decays) capture sprio -l and sshare -a -l -P, restart
#       slurmctld with the OTHER priority plugin (cluster-restart-ctld.sh),
#       wait for one periodic recalculation pass (not just a pass run at
#       startup), capture again and compare:
#       FAIRSHARE, JOBSIZE, PARTITION, QOS, NICE, TRES exactly, AGE (and
#       PRIORITY) within what the elapsed time explains (+- one pass),
#       RawShares/NormShares exactly, RawUsage within the decay of the
#       elapsed time +- one pass, NormUsage/EffectvUsage/FairShare/LevelFS
#       within one pass of decay (relative); sprio -n (normalised factors,
#       all but PRIORITY and AGE) and sprio -w (weights) to the letter.
#       Then switch back.
#   (e) GrpTRESRunMins: with GrpTRESRunMins=cpu=100 on user bin, a 1-CPU
#       --time=60 job runs, an identical second one pends with reason
#       AssocGrpCPURunMinutesLimit and starts within ~2 calc periods after
#       the first is cancelled (needs end-of-job settlement of the unused
#       run seconds, priority_p_job_end()).
#   (f) usage survives a slurmctld restart with the same plugin: daemon's
#       RawUsage right after the restart and after the next periodic pass is
#       within the decay of the elapsed time.
#   (g) scontrol reconfigure with PriorityFlags=NO_FAIR_TREE and a 2-minute
#       half-life: daemon's RawUsage between the next two passes falls by
#       the new half-life's factor (not the old one's), every user
#       association's FairShare is the classic 2^(-EffectvUsage/NormShares),
#       and a pending job's FAIRSHARE column follows it.
#   (h) GrpTRESRunMins across a restart: a whole-node, 60-minute job of bin
#       runs two passes; its run-minutes (scontrol show assoc_mgr) right
#       after a slurmctld restart continue from before it (slurmctld adds
#       the whole limit again; the plugin takes off what ran), follow the
#       elapsed time after the next pass, and the 2nd job stays held.
#   (i) `prism explain --json` agrees with sprio -l for every pending job
#       (check-explain-mf.py): each term as sprio prints it, the sum is
#       sprio's PRIORITY and adds up to squeue's priority, and the
#       fair-share path runs from root through the job's account to its
#       user with a Fair Tree rank; captured while no pass runs (sprio the
#       same before and after). Only under priority/prism.
#   (j) `prism compare` of the pair of (c) names fair-share as the term
#       that decides, and the siblings under physics that Fair Tree ranked.
#   (k) `prism whatif` with new partition, job-size and QOS weights: its
#       new order of the pending entries is sprio's after the same weights
#       are set in slurm.conf and reconfigured (one pass later), each
#       priority within the age gained meanwhile; bad input (unknown
#       setting, a factor the controller does not compute, a bad time, a
#       policy file) exits 1 with one line. Only under priority/prism.
#   (l) an account moves: account sub (Fairshare=5, no users, no usage),
#       added under root at the start, moves under chem (sacctmgr modify
#       account sub set parent=chem) just before (b): the tree keeps its
#       number of associations but not its shape. slurmctld shows sub
#       under chem (scontrol show assoc_mgr), and Prism's first pass after
#       it logs (DebugFlags=Priority, turned on for that pass) that it
#       ranked Fair Tree from list order, once; (d) then compares that
#       pass's sprio and sshare with the other plugin's.
#   (m) issue 35, the audit: once slurmctld runs priority/multifactor
#       (after the switch of (d)), `prism explain` is an error (exit 1)
#       that names the PriorityType and sprio, as prism(1) says.
# A "recalculation pass" is detected from outside as a change of any
# RawUsage value in sshare (nothing else changes usage).
#
# The cluster is always stopped (trap), even on failure or interrupt.  The
# temp dir is removed on success and kept (path printed) on failure, or
# always kept when PRISM_KEEP_DIR is non-empty; DIR/captures holds the
# sprio/sshare captures.
#
# Environment:
#   PRISM_PRIORITY_TYPE        plugin the cluster runs (default priority/prism)
#   PRISM_OTHER_PRIORITY_TYPE  plugin for the switch in (d) (default: if the
#                              cluster runs priority/prism then
#                              priority/multifactor, otherwise priority/prism;
#                              set it to the same type to compare a plugin
#                              with itself)
#   PRISM_PLUGIN_DIR           dir holding priority_prism.so (default: the
#                              repo's src/plugin/.libs when either type is
#                              priority/prism and the .so exists there)
#   PRISM_SLURM_CONF_EXTRA     appended after this test's own settings (so it
#                              can override them)
#   PRISM_TEST_HALF_LIFE_MIN   PriorityDecayHalfLife in minutes (default 10)
#   PRISM_KEEP_DIR             keep the cluster dir even on success
#   PRISM_CLI                  the prism command for (i) (default: the
#                              build's src/cli/prism, else prism)
#   PRISM_SLURMCTLD_DEBUG      as for cluster-start.sh; below debug3 the
#                              plugin-load checks fall back to PriorityType
# Typical runtime: about 12 minutes (ten calc periods plus restarts).
# Last output line: "N passed, M failed"; exit 0 only if M is 0.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"

REPO=$(cd "$HERE/../.." && pwd)
CLI=${PRISM_CLI:-$REPO/src/cli/prism}
[[ -x $CLI ]] || CLI=$(command -v prism || echo "$REPO/src/cli/prism")
PRIORITY_TYPE=${PRISM_PRIORITY_TYPE:-priority/prism}
export PRISM_PRIORITY_TYPE=$PRIORITY_TYPE
if [[ -n ${PRISM_OTHER_PRIORITY_TYPE:-} ]]; then
    OTHER_TYPE=$PRISM_OTHER_PRIORITY_TYPE
elif [[ $PRIORITY_TYPE == priority/prism ]]; then
    OTHER_TYPE=priority/multifactor
else
    OTHER_TYPE=priority/prism
fi
if [[ -z ${PRISM_PLUGIN_DIR:-} ]] &&
    [[ $PRIORITY_TYPE == priority/prism || $OTHER_TYPE == priority/prism ]] &&
    [[ -f $REPO/src/plugin/.libs/priority_prism.so ]]; then
    export PRISM_PLUGIN_DIR=$REPO/src/plugin/.libs
    log "using PRISM_PLUGIN_DIR=$PRISM_PLUGIN_DIR"
fi

HL_MIN=${PRISM_TEST_HALF_LIFE_MIN:-10}
[[ $HL_MIN =~ ^[1-9][0-9]*$ ]] || die "PRISM_TEST_HALF_LIFE_MIN must be a positive integer"
HL=$((HL_MIN * 60))        # half-life, seconds
CALC=60                    # PriorityCalcPeriod=1 (minute), seconds
MAX_AGE=3600               # PriorityMaxAge=60 (minutes), seconds
W_AGE=1000
# Our settings first; a caller's PRISM_SLURM_CONF_EXTRA comes later and so
# wins for repeated keys.  cluster-start.sh already sets
# AccountingStorageEnforce=associations, PriorityCalcPeriod=1,
# PriorityWeightAge=1000 and PriorityWeightPartition=10000.
export PRISM_SLURM_CONF_EXTRA="PriorityWeightFairshare=10000
PriorityWeightAge=$W_AGE
PriorityWeightQOS=1000
PriorityWeightJobSize=100
PriorityMaxAge=$((MAX_AGE / 60))
PriorityDecayHalfLife=0-0:$HL_MIN
PriorityCalcPeriod=$((CALC / 60))
AccountingStorageEnforce=associations,limits${PRISM_SLURM_CONF_EXTRA:+
$PRISM_SLURM_CONF_EXTRA}"

T0=$EPOCHREALTIME
cluster_test_begin mf
TIMINGS=()
cluster_test_hook() { echo "timings: ${TIMINGS[*]} total=$(elapsed)s"; }

# ---------------------------------------------------------------- helpers
# calc EXPR [VAR=VALUE...] -- print an awk expression's value (an integer
# as such, anything else with 6 decimals; "nan" if awk fails, e.g. on a
# division by zero).
calc() {
    local expr=$1
    shift
    local -a vars=()
    local v
    for v in "$@"; do vars+=(-v "$v"); done
    awk "${vars[@]}" "BEGIN { v = ($expr)
        if (v == int(v) && v < 1e15 && v > -1e15) printf \"%d\", v
        else printf \"%.6f\", v }" 2>/dev/null || echo nan
}
# holds EXPR [VAR=VALUE...] -- true if the awk expression is non-zero.
holds() {
    local expr=$1
    shift
    local -a vars=()
    local v
    for v in "$@"; do vars+=(-v "$v"); done
    awk "${vars[@]}" "BEGIN { exit !($expr) }"
}
now() { echo "$EPOCHREALTIME"; }
elapsed() { calc 'int(b - a + 0.5)' "a=$T0" "b=$EPOCHREALTIME"; }
since() { calc 'b - a' "a=$1" "b=$EPOCHREALTIME"; }
phase() { # phase NAME -- log and remember the time a phase starts
    TIMINGS+=("$1@$(elapsed)s")
    log "== $1 (+$(elapsed)s)"
}

# sshare_snap -- one line per association:
#   ACCOUNT|USER|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS
# (columns located by the header of `sshare -a -l -P`, account indentation
# stripped; the root association is "root|", root's user row "root|root";
# a column sshare does not print is empty: LevelFS under NO_FAIR_TREE).
SS_FIELDS="RawShares NormShares RawUsage NormUsage EffectvUsage FairShare LevelFS"
sshare_snap() {
    local out
    out=$(exec timeout 20 sshare -a -l -P 2>/dev/null) || return 1
    awk -F'|' -v want="$SS_FIELDS" '
        NR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            n = split(want, w, " ")
            if (!("Account" in col) || !("User" in col) || !("RawUsage" in col)) exit 1
            next
        }
        {
            a = $col["Account"]; gsub(/^ +| +$/, "", a)
            line = a "|" $col["User"]
            for (k = 1; k <= n; k++) line = line "|" (w[k] in col ? $col[w[k]] : "")
            print line
        }' <<<"$out"
}
# snap_get SNAP ACCOUNT USER FIELD -- one value of a sshare_snap.
snap_get() {
    local idx
    case $4 in
    RawShares) idx=3 ;; NormShares) idx=4 ;; RawUsage) idx=5 ;;
    NormUsage) idx=6 ;; EffectvUsage) idx=7 ;; FairShare) idx=8 ;;
    LevelFS) idx=9 ;; *) return 1 ;;
    esac
    awk -F'|' -v a="$2" -v u="$3" -v i="$idx" \
        '$1 == a && $2 == u { print $i; f = 1; exit } END { exit !f }' <<<"$1"
}
# usage_sig SNAP -- its ACCOUNT|USER|RawUsage fields, one line (in the
# shell: it runs at every poll of a pass)
usage_sig() {
    local acct user raw sig=
    while IFS='|' read -r acct user _ _ raw _; do
        sig+="$acct|$user|$raw "
    done <<<"$1"
    printf '%s' "$sig"
}

# sprio_snap -- one line per pending job and partition:
#   JOBID|PARTITION|USER|PRIORITY|SITE|AGE|ASSOC|FAIRSHARE|JOBSIZE|PARTITION_F|QOS|NICE|TRES
# from `sprio -l` (the same rows as `sprio -l -h`; the header is used to
# locate the columns; the second PARTITION column is the factor).
SP_COLS="JOBID PARTITION USER PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTITION_F QOS NICE TRES"
sprio_snap() {
    local out
    out=$(exec timeout 20 sprio -l 2>/dev/null) || return 1
    awk -v want="$SP_COLS" '
        NR == 1 {
            for (i = 1; i <= NF; i++) {
                h = $i
                if (h == "PARTITION" && seen++) h = "PARTITION_F"
                col[h] = i
            }
            n = split(want, w, " ")
            for (k = 1; k <= n; k++) if (!(w[k] in col)) exit 1
            next
        }
        {
            line = ""
            for (k = 1; k <= n; k++) line = line (k > 1 ? "|" : "") $col[w[k]]
            print line
        }' <<<"$out"
}
# sprio_get SNAP JOBID FIELD [PARTITION] -- first matching row's value.
sprio_get() {
    local want=$3 k=0 c idx=0
    for c in $SP_COLS; do
        k=$((k + 1))
        [[ $c == "$want" ]] && idx=$k
    done
    ((idx > 0)) || return 1
    awk -F'|' -v j="$2" -v p="${4:-}" -v i="$idx" \
        '$1 == j && (p == "" || $2 == p) { print $i; f = 1; exit } END { exit !f }' <<<"$1"
}

# sprio_cols OPTS... -- the rows of `sprio OPTS` as COLUMN=value lists,
# sorted, without the PRIORITY and AGE columns (they move with time): for
# an exact comparison of the other columns of -n (normalised factors).
sprio_cols() {
    local out
    out=$(exec timeout 20 sprio "$@" 2>/dev/null) || return 1
    awk 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
         {
             line = ""
             for (i = 1; i <= NF; i++)
                 if (h[i] != "PRIORITY" && h[i] != "AGE") line = line h[i] "=" $i "|"
             print line
         }' <<<"$out" | sort
}

prio_of() { squeue -h -j "$1" -o '%Q' 2>/dev/null | tr -d ' '; }
# state_of JOBID -- job state, empty once slurmctld has purged the job;
# fails if squeue fails for another reason.
state_of() {
    local out
    if out=$(exec squeue -h -j "$1" -o '%T' 2>&1); then
        echo "${out%%$'\n'*}"
    elif [[ $out == *"Invalid job id"* ]]; then
        return 0
    else
        return 1
    fi
}
jobs_running() { # jobs_running JOBID...
    local j
    for j in "$@"; do [[ $(state_of "$j") == RUNNING ]] || return 1; done
}
jobs_gone() { # jobs_gone JOBID... -- none pending/running/completing
    local j s
    for j in "$@"; do
        s=$(state_of "$j") || return 1
        [[ -z $s || $s == COMPLETED || $s == CANCELLED ]] || return 1
    done
}
submit() { # submit USER SBATCH_ARGS... -- job id, output discarded
    local user=$1
    shift
    submit_as "$user" -o /dev/null --chdir="$DIR/out" "$@"
}

# (e) bookkeeping: the second GrpTRESRunMins job is watched by poll_hook,
# which runs while this script waits for anything else.
E2=
E1_CANCEL_T=
E2_START_T=
poll_hook() {
    if [[ -n $E2 && -n $E1_CANCEL_T && -z $E2_START_T ]]; then
        if [[ $(state_of "$E2") == RUNNING ]]; then
            E2_START_T=$(now)
            log "job $E2 started $(calc 'int(x + 0.5)' "x=$(since "$E1_CANCEL_T")")s after the first was cancelled"
            scancel "$E2" 2>/dev/null || true
        fi
    fi
    return 0
}
# sleep_polling SECONDS -- sleep, running poll_hook every 0.5 s.
sleep_polling() {
    usec "$1"
    local end=$((${EPOCHREALTIME//[!0-9]/} + USEC))
    while ((${EPOCHREALTIME//[!0-9]/} < end)); do
        poll_hook
        sleep 0.5
    done
}

# wait_pass TIMEOUT DESC [REF_SNAP] -- wait for the next recalculation
# pass: a change of any RawUsage against REF_SNAP (default: a snapshot taken
# now).  Sets SNAP (the sshare_snap right after the pass) and PASS_T, and
# PASS_T_LO: the pass came after PASS_T_LO (when a poll of this call read
# the usage before it; else empty) and before PASS_T.
# After one timeout, later waits are cut to 15 s (the plugin evidently does
# not account usage; keep the test's runtime bounded).
SNAP=
PASS_T=
PASS_T_LO=
PASS_TIMEOUTS=0
wait_pass() {
    local timeout=$1 desc=$2 ref=${3:-} cur start
    ((PASS_TIMEOUTS == 0)) || timeout=15
    start=$SECONDS
    while [[ -z $ref ]]; do
        ref=$(sshare_snap) || ref=
        [[ -n $ref ]] && break
        ((SECONDS - start < timeout)) || break
        sleep_polling 1
    done
    local refsig t_call t_old=
    refsig=$(usage_sig "$ref")
    while ((SECONDS - start < timeout)); do
        poll_interval "$start"
        sleep_polling "$POLL_INTERVAL"
        t_call=$EPOCHREALTIME
        cur=$(sshare_snap) || continue
        [[ -n $cur ]] || continue
        if [[ $(usage_sig "$cur") != "$refsig" ]]; then
            SNAP=$cur
            PASS_T=$EPOCHREALTIME
            PASS_T_LO=$t_old
            log "recalculation pass detected ($desc) at +$(elapsed)s"
            return 0
        fi
        # the pass came after this call read the old usage
        t_old=$t_call
    done
    PASS_TIMEOUTS=$((PASS_TIMEOUTS + 1))
    log "no recalculation pass within ${timeout}s ($desc)"
    SNAP=$(sshare_snap) || SNAP=
    PASS_T=$(now)
    PASS_T_LO=
    return 1
}

# wait_periodic_pass T_UP DESC REF_SNAP -- wait for a recalculation pass at
# least 15 s after T_UP (a restarted slurmctld answering): a pass right at
# startup (multifactor runs one when its thread starts) does not count, so
# the new plugin has certainly done a full periodic pass.
wait_periodic_pass() {
    local t_up=$1 desc=$2 ref=$3 _
    for _ in 1 2 3; do
        wait_pass $((CALC + 40)) "$desc" "$ref" || return 1
        if holds 'p - u >= 15' "p=$PASS_T" "u=$t_up"; then
            return 0
        fi
        log "(that was the startup pass, $(calc 'int(p - u + 0.5)' "p=$PASS_T" "u=$t_up")s after the restart; waiting for the next)"
        ref=$SNAP
    done
    return 1
}

# log_mark -- current length of the slurmctld log (lines).
log_mark() { wc -l <"$DIR/log/slurmctld.log" 2>/dev/null || echo 0; }
# plugin_loaded MARK TYPE -- print the "found Slurm plugin ... type:TYPE"
# line slurmctld logged (SlurmctldDebug debug3 or higher) after line MARK;
# with a lower debug level only the reported PriorityType is checked.
plugin_loaded() {
    case ${PRISM_SLURMCTLD_DEBUG:-debug3} in
    debug3 | debug4 | debug5) ;;
    *)
        [[ $(ctld_priority_type) == "$2" ]] && echo "PriorityType=$2 (log level too low for the plugin-load line)"
        return
        ;;
    esac
    awk -v m="$1" -v t=" type:$2 version:" '
        NR > m && index($0, "plugin_load_from_file->_verify_syms: found Slurm plugin name:") &&
        index($0, t) { sub(/^[^]]*\] /, ""); print; found = 1; exit }
        END { exit !found }' "$DIR/log/slurmctld.log"
}

capture() { # capture NAME TEXT -- keep a copy in DIR/captures and print it
    mkdir -p "$DIR/captures"
    printf '%s\n' "$2" >"$DIR/captures/$1"
    echo "=== $1"
    printf '%s\n' "$2"
}

# ---------------------------------------------------------------- start
phase "start cluster"
log "starting cluster in $DIR (PriorityType=$PRIORITY_TYPE, other=$OTHER_TYPE)"
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"
scontrol show config | grep -E '^(Priority|AccountingStorageEnforce)' || true
if line=$(plugin_loaded 0 "$PRIORITY_TYPE"); then
    check "(0) slurmctld loaded $PRIORITY_TYPE" 0 "$line"
else
    check "(0) slurmctld loaded $PRIORITY_TYPE" 1 "no plugin-load line for it in $DIR/log/slurmctld.log"
fi
mapfile -t NODE_LIST < <(sinfo -h -N -p low -o '%N' | sort -u)
CPUS=$(sinfo -h -N -p low -o '%c' | head -n 1)
log "nodes: ${NODE_LIST[*]} ($CPUS CPUs each)"

phase "accounting changes"
# (c) same account and shares: root's physics association gets daemon's 30.
# (e) GrpTRESRunMins on bin's (only) association, account chem.
# (l) account sub under root, to move under chem before (b).
sacctmgr -i modify user where name=root account=physics cluster=prism set Fairshare=30 >/dev/null
sacctmgr -i modify user where name=bin cluster=prism set GrpTRESRunMins=cpu=100 >/dev/null
sacctmgr -i add account sub cluster=prism Description=sub Organization=prism Fairshare=5 >/dev/null
assoc_updated() {
    scontrol show assoc_mgr users=bin flags=assoc 2>/dev/null |
        grep -q 'GrpTRESRunMins=cpu=100(' || return 1
    local s
    s=$(sshare_snap) || return 1
    [[ $(snap_get "$s" physics root RawShares) == 30 ]] &&
        [[ $(snap_get "$s" sub "" RawShares) == 5 ]]
}
# sub_parent -- the parent account slurmctld has for account sub
sub_parent() {
    scontrol show assoc_mgr accounts=sub flags=assoc 2>/dev/null |
        sed -n 's/.*ParentAccount=\([^( ]*\)(.*/\1/p' | head -n 1
}
wait_for "$LIMIT_RPC" "slurmctld to get the association changes" assoc_updated ||
    log "WARNING: association changes not visible in slurmctld yet"

# ---------------------------------------------------------------- (a) + (e)
phase "(a) usage job"
S0=$(sshare_snap) || S0=
JA=$(submit daemon -p low -N 1 -n "$CPUS" --time=10 -J usage --wrap 'sleep 600')
wait_for "$LIMIT_SCHED" "job $JA running" jobs_running "$JA" || log "job $JA did not start"
JA_START_T=$(now)
log "job $JA (daemon, $CPUS CPUs) running"

phase "(e) GrpTRESRunMins"
E1=$(submit bin -p low -n 1 --time=60 -J runmins-1 --wrap 'sleep 600')
wait_for "$LIMIT_SCHED" "job $E1 running" jobs_running "$E1" || log "job $E1 did not start"
E1_STATE=$(state_of "$E1")
E2=$(submit bin -p low -n 1 --time=60 -J runmins-2 --wrap 'sleep 600')
E_REASON_WANT=AssocGrpCPURunMinutesLimit
e2_held() { [[ $(squeue -h -j "$E2" -o '%T %r') == "PENDING $E_REASON_WANT" ]]; }
wait_for "$LIMIT_SCHED" "job $E2 pending with $E_REASON_WANT" e2_held || true
E2_BEFORE=$(squeue -h -j "$E2" -o '%T %r')
E_RUNMINS=$(scontrol show assoc_mgr users=bin flags=assoc 2>/dev/null |
    awk '/^ClusterName=/ { mine = / UserName=bin\(/ }
         mine && !found && match($0, /GrpTRESRunMins=cpu=[^,]*/) {
             print substr($0, RSTART, RLENGTH); found = 1 }')
log "job $E1: $E1_STATE; job $E2: $E2_BEFORE; bin $E_RUNMINS"
# Keep the second job pending a little (it must not start on its own).
sleep_polling 5
E2_BEFORE5=$(squeue -h -j "$E2" -o '%T %r')
scancel "$E1"
E1_CANCEL_T=$(now)
log "cancelled job $E1; watching job $E2"

phase "(a) first pass"
# First pass that charges the usage job (daemon's RawUsage > 0).
U1=
deadline=$((SECONDS + 150))
while ((SECONDS < deadline)); do
    if wait_pass $((deadline - SECONDS)) "first charge of job $JA"; then
        v=$(snap_get "$SNAP" physics daemon RawUsage) || v=0
        if holds 'v > 0' "v=$v"; then
            U1=$SNAP
            break
        fi
    else
        break
    fi
done
T1=$PASS_T
phase "(a) second pass"
wait_pass "$(limit_passes 1)" "second charge of job $JA" || true
U2=$SNAP
T2=$PASS_T
scancel "$JA"
log "cancelled job $JA after $(calc 'int(x + 0.5)' "x=$(since "$JA_START_T")")s"

detail=""
ok=0
for key in "physics daemon" "physics " "root "; do
    read -r acct user <<<"$key"
    name="$acct/${user:-}"
    v0=$(snap_get "$S0" "$acct" "${user:-}" RawUsage) || v0="?"
    v1=$(snap_get "${U1:-}" "$acct" "${user:-}" RawUsage) || v1="?"
    v2=$(snap_get "$U2" "$acct" "${user:-}" RawUsage) || v2="?"
    detail+="$name: $v0 -> $v1 -> $v2; "
    holds 'v0 == 0 && v1 > 0 && v2 > v1' "v0=$v0" "v1=$v1" "v2=$v2" 2>/dev/null || ok=1
done
eff=$(snap_get "$U2" physics daemon EffectvUsage) || eff="?"
norm=$(snap_get "$U2" physics daemon NormUsage) || norm="?"
holds 'e > 0 && n > 0' "e=$eff" "n=$norm" 2>/dev/null || ok=1
detail+="daemon EffectvUsage=$eff NormUsage=$norm"
if [[ -n $T1 && -n $T2 ]]; then
    detail+=" (passes $(calc 'int(b - a + 0.5)' "a=$T1" "b=$T2")s apart)"
fi
check "(a) RawUsage of daemon, physics, root grows from 0 over two passes" "$ok" "$detail"

# ---------------------------------------------------------------- (e) verdict
# Allow ~2 calc periods after the cancel.
if [[ -z $E2_START_T ]]; then
    rest=$(calc 'int(l - x + 0.5)' "l=$((2 * CALC + 30))" "x=$(since "$E1_CANCEL_T")")
    if ((rest > 0)); then
        log "waiting up to ${rest}s more for job $E2 to start"
        end=$((SECONDS + rest))
        while ((SECONDS < end)) && [[ -z $E2_START_T ]]; do sleep_polling 1; done
    fi
fi
ok=0
detail="first job $E1 $E1_STATE; second $E2 before cancel: '$E2_BEFORE' (5 s later '$E2_BEFORE5'); bin $E_RUNMINS"
[[ $E1_STATE == RUNNING ]] || ok=1
[[ $E2_BEFORE == "PENDING $E_REASON_WANT" && $E2_BEFORE5 == "PENDING $E_REASON_WANT" ]] || ok=1
if [[ -n $E2_START_T ]]; then
    delay=$(calc 'int(b - a + 0.5)' "a=$E1_CANCEL_T" "b=$E2_START_T")
    detail+="; second started ${delay}s after the cancel"
    ((delay <= 2 * CALC + 30)) || ok=1
else
    detail+="; second still $(squeue -h -j "$E2" -o '%T %r' 2>/dev/null) $(calc 'int(x)' "x=$(since "$E1_CANCEL_T")")s after the cancel"
    ok=1
fi
check "(e) GrpTRESRunMins holds the 2nd job ($E_REASON_WANT), released after the 1st ends" "$ok" "$detail"
scancel "$E1" "$E2" 2>/dev/null || true
sacctmgr -i modify user where name=bin cluster=prism set GrpTRESRunMins=cpu=-1 >/dev/null || true

# ---------------------------------------------------------------- (c)
phase "(c) fill nodes"
wait_for "$LIMIT_RPC" "jobs $JA $E1 $E2 to end" jobs_gone "$JA" "$E1" "$E2" ||
    log "WARNING: jobs $JA $E1 $E2 still there"
FILL=()
for n in "${NODE_LIST[@]}"; do
    FILL+=("$(submit games -A chem -p low -w "$n" -N 1 --exclusive --time=30 -J fill --wrap 'sleep 900')")
done
wait_for "$LIMIT_SCHED" "fill jobs running" jobs_running "${FILL[@]}" ||
    log "WARNING: not all fill jobs run: $(squeue -h -j "$(IFS=,; echo "${FILL[*]}")" -o '%i:%T:%r' | tr '\n' ' ')"
# Identical jobs: daemon (has used the machine) and root (has not), both in
# physics with 30 shares; root's is submitted a second later (younger).
JC_USED=$(submit daemon -A physics -p low -n 1 --time=10 -J fair --wrap 'sleep 5')
sleep 1
JC_UNUSED=$(submit root -A physics -p low -n 1 --time=10 -J fair --wrap 'sleep 5')
# More pending jobs so that (d) compares every factor column.
JX=()
JX+=("$(submit bin -A chem -p high -q high -n 4 --time=10 -J mix-qhigh --wrap 'sleep 5')")
JX+=("$(submit games -A chem -p low -q low --nice=100 -n 2 --time=5 -J mix-nice --wrap 'sleep 5')")
JX+=("$(submit daemon -A physics -p low,high -n $((2 * CPUS)) --time=10 -J mix-big --wrap 'sleep 5')")
JX+=("$(submit root -A chem -p high -n 1 --time=10 -J mix-root --wrap 'sleep 5')")
log "pending jobs: used=$JC_USED unused=$JC_UNUSED others=${JX[*]}"

phase "(c) pass"
wait_pass "$(limit_passes 1)" "after submitting the pending jobs" || true
U3=$SNAP
T3=$PASS_T
SP3=$(sprio_snap) || SP3=
capture "c-squeue" "$(squeue -o '%.6i %.9P %.10j %.8u %.8a %.6q %.8T %.10Q %r' 2>&1)"
capture "c-sprio" "$(sprio -l 2>&1)"
capture "c-sshare" "$U3"
fs_used=$(sprio_get "$SP3" "$JC_USED" FAIRSHARE) || fs_used="?"
fs_unused=$(sprio_get "$SP3" "$JC_UNUSED" FAIRSHARE) || fs_unused="?"
q_used=$(prio_of "$JC_USED")
q_unused=$(prio_of "$JC_UNUSED")
st_used=$(state_of "$JC_USED")
st_unused=$(state_of "$JC_UNUSED")
ok=0
[[ $st_used == PENDING && $st_unused == PENDING ]] || ok=1
holds 'a > b' "a=$fs_unused" "b=$fs_used" 2>/dev/null || ok=1
holds 'a > b' "a=${q_unused:-x}" "b=${q_used:-x}" 2>/dev/null || ok=1
check "(c) unused user (root) outranks used user (daemon) in physics" "$ok" \
    "FAIRSHARE root job $JC_UNUSED=$fs_unused > daemon job $JC_USED=$fs_used; priority $q_unused > $q_used; states $st_unused/$st_used"

# ---------------------------------------------------------------- (i)
# prism explain --json against sprio -l, captured between two identical
# sprio captures (no pass in between; a few tries).
# sprio's -l columns differ between releases (24.11 adds ACCOUNT and
# QOSNAME): the columns are named, in the order check-explain-mf.py reads.
SPRIO_COLS='%i %r %u %Y %S %A %B %F %J %P %Q %N %T'
explain_vs_sprio() {
    local d=$DIR/captures/explain try
    mkdir -p "$d"
    for try in 1 2 3; do
        sprio -h -o "$SPRIO_COLS" >"$d/sprio" 2>&1 || true
        "$CLI" explain --json >"$d/explain.json" 2>"$d/explain.err" || true
        squeue -h -t PD -o '%i %Q %u %a' >"$d/squeue" 2>&1 || true
        sprio -h -o "$SPRIO_COLS" 2>&1 | cmp -s - "$d/sprio" && break
        log "(i) a pass ran during the capture (try $try)"
    done
    cat "$d/explain.err"
    python3 "$HERE/check-explain-mf.py" "$d/sprio" "$d/explain.json" \
        "$d/squeue"
}
if [[ $PRIORITY_TYPE != priority/prism ]]; then
    log "(i) skipped: prism explain needs priority/prism, not $PRIORITY_TYPE"
elif [[ ! -x $CLI ]] || ! command -v python3 >/dev/null 2>&1; then
    check "(i) prism explain --json agrees with sprio -l" 1 \
        "no prism command at $CLI or no python3"
else
    "$CLI" explain "$JC_USED" || true
    detail=$(explain_vs_sprio 2>&1) && ok=0 || ok=1
    check "(i) prism explain --json agrees with sprio -l" "$ok" \
        "$(tr '\n' ';' <<<"$detail")"
fi

# ---------------------------------------------------------------- (j)
# prism compare on the pair of (c): same account, partition, size and
# time limit, different usage: fair-share decides, and Fair Tree's reason
# is where root and daemon part under physics.
if [[ $PRIORITY_TYPE != priority/prism ]]; then
    log "(j) skipped: prism compare needs priority/prism, not $PRIORITY_TYPE"
elif [[ ! -x $CLI ]]; then
    check "(j) prism compare names fair-share as the deciding term" 1 \
        "no prism command at $CLI"
else
    cmp_out=$("$CLI" compare "$JC_USED" "$JC_UNUSED" 2>&1) && crc=0 || crc=$?
    echo "=== prism compare $JC_USED $JC_UNUSED"
    echo "$cmp_out"
    ok=0
    ((crc == 0)) || ok=1
    grep -q "^  job $JC_UNUSED ranks above job $JC_USED by " <<<"$cmp_out" || ok=1
    grep -q "^  decided by: fairshare (" <<<"$cmp_out" || ok=1
    grep -q "^    why: root (physics); under physics, daemon (physics) has level fair-share .* < root (physics)'s " <<<"$cmp_out" || ok=1
    check "(j) prism compare names fair-share as the deciding term, and where Fair Tree parted the users" \
        "$ok" "exit $crc"
fi

# ---------------------------------------------------------------- (k)
# prism whatif: the queue recomputed under new weights (all kept above 0,
# so that (d) still compares every factor), then the same weights applied
# with scontrol reconfigure: after the next pass sprio ranks the pending
# entries (job and partition) in the order whatif printed, each priority
# within what the age terms gained meanwhile (W_AGE per MAX_AGE seconds,
# the same for every job that accrues). Bad input first: an unknown
# setting, a factor the controller does not compute, a policy file under
# policy=multifactor: exit 1 with one line each.
# set_conf KEY VALUE -- every KEY= line of the cluster's slurm.conf
# replaced by one KEY=VALUE line at the end.
set_conf() {
    sed -i "/^$1=/d" "$DIR/etc/slurm.conf"
    echo "$1=$2" >>"$DIR/etc/slurm.conf"
}
K_SET=(PriorityWeightPartition=10 PriorityWeightJobSize=20000 PriorityWeightQOS=50000)
# "JOB PARTITION PRIORITY" per line, highest first (sprio's rank order)
sprio_order() {
    sprio -h -o '%i %r %Y' 2>/dev/null | sort -k3,3nr -k1,1n -k2,2
}
if [[ $PRIORITY_TYPE != priority/prism ]]; then
    log "(k) skipped: prism whatif needs priority/prism, not $PRIORITY_TYPE"
elif [[ ! -x $CLI ]]; then
    check "(k) prism whatif" 1 "no prism command at $CLI"
else
    ok=0
    detail=""
    for bad in "PriorityWeightFairshar=5|did you mean PriorityWeightFairshare" \
        "PriorityWeightAssoc=5|PriorityWeightAssoc is 0 now" \
        "PriorityMaxAge=soon|is not a time" \
        "--policy-file=$DIR/etc/slurm.conf|reads no policy file"; do
        out=$("$CLI" whatif "${bad%%|*}" 2>&1 >/dev/null) && brc=0 || brc=$?
        if ((brc != 1)) || [[ $(wc -l <<<"$out") != 1 ]] ||
            ! grep -qF "${bad#*|}" <<<"$out"; then
            ok=1
            detail+="'${bad%%|*}': exit $brc, '$out'; "
        fi
    done
    check "(k) prism whatif: bad input gives one error line and exit 1" "$ok" "${detail:-4 cases}"

    detail=""
    K_BEFORE=$(sprio_order)
    wif=$("$CLI" whatif --all "${K_SET[@]}" 2>&1) && wrc=0 || wrc=$?
    echo "=== prism whatif --all ${K_SET[*]}"
    echo "$wif"
    # the new order: "JOB PARTITION PRIO_NEW" per entry
    K_WANT=$(awk '/^The new order:/ { on = 1; next }
        on && $1 ~ /^[0-9]+$/ { print $1, $2, $7 }' <<<"$wif")
    for kv in "${K_SET[@]}"; do set_conf "${kv%%=*}" "${kv#*=}"; done
    K_T0=$(now)
    K_REF=$(sshare_snap) || K_REF=
    ctld_reconfigure "$DIR"
    wait_pass "$(limit_passes 1)" "first pass after the whatif settings" "$K_REF" || true
    K_AFTER=$(sprio_order)
    capture "k-sprio" "$K_AFTER"
    dt=$(calc 'int(b - a + 0.5)' "a=$K_T0" "b=$(now)")
    tol=$(calc 'int(w * (t + c) / m) + 2' "w=$W_AGE" "t=$dt" "c=$CALC" "m=$MAX_AGE")
    ok=0
    ((wrc == 0)) || ok=1
    [[ -n $K_WANT && $K_AFTER != "$K_BEFORE" ]] || ok=1
    [[ $(awk '{ print $1, $2 }' <<<"$K_WANT") == "$(awk '{ print $1, $2 }' <<<"$K_AFTER")" ]] || ok=1
    while read -r j p want got; do
        holds 'g - w <= t && w - g <= t' "g=$got" "w=$want" "t=$tol" 2>/dev/null ||
            { ok=1; detail+="job $j/$p whatif $want, sprio $got; "; }
    done < <(paste -d' ' <(awk '{ print $1, $2, $3 }' <<<"$K_WANT") <(awk '{ print $3 }' <<<"$K_AFTER"))
    check "(k) prism whatif's new order is sprio's after the same change is reconfigured" "$ok" \
        "exit $wrc; ${detail}whatif: $(awk '{ printf "%s/%s ", $1, $2 }' <<<"$K_WANT"); sprio: $(awk '{ printf "%s/%s ", $1, $2 }' <<<"$K_AFTER"); priorities within $tol; order before: $(awk '{ printf "%s/%s ", $1, $2 }' <<<"$K_BEFORE")"
fi

# ---------------------------------------------------------------- (l)
phase "(l) account sub moves from root to chem"
L_MARK=$(log_mark)
[[ $PRIORITY_TYPE == priority/prism ]] && scontrol setdebugflags +Priority
L_BEFORE=$(sub_parent)
sacctmgr -i modify account where name=sub cluster=prism set parent=chem >/dev/null
sub_moved() { [[ $(sub_parent) == chem ]]; }
wait_for "$LIMIT_RPC" "slurmctld to get the move" sub_moved ||
    log "WARNING: slurmctld does not show sub under chem yet"
L_AFTER=$(sub_parent)

# ---------------------------------------------------------------- (b)
phase "(b) drain, decay pass"
# Drain every node and end the fill jobs: from now on no job runs, so all
# usage only decays (this also makes (d) a clean comparison).
scontrol update nodename="$(IFS=,; echo "${NODE_LIST[*]}")" state=drain reason=prism-test
scancel "${FILL[@]}"
wait_for "$LIMIT_RPC" "fill jobs to end" jobs_gone "${FILL[@]}" || log "WARNING: fill jobs still there"
wait_pass "$(limit_passes 1)" "decay after the jobs ended" || true
U4=$SNAP
T4=$PASS_T
SP4=$(sprio_snap) || SP4=
SPN4=$(sprio_cols -n) || SPN4=
SPW4=$(timeout 20 sprio -w 2>/dev/null | tr -s ' ') || SPW4=
v3=$(snap_get "$U3" physics daemon RawUsage) || v3="?"
v4=$(snap_get "$U4" physics daemon RawUsage) || v4="?"
dt=$(calc 'b - a' "a=$T3" "b=$T4")
ok=0
if holds 'v3 > 0 && v4 < v3' "v3=$v3" "v4=$v4" 2>/dev/null; then
    ratio=$(calc 'b / a' "a=$v3" "b=$v4")
    expect=$(calc '0.5 ^ (dt / hl)' "dt=$dt" "hl=$HL")
    lo=$(calc '0.5 ^ (2 * dt / hl)' "dt=$dt" "hl=$HL")
    hi=$(calc '0.5 ^ (dt / (2 * hl))' "dt=$dt" "hl=$HL")
    holds 'r >= lo && r <= hi' "r=$ratio" "lo=$lo" "hi=$hi" || ok=1
    detail="daemon RawUsage $v3 -> $v4 over $(calc 'int(x + 0.5)' "x=$dt")s: ratio $ratio, half-life ${HL}s predicts $expect (accepted [$lo, $hi])"
else
    ok=1
    detail="daemon RawUsage $v3 -> $v4 (not strictly falling) over $(calc 'int(x + 0.5)' "x=$dt")s"
fi
check "(b) RawUsage decays after the job ended" "$ok" "$detail"

# (l): the pass of (b) is the first one after the move
if [[ $PRIORITY_TYPE == priority/prism ]]; then
    scontrol setdebugflags -Priority
    n=$(tail -n +"$((L_MARK + 1))" "$DIR/log/slurmctld.log" |
        grep -c 'Fair Tree: the tree changed shape since the last pass' || true)
    ok=1
    [[ ${n:-0} == 1 && $L_AFTER == chem ]] && ok=0
    check "(l) after sub moved, Prism ranked Fair Tree from list order once" "$ok" \
        "sub's parent ${L_BEFORE:-?} -> ${L_AFTER:-?}; the log line ${n:-0} time(s) in the passes since"
else
    check "(l) slurmctld shows sub moved under chem" \
        "$([[ $L_AFTER == chem ]] && echo 0 || echo 1)" "sub's parent ${L_BEFORE:-?} -> ${L_AFTER:-?}"
fi

# ---------------------------------------------------------------- (d)
phase "(d) switch to $OTHER_TYPE"
capture "d-sprio-before" "$SP4"
capture "d-sshare-before" "$U4"
D_OK=0
mark=$(log_mark)
if "$HERE/cluster-restart-ctld.sh" "$DIR" "$OTHER_TYPE" &&
    line=$(plugin_loaded "$mark" "$OTHER_TYPE"); then
    check "(d) slurmctld restarted with $OTHER_TYPE" 0 "$line"
    wait_periodic_pass "$(now)" "first periodic pass under $OTHER_TYPE" "$U4" || true
    U5=$SNAP
    T5=$PASS_T
    SP5=$(sprio_snap) || SP5=
    SPN5=$(sprio_cols -n) || SPN5=
    SPW5=$(timeout 20 sprio -w 2>/dev/null | tr -s ' ') || SPW5=
    capture "d-sprio-n-before" "$SPN4"
    capture "d-sprio-n-after" "$SPN5"
    capture "d-sprio-w-before" "$SPW4"
    capture "d-sprio-w-after" "$SPW5"
    capture "d-sprio-after" "$SP5"
    capture "d-sshare-after" "$U5"
    if [[ $OTHER_TYPE == priority/multifactor ]]; then
        xout=$("$CLI" explain 2>"$DIR/explain-m.err") && xrc=0 || xrc=$?
        xerr=$(<"$DIR/explain-m.err")
        if ((xrc == 1)) && [[ -z $xout &&
            $xerr == "prism: slurmctld runs PriorityType=priority/multifactor, not priority/prism: use \`sprio -l\`" ]]; then
            check "(m) prism explain under priority/multifactor: an error (exit 1)" 0 "$xerr"
        else
            check "(m) prism explain under priority/multifactor: an error (exit 1)" 1 \
                "exit $xrc, stdout '${xout:0:200}', stderr '$xerr'"
        fi
    fi
else
    D_OK=1
    check "(d) slurmctld restarted with $OTHER_TYPE" 1 \
        "restart failed or no plugin-load line for it (PriorityType=$(ctld_priority_type))"
fi

if ((D_OK == 0)); then
    dt=$(calc 'b - a' "a=$T4" "b=$T5")
    # sprio: same jobs/partitions; exact factors except AGE (and PRIORITY).
    age_exp=$(calc 'w * dt / m' "w=$W_AGE" "dt=$dt" "m=$MAX_AGE")
    age_tol=$(calc 'w * c / m + 1.5' "w=$W_AGE" "c=$((CALC + 2))" "m=$MAX_AGE")
    bad=()
    keys4=$(cut -d'|' -f1,2 <<<"$SP4" | sort)
    keys5=$(cut -d'|' -f1,2 <<<"$SP5" | sort)
    [[ -n $keys4 && $keys4 == "$keys5" ]] ||
        bad+=("rows differ: before [$(tr '\n' ' ' <<<"$keys4")] after [$(tr '\n' ' ' <<<"$keys5")]")
    nrows=0
    while IFS='|' read -r job part _ prio _ age _ fs js pf qos nice tres; do
        [[ -n $job ]] || continue
        row=$(awk -F'|' -v j="$job" -v p="$part" '$1 == j && $2 == p' <<<"$SP5")
        [[ -n $row ]] || continue
        nrows=$((nrows + 1))
        IFS='|' read -r _ _ _ prio2 _ age2 _ fs2 js2 pf2 qos2 nice2 tres2 <<<"$row"
        for c in "FAIRSHARE $fs $fs2" "JOBSIZE $js $js2" "PARTITION $pf $pf2" \
            "QOS $qos $qos2" "NICE $nice $nice2" "TRES ${tres:--} ${tres2:--}"; do
            read -r cn a b <<<"$c"
            [[ $a == "$b" ]] || bad+=("$job/$part $cn $a->$b")
        done
        holds 'd >= e - t && d <= e + t' "d=$(calc 'b - a' "a=$age" "b=$age2")" \
            "e=$age_exp" "t=$age_tol" || bad+=("$job/$part AGE $age->$age2 (expected +$age_exp+-$age_tol)")
        holds 'dp - da >= -2 && dp - da <= 2' "dp=$(calc 'b - a' "a=$prio" "b=$prio2")" \
            "da=$(calc 'b - a' "a=$age" "b=$age2")" || bad+=("$job/$part PRIORITY $prio->$prio2 vs AGE $age->$age2")
    done <<<"$SP4"
    ((nrows > 0)) || bad+=("no sprio rows to compare")
    if ((${#bad[@]} == 0)); then
        check "(d) sprio factors equal under $PRIORITY_TYPE and $OTHER_TYPE" 0 \
            "$nrows rows; AGE +$age_exp expected for ${dt%.*}s"
    else
        check "(d) sprio factors equal under $PRIORITY_TYPE and $OTHER_TYPE" 1 "${bad[*]:0:8}"
    fi
    # sprio -n (normalised factors): every column but PRIORITY and AGE to
    # the letter; sprio -w (the weights) whole.
    bad=()
    [[ -n $SPN4 && $SPN4 == "$SPN5" ]] ||
        bad+=("-n: $(diff <(echo "$SPN4") <(echo "$SPN5") | grep '^[<>]' | head -n 4 | tr '\n' ' ')")
    [[ -n $SPW4 && $SPW4 == "$SPW5" ]] ||
        bad+=("-w: $(diff <(echo "$SPW4") <(echo "$SPW5") | grep '^[<>]' | head -n 4 | tr '\n' ' ')")
    if ((${#bad[@]} == 0)); then
        check "(d) sprio -n and -w equal under $PRIORITY_TYPE and $OTHER_TYPE" 0 \
            "$(wc -l <<<"$SPN4") rows of -n; -w: $(tail -n 1 <<<"$SPW4")"
    else
        check "(d) sprio -n and -w equal under $PRIORITY_TYPE and $OTHER_TYPE" 1 "${bad[*]}"
    fi

    # sshare: shares exact; usage decayed by the elapsed time +- one pass.
    e=$(calc '0.5 ^ (dt / hl)' "dt=$dt" "hl=$HL")
    f1=$(calc '0.5 ^ (c / hl)' "c=$CALC" "hl=$HL")
    raw_lo=$(calc 'e * f - 0.005' "e=$e" "f=$f1")
    raw_hi=$(calc '(e / f > 1 ? 1 : e / f) + 0.005' "e=$e" "f=$f1")
    rel=$(calc '1 - f + 0.001' "f=$f1")
    bad=()
    k4=$(cut -d'|' -f1,2 <<<"$U4" | sort)
    k5=$(cut -d'|' -f1,2 <<<"${U5:-}" | sort)
    [[ -n $k4 && $k4 == "$k5" ]] || bad+=("associations differ")
    nrows=0
    while IFS='|' read -r acct user rs ns ru nu eu fsh lfs; do
        [[ -n $acct ]] || continue
        row=$(awk -F'|' -v a="$acct" -v u="$user" '$1 == a && $2 == u' <<<"${U5:-}")
        [[ -n $row ]] || continue
        nrows=$((nrows + 1))
        IFS='|' read -r _ _ rs2 ns2 ru2 nu2 eu2 fsh2 lfs2 <<<"$row"
        id="$acct/$user"
        [[ $rs == "$rs2" ]] || bad+=("$id RawShares $rs->$rs2")
        [[ $ns == "$ns2" ]] || bad+=("$id NormShares $ns->$ns2")
        if [[ $ru == 0 || -z $ru ]]; then
            [[ $ru2 == "$ru" ]] || bad+=("$id RawUsage $ru->$ru2")
        else
            # +-1: sshare prints RawUsage rounded to an integer.
            holds 'b >= a * lo - 1 && b <= a * hi + 1' "a=$ru" "b=${ru2:-x}" "lo=$raw_lo" "hi=$raw_hi" ||
                bad+=("$id RawUsage $ru->$ru2 (ratio $(calc 'b / a' "a=$ru" "b=${ru2:-0}"), want [$raw_lo, $raw_hi])")
        fi
        for c in "NormUsage ${nu:--} ${nu2:--}" "EffectvUsage ${eu:--} ${eu2:--}" \
            "FairShare ${fsh:--} ${fsh2:--}" "LevelFS ${lfs:--} ${lfs2:--}"; do
            read -r cn a b <<<"$c"
            [[ $a == "$b" ]] && continue
            if [[ $a =~ ^[0-9]+(\.[0-9]+)?$ && $b =~ ^[0-9]+(\.[0-9]+)?$ ]] &&
                holds 'b - a <= r * a + 0.000002 && a - b <= r * a + 0.000002' \
                    "a=$a" "b=$b" "r=$rel"; then
                continue
            fi
            bad+=("$id $cn $a->$b")
        done
    done <<<"$U4"
    ((nrows > 0)) || bad+=("no sshare rows to compare")
    if ((${#bad[@]} == 0)); then
        check "(d) sshare equal under $PRIORITY_TYPE and $OTHER_TYPE" 0 \
            "$nrows associations; RawUsage ratio in [$raw_lo, $raw_hi] for ${dt%.*}s (pure decay $e)"
    else
        check "(d) sshare equal under $PRIORITY_TYPE and $OTHER_TYPE" 1 "${bad[*]:0:8}"
    fi
else
    check "(d) sprio factors equal under $PRIORITY_TYPE and $OTHER_TYPE" 1 "not compared: restart failed"
    check "(d) sprio -n and -w equal under $PRIORITY_TYPE and $OTHER_TYPE" 1 "not compared: restart failed"
    check "(d) sshare equal under $PRIORITY_TYPE and $OTHER_TYPE" 1 "not compared: restart failed"
fi

phase "(d) switch back to $PRIORITY_TYPE"
mark=$(log_mark)
if "$HERE/cluster-restart-ctld.sh" "$DIR" "$PRIORITY_TYPE" &&
    line=$(plugin_loaded "$mark" "$PRIORITY_TYPE"); then
    check "(d) slurmctld switched back to $PRIORITY_TYPE" 0 "$line"
else
    check "(d) slurmctld switched back to $PRIORITY_TYPE" 1 \
        "restart failed or no plugin-load line for it (PriorityType=$(ctld_priority_type))"
    FINISHED=1
    exit 1
fi

# ---------------------------------------------------------------- (f)
phase "(f) restart with the same plugin"
# Let the switch-back restart settle (its own first pass, if any) so that
# "before" is a steady value.
sleep_polling 2
F_REF=$(sshare_snap) || F_REF=
fb=$(snap_get "$F_REF" physics daemon RawUsage) || fb="?"
TF0=$(now)
mark=$(log_mark)
F_RESTART=0
"$HERE/cluster-restart-ctld.sh" "$DIR" "$PRIORITY_TYPE" &&
    plugin_loaded "$mark" "$PRIORITY_TYPE" >/dev/null || F_RESTART=1
F_NOW=$(sshare_snap) || F_NOW=
fa=$(snap_get "$F_NOW" physics daemon RawUsage) || fa="?"
TF1=$(now)
wait_periodic_pass "$TF1" "first periodic pass after the same-plugin restart" "$F_REF" || true
fp=$(snap_get "$SNAP" physics daemon RawUsage) || fp="?"
TF2=$PASS_T
ok=$F_RESTART
detail="daemon RawUsage before $fb"
((F_RESTART == 0)) || detail="restart failed or no plugin-load line; $detail"
for pair in "$fa $TF1 right-after" "$fp $TF2 after-a-pass"; do
    read -r v t what <<<"$pair"
    dt=$(calc 'b - a' "a=$TF0" "b=$t")
    lo=$(calc '0.5 ^ ((dt + c) / hl) - 0.005' "dt=$dt" "c=$CALC" "hl=$HL")
    r=$(calc 'b / a' "a=$fb" "b=$v" 2>/dev/null) || r="?"
    detail+=", $what $v (ratio $r, want [$lo, 1.0005] for ${dt%.*}s)"
    holds 'a > 0 && b / a >= lo && b / a <= 1.0005' "a=$fb" "b=$v" "lo=$lo" 2>/dev/null || ok=1
done
check "(f) usage survives a slurmctld restart ($PRIORITY_TYPE)" "$ok" "$detail"

# ---------------------------------------------------------------- (g)
phase "(g) reconfigure: PriorityFlags=NO_FAIR_TREE, half-life 2 minutes"
G_HL=120
G_REF=$(sshare_snap) || G_REF=
set_conf PriorityFlags NO_FAIR_TREE
set_conf PriorityDecayHalfLife 0-0:$((G_HL / 60))
ctld_reconfigure "$DIR"
log "slurmctld now has: $(scontrol show config | grep -E '^(PriorityFlags|PriorityDecayHalfLife) ' | tr -s ' ' | tr '\n' ' ')"
wait_pass "$(limit_passes 1)" "first pass after the reconfigure" "$G_REF" || true
G1=$SNAP
TG1=$PASS_T
TG1_LO=$PASS_T_LO
wait_pass "$(limit_passes 1)" "second pass after the reconfigure" "$G1" || true
G2=$SNAP
TG2=$PASS_T
TG2_LO=$PASS_T_LO
SPG=$(sprio_snap) || SPG=
capture "g-sshare" "$G2"
capture "g-sprio" "$SPG"

# Half-life: daemon's RawUsage between the two passes (no job runs).
g1=$(snap_get "$G1" physics daemon RawUsage) || g1="?"
g2=$(snap_get "$G2" physics daemon RawUsage) || g2="?"
dt=$(calc 'b - a' "a=$TG1" "b=$TG2")
# The time between the passes, seen from outside: each pass came between
# the last poll that read the usage before it and the one that read it
# after (a slow sshare on a loaded machine widens that), so it is within
# [TG2_LO - TG1, TG2 - TG1_LO]; +-3 s where a pass was seen at the first
# poll. Slurm's times are whole seconds (+-1 s), and sshare rounds
# RawUsage to an integer (1 / g1). The old half-life would give
# 0.5^(dt/HL).
dmin=$(calc 'a - b' "a=${TG2_LO:-$TG2}" "b=$TG1")
dmax=$(calc 'a - b' "a=$TG2" "b=${TG1_LO:-$TG1}")
[[ -n $TG2_LO ]] || dmin=$(calc 'd - 3' "d=$dt")
[[ -n $TG1_LO ]] || dmax=$(calc 'd + 3' "d=$dt")
lo=$(calc '0.5 ^ ((d + 1) / h) - 1 / a' "d=$dmax" "h=$G_HL" "a=$g1" 2>/dev/null) || lo=nan
hi=$(calc '0.5 ^ ((d - 1) / h) + 1 / a' "d=$dmin" "h=$G_HL" "a=$g1" 2>/dev/null) || hi=nan
ok=0
holds 'a > 100 && b / a >= lo && b / a <= hi' "a=$g1" "b=$g2" "lo=$lo" "hi=$hi" 2>/dev/null || ok=1
check "(g) scontrol reconfigure applies the new half-life" "$ok" \
    "daemon RawUsage $g1 -> $g2 over ${dt%.*}s (seen from outside: ${dmin%.*}-${dmax%.*}s): ratio $(calc 'b / a' "a=$g1" "b=$g2"), want [$lo, $hi] (${G_HL}s half-life; ${HL}s would give $(calc '0.5 ^ (dt / h)' "dt=$dt" "h=$HL"))"

# Flags: under NO_FAIR_TREE every user association's FairShare is the
# classic 2^(-EffectvUsage/NormShares) (FairShareDampeningFactor=1), and
# the pending jobs' FAIRSHARE column follows it.
ok=0
detail=""
nrows=0
changed=0
while IFS='|' read -r acct user _ ns _ _ eu fsh _; do
    [[ -n $user ]] || continue
    holds 's > 0' "s=$ns" 2>/dev/null || continue
    want=$(calc '2 ^ (-e / s)' "e=$eu" "s=$ns")
    tol=$(calc '0.000002 + w * 0.6932 * (0.0000006 / s + 0.0000006 * e / (s * s))' \
        "w=$want" "e=$eu" "s=$ns")
    nrows=$((nrows + 1))
    holds 'f - w <= t && w - f <= t' "f=$fsh" "w=$want" "t=$tol" 2>/dev/null ||
        { ok=1; detail+="$acct/$user FairShare $fsh, 2^(-$eu/$ns) = $want; "; }
    before=$(snap_get "$G_REF" "$acct" "$user" FairShare) || before=
    [[ -n $before && $before != "$fsh" ]] && changed=$((changed + 1))
done <<<"$G2"
fs_daemon=$(snap_get "$G2" physics daemon FairShare) || fs_daemon="?"
ft_daemon=$(snap_get "$G_REF" physics daemon FairShare) || ft_daemon="?"
sp_fs=$(sprio_get "$SPG" "$JC_USED" FAIRSHARE) || sp_fs="?"
sp_want=$(calc 'w * f' "w=10000" "f=$fs_daemon")
((nrows > 0 && changed > 0)) || ok=1
holds 'p - w <= 1 && w - p <= 1' "p=$sp_fs" "w=$sp_want" 2>/dev/null || ok=1
check "(g) scontrol reconfigure applies PriorityFlags=NO_FAIR_TREE" "$ok" \
    "${detail}$nrows user associations follow 2^(-UE/S), $changed changed since Fair Tree (daemon $ft_daemon -> $fs_daemon); job $JC_USED FAIRSHARE $sp_fs, want $sp_want +-1"

# ---------------------------------------------------------------- (h)
phase "(h) GrpTRESRunMins across a restart"
# After a restart slurmctld adds each running job's whole time limit to
# grp_used_tres_run_secs again; the priority plugin takes off what ran
# before its last pass.  A job of bin that has run for a while: its
# run-minutes must continue across a restart, not jump back to the whole
# limit, and the second job must stay held.
mapfile -t ALL_JOBS < <(squeue -h -o '%i')
((${#ALL_JOBS[@]} == 0)) || scancel "${ALL_JOBS[@]}" 2>/dev/null || true
wait_for "$LIMIT_SCHED" "all jobs to end" jobs_gone "${ALL_JOBS[@]}" || log "WARNING: jobs still there"
scontrol update nodename="$(IFS=,; echo "${NODE_LIST[*]}")" state=resume
H_FULL=$((CPUS * 60))
H_LIMIT=$((H_FULL * 3 / 2))
sacctmgr -i modify user where name=bin cluster=prism set GrpTRESRunMins=cpu=$H_LIMIT >/dev/null
# runmins_of_bin -- the used part of bin's GrpTRESRunMins=cpu=LIMIT(USED).
runmins_of_bin() {
    scontrol show assoc_mgr users=bin flags=assoc 2>/dev/null |
        awk -v l="$H_LIMIT" '/^ClusterName=/ { mine = / UserName=bin\(/ }
            mine && match($0, "GrpTRESRunMins=cpu=" l "\\([0-9]+\\)") {
                v = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", v); sub(/\)/, "", v)
                print v; f = 1; exit }
            END { exit !f }'
}
wait_for "$LIMIT_RPC" "slurmctld to get bin's GrpTRESRunMins=cpu=$H_LIMIT" runmins_of_bin ||
    log "WARNING: bin's new limit not visible in slurmctld yet"
H1=$(submit bin -p low -N 1 -n "$CPUS" --time=60 -J runmins-r1 --wrap 'sleep 900')
wait_for "$LIMIT_SCHED" "job $H1 running" jobs_running "$H1" || log "job $H1 did not start"
H1_START=$(date -d "$(squeue -h -j "$H1" -o '%S')" +%s 2>/dev/null) || H1_START=
H2=$(submit bin -p low -N 1 -n "$CPUS" --time=60 -J runmins-r2 --wrap 'sleep 900')
h2_held() { [[ $(squeue -h -j "$H2" -o '%T %r') == "PENDING $E_REASON_WANT" ]]; }
wait_for "$LIMIT_SCHED" "job $H2 pending with $E_REASON_WANT" h2_held || true
# Two passes while job H1 runs, so that its run-minutes are clearly below
# the whole limit before the restart.
wait_pass "$(limit_passes 1)" "first pass with job $H1 running" || true
wait_pass "$(limit_passes 1)" "second pass with job $H1 running" "$SNAP" || true
HB=$(runmins_of_bin) || HB="?"
HB_T=$(now)
mark=$(log_mark)
H_RESTART=0
"$HERE/cluster-restart-ctld.sh" "$DIR" "$PRIORITY_TYPE" &&
    plugin_loaded "$mark" "$PRIORITY_TYPE" >/dev/null || H_RESTART=1
HA=$(runmins_of_bin) || HA="?"
HA_T=$(now)
wait_periodic_pass "$HA_T" "first periodic pass after the restart with job $H1 running" "$(sshare_snap)" || true
HP=$(runmins_of_bin) || HP="?"
HP_T=$PASS_T
H2_AFTER=$(squeue -h -j "$H2" -o '%T %r')
# Right after the restart: as before it, less what ran since the last
# pass (plus one minute of rounding), and never the whole limit again.
HA_LO=$(calc 'int(b - c * (t - s + x) / 60) - 1' "b=${HB:-0}" "c=$CPUS" "t=$HA_T" "s=$HB_T" "x=$CALC" 2>/dev/null) || HA_LO=nan
# After a pass: the whole limit less what has run since the job started.
HP_WANT=$(calc 'int((c * 3600 - c * (t - s)) / 60)' "c=$CPUS" "t=$HP_T" "s=${H1_START:-0}" 2>/dev/null) || HP_WANT=nan
HP_TOL=$(calc 'int(c * 3 / 60) + 1' "c=$CPUS")
HA_HI=$(calc 'b + 1' "b=$HB" 2>/dev/null) || HA_HI=nan
ok=$H_RESTART
holds 'b <= f - 2' "b=$HB" "f=$H_FULL" 2>/dev/null || ok=1
holds 'a <= b + 1 && a >= lo' "a=$HA" "b=$HB" "lo=$HA_LO" 2>/dev/null || ok=1
holds 'p - w <= t && w - p <= t' "p=$HP" "w=$HP_WANT" "t=$HP_TOL" 2>/dev/null || ok=1
[[ $H2_AFTER == "PENDING $E_REASON_WANT" ]] || ok=1
detail="job $H1 ($CPUS CPUs, 60 min) run-minutes: $HB before the restart (whole limit $H_FULL), $HA right after (want [$HA_LO, $HA_HI]), $HP after a pass (want $HP_WANT +-$HP_TOL); job $H2 after: '$H2_AFTER'"
((H_RESTART == 0)) || detail="restart failed or no plugin-load line; $detail"
check "(h) GrpTRESRunMins run-minutes continue across a restart, 2nd job still held" "$ok" "$detail"
scancel "$H1" "$H2" 2>/dev/null || true

FINISHED=1
((FAILED == 0))
