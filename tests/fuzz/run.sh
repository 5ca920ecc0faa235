#!/bin/sh
# run.sh - build Prism's libFuzzer targets and run each for a while.
#
#   tests/fuzz/run.sh [SECONDS]        (default 30 s per target)
#   tests/fuzz/run.sh runs             (each target its fixed number of
#                                       inputs: the test command's run)
#
# Builds tests/fuzz/fuzz_*.c with clang and ASan+UBSan, together with the
# src/core files each needs, into $PRISM_FUZZ_BUILD (default
# tests/fuzz/build, gitignored), then runs every target for SECONDS on a
# copy of its seed corpus (tests/fuzz/corpus/<target>/) with its
# dictionary (or, with "runs", for the number of inputs runs_for() gives
# it, whatever the machine's speed), after replaying the reproducers
# tests/fuzz/crashes/<target>-* (crashes found before: a target fails at
# once while one still crashes).
# Prints one PASS/FAIL line per target and "N passed, M failed"; exits 1
# if any target found a crash, a leak or undefined behaviour (the
# reproducer is copied to $build/crashes/ and its path printed: move it
# to tests/fuzz/crashes/<target>-WHAT to keep it), 2 if it could not
# build.
#
# Environment:
#   PRISM_FUZZ_BUILD    build and work directory
#   PRISM_FUZZ_TARGETS  targets to run (default: all), e.g. "state params"
#   PRISM_FUZZ_JOBS     run targets N at a time (default 1)
#   PRISM_FUZZ_SEED     libFuzzer's random seed (default: a new one each
#                       run); the test command fixes it and runs "runs",
#                       so that its short run explores the same inputs
#                       every time and a CI run fails only for a change,
#                       never for luck (a time box alone did not: under
#                       load a target ran 10 times fewer inputs)
#   PRISM_FUZZ_CFLAGS   extra compiler flags, e.g. -DPRISM_FUZZ_SKIP_KNOWN
#                       (step around crashes already in crashes/)
#   CC                  a clang with libFuzzer (default clang)
#
# clang and libclang-rt-dev are installed with apt-get when missing
# (root only; Debian's archive is the only thing read from the network).

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-30}
build=${PRISM_FUZZ_BUILD:-$here/build}
targets=${PRISM_FUZZ_TARGETS:-"params moab_conf state moab_usage ge_conf ge_usage saved_policy usnap"}
jobs=${PRISM_FUZZ_JOBS:-1}
cc=${CC:-clang}
case $cc in *clang*) ;; *) cc=clang ;; esac

case $secs in
runs) ;;
''|*[!0-9]*) echo "usage: $0 [SECONDS | runs]" >&2; exit 2 ;;
esac

# runs_for TARGET: the inputs the "runs" mode gives TARGET, about 10 s of
# one quiet core each (seed 1121): near what the 30 s box gave each under
# the test command's load, where the CPUs are shared
runs_for() {
	case $1 in
	params) echo 2000000 ;;
	moab_conf) echo 50000 ;;
	state) echo 100000 ;;
	moab_usage) echo 400000 ;;
	ge_conf) echo 75000 ;;
	ge_usage) echo 350000 ;;
	saved_policy) echo 60000 ;;
	usnap) echo 600000 ;;
	*) return 1 ;;
	esac
}

# The core's folders: common/ and the policies on it (headers by bare name).
c=$top/src/core/common
moab=$top/src/core/moab
ge=$top/src/core/gridengine
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$c -I$moab -I$ge ${PRISM_FUZZ_CFLAGS:-}"

# The src/core files each target is built with.
sources() {
	case $1 in
	params) echo "$c/prism_params.c $c/prism_format.c $c/prism_error.c" ;;
	state) echo "$c/prism_state.c $c/prism_format.c $c/prism_error.c" ;;
	saved_policy) echo "$c/prism_saved_policy.c $c/prism_format.c $c/prism_error.c" ;;
	usnap) echo "$c/prism_usnap.c $c/prism_state.c $c/prism_format.c $c/prism_error.c" ;;
	moab_conf|moab_usage)
		echo "$moab/prism_moab_conf.c $moab/prism_moab.c $c/prism_idmap.c" \
		     "$c/prism_lines.c $c/prism_names.c" \
		     "$c/prism_buf.c $c/prism_sumtext.c" \
		     "$c/prism_state.c $c/prism_format.c $c/prism_error.c" ;;
	ge_conf)
		echo "$ge/prism_ge_conf.c $ge/prism_ge.c" \
		     "$c/prism_lines.c $c/prism_names.c $c/prism_buf.c" \
		     "$c/prism_state.c $c/prism_format.c $c/prism_error.c" ;;
	ge_usage)
		echo "$ge/prism_ge_usage.c $ge/prism_ge.c $ge/prism_ge_conf.c" \
		     "$c/prism_idmap.c $c/prism_lines.c $c/prism_names.c" \
		     "$c/prism_buf.c $c/prism_sumtext.c" \
		     "$c/prism_state.c $c/prism_format.c $c/prism_error.c" ;;
	*) return 1 ;;
	esac
}

