#!/bin/sh
# test-harness.sh: drive priority/prism and Slurm's priority/multifactor
# through the fake controller on the same world, and check that
#  - both load and print the same kind of report (same rows, same keys);
#  - with slurm-conf-examples/slurm.conf (Fair Tree, TRES weights) their
#    job priorities and sprio factor rows are identical, number for number;
#  - after a reconfigure that changes PriorityWeightTRES, sprio's rows
#    show each job's TRES values with the weights they were computed
#    with, and after the next pass multifactor's values and weights;
#  - the numbers are not degenerate (priorities differ; the high partition
#    outranks the low one for the same job; held jobs stay 0);
#  - the report is reproducible.
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
W="$top_srcdir/tests/harness/worlds/basic.world"
now=1763700000

# run NAME CONF PLUGIN: report into $tmp/NAME.out
run() {
	if "$H" --conf "$2" --world "$W" --plugin "$3" --now "$now" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		>"$tmp/$1.out" 2>"$tmp/$1.err"; then
		ok "$3 with $(basename "$2"): report of $(wc -l <"$tmp/$1.out") lines"
	else
		ko "$3 with $(basename "$2") exited $?"
		tail -20 "$tmp/$1.err"
	fi
}

# The rows and keys of a report, values removed.
shape() {
	sed -e 's/=[^ ]*/=/g' -e 's/^plugin .*/plugin/' "$1"
}

# Job and sprio rows only.
jobs_of() {
	grep -E '^(job|factors) ' "$1"
}

run mf-basic "$top_srcdir/tests/harness/basic.conf" priority/multifactor
run pr-basic "$top_srcdir/tests/harness/basic.conf" priority/prism
shape "$tmp/mf-basic.out" >"$tmp/mf.shape"
shape "$tmp/pr-basic.out" >"$tmp/pr.shape"
if [ -s "$tmp/mf.shape" ] && diff -u "$tmp/mf.shape" "$tmp/pr.shape"; then
	ok "both plugins print the same kind of report"
else
	ko "the reports of the two plugins differ in shape"
fi

conf="$top_srcdir/slurm-conf-examples/slurm.conf"
run mf "$conf" priority/multifactor
run pr "$conf" priority/prism
jobs_of "$tmp/mf.out" >"$tmp/mf.jobs"
jobs_of "$tmp/pr.out" >"$tmp/pr.jobs"
if [ -s "$tmp/mf.jobs" ] && diff -u "$tmp/mf.jobs" "$tmp/pr.jobs"; then
	ok "prism and multifactor agree on $(grep -c '^job' "$tmp/pr.jobs") job priorities and $(grep -c '^factors' "$tmp/pr.jobs") sprio rows"
else
	ko "prism and multifactor disagree on job priorities or factors"
fi

# TRES weights with units and several TRES, no fair-share: all identical.
run mf-tres "$top_srcdir/tests/harness/tres.conf" priority/multifactor
run pr-tres "$top_srcdir/tests/harness/tres.conf" priority/prism
jobs_of "$tmp/mf-tres.out" >"$tmp/mf-tres.jobs"
jobs_of "$tmp/pr-tres.out" >"$tmp/pr-tres.jobs"
if grep -q 'tres=cpu:' "$tmp/pr-tres.jobs" &&
	diff -u "$tmp/mf-tres.jobs" "$tmp/pr-tres.jobs"; then
	ok "with tres.conf both agree on job priorities and TRES factors"
else
	ko "with tres.conf the plugins disagree (or no TRES factor shown)"
fi

# The TRES weights sprio divides each job's TRES values by (tres_w=):
# Prism's job factors carry none of their own while they are the weights
# in force (jobrec.h). PriorityWeightTRES changed by a reconfigure after
# the first pass (--weights-tres): after the second, the rows equal
# multifactor's (the new weights); right after that pass first lets the
# job lock go (--sprio-mid: its first slice, before it recomputes any
# job), every row still shows the weights its values were computed with
# in the first pass, the old ones, as the rows of a single pass do.
tres_w() { sed -n 's/^\(mid \)\{0,1\}factors \([0-9]*\) part=\([^ ]*\) .* tres_w=\([^ ]*\)$/\2 \3 \4/p' "$1"; }
reweigh() { # reweigh NAME PLUGIN ARGS...
	n=$1 p=$2
	shift 2
	"$H" --conf "$top_srcdir/tests/harness/tres.conf" --world "$W" \
		--plugin "$p" --plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		--now "$now" --last-ran $((now - 600)) --digits 15 "$@" \
		>"$tmp/$n.out" 2>"$tmp/$n.err" ||
		{ ko "$p $* exited $?"; tail -5 "$tmp/$n.err"; }
}
new_w="CPU=100,Mem=1G,Node=600,billing=7"
reweigh rw-one priority/prism
reweigh rw-mf priority/multifactor --passes 2 --calc-period 1 --advance 300 \
	--weights-tres "$new_w"
