#!/usr/bin/env bash
# run.sh: run Prism's unit tests and the fake-controller harness tests
# under AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer)
# and under valgrind memcheck.
#
#   tests/sanitize/run.sh
#
# What it does:
#  1. Copies the work tree's sources (git ls-files: tracked and untracked,
#     not ignored; uncommitted edits included) into two scratch trees under
#     $PRISM_SAN_BUILD, asan/ and memcheck/, and builds each in-tree
#     (autoreconf and configure only the first time; later runs copy only
#     the files whose content changed and let make rebuild what depends
#     on them):
#       asan/      gcc -O1 -g -fsanitize=address,undefined,
#                  float-cast-overflow -fno-sanitize-recover=all
#       memcheck/  gcc -O1 -g, no sanitizer (for valgrind)
#     The plugin and the harness are built when a configured Slurm source
#     tree is at hand (scripts/slurm-source.sh), as in the main build.
#  2. ASan+UBSan: the unit tests, i.e. the Check programs tests/*/test_*
#     (CK_FORK=no: every test in one process,
#     so that one leak check at exit covers them all; in Check's fork
#     mode each of the hundreds of children would run its own),
#     every tests/harness/test-*.sh: test-harness.sh (both plugins on
#     worlds/basic.world, the bad-PriorityParameters runs included),
#     test-moab.sh (policy=moab) and any later one but
#     test-slurm-progs.sh (its own programs) and test-memory.sh
#     (glibc malloc's figures) (with test-churn.sh's 100
#     passes, under valgrind 40 and classic fair-share only;
#     test-usnap.sh under valgrind without its two 5,000-user worlds,
#     test-storm.sh under ASan only),
#     and
#     test-compare.sh
#     (every PriorityFlags set, on the generated 10k-association,
#     10k-job world by default), with
#     ASAN_OPTIONS=detect_leaks=1 and UBSAN_OPTIONS=halt_on_error=1:
#     print_stacktrace=1. ASan and LSan reports go to files (log_path);
#     UBSan's (gcc writes them to stderr) are found in the output and in
#     a copy of every harness run's stderr that a wrapper keeps. So a
#     report fails the test even in a run whose exit status the test
#     script expects to be non-zero (the bad PriorityParameters runs).
#  3. valgrind memcheck (--leak-check=full; every memory error and every
#     definite leak counts, and so does a "possibly lost" block allocated
#     through Prism's code): the unit tests (CK_FORK=no), the same
#     harness test scripts, test-compare.sh on a small generated world
#     (500 users, 500 jobs), every priority/prism run of the harness
#     in them under valgrind (a wrapper stands in for the harness
#     binary; the priority/multifactor runs, Slurm's code, only give the
#     numbers to compare with and run natively; Slurm dlclose()s the
#     plugin, --keep-debuginfo=yes keeps its stack frames readable).
# Every test passes only if it passes as usual AND no sanitizer or
# valgrind report was written by any process it ran.
#
# Suppressions (Slurm's own code only, each with its reason):
# tests/sanitize/lsan.supp and tests/sanitize/valgrind.supp.
#
# Prints one PASS/FAIL line per test and a last line "N passed, M failed".
# Logs: $PRISM_SAN_BUILD/logs/<test>/ (output, asan.* and ubsan.*
# reports, the harness runs' stderr.*, valgrind's vg.*).  Frames shown as "<unknown module>" in an ASan leak
# stack are in a plugin that Slurm's plugin loader dlclose()d at
# priority_g_fini(); the valgrind run of the same test names them.
#
# Environment:
#   PRISM_SAN_BUILD        scratch directory (default tests/sanitize/build,
#                          gitignored); remove it to build from scratch
#   PRISM_SAN_ONLY         asan or valgrind: run only that half
#   PRISM_SAN_JOBS         make -j (default 2)
#   PRISM_SAN_COMPARE      users and jobs of the test-compare.sh world
#                          under ASan (default 10000; 0 skips it)
#   PRISM_SAN_VG_COMPARE   the same under valgrind (default 500; 0 skips)
#   PRISM_SAN_VG_ORIGINS   non-empty: valgrind's --track-origins=yes, which
#                          says where an uninitialised value came from
#                          (twice the CPU time; off by default)
#   PRISM_SLURM_SOURCE     configured Slurm tree (default: the cached tree
#                          scripts/slurm-source.sh prints; "no" builds
#                          no plugin: the core, the unit tests and the
#                          prism command)
#   PRISM_SAN_CFLAGS       replaces the ASan build's sanitizer flags
#   PRISM_SAN_CC           compiler (default gcc; CC is not read, so that
#                          a CC meant for another step does not leak in)
#
# Exit status: 0 all passed; 1 a test failed or a build failed; 2 usage
# or missing tool (git work tree, valgrind).
#
# valgrind is installed with apt-get when missing (root only).

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${PRISM_SAN_BUILD:-$here/build}
only=${PRISM_SAN_ONLY:-}
jobs=${PRISM_SAN_JOBS:-2}
compare_asan=${PRISM_SAN_COMPARE:-10000}
compare_vg=${PRISM_SAN_VG_COMPARE:-500}
cc=${PRISM_SAN_CC:-gcc}
san_flags=${PRISM_SAN_CFLAGS:-"-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"}
base_cflags="-O1 -g -fno-omit-frame-pointer"

