#!/bin/bash
# tests/cluster/test-crash.sh -- slurmctld killed with SIGKILL around
# recalculation passes loses no usage and no Prism state.
#
# Starts a private loopback cluster (PriorityCalcPeriod=1 minute) with the
# Moab policy (its own fair-share usage file) on top of Slurm's association
# usage, queues 10,000 pending jobs (so that a pass takes a while), runs
# root's jobs on three nodes and user games's on the fourth, and then, KILLS
# times (none by default: at this size such a kill lands after the pass,
# as a plain restart would), kills slurmctld with SIGKILL at a random
# point of the first 100 ms of a recalculation pass (passes start every
# PriorityCalcPeriod, so the next start is predictable from the last end)
# and starts it again; then once inside a pass: with DebugFlags=Priority turned on in the
# running slurmctld, killed the moment the pass logs that it decays usage
# (its first step, before it charges, recomputes 10,000 priorities with a
# log line each and saves): that kill must be seen to land before the
# pass's usage snapshot; then once inside the save: killed the moment the
# pass's usage snapshot (priority_prism_usage) is renamed into place,
# before the state file: that kill must be seen to land between the two
# (kill-on.c, inotify, for both). Where each kill landed is read from the
# files it left (the pass time in the snapshot's header against the state
# file's last_recalc, a leftover .new file) and logged. After each restart
# it checks:
#   - Prism read its state file and the Moab usage file without finding
#     them damaged (no "damaged" in the log),
#   - the association usage (sshare RawUsage) of root and games is not
#     below what it was before the kill by more than one calc period's
#     charge, and after the next pass not below it at all, nor above it by
#     more than the time that passed (no charge is lost or doubled),
#   - user games's share of the Moab fair-share usage is what it was,
#   - every pending job still has a priority,
#   - after the kill inside the save, that Prism continued from the
#     snapshot's pass (its log says so).
# The cluster is always stopped (trap); the temp dir is removed on success
# and kept on failure (or with PRISM_KEEP_DIR).
#
# Environment: PRISM_PLUGIN_DIR (passed to cluster-start.sh),
# PRISM_CRASH_KILLS (timed kills, default 0; then the one inside a pass
# and the one inside the save),
# PRISM_CRASH_JOBS (default 10000),
# PRISM_CRASH_CLASSIC=1: the default policy on classic fair-share
# (PriorityFlags=NO_FAIR_TREE) instead of Moab's on Fair Tree: the pass
# charges after its fair-share walk, so the snapshot holds the walk's
# copy and the associations charged since put again (test-crash-classic.sh);
# no Moab usage file to check then.
# Last output line: "N passed, M failed"; exit 0 only if M is 0.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"

KILLS=${PRISM_CRASH_KILLS:-0}
N_JOBS=${PRISM_CRASH_JOBS:-10000}
CLASSIC=${PRISM_CRASH_CLASSIC:-0}
if ((CLASSIC)); then
    cluster_test_begin crash-classic
else
    cluster_test_begin crash
fi

cc -O2 -o "$DIR/submit-many" "$HERE/submit-many.c" -lslurm ||
    die "cannot build submit-many (libslurm-dev missing?)"
cc -O2 -o "$DIR/kill-on" "$HERE/kill-on.c" ||
    die "cannot build kill-on"
# kill-on runs at nice -20: woken by what it watches, it runs before the
# busy processes of a loaded machine (other tests, compilers beside it)

POLICY=$DIR/moab.conf
cat >"$POLICY" <<'EOF'
# the crash test's Moab policy: fair-share by dedicated processor-seconds
FSPOLICY         DEDICATEDPS
FSWEIGHT         1
FSUSERWEIGHT     100
USERCFG[games]  FSTARGET=50
EOF
export PRISM_PRIORITY_TYPE=priority/prism
if ((CLASSIC)); then
    export PRISM_SLURM_CONF_EXTRA="PriorityFlags=NO_FAIR_TREE
MaxJobCount=40000"
else
    export PRISM_SLURM_CONF_EXTRA="PriorityParameters=policy=moab,config=$POLICY
MaxJobCount=40000"
fi
export PRISM_SLURMCTLD_DEBUG=info

log "starting cluster in $DIR"
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"
LOGF=$DIR/log/slurmctld.log
PLUGIN_TAG=priority/prism
STATE=$DIR/state
PERIOD=60

fill_nodes || die "fill jobs did not start"
"$DIR/submit-many" "$N_JOBS" low "$DIR/out" >/dev/null || die "cannot queue $N_JOBS jobs"

