#!/bin/sh
# test-usnap.sh: the usage snapshot (priority_prism_usage) across restarts
# of the fake controller (prism-harness, --state DIR --keep-state; each
# run builds the world's usage afresh, as a slurmctld whose own usage file
# is older than the last pass):
#  - after a pass, a restart comes back with the usage of that pass (every
#    association's and QOS's usage_raw), not the world's;
#  - whoever copied it: the fair-share walk (Fair Tree), the walk and then
#    the save for what was charged after it (classic), or the save alone
#    (an association outside the tree; more than a quarter of them
#    charged after the walk);
#  - a snapshot older than the usage slurmctld loaded (the header of its
#    assoc_usage, saved by assoc_mgr's own dump) is not applied; when that
#    file was replaced after the load (by another slurmctld), the save that
#    was loaded (assoc_usage.old, or none) decides;
#  - a damaged snapshot is reported as "damaged" and ignored, and so is a
#    damaged pass-begun mark;
#  - killed between the snapshot and the state file (the state file of the
#    pass before put back): the next pass charges what a controller that
#    was not killed charges (nothing twice), and without the snapshot's
#    times it would not;
#  - killed in a pass after slurmctld saved its own usage in it: the
#    restart sets that save aside for the snapshot (the pass-begun mark),
#    and charges as if killed before the pass (nothing twice);
#  - a clean stop whose last slurmctld save came during a pass: the
#    snapshot fini() saves holds the whole pass (nothing lost).
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
W="$top_srcdir/tests/harness/worlds/basic.world"
C="$top_srcdir/tests/harness/basic.conf"
now=1800000000

# run NAME STATEDIR NOW [OPTIONS...]: report into $tmp/NAME.out; the
# harness must exit $RC (0 unless set)
run() {
	n=$1 s=$2 t=$3
	shift 3
	mkdir -p "$s"
	rc=0
	"$H" --conf "$C" --world "$W" --plugin priority/prism \
		--now "$t" --plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		--digits 15 --state "$s" --keep-state -v "$@" \
		>"$tmp/$n.out" 2>"$tmp/$n.err" || rc=$?
	if [ "$rc" -ne "${RC:-0}" ]; then
		ko "run $n exited $rc"
		tail -20 "$tmp/$n.err"
	fi
}

# The usage of every association and QOS in a report.
usage() { report_usage "$1"; }

# same_usage OUT REF OTHER: the report OUT holds the usage in the file
# REF (not empty), and the report OTHER does not
same_usage() {
	[ -s "$2" ] && usage "$1" | cmp -s - "$2" && ! usage "$3" | cmp -s - "$2"
}

# ---- restore after a pass --------------------------------------------
run world "$tmp/w" "$now" --pass none
run a "$tmp/s" "$now" --last-ran $((now - 3600))
# (a run with --pass none may still run its pass at fini: every case
# below starts from a copy of the state of run a)
cp -r "$tmp/s" "$tmp/b"
run b "$tmp/b" $((now + 60)) --pass none
usage "$tmp/world.out" >"$tmp/world.usage"
usage "$tmp/a.out" >"$tmp/a.usage"
if [ -f "$tmp/s/priority_prism_usage" ] && [ -s "$tmp/a.usage" ] &&
	usage "$tmp/b.out" | cmp -s - "$tmp/a.usage" &&
	! cmp -s "$tmp/world.usage" "$tmp/a.usage"; then
	ok "a restart comes back with the usage of the last pass ($(wc -l <"$tmp/a.usage") records)"
else
	ko "usage after a restart is not the last pass's"
	usage "$tmp/b.out" | diff "$tmp/a.usage" - | head
fi
if grep -q "usage snapshot of the pass at $now .* applied to" "$tmp/b.err"
then
	ok "the restore is logged"
else
	ko "no log of the restore"
	grep -i snapshot "$tmp/b.err"
fi