reweigh rw-pr priority/prism --passes 2 --calc-period 1 --advance 300 \
	--weights-tres "$new_w" --sprio-mid
jobs_of "$tmp/rw-mf.out" >"$tmp/rw-mf.jobs"
jobs_of "$tmp/rw-pr.out" >"$tmp/rw-pr.jobs"
if grep -q 'tres_w=cpu:100,' "$tmp/rw-pr.jobs" &&
	! grep -q 'tres_w=cpu:100,' "$tmp/rw-one.out" &&
	diff -u "$tmp/rw-mf.jobs" "$tmp/rw-pr.jobs"; then
	ok "PriorityWeightTRES reconfigured: after the next pass both agree on priorities, TRES values and weights"
else
	ko "PriorityWeightTRES reconfigured: the plugins disagree after the next pass (or the weights did not change)"
fi
grep '^mid factors ' "$tmp/rw-pr.out" | sed 's/^mid //' | tres_w /dev/stdin >"$tmp/rw-mid.w"
grep '^factors ' "$tmp/rw-one.out" | tres_w /dev/stdin >"$tmp/rw-one.w"
if [ -s "$tmp/rw-one.w" ] && grep -q ' cpu:200,' "$tmp/rw-one.w" &&
	diff -u "$tmp/rw-one.w" "$tmp/rw-mid.w"; then
	ok "after the first slice of the pass after the reconfigure, before the jobs' new values, each of $(wc -l <"$tmp/rw-mid.w") sprio rows shows the weights of its values"
else
	ko "after the first slice of the pass after the reconfigure, sprio rows show other weights than their values'"
fi

# basic.conf: Fair Tree, usage of a running job, TRES: the whole report.
sed 1d "$tmp/mf-basic.out" >"$tmp/mf.basic.body"
sed 1d "$tmp/pr-basic.out" >"$tmp/pr.basic.body"
if [ -s "$tmp/mf.basic.body" ] &&
	diff -u "$tmp/mf.basic.body" "$tmp/pr.basic.body"; then
	ok "with basic.conf the whole reports are identical (usage, fair-share, priorities, sprio)"
else
	ko "with basic.conf the reports differ"
fi

distinct=$(awk '/^job / && !/HELD|priority=0$/ { sub(/.*priority=/, ""); print }' \
	"$tmp/pr.out" | sort -u | wc -l)
if [ "$distinct" -ge 4 ]; then
	ok "prism gives $distinct distinct priorities"
else
	ko "prism gives only $distinct distinct priorities"
fi

high=$(sed -n 's/^job 3 part=high .*priority=\([0-9]*\)$/\1/p' "$tmp/pr.out")
low=$(sed -n 's/^job 3 part=low .*priority=\([0-9]*\)$/\1/p' "$tmp/pr.out")
if [ -n "$high" ] && [ -n "$low" ] && [ "$high" -gt "$low" ]; then
	ok "job 3 ranks higher in partition high ($high) than in low ($low)"
else
	ko "job 3: high '$high' does not outrank low '$low'"
fi

held=$(sed -n 's/^job 6 .*priority=\([0-9]*\)$/\1/p' "$tmp/pr.out")
if [ "$held" = 0 ]; then
	ok "held job 6 stays at priority 0"
else
	ko "held job 6 has priority '$held'"
fi

