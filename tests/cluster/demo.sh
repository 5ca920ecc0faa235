#!/bin/bash
# tests/cluster/demo.sh [DIR]
#
# Start a loopback Prism cluster in DIR (default: a new mktemp -d dir under
# /tmp), submit a small demo workload (several users and accounts, both
# partitions, QOS, one held job), wait until the jobs that fill the nodes
# have been charged to their users (fair-share at work), and show squeue,
# sprio -l, sshare -l, `prism explain` of one pending job (its terms and
# its path through the Fair Tree) and `prism whatif` of the queue without
# fair-share.  The cluster is LEFT RUNNING; the command
# to stop it is printed at the end.  Same environment variables as cluster-start.sh
# (PRISM_PLUGIN_DIR, PRISM_PRIORITY_TYPE, PRISM_SLURM_CONF_EXTRA, ...);
# PRISM_DEMO_WAIT sets the pause before the report (default 10 s).

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"
[[ $# -le 1 ]] || die "usage: $0 [DIR]"

if [[ $# -eq 1 ]]; then
    mkdir -p "$1"
    DIR=$(cd "$1" && pwd -P)
else
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/prism-demo.XXXXXX")
fi

# The demo weighs fair-share, QOS and job size too, and ages jobs over 10
# minutes, so the factor columns of sprio show more than the partition term.
export PRISM_SLURM_CONF_EXTRA="${PRISM_SLURM_CONF_EXTRA:-PriorityWeightFairshare=5000
PriorityWeightQOS=2000
PriorityWeightJobSize=500
PriorityMaxAge=10}"
CLI=$(cd "$HERE/../.." && pwd)/src/cli/prism
[[ -x $CLI ]] || CLI=$(command -v prism || true)
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"

log "submitting demo workload"
# Occupy every node so the rest of the workload stays pending: daemon
# (account physics) takes all nodes but one, bin (chem) the last, so their
# usage, and with it their fair-share, differs once a pass has charged it.
BUSY=()
nodes=($(sinfo -h -N -p low -o '%N' | sort -u))
for i in "${!nodes[@]}"; do
    user=daemon
    ((i < ${#nodes[@]} - 1)) || user=bin
    BUSY+=("$(submit_as "$user" -p low -w "${nodes[i]}" -N 1 --exclusive \
        -J busy -o /dev/null --chdir="$DIR/out" --wrap 'sleep 600')")
done
busy_running() {
    local n
    n=$(squeue -h -t R -j "$(IFS=,; echo "${BUSY[*]}")" -o '%i' | wc -l)
    ((n == ${#BUSY[@]}))
}
wait_for "$LIMIT_SCHED" "busy jobs running" busy_running ||
    log "WARNING: not all busy jobs started; the demo may look odd"
submit_as daemon -p low -n 1 -J daemon-low -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as daemon -p high -n 1 -J daemon-high -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as daemon -p low -n 4 -q high -J daemon-qhigh -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as bin -p low -n 2 -J bin-low -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as bin -p high -n 8 -q low -J bin-high -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as games -p high -n 1 -J games-high -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as games -H -p low -n 1 -J games-held -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null
submit_as root -A chem -p low -n 1 -J root-chem -o /dev/null --chdir="$DIR/out" --wrap 'sleep 30' >/dev/null

wait_s=${PRISM_DEMO_WAIT:-10}
log "waiting ${wait_s}s"
sleep "$wait_s"
# the first pass that charges the busy jobs (PriorityCalcPeriod=1 minute)
charged() {
    sshare -h -P -a -o User,RawUsage | awk -F'|' '$1 == "daemon" && $2 > 0 { ok = 1 } END { exit !ok }'
}
log "waiting for a recalculation pass to charge the running jobs"
wait_for "$(limit_passes 2)" "usage charged" charged ||
    log "WARNING: no usage charged yet; fair-share is still even"

echo "=== squeue"
squeue -o '%.6i %.9P %.12j %.8u %.8a %.6q %.8T %.10Q %r'
echo "=== sprio -l"
sprio -l
echo "=== sshare -a -l"
sshare -a -l
if [[ -n $CLI ]]; then
    # the pending job of the user with no usage: why it leads (or not)
    job=$(squeue -h -t PD -u games -o '%i %Q' | awk '$2 > 0 { print $1; exit }')
    echo "=== prism explain ${job:-}"
    "$CLI" explain ${job:+"$job"} || true
    # and what the queue would look like if fair-share did not count
    echo "=== prism whatif PriorityWeightFairshare=0"
    "$CLI" whatif PriorityWeightFairshare=0 || true
fi
echo
echo "The cluster is still running.  Use it with:"
echo "  . $DIR/env"
echo "Stop it with:"
echo "  $HERE/cluster-stop.sh $DIR"
