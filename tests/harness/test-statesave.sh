#!/bin/sh
# test-statesave.sh: a StateSaveLocation that stops taking Prism's files
# for some passes (issue 32, item 2), through the fake controller
# (prism-harness, five passes 300 s apart; the fault is undone after the
# third by --at-pass):
#  (a) files that cannot be replaced (a directory where each file's .new
#      goes; any user);
#  (b) a full file system (a 1 MiB tmpfs filled up), and (c) a read-only
#      one (the same, mounted read-only): as root only, in a mount
#      namespace of their own (unshare -m); SKIP otherwise.
# In each case:
#  - the passes go on: every job's priority and sprio row equal those of
#    the same run without the fault, and those of priority/multifactor
#    under the same fault;
#  - each of Prism's files (state, usage snapshot, pass-begun mark, the
#    copy of the policy in force) logs one error when its saves start
#    failing and one line when a save works again: not one per pass;
#  - afterwards every file is whole and the same as the run without the
#    fault wrote (the copy of the policy, saved at start, is written again
#    at the first pass that can), and no .new is left;
#  - a restart from those files (one more pass) reports what a restart
#    from the fault-free run's files reports: nothing was lost.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
H="$top_builddir/tests/harness/prism-harness"
W="$top_srcdir/tests/harness/worlds/basic.world"
C="$top_srcdir/tests/harness/basic.conf"
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
prism_dir="$top_builddir/src/plugin/.libs"
if [ -n "${STATESAVE_NS:-}" ]; then
	tmp=$STATESAVE_TMP