# ---- who copies the usage: the fair-share walk or the save ------------
# The fair-share walk puts every association's usage in the snapshot as it
# writes them back; the associations charged after it (the classic pass
# charges after fair-share) are put again by the save, and a later record
# of an id wins at start. With an association outside the tree (detached)
# the walk does not meet every one and the save copies everything. Either
# way the restart comes back with the pass's usage.
for algo in fairtree classic detached; do
	{
		cat "$C"
		echo "DebugFlags=Priority"
		[ "$algo" = fairtree ] || echo "PriorityFlags=NO_FAIR_TREE"
	} >"$tmp/$algo.conf"
	world=$W
	if [ "$algo" = detached ]; then
		world="$tmp/detached.world"
		{
			cat "$W"
			echo "assoc lost shares=1 detached=1"
		} >"$world"
	fi
	run "$algo" "$tmp/$algo" "$now" --last-ran $((now - 3600)) -v -v \
		--conf "$tmp/$algo.conf" --world "$world"
	run "$algo-b" "$tmp/$algo" $((now + 60)) --pass none \
		--conf "$tmp/$algo.conf" --world "$world"
	case $algo in
	fairtree)
		# (all charges come before Fair Tree's walk)
		want="associations put by fair-share, 0 charged since put again)"
		how="associations put by the fair-share walk" ;;
	classic)
		want="associations put by fair-share, [1-9][0-9]* charged since put again)"
		how="put by the fair-share walk, the charged ones again" ;;
	detached)
		want="copy under the read locks [0-9]* us)"
		how="everything copied by the save" ;;
	esac
	usage "$tmp/$algo.out" >"$tmp/$algo.usage"
	if grep -q "usage snapshot: written pass $now, .*$want" \
		"$tmp/$algo.err" &&
		[ -s "$tmp/$algo.usage" ] &&
		! usage "$tmp/$algo-b.out" | cmp -s - "$tmp/world.usage" &&
		usage "$tmp/$algo-b.out" | cmp -s - "$tmp/$algo.usage"; then
		ok "$algo: the snapshot ($how) brings back the pass's usage"
	else
		ko "$algo: snapshot copy or restore"
		grep -i "usage snapshot" "$tmp/$algo.err" "$tmp/$algo-b.err"
		usage "$tmp/$algo-b.out" | diff "$tmp/$algo.usage" - | head
	fi
done

# ---- how many charged after the walk ------------------------------------
# The save puts again at most a quarter of the associations (at least
# 1,024): a classic pass over a generated world of 5,688 associations
# whose ~700 running jobs charge fewer puts them again; one whose ~3,600
# running jobs charge ~2,500 users has the save copy everything. Either
# way the restart comes back with the pass's usage. (USNAP_CROWDS: the
# worlds, default "few:6000 many:30000"; tests/sanitize/run.sh leaves
# them out under valgrind, where their six runs take two minutes of CPU,
# and runs them under ASan)
for crowd in ${USNAP_CROWDS-few:6000 many:30000}; do
	name=${crowd%%:*}
	"$top_srcdir/tests/harness/gen-world.sh" -u 5000 -j "${crowd#*:}" \
		>"$tmp/$name.world"
	{
		cat "$top_srcdir/tests/harness/big.conf"
		echo "DebugFlags=Priority"
		echo "PriorityFlags=NO_FAIR_TREE"
	} >"$tmp/$name.conf"
	run "$name" "$tmp/$name" "$now" --last-ran $((now - 3600)) \
		--conf "$tmp/$name.conf" --world "$tmp/$name.world" -v -v
	run "$name-b" "$tmp/$name" $((now + 60)) --pass none \
		--conf "$tmp/$name.conf" --world "$tmp/$name.world"
	run "$name-w" "$tmp/$name-w" "$now" --pass none \
		--conf "$tmp/$name.conf" --world "$tmp/$name.world"
	if [ "$name" = few ]; then
		want="put by fair-share, [1-9][0-9]* charged since put again)"
	else
		want="copy under the read locks [0-9]* us)"
	fi
	usage "$tmp/$name.out" >"$tmp/$name.usage"
	if grep -q "usage snapshot: written pass $now, [0-9]* association records, .*$want" \
		"$tmp/$name.err" &&
		! usage "$tmp/$name-w.out" | cmp -s - "$tmp/$name.usage" &&
		usage "$tmp/$name-b.out" | cmp -s - "$tmp/$name.usage"; then
		ok "$name charged after the walk: $(sed -n 's/.*written pass .*, \([0-9]* association records\), .*CPU [0-9]* us (\(.*\))$/\1; \2/p' "$tmp/$name.err"), the restart has the pass's usage"
	else
		ko "$name charged after the walk"
		grep -i "usage snapshot" "$tmp/$name.err" "$tmp/$name-b.err"
		usage "$tmp/$name-b.out" | diff "$tmp/$name.usage" - | head
	fi
done

