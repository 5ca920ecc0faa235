#!/bin/bash
# tests/cluster/test-diskfull.sh -- StateSaveLocation full, then
# read-only, on a real cluster (issue 32, item 2;
# tests/harness/test-statesave.sh has the same faults in the fake
# controller, and files that cannot be replaced): StateSaveLocation
# is a 16 MiB tmpfs of the test's own mount namespace
# (cluster-start.sh PRISM_STATE_TMPFS_KB). Four nodes run jobs of root
# (three) and games (one) the whole time; users daemon and bin have jobs
# pending. Checks:
#   (a) two passes with room: usage grows, every pending job has a
#       priority
#   (b) the tmpfs filled to the last byte for three passes: slurmctld and
#       the passes go on, usage is charged as the time that passed (sshare
#       RawUsage), pending jobs keep their priorities and sprio's
#       fair-share term follows sshare's FairShare
#   (c) Prism logs one error per file whose saves fail, however many
#       passes fail (not one per pass), and no file it had saved is left
#       damaged or half-written (no NAME.new left behind)
#   (d) room again: at the next pass each of those files logs one line
#       that it was saved again, whole
#   (e), (f), (g) the same with the tmpfs remounted read-only for two
#       passes, then read-write again
#   (h) slurmctld stopped (by its PID) and started again: Prism reads its
#       files without finding one damaged, and usage after a pass is
#       neither lost nor charged twice
# The same test runs with priority/multifactor as its reference:
#   PRISM_PRIORITY_TYPE=priority/multifactor tests/cluster/test-diskfull.sh
# ((c), (d), (f) and (g) are Prism's log lines; the rest holds for both).
# Run it through tests/cluster/isolate.sh (a mount namespace of its own).
#
# Environment: PRISM_PLUGIN_DIR, PRISM_PRIORITY_TYPE (default
# priority/prism) -- passed to cluster-start.sh.
# Last output line: "N passed, M failed"; exit 0 only if M is 0.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"

PRIORITY_TYPE=${PRISM_PRIORITY_TYPE:-priority/prism}
export PRISM_PRIORITY_TYPE=$PRIORITY_TYPE
PRISM=0
[[ $PRIORITY_TYPE == priority/prism ]] && PRISM=1
export PRISM_SLURM_CONF_EXTRA="PriorityWeightFairshare=10000
PriorityCalcPeriod=1"
export PRISM_SLURMCTLD_DEBUG=info
export PRISM_STATE_TMPFS_KB=16384

cluster_test_begin diskfull

log "starting cluster in $DIR (PriorityType=$PRIORITY_TYPE, StateSaveLocation a ${PRISM_STATE_TMPFS_KB} KiB tmpfs)"
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"
LOGF=$DIR/log/slurmctld.log
STATE=$DIR/state

# ---------------------------------------------------------------- helpers
raw() {
    sshare -n -P -A "$2" -u "$1" -o Account,User,RawUsage 2>/dev/null |
        awk -F'|' -v u="$1" '$2 == u { print $3 }' | tail -n 1
}
holds() { awk "BEGIN { exit !($1) }"; }
# a pass: both plugins rewrite multifactor's state file at its end; while
# the disk is full neither can, and the pass is seen in the usage
# (charged at every pass: the nodes are busy)
pass_mtime() { stat -c %.3Y "$STATE/priority_last_decay_ran" 2>/dev/null || echo 0; }
moved() { [[ $(pass_mtime) != "$1" ]]; }
wait_saved_pass() {
    wait_for "$(limit_passes 1)" "a recalculation pass ($1)" moved "$(pass_mtime)" || return 1
    sleep 1
}
grew() { holds "$(raw root physics) > $1"; }
wait_charged_pass() {
    wait_for "$(limit_passes 1)" "root's usage charged ($1)" grew "$(raw root physics)" || return 1
    sleep 1
}
unprioritised() { squeue -h -t PD -o '%Q' 2>/dev/null | awk '$1 == 0' | wc -l; }
# sprio's fair-share term of daemon's pending jobs against sshare's
# FairShare of daemon (weight 10000): they agree to 1
fs_agrees() {
    local fs term
    fs=$(sshare -n -P -A physics -u daemon -o Account,User,FairShare 2>/dev/null |
        awk -F'|' '$2 == "daemon" { print $3 }' | tail -n 1)
    term=$(sprio -h -u daemon -o '%F' 2>/dev/null | head -n 1 | tr -d ' ')
    [[ -n $fs && -n $term ]] && holds "($term - $fs * 10000) <= 1 && ($fs * 10000 - $term) <= 1"
}
prism_files() {
    local f
    for f in "$STATE"/priority_*; do
        [[ -e $f && $f != *.new ]] && printf '%s ' "${f##*/}"
    done
    return 0
}

# ---------------------------------------------------------------- jobs
mkdir -p "$DIR/out"
chmod 1777 "$DIR/out"
fill_nodes || die "fill jobs did not start"
for ((i = 0; i < 3; i++)); do
    submit_as daemon -A physics -p low -N 1 -o /dev/null --chdir="$DIR/out" \
        -t 10 -J wait --wrap 'sleep 60' >/dev/null
    submit_as bin -A chem -p low -N 1 -o /dev/null --chdir="$DIR/out" \
        -t 10 -J wait --wrap 'sleep 60' >/dev/null
done

# ---------------------------------------------------------------- (a)
wait_saved_pass "first"
r_a=$(raw root physics)
wait_saved_pass "second"
t_b=$(pass_mtime)
r_b=$(raw root physics)
zero=$(unprioritised)
ok=1
holds "$r_b > $r_a" && ((zero == 0)) && ok=0
check "(a) with room: usage grows, every pending job has a priority" "$ok" \
    "root RawUsage $r_a -> $r_b; unprioritised=$zero; files: $(prism_files)"

