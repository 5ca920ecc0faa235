#!/bin/bash
# tests/cluster/cluster-restart-ctld.sh DIR [PRIORITY_TYPE]
#
# Restart only the slurmctld of the loopback cluster that cluster-start.sh
# started in DIR, optionally with a different PriorityType:
#   1. stop the recorded slurmctld by its PID (SIGTERM, bounded wait, then
#      SIGKILL; SIGTERM makes it save its state: jobs, association usage),
#   2. if PRIORITY_TYPE is given, rewrite every PriorityType= line of
#      DIR/etc/slurm.conf (a later line would win, e.g. one from
#      PRISM_SLURM_CONF_EXTRA) to PRIORITY_TYPE,
#   3. start slurmctld again exactly as cluster-start.sh does (no -c: jobs
#      and state survive), record its new PID in DIR/pids/slurmctld.pid so
#      cluster-stop.sh keeps stopping everything, and wait until it answers
#      and reports the wanted PriorityType.
# slurmd, slurmdbd, mariadbd and munged are not touched; running jobs keep
# running.  On failure the slurmctld log tail is printed and the exit status
# is non-zero (a half-started slurmctld stays recorded, so cluster-stop.sh
# DIR still stops it).
#
# Environment: PRISM_CTLD_TIMEOUT  seconds to wait for the new slurmctld to
#                                  answer (default LIMIT_DAEMON, lib.sh)

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $# -ge 1 && $# -le 2 ]] || die "usage: $0 DIR [PRIORITY_TYPE]"
[[ -d $1 ]] || die "$1 is not a directory"
DIR=$(cd "$1" && pwd -P)
WANT=${2:-}
TIMEOUT=${PRISM_CTLD_TIMEOUT:-$LIMIT_DAEMON}
CONF=$DIR/etc/slurm.conf

[[ $(id -u) -eq 0 ]] || die "must run as root"
[[ -r $CONF ]] || die "$CONF not found; is $DIR a cluster dir?"
[[ -r $DIR/pids/slurmctld.pid ]] || die "no slurmctld pid record in $DIR/pids"
[[ -z $WANT || $WANT =~ ^priority/[A-Za-z0-9_]+$ ]] ||
    die "PRIORITY_TYPE must look like priority/NAME, not '$WANT'"
[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "PRISM_CTLD_TIMEOUT must be a positive integer"
export SLURM_CONF=$CONF

# Keys in slurm.conf are case-insensitive.
conf_types() {
    awk -F= 'tolower($1) ~ /^[[:space:]]*prioritytype[[:space:]]*$/ {
        v = $2; gsub(/[[:space:]]/, "", v); print v }' "$CONF"
}
OLD=$(conf_types | tail -n 1)
[[ -n $WANT ]] || WANT=${OLD:-priority/basic}

if [[ $WANT == priority/* ]]; then
    so=${WANT//\//_}.so
    plugin_dirs=$(awk -F= 'tolower($1) ~ /^[[:space:]]*plugindir[[:space:]]*$/ {
        v = $2; gsub(/[[:space:]]/, "", v); d = v } END { print d }' "$CONF")
    found=0
    IFS=: read -r -a dirs <<<"$plugin_dirs"
    for d in "${dirs[@]}"; do
        [[ -f $d/$so ]] && found=1
    done
    ((found)) || log "WARNING: $so not found in PluginDir=$plugin_dirs"
fi

# 1. stop
if pid=$(recorded_pid "$DIR" slurmctld); then
    log "stopping slurmctld (pid $pid, PriorityType=${OLD:-?})"
    stop_recorded "$DIR" slurmctld 30 || die "slurmctld (pid $pid) did not stop"
else
    log "slurmctld of $DIR was not running; starting it"
fi

# 2. rewrite PriorityType
if [[ $WANT != "$OLD" ]]; then
    tmp=$(mktemp "$DIR/etc/.slurm.conf.XXXXXX")
    if [[ -n $(conf_types) ]]; then
        awk -v t="$WANT" '
            tolower($0) ~ /^[[:space:]]*prioritytype[[:space:]]*=/ {
                print "PriorityType=" t; next }
            { print }' "$CONF" >"$tmp"
    else
        { cat "$CONF"; echo "PriorityType=$WANT"; } >"$tmp"
    fi
    # Overwrite in place (keeps owner and mode).
    cat "$tmp" >"$CONF"
    rm -f -- "$tmp"
    log "PriorityType in $CONF: ${OLD:-unset} -> $WANT"
fi

# 3. start and wait
LOGF=$DIR/log/slurmctld.log
log_lines=$( (wc -l <"$LOGF") 2>/dev/null || echo 0)
log "starting slurmctld (PriorityType=$WANT)"
if ! start_slurmctld "$DIR" "$TIMEOUT"; then
    tail -n +"$((log_lines + 1))" "$LOGF" 2>/dev/null | tail -n 40 >&2 || true
    log_tail "$DIR/log/slurmctld.stdout" 10
    die "slurmctld did not come back"
fi
got=$(ctld_priority_type)
if [[ $got != "$WANT" ]]; then
    tail -n +"$((log_lines + 1))" "$LOGF" 2>/dev/null | tail -n 40 >&2 || true
    die "slurmctld is up but reports PriorityType=${got:-?}, wanted $WANT"
fi
log "slurmctld is up again (pid $(recorded_pid "$DIR" slurmctld || echo '?'), PriorityType=$got)"