case $only in
''|asan|valgrind) ;;
*) echo "sanitize: PRISM_SAN_ONLY must be asan or valgrind" >&2; exit 2 ;;
esac
for n in "$jobs" "$compare_asan" "$compare_vg"; do
	case $n in
	''|*[!0-9]*) echo "sanitize: not a number: '$n'" >&2; exit 2 ;;
	esac
done

passed=0
failed=0
t_start=$(date +%s)

pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() {
	echo "sanitize: $(($(date +%s) - t_start)) s in all; logs in $build/logs"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

mkdir -p "$build/logs" || exit 2
build=$(cd "$build" && pwd)
build_rel=
case $build/ in
"$top"/*) build_rel=${build#"$top"/}/ ;;
esac

if ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "sanitize: $top is not a git work tree (the file list comes from git ls-files)" >&2
	exit 2
fi

# ---- tools ----
want_vg=
[ "$only" != asan ] && want_vg=1
if [ -n "$want_vg" ] && ! command -v valgrind >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "sanitize: installing valgrind" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q --no-install-recommends valgrind >&2 ||
		{ apt-get update -q >&2 &&
		  apt-get install -y -q --no-install-recommends valgrind >&2; }
	fi
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "sanitize: valgrind missing (apt-get install valgrind)" >&2
		exit 2
	fi
fi

slurm_tree=${PRISM_SLURM_SOURCE:-}
if [ -z "$slurm_tree" ]; then
	slurm_tree=$("$top/scripts/slurm-source.sh" 2>/dev/null | tail -n 1)
	if [ -z "$slurm_tree" ]; then
		fail "no configured Slurm tree (scripts/slurm-source.sh failed): the plugin and the harness are not tested"
		slurm_tree=no
	fi
fi

# ---- the source copies ----
# sync DEST: make DEST's copy of the work tree's files identical in
# content; files whose content changed get a new mtime (cp), so that make
# rebuilds what depends on them; files gone from the list are removed.
sync_tree() {
	local dest=$1 f new old
	mkdir -p "$dest"
	new=$dest/.prism-san-files
	old=$dest/.prism-san-files.old
	[ -f "$new" ] && mv "$new" "$old"
	# (never the scratch directory itself, should it not be ignored)
	git -C "$top" ls-files --cached --others --exclude-standard |
		awk -v skip="$build_rel" 'skip == "" || index($0, skip) != 1' |
		LC_ALL=C sort -u >"$new.tmp"
	: >"$new"
	while IFS= read -r f; do
		[ -f "$top/$f" ] || continue	# deleted in the work tree
		printf '%s\n' "$f" >>"$new"
		if ! cmp -s "$top/$f" "$dest/$f"; then
			mkdir -p "$dest/$(dirname "$f")" &&
			rm -f "$dest/$f" &&
			cp "$top/$f" "$dest/$f" || return 1
		fi
	done <"$new.tmp"
	rm -f "$new.tmp"
	if [ -f "$old" ]; then
		LC_ALL=C comm -23 "$old" "$new" | while IFS= read -r f; do
			rm -f "$dest/$f"
		done
		rm -f "$old"
	fi
}

# build NAME CFLAGS LDFLAGS: sync, configure once, make (with the check
# programs: "make check TESTS=" builds them and runs nothing).
build_tree() {
	local name=$1 cflags=$2 ldflags=$3 dir log
	dir=$build/$name
	local args stamp
	log=$build/logs/build-$name.log
	: >"$log"
	sync_tree "$dir" >>"$log" 2>&1 || return 1
	args="CC=$cc|CFLAGS=$cflags|LDFLAGS=$ldflags|slurm=$slurm_tree|shell=${CONFIG_SHELL:-}"
	stamp=$dir/.prism-san-configured
	(
		cd "$dir" || exit 1
		if [ ! -x configure ]; then
			echo "== autoreconf -fi"
			autoreconf -fi || exit 1
		fi
		if [ ! -f config.status ] || [ ! -f "$stamp" ] ||
			[ "$(cat "$stamp")" != "$args" ]; then
			echo "== configure"
			rm -f "$stamp"
			./configure --disable-werror \
				--with-slurm-source="$slurm_tree" \
				CC="$cc" CFLAGS="$cflags" LDFLAGS="$ldflags" ||
				exit 1
			printf '%s\n' "$args" >"$stamp"
		fi
		echo "== make"
		make -j"$jobs" && make -j"$jobs" check TESTS=
	) >>"$log" 2>&1
}

# ---- running one test ----
# run_test KIND NAME CMD...: KIND asan (sanitizer reports to files) or
# valgrind (the command runs its programs under valgrind itself, logging
# to $logdir/vg.PID); output in $logdir/output.
san_pattern='runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|Sanitizer:DEADLYSIGNAL'
asan_opts=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:abort_on_error=0
ubsan_opts=halt_on_error=1:print_stacktrace=1
run_test() {
	local kind=$1 name=$2 logdir rc t0 secs reports f bad=
	shift 2
	logdir=$build/logs/$name
	rm -rf "$logdir"
	mkdir -p "$logdir"
	t0=$(date +%s)
	case $kind in
	asan)
		env ASAN_OPTIONS="$asan_opts:${ASAN_OPTIONS:-}:log_path=$logdir/asan" \
		    UBSAN_OPTIONS="$ubsan_opts:${UBSAN_OPTIONS:-}:log_path=$logdir/ubsan" \
		    LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" \
		    PRISM_SAN_LOGDIR="$logdir" \
		    "$@" >"$logdir/output" 2>&1
		;;
	valgrind)
		env PRISM_SAN_LOGDIR="$logdir" "$@" >"$logdir/output" 2>&1
		;;
	esac
	rc=$?
	secs=$(($(date +%s) - t0))
	reports=
	case $kind in
	asan)
		# ASan and LSan reports go to the log_path files; with gcc
		# the UBSan runtime beside ASan writes to stderr whatever
		# log_path says, hence the scan of the output and of the
		# harness's stderr (stderr.PID, see asan_wrapper)
		for f in "$logdir"/asan.* "$logdir"/ubsan.*; do
			[ -s "$f" ] && reports="$reports $f"
		done
		for f in "$logdir/output" "$logdir"/stderr.*; do
			[ -f "$f" ] && grep -q -E "$san_pattern" "$f" &&
				reports="$reports $f"
		done
		;;
	valgrind)
		for f in "$logdir"/vg.*; do
			[ -f "$f" ] || continue
			vg_log_ok "$f" || reports="$reports $f"
		done
		if ! ls "$logdir"/vg.* >/dev/null 2>&1; then
			bad="no valgrind log written"
		fi
		;;
	esac
	if [ "$rc" -eq 0 ] && [ -z "$reports" ] && [ -z "$bad" ]; then
		pass "$name (${secs} s)"
		return 0
	fi
	fail "$name: exit $rc${reports:+, reports:$reports}${bad:+, $bad} (${secs} s; output $logdir/output)"
	if [ "$kind" = valgrind ] && [ "$vg_origins" = no ]; then
		echo "    (PRISM_SAN_VG_ORIGINS=1 PRISM_SAN_ONLY=valgrind $0: where an uninitialised value came from)"
	fi
	echo "---- last lines of the output"
	tail -n 25 "$logdir/output" | sed 's/^/    /'
	for f in $reports; do
		echo "---- $f"
		case $kind in
		asan) if [ "$(basename "$f")" = output ] ||
			[ "${f##*/stderr.}" != "$f" ]; then
				grep -E -A 30 "$san_pattern" "$f" | head -n 60
			else
				head -n 60 "$f"
			fi ;;
		valgrind) grep -v -e '^==[0-9]*== *$' "$f" |
			awk '/^\{/ { s = 1 } !s { print } /^\}/ { s = 0 }' |
			head -n 100 ;;
		esac | sed 's/^/    /'
	done
	echo "----"
	return 1
}

