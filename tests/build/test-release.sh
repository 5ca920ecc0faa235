#!/usr/bin/env bash
# test-release.sh: Prism's plugin builds against each SchedMD Slurm
# release given (configure decides every difference by what the
# release's tree has) and exports every entry point that release's
# priority interface looks up.
#
# Usage: tests/build/test-release.sh VERSION...
#        (VERSION as in $PRISM_SLURM_RELEASES/SHA256SUMS, e.g. 25.11.7)
# Run from a configured Prism tree (the test copies its sources with
# make distdir and builds them apart, in one build directory: the core,
# which no Slurm header reaches, is built once; the plugin anew for each
# release). Needs no Slurm of those releases installed: each tree comes
# from scripts/slurm-source.sh --release VERSION --headers-only (cached).
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 VERSION..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
builddir=$(pwd)
[ -f "$builddir/Makefile" ] || { echo "$0: run it from a configured Prism tree" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

# test_release VERSION
test_release() {
	local release=$1 tree iface want have s num exp
	echo "--- Slurm $release"
	tree=$("$top/scripts/slurm-source.sh" --release "$release" --headers-only | tail -n 1) ||
		{ ko "no configured tree of Slurm $release"; return; }
	# (-C: the checks that are not the tree's are cached across releases)
	if "$tmp/src/configure" -C --with-slurm-source="$tree" \
		--disable-slurmctld-check >configure.log 2>&1; then
		ok "configure accepts Slurm $release ($(sed -n 's/^PRISM_SLURM_DEFS = *//p' Makefile | wc -w) features found)"
	else
		ko "configure refused Slurm $release:"
		grep 'configure: error' configure.log || tail -n 5 configure.log
		return
	fi
	# the plugin's objects anew: their dependencies name the last tree's
	# headers, which did not change
	rm -rf src/plugin/*.lo src/plugin/*.o src/plugin/*.la src/plugin/.libs
	if make src/plugin/priority_prism.la >make.log 2>&1; then
		ok "the plugin builds against Slurm $release (-Werror)"
	else
		ko "the plugin does not build against Slurm $release:"
		grep -E 'error|warning' make.log | head -n 20
		return
	fi

	# The release's interface: the symbols its loader asks the plugin for.
	iface=$tree/src/interfaces/priority.c
	[ -f "$iface" ] || iface=$tree/src/common/slurm_priority.c
	want=$(sed -n '/syms\[\] = {/,/};/p' "$iface" | grep -o '"[a-z_]*"' | tr -d '"')
	have=$(nm -D --defined-only src/plugin/.libs/priority_prism.so | awk '{ print $3 }')
	[ -n "$want" ] || ko "no syms[] list found in $iface"
	for s in $want plugin_name plugin_type plugin_version init fini; do
		if grep -qx "$s" <<<"$have"; then
			ok "exports $s"
		else
			ko "does not export $s (Slurm $release's loader needs it)"
		fi
	done
	# plugin_version is the release's number: the loader accepts nothing else
	num=$(sed -n 's/^#define SLURM_VERSION_NUMBER \(0x[0-9a-fA-F]*\).*/\1/p' "$tree/slurm/slurm_version.h")
	exp=$(printf '%s' "$release" | awk -F. '{ printf "0x%02x%02x%02x", $1, $2, $3 }')
	if [ "$(printf '0x%06x' "$num")" = "$exp" ]; then
		ok "the tree is Slurm $release (SLURM_VERSION_NUMBER $num)"
	else
		ko "the tree's SLURM_VERSION_NUMBER $num is not $release's ($exp)"
	fi
}

make -s -C "$builddir" distdir distdir="$tmp/src" >/dev/null
mkdir "$tmp/build"
cd "$tmp/build"
for r in "$@"; do
	test_release "$r"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
