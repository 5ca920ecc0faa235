# tests/harness/lib.sh: what the harness tests (tests/harness/test-*.sh)
# start with, sourced after `set -u`: tests/lib.sh (top_srcdir,
# top_builddir, $tmp, the PASS/FAIL counters), and the harness program
# and the plugin directories (SLURM_LIBDIR as make check sets it).
# shellcheck shell=sh source=tests/lib.sh
. "${top_srcdir:-.}/tests/lib.sh"
H="$top_builddir/tests/harness/prism-harness"
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
prism_dir="$top_builddir/src/plugin/.libs"
