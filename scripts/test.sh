#!/usr/bin/env bash
# test.sh: set everything up and run every test, each step as soon as
# what it needs is done (scripts/sched.sh schedules them by what they
# spend their time on: at most two CPU-bound steps at once, the
# real-cluster tests side by side in their own namespaces, downloads
# beside both):
#
#  - the machine's packages (scripts/setup.sh), the source tree of its
#    Slurm, Prism built against it; make install DESTDIR; make distcheck,
#    whose make check is the command's (unit tests, the source and symbol
#    checks, the prism command, the fake-controller harness against
#    Slurm's own multifactor, every file read from the tarball); the
#    fuzz targets (a fixed number of inputs each); the unit and harness
#    tests under ASan+UBSan and valgrind (tests/sanitize/run.sh);
#  - the real-cluster tests (tests/cluster/test-*.sh), each in its own
#    network and PID namespaces (tests/cluster/isolate.sh);
#  - the other supported Debian's Slurm in a cached Debian root
#    (scripts/root-suite.sh; Debian 13 with Slurm 24.11 on a Debian 12
#    host, Debian 12 with Slurm 22.05 on a Debian 13 host): Prism built
#    there, make check, the cluster tests of the drop-in and both policies;
#  - Prism's plugin built against every SchedMD release in
#    PRISM_SLURM_RELEASES (23.02 to 26.05; tests/build/test-release.sh);
#    25.11 and 26.05 built from source in a Debian 13 root, Prism built
#    there, its make check and the cluster tests of the drop-in and both
#    policies run against them (scripts/slurm-build.sh,
#    scripts/root-suite.sh slurm-VERSION);
#  - the Debian package for each of the two Slurm releases (lintian-clean),
#    each installed with apt-get into a clean root of its Debian release
#    and started there (tests/package/test-install.sh), and installed in
#    a root that boots with systemd, whose units are run by systemd
#    (tests/package/test-systemd.sh).
#
# Each step's output is printed whole when it ends; the last lines are a
# table of every step (start, wall time, CPU time, result), the chain of
# steps that decided the total, each failed step's last 40 lines, and
# "N passed, M failed".
#
# Usage: scripts/test.sh             (run as root)
#        scripts/test.sh --quick     build, make check and one cluster
#                                    test (test-foundation.sh): the
#                                    edit-and-test loop
# Env:   PRISM_SKIP_DISTCHECK=1      skip make distcheck (make check runs
#                                    in the work tree instead)
#        PRISM_SKIP_CLUSTER=1        skip the cluster tests
#        PRISM_SKIP_FUZZ=1           skip the libFuzzer targets (tests/fuzz)
#        PRISM_SKIP_SANITIZE=1       skip the ASan+UBSan and valgrind runs
#        PRISM_SKIP_ROOT=1           skip the other Slurm's suite (root)
#        PRISM_ROOT_SUITE=SUITE      the root's Debian suite (default: the
#                                    other one of bookworm and trixie)
#        PRISM_SKIP_PACKAGE=1        skip building and installing the
#                                    Debian packages
#        PRISM_SKIP_RELEASES=1       skip the builds against SchedMD's releases
#        PRISM_SLURM_RELEASES=DIR    their tarballs and SHA256SUMS (default
#                                    ../shared/slurm-releases)
#        PRISM_RELEASE_SUITES="V..." the releases built from source and
#                                    checked (default "25.11.7 26.05.3")
#        PRISM_TEST_CLUSTERS=N       cluster tests at once (default 12)
#        PRISM_TEST_CPU=N            CPU-bound steps at once (default 2)
#        PRISM_CCACHE_DIR=DIR        the compiler cache of the builds on
#                                    this machine (default
#                                    /var/cache/prism/ccache, and
#                                    DIR.roots in the Debian roots;
#                                    "none": no cache)
# The packages are left in ./packages/SUITE/.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=scripts/sched.sh source-path=SCRIPTDIR/..
. "$top/scripts/sched.sh"

quick=
case ${1:-} in
"") ;;
--quick) quick=1 ;;
*)
	echo "usage: $0 [--quick]" >&2
	exit 2
	;;