# vg_log_ok LOG: true if a valgrind log shows no error: its summary
# says 0 errors (definite leaks count as errors), no loss record, not even
# a "possibly lost" one, has a Prism frame in its stack, and a log
# without a summary (a fork child that exec'd an unwatched program, e.g.
# system("rm ..."), or a killed process) has nothing but its header.
vg_log_ok() {
	awk '
	{ line = $0; sub(/^==[0-9]+== ?/, "", line) }
	line ~ /ERROR SUMMARY: [1-9]/ { bad = 1 }
	line ~ /ERROR SUMMARY:/ { summary = 1 }
	line !~ /^(Memcheck, a memory error detector|Copyright \(C\)|Using Valgrind|Command: |Parent PID: |$)/ { content = 1 }
	line ~ /are (definitely|indirectly|possibly) lost in loss record/ { rec = 1; next }
	rec && line == "" { rec = 0 }
	rec && line ~ /prism_[a-z_]+\.c:|priority_prism\.(c:|so)|libprismcore/ { bad = 1 }
	END { exit (bad || (!summary && content)) }' "$1"
}

# Unit-test programs: the executables named test_* the build made in
# tests/*/ (tests/unit/test_core, tests/cli/test_cli_diag, ...).
unit_programs() {
	local f
	for f in "$1"/tests/*/test_*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
			echo "$f"
	done
}

# have_harness DIR: the plugin and the harness were built
have_harness() {
	[ -x "$1/tests/harness/prism-harness" ] &&
		[ -f "$1/src/plugin/.libs/priority_prism.so" ]
}

# wrapped_top TREE DIR < SCRIPT: make DIR a build directory for the
# harness test scripts (their top_builddir): symbolic links to TREE's
# files, but tests/harness/prism-harness is SCRIPT, a wrapper that runs
# TREE's harness.
wrapped_top() {
	local tree=$1 dir=$2 e
	rm -rf "$dir"
	mkdir -p "$dir/tests/harness" || return 1
	for e in "$tree"/*; do
		[ "${e##*/}" = tests ] || ln -s "$e" "$dir/"
	done
	for e in "$tree"/tests/*; do
		[ "${e##*/}" = harness ] || ln -s "$e" "$dir/tests/"
	done
	for e in "$tree"/tests/harness/*; do
		[ "${e##*/}" = prism-harness ] || ln -s "$e" "$dir/tests/harness/"
	done
	cat >"$dir/tests/harness/prism-harness" &&
	chmod +x "$dir/tests/harness/prism-harness"
}

