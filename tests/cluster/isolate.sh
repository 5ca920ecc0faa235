#!/bin/bash
# tests/cluster/isolate.sh CMD [ARG...]
#
# Run CMD (a cluster test, as root) in its own network, PID, mount, UTS
# and IPC namespaces, as the Debian root's tests run (scripts/debian-root.sh):
# a loopback of its own with 127.0.0.1 and 127.0.0.2 (Slurm 24.11 daemons
# fail to bind when lo has only 127.0.0.1) and no other network, so that
# several clusters run side by side without sharing a port; a fresh /proc
# in the new mount namespace, which vanishes with it. This script is PID 1
# there: it reaps the daemons the test starts (their CPU time counts to
# the test), passes INT, TERM and HUP on to CMD, exits with CMD's status,
# and when it exits the kernel kills whatever CMD left running.
set -uo pipefail

if [[ ${1:-} != __pid1 ]]; then
    [[ $# -gt 0 ]] || { echo "usage: $0 CMD [ARG...]" >&2; exit 2; }
    [[ $(id -u) -eq 0 ]] || { echo "isolate.sh: must run as root" >&2; exit 2; }
    exec unshare --net --pid --fork --kill-child --mount-proc --uts --ipc \
        -- bash "${BASH_SOURCE[0]}" __pid1 "$@"
fi
shift
ip link set lo up || exit 1
ip addr add 127.0.0.2/8 dev lo || exit 1
cmd=
trap '[[ -z $cmd ]] || kill -INT "$cmd" 2>/dev/null' INT
trap '[[ -z $cmd ]] || kill -TERM "$cmd" 2>/dev/null' TERM
trap '[[ -z $cmd ]] || kill -HUP "$cmd" 2>/dev/null' HUP
"$@" &
cmd=$!
while :; do
    rc=0
    wait "$cmd" || rc=$?
    kill -0 "$cmd" 2>/dev/null || break
done
# whatever CMD left running dies with this PID 1
exit "$rc"