esac
[ "$(id -u)" -eq 0 ] || {
	echo "test.sh: run as root (it installs packages and starts daemons)" >&2
	exit 2
}

# The builds on this machine (Prism's, distcheck's, the sanitizers', the
# fuzz targets', the releases', the package's) compile through ccache
# (installed by setup.sh; Debian's compiler links in /usr/lib/ccache): a
# file compiled before with the same preprocessed text, compiler and flags
# is not compiled again. Absolute paths are hashed relative to the build
# directory (CCACHE_BASEDIR=/), and the directory itself not
# (CCACHE_NOHASHDIR: it is only in the debug information), so that a fresh
# clone elsewhere finds what the last one compiled. A compile that fails
# is not cached, and a cached one repeats its warnings (-Werror too). The
# builds inside the Debian roots (Debian 13's Slurm, the releases built
# from source) compile through the root's own ccache, with the cache
# DIR.roots (scripts/root-suite.sh).
if [ "${PRISM_CCACHE_DIR:-}" != none ]; then
	export CCACHE_DIR=${PRISM_CCACHE_DIR:-/var/cache/prism/ccache}
	export CCACHE_BASEDIR=/ CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=2G
	export PATH=/usr/lib/ccache:$PATH
fi

# configure, libtool and make's recipes run under dash where configure
# would choose bash: a build (autoreconf, configure, make) takes about a
# third less CPU, make check a tenth less (measured: 35 s against 52 s,
# 205 s against 231 s), and the command runs about 13 builds. The Debian
# packages are still built with configure's own choice (scripts/package.sh),
# so the build is proven under both shells.
if [ -z "${CONFIG_SHELL:-}" ] && [ -x /bin/dash ]; then
	export CONFIG_SHELL=/bin/dash
fi

sched_slots cpu "${PRISM_TEST_CPU:-2}"
sched_slots wait "${PRISM_TEST_CLUSTERS:-12}"

pkgdir=$top/packages
releases_dir=${PRISM_SLURM_RELEASES:-$top/../shared/slurm-releases}
# shellcheck disable=SC1091
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")

# The Debian suite whose Slurm the root suite tests: the other supported
# one (nothing on another system).
root_suite() {
	if [ -n "${PRISM_ROOT_SUITE:-}" ]; then
		echo "$PRISM_ROOT_SUITE"
		return
	fi
	case $host_suite in
	bookworm) echo trixie ;;
	trixie) echo bookworm ;;
	esac
}

make_check() {
	make check || { cat test-suite.log 2>/dev/null; return 1; }
}

# make install honours DESTDIR and puts the plugin in Slurm's plugin dir.
install_check() {
	local d plugindir rc=0
	d=$(mktemp -d)
	plugindir=$(sed -n 's/^slurmplugindir = //p' Makefile)
	make install DESTDIR="$d" >/dev/null || rc=1
	if [ "$rc" -eq 0 ] && [ -f "$d$plugindir/priority_prism.so" ]; then
		echo "PASS: make install DESTDIR=$d put priority_prism.so in $plugindir"
	else
		echo "FAIL: priority_prism.so not installed under $d$plugindir"
		rc=1
	fi
	rm -rf "$d"
	return "$rc"
}

# make distcheck: the release tarball builds, passes make check, installs
# and uninstalls cleanly. Its make check is the test command's make check:
# every test, on the full worlds, with every file it reads from the
# tarball (the work tree's own make check ran the same tests on the same
# sources a second time; --quick and PRISM_SKIP_DISTCHECK=1 run that one)
distcheck() {
	local rc=0 log
	make distcheck || rc=$?
	if [ "$rc" -ne 0 ]; then
		# (make distcheck leaves its tree behind when a test fails)
		for log in prism-*/_build/sub/test-suite.log; do
			[ -f "$log" ] && cat "$log"
		done
	fi
	return "$rc"
}

host_cluster() { # host_cluster TEST.sh: in its own namespaces
	tests/cluster/isolate.sh env PRISM_PLUGIN_DIR="$top/src/plugin/.libs" \
		bash "tests/cluster/$1"
}

