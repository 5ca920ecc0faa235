# tests/harness/lib.sh: what the harness tests (tests/harness/test-*.sh)
# start with, sourced after `set -u`: the harness program and the plugin
# directories (top_srcdir, top_builddir and SLURM_LIBDIR as make check
# sets them), a temporary directory in $tmp removed at exit (kept with
# KEEP=1), and the PASS/FAIL counters with their printers.
# shellcheck shell=sh
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
H="$top_builddir/tests/harness/prism-harness"
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
prism_dir="$top_builddir/src/plugin/.libs"
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