# ---- slurmctld's own usage file is newer -----------------------------
# Saves of slurmctld's own usage files by assoc_mgr's dump (--slurm-save),
# as a slurmctld writes them: w+30 and w-30 hold the usage a restart loads
# (the world's), saved at now+30 and now-30; p+90 that of a pass at now+90
# (another controller's later save).
run w+30 "$tmp/w+30" $((now + 30)) --pass none --slurm-save
run w-30 "$tmp/w-30" $((now - 30)) --pass none --slurm-save
run p+90 "$tmp/p+90" $((now + 90)) --last-ran $((now - 3600)) --slurm-save
usage "$tmp/p+90.out" >"$tmp/p+90.usage"
if [ -f "$tmp/w+30/assoc_usage" ] && [ -f "$tmp/p+90/assoc_usage" ] &&
	! cmp -s "$tmp/p+90.usage" "$tmp/world.usage"; then
	ok "slurmctld's usage files saved by assoc_mgr (the pass's differ from the world's)"
else
	ko "slurmctld's usage files were not saved, or the pass changed nothing"
fi
# usnap_case NAME CURRENT [OLD]: the state of run a with slurmctld's
# assoc_usage from save CURRENT (and assoc_usage.old from OLD), restarted
# at now+120
usnap_case() {
	cp -r "$tmp/s" "$tmp/$1"
	cp "$tmp/$2/assoc_usage" "$tmp/$1/assoc_usage"
	[ -z "${3:-}" ] || cp "$tmp/$3/assoc_usage" "$tmp/$1/assoc_usage.old"
	run "$1" "$tmp/$1" $((now + 120)) --pass none
}
usnap_case newer w+30
if usage "$tmp/newer.out" | cmp -s - "$tmp/world.usage" &&
	grep -q "not applied (slurmctld saved its usage at $((now + 30))" \
		"$tmp/newer.err" && ! grep -q "was replaced" "$tmp/newer.err"
then
	ok "a snapshot older than the usage slurmctld loaded is not applied"
else
	ko "a snapshot older than the usage slurmctld loaded was applied"
	grep -i "snapshot\|usage file" "$tmp/newer.err"
fi
# Another slurmctld replaced the file after this one loaded the older one
# (a backup giving up control saves as the primary starts): the snapshot
# is applied when the save that was loaded is older than it.
usnap_case replaced-older p+90 w-30
if usage "$tmp/replaced-older.out" | cmp -s - "$tmp/a.usage" &&
	grep -q "(saved at $((now + 90))) was replaced after this slurmctld loaded it .*: the usage loaded is that of assoc_usage.old, saved at $((now - 30))$" \
		"$tmp/replaced-older.err" &&
	grep -q "usage snapshot of the pass at $now .* applied to" \
		"$tmp/replaced-older.err"; then
	ok "slurmctld's usage file replaced after the load: the older save it loaded is found, and the snapshot applied"
else
	ko "slurmctld's usage file replaced after the load (older save)"
	grep -i "snapshot\|usage file" "$tmp/replaced-older.err"
	usage "$tmp/replaced-older.out" | diff "$tmp/a.usage" - | head
fi
usnap_case replaced-newer p+90 w+30
if usage "$tmp/replaced-newer.out" | cmp -s - "$tmp/world.usage" &&
	grep -q "the usage loaded is that of assoc_usage.old, saved at $((now + 30))$" \
		"$tmp/replaced-newer.err" &&
	grep -q "not applied (slurmctld saved its usage at $((now + 30))" \
		"$tmp/replaced-newer.err"; then
	ok "slurmctld's usage file replaced after the load, the save loaded newer than the snapshot: not applied"
else
	ko "slurmctld's usage file replaced after the load (newer save)"
	grep -i "snapshot\|usage file" "$tmp/replaced-newer.err"
fi
usnap_case replaced-unknown p+90
if usage "$tmp/replaced-unknown.out" | cmp -s - "$tmp/a.usage" &&
	grep -q "is not the one this slurmctld loaded, nor is assoc_usage.old: the usage loaded is taken as older than the snapshot" \
		"$tmp/replaced-unknown.err" &&
	grep -q "usage snapshot of the pass at $now .* applied to" \
		"$tmp/replaced-unknown.err"; then
	ok "slurmctld's usage file replaced, the save loaded not found: the snapshot applied"
else
	ko "slurmctld's usage file replaced, the save loaded not found"
	grep -i "snapshot\|usage file" "$tmp/replaced-unknown.err"
fi

