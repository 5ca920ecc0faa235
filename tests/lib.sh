# tests/lib.sh: what the shell tests of make check start with, sourced
# after `set -u`: top_srcdir and top_builddir (as make check sets them;
# "." run by hand from the top of the tree), a temporary directory in $tmp
# removed at exit (kept with KEEP=1), and the PASS/FAIL counters with
# their printers. tests/harness/lib.sh adds the harness's paths.
# shellcheck shell=sh
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