# harness_tests KIND TREE DIR COMPARE_SIZE: every tests/harness/test-*.sh
# of TREE with top_builddir DIR; test-compare.sh on a world of
# COMPARE_SIZE users and jobs (0: not run).
harness_tests() {
	local kind=$1 tree=$2 dir=$3 size=$4 t n
	for t in "$tree"/tests/harness/test-*.sh; do
		[ -f "$t" ] || continue
		n=$(basename "$t" .sh)
		# (the comparison against another Slurm builds its own copy
		# in a Debian root: not a test of this build)
		[ "$n" = test-compare-root ] && continue
		# (Slurm's own test programs load the plugin into a program
		# of their own, which an instrumented plugin cannot be
		# loaded into: make check runs them on the plain build)
		[ "$n" = test-slurm-progs ] && continue
		# (valgrind runs one thread at a time and some 30 times
		# slower: its 10,000 jobs would take minutes, and the storm's
		# timing is not what it checks; ASan runs it)
		[ "$n" = test-storm ] && [ "$kind" = valgrind ] && continue
		# (it reads glibc malloc's own figures, mallinfo2(), which
		# ASan and valgrind replace: make check runs it on the plain
		# build; the paths it measures run under both in the others)
		[ "$n" = test-memory ] && continue
		if [ "$n" = test-compare ]; then
			[ "$size" -gt 0 ] || continue
			# valgrind computes x87 long doubles in 64-bit
			# precision and the multifactor runs are native: after
			# MOVED's move, assoc_mgr sums every account's usage
			# again (in the Prism run, under valgrind), and Fair
			# Tree ranks a near tie differently in the two
			# precisions (multifactor under valgrind ranks it as
			# Prism under valgrind does). MOVED runs under ASan.
			skip=
			[ "$kind" = valgrind ] && skip=MOVED
			# the clock-step sets (four passes each) run under
			# valgrind on the small world, and test-harness.sh's
			# clock step back under both: not again at 10,000
			[ "$kind" = asan ] && skip="CLOCK CLOCK-classic"
			run_test "$kind" "$kind-$n-$size" \
				env top_srcdir="$tree" top_builddir="$dir" \
				COMPARE_USERS="$size" COMPARE_JOBS="$size" \
				COMPARE_SKIP="$skip" sh "$t"
		elif [ "$n" = test-churn ]; then
			# fewer passes (valgrind runs Prism some 30 times
			# slower); under valgrind classic fair-share only: Fair
			# Tree ranks near ties in valgrind's 64-bit long doubles
			# unlike native multifactor (as MOVED above), and the
			# churn's added and removed users make such ties
			if [ "$kind" = valgrind ]; then
				set -- CHURN_PASSES=40 CHURN_SETS=CLASSIC
			else
				set -- CHURN_PASSES=100
			fi
			run_test "$kind" "$kind-$n" \
				env top_srcdir="$tree" top_builddir="$dir" \
				"$@" sh "$t"
		elif [ "$n" = test-usnap ] && [ "$kind" = valgrind ]; then
			# the two generated worlds of 5,000 users (the save
			# after the walk with few and with many charged) take
			# two thirds of the test's time under valgrind; the
			# same code runs under ASan on them, and here on the
			# small world
			run_test "$kind" "$kind-$n" \
				env top_srcdir="$tree" top_builddir="$dir" \
				USNAP_CROWDS= sh "$t"
		else
			run_test "$kind" "$kind-$n" \
				env top_srcdir="$tree" top_builddir="$dir" sh "$t"
		fi
	done
}