# A bad PriorityParameters stops the plugin from loading, with the reason.
for bad in "policy=lsf|unknown policy 'lsf'" \
	"policy=moab,file=/x|unknown key 'file'" \
	"config=/x|config= needs policy=moab"; do
	value=${bad%%|*}
	want=${bad#*|}
	{ cat "$top_srcdir/tests/harness/basic.conf"
	  echo "PriorityParameters=$value"; } >"$tmp/bad.conf"
	if "$H" --conf "$tmp/bad.conf" --world "$W" --plugin priority/prism \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 \
		>/dev/null 2>"$tmp/bad.err"; then
		ko "PriorityParameters=$value was accepted"
	elif grep -qF "PriorityParameters: $want" "$tmp/bad.err"; then
		ok "PriorityParameters=$value refused: $want"
	else
		ko "PriorityParameters=$value refused without the reason"
		head -5 "$tmp/bad.err"
	fi
done

# --move: what sacctmgr would refuse, the harness refuses (with why).
for args in "physics=chemistry --passes 1|needs --passes 2" \
	"root=physics --passes 2|root cannot move" \
	"nosuch=physics --passes 2|account 'nosuch' is not defined" \
	"physics=root --passes 2|already under" \
	"physics=alice --passes 2|account 'alice' is not defined" \
	"root --passes 2|must be ACCOUNT=PARENT"; do
	want=${args#*|}
	# shellcheck disable=SC2086
	if "$H" --conf "$top_srcdir/tests/harness/basic.conf" --world "$W" \
		--plugin priority/prism --plugindir "$prism_dir:$slurm_dir" \
		--timeout 60 --move ${args%|*} >/dev/null 2>"$tmp/move.err"; then
		ko "--move ${args%|*} was accepted"
	elif grep -qF "$want" "$tmp/move.err"; then
		ok "--move ${args%|*} refused: $want"
	else
		ko "--move ${args%|*} refused without the reason"
		head -5 "$tmp/move.err"
	fi
done

# A clock stepped back between passes (issue 32): the pass after it
# decays nothing and charges nothing (the running job 8 would be charged
# by a pass 300 s later), as multifactor (test-compare.sh's CLOCK sets
# compare the two number for number).
usage_of() { # usage_of NAME ARGS...: every association's raw usage
	n=$1
	shift
	"$H" --conf "$top_srcdir/tests/harness/basic.conf" --world "$W" \
		--plugin priority/prism --plugindir "$prism_dir:$slurm_dir" \
		--timeout 60 --now "$now" --last-ran $((now - 600)) --digits 15 \
		"$@" 2>"$tmp/$n.err" |
		sed -n 's/^assoc \([^ ]*\) .*\(usage_raw=[^ ]*\).*/\1 \2/p' >"$tmp/$n.usage"
	[ -s "$tmp/$n.usage" ] || { ko "no association rows with $*"; head -5 "$tmp/$n.err"; }
}
usage_of one --passes 1
usage_of back --passes 2 --calc-period 1 --advance -3600
usage_of fwd --passes 2 --calc-period 1 --advance 300
if cmp -s "$tmp/one.usage" "$tmp/back.usage" &&
	! cmp -s "$tmp/one.usage" "$tmp/fwd.usage"; then
	ok "a pass after the clock stepped back an hour charged and decayed nothing (one 300 s later did)"
else
	ko "a clock stepped back: usage after the second pass differs from the first's (or a forward pass did not change it)"
	diff "$tmp/one.usage" "$tmp/back.usage" | head -5
fi
for bad in 0 300,x 300, -700000; do
	if "$H" --conf "$top_srcdir/tests/harness/basic.conf" --world "$W" \
		--advance "$bad" >/dev/null 2>"$tmp/adv.err"; then
		ko "--advance $bad was accepted"
	elif grep -q 'nonzero number of seconds within a week' "$tmp/adv.err"; then
		ok "--advance $bad refused with the rule"
	else
		ko "--advance $bad refused without the rule"
		head -3 "$tmp/adv.err"
	fi
done

# A running job that ends during a pass, after the pass charged it: job 8
# ends 30 s after the pass's time, in the pass's thread right after its
# first slice lets the job lock go (--end-job 8@mid+30), as a job
# completion RPC does between two slices; slurmctld tells the plugin of a
# job's end when AccountingStorageEnforce has limits. It is charged from
# the pass's time, not again from the last pass's (which charged the
# pass's 600 s twice and released its run-seconds twice, logging an
# underflow), so every association's and QOS's usage and run-seconds are
# multifactor's when the job ends 30 s after its pass (--end-job 8+30;
# multifactor holds the job lock from its charge to the end of its pass).
# And a job that ends during a pass before the pass charged it (right
# before the pass first asks for the job lock, --end-job 8@before+30) is
# charged from the last pass's end, as multifactor when the job ends at
# the same point of its pass (after its decay, before its charge): the
# pass then passes it by.
ended_usage() { # ended_usage NAME CONF PLUGIN ARGS...
	n=$1 c=$2 p=$3
	shift 3
	"$H" --conf "$c" --world "$W" --plugin "$p" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 --now "$now" \
		--last-ran $((now - 600)) --digits 15 "$@" 2>"$tmp/$n.err" |
		sed -n 's/^\(assoc\|qos\) \([^ ]*\) .*\(usage_raw=[^ ]*\).*\( run_secs=[^ ]*\)$/\1 \2 \3\4/p' \
		>"$tmp/$n.usage"
	[ -s "$tmp/$n.usage" ] || { ko "no usage rows with $p $*"; head -5 "$tmp/$n.err"; }
}
# ended_check GOT REF OTHER WHAT: GOT's usage equals REF's and differs
# from OTHER's, and GOT logged no underflow
ended_check() {
	if cmp -s "$tmp/$2.usage" "$tmp/$1.usage" &&
		! cmp -s "$tmp/$3.usage" "$tmp/$1.usage" &&
		! grep -q underflow "$tmp/$1.err"; then
		ok "$4"
	else
		ko "$4: not so (usage differs from $2's, or equals $3's, or an underflow)"
		diff "$tmp/$2.usage" "$tmp/$1.usage" | head -8
		grep underflow "$tmp/$1.err" | head -2
	fi
}
{ cat "$top_srcdir/tests/harness/basic.conf"
  echo AccountingStorageEnforce=limits; } >"$tmp/limits.conf"
{ cat "$tmp/limits.conf"; echo PriorityFlags=NO_FAIR_TREE; } >"$tmp/classic.conf"
for algo in fairtree classic; do
	c=$tmp/limits.conf
	[ "$algo" = classic ] && c=$tmp/classic.conf
	ended_usage "mf-$algo" "$c" priority/multifactor --end-job 8+30
	ended_usage "mid-$algo" "$c" priority/prism --end-job 8@mid+30
	ended_usage "none-$algo" "$c" priority/prism
	ended_check "mid-$algo" "mf-$algo" "none-$algo" \
		"$algo: a job that ends during a pass the pass charged is charged from the pass's time, as multifactor after its pass"
	ended_usage "mf-before-$algo" "$c" priority/multifactor --end-job 8@before+30
	ended_usage "before-$algo" "$c" priority/prism --end-job 8@before+30
	ended_check "before-$algo" "mf-before-$algo" "mid-$algo" \
		"$algo: a job that ends during a pass before the pass charged it is charged from the last pass's end, as multifactor"
done
# Fair Tree's decay is deferred (each association decayed when a charge
# first reaches it, the others in the fair-share walk), its marks kept by
# association id: an id too large for them (a site's slurmdbd after years
# of associations) has every association decayed at once, when a charge
# meets it (dave's running job 8), none twice.
sed 's/^assoc dave@chemistry .*/& id=200000000/' "$W" >"$tmp/bigid.world"
{ cat "$tmp/limits.conf"; echo DebugFlags=Priority; } >"$tmp/debug.conf"
Wbasic=$W W=$tmp/bigid.world
ended_usage mf-bigid "$tmp/limits.conf" priority/multifactor
ended_usage bigid "$tmp/debug.conf" priority/prism -v -v
W=$Wbasic
if cmp -s "$tmp/mf-bigid.usage" "$tmp/bigid.usage" &&
	grep -q 'id 200000000 too large to defer the decay' "$tmp/bigid.err"; then
	ok "an association id too large to defer the decay: every association decayed at once, as multifactor"
else
	ko "association id 200000000: usage differs from multifactor's, or the fallback was not taken"
	diff "$tmp/mf-bigid.usage" "$tmp/bigid.usage" | head -8
fi
for bad in 8+0 8@end 8@mid@before 0 1; do
	if "$H" --conf "$top_srcdir/tests/harness/basic.conf" --world "$W" \
		--now "$now" --end-job "$bad" >/dev/null 2>"$tmp/end.err"; then
		ko "--end-job $bad was accepted"
	elif grep -q -e 'must be ID\[@mid|@before\]\[+SEC\]' -e 'not a running job' "$tmp/end.err"; then
		ok "--end-job $bad refused with the rule"
	else
		ko "--end-job $bad refused without the rule"
		head -3 "$tmp/end.err"
	fi
done

cp "$tmp/pr.out" "$tmp/pr.first"
run pr "$conf" priority/prism
if cmp -s "$tmp/pr.first" "$tmp/pr.out"; then
	ok "the report is reproducible"
else
	ko "two runs of the same world differ"
	diff "$tmp/pr.first" "$tmp/pr.out"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
