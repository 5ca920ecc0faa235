#!/bin/sh
# check-configure.sh: configure refuses a Slurm source tree that is
# missing, not configured, older than 22.05, without the headers a
# priority plugin needs, or of another release than the installed
# slurmctld (unless told to build the plugin alone), each with a
# one-line reason.
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

# The compiler's and the system's checks, the same in every run, come
# from the cache of the one configure that succeeds (run first; a failed
# configure saves no cache), so that each refusal costs a third of a full
# configure's CPU. No check of a Slurm tree is cached (configure.ac and
# m4/prism_slurm.m4 use no cache variable).
cache="$tmp/config.cache"
# expect TREE PATTERN WHAT: configure must fail naming PATTERN.
expect() {
	mkdir -p "$tmp/build"
	if (cd "$tmp/build" && "$srcdir/configure" --with-slurm-source="$1" \
		--cache-file="$cache" >"$tmp/out" 2>&1); then
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

# The real tree of the build (SLURM_SOURCE), relabelled as another
# release: a view of it with its own config.h.
installed=$(slurmctld -V 2>/dev/null | sed -n 's/^slurm[^ ]* \([0-9][^ ]*\).*$/\1/p')
case "$installed" in
24.11.*) other=22.05.8 ;;
*) other=24.11.5 ;;
esac
if [ -n "${SLURM_SOURCE:-}" ] && [ -f "$SLURM_SOURCE/config.h" ]; then
	mkdir "$tmp/other"
	for e in "$SLURM_SOURCE"/*; do
		[ "${e##*/}" = config.h ] || ln -s "$e" "$tmp/other/${e##*/}"
	done
	sed "s/^#define SLURM_VERSION_STRING .*/#define SLURM_VERSION_STRING \"$other\"/" \
		"$SLURM_SOURCE/config.h" >"$tmp/other/config.h"
	mkdir -p "$tmp/build"
	if (cd "$tmp/build" && "$srcdir/configure" --with-slurm-source="$tmp/other" \
		--disable-slurmctld-check --cache-file="$cache" >"$tmp/out" 2>&1) &&
		grep -q 'harness and its tests: *no' "$tmp/out"; then
		echo "PASS: --disable-slurmctld-check builds the plugin for $other, without the harness"
		pass=$((pass + 1))
	else
		echo "FAIL: --disable-slurmctld-check did not configure the plugin alone:"
		tail -5 "$tmp/out"
		fail=$((fail + 1))
	fi
	rm -rf "$tmp/build"
	expect "$tmp/other" "is version $other but the installed slurmctld .* is $installed" \
		"tree of another release than the installed slurmctld"
else
	echo "FAIL: SLURM_SOURCE is not a configured tree (run through make check)"
	fail=$((fail + 1))
fi

expect "$tmp/none" "missing" "missing tree"
fake_tree "$tmp/raw" ""
expect "$tmp/raw" "not configured" "unconfigured tree"
fake_tree "$tmp/old" "21.08.5"
expect "$tmp/old" "Slurm 21.08.5 is older than 22.05 .*releases known to work: 22.05.8" \
	"tree of a release older than 22.05"
# a tree whose headers are not those of a Slurm the plugin knows: refused
# by what it lacks, whatever its version says
fake_tree "$tmp/new" "26.05.5"
expect "$tmp/new" "does not compile with a priority plugin's headers.*Releases known to work" \
	"tree without the headers a priority plugin needs"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