# fault WHAT PASSES MAKE UNDO B C D: a fault of StateSaveLocation that
# MAKE makes and UNDO undoes, for PASSES passes; checks B (passes and
# priorities go on), C (one error per file, no NAME.new left) and D (one
# line per file when it is saved again)
fault() {
    local what=$1 passes=$2 make=$3 undo=$4 l_b=$5 l_c=$6 l_d=$7 k
    local mark mark2 fails many news failed again missing f t0 r0 t1 r1 zero ok
    mark=$(wc -l <"$LOGF")
    t_b=$(pass_mtime)
    r_b=$(raw root physics)
    log "($l_b) $what"
    $make
    t0=$EPOCHREALTIME
    r0=$(raw root physics)
    for ((k = 1; k <= passes; k++)); do
        wait_charged_pass "$what, $k" || check "($l_b) a pass with StateSaveLocation $what ($k)" 1
    done
    t1=$EPOCHREALTIME
    r1=$(raw root physics)
    zero=$(unprioritised)
    ok=1
    # root's three nodes, 24 CPUs (billing = CPUs): at least PASSES - 1
    # passes' worth charged, and no more than the time since the last
    # saved pass
    holds "$r1 - $r0 >= 24 * 50 * ($passes - 1) && $r1 <= $r_b + 24 * ($t1 - $t_b + 5)" &&
        ((zero == 0)) && fs_agrees && ok=0
    check "($l_b) StateSaveLocation $what for $passes passes: usage charged, priorities kept, sprio follows sshare" "$ok" \
        "root RawUsage $r0 -> $r1 over $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s; unprioritised=$zero; daemon's fair-share term $(sprio -h -u daemon -o '%F' | head -n 1 | tr -d ' ') vs sshare $(sshare -n -P -A physics -u daemon -o Account,User,FairShare | awk -F'|' '$2 == "daemon" { print $3 }')"

    if ((PRISM)); then
        fails=$(tail -n +"$mark" "$LOGF" | grep -E 'error: priority/prism: cannot save ' |
            sed -E 's/.*cannot save ([^:]+):.*/\1/' | sort | uniq -c | sed 's/^ *//' | tr '\n' ';' || true)
        many=$(awk -v RS=';' 'NF == 2 && $1 > 1' <<<"$fails" | wc -l)
        # Prism's files (priority_*); slurmctld's own are its business
        news=$(cd "$STATE" && ls -- priority_*.new 2>/dev/null | tr '\n' ' ' || true)
        ok=1
        [[ -n $fails ]] && ((many == 0)) && [[ -z $news ]] && ok=0
        check "($l_c) $what: one error per file whose saves fail, none per pass; no half-written file" "$ok" \
            "errors per file: ${fails:-none}; .new files: ${news:-none}"
    fi

    $undo
    mark2=$(wc -l <"$LOGF")
    wait_saved_pass "$what undone" || check "($l_d) a pass saves its files again" 1
    if ((PRISM)); then
        failed=$(sed -n 's/^\([0-9]*\) \(.*\)$/\2/p' <<<"$(tr ';' '\n' <<<"$fails")" | sort -u)
        again=$(tail -n +"$mark2" "$LOGF" | grep -oE 'priority/prism: [a-z_]+ saved again, whole, after [0-9]+ failed saves' || true)
        missing=""
        for f in $failed; do
            grep -q ": $f saved again" <<<"$again" || missing="$missing $f"
        done
        ok=1
        [[ -n $again && -z $missing ]] && ok=0
        check "($l_d) $what no more: each file logs once that it was saved again, whole" "$ok" \
            "$(tr '\n' ';' <<<"${again:-none}")${missing:+ not for:$missing}"
    fi
}

fill() {
    dd if=/dev/zero of="$STATE/filler" bs=64k status=none 2>/dev/null || true
    # the last blocks, smaller than dd's
    dd if=/dev/zero of="$STATE/filler2" bs=512 status=none 2>/dev/null || true
    df -k "$STATE" | tail -n 1 >&2
}
unfill() { rm -f "$STATE/filler" "$STATE/filler2"; }
# (the tmpfs of this test's own mount namespace)
readonly_on() { mount -o remount,ro "$STATE" || die "cannot remount $STATE read-only"; }
readonly_off() { mount -o remount,rw "$STATE" || die "cannot remount $STATE read-write"; }

before=$(prism_files)
fault "full" 3 fill unfill b c d
fault "read-only" 2 readonly_on readonly_off e f g
t2=$(pass_mtime)
r2=$(raw root physics)

# ---------------------------------------------------------------- (h)
mark3=$(wc -l <"$LOGF")
"$HERE/cluster-restart-ctld.sh" "$DIR" >/dev/null 2>&1 || die "slurmctld did not restart"
wait_saved_pass "after the restart" || true
t3=$(pass_mtime)
r3=$(raw root physics)
damaged=$(tail -n +"$mark3" "$LOGF" | grep -c 'damaged' || true)
zero=$(unprioritised)
ok=1
holds "$r3 >= $r2 && $r3 <= $r2 + 24 * ($t3 - $t2 + 5)" && ((damaged == 0 && zero == 0)) && ok=0
check "(h) restarted after the faults: files read whole, usage neither lost nor charged twice" "$ok" \
    "root RawUsage $r2 -> $r3 over $(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.0f", b - a }') s; damaged=$damaged, unprioritised=$zero; files before the fault: $before, now: $(prism_files)"

FINISHED=1
((FAILED == 0))
