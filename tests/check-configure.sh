#!/bin/sh
# check-configure.sh: configure refuses a Slurm source tree that is
# missing, not configured, of a version Prism does not support, or of
# another version than the installed slurmctld, each with a one-line
# reason.
set -u
top=$(cd "${top_srcdir:-.}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A copy of what configure reads, since a configured source directory
# cannot host another build.
srcdir="$tmp/src"
mkdir -p "$srcdir/src/core/multifactor"
cp "$top/configure" "$top/Makefile.in" "$srcdir/"
cp -R "$top/build-aux" "$srcdir/"
: >"$srcdir/src/core/multifactor/prism_prio.c"
pass=0
fail=0

# expect TREE PATTERN WHAT: configure must fail naming PATTERN.
expect() {
	mkdir -p "$tmp/build"
	if (cd "$tmp/build" && "$srcdir/configure" --with-slurm-source="$1" \
		>"$tmp/out" 2>&1); then
		echo "FAIL: $3: configure accepted $1"
		fail=$((fail + 1))
	elif grep -q "configure: error: .*$2" "$tmp/out"; then
		echo "PASS: $3: $(grep 'configure: error:' "$tmp/out")"
		pass=$((pass + 1))
	else
		echo "FAIL: $3: no error naming '$2':"
		tail -5 "$tmp/out"
		fail=$((fail + 1))
	fi
	rm -rf "$tmp/build"
}

# A fake tree with the files configure looks at.
fake_tree() {
	mkdir -p "$1/src/slurmctld" "$1/slurm"
	: >"$1/src/slurmctld/slurmctld.h"
	[ -n "$2" ] || return 0
	echo "#define SLURM_VERSION_STRING \"$2\"" >"$1/config.h"
	echo "#define SLURM_VERSION_NUMBER 0x0" >"$1/slurm/slurm_version.h"
}

expect "$tmp/none" "missing" "missing tree"
fake_tree "$tmp/raw" ""
expect "$tmp/raw" "not configured" "unconfigured tree"
fake_tree "$tmp/old" "21.08.5"
expect "$tmp/old" "Slurm 21.08.5 is not supported .*: Prism builds for Slurm 22.05 and 24.11" \
	"tree of an unsupported version"
fake_tree "$tmp/new" "26.05.5"
expect "$tmp/new" "Slurm 26.05.5 is not supported" \
	"tree of a newer unsupported version"
# a supported version that is not the one installed
installed=$(slurmctld -V 2>/dev/null | sed -n 's/^slurm[^ ]* \([0-9][^ ]*\).*$/\1/p')
case "$installed" in
24.11.*) other=22.05.8 ;;
*) other=24.11.5 ;;
esac
fake_tree "$tmp/other" "$other"
expect "$tmp/other" "is version $other but the installed slurmctld is" \
	"tree of another supported version than the installed one"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
