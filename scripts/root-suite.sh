#!/usr/bin/env bash
# root-suite.sh: Prism's tests against another Debian's Slurm, in a cached
# Debian root (scripts/debian-root.sh): on Debian 12 (Slurm 22.05) the
# Debian 13 root has Slurm 24.11.
#
# Usage: scripts/root-suite.sh SUITE build          (run as root)
#        scripts/root-suite.sh SUITE check
#        scripts/root-suite.sh SUITE cluster TEST.sh
#        scripts/root-suite.sh SUITE package OUTDIR
#        scripts/root-suite.sh SUITE bench
#        scripts/root-suite.sh SUITE valgrind
#        scripts/root-suite.sh SUITE suite          the three, in order
#
# build    make the root (cached), copy the repository's files (git
#          ls-files) into it afresh (the host's own build stays out), fetch
#          and configure the Slurm source tree of the root's slurmctld
#          (cached in the root; the only step with the host's network),
#          then autoreconf, configure and make Prism there
# check    make check there (unit tests, the CLI, the symbol and layer
#          checks, the fake controller against that Slurm's multifactor),
#          from Slurm 24.11 on its comparison on a world with multi-QOS jobs;
#          for a release, the tests that no Slurm reaches are left to the
#          Debian root's make check (check_tests)
# cluster  one tests/cluster/TEST.sh against that Slurm's daemons, in the
#          root's own network namespace
# package  the Debian package for that Slurm (scripts/package.sh, without
#          make check: check ran it), copied to OUTDIR on the host; the last
#          line printed is its path
# bench    tests/bench/run.sh there, after build: Prism against that
#          Slurm's own priority/multifactor; BENCH_SIZES, BENCH_ALGOS,
#          BENCH_REPEAT, BENCH_SEED and BENCH_TIMEOUT are passed through,
#          the table is printed, and worlds and reports stay in the root's
#          /build/bench until the next bench (not a test: see
#          tests/bench/README)
# valgrind tests/bench/cpu-valgrind.sh there, after build: instructions
#          and cache misses of a steady pass, or of sprio's call
#          (BENCH_MEASURE=sprio), against that Slurm's multifactor;
#          BENCH_SIZES, BENCH_ALGOS, BENCH_SEED, BENCH_TIMEOUT, BENCH_LL
#          and BENCH_MEASURE are passed through; files stay in the root's
#          /build/bench-valgrind until the next such run
#
# SUITE slurm-VERSION (e.g. slurm-25.11.7): SchedMD's release VERSION
#          built from its tarball in an overlay of the Debian 13 root
#          (scripts/slurm-build.sh, cached), Debian's Slurm purged there:
#          build, check and cluster run against that slurmctld, as a
#          site that builds Slurm itself has it; the copy of the repository
#          lives on the host (PRISM_SLURM_BUILD_CACHE/VERSION/suite) and
#          is bound at /build/release. No package (Debian's releases only).
#
# Env:   PRISM_ROOT_CACHE  (debian-root.sh) where the roots are kept
#        PRISM_SLURM_BUILD_CACHE, PRISM_SLURM_RELEASES  (slurm-build.sh)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root_sh=$top/scripts/debian-root.sh
log() { printf 'root-suite: %s\n' "$*" >&2; }
die() { printf 'root-suite: error: %s\n' "$*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: $0 SUITE build|check|cluster TEST.sh|package OUTDIR|bench|valgrind|suite"
suite=$1
what=$2
shift 2
src=/build/suite		# the copy, inside the root
release=
case $suite in
slurm-[0-9]*)
	release=${suite#slurm-}
	build_sh=$top/scripts/slurm-build.sh
	src=/build/release
	# the copy, on the host, bound at $src
	host_src=${PRISM_SLURM_BUILD_CACHE:-/var/cache/prism/slurm-build}/$release/suite
	;;
esac

# root_run [RUN-OPTIONS] -- CMD: CMD in the root; for a release, in a
# throwaway overlay over the release's build (--lower: read-only, so the
# steps of one release run side by side and leave the cache as it is)
root_run() {
	local ov rc=0 layer
	if [ -z "$release" ]; then
		"$root_sh" "$suite" run "$@"
		return
	fi
	layer=$("$build_sh" "$release" path)/upper || return 1
	ov=$(mktemp -d "${host_src%/suite}/run.XXXXXX")
	"$root_sh" trixie run --lower "$layer" --overlay "$ov" \
		--bind "$host_src:$src" "$@" || rc=$?
	rm -rf "$ov"
	return "$rc"
}

# The builds in the root (Prism's, its make check's programs, the
# package's) compile through ccache, installed there by debian-root.sh's
# later packages, with a cache on the host bound in the root: the one the
# host's builds use (PRISM_CCACHE_DIR, scripts/test.sh) with ".roots" added
# (the roots' compilers are not the host's); PRISM_CCACHE_DIR=none: none.
# A root without ccache compiles as before.
ccache_host=
if [ "${PRISM_CCACHE_DIR:-}" != none ]; then
	ccache_host=${PRISM_CCACHE_DIR:-/var/cache/prism/ccache}.roots
fi

# run_in [--host-net] -- CMD: CMD in the root, in the copy
run_in() {
	local net=() cc=() env=
	if [ "${1:-}" = --host-net ]; then
		net=(--host-net)
		shift
	fi
	if [ -n "$ccache_host" ]; then
		mkdir -p "$ccache_host"
		cc=(--bind "$ccache_host:/var/cache/prism-ccache")
		env='export CCACHE_DIR=/var/cache/prism-ccache CCACHE_BASEDIR=/ CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=2G PATH=/usr/lib/ccache:$PATH; '
	fi
	# the shell configure is to run under (scripts/test.sh), where the
	# root has it
	case ${CONFIG_SHELL:-} in
	/*) env+=$(printf 'if [ -x %q ]; then export CONFIG_SHELL=%q; fi; ' \
		"$CONFIG_SHELL" "$CONFIG_SHELL") ;;
	esac
	root_run "${net[@]}" "${cc[@]}" -- bash -c "$env""cd $src && $*"
}

# the directory, on the host, that is $src in the root
src_on_host() {
	if [ -n "$release" ]; then
		echo "$host_src"
	else
		echo "$("$root_sh" "$suite" path)$src"
	fi
}

copy() {
	local dir
	dir=$(src_on_host)
	git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
		die "$top is not a git checkout: cannot tell its files from the host's build"
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) |
		tar -xf - -C "$dir"
	log "copied $(git -C "$top" ls-files | wc -l) files into $dir"
}

build() {
	local tree
	if [ -n "$release" ]; then
		"$build_sh" "$release" ensure >/dev/null
		copy
		# the tree the release was built from, in the overlay
		tree=/usr/src/slurm-$release
	else
		"$root_sh" "$suite" ensure
		copy
		# the tree of the root's slurmctld, cached in the root
		run_in --host-net 'scripts/slurm-source.sh >/tmp/slurm-source.log 2>&1 ||
			{ cat /tmp/slurm-source.log; exit 1; }; tail -n 1 /tmp/slurm-source.log' |
			tail -n 1 >"$("$root_sh" "$suite" path)/build/slurm-tree"
		tree=$(cat "$("$root_sh" "$suite" path)/build/slurm-tree")
	fi
	[ -n "$tree" ] || die "no Slurm source tree in the root"
	log "Slurm tree in the root: $tree"
	run_in "autoreconf -fi >/tmp/autoreconf.log 2>&1 ||
		{ cat /tmp/autoreconf.log; exit 1; }
		./configure --with-slurm-source=$tree >/tmp/configure.log 2>&1 ||
		{ tail -n 30 /tmp/configure.log; exit 1; }
		make -j2 >/tmp/make.log 2>&1 || { tail -n 40 /tmp/make.log; exit 1; }
		echo \"built against Slurm \$(sed -n 's/^#define SLURM_VERSION_STRING \"\\(.*\\)\"\$/\\1/p' $tree/config.h)\""
}

# the tests make check runs: every test, but for a release the ones that
# no Slurm reaches (the core's unit tests, the pages, the layers, the core's
# headers) and configure's refusals of fake trees (configure.ac's logic):
# they run in the Debian root's make check, built by the same compiler
check_tests() {
	[ -n "$release" ] || return 0
	# (a rule file, not make's standard input: GNU make 4.3 leaves its
	# copy of that in /tmp when it re-executes)
	printf 'TESTS=%s' "$(run_in 'mk=$(mktemp) &&
		printf "print-tests:\n\t@echo \$(TESTS)\n" >"$mk" &&
		make -s -f Makefile -f "$mk" print-tests; rc=$?; rm -f "$mk"; exit $rc' | tr ' ' '\n' |
		grep -vE '(^|/)(test_core|check-(man|layers|core-headers|configure)\.sh)$' |
		tr '\n' ' ')"
}

check() {
	local tests mq=
	tests=$(check_tests) || die "cannot list the tests"
	# From Slurm 24.11 on (sbatch --qos=a,b) the comparison with that
	# release's multifactor runs on a world where 10% of the jobs ask for
	# several QOS: the other 90% are the jobs of the standard world, so
	# one comparison covers both (the host's 22.05 compares the standard
	# world)
	if root_run -- slurmctld -V | grep -q ' 2[4-9]\.'; then
		mq=COMPARE_MULTIQOS=10
		log "make check compares the plugins on a world with multi-QOS jobs"
	fi
	run_in "env $mq make check ${tests:+\"$tests\"}"' >/tmp/check.log 2>&1; rc=$?
		grep -E "^(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS):|^# " /tmp/check.log
		grep -h -E "^(PASS|FAIL): .*multi-QOS" tests/harness/test-compare.sh.log
		[ $rc -eq 0 ] || tail -n 80 test-suite.log 2>/dev/null ||
			tail -n 40 /tmp/check.log
		exit $rc'
}

cluster() {
	local t=${1:?cluster needs a test name}
	[ -f "$top/tests/cluster/$t" ] || die "no tests/cluster/$t"
	run_in "PRISM_PLUGIN_DIR=$src/src/plugin/.libs bash tests/cluster/$t"
}

package() {
	local out=${1:?package needs an output directory} dir deb
	[ -z "$release" ] ||
		die "no package for $suite: the packages are for Debian's Slurm releases"
	dir=$("$root_sh" "$suite" path)
	rm -rf "$dir/build/packages"
	run_in "env DEB_BUILD_OPTIONS=nocheck scripts/package.sh \
		--tree \$(cat /build/slurm-tree) /build/packages"
	deb=$(find "$dir/build/packages" -name 'prism-slurm_*.deb' | head -n 1)
	[ -n "$deb" ] || die "no package was built in the root"
	mkdir -p "$out"
	cp "$deb" "$out/"
	printf '%s\n' "$out/$(basename "$deb")"
}

# bench SCRIPT DIR VAR...: tests/bench/SCRIPT in the root, the variables
# VAR passed through when set, its files kept in DIR (emptied first)
bench() {
	local script=$1 dir=$2 envs=() v
	shift 2
	for v in "$@"; do
		if [ -n "${!v:-}" ]; then
			envs+=("$(printf '%s=%q' "$v" "${!v}")")
		fi
	done
	run_in "rm -rf $dir && env ${envs[*]} BENCH_KEEP=$dir \
		sh tests/bench/$script"
}

case $what in
build) build ;;
bench) bench run.sh /build/bench BENCH_SIZES BENCH_ALGOS BENCH_REPEAT \
	BENCH_SEED BENCH_TIMEOUT ;;
valgrind) bench cpu-valgrind.sh /build/bench-valgrind BENCH_SIZES \
	BENCH_ALGOS BENCH_SEED BENCH_TIMEOUT BENCH_LL BENCH_MEASURE ;;
package) package "$@" ;;
check) check ;;
cluster) cluster "$@" ;;
suite)
	build
	check
	for t in test-foundation.sh test-multifactor.sh test-moab.sh \
		test-ge.sh; do
		cluster "$t"
	done
	;;
*) die "unknown step '$what'" ;;
esac