# ---- ASan + UBSan ----
if [ "$only" != valgrind ]; then
	a=$build/asan
	if build_tree asan "$base_cflags $san_flags" "$san_flags"; then
		pass "build (ASan+UBSan): $cc $base_cflags $san_flags"
		for p in $(unit_programs "$a"); do
			n=$(basename "$p")
			run_test asan "asan-unit-$n" env CK_FORK=no "$p"
		done
		[ -n "$(unit_programs "$a")" ] ||
			fail "asan: no unit-test program was built (Check missing?)"
		if have_harness "$a"; then
			# the harness keeps a copy of its stderr in
			# $PRISM_SAN_LOGDIR/stderr.PID (the scripts discard
			# it, or expect a failure)
			w=$build/asan-top
			{
				echo '#!/bin/sh'
				echo '# prism-harness, stderr kept (tests/sanitize/run.sh)'
				echo 'log=${PRISM_SAN_LOGDIR:-/tmp}/stderr.$$'
				printf '%q "$@" 2>"$log"\n' \
					"$a/tests/harness/prism-harness"
				echo 'rc=$?'
				echo 'cat "$log" >&2'
				echo 'exit "$rc"'
			} | wrapped_top "$a" "$w"
			harness_tests asan "$a" "$w" "$compare_asan"
		elif [ "$slurm_tree" != no ]; then
			fail "asan: the plugin or the harness was not built"
		fi
	else
		fail "build (ASan+UBSan): see $build/logs/build-asan.log"
		tail -n 30 "$build/logs/build-asan.log" | sed 's/^/    /'
	fi