# Can $cc link a libFuzzer binary?
can_fuzz() {
	command -v "$cc" >/dev/null 2>&1 || return 1
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void) d; (void) n; return 0; }\n' \
		>"$build/probe.c" &&
	"$cc" -fsanitize=fuzzer,address,undefined -o "$build/probe" \
		"$build/probe.c" >/dev/null 2>&1
}

mkdir -p "$build" || exit 2
if ! can_fuzz; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "fuzz: installing clang and libclang-rt-dev" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q clang libclang-rt-dev >&2 ||
		{ apt-get update -q >&2 &&
		  apt-get install -y -q clang libclang-rt-dev >&2; }
	fi
	if ! can_fuzz; then
		echo "fuzz: no clang with libFuzzer (apt-get install clang libclang-rt-dev)" >&2
		exit 2
	fi
fi

# Build.
for t in $targets; do
	src=$(sources "$t") || { echo "fuzz: unknown target '$t'" >&2; exit 2; }
	[ "$secs" != runs ] || runs_for "$t" >/dev/null ||
		{ echo "fuzz: no number of inputs for '$t' (runs_for)" >&2; exit 2; }
	# shellcheck disable=SC2086
	if ! "$cc" $flags -o "$build/fuzz_$t" "$here/fuzz_$t.c" $src -lm \
		>"$build/fuzz_$t.build.log" 2>&1; then
		cat "$build/fuzz_$t.build.log" >&2
		echo "fuzz: building fuzz_$t failed" >&2
		exit 2
	fi
done

# Run one target; leaves $build/<t>.status = "PASS|FAIL execs rate info".
run_one() {
	t=$1
	work=$build/work/$t
	rm -rf "$work"
	mkdir -p "$work/corpus" "$work/artifacts"
	cp "$here/corpus/$t/"* "$work/corpus/" 2>/dev/null
	# First the reproducers of crashes already found: they must not crash.
	for r in "$here/crashes/$t"-*; do
		[ -f "$r" ] || continue
		if ! "$build/fuzz_$t" "$r" >"$work/replay.log" 2>&1; then
			what=$(grep -m 1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|check failed' "$work/replay.log")
			echo "FAIL 0 - reproducer tests/fuzz/crashes/${r##*/} still crashes: $what" >"$build/$t.status"
			return
		fi
	done
	dict=
	[ -f "$here/$t.dict" ] && dict=-dict=$here/$t.dict
	# With a seed, the same inputs every run: addresses not randomized
	# (ASan's compare tracing hands pointer values to the mutator) and
	# the corpus not reread by the clock (-reload=0 below)
	seed='' norand=''
	if [ -n "${PRISM_FUZZ_SEED:-}" ]; then
		seed=-seed=$PRISM_FUZZ_SEED
		setarch "$(uname -m)" -R true 2>/dev/null &&
			norand="setarch $(uname -m) -R"
	fi
	if [ "$secs" = runs ]; then
		limit="-runs=$(runs_for "$t")"
	else
		limit=-max_total_time=$secs
	fi
	# shellcheck disable=SC2086
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	$norand "$build/fuzz_$t" $limit -reload=0 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/" $dict $seed \
		"$work/corpus" >"$work/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$work/log" | tail -n 1)
	art=$(find "$work/artifacts/" -mindepth 1 -maxdepth 1 -printf "%f\n" 2>/dev/null | head -n 1)
	if [ "$rc" = 0 ] && [ -z "$art" ]; then
		echo "PASS ${execs:-?} ${rate:-?}" >"$build/$t.status"
		return
	fi
	info="exit $rc, log $work/log"
	if [ -n "$art" ]; then
		mkdir -p "$build/crashes"
		cp "$work/artifacts/$art" "$build/crashes/${t}-$art"
		info="$info, reproducer $build/crashes/${t}-$art"
	fi
	what=$(grep -m 1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|check failed' "$work/log")
	[ -n "$what" ] && info="$info: $what"
	echo "FAIL ${execs:-?} ${rate:-?} $info" >"$build/$t.status"
}

running=0
for t in $targets; do
	run_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

pass=0
fail=0
for t in $targets; do
	if [ -f "$build/$t.status" ]; then
		read -r res execs rate info <"$build/$t.status"
	else
		res=FAIL execs='?' rate='?' info="did not run"
	fi
	if [ "$res" = PASS ]; then
		pass=$((pass + 1))
		case $secs in
		runs) echo "PASS: fuzz_$t ($execs execs, $rate exec/s)" ;;
		*) echo "PASS: fuzz_$t ($execs execs, $rate exec/s, ${secs}s)" ;;
		esac
	else
		fail=$((fail + 1))
		echo "FAIL: fuzz_$t ($execs execs, $rate exec/s): $info"
	fi
	rm -f "$build/$t.status"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
