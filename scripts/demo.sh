#!/usr/bin/env bash
# demo.sh: set everything up (scripts/setup.sh), start a local loopback
# cluster with priority/prism loaded, submit a small demo workload and
# show squeue, sprio -l, sshare -l, prism explain of one pending job and
# prism whatif of the queue without fair-share. The cluster keeps running; the
# last lines printed say how to stop it.
#
# Usage: scripts/demo.sh [DIR]       (run as root; DIR: where the cluster
#                                     lives, default a new temporary dir)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh"
PRISM_PLUGIN_DIR="$top/src/plugin/.libs" exec bash "$top/tests/cluster/demo.sh" "$@"
