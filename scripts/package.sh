#!/usr/bin/env bash
# package.sh: build the Debian package of Prism for the Slurm installed on
# this machine (Debian 12: Slurm 22.05; Debian 13: Slurm 24.11), the
# Debian way (dpkg-buildpackage -us -uc -b, debian/), from a clean copy of
# the repository's files, and check it with lintian (errors and warnings
# fail; debian/*.lintian-overrides explain what is overridden).
#
# Usage: scripts/package.sh [--tree SLURM_TREE] [OUTDIR]
#        (run as root; OUTDIR default ./packages). Without --tree,
#        scripts/setup.sh --no-build installs the build tools and fetches
#        the Slurm source tree first; with it, both are taken as done (as
#        in the test command's Debian root, which has no network).
# Env:   DEB_BUILD_OPTIONS   passed on (nocheck skips make check in the
#                            package build)
# The last line printed is the path of the .deb.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
log() { printf 'package: %s\n' "$*" >&2; }
die() { printf 'package: error: %s\n' "$*" >&2; exit 1; }

tree=
if [ "${1:-}" = --tree ]; then
	[ $# -ge 2 ] || die "--tree needs a directory"
	tree=$2
	shift 2
fi
[ $# -le 1 ] || die "usage: $0 [--tree SLURM_TREE] [OUTDIR]"
out=${1:-$top/packages}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# build tools, lintian and the Slurm source tree (cached)
[ -n "$tree" ] || tree=$("$top/scripts/setup.sh" --no-build | tail -n 1)
[ -f "$tree/config.h" ] || die "no configured Slurm source tree at '$tree'"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(cd "$top" && dpkg-parsechangelog -S Version)
src=$work/prism-$version
mkdir "$src"
# the source files only, no build products: a git checkout's files, a
# configured tree's make distdir, or an unpacked release tarball as it is
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) |
		tar -xf - -C "$src"
elif [ -f "$top/Makefile" ]; then
	rmdir "$src"
	make -C "$top" distdir distdir="$src" >"$work/distdir.log" 2>&1 ||
		{ tail -n 20 "$work/distdir.log" >&2; die "make distdir failed"; }
elif [ -f "$top/debian/rules" ]; then
	cp -a "$top/." "$src"
else
	die "$top has no debian/rules"
fi

log "dpkg-buildpackage against Slurm in $tree"
# (configure chooses its own shell, as on Debian's builders: the test
# command's CONFIG_SHELL is not passed on)
(cd "$src" && unset CONFIG_SHELL && SLURM_SOURCE=$tree dpkg-buildpackage -us -uc -b) \
	>"$work/build.log" 2>&1 || {
	tail -n 60 "$work/build.log" >&2
	die "dpkg-buildpackage failed"
}
deb=$(find "$work" -maxdepth 1 -name 'prism-slurm_*.deb' | head -n 1)
[ -n "$deb" ] || die "no prism-slurm .deb was built"

log "lintian $(basename "$deb")"
# (Debian 12's lintian, 2.116, leaves a database file, mldbm-elf-*, in
# TMPDIR at every run: give it a directory of ours, removed with $work)
mkdir "$work/tmp"
TMPDIR=$work/tmp lintian --fail-on error,warning --display-info --info \
	"$deb" >&2 || die "lintian: errors or warnings in $(basename "$deb")"

cp "$deb" "$out/"
cp "$work/build.log" "$out/$(basename "$deb" .deb).build.log"
log "built $(dpkg-deb -f "$deb" Package Version Depends | tr '\n' ' ')"
printf '%s\n' "$out/$(basename "$deb")"