mtime() { stat -c %.3Y "$STATE/priority_prism_state" 2>/dev/null || echo 0; }
# wait_pass -- wait for the end of the next pass; prints its time
wait_pass() {
    local deadline=$((SECONDS + PERIOD + 30)) mark=$DIR/pass.mark
    mark_mtime "$STATE/priority_prism_state" "$mark"
    while ((SECONDS < deadline)); do
        if changed_since "$STATE/priority_prism_state" "$mark"; then
            mtime
            return 0
        fi
        sleep 0.05
    done
    return 1
}
# raw usage of USER in ACCOUNT
raw() {
    sshare -n -P -A "$2" -u "$1" -o Account,User,RawUsage 2>/dev/null |
        awk -F'|' -v u="$1" '$2 == u { print $3 }' | tail -n 1
}
games_pct() {
    ((CLASSIC)) && { echo 0; return; }
    awk '$1 == "total" { for (i = 2; i <= NF; i++) t += $i }
         $1 == "user" && $2 == "games" { for (i = 3; i <= NF; i++) u += $i }
         END { if (t > 0) printf "%.6f\n", 100 * u / t; else print 0 }' \
        "$STATE/priority_prism_moab_usage"
}
ctld_pid() { read -r p _ <"$DIR/pids/slurmctld.pid" && echo "$p"; }
# the pass time in the usage snapshot's header; the state file's
state_last() { awk '$1 == "last_recalc" { print $2 }' "$STATE/priority_prism_state" 2>/dev/null; }
snap_pass() { od -An -t d8 -j 24 -N 8 "$STATE/priority_prism_usage" 2>/dev/null | tr -d ' '; }
wait_dead() {
    while _proc_stat "$1" && [[ $_PSTAT_STATE != Z ]]; do
        sleep 0.05
    done
}
# landed LAST_BEFORE -- where a kill landed, from the files it left
landed() {
    local new s l
    # Prism's files only (priority_*): slurmctld's own saves (job_state,
    # fed_mgr_state, ...) run in their own thread at any moment, and a kill
    # can land in one of them; that says nothing of where it hit Prism
    new=$(cd "$STATE" && ls -- priority_*.new 2>/dev/null | tr '\n' ' ')
    s=$(snap_pass)
    l=$(state_last)
    if [[ $new == "priority_prism_state.new " && -n $s ]] && ((s > l)); then
        # the snapshot in place, its state file half-written: the same
        # point of the save for a restart (a .new is never read)
        echo "between the usage snapshot and the state file, while writing ${new% } (snapshot pass $s, state $l)"
    elif [[ -n $new ]]; then
        echo "while writing ${new% } (snapshot pass ${s:-none}, state $l)"
    elif [[ -n $s ]] && ((s > l)); then
        echo "between the usage snapshot and the state file (snapshot pass $s, state $l)"
    elif ((l > $1)); then
        echo "after the pass's state file (pass $l)"
    else
        echo "before the pass's usage snapshot (both at pass $l)"
    fi
}

AIMS=3
aims_left=$AIMS
log "two passes to accumulate usage"
wait_pass >/dev/null || die "no recalculation pass"
end=$(wait_pass) || die "no recalculation pass"