else
	tmp=$(mktemp -d)
	[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fi
pass=0
fail=0
now=1800000000
files="priority_prism_state priority_prism_usage priority_prism_policy priority_prism_begun"

ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run NAME STATEDIR PLUGIN [OPTIONS...]: five passes from a state whose
# last pass was 600 s ago; report into $tmp/NAME.out, log in .err
run() {
	n=$1 s=$2 p=$3
	shift 3
	"$H" --conf "$C" --world "$W" --plugin "$p" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 120 -v \
		--now "$now" --last-ran $((now - 600)) --state "$s" --keep-state \
		--passes 5 --calc-period 1 --advance 300 "$@" \
		>"$tmp/$n.out" 2>"$tmp/$n.err"
	echo $? >"$tmp/$n.rc"
}

# restart NAME STATEDIR: one pass 300 s after the fifth, from a copy of
# the files
restart() {
	rm -rf "$2.restart"
	cp -a "$2" "$2.restart"
	"$H" --conf "$C" --world "$W" --plugin priority/prism \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		--now $((now + 1500)) --state "$2.restart" --keep-state \
		>"$tmp/$1.out" 2>"$tmp/$1.err"
	echo $? >"$tmp/$1.rc"
}

rows() { grep -E '^(job|factors) ' "$1"; }

# In a mount namespace of its own: CASE NAME PLUGIN MOUNT OUT
if [ -n "${STATESAVE_NS:-}" ]; then
	m=$4
	mount -t tmpfs -o size=1m prism-statesave "$m" || exit 1
	if [ "$1" = full ]; then
		fault="dd if=/dev/zero of=$m/filler bs=4k >/dev/null 2>&1; test -s $m/filler"
		undo="rm $m/filler"
	else
		fault="mount -o remount,ro $m"
		undo="mount -o remount,rw $m"
	fi
	run "$2" "$m" "$3" --at-pass "1:$fault" --at-pass "3:$undo"
	cp -a "$m/." "$5/"
	umount "$m"
	exit 0
fi

# the run without a fault, and its restart
mkdir -p "$tmp/clean"
run clean "$tmp/clean" priority/prism
restart clean-restart "$tmp/clean"
if [ "$(cat "$tmp/clean.rc")" != 0 ] || ! [ -s "$tmp/clean.out" ]; then
	ko "the run without a fault failed:"
	tail -5 "$tmp/clean.err"
	echo "$pass passed, $fail failed"
	exit 1
fi

# check CASE DIR: the checks above on the runs CASE (Prism) and CASE-mf
# (multifactor) made in DIR and DIR-mf
check() {
	c=$1 d=$2 bad=""
	if [ "$(cat "$tmp/$c.rc")" != 0 ]; then
		bad="$bad; Prism's run exited $(cat "$tmp/$c.rc")"
	elif ! rows "$tmp/clean.out" | cmp -s - "$tmp/$c.rows"; then
		bad="$bad; priorities differ from the run without the fault"
	fi
	if [ "$(cat "$tmp/$c-mf.rc")" != 0 ]; then
		bad="$bad; multifactor's run exited $(cat "$tmp/$c-mf.rc")"
	elif ! rows "$tmp/$c-mf.out" | cmp -s - "$tmp/$c.rows"; then
		bad="$bad; priorities differ from multifactor's under the fault"
	fi
	for f in $files; do
		e=$(grep -c "error: priority/prism: cannot save $f:" "$tmp/$c.err")
		a=$(grep -c "priority/prism: $f saved again, whole, after" "$tmp/$c.err")
		[ "$e" = 1 ] && [ "$a" = 1 ] ||
			bad="$bad; $f: $e error line(s), $a 'saved again' line(s) (want 1 and 1)"
		cmp -s "$tmp/clean/$f" "$d/$f" ||
			bad="$bad; $f differs from the run without the fault"
	done
	left=$(find "$d" -name '*.new' | wc -l)
	[ "$left" = 0 ] || bad="$bad; $left .new left"
	restart "$c-restart" "$d"
	if [ "$(cat "$tmp/$c-restart.rc")" != 0 ] ||
		! cmp -s "$tmp/clean-restart.out" "$tmp/$c-restart.out"; then
		bad="$bad; a restart from its files reports otherwise than one from the fault-free run's"
	fi
	if [ -z "$bad" ]; then
		ok "$c: five passes computed as without the fault and as multifactor; one error and one 'saved again' per file; the files whole and as without the fault; a restart loses nothing"
	else
		ko "$c: ${bad#; }"
		grep -E 'error|saved again' "$tmp/$c.err" | head -8
	fi
}

# (a) a directory stands where each file's .new goes (no .new for
# multifactor's priority_last_decay_ran, which Prism writes after its own
# state: it waits for that)
for p in prism mf; do
	d=$tmp/blocked${p#prism}
	[ "$p" = mf ] && d=$tmp/blocked-mf
	mkdir -p "$d"
	blk=""
	for f in $files priority_last_decay_ran; do
		mkdir "$d/$f.new"
		blk="$blk $d/$f.new"
	done
	name=blocked
	plugin=priority/prism
	[ "$p" = mf ] && { name=blocked-mf; plugin=priority/multifactor; }
	run "$name" "$d" "$plugin" --at-pass "3:rmdir$blk"
done
rows "$tmp/blocked.out" >"$tmp/blocked.rows"
check blocked "$tmp/blocked"

# (b), (c): a tmpfs of 1 MiB, filled up (or remounted read-only) after
# the first pass and given back after the third; each run in a mount
# namespace of its own (this script again, STATESAVE_NS set), its files
# copied out at the end. (Before the first pass, the harness itself must
# write the state it starts from.) The copy of the policy, saved at
# start, is not in the fault here: (a) has it.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: a full and a read-only StateSaveLocation (need root and unshare -m)"
else
	for c in full readonly; do
		for p in prism mf; do
			plugin=priority/prism name=$c
			[ "$p" = mf ] && plugin=priority/multifactor name=$c-mf
			mkdir -p "$tmp/$name" "$tmp/$name.mnt"
			STATESAVE_NS=1 STATESAVE_TMP=$tmp unshare -m \
				--propagation private sh "$0" "$c" "$name" \
				"$plugin" "$tmp/$name.mnt" "$tmp/$name" ||
				echo 1 >"$tmp/$name.rc"
		done
		rows "$tmp/$c.out" >"$tmp/$c.rows"
		files="priority_prism_state priority_prism_usage priority_prism_begun" check "$c" "$tmp/$c"
	done
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