# ---- damaged ------------------------------------------------------------
# damaged_case NAME DIR MESSAGE USAGE WHAT: a restart from DIR logs
# MESSAGE (a grep pattern) and comes back with the usage in file USAGE
damaged_case() {
	run "$1" "$2" $((now + 60)) --pass none
	if grep -q "$3" "$tmp/$1.err" && usage "$tmp/$1.out" | cmp -s - "$4"
	then
		ok "$5 is reported and ignored"
	else
		ko "$5"
		grep -i "snapshot\|begun" "$tmp/$1.err"
	fi
}
cp -r "$tmp/s" "$tmp/d"
perl -e 'open(F, "+<", $ARGV[0]) or die; seek(F, 100, 0); read(F, $c, 1);
	seek(F, 100, 0); print F chr(ord($c) ^ 1); close(F)' \
	"$tmp/d/priority_prism_usage"
damaged_case damaged "$tmp/d" \
	"usage snapshot priority_prism_usage is damaged (checksum mismatch (.*)); ignored" \
	"$tmp/world.usage" "a damaged snapshot"
head -c 40 "$tmp/s/priority_prism_usage" >"$tmp/d/priority_prism_usage"
run truncated "$tmp/d" $((now + 60)) --pass none
if grep -q "is damaged (truncated (40 bytes)); ignored" "$tmp/truncated.err"; then
	ok "a truncated snapshot is reported as damaged"
else
	ko "a truncated snapshot"
	grep -i snapshot "$tmp/truncated.err"
fi
# a damaged pass-begun mark is taken as none (the snapshot applies)
cp -r "$tmp/s" "$tmp/dm"
printf 'prism-pass-begun 1\nbegun %s\nchecksum 00000000\n' $((now + 30)) \
	>"$tmp/dm/priority_prism_begun"
damaged_case damaged-mark "$tmp/dm" \
	"pass-begun mark priority_prism_begun is damaged (checksum mismatch); ignored" \
	"$tmp/a.usage" "a damaged pass-begun mark"

# ---- killed between the snapshot and the state file ---------------------
# k: passes at now and now+600, then the state files of the first put
# back (the second pass's snapshot written, its state file not); c: the
# same without the kill. The next pass (now+660) must charge the same.
run k1 "$tmp/k" "$now" --last-ran $((now - 3600))
mkdir -p "$tmp/old"
cp "$tmp/k/priority_prism_state" "$tmp/k/priority_last_decay_ran" "$tmp/old/"
run k2 "$tmp/k" $((now + 600))
cp -r "$tmp/k" "$tmp/c"
cp "$tmp/old/priority_prism_state" "$tmp/old/priority_last_decay_ran" \
	"$tmp/k/"
cp -r "$tmp/k" "$tmp/nosnap"
rm "$tmp/nosnap/priority_prism_usage"
run k3 "$tmp/k" $((now + 660))
run c3 "$tmp/c" $((now + 660))
run n3 "$tmp/nosnap" $((now + 660))
if grep -q "is newer than the state's $now (killed in between): continuing from that pass" \
	"$tmp/k3.err" &&
	usage "$tmp/k3.out" >"$tmp/k3.usage" &&
	usage "$tmp/c3.out" | cmp -s - "$tmp/k3.usage" &&
	! usage "$tmp/k2.out" | cmp -s - "$tmp/k3.usage" &&
	! usage "$tmp/n3.out" | cmp -s - "$tmp/k3.usage"; then
	ok "killed between snapshot and state: the next pass charges as if not killed"
else
	ko "killed between snapshot and state"
	grep -i snapshot "$tmp/k3.err"
	usage "$tmp/c3.out" | diff "$tmp/k3.usage" - | head
fi

# ---- killed in a pass, after slurmctld saved its usage in it -----------
# slurmctld saves its usage every 5 minutes, whatever a pass is doing. m:
# passes at now, then at now+600 killed right after its first slice, once
# slurmctld saved its usage there (--save-mid copies the files then:
# usage decayed, jobs charged, the state and snapshot still of now); the
# restart loads that save as slurmctld does (--slurm-load). c: the same, killed before the pass at
# now+600 began. The next pass (now+660) must charge the same in both:
# the pass-begun mark sets the save made in the pass aside for the
# snapshot of the pass before (nothing decayed or charged twice; the job
# ends since that pass would be lost). Without the mark (an earlier
# Prism's files) the save is gone on from, and it would not.
{ cat "$C"; echo "PriorityFlags=NO_FAIR_TREE"; } >"$tmp/classic.conf"

