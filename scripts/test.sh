#!/usr/bin/env bash
# test.sh: set everything up (scripts/setup.sh) and run every test:
# unit tests and checks (make check, which includes the fake-controller
# harness), the fuzz targets, the unit and harness tests again under
# ASan+UBSan and valgrind (tests/sanitize/run.sh), make distcheck, the
# real-cluster tests; then the same build, make check and the cluster
# tests of the drop-in and both policies against the other supported
# Slurm, in a cached Debian root (scripts/root-suite.sh): Slurm 24.11 in
# Debian 13 on a Debian 12 host, Slurm 22.05 in Debian 12 on a Debian 13
# host (the root's cluster tests run beside the host's, whose output
# comes first). Then the Debian packages for both Slurm releases
# (scripts/package.sh; lintian-clean), each installed with apt-get into a
# clean root of its Debian release and checked there
# (tests/package/test-install.sh). Each step prints how long it took.
#
# Usage: scripts/test.sh             (run as root)
# Env:   PRISM_SKIP_DISTCHECK=1      skip make distcheck
#        PRISM_SKIP_CLUSTER=1        skip the cluster tests
#        PRISM_SKIP_FUZZ=1           skip the libFuzzer targets (tests/fuzz)
#        PRISM_SKIP_SANITIZE=1       skip the ASan+UBSan and valgrind runs
#                                    of the unit and harness tests
#                                    (tests/sanitize)
#        PRISM_SKIP_ROOT=1           skip the other Slurm's suite (root)
#        PRISM_ROOT_SUITE=SUITE      the root's Debian suite (default: the
#                                    other one of bookworm and trixie)
#        PRISM_SKIP_PACKAGE=1        skip building and installing the
#                                    Debian packages
# The packages are left in ./packages.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

passed=0
failed=0
failures=()

step() {
	local name=$1 t0=$SECONDS
	shift
	printf '\n=== %s ===\n' "$name"
	if "$@"; then
		printf '=== %s: ok (%d s) ===\n' "$name" $((SECONDS - t0))
		passed=$((passed + 1))
	else
		printf '=== %s: FAILED (%d s) ===\n' "$name" $((SECONDS - t0))
		failed=$((failed + 1))
		failures+=("$name")
	fi
}

