#!/bin/bash
# tests/bench/ctld-latency.sh -- what a busy controller's users feel
# (issue 34, part 1): submit, list and read-one latency during priority
# passes on a real slurmctld, priority/multifactor vs priority/prism.
#
# One private loopback cluster (tests/cluster/cluster-start.sh), the whole
# script in its own network, PID and mount namespaces (tests/cluster/
# isolate.sh; it re-executes itself there):
#   1. BENCH_USERS users (Unix users benchN, uid 200000+N, in a copy of
#      /etc/passwd bind-mounted over it in this mount namespace only), 100
#      to a leaf account, 10 leaf accounts to a parent, added with
#      `sacctmgr -i add user` (100 names a command), fair-share varied;
#   2. every node filled with a long whole-node job, so the queue stays
#      pending;
#   3. BENCH_JOBS pending jobs submitted through the API
#      (ctld-latency.c, BENCH_THREADS threads), as the users round
#      robin (root submits for them), partitions low/high, QOS
#      normal/high/low, 1-8 CPUs;
#   4. under priority/multifactor, then (slurmctld restarted with
#      cluster-restart-ctld.sh, same queue and slurm.conf) under
#      priority/prism: after one pass to settle, for BENCH_PASSES passes
#      client threads call at a steady pace: submit one job and read one
#      job (BENCH_RATE a second each), list the whole queue (one call
#      every BENCH_LIST_EVERY s) and list one user's jobs, as `squeue
#      --me` (BENCH_OWN_RATE a second); the pass windows come from the
#      plugin's file in StateSaveLocation (see ctld-latency.c);
#   5. a markdown table on stdout (per plugin and call: count, median,
#      p99, max; p99 and max during passes and between them; the ratio
#      prism/multifactor during passes), progress on stderr.
# The cluster is stopped on every exit path (trap; cluster-stop.sh, by
# PID); the temp dir is removed on success (kept on failure or with
# BENCH_KEEP=1).
#
# Environment:
#   BENCH_SIZES       full (default: 200,000 jobs, 10,000 users) | small
#                     (20,000 jobs, 1,000 users: a few minutes)
#   BENCH_JOBS        pending jobs to build (overrides BENCH_SIZES)
#   BENCH_USERS       users (overrides BENCH_SIZES)
#   BENCH_PASSES      passes measured per plugin (3)
#   BENCH_RATE        submit and read-one calls a second, each (20)
#   BENCH_LIST_EVERY  seconds between two whole-queue listings (10; 0:
#                     none: each holds the job read lock for seconds at
#                     200,000 jobs, so while they run they decide what
#                     every other call waits, whichever plugin runs)
#   BENCH_OWN_RATE    one user's listings a second (2; 0: none)
#   BENCH_SCHED       slurm (default): Slurm's scheduler as the cluster
#                     tests run it (sched/backfill, default
#                     SchedulerParameters); quiet: sched/builtin with
#                     SchedulerParameters=defer,interval=3600,
#                     sched_interval=-1,sched_min_interval=1000000 (no
#                     backfill, sched/builtin's start-time estimate hourly
#                     (its parser takes the first "interval=": it must
#                     come before sched_interval), no periodic main
#                     scheduling, event-triggered scheduling at most
#                     once a second): at 200,000 pending jobs every
#                     scheduling run walks and sorts the whole queue under
#                     the job write lock, which otherwise decides what
#                     the calls wait for whichever plugin runs; nothing
#                     can start anyway (the nodes are full; the fill jobs
#                     start under Slurm's scheduler, then slurmctld is
#                     restarted with this one)
#   BENCH_THREADS     submitting threads building the queue (4)
#   BENCH_NODES       slurmd nodes (4, 8 CPUs each)
#   BENCH_KEEP        1: keep the temp dir (logs, raw call files)
#   PRISM_PLUGIN_DIR  where priority_prism.so is (default: this tree's
#                     src/plugin/.libs)

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
CLUSTER=$TOP/tests/cluster

if [[ -z ${PRISM_BENCH_ISOLATED:-} ]]; then
    [[ $(id -u) -eq 0 ]] || { echo "ctld-latency.sh: must run as root" >&2; exit 2; }
    exec "$CLUSTER/isolate.sh" env PRISM_BENCH_ISOLATED=1 bash "${BASH_SOURCE[0]}" "$@"
fi