# first ALGO NAME DIR COPY: conf set to ALGO's slurm.conf (fairtree,
# classic), a pass at now with an hour to charge in DIR (run NAME), its
# files copied to COPY
first() {
	conf=$C
	[ "$1" = classic ] && conf=$tmp/classic.conf
	run "$2" "$3" "$now" --conf "$conf" --last-ran $((now - 3600))
	cp -r "$3" "$4"
}

for algo in fairtree classic; do
	m=$tmp/mid-$algo
	first "$algo" "$algo-m1" "$m" "$m-c"
	run "$algo-m2" "$m" $((now + 600)) --conf "$conf" \
		--save-mid "cp -r $m $m-k"
	cp -r "$m-k" "$m-nomark"
	rm -f "$m-nomark/priority_prism_begun"
	run "$algo-m3" "$m-k" $((now + 660)) --conf "$conf" --slurm-load
	run "$algo-c3" "$m-c" $((now + 660)) --conf "$conf"
	run "$algo-n3" "$m-nomark" $((now + 660)) --conf "$conf" --slurm-load
	usage "$tmp/$algo-m3.out" >"$tmp/$algo-m3.usage"
	if grep -q "slurmctld saved its usage at $((now + 600)), during the pass begun at $((now + 600)), which did not end" \
		"$tmp/$algo-m3.err" &&
		grep -q "^begun $((now + 660))\$" "$m-k/priority_prism_begun" &&
		same_usage "$tmp/$algo-c3.out" "$tmp/$algo-m3.usage" \
			"$tmp/$algo-n3.out"
	then
		ok "$algo: killed in a pass after slurmctld saved its usage in it: the next pass charges as if killed before that pass"
	else
		ko "$algo: killed in a pass after slurmctld saved its usage in it"
		grep -i "snapshot\|usage file\|begun\|save-mid" "$tmp/$algo-m2.err" "$tmp/$algo-m3.err"
		usage "$tmp/$algo-c3.out" | diff "$tmp/$algo-m3.usage" - | head
	fi
done

# ---- a clean stop, slurmctld's last save made during a pass -------------
# A stopping slurmctld saves its usage (save_all_state()) before it calls
# the plugin's fini(), and a pass running then ends after that save. s:
# passes at now, then at now+600, where slurmctld's last save is made a
# second into the pass (--save-mid-at @before+1: after the classic pass's
# fair-share walk, before its charges; after Fair Tree's decay, before its
# charges), and the run stops cleanly once the pass has ended. r: the same
# with slurmctld's last save made after the pass (--slurm-save). A restart
# loading slurmctld's save (now+660) must charge the same from either:
# fini() saved a snapshot taken after that save. Without it, classic
# loses the pass's charges (its snapshot bears the time of its fair-share
# walk, before that save, which is then gone on from). n: s without
# Prism's snapshot, to show that the save lacks the pass's charges.
for algo in fairtree classic; do
	d=$tmp/stop-$algo
	first "$algo" "$algo-s1" "$d" "$d-r"
	run "$algo-s2" "$d" $((now + 600)) --conf "$conf" \
		--save-mid true --save-mid-at @before+1
	run "$algo-r2" "$d-r" $((now + 600)) --conf "$conf" --slurm-save
	cp -r "$d" "$d-n"
	rm "$d-n/priority_prism_usage"
	run "$algo-s3" "$d" $((now + 660)) --conf "$conf" --slurm-load
	run "$algo-r3" "$d-r" $((now + 660)) --conf "$conf" --slurm-load
	run "$algo-n3" "$d-n" $((now + 660)) --conf "$conf" --slurm-load
	usage "$tmp/$algo-r3.out" >"$tmp/$algo-r3.usage"
	if grep -q "slurmctld's usage saved at $((now + 601)), in the pass" \
		"$tmp/$algo-s2.err" &&
		grep -q "usage snapshot of the pass at $((now + 600)) (taken at $((now + 601))) applied" \
			"$tmp/$algo-s3.err" &&
		same_usage "$tmp/$algo-s3.out" "$tmp/$algo-r3.usage" \
			"$tmp/$algo-n3.out"
	then
		ok "$algo: a clean stop whose last slurmctld save came during a pass: the restart charges as if that save came after the pass"
	else
		ko "$algo: a clean stop whose last slurmctld save came during a pass"
		grep -i "snapshot\|usage file\|save-mid" "$tmp/$algo-s2.err" "$tmp/$algo-s3.err"
		usage "$tmp/$algo-s3.out" | diff "$tmp/$algo-r3.usage" - | head
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