host_package() {
	rm -rf "${pkgdir:?}/$host_suite"
	env DEB_BUILD_OPTIONS=nocheck scripts/package.sh "$pkgdir/$host_suite"
}

root_package() { # root_package SUITE
	rm -rf "${pkgdir:?}/$1"
	scripts/root-suite.sh "$1" package "$pkgdir/$1"
}

# systemd_test SUITE: SUITE's package on a SUITE machine that boots with
# systemd, its units run by systemd
systemd_test() {
	local deb
	deb=$(find "$pkgdir/$1" -name 'prism-slurm_*.deb' 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { echo "no package in $pkgdir/$1"; return 1; }
	tests/package/test-systemd.sh "$1" "$deb"
}

# install_test SUITE OTHER: SUITE's package on a clean SUITE machine, the
# OTHER suite's package refused there
install_test() {
	local deb other
	deb=$(find "$pkgdir/$1" -name 'prism-slurm_*.deb' 2>/dev/null | head -n 1)
	other=$(find "$pkgdir/$2" -name 'prism-slurm_*.deb' 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { echo "no package in $pkgdir/$1"; return 1; }
	tests/package/test-install.sh "$1" "$deb" ${other:+"$other"}
}

fuzz() {
	env PRISM_FUZZ_SEED="${PRISM_FUZZ_SEED:-1121}" tests/fuzz/run.sh runs
}

# The cluster tests mostly wait for recalculation passes; test-load.sh
# keeps the CPUs busy (5,000 sbatch processes, then 15,000 jobs through
# the API): it counts as a CPU-bound step.
cluster_class() {
	case $1 in
	test-load.sh) echo cpu ;;
	*) echo wait ;;
	esac
}

# about how long each cluster test takes alone (seconds; the scheduler
# starts the longest chains first)
cluster_est() {
	case $1 in
	test-multifactor.sh) echo 750 ;;
	test-crash-classic.sh | test-ge.sh) echo 440 ;;
	test-crash.sh) echo 400 ;;
	test-moab.sh) echo 320 ;;
	test-dbd.sh) echo 570 ;;
	test-takeover.sh) echo 480 ;;
	test-metrics.sh) echo 760 ;;
	test-diskfull.sh) echo 560 ;;
	test-load.sh) echo 300 ;;
	*) echo 140 ;;
	esac
}

# ---------------------------------------------------------------- the steps
# NAME CLASS NEEDS SECONDS CMD: SECONDS, about how long the step takes
# alone on a quiet 2-core machine (fresh where it downloads), orders the
# steps that are ready (scripts/sched.sh).

host_tests=(test-multifactor.sh test-crash-classic.sh test-ge.sh
	test-crash.sh test-moab.sh test-load.sh test-foundation.sh)
# on Debian 13's Slurm and on the releases built from source, the same:
# the drop-in and both policies; a backup controller's takeover (where
# slurmctld's handover changes most: from 25.11 a backup refuses to take
# over without slurmctld's usage file), a full StateSaveLocation, slurmdbd
# down; `prism metrics` scraped by a real Prometheus (Slurm 24.11's
# library is not 22.05's: it crashed at a second open). Each is 5 to 40 s
# of CPU, the rest waiting for passes.
root_tests=(test-multifactor.sh test-ge.sh test-moab.sh test-foundation.sh
	test-takeover.sh test-diskfull.sh test-dbd.sh test-metrics.sh)
release_tests=("${root_tests[@]}")
# every host cluster test is in the list (a new one is not left out)
for t in tests/cluster/test-*.sh; do
	case " ${host_tests[*]} " in
	*" ${t##*/} "*) ;;
	*) host_tests+=("${t##*/}") ;;
	esac
done