# The Debian suite whose Slurm the root suite tests: the other supported
# one (nothing on another system).
root_suite() {
	local host
	if [ -n "${PRISM_ROOT_SUITE:-}" ]; then
		echo "$PRISM_ROOT_SUITE"
		return
	fi
	# shellcheck disable=SC1091
	host=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	case $host in
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

step "setup (install, Slurm source, build)" scripts/setup.sh || true
if [ "$failed" -ne 0 ]; then
	echo "setup failed; nothing else can run"
	echo "0 passed, 1 failed"
	exit 1
fi
step "make check" make_check
step "make install DESTDIR" install_check
if [ -z "${PRISM_SKIP_SANITIZE:-}" ]; then
	step "unit and harness tests under ASan+UBSan and valgrind" \
		tests/sanitize/run.sh
fi
if [ -z "${PRISM_SKIP_DISTCHECK:-}" ]; then
	step "make distcheck" make distcheck
fi
# the Debian package for the host's Slurm (make check ran above)
pkgdir=$top/packages
host_deb=
if [ -z "${PRISM_SKIP_PACKAGE:-}" ]; then
	rm -f "$pkgdir"/prism-slurm_*.deb
	step "Debian package for this machine's Slurm (dpkg-buildpackage, lintian)" \
		env DEB_BUILD_OPTIONS=nocheck scripts/package.sh "$pkgdir"
	host_deb=$(find "$pkgdir" -name 'prism-slurm_*.deb' 2>/dev/null | head -n 1)
fi
suite=$(root_suite)
root_deb=
root_cluster=
if [ -z "${PRISM_SKIP_ROOT:-}" ] && [ -n "$suite" ]; then
	rs=(scripts/root-suite.sh "$suite")
	if step "$suite root: build against its Slurm" "${rs[@]}" build; then
		step "$suite root: make check" "${rs[@]}" check
		if [ -z "${PRISM_SKIP_PACKAGE:-}" ] &&
			step "$suite root: Debian package for its Slurm" \
				"${rs[@]}" package "$pkgdir/$suite"; then
			root_deb=$(find "$pkgdir/$suite" -name 'prism-slurm_*.deb' | head -n 1)
			mv "$root_deb" "$pkgdir/" && rmdir "$pkgdir/$suite"
			root_deb=$pkgdir/$(basename "$root_deb")
		fi
		[ -n "${PRISM_SKIP_CLUSTER:-}" ] || root_cluster=1
	fi
fi
# The cluster tests mostly wait for recalculation passes (test-foundation:
# 23 s of CPU in 140 s): the root's run in the background, in the root's
# own network and PID namespaces, beside the host's on loopback. Run as a
# background job (a subshell), this counts its own steps and writes the
# counts and failures to $root_res; its output is printed after the
# host's cluster tests and its results are counted with theirs.
root_cluster_tests() {
	local t f
	passed=0 failed=0 failures=()
	for t in test-foundation.sh test-multifactor.sh \
		test-moab.sh test-ge.sh; do
		step "$suite root: cluster: $t (beside the host's)" \
			"${rs[@]}" cluster "$t"
	done
	{
		echo "$passed $failed"
		for f in "${failures[@]}"; do
			echo "$f"
		done
	} >"$root_res"
}
root_pid=
root_log=
root_res=
if [ -n "$root_cluster" ]; then
	root_log=$(mktemp)
	root_res=$(mktemp)
	root_cluster_tests >"$root_log" 2>&1 &
	root_pid=$!
fi
# The fuzz targets (one core, about 5 minutes) run beside the first
# cluster test, which mostly waits for recalculation passes, and are
# waited for after it. A fixed seed: the same inputs every run (the long
# run, tests/fuzz/README, draws new ones).
fuzz_pid=
fuzz_log=
if [ -z "${PRISM_SKIP_FUZZ:-}" ]; then
	fuzz_log=$(mktemp)
	env PRISM_FUZZ_SEED="${PRISM_FUZZ_SEED:-1121}" tests/fuzz/run.sh 30 \
		>"$fuzz_log" 2>&1 &
	fuzz_pid=$!
fi
fuzz_wait() {
	local rc=0
	wait "$fuzz_pid" || rc=$?
	cat "$fuzz_log"
	rm -f "$fuzz_log"
	return "$rc"
}
fuzz_step() {
	[ -n "$fuzz_pid" ] || return 0
	step "fuzz the parsers (30 s per target, beside the first cluster test)" \
		fuzz_wait
	fuzz_pid=
}
if [ -z "${PRISM_SKIP_CLUSTER:-}" ]; then
	for t in tests/cluster/test-*.sh; do
		step "cluster: $(basename "$t")" env \
			PRISM_PLUGIN_DIR="$top/src/plugin/.libs" bash "$t"
		fuzz_step
	done
fi
fuzz_step
if [ -n "$root_pid" ]; then
	wait "$root_pid"
	cat "$root_log"
	if read -r p f <"$root_res" 2>/dev/null; then
		passed=$((passed + p))
		failed=$((failed + f))
		while IFS= read -r line; do
			failures+=("$line")
		done < <(tail -n +2 "$root_res")
	else
		printf '=== %s root: cluster tests: FAILED (no results) ===\n' "$suite"
		failed=$((failed + 1))
		failures+=("$suite root: cluster tests (no results)")
	fi
	rm -f "$root_log" "$root_res"
fi
# each package installed on a clean machine of its release, the other
# one refused there
if [ -n "$host_deb" ]; then
	# shellcheck disable=SC1091
	host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	step "package installed in a clean $host_suite root" \
		tests/package/test-install.sh "$host_suite" "$host_deb" \
		${root_deb:+"$root_deb"}
fi
if [ -n "$root_deb" ]; then
	step "package installed in a clean $suite root" \
		tests/package/test-install.sh "$suite" "$root_deb" \
		${host_deb:+"$host_deb"}
fi
printf '\ntotal: %d s\n' "$SECONDS"

echo
for f in "${failures[@]}"; do
	echo "failed: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
