#!/bin/bash
# tests/cluster/test-metrics.sh -- cluster test of `prism metrics` (issue
# 33): one private loopback cluster after the other (cluster-start.sh),
# under PriorityParameters policy=multifactor (none), policy=moab and
# policy=gridengine. In each, every node is filled with an exclusive long
# job, pending jobs are submitted (users daemon, bin, games; partitions
# low, high and both; one held), and after a pass that saw them:
#   (a) `prism metrics` exits 0 and promtool (Debian's prometheus
#       package) accepts its text: `promtool check metrics`
#   (b) prism_info names the policy in force and the controller's release
#   (c) prism_assoc_fairshare equals sshare's FairShare for every user
#       association sshare lists (to sshare's 6 decimals), and no other
#   (d) prism_pending_jobs equals squeue's counts per partition and
#       account (squeue -t PD -p PART: a job of two partitions in each)
#   (e) the per-partition term means are named for the policy's
#       components (age / serv / urgency)
#   (f) the pass figures move after a pass: prism_passes_total and
#       prism_last_pass_timestamp_seconds go up
#   (g) a StateSaveLocation without the pass file: one line on stderr
#       naming it, nothing on stdout, exit 1
# and once, after the last cluster is stopped:
#   (h) a controller that does not answer: one line, exit 1
# A figure read while a pass runs could mix two passes: (c) and (d) read
# metrics, then sshare/squeue, then metrics again, and compare only when
# the pass count did not move between (a few tries).
# The clusters are always stopped (trap), even on failure or interrupt.
# The temp dir is removed on success and kept (path printed) on failure,
# or always kept when PRISM_KEEP_DIR is non-empty.
#
# Environment: PRISM_PLUGIN_DIR, PRISM_CLI (default: the build tree's
# src/cli/prism) -- as the other cluster tests.
# Last output line: "N passed, M failed"; exit 0 only if M is 0.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"
command -v promtool >/dev/null || die "no promtool (apt-get install prometheus)"

TOP=$(cd "$HERE/../.." && pwd)
CLI=${PRISM_CLI:-$TOP/src/cli/prism}
[[ -x $CLI ]] || die "no prism command at $CLI (build first, or set PRISM_CLI)"
export PRISM_PRIORITY_TYPE=priority/prism

cluster_test_begin metrics
TOPDIR=$DIR
# each cluster lives in a directory of its own under it, which munged and
# the daemons' users must reach
chmod 755 "$TOPDIR"
CUR=
# the trap stops the cluster of the policy under test (DIR itself has none)
cluster_test_hook() {
    [[ -z $CUR ]] || "$HERE/cluster-stop.sh" "$CUR" || true
}

# metric FILE SERIES -- the value of the sample SERIES ('name{labels}' as
# written) in an exposition FILE; nothing when there is none
metric() {
    awk -v s="$2" 'index($0, s " ") == 1 { print $2; exit }' "$1"
}

# passes FILE -- prism_passes_total in FILE
passes() { metric "$1" prism_passes_total; }

# steady NAME CMD... -- write `prism metrics` to $D/NAME.prom, run CMD
# (its output to $D/NAME.ref), read metrics again: 0 when no pass came
# between (the two pass counts agree); up to 5 tries, each a few RPCs.
steady() {
    local name=$1 try
    shift
    for try in 1 2 3 4 5; do
        "$CLI" metrics >"$D/$name.prom" 2>"$D/$name.err" || return 1
        "$@" >"$D/$name.ref" 2>&1 || return 1
        "$CLI" metrics >"$D/$name.2.prom" 2>>"$D/$name.err" || return 1
        [[ $(passes "$D/$name.prom") == $(passes "$D/$name.2.prom") ]] &&
            return 0
        log "a pass came between the readings ($name, try $try): again"
    done
    return 1
}

# sshare's FairShare per user association: "ACCOUNT USER VALUE"
sshare_users() {
    sshare -a -n -P -o Account,User,FairShare |
        awk -F'|' '{ gsub(/^ +/, "", $1) } $2 != "" { print $1, $2, $3 }' |
        sort
}

# prism_assoc_fairshare of the user associations: "ACCOUNT USER VALUE"
metrics_users() {
    sed -n 's/^prism_assoc_fairshare{account="\([^"]*\)",user="\([^"]\+\)"} \(.*\)$/\1 \2 \3/p' \
        "$1" | sort
}

# squeue's pending jobs per partition and account: "PART ACCOUNT N"
squeue_pending() {
    local p
    for p in $(sinfo -h -o '%R' | sort -u); do
        squeue -h -t PD -p "$p" -o '%a' | sort | uniq -c |
            awk -v p="$p" '{ print p, $2, $1 }'
    done | sort
}

