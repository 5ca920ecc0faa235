#!/bin/bash
# tests/cluster/cluster-stop.sh DIR
#
# Stop the loopback Slurm cluster that cluster-start.sh started in DIR.
#
# * Only processes recorded in DIR/pids/*.pid ("PID STARTTIME") are
#   signalled, by PID, and only while their start time still matches; no
#   process is ever looked up or killed by name.
# * Order: cancel the jobs on the nodes (while slurmctld is still up), slurmd*,
#   stray slurmstepd/job processes of this cluster (found by their working
#   directory inside DIR/spool, which they inherit from the slurmd started
#   there, plus their descendants; slurmstepd calls setsid so it is not in
#   slurmd's session), slurmctld, slurmdbd, mariadbd, munged.
#   Each gets SIGTERM, a bounded wait, then SIGKILL.
# * Safe to run more than once and after a half-failed start.
# * DIR itself (logs, state, database) is always left in place; the caller
#   decides whether to `rm -rf` it.
#
# Exit status: 0 if nothing we started is left running, 1 otherwise.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $# -eq 1 ]] || die "usage: $0 DIR"
[[ -d $1 ]] || die "$1 is not a directory"
DIR=$(cd "$1" && pwd -P)

if [[ ! -d $DIR/pids ]]; then
    log "no pid records in $DIR; nothing to stop"
    exit 0
fi

rc=0

# 1. Cancel the jobs that have processes on the nodes while the controller
#    still answers, so slurmstepds exit cleanly. A pending job has none
#    and goes with the controller: cancelling test-load.sh's 20,000 took
#    the controller, slurmdbd and MariaDB more than a minute.
ON_NODES=RUNNING,SUSPENDED,STOPPED,COMPLETING,CONFIGURING
if { recorded_pid "$DIR" slurmctld || recorded_pid "$DIR" slurmctld2; } >/dev/null &&
    [[ -r $DIR/etc/slurm.conf ]]; then
    export SLURM_CONF=$DIR/etc/slurm.conf
    mapfile -t jobs < <(timeout 15 squeue -h -t "$ON_NODES" -o '%A' 2>/dev/null)
    if ((${#jobs[@]} > 0)); then
        log "cancelling ${#jobs[@]} job(s) on the nodes"
        timeout 30 scancel "${jobs[@]}" 2>/dev/null || true
        # shellcheck disable=SC2317  # invoked indirectly via wait_for
        jobs_gone() {
            local n
            n=$(timeout 10 squeue -h -t "$ON_NODES" -o '%A' 2>/dev/null |
                wc -l) || return 1
            ((n == 0))
        }
        # Not a check: a grace before the slurmd go, whose stray job
        # processes are then killed by PID (step 2) however long this
        # took; 30 s lets a few jobs end cleanly on a loaded machine.
        wait_for 30 "jobs to finish" jobs_gone || true
        # Let slurmstepds of the cancelled jobs exit (the same grace).
        # shellcheck disable=SC2317
        no_strays() { [[ -z $(spool_strays "$DIR") ]]; }
        wait_for 15 "slurmstepd to exit" no_strays || true
    fi
fi

# 2. slurmd instances.
shopt -s nullglob
for f in "$DIR"/pids/slurmd-*.pid; do
    f=${f##*/}
    stop_recorded "$DIR" "${f%.pid}" 20 || rc=1
done

# 2b. Stray slurmstepd / job processes of this cluster (jobs that could not
#     be cancelled): identified by their working directory inside DIR/spool,
#     plus their descendants, and stopped by PID.
#     slurmstepd ignores SIGTERM and a job script would just run its next
#     command, so the whole snapshot is frozen (SIGSTOP) and then SIGKILLed;
#     repeated a few times in case something forked in between.
for round in 1 2 3 4 5; do
    mapfile -t strays < <(spool_strays "$DIR")
    ((${#strays[@]} > 0)) || break
    declare -A st_of=()
    for p in "${strays[@]}"; do
        st_of[$p]=$(proc_starttime "$p") || continue
        log "round $round: killing stray process $p ($(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-60))"
        kill -STOP "$p" 2>/dev/null || true
    done
    for p in "${!st_of[@]}"; do
        pid_alive "$p" "${st_of[$p]}" && kill -KILL "$p" 2>/dev/null
    done
    unset st_of
    sleep 0.5
done
if [[ -n $(spool_strays "$DIR") ]]; then
    log "WARNING: stray processes remain: $(spool_strays "$DIR" | tr '\n' ' ')"
    rc=1
fi

# 3. The other daemons in reverse start order.
stop_recorded "$DIR" slurmctld 30 || rc=1
stop_recorded "$DIR" slurmctld2 30 || rc=1
stop_recorded "$DIR" slurmdbd 30 || rc=1
stop_recorded "$DIR" mariadbd 60 || rc=1
stop_recorded "$DIR" munged 20 || rc=1

# the tmpfs cluster-start.sh mounted for StateSaveLocation, once no
# daemon of the cluster is left to use it
if [[ -e $DIR/state-tmpfs ]] && mountpoint -q "$DIR/state"; then
    umount "$DIR/state" || { log "WARNING: cannot unmount $DIR/state"; rc=1; }
fi

# 4. Final check.
for f in "$DIR"/pids/*.pid; do
    name=${f##*/}
    name=${name%.pid}
    if pid=$(recorded_pid "$DIR" "$name"); then
        log "WARNING: $name (pid $pid) is still running"
        rc=1
    fi
done
((rc == 0)) && log "cluster in $DIR stopped"
exit "$rc"