S=scripts/setup.sh
sched_step "packages for the Debian roots" io "" 30 $S --tools
# after the tools: two apt-get at once would wait on each other's locks
sched_step "packages" io "packages for the Debian roots" 90 $S --packages
sched_step "Slurm source tree" cpu "packages" 90 scripts/slurm-source.sh
sched_step "build" cpu "Slurm source tree" 40 $S
# (the whole command's make check is make distcheck's, below)
if [ -n "$quick" ] || [ -n "${PRISM_SKIP_DISTCHECK:-}" ]; then
	sched_step "make check" cpu "build" 130 make_check
fi

if [ -n "$quick" ]; then
	[ -n "${PRISM_SKIP_CLUSTER:-}" ] ||
		sched_step "cluster: test-foundation.sh" wait "build" 140 \
			host_cluster test-foundation.sh
	sched_run
	exit
fi

suite=$(root_suite)
if [ -z "${PRISM_SKIP_ROOT:-}" ] && [ -n "$suite" ]; then
	rs=(scripts/root-suite.sh "$suite")
	sched_step "$suite root" io "packages for the Debian roots" 190 \
		scripts/debian-root.sh "$suite" ensure
	sched_step "$suite root: build against its Slurm" cpu "$suite root" \
		250 "${rs[@]}" build
	if [ -z "${PRISM_SKIP_CLUSTER:-}" ]; then
		for t in "${root_tests[@]}"; do
			sched_step "$suite root: cluster: $t" wait \
				"$suite root: build against its Slurm" "$(cluster_est "$t")" \
				"${rs[@]}" cluster "$t"
		done
	fi
fi
# SchedMD's current releases as a site builds them: Slurm from the release
# tarball in an overlay of the Debian 13 root (scripts/slurm-build.sh,
# cached: about 13 minutes of CPU each the first time), Prism built
# against it, make check there (the harness against that release's own
# multifactor under every flag set, multi-QOS jobs too, Slurm's own
# multifactor test programs where the release has them, the command), and
# the cluster tests of the drop-in and both policies against its daemons
release_suites=()
if [ -z "${PRISM_SKIP_ROOT:-}" ] && [ -z "${PRISM_SKIP_RELEASES:-}" ]; then
	for r in ${PRISM_RELEASE_SUITES-25.11.7 26.05.3}; do
		if [ -f "$releases_dir/slurm-$r.tar.gz" ]; then
			release_suites+=("$r")
		else
			# a suite asked for and not run is a failed step, not a
			# silent gap
			sched_step "Slurm $r built from source" slurm "" 1 \
				sh -c 'echo "FAIL: no $1 in $2: set PRISM_SLURM_RELEASES to the directory of the release tarballs (or PRISM_RELEASE_SUITES to the releases to check)"; exit 1' \
				sh "slurm-$r.tar.gz" "$releases_dir"
		fi
	done
fi
for r in ${release_suites[@]+"${release_suites[@]}"}; do
	# (it makes the Debian 13 root itself where no step does)
	sched_step "Slurm $r built from source" slurm \
		"packages for the Debian roots${suite:+|$suite root}" 800 \
		scripts/slurm-build.sh "$r" ensure
	sched_step "slurm-$r: build against it" cpu "Slurm $r built from source" \
		60 scripts/root-suite.sh "slurm-$r" build
	sched_step "slurm-$r: make check" cpu "slurm-$r: build against it" \
		220 scripts/root-suite.sh "slurm-$r" check
	if [ -z "${PRISM_SKIP_CLUSTER:-}" ]; then
		for t in "${release_tests[@]}"; do
			sched_step "slurm-$r: cluster: $t" wait \
				"slurm-$r: build against it" "$(cluster_est "$t")" \
				scripts/root-suite.sh "slurm-$r" cluster "$t"
		done
	fi
done
if [ -z "${PRISM_SKIP_CLUSTER:-}" ]; then
	for t in "${host_tests[@]}"; do
		sched_step "cluster: $t" "$(cluster_class "$t")" "build" \
			"$(cluster_est "$t")" host_cluster "$t"
	done
fi
if [ -n "$suite" ] && [ -z "${PRISM_SKIP_ROOT:-}" ]; then
	sched_step "$suite root: make check" cpu \
		"$suite root: build against its Slurm" 200 "${rs[@]}" check