# shellcheck source-path=SCRIPTDIR/../cluster source=../cluster/lib.sh
. "$CLUSTER/lib.sh"

case ${BENCH_SIZES:-full} in
full) JOBS=200000 USERS=10000 ;;
small) JOBS=20000 USERS=1000 ;;
*) die "BENCH_SIZES must be full or small" ;;
esac
JOBS=${BENCH_JOBS:-$JOBS}
USERS=${BENCH_USERS:-$USERS}
PASSES=${BENCH_PASSES:-3}
RATE=${BENCH_RATE:-20}
LIST_EVERY=${BENCH_LIST_EVERY:-10}
OWN_RATE=${BENCH_OWN_RATE:-2}
SCHED=${BENCH_SCHED:-slurm}
case $SCHED in
slurm) SCHED_CONF= ;;
quiet) SCHED_CONF="SchedulerType=sched/builtin
SchedulerParameters=defer,interval=3600,sched_interval=-1,sched_min_interval=1000000" ;;
*) die "BENCH_SCHED must be slurm or quiet" ;;
esac
THREADS=${BENCH_THREADS:-4}
NODES=${BENCH_NODES:-4}
for v in JOBS USERS PASSES THREADS NODES; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
for v in RATE LIST_EVERY OWN_RATE; do
    [[ ${!v} =~ ^[0-9]+([.][0-9]+)?$ ]] || die "$v must be a number"
done
[[ $RATE != 0 ]] || die "RATE must be more than 0"
# what the clients do, for the log and the report
CALLS_DESC="submit and read-one $RATE/s"
if [[ $LIST_EVERY != 0 ]]; then CALLS_DESC+=", a whole-queue listing every ${LIST_EVERY}s"; else CALLS_DESC+=", no whole-queue listing"; fi
if [[ $OWN_RATE != 0 ]]; then CALLS_DESC+=", one user's listing (list-own) $OWN_RATE/s"; fi
UID0=200000 # bench1 .. benchUSERS: UID0+1 ..
GID0=200000
export PRISM_PLUGIN_DIR=${PRISM_PLUGIN_DIR:-$TOP/src/plugin/.libs}
[[ -f $PRISM_PLUGIN_DIR/priority_prism.so ]] ||
    die "no priority_prism.so in $PRISM_PLUGIN_DIR (build first: autoreconf -fi && ./configure ... && make)"
! grep -q ' shared:' /proc/self/mountinfo ||
    die "this mount namespace shares its mounts (run through tests/cluster/isolate.sh)"

DIR=$(mktemp -d "${TMPDIR:-/tmp}/prism-latency.XXXXXX")
OK=0
MOUNTS=()
cleanup() {
    local rc=$? m
    trap - EXIT INT TERM
    "$CLUSTER/cluster-stop.sh" "$DIR" >&2 || log "WARNING: cluster-stop.sh reported a problem"
    for m in "${MOUNTS[@]}"; do
        umount "$m" || log "WARNING: cannot unmount $m"
    done
    if ((OK && rc == 0)) && [[ -z ${BENCH_KEEP:-} ]]; then
        rm -rf -- "$DIR"
    else
        log "kept $DIR"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

elapsed() { # elapsed T0 -- seconds since T0 ($SECONDS)
    echo $((SECONDS - $1))
}
T_ALL=$SECONDS

log "building the client"
cc -O2 -Wall -o "$DIR/ctld-latency" "$HERE/ctld-latency.c" -lslurm -lpthread -lm ||
    die "cannot build ctld-latency (libslurm-dev missing?)"

# ---------------------------------------------------------------- users
# The users exist for this mount namespace only: slurmdbd, slurmctld
# and the clients resolve them like any site's users.
cp /etc/passwd "$DIR/passwd"
cp /etc/group "$DIR/group"
awk -v n="$USERS" -v u="$UID0" -v g="$GID0" 'BEGIN {
    for (i = 1; i <= n; i++)
        printf "bench%d:x:%d:%d::/nonexistent:/usr/sbin/nologin\n", i, u + i, g }' >>"$DIR/passwd"
echo "bench:x:$GID0:" >>"$DIR/group"
chmod 644 "$DIR/passwd" "$DIR/group"
mount --bind "$DIR/passwd" /etc/passwd && MOUNTS+=(/etc/passwd)
mount --bind "$DIR/group" /etc/group && MOUNTS+=(/etc/group)
getent passwd "bench$USERS" >/dev/null || die "bench$USERS does not resolve"

