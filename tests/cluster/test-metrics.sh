#!/bin/bash
# tests/cluster/test-metrics.sh -- cluster test of `prism metrics` (issue
# 33): one private loopback cluster after the other (cluster-start.sh),
# under PriorityParameters policy=multifactor (none; Fair Tree, then
# classic fair-share: PriorityFlags=NO_FAIR_TREE), policy=moab and
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
#   (o) under policy=gridengine, prism_ge_share_tree_usage charged to the
#       fill jobs' association and to no association whose jobs all wait
#   (p) under policy=moab, prism_moab_fairshare_usage_ratio: the fill
#       jobs' user has usage, daemon (only waiting) none
#   (g) a StateSaveLocation without the pass file: one line on stderr
#       naming it, nothing on stdout, exit 1
#   (i)-(m) `prism metrics --listen` (prism-metrics.service's command)
#       and a real Prometheus scraping it (see prom_checks): PromQL
#       through its HTTP API gives sshare's fair-share and squeue's
#       counts; a 503 without the pass file; an address taken is one line
#       and exit 1
#   (q), (r) the Grafana dashboard's queries in that Prometheus, and
#       prism-metrics-textfile.service's command read by node_exporter's
#       textfile collector
# and once, after the last cluster is stopped:
#   (h) a controller that does not answer: one line, exit 1
#   (n) and behind --listen: HTTP 503 with the reason
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
command -v prometheus >/dev/null || die "no prometheus (apt-get install prometheus)"
command -v prometheus-node-exporter >/dev/null ||
    die "no prometheus-node-exporter (apt-get install prometheus-node-exporter)"
command -v jq >/dev/null || die "no jq (apt-get install jq)"
command -v curl >/dev/null || die "no curl"

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
    [[ -z $CUR ]] && return 0
    stop_recorded "$CUR" prometheus 20 || true
    stop_recorded "$CUR" node-exporter 20 || true
    stop_recorded "$CUR" prism-listen 20 || true
    "$HERE/cluster-stop.sh" "$CUR" || true
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

# pass_field NAME -- the field NAME of the plugin's pass file
# ($D/state/priority_prism_pass; 0 without it); passes_above N -- the
# plugin has made more than N passes
pass_field() {
    { awk -v k="$1" '$1 == k { v = $2 } END { print v + 0 }' \
        "$D/state/priority_prism_pass" || echo 0; } 2>/dev/null
}
passes_above() { (($(pass_field passes) > $1)); }