fi
# the two halves of tests/sanitize/run.sh (own build trees and logs) as
# two steps, so that they can run on both cores
if [ -z "${PRISM_SKIP_SANITIZE:-}" ]; then
	sched_step "unit and harness tests under ASan+UBSan" cpu \
		"Slurm source tree" 320 env PRISM_SAN_ONLY=asan tests/sanitize/run.sh
	sched_step "unit and harness tests under valgrind" cpu \
		"Slurm source tree" 350 env PRISM_SAN_ONLY=valgrind tests/sanitize/run.sh
fi
[ -n "${PRISM_SKIP_FUZZ:-}" ] ||
	sched_step "fuzz the parsers (fixed inputs per target)" cpu "packages" 120 fuzz
# every SchedMD release beside Debian's (PRISM_SLURM_RELEASES): the plugin
# builds against each and exports what its loader asks for
releases=()
if [ -f "$releases_dir/SHA256SUMS" ]; then
	mapfile -t releases < <(sed -n 's/^[0-9a-f]*  *\*\{0,1\}slurm-\([0-9.]*\)\.tar\.gz$/\1/p' \
		"$releases_dir/SHA256SUMS")
fi
# (a release built from source above is left out: its suite builds the
# plugin, the harness and the command against it, and make check there
# checks the symbols its loader asks for)
build_releases() {
	local r todo=()
	if [ ${#releases[@]} -eq 0 ]; then
		echo "FAIL: no Slurm release tarballs in $releases_dir (SHA256SUMS): set PRISM_SLURM_RELEASES"
		return 1
	fi
	for r in "${releases[@]}"; do
		case " ${release_suites[*]-} " in
		*" $r "*) echo "Slurm $r: built and checked in its own suite (slurm-$r steps)" ;;
		*) todo+=("$r") ;;
		esac
	done
	[ ${#todo[@]} -eq 0 ] || tests/build/test-release.sh "${todo[@]}"
}
[ -n "${PRISM_SKIP_RELEASES:-}" ] ||
	sched_step "build against Slurm ${releases[0]:-?} to ${releases[-1]:-?}" cpu "build" \
		360 build_releases
# make install and make distcheck need the build only: make distcheck
# builds and checks the tarball in its own directory, and make install's
# "all" finds everything built
sched_step "make install DESTDIR" cpu "build" 10 install_check
[ -n "${PRISM_SKIP_DISTCHECK:-}" ] ||
	sched_step "make distcheck (its make check: every test)" cpu "build" \
		330 distcheck
if [ -z "${PRISM_SKIP_PACKAGE:-}" ]; then
	sched_step "Debian package for this machine's Slurm" cpu \
		"Slurm source tree" 150 host_package
	sched_step "$host_suite-clean root" io "packages for the Debian roots" \
		100 scripts/debian-root.sh "$host_suite-clean" ensure
	if [ -n "$suite" ] && [ -z "${PRISM_SKIP_ROOT:-}" ]; then
		sched_step "$suite root: Debian package for its Slurm" cpu \
			"$suite root: make check" 150 root_package "$suite"
		sched_step "$suite-clean root" io "packages for the Debian roots" \
			100 scripts/debian-root.sh "$suite-clean" ensure
		sched_step "package installed in a clean $suite root" io \
			"$suite root: Debian package for its Slurm|$suite-clean root|Debian package for this machine's Slurm" \
			120 install_test "$suite" "$host_suite"
		sched_step "package's units under systemd in a $suite root" io \
			"$suite root: Debian package for its Slurm|$suite-clean root" \
			150 systemd_test "$suite"
	fi
	sched_step "package installed in a clean $host_suite root" io \
		"Debian package for this machine's Slurm|$host_suite-clean root|${suite:+$suite root: Debian package for its Slurm}" \
		120 install_test "$host_suite" "${suite:-none}"
	sched_step "package's units under systemd in a $host_suite root" io \
		"Debian package for this machine's Slurm|$host_suite-clean root" \
		150 systemd_test "$host_suite"
fi
sched_run