# ---------------------------------------------------------------- cluster
export PRISM_PRIORITY_TYPE=priority/multifactor
export PRISM_NODES=$NODES
export PRISM_SLURMCTLD_DEBUG=info
export PRISM_SLURM_CONF_EXTRA="MaxJobCount=$((JOBS + 100000))
MessageTimeout=60
PriorityCalcPeriod=1
PriorityDecayHalfLife=7-0
PriorityMaxAge=7-0
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityWeightJobSize=1000
PriorityWeightPartition=1000
PriorityWeightQOS=1000"
log "starting the cluster in $DIR (priority/multifactor)"
"$CLUSTER/cluster-start.sh" "$DIR" 2>"$DIR/cluster-start.err" ||
    { cat "$DIR/cluster-start.err" >&2; die "cluster-start.sh failed"; }
# shellcheck source=/dev/null
. "$DIR/env"
STATE=$DIR/state

SAM_LOG=$DIR/log/sacctmgr-bench.log
sam() {
    sacctmgr -i "$@" >>"$SAM_LOG" 2>&1 || { log_tail "$SAM_LOG" 20; die "sacctmgr $* failed"; }
}
LEAVES=$(((USERS + 99) / 100))
PARENTS=$(((LEAVES + 9) / 10))
log "adding $PARENTS parent accounts, $LEAVES leaf accounts, $USERS users"
t0=$SECONDS
names=()
for ((p = 0; p < PARENTS; p++)); do names+=("bp$p"); done
sam add account "$(
    IFS=,
    echo "${names[*]}"
)" Cluster=prism Parent=root Fairshare=100 QOS=normal,high,low DefaultQOS=normal
for ((p = 0; p < PARENTS; p++)); do
    names=()
    for ((a = p * 10; a < LEAVES && a < (p + 1) * 10; a++)); do names+=("bl$a"); done
    sam add account "$(
        IFS=,
        echo "${names[*]}"
    )" Cluster=prism Parent="bp$p" Fairshare=$((10 + p % 7 * 10))
done
t_accounts=$(elapsed "$t0")
t0=$SECONDS
for ((a = 0; a < LEAVES; a++)); do
    names=()
    for ((u = a * 100 + 1; u <= USERS && u <= (a + 1) * 100; u++)); do names+=("bench$u"); done
    sam add user "$(
        IFS=,
        echo "${names[*]}"
    )" Account="bl$a" Cluster=prism Fairshare=$((1 + a % 5))
    if ((a % 10 == 9)); then log "  $(((a + 1) * 100)) users ($(elapsed "$t0") s)"; fi
done
t_users=$(elapsed "$t0")
log "accounts in ${t_accounts}s, $USERS users in ${t_users}s"
users_known() { scontrol show assoc_mgr users="bench$USERS" flags=assoc 2>/dev/null | grep -q "UserName=bench$USERS("; }
wait_for "$LIMIT_RPC" "slurmctld to know bench$USERS" users_known || die "slurmctld does not know the users"

# ---------------------------------------------------------------- queue
log "filling the $NODES nodes with long jobs"
for n in $(sinfo -h -N -p low -o '%N' | sort -u); do
    sbatch --parsable -p low -w "$n" -N 1 --exclusive -J fill -o /dev/null \
        --chdir="$DIR/out" -t 1-0 --wrap 'sleep 86400' >/dev/null
done
fills_running() { (($(squeue -h -t R -n fill | wc -l) == NODES)); }
wait_for "$LIMIT_SCHED" "fill jobs running" fills_running || die "fill jobs did not start"
if [[ -n $SCHED_CONF ]]; then
    # the fill jobs needed a scheduler; the queue is built under this one
    log "scheduler: $SCHED; restarting slurmctld with"$'\n'"$SCHED_CONF"
    printf '%s\n' "# BENCH_SCHED=$SCHED" "$SCHED_CONF" >>"$DIR/etc/slurm.conf"
    "$CLUSTER/cluster-restart-ctld.sh" "$DIR" >&2 ||
        die "restarting slurmctld with BENCH_SCHED=$SCHED failed"
fi

log "submitting $JOBS jobs through the API ($THREADS threads, as $USERS users)"
t0=$SECONDS
"$DIR/ctld-latency" submit "$JOBS" "$THREADS" "$UID0" "$USERS" "$GID0" "$DIR/out" >"$DIR/submit.out" ||
    { cat "$DIR/submit.out" >&2; die "submitting the queue failed"; }
