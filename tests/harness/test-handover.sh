#!/bin/sh
# test-handover.sh: a controller that gives control to the one that asked
# for it (slurmctld's REQUEST_CONTROL: a primary that came back, or
# `scontrol takeover` on a backup), in the fake controller (prism-harness
# --handover SEC, the Moab policy, whose usage file fini() saves):
# slurmctld answers the other controller when its shutdown is done or 29 s
# after the request, and that controller then reads the state files. So:
#  - asked 25 s ago (slurmctld still waits for this one's shutdown): fini()
#    saves the Moab usage as when it stops (a new file), nothing logged;
#  - asked 26 s ago (3 s before the answer may go) or 28 s ago: no file is
#    written any more (the Moab usage file is the last pass's, the same
#    file), one info line says so, no error;
#  - not asked (a slurmctld that stops): fini() saves, as always;
#  - asked 27 s before a pass would begin: it does not begin (its charge
#    would be in the usage slurmctld saves after answering, with Prism's
#    files of the pass before: charged twice by the other controller).
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
W="$top_srcdir/tests/harness/worlds/moab.world"
example="$(cd "$top_srcdir" && pwd)/slurm-conf-examples/prism-moab.conf"
now=1800000000
usage=priority_prism_moab_usage

sed '/^PriorityParameters=/d' "$top_srcdir/tests/harness/moab.conf" \
	>"$tmp/slurm.conf"
echo "PriorityParameters=policy=moab,config=$example" >>"$tmp/slurm.conf"

# run NAME [OPTIONS...]: one pass (its two saves under the state-file
# lock: Prism's state, then the Moab usage), the inode of the usage file
# then in $tmp/NAME.pass, fini() (no second pass: an hour's period)
run() {
	n=$1
	shift
	mkdir "$tmp/$n"
	rc=0
	"$H" --conf "$tmp/slurm.conf" --world "$W" --now "$now" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		--state "$tmp/$n" --passes 2 --calc-period 3600 -v \
		--at-pass "2:stat -c %i $tmp/$n/$usage >$tmp/$n.pass && cp $tmp/$n/$usage $tmp/$n.copy" \
		"$@" >"$tmp/$n.out" 2>"$tmp/$n.err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		ko "run $n exited $rc"
		tail -20 "$tmp/$n.err"
	fi
}

inode() { stat -c %i "$1" 2>/dev/null; }
said() { grep -c 'gives control to the controller that asked for it' "$1"; }
errors() { grep -c ': error: ' "$1"; }

# saved N WHAT: fini() wrote the usage file again (another inode), whole
saved() {
	n=$1
	shift
	if [ -s "$tmp/$n.pass" ] &&
		[ "$(inode "$tmp/$n/$usage")" != "$(cat "$tmp/$n.pass")" ] &&
		cmp -s "$tmp/$n.copy" "$tmp/$n/$usage" &&
		[ "$(said "$tmp/$n.err")" = 0 ] && [ "$(errors "$tmp/$n.err")" = 0 ]
	then
		ok "$*: fini() saves the Moab usage (a new file), nothing logged"
	else
		ko "$*: fini() did not save the usage, or logged (pass inode $(cat "$tmp/$n.pass" 2>/dev/null), now $(inode "$tmp/$n/$usage"))"
		grep -i 'control\|error' "$tmp/$n.err" | head -5
	fi
}

# kept N WHAT: nothing written at fini(), one info line, no error
kept() {
	n=$1
	shift
	if [ -s "$tmp/$n.pass" ] &&
		[ "$(inode "$tmp/$n/$usage")" = "$(cat "$tmp/$n.pass")" ] &&
		cmp -s "$tmp/$n.copy" "$tmp/$n/$usage" &&
		[ "$(said "$tmp/$n.err")" = 1 ] && [ "$(errors "$tmp/$n.err")" = 0 ]
	then
		ok "$*: no file written at fini() (the last pass's usage file), one line: $(grep -o 'gives control.*ago' "$tmp/$n.err")"
	else
		ko "$*: a file was written at fini(), or not one line (pass inode $(cat "$tmp/$n.pass" 2>/dev/null), now $(inode "$tmp/$n/$usage"), $(said "$tmp/$n.err") lines)"
		grep -i 'control\|error' "$tmp/$n.err" | head -5
	fi
}

run stop
saved stop "a slurmctld that stops"
run h25 --handover 25
saved h25 "control asked 25 s ago"
run h26 --handover 26
kept h26 "control asked 26 s ago"
run h28 --handover 28
kept h28 "control asked 28 s ago"

# A pass that would begin once control is given away. slurmctld answers
# the controller that asked after its 29-s wait (Slurm 25.11 and 26.05: always)
# and then saves its usage, which that controller goes on from with
# Prism's files of the last pass: a pass charging here once Prism writes
# no file would be charged again there. Asked 27 s before the plugin
# starts (--handover SEC@start): its first pass does not begin (the usage
# is the world's, as before any pass; no file written; one line). Asked
# 20 s before: the pass runs and charges.
# start_run NAME SEC: the plugin asked for control SEC s before it starts
start_run() {
	mkdir "$tmp/$1"
	"$H" --conf "$tmp/slurm.conf" --world "$W" --now "$now" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 -v \
		--state "$tmp/$1" --last-ran $((now - 3600)) --handover "$2@start" \
		>"$tmp/$1.out" 2>"$tmp/$1.err" ||
		ko "start_run $1 exited $?"
}
start_run s27 27
start_run s20 20
mkdir "$tmp/none"
"$H" --conf "$tmp/slurm.conf" --world "$W" --now "$now" \
	--plugindir "$prism_dir:$slurm_dir" --timeout 60 --state "$tmp/none" \
	--last-ran $((now - 3600)) --pass none >"$tmp/none.out" 2>"$tmp/none.err" ||
	ko "the run without a pass exited $?"
report_usage "$tmp/none.out" >"$tmp/none.usage"
written=$(cd "$tmp/s27" && ls priority_prism_usage priority_prism_begun $usage 2>/dev/null | wc -l)
if [ -s "$tmp/none.usage" ] &&
	report_usage "$tmp/s27.out" | cmp -s - "$tmp/none.usage" &&
	! report_usage "$tmp/s20.out" | cmp -s - "$tmp/none.usage" &&
	[ "$written" = 0 ] &&
	[ "$(grep -c 'no pass here any more' "$tmp/s27.err")" = 1 ] &&
	[ "$(errors "$tmp/s27.err")" = 0 ]; then
	ok "control asked 27 s before a pass: the pass does not begin (usage as before it, no file, one line); asked 20 s before, it charges"
else
	ko "a pass once control is given away: $written file(s) written, $(grep -c 'no pass here any more' "$tmp/s27.err") line(s)"
	report_usage "$tmp/s27.out" | diff "$tmp/none.usage" - | head -5
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