# pass_file_away -- move the plugin's pass file ($D/state/priority_prism_pass)
# aside for a check to run without it. The plugin writes it at the end of
# every pass, and passes start a PriorityCalcPeriod apart: when the next
# is due within PASS_CLEAR seconds, wait for it to end first, so that the
# check has the rest of a period. pass_file_back puts the file back: 1
# when a pass wrote it all the same (the check ran into a pass: its result
# says nothing), the pass's file kept.
PASS_CLEAR=20
pass_file_away() {
    local pf=$D/state/priority_prism_pass
    if (($(date +%s) + PASS_CLEAR >= $(pass_field pass_start) + $(DIR=$D calc_period))); then
        wait_for "$(DIR=$D limit_passes 1)" "the pass due before a check without the pass file" \
            passes_above "$(pass_field passes)" || die "$D: no pass came"
    fi
    mv "$pf" "$D/pass.aside"
}
pass_file_back() {
    local pf=$D/state/priority_prism_pass
    if [[ -e $pf ]]; then
        rm -f -- "$D/pass.aside"
        return 1
    fi
    mv "$D/pass.aside" "$pf"
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

# ---------------------------------------------------------------- --listen
# prom_query PORT PROMQL -- the instant vector of PROMQL from the
# Prometheus on PORT as "LABELS VALUE" lines (labels sorted, __name__
# and job/instance left out), through its HTTP API (jq: a python3 took
# 0.2-0.8 s of CPU here per query)
prom_query() {
    local out
    out=$(curl -sf --max-time 10 "http://127.0.0.1:$1/api/v1/query" \
        --data-urlencode "query=$2") && [[ -n $out ]] || return 1
    jq -r 'if .status != "success" then error("status: \(.status)") else
        .data.result[] |
            (.metric | del(.__name__, .job, .instance) | to_entries |
                sort_by(.key) | map("\(.key)=\(.value)") | join(",")) +
            " " + .value[1]
        end' <<<"$out"
}

# stop_started NAME -- stop a process this test started (recorded in
# $D/pids/NAME.pid), by its PID
stop_started() { stop_recorded "$D" "$1" 20 || true; }

# prom_checks NAME -- (i)-(m) under one policy, on its running cluster:
#   (i) `prism metrics --listen 127.0.0.1:PORT` answers GET /metrics with
#       200 and text promtool accepts; a second one on the same address
#       cannot bind it: one line, exit 1
#   (j) a real Prometheus (Debian's binary, its config and data under
#       $D/prom, on loopback, scraping every second) scrapes it: up is 1
#   (k) PromQL prism_assoc_fairshare, through Prometheus' HTTP API,
#       gives sshare's FairShare for every user association
#   (l) PromQL prism_pending_jobs gives squeue's counts
#   (m) without the pass file, GET /metrics is a 503 whose body names it
#   (r) prism-metrics-textfile.service's command writes prism.prom into a
#       directory that node_exporter's textfile collector reads; Prometheus
#       scrapes that too: prism_info 1 and the listener's associations
#   (q) every query of the Grafana dashboard (contrib/grafana) runs in
#       Prometheus; under Fair Tree each one has data
# The listener is started with prism-metrics.service's command (its
# address and path changed).
prom_checks() {
    local name=$1 ports lport pport nport rc out
    ports=$(pick_free_ports 3) || die "no free ports"
    lport=$(sed -n 1p <<<"$ports")
    pport=$(sed -n 2p <<<"$ports")
    nport=$(sed -n 3p <<<"$ports")

    # the listener is prism-metrics.service's command (its address this
    # test's port, its path the build's prism)
    local -a unit_cmd
    read -r -a unit_cmd <<<"$(unit_exec prism-metrics.service)"
    [[ ${unit_cmd[1]:-} == metrics && ${unit_cmd[2]:-} == --listen ]] ||
        die "prism-metrics.service's ExecStart is not 'prism metrics --listen ...': ${unit_cmd[*]}"
    "$CLI" "${unit_cmd[@]:1:2}" "127.0.0.1:$lport" "${unit_cmd[@]:4}" \
        >"$D/listen.out" 2>"$D/listen.err" &
    record_pid "$D" prism-listen $!
    serving() { curl -sf --max-time 10 -o "$D/i.prom" "http://127.0.0.1:$lport/metrics"; }
    # it answers once it has bound the port and one scrape took a few RPCs
    if wait_for "$LIMIT_RPC" "prism metrics --listen to answer" serving &&
        out=$(promtool check metrics <"$D/i.prom" 2>&1); then
        rc=0
        "$CLI" metrics --listen "127.0.0.1:$lport" >"$D/bind.out" 2>"$D/bind.err" || rc=$?
        if ((rc == 1)) && (($(wc -l <"$D/bind.err") == 1)) &&
            grep -q "cannot listen on 127.0.0.1:$lport" "$D/bind.err"; then
            check "($name i) --listen serves GET /metrics (promtool accepts it); a second on the address: one line, exit 1" 0 \
                "$(grep -vc '^#' "$D/i.prom") samples; $(<"$D/bind.err")"
        else
            check "($name i) --listen serves GET /metrics (promtool accepts it); a second on the address: one line, exit 1" 1 \
                "second: exit $rc, $(<"$D/bind.err")"
        fi
    else
        check "($name i) --listen serves GET /metrics (promtool accepts it); a second on the address: one line, exit 1" 1 \
            "$(head -c 300 "$D/listen.err") ${out:-}"
    fi

    # node_exporter's textfile collector reads what
    # prism-metrics-textfile.service's command wrote
    local tcmd trc=0
    tcmd=$(unit_exec prism-metrics-textfile.service |
        sed -n "s|^/bin/sh -c '\(.*\)'\$|\1|p" | sed 's/\$\$/$/g' |
        sed "s|[^ ]*/prism metrics|$CLI metrics|")
    mkdir -p "$D/textfile"
    [[ -n $tcmd ]] && PRISM_TEXTFILE_DIR=$D/textfile /bin/sh -c "$tcmd" 2>"$D/textfile.err" || trc=1
    prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" \
        --collector.disable-defaults --collector.textfile \
        --collector.textfile.directory="$D/textfile" >"$D/node.log" 2>&1 &
    record_pid "$D" node-exporter $!

    mkdir -p "$D/prom/data"
    cat >"$D/prom/prometheus.yml" <<PROM
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: prism
    static_configs:
      - targets: ['127.0.0.1:$lport']
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$nport']
PROM
    prometheus --config.file="$D/prom/prometheus.yml" \
        --storage.tsdb.path="$D/prom/data" \
        --web.listen-address="127.0.0.1:$pport" >"$D/prom/log" 2>&1 &
    record_pid "$D" prometheus $!
    scraped() { [[ $(prom_query "$pport" 'up{job="prism"}') == " 1" ]]; }
    # Prometheus starts (its TSDB), then scrapes every second
    if wait_for "$LIMIT_DAEMON" "Prometheus to scrape prism (up == 1)" scraped; then
        check "($name j) a real Prometheus scrapes prism metrics --listen (up 1)" 0
    else
        check "($name j) a real Prometheus scrapes prism metrics --listen (up 1)" 1 \
            "$(tail -n 3 "$D/prom/log" | tr '\n' ';')"
    fi

    # (k), (l): a reading of Prometheus, sshare/squeue, and the pass count
    # again two scrapes later: compared when no pass came between
    prom_steady() { # prom_steady NAME PROMQL CMD...
        local n=$1 q=$2 try a b
        shift 2
        for try in 1 2 3 4 5; do
            a=$(prom_query "$pport" 'prism_passes_total{job="prism"}') || return 1
            prom_query "$pport" "$q" >"$D/$n.prom.q" || return 1
            "$@" >"$D/$n.prom.ref" 2>&1 || return 1
            sleep 2 # two scrape intervals: a scrape after the reading
            b=$(prom_query "$pport" 'prism_passes_total{job="prism"}') || return 1
            [[ -n $a && $a == "$b" ]] && return 0
            log "a pass came between the readings ($n, try $try): again"
        done
        return 1
    }
    local diff n
    if prom_steady k 'prism_assoc_fairshare{job="prism"}' sshare_users; then
        diff=$(join -j1 -a1 -a2 -e MISSING -o 0,1.2,2.2 \
            <(awk '{ print $1 "/" $2, $3 }' "$D/k.prom.ref" | sort) \
            <(sed -n 's/^account=\([^,]*\),user=\([^ ]\+\) \(.*\)$/\1\/\2 \3/p' "$D/k.prom.q" | sort) |
            awk '$2 == "MISSING" || $3 == "MISSING" ||
                 ($2 - $3 > 5e-7 || $3 - $2 > 5e-7) { print }')
        n=$(wc -l <"$D/k.prom.ref")
        rc=0
        [[ -z $diff ]] && ((n > 0)) || rc=1
        check "($name k) PromQL prism_assoc_fairshare gives sshare's FairShare for every user association" $rc \
            "$n associations${diff:+; differ (sshare, Prometheus): $(tr '\n' ';' <<<"$diff")}"
    else
        check "($name k) PromQL prism_assoc_fairshare gives sshare's FairShare for every user association" 1 \
            "no steady reading"
    fi
    if prom_steady l 'prism_pending_jobs{job="prism"}' squeue_pending; then
        rc=0
        sed -n 's/^account=\([^,]*\),partition=\([^ ]*\) \(.*\)$/\2 \1 \3/p' "$D/l.prom.q" |
            sort | cmp -s - "$D/l.prom.ref" || rc=1
        [[ -s $D/l.prom.ref ]] || rc=1
        check "($name l) PromQL prism_pending_jobs gives squeue's counts" $rc \
            "squeue: $(tr '\n' ';' <"$D/l.prom.ref"); Prometheus: $(tr '\n' ';' <"$D/l.prom.q")"
    else
        check "($name l) PromQL prism_pending_jobs gives squeue's counts" 1 "no steady reading"
    fi

    # (r) the textfile form through node_exporter: the same user
    # associations as the listener's
    local a b
    node_up() { [[ $(prom_query "$pport" 'up{job="node"}') == " 1" ]]; }
    if ((trc == 0)) && wait_for "$LIMIT_RPC" "Prometheus to scrape node_exporter" node_up &&
        a=$(prom_query "$pport" 'count(prism_assoc_fairshare{job="node",user!=""})') &&
        b=$(prom_query "$pport" 'count(prism_assoc_fairshare{job="prism",user!=""})') &&
        [[ -n $a && $a == "$b" ]] &&
        [[ $(prom_query "$pport" 'prism_info{job="node"}' | awk '{ print $NF }') == 1 ]]; then
        check "($name r) prism-metrics-textfile's command, node_exporter's textfile collector, Prometheus: prism_info 1, the listener's associations" 0 \
            "count(prism_assoc_fairshare):${a}"
    else
        check "($name r) prism-metrics-textfile's command, node_exporter's textfile collector, Prometheus: prism_info 1, the listener's associations" 1 \
            "command exit $trc: $(head -c 300 "$D/textfile.err"); node: ${a:-?}, prism: ${b:-?}; $(tail -n 2 "$D/node.log" | tr '\n' ';')"
    fi

    # (q) the dashboard's queries through Prometheus: each one is PromQL
    # Prometheus accepts; on the first cluster (Fair Tree, every family
    # there) each has data
    local title expr bad='' empty=''
    while IFS=$'\t' read -r title expr; do
        if ! prom_query "$pport" "$expr" >"$D/q.out" 2>/dev/null; then
            bad+="$title: $expr; "
        elif ! [[ -s $D/q.out ]]; then
            empty+="$title: $expr; "
        fi
    done < <(dashboard_queries)
    local has=''
    if [[ $name == multifactor ]]; then has=' and each has data'; else empty=''; fi
    rc=0
    [[ -z $bad$empty ]] || rc=1
    check "($name q) every query of the Grafana dashboard runs in Prometheus$has" $rc \
        "${bad:+refused: $bad}${empty:+no data: $empty}$(dashboard_queries | wc -l) queries"

    # (m) no pass file: 503 with the reason
    local code raced=''
    pass_file_away
    code=$(curl -s --max-time 30 -o "$D/m.body" -w '%{http_code}' \
        "http://127.0.0.1:$lport/metrics") || true
    pass_file_back || raced='a pass wrote the file during the request; '
    rc=0
    [[ -z $raced && $code == 503 ]] && grep -q priority_prism_pass "$D/m.body" || rc=1
    check "($name m) without the pass file GET /metrics is a 503 with the reason" $rc \
        "${raced}HTTP $code: $(head -c 300 "$D/m.body")"

    stop_started prometheus
    stop_started node-exporter
    stop_started prism-listen
}

# unit_exec UNIT -- the ExecStart command of contrib/systemd's UNIT as make
# builds it (the build tree's, else the source's with @bindir@)
unit_exec() {
    local f=$TOP/contrib/systemd/$1
    [[ -f $f ]] || f=$TOP/contrib/systemd/$1.in
    sed -n 's/^ExecStart=//p' "$f" | tail -n 1
}

# dashboard_queries -- "TITLE<tab>EXPR" for each query of the dashboard
dashboard_queries() {
    jq -r '.panels[] | .title as $t | .targets[] | "\($t)\t\(.expr)"' \
        "$TOP/contrib/grafana/prism-dashboard.json"
}

# run_policy NAME PARAMS POLICYTEXT FIRSTTERM [CONF] -- the checks under
# one policy (PARAMS: PriorityParameters without config=; empty: none;
# CONF: more slurm.conf lines); NAME is the policy, or POLICY-VARIANT
run_policy() {
    local name=$1 params=$2 text=$3 term=$4 extra=${5:-}
    D=$TOPDIR/$name
    mkdir -p "$D"
    if [[ -n $params ]]; then
        printf '%s\n' "$text" >"$D/prism.conf"
        extra="PriorityParameters=$params,config=$D/prism.conf${extra:+
$extra}"
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
    p0=$(pass_field passes)
    wait_for "$(limit_passes 1)" "a pass after the jobs were submitted" passes_above "$p0" ||
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
    want="prism_info{version=\"$("$CLI" --version | awk '{ print $2 }')\",slurm=\"$release\",policy=\"${name%%-*}\"} 1"
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

    # (o) policy=gridengine: the share-tree usage per node, charged to
    # the association the fill jobs run under, none to those whose jobs
    # all wait
    if [[ $name == gridengine ]]; then
        local fa fu fv others
        read -r fa fu < <(squeue -h -n fill -o '%a %u' | head -n 1)
        fv=$(metric "$D/f.prom" "prism_ge_share_tree_usage{account=\"$fa\",user=\"$fu\"}")
        others=$(grep -E '^prism_ge_share_tree_usage\{account="[^"]*",user="(daemon|bin|games)"\} ' \
            "$D/f.prom" | awk '$2 != 0' | wc -l)
        rc=0
        awk -v v="${fv:-0}" 'BEGIN { exit !(v > 0) }' || rc=1
        ((others == 0)) || rc=1
        check "($name o) prism_ge_share_tree_usage: the fill jobs' node charged, the waiting users' not" $rc \
            "$fa/$fu ${fv:-none}; $others waiting users' nodes above 0"
    fi

    # (p) policy=moab: the fair-share usage of the credentials the policy
    # names: the fill jobs' user has some, daemon (waiting) none
    if [[ $name == moab ]]; then
        local fu rv dv
        fu=$(squeue -h -n fill -o '%u' | head -n 1)
        rv=$(metric "$D/f.prom" "prism_moab_fairshare_usage_ratio{kind=\"user\",credential=\"$fu\"}")
        dv=$(metric "$D/f.prom" 'prism_moab_fairshare_usage_ratio{kind="user",credential="daemon"}')
        rc=0
        awk -v r="${rv:-0}" -v d="${dv:-x}" 'BEGIN { exit !(r > 0 && r <= 1 && d == 0) }' || rc=1
        check "($name p) prism_moab_fairshare_usage_ratio: the fill jobs' user has usage, daemon none" $rc \
            "$fu ${rv:-none}, daemon ${dv:-none}"
    fi

    prom_checks "$name"

    # (g) no pass file: one line, exit 1
    local raced=''
    pass_file_away
    rc=0
    "$CLI" metrics >"$D/g.out" 2>"$D/g.err" || rc=$?
    pass_file_back || raced='a pass wrote the file while prism ran; '
    if [[ -z $raced ]] && ((rc == 1)) && [[ ! -s $D/g.out ]] &&
        (($(wc -l <"$D/g.err") == 1)) && grep -q "priority_prism_pass" "$D/g.err"; then
        check "($name g) no pass file: one line naming it, exit 1" 0 "$(<"$D/g.err")"
    else
        check "($name g) no pass file: one line naming it, exit 1" 1 \
            "${raced}exit $rc, stdout $(wc -c <"$D/g.out") bytes, stderr: $(<"$D/g.err")"
    fi

    "$HERE/cluster-stop.sh" "$D"
    CUR=
}

run_policy multifactor "" "" age
# classic fair-share: sshare's FairShare of every association is
# 2^(-UE/S), and a user's UE, which the controller leaves unset until
# sshare asks, is worked out by prism metrics from the records
run_policy multifactor-classic "" "" age "PriorityFlags=NO_FAIR_TREE"
run_policy moab policy=moab "$(printf '%s\n' \
    'QUEUETIMEWEIGHT 1' 'XFACTORWEIGHT 1000' 'USERWEIGHT 100' \
    'FSPOLICY DEDICATEDPS' 'FSWEIGHT 1' 'FSUSERWEIGHT 100' \
    'USERCFG[root] FSTARGET=50' 'USERCFG[daemon] PRIORITY=10' \
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

# (n) no controller behind --listen: a 503 whose body says so
D=$TOPDIR
port=$(pick_free_ports 1) || die "no free port"
"$CLI" metrics --listen "127.0.0.1:$port" >"$D/n.out" 2>"$D/n.err" &
record_pid "$D" prism-listen $!
CUR=$D
answered() {
    code=$(curl -s --max-time "$LIMIT_RPC" -o "$D/n.body" -w '%{http_code}' \
        "http://127.0.0.1:$port/metrics") && [[ $code != 000 ]]
}
code=
rc=0
# (a scrape without a controller waits for Slurm's connect to fail)
wait_for $((2 * LIMIT_RPC)) "prism metrics --listen to answer" answered || rc=1
[[ $code == 503 ]] && grep -q "cannot reach slurmctld" "$D/n.body" || rc=1
check "(n) --listen without a controller: HTTP 503 with the reason" $rc \
    "HTTP ${code:-none}: $(head -c 300 "$D/n.body" 2>/dev/null)"
stop_recorded "$D" prism-listen 20 || true
CUR=
FINISHED=1
((FAILED == 0))