t_submit=$(elapsed "$t0")
pending=$(squeue -h -t PD -o '%i' | wc -l)
log "$(cat "$DIR/submit.out") in ${t_submit}s; $pending pending"
((pending >= JOBS)) || die "only $pending jobs pending, wanted $JOBS"

# wait_pass FILE -- until FILE (a plugin's end-of-pass file in
# StateSaveLocation) is replaced
wait_pass() {
    local f=$STATE/$1 m0
    m0=$(stat -c %Y.%y "$f" 2>/dev/null || echo none)
    _replaced() { [[ $(stat -c %Y.%y "$f" 2>/dev/null || echo none) != "$m0" ]]; }
    wait_for "$(limit_passes 2)" "a pass ($1)" _replaced
}

# measure KIND -- the client threads for PASSES passes of KIND (or until
# the client gives up: 3 minutes a pass and 2 more; the report says how
# many passes it saw); NOTES gets the machine's load average around it:
# the figures mean little on a machine busy with something else
NOTES=
measure() {
    local kind=$1 load0 seen
    log "measuring $kind: $PASSES passes, $CALLS_DESC"
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    "$DIR/ctld-latency" measure "$kind" "$STATE" "$PASSES" "$RATE" "$LIST_EVERY" "$OWN_RATE" \
        "$UID0" "$USERS" "$GID0" "$DIR/out" "$DIR/$kind.calls" "$DIR/$kind.passes" ||
        log "WARNING: $kind: the client did not see $PASSES passes in time"
    # what the scheduler threads did meanwhile (they hold the job lock too)
    sdiag >"$DIR/$kind.sdiag" 2>&1 || log "WARNING: sdiag failed"
    seen=$(wc -l <"$DIR/$kind.passes")
    NOTES+="$kind: $seen of $PASSES passes seen; load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after. "
}

# ---------------------------------------------------------------- multifactor
log "waiting for a multifactor pass over the whole queue"
wait_pass priority_last_decay_ran || die "no multifactor pass"
t0=$SECONDS
measure multifactor
t_mf=$(elapsed "$t0")

# ---------------------------------------------------------------- prism
t0=$SECONDS
PRISM_CTLD_TIMEOUT=1200 "$CLUSTER/cluster-restart-ctld.sh" "$DIR" priority/prism >&2 ||
    die "restarting slurmctld with priority/prism failed"
t_restart=$(elapsed "$t0")
log "slurmctld restarted with priority/prism in ${t_restart}s; waiting for a pass"
wait_pass priority_prism_pass || die "no prism pass"
t0=$SECONDS
measure prism
t_prism=$(elapsed "$t0")

# ---------------------------------------------------------------- report
echo "## ctld-latency: $pending pending jobs, $USERS users in $LEAVES accounts, $NODES nodes"
echo
echo "PriorityCalcPeriod=1, $PASSES passes per plugin; $CALLS_DESC; scheduler: $SCHED; latencies in ms."
echo
"$DIR/ctld-latency" report multifactor "$DIR/multifactor.calls" "$DIR/multifactor.passes" \
    prism "$DIR/prism.calls" "$DIR/prism.passes"
echo
echo "$NOTES"
echo
echo "Scheduler threads (sdiag after each plugin's measurement; cycle times in microseconds):"
echo
for kind in multifactor prism; do
    awk -v k="$kind" '
    /^Main schedule statistics/ { sec = "main" }
    /^Backfilling stats/ { sec = "backfill" }
    { line = $0; sub(/^[ \t]+/, "", line); gsub(/[ \t]+/, " ", line) }
    sec && line ~ /^(Last cycle|Max cycle|Mean cycle|Total cycles):/ {
        printf "%s %s %s; ", k, sec, line }
    END { print "" }' "$DIR/$kind.sdiag"
done
echo
echo "Times: users ${t_users}s (accounts ${t_accounts}s), queue ${t_submit}s, multifactor ${t_mf}s, restart ${t_restart}s, prism ${t_prism}s, all $(elapsed "$T_ALL")s."
if [[ -n ${BENCH_KEEP:-} ]]; then
    echo "Raw files in $DIR (*.calls: TYPE START LATENCY_MS RC; *.passes: START END HOLD_USEC, -1 for multifactor)."
fi
OK=1
