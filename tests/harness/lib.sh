# tests/harness/lib.sh: what the harness tests (tests/harness/test-*.sh)
# start with, sourced after `set -u`: tests/lib.sh (top_srcdir,
# top_builddir, $tmp, the PASS/FAIL counters), and the harness program
# and the plugin directories (SLURM_LIBDIR as make check sets it).
# shellcheck shell=sh source=tests/lib.sh
. "${top_srcdir:-.}/tests/lib.sh"
H="$top_builddir/tests/harness/prism-harness"
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
prism_dir="$top_builddir/src/plugin/.libs"

# report_usage REPORT: "assoc|qos NAME USAGE_RAW" for every association and
# QOS of a harness report
report_usage() {
	sed -n 's/^\(assoc\|qos\) \([^ ]*\) .*usage_raw=\([^ ]*\).*/\1 \2 \3/p' \
		"$1"
}

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

# policy_killed PARAMS FILE KILLED REF WHAT (test-moab.sh, test-ge.sh, with
# their conf and run): a controller killed right after a pass saved Prism's
# state file, before the policy's usage file StateSaveLocation/FILE. The
# world's job 6 (8 CPUs) runs; a pass at now (an hour after the last)
# leaves a copy of the files as the kill would (--at-pass 1, the state
# file's save); the copy and the files of the whole run each get a pass a
# minute later. The whole run's file (WHAT) must match REF (the hour and
# the minute: 29280 CPU-s); the killed one's KILLED (the minute alone,
# 480: the killed pass's charge to the policy is lost, not made again from
# the last pass's end, 58080).
# shellcheck disable=SC2154
policy_killed() {
	d=$tmp/killed
	conf "$d" "$1"
	run "$d" --last-ran $((now - 3600)) --state "$d/state" \
		--at-pass "1:cp -r $d/state $d/copy" ||
		ko "a kill after the state file: the harness exited $?"
	for s in state copy; do
		run "$d" --now $((now + 60)) --state "$d/$s" --keep-state ||
			ko "a restart from $s: the harness exited $?"
	done
	if grep -q "$4" "$d/state/$2" && grep -q "$3" "$d/copy/$2"; then
		ok "killed between the state file and the policy's usage file: the pass's charge to $5 is lost, not made twice"
	else
		ko "killed between the state file and the policy's usage file: $(grep -v '^#' "$d/copy/$2" 2>&1 | tr '\n' ';') (not killed: $(grep -v '^#' "$d/state/$2" 2>&1 | tr '\n' ';'))"
	fi
}
