#!/bin/sh
# test-passinfo.sh: the pass figures (priority_prism_pass in
# StateSaveLocation, read by `prism metrics`) on the fake controller
# (prism-harness, basic.world, three passes 300 s apart on its frozen
# clock; each pass's file copied away by --at-pass before the next):
#  - after every pass the file is there, whole: the fields in their
#    order and a checksum line, nothing after it, no .new left;
#  - it moves between passes: the pass count 1, 2, 3; the pass's start
#    300 s later each time (the harness's clock);
#  - the figures are the world's: 9 jobs computed (the pending jobs but
#    the held one; the running one is not computed without
#    CALCULATE_RUNNING), 1 job charged (the running one), a job lock
#    held, a usage snapshot saved (slurmdbd configured, usage decayed);
#  - a save that fails (a directory where the state file's .new goes,
#    from pass 1 on) is counted: 0 in pass 2's figures (the state file is
#    written after them), 1 in pass 3's.
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
W="$top_srcdir/tests/harness/worlds/basic.world"
C="$top_srcdir/tests/harness/basic.conf"
now=1800000000
F=priority_prism_pass

# run NAME [OPTIONS...]: three passes in $tmp/NAME, the figures of passes
# 1 and 2 copied to $tmp/NAME.1 and $tmp/NAME.2, pass 3's left in place
run() {
	n=$1
	shift
	mkdir -p "$tmp/$n"
	if ! "$H" --conf "$C" --world "$W" --plugin priority/prism \
		--now "$now" --last-ran $((now - 3600)) \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		--state "$tmp/$n" --keep-state --passes 3 --calc-period 1 \
		--advance 300 --report none \
		--at-pass "1:cp $tmp/$n/$F $tmp/$n.1" \
		--at-pass "2:cp $tmp/$n/$F $tmp/$n.2" "$@" \
		>"$tmp/$n.out" 2>"$tmp/$n.err"; then
		ko "run $n exited $?"
		tail -20 "$tmp/$n.err"
	fi
	cp "$tmp/$n/$F" "$tmp/$n.3" 2>/dev/null
}

# field FILE NAME: the value of NAME in a figures file
field() {
	sed -n "s/^$2 //p" "$1"
}

# whole FILE: the fields in their order, one checksum line last
whole() {
	[ -f "$1" ] && [ "$(sed 's/ .*//' "$1" | tr '\n' ,)" = \
		"prism-pass,plugin_start,pass_start,pass_end,duration_usec,jobs_computed,jobs_charged,lock_hold_max_usec,usage_save_usec,passes,save_errors,checksum," ] &&
		[ "$(field "$1" prism-pass)" = 1 ] &&
		tail -1 "$1" | grep -qx 'checksum [0-9a-f]\{8\}'
}

run clean
for i in 1 2 3; do
	f="$tmp/clean.$i"
	if ! whole "$f"; then
		ko "pass $i: the figures file is missing or not whole"
		cat "$f" 2>/dev/null
		continue
	fi
	bad=""
	[ "$(field "$f" passes)" = "$i" ] ||
		bad="$bad; passes $(field "$f" passes), want $i"
	want=$((now + (i - 1) * 300))
	[ "$(field "$f" pass_start)" = "$want" ] ||
		bad="$bad; pass_start $(field "$f" pass_start), want $want"
	[ "$(field "$f" plugin_start)" = "$now" ] ||
		bad="$bad; plugin_start $(field "$f" plugin_start), want $now"
	[ "$(field "$f" jobs_computed)" = 9 ] ||
		bad="$bad; jobs_computed $(field "$f" jobs_computed), want 9"
	[ "$(field "$f" jobs_charged)" = 1 ] ||
		bad="$bad; jobs_charged $(field "$f" jobs_charged), want 1"
	[ "$(field "$f" lock_hold_max_usec)" -gt 0 ] ||
		bad="$bad; no lock hold"
	[ "$(field "$f" duration_usec)" -ge \
		"$(field "$f" lock_hold_max_usec)" ] ||
		bad="$bad; the pass is shorter than its longest lock hold"
	[ "$(field "$f" usage_save_usec)" -ge 0 ] ||
		bad="$bad; no usage snapshot saved"
	[ "$(field "$f" save_errors)" = 0 ] ||
		bad="$bad; save_errors $(field "$f" save_errors), want 0"
	if [ -z "$bad" ]; then
		ok "pass $i: the figures whole, pass $i at +$(((i - 1) * 300)) s, 9 jobs computed, 1 charged, a lock held, a usage save timed, no error"
	else
		ko "pass $i:${bad#;}"
		cat "$f"
	fi
done
left=$(find "$tmp/clean" -name '*.new' | wc -l)
[ "$left" = 0 ] && ok "no .new left" || ko "$left .new left"

# a save that fails from pass 1 on
mkdir -p "$tmp/fault"
run fault --at-pass "1:mkdir $tmp/fault/priority_prism_state.new"
if whole "$tmp/fault.2" && whole "$tmp/fault.3" &&
	[ "$(field "$tmp/fault.2" save_errors)" = 0 ] &&
	[ "$(field "$tmp/fault.3" save_errors)" = 1 ] &&
	[ "$(field "$tmp/fault.3" passes)" = 3 ]; then
	ok "a failed save of the state file is counted in the next pass's figures"
else
	ko "failed saves not counted: pass 2 $(field "$tmp/fault.2" save_errors), pass 3 $(field "$tmp/fault.3" save_errors) (want 0 and 1)"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