for ((k = 1; k <= KILLS + 2; k++)); do
    root0=$(raw root physics)
    games0=$(raw games chem)
    pct0=$(games_pct)
    last0=$(state_last)
    pid=$(ctld_pid)
    mark=$(wc -l <"$LOGF")
    if ((k == KILLS + 1)); then
        # inside a pass: the moment it logs its first step (the restarted
        # slurmctld reads slurm.conf: no debug flag, info level)
        at="on the pass's decay"
        scontrol setdebugflags +Priority
        scontrol setdebug verbose
        log "kill $k: waiting for the next pass to decay usage"
        nice -n -20 "$DIR/kill-on" log "$LOGF" "$PLUGIN_TAG: decay from" "$pid" $((PERIOD + 30)) >/dev/null ||
            { check "kill $k: a pass logged its decay" 1; break; }
        t_kill=$EPOCHREALTIME
        wait_dead "$pid"
        where=$(landed "$last0")
        # the log agrees: the pass decayed and saved nothing after that
        saved=$(tail -n +"$mark" "$LOGF" | sed -n '/: decay from/,$p' |
            grep -c 'usage snapshot: written' || true)
        log "kill $k: SIGKILL to slurmctld $pid on the pass's decay: landed $where; snapshots logged after the decay: $saved"
        case $where in
        before*) check "kill $k landed inside a pass" "$((saved != 0))" "$where; snapshots logged after the decay: $saved" ;;
        *) check "kill $k landed inside a pass" 1 "$where" ;;
        esac
    elif ((k == KILLS + 2)); then
        # the last kill: the moment the next pass's snapshot is in place
        at="on the snapshot's rename"
        log "kill $k: waiting for the next usage snapshot"
        nice -n -20 "$DIR/kill-on" rename "$STATE" priority_prism_usage "$pid" $((PERIOD + 30)) >/dev/null ||
            { check "kill $k: a usage snapshot written" 1; break; }
        t_kill=$EPOCHREALTIME
        wait_dead "$pid"
        where=$(landed "$last0")
        log "kill $k: SIGKILL to slurmctld $pid on the snapshot's rename: landed $where"
        # kill-on is woken by the rename; the state file takes a few ms
        # more, and on a loaded machine the wake-up can come after it:
        # then this kill tested another point, and the next pass's save
        # is aimed at again (at most AIMS times)
        case $where in
        between*) check "kill $k landed inside the save" 0 "$where" ;;
        after*)
            if ((--aims_left > 0)); then
                log "kill $k missed the save (landed $where): aiming at the next pass's save again ($aims_left left)"
            else
                check "kill $k landed inside the save" 1 "$where; missed $AIMS times"
            fi
            ;;
        *) check "kill $k landed inside the save" 1 "$where" ;;
        esac
    else
        # passes start every PERIOD s (a monotonic timer); this one ended
        # a few ms after it started: aim at a random point of the first
        # 100 ms of the next one
        offset=$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", (r % 100) / 1000 }')
        at="at ${offset}s"
        target=$(awk -v e="$end" -v p="$PERIOD" -v o="$offset" 'BEGIN { printf "%.3f", e + p + o }')
        # (in microseconds, so that the wait compares in the shell)
        target_us=$(awk -v t="$target" 'BEGIN { printf "%.0f", t * 1000000 }')
        while ((${EPOCHREALTIME//[!0-9]/} < target_us)); do
            sleep 0.01
        done
        kill -KILL "$pid"
        t_kill=$EPOCHREALTIME
        wait_dead "$pid"
        where=$(landed "$last0")
        log "kill $k: SIGKILL to slurmctld $pid at ${offset}s from the expected pass start: landed $where"
    fi
    "$HERE/cluster-restart-ctld.sh" "$DIR" >/dev/null 2>&1 ||
        { check "kill $k: slurmctld restarts" 1; break; }
    t_up=$EPOCHREALTIME
    root1=$(raw root physics)
    games1=$(raw games chem)
    after=$(wait_pass) || { check "kill $k: a pass after the restart" 1; break; }
    root2=$(raw root physics)
    games2=$(raw games chem)
    pct2=$(games_pct)
    damaged=$(tail -n +"$mark" "$LOGF" | grep -c 'damaged' || true)
    zero=$(squeue -h -t PD -o '%Q' | awk '$1 == 0' | wc -l)
    # charge rates: root 24 CPUs, games 8 (billing = CPUs)
    verdict=$(awk -v r0="$root0" -v r1="$root1" -v r2="$root2" \
        -v n0="$games0" -v n1="$games1" -v n2="$games2" \
        -v p0="$pct0" -v p2="$pct2" -v te="$end" -v ta="$after" -v pp="$PERIOD" 'BEGIN {
        # usage before the kill was charged up to the pass that ended at
        # te; the pass after the restart charged up to ta
        el = ta - te + 5
        ok = r1 >= r0 - 24 * (pp + 5) && n1 >= n0 - 8 * (pp + 5)
        ok = ok && r2 >= r0 && n2 >= n0
        ok = ok && r2 <= r0 + 24 * el && n2 <= n0 + 8 * el
        d = p2 - p0; if (d < 0) d = -d
        ok = ok && d < 1
        print ok ? 0 : 1 }')
    ((damaged == 0 && zero == 0)) || verdict=1
    if [[ $where == between* ]]; then
        cont=$(tail -n +"$mark" "$LOGF" | grep -c 'killed in between): continuing from that pass' || true)
        ((cont == 1)) || verdict=1
    fi
    end=$after
    share=""
    ((CLASSIC)) || share=" Moab share $pct0% -> $pct2%;"
    check "kill $k $at ($where): state and usage intact" "$verdict" \
        "root $root0 -> $root1 on restart -> $root2 after a pass; games $games0 -> $games1 -> $games2;$share damaged=$damaged, unprioritised=$zero; up again after $(awk -v a="$t_kill" -v b="$t_up" 'BEGIN { printf "%.1f", b - a }') s"
    if ((k == KILLS + 2)) && [[ $where == after* ]] && ((aims_left > 0)); then
        k=$((k - 1))
    fi
done

if ((CLASSIC)); then
    # the classic pass's snapshot: the walk's copy, then the associations
    # charged after it put again (the restarted slurmctld logs it once
    # DebugFlags=Priority is on again, at verbose level)
    mark=$(wc -l <"$LOGF")
    scontrol setdebugflags +Priority
    scontrol setdebug verbose
    wait_pass >/dev/null || check "a pass with DebugFlags=Priority" 1
    line=$(tail -n +"$mark" "$LOGF" | grep 'usage snapshot: written' | tail -n 1 || true)
    again=$(sed -n 's/.*associations put by fair-share, \([0-9]*\) charged since put again.*/\1/p' <<<"$line")
    check "a classic pass's snapshot puts the associations charged after its walk again" \
        "$((${again:-0} == 0))" "${line#*usage snapshot: }"
fi

FINISHED=1
((FAILED == 0))