metrics_pending() {
    sed -n 's/^prism_pending_jobs{partition="\([^"]*\)",account="\([^"]*\)"} \(.*\)$/\1 \2 \3/p' \
        "$1" | sort
}

# run_policy NAME PARAMS POLICYTEXT FIRSTTERM -- the checks under one
# policy (PARAMS: PriorityParameters without config=; empty: none)
run_policy() {
    local name=$1 params=$2 text=$3 term=$4 extra=""
    D=$TOPDIR/$name
    mkdir -p "$D"
    if [[ -n $params ]]; then
        printf '%s\n' "$text" >"$D/prism.conf"
        extra="PriorityParameters=$params,config=$D/prism.conf"
    fi
    export PRISM_SLURM_CONF_EXTRA=$extra
    log "starting cluster in $D ($name)"
    CUR=$D
    "$HERE/cluster-start.sh" "$D"
    # shellcheck source=/dev/null
    . "$D/env"

    local n fill=()
    for n in $(sinfo -h -N -p low -o '%N' | sort -u); do
        fill+=("$(submit_as root -p low -w "$n" -N 1 --exclusive -J fill \
            -o /dev/null --chdir="$D" --wrap 'sleep 600')")
    done
    fill_running() {
        (($(squeue -h -t R -n fill -o '%i' | wc -l) == ${#fill[@]}))
    }
    wait_for "$LIMIT_SCHED" "fill jobs running" fill_running ||
        die "$name: fill jobs did not start"
    submit_as daemon -p low -n 1 -o /dev/null --chdir="$D" --wrap 'sleep 10' >/dev/null
    submit_as daemon -p high -n 1 -o /dev/null --chdir="$D" --wrap 'sleep 10' >/dev/null
    submit_as bin -p low,high -n 2 -o /dev/null --chdir="$D" --wrap 'sleep 10' >/dev/null
    submit_as games -p high -n 1 -o /dev/null --chdir="$D" --wrap 'sleep 10' >/dev/null
    submit_as games -H -p low -n 1 -o /dev/null --chdir="$D" --wrap 'sleep 10' >/dev/null
    # a pass that saw every job: the pass count read now, then one more
    local p0
    p0=$(awk '$1 == "passes" { print $2 }' "$D/state/priority_prism_pass" 2>/dev/null || true)
    p0=${p0:-0}
    seen_pass() {
        local p
        p=$(awk '$1 == "passes" { print $2 }' "$D/state/priority_prism_pass" 2>/dev/null) &&
            ((p > p0))
    }
    wait_for "$(limit_passes 1)" "a pass after the jobs were submitted" seen_pass ||
        log "$name: no pass came"

    # (a) exit 0 and promtool
    local rc=0 out
    "$CLI" metrics >"$D/a.prom" 2>"$D/a.err" || rc=$?
    if ((rc == 0)) && out=$(promtool check metrics <"$D/a.prom" 2>&1); then
        check "($name a) prism metrics exits 0, promtool check metrics accepts it" 0 \
            "$(grep -vc '^#' "$D/a.prom") samples${out:+; promtool: $out}"
    else
        check "($name a) prism metrics exits 0, promtool check metrics accepts it" 1 \
            "exit $rc: $(head -c 300 "$D/a.err"); promtool: ${out:-}"
    fi

    # (b) prism_info
    local release want
    release=$(scontrol show config | awk -F' = ' '/^SLURM_VERSION/ { print $2 }')
    want="prism_info{version=\"$("$CLI" --version | awk '{ print $2 }')\",slurm=\"$release\",policy=\"$name\"} 1"
    rc=0
    grep -qxF "$want" "$D/a.prom" || rc=1
    check "($name b) prism_info names the policy and the release" $rc "$want"

    # (c) fair-share equals sshare's for every user association
    if steady c sshare_users; then
        local diff
        diff=$(join -j1 -a1 -a2 -e MISSING -o 0,1.2,2.2 \
            <(awk '{ print $1 "/" $2, $3 }' "$D/c.ref" | sort) \
            <(metrics_users "$D/c.prom" | awk '{ print $1 "/" $2, $3 }' | sort) |
            awk '$2 == "MISSING" || $3 == "MISSING" ||
                 ($2 - $3 > 5e-7 || $3 - $2 > 5e-7) { print }')
        n=$(wc -l <"$D/c.ref")
        if [[ -z $diff ]] && ((n > 0)); then
            check "($name c) prism_assoc_fairshare equals sshare's FairShare for every user association" 0 \
                "$n associations: $(tr '\n' ';' <"$D/c.ref")"
        else
            check "($name c) prism_assoc_fairshare equals sshare's FairShare for every user association" 1 \
                "$n in sshare; differ (sshare, metrics): $(tr '\n' ';' <<<"$diff")"
        fi
    else
        check "($name c) prism_assoc_fairshare equals sshare's FairShare for every user association" 1 \
            "no steady reading: $(head -c 300 "$D/c.err")"
    fi

    # (d) pending jobs equal squeue's counts
    if steady d squeue_pending && metrics_pending "$D/d.prom" | cmp -s - "$D/d.ref" &&
        [[ -s $D/d.ref ]]; then
        check "($name d) prism_pending_jobs equals squeue's counts" 0 \
            "$(tr '\n' ';' <"$D/d.ref")"
    else
        check "($name d) prism_pending_jobs equals squeue's counts" 1 \
            "squeue: $(tr '\n' ';' <"$D/d.ref" 2>/dev/null); metrics: $(metrics_pending "$D/d.prom" 2>/dev/null | tr '\n' ';')"
    fi

    # (e) the terms named for the policy
    rc=0
    grep -Eq "^prism_pending_term_mean\{partition=\"high\",term=\"$term\"\} " "$D/a.prom" || rc=1
    check "($name e) per-partition term means named for the policy ($term)" $rc \
        "$(grep -m2 '^prism_pending_term_mean' "$D/a.prom" | tr '\n' ';')"

    # (f) the pass figures move after a pass
    local p1 t1 p2 t2
    p1=$(passes "$D/a.prom")
    t1=$(metric "$D/a.prom" prism_last_pass_timestamp_seconds)
    moved() {
        "$CLI" metrics >"$D/f.prom" 2>/dev/null &&
            (($(passes "$D/f.prom") > p1))
    }
    if wait_for "$(limit_passes 1)" "the next pass in the figures" moved; then
        p2=$(passes "$D/f.prom")
        t2=$(metric "$D/f.prom" prism_last_pass_timestamp_seconds)
        rc=0
        ((t2 > t1)) || rc=1
        check "($name f) the pass figures move after a pass" $rc \
            "passes $p1 -> $p2, last pass at $t1 -> $t2, took $(metric "$D/f.prom" prism_pass_duration_seconds) s"
    else
        check "($name f) the pass figures move after a pass" 1 "passes stayed $p1"
    fi

    # (g) no pass file: one line, exit 1 (moved away just after a pass:
    # the next is a PriorityCalcPeriod away)
    local pf=$D/state/priority_prism_pass
    mv "$pf" "$D/pass.aside"
    rc=0
    "$CLI" metrics >"$D/g.out" 2>"$D/g.err" || rc=$?
    [[ -e $pf ]] || mv "$D/pass.aside" "$pf"
    if ((rc == 1)) && [[ ! -s $D/g.out ]] && (($(wc -l <"$D/g.err") == 1)) &&
        grep -q "priority_prism_pass" "$D/g.err"; then
        check "($name g) no pass file: one line naming it, exit 1" 0 "$(<"$D/g.err")"
    else
        check "($name g) no pass file: one line naming it, exit 1" 1 \
            "exit $rc, stdout $(wc -c <"$D/g.out") bytes, stderr: $(<"$D/g.err")"
    fi

    "$HERE/cluster-stop.sh" "$D"
    CUR=
}

run_policy multifactor "" "" age
run_policy moab policy=moab "$(printf '%s\n' \
    'QUEUETIMEWEIGHT 1' 'XFACTORWEIGHT 1000' 'USERWEIGHT 100' \
    'FSPOLICY DEDICATEDPS' 'FSWEIGHT 1' 'FSUSERWEIGHT 100' \
    'RMCFG[slurm] TYPE=SLURM')" serv
run_policy gridengine policy=gridengine "$(printf '%s\n' \
    'schedule_interval 0:0:15' 'weight_urgency 1' 'weight_ticket 0' 'weight_priority 0.1' \
    'weight_waiting_time 0.278' 'urgency_slots 100' \
    'urgency_partition[high] 40000' 'halftime 336' \
    'weight_tickets_share 10000')" urgency

# (h) no controller: the last cluster's configuration, its daemons gone
rc=0
timeout "$LIMIT_RPC" "$CLI" metrics >"$TOPDIR/h.out" 2>"$TOPDIR/h.err" || rc=$?
if ((rc == 1)) && [[ ! -s $TOPDIR/h.out ]] && (($(wc -l <"$TOPDIR/h.err") == 1)); then
    check "(h) no controller: one line, exit 1" 0 "$(<"$TOPDIR/h.err")"
else
    check "(h) no controller: one line, exit 1" 1 \
        "exit $rc, stderr: $(head -c 400 "$TOPDIR/h.err")"
fi
FINISHED=1
