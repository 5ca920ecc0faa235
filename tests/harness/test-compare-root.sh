#!/usr/bin/env bash
# test-compare-root.sh: test-compare.sh against another Slurm release, in
# a cached Debian root (scripts/debian-root.sh): Slurm 24.11 in Debian 13
# (trixie) by default.  Prism is built from a COPY of this repository
# inside the root, never in the host's source tree, and compared with that
# release's own priority/multifactor through prism-harness:
#   1. the world test-compare.sh uses, under each of its PriorityFlags sets;
#   2. the same world with multi-QOS jobs (gen-world.sh -q PCT:
#      sbatch --qos=a,b; one priority per (partition, QOS) pair),
#      under each set again.
# Each set prints test-compare.sh's PASS/FAIL line.
#
# Usage (as root, on the host):  tests/harness/test-compare-root.sh
#
# What it does on the host: copies the files git knows (tracked, and
# untracked ones not ignored, as they are in the working tree, so
# uncommitted changes count) into ROOT/build/prism (emptied first), and
# runs this script inside the root (scripts/debian-root.sh SUITE run, own
# network namespace) with --inside.  Inside: autoreconf -fi, ./configure
# --with-slurm-source=TREE (configure checks TREE's version against the
# root's slurmctld), make, make tests/harness/prism-harness, then
# test-compare.sh twice.  Build logs and every report stay in
# ROOT/build/prism/compare-root/ until the next run.
#
# The configured Slurm source tree of the root's slurmctld version, the
# first found of:
#   - $PRISM_SLURM_TREE (a host directory, bound into the root);
#   - the root's own cache, ROOT/var/cache/prism/slurm-source/VERSION/
#     slurm-wlm-UPSTREAM (made by scripts/slurm-source.sh run inside the
#     root: debian-root.sh SUITE run --host-net -- ...);
#   - the host's cache, /var/cache/prism/slurm-source/VERSION/
#     slurm-wlm-UPSTREAM (bound into the root read-write; nothing writes).
#
# Environment: PRISM_ROOT_SUITE (trixie), PRISM_SLURM_TREE (above),
# COMPARE_MULTIQOS (percentage of multi-QOS jobs in the second world, 10),
# and test-compare.sh's COMPARE_SETS, COMPARE_SEED, COMPARE_USERS,
# COMPARE_JOBS, COMPARE_SHOW, COMPARE_JOBS_PARALLEL (passed through).
# Exit status: 0 when every set of both worlds passed.
set -euo pipefail

prog=${0##*/}
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 1; }

passed_env=(COMPARE_SETS COMPARE_SEED COMPARE_USERS COMPARE_JOBS
	COMPARE_SHOW COMPARE_JOBS_PARALLEL COMPARE_MULTIQOS)

# ------------------------------------------------------------- inside
# inside TREE: build the copy in /build/prism and compare (in the root).
inside() {
	local tree=$1 src=/build/prism out rc=0 v
	out=$src/compare-root
	mkdir -p "$out"
	cd "$src"

	step() { # step NAME CMD...: run CMD, its output in $out/NAME.log
		local name=$1 t0=$SECONDS
		shift
		if "$@" >"$out/$name.log" 2>&1; then
			log "$name: $((SECONDS - t0)) s"
		else
			log "$name FAILED after $((SECONDS - t0)) s; the end of $out/$name.log:"
			tail -25 "$out/$name.log" >&2
			exit 1
		fi
	}
	v=$(slurmctld -V 2>/dev/null || true)
	log "building Prism for ${v:-an unknown slurmctld} (tree $tree)"
	step autoreconf autoreconf -fi
	step configure ./configure --with-slurm-source="$tree"
	step make make -j2
	step harness make tests/harness/prism-harness
	[ -f src/plugin/.libs/priority_prism.so ] ||
		die "the build made no src/plugin/.libs/priority_prism.so"

	world() { # world NAME MULTIQOS: test-compare.sh on one world
		echo "== $v, $1 world (gen-world.sh -q $2)"
		env top_srcdir=. top_builddir=. COMPARE_MULTIQOS="$2" \
			COMPARE_KEEP="$out/$1" sh tests/harness/test-compare.sh
	}
	world standard 0 || rc=1
	world multi-qos "${COMPARE_MULTIQOS:-10}" || rc=1
	if [ "$rc" = 0 ]; then
		echo "== $v: every set passed in both worlds"
	else
		echo "== $v: FAILED (reports in $out)"
	fi
	return "$rc"
}

if [ "${1:-}" = --inside ]; then
	[ $# -eq 2 ] || die "usage: $prog --inside TREE (inside the root)"
	inside "$2"
	exit
fi
[ $# -eq 0 ] || die "usage: $prog (no arguments; see the header)"

# ------------------------------------------------------------- host
[ "$(id -u)" -eq 0 ] || die "run as root (scripts/debian-root.sh needs it)"
top=$(cd "$(dirname "$0")/../.." && pwd)
rootsh=$top/scripts/debian-root.sh
suite=${PRISM_ROOT_SUITE:-trixie}
[ -x "$rootsh" ] || [ -f "$rootsh" ] || die "$rootsh is missing"
root=$(bash "$rootsh" "$suite" path)
[ -f "$root/.prism-root-ready" ] ||
	die "the $suite root $root is not ready: bash scripts/debian-root.sh $suite ensure"
command -v git >/dev/null || die "git is missing"

version=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' \
	slurmctld 2>/dev/null) || die "no slurmctld installed in $root"
upstream=${version#*:}
upstream=${upstream%-*}

# the Slurm tree, as a path inside the root, and what to bind for it
binds=()
if [ -n "${PRISM_SLURM_TREE:-}" ]; then
	[ -f "$PRISM_SLURM_TREE/config.h" ] ||
		die "PRISM_SLURM_TREE=$PRISM_SLURM_TREE is not a configured Slurm tree"
	binds=(--bind "$PRISM_SLURM_TREE:/build/slurm-source")
	tree=/build/slurm-source
elif [ -f "$root/var/cache/prism/slurm-source/$version/slurm-wlm-$upstream/.prism-configured" ]; then
	tree=/var/cache/prism/slurm-source/$version/slurm-wlm-$upstream
elif [ -f "/var/cache/prism/slurm-source/$version/slurm-wlm-$upstream/config.h" ]; then
	binds=(--bind "/var/cache/prism/slurm-source/$version/slurm-wlm-$upstream:/build/slurm-source")
	tree=/build/slurm-source
else
	die "no configured Slurm $version tree: set PRISM_SLURM_TREE, or make one in the root (copy the repository in, then: bash scripts/debian-root.sh $suite run --host-net -- COPY/scripts/slurm-source.sh)"
fi

# the copy: what git knows, as it is in the working tree
dest=$root/build/prism
case $dest in
*/build/prism) ;;
*) die "internal: unexpected copy destination $dest" ;;
esac
rm -rf --one-file-system "$dest"
mkdir -p "$dest"
(
	cd "$top"
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -f "$f" ] && printf '%s\0' "$f"
		done |
		tar --null -T - -cf -
) | tar -xf - -C "$dest"
log "copied $(find "$dest" -type f | wc -l) files of $top into $dest"

envs=()
for v in "${passed_env[@]}"; do
	[ -z "${!v:-}" ] || envs+=("$v=${!v}")
done
exec bash "$rootsh" "$suite" run ${binds[@]+"${binds[@]}"} -- \
	env ${envs[@]+"${envs[@]}"} \
	bash /build/prism/tests/harness/test-compare-root.sh --inside "$tree"