fi

# ---- valgrind memcheck ----
# --track-origins finds nothing more; it says where an uninitialised value
# came from, at twice the CPU time (the unit tests: 66 s -> 33 s of CPU):
# off unless asked for, and named in the message of a failure
vg_origins=no
[ -z "${PRISM_SAN_VG_ORIGINS:-}" ] || vg_origins=yes
vg_opts=(--tool=memcheck --leak-check=full
	--show-leak-kinds=definite,possible --errors-for-leak-kinds=definite
	--error-exitcode=99 "--track-origins=$vg_origins" --keep-debuginfo=yes
	--num-callers=40 --gen-suppressions=all
	"--suppressions=$here/valgrind.supp")
if [ "$only" != asan ]; then
	m=$build/memcheck
	if build_tree memcheck "$base_cflags" ""; then
		pass "build (for valgrind): $cc $base_cflags"
		# $build/vg PROGRAM ARGS: PROGRAM under valgrind, its log in
		# $PRISM_SAN_LOGDIR/vg.PID (one per process)
		{
			echo '#!/bin/sh'
			echo '# written by tests/sanitize/run.sh'
			printf 'exec valgrind'
			printf ' %q' "${vg_opts[@]}"
			printf ' --log-file="${PRISM_SAN_LOGDIR:-/tmp}/vg.%%p" "$@"\n'
		} >"$build/vg"
		chmod +x "$build/vg"
		for p in $(unit_programs "$m"); do
			run_test valgrind "valgrind-unit-$(basename "$p")" \
				env CK_FORK=no "$build/vg" "$p"
		done
		[ -n "$(unit_programs "$m")" ] ||
			fail "valgrind: no unit-test program was built (Check missing?)"
		if have_harness "$m"; then
			# the harness runs under valgrind; not the
			# priority/multifactor runs (Slurm's own plugin, there
			# only for its numbers): half the time
			w=$build/valgrind-top
			{
				echo '#!/bin/sh'
				echo '# prism-harness under valgrind (tests/sanitize/run.sh)'
				echo 'case " $* " in'
				printf '*" --plugin priority/multifactor "*) exec %q "$@" ;;\n' \
					"$m/tests/harness/prism-harness"
				echo 'esac'
				printf 'exec %q %q "$@"\n' "$build/vg" \
					"$m/tests/harness/prism-harness"
			} | wrapped_top "$m" "$w"
			harness_tests valgrind "$m" "$w" "$compare_vg"
		elif [ "$slurm_tree" != no ]; then
			fail "valgrind: the plugin or the harness was not built"
		fi
	else
		fail "build (for valgrind): see $build/logs/build-memcheck.log"
		tail -n 30 "$build/logs/build-memcheck.log" | sed 's/^/    /'
	fi
fi

finish
