# tests/harness/lib.sh: what the harness tests (tests/harness/test-*.sh)
# start with, sourced after `set -u`: tests/lib.sh (top_srcdir,
# top_builddir, $tmp, the PASS/FAIL counters), and the harness program
# and the plugin directories (SLURM_LIBDIR as make check sets it).
# shellcheck shell=sh source=tests/lib.sh
. "${top_srcdir:-.}/tests/lib.sh"
H="$top_builddir/tests/harness/prism-harness"
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
prism_dir="$top_builddir/src/plugin/.libs"

# policy_job_end PARAMS FILE PATTERN WHAT (test-moab.sh, test-ge.sh, with
# their conf and run): a running job that ends during a pass, after the
# pass charged it. The world's job 6 (8 CPUs) ends 30 s after the pass's
# time, right after the pass's first slice lets the job lock go, and, for
# the reference, 30 s after the pass. The policy's usage file
# StateSaveLocation/FILE (WHAT: what it holds) must match PATTERN, the
# pass's hour and 240 CPU-s (29040), not the hour again (57600), and be
# the reference's. ($now, conf and run are the calling test's.)
# shellcheck disable=SC2154
policy_job_end() {
	for how in @mid+30 +30; do
		conf "$tmp/end$how" "$1"
		run "$tmp/end$how" --last-ran $((now - 3600)) \
			--state "$tmp/end$how/state" --end-job "6$how" ||
			ko "--end-job 6$how: the harness exited $?"
	done
	if grep -q "$3" "$tmp/end@mid+30/state/$2" &&
		cmp -s "$tmp/end@mid+30/state/$2" "$tmp/end+30/state/$2"; then
		ok "a job ending during a pass that charged it: charged from the pass's time ($4 as when it ends after)"
	else
		ko "a job ending during a pass: $(grep -v '^#' "$tmp/end@mid+30/state/$2" 2>&1 | tr '\n' ';')"
	fi
}
