#!/bin/sh
# test-compare.sh: run priority/multifactor (the installed Slurm's: Debian
# 12's 22.05.8 on the host, 24.11.5 through test-compare-root.sh) and
# priority/prism through prism-harness on a big generated world
# (gen-world.sh: >10,000 associations, 10,000 jobs) once per PriorityFlags
# set (and one set enforcing limits), and compare the two reports value
# by value:
#   - job priorities (job_ptr->priority and every priority_array entry)
#     exactly (Prism adds the terms in multifactor's order: the same
#     doubles, the same integers);
#   - sprio factor rows (age, assoc, fairshare, jobsize, partition, qos,
#     every TRES, site, nice, direct; on 24.11 account) to 1e-6 relative;
#   - association fields usage_raw, usage_norm, usage_efctv, fs_factor,
#     level_fs, shares_norm to 1e-6 relative, run_secs exactly;
#   - QOS rows (usage_raw, norm_priority, ...; run_secs exactly);
#   - the same rows on both sides (same jobs, partitions, associations).
# Values are printed with 15 significant digits (--digits 15), so 1e-6
# relative is a real bound; "equal" is |a-b| <= 1e-6*max(|a|,|b|) or
# |a-b| <= 1e-12 (values that are 0 on one side); noval/inf/nan only
# equal themselves.
#
# Every run starts from a saved state whose last recalculation was
# LAST_RAN_AGO seconds before the frozen now (--last-ran), so the one
# recalculation pass of the run decays usage, charges running jobs and
# recomputes priorities like a controller in steady state -- also without
# Fair Tree, where a first pass after a start from empty state does not
# recompute priorities and a frozen clock gives later passes no elapsed
# time.  The "default-fresh" set covers the start from empty state (Fair
# Tree only: that first pass computes everything).  The "MOVED" set
# (Fair Tree) runs three passes, 300 s apart, and between the first and
# the second moves an account to another parent (prism-harness --move, as
# after sacctmgr modify account ... set parent=...): the tree keeps its
# number of associations but not its shape, so Prism's second pass cannot
# rank from the first one's order; its log must say it ranked from list
# order (DebugFlags=Priority, once), and the third pass ranks from the
# second's again.  The "CLOCK" sets (Fair Tree, and classic fair-share in
# CLOCK-classic; PriorityUsageResetPeriod=DAILY) run four passes while
# the wall clock steps a day forward, then an hour back, then 300 s on:
# decay, charges, the usage reset and ages must stay multifactor's, and
# no usage may be negative.
#
# Environment: COMPARE_SETS (names, default all), COMPARE_SKIP (names left
# out of those), COMPARE_SEED (1),
# COMPARE_USERS (10000), COMPARE_JOBS (10000), COMPARE_SHOW (differences
# printed per set, 8), COMPARE_KEEP (directory to keep worlds, confs and
# reports in), COMPARE_JOBS_PARALLEL (1: run both plugins at once, the
# default; 0: one after the other), COMPARE_MULTIQOS (0: percentage of
# jobs asking for several QOS, gen-world.sh -q; Slurm 24.11 only: each
# set must then show such jobs).  On Slurm 24.11 the report labels every
# priority-array entry and sprio row with its QOS as well ("qos=NAME"
# after "part=P"), and rows are matched on (job, partition, QOS).
# COMPARE_HARNESS_ARGS: more options for prism-harness (both plugins).
# tests/harness/test-compare-root.sh runs this against Slurm 24.11 in a
# Debian 13 root.
# Run times are printed for information only; nothing checks them.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
here="$top_srcdir/tests/harness"
H="$top_builddir/tests/harness/prism-harness"
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
prism_dir="$top_builddir/src/plugin/.libs"
now=1763700000
last_ran_ago=600
seed=${COMPARE_SEED:-1}
nusers=${COMPARE_USERS:-10000}
njobs=${COMPARE_JOBS:-10000}
show=${COMPARE_SHOW:-8}
multiqos=${COMPARE_MULTIQOS:-0}
parallel=${COMPARE_JOBS_PARALLEL:-1}
all_sets="default default-fresh MOVED CLOCK CLOCK-classic NO_FAIR_TREE DEPTH_OBLIVIOUS SMALL_RELATIVE_TO_TIME NO_NORMAL_ALL CALCULATE_RUNNING INCR_ONLY MAX_TRES ENFORCE_LIMITS"
sets=${COMPARE_SETS:-$all_sets}
if [ -n "${COMPARE_SKIP:-}" ]; then
	kept=""
	for s in $sets; do
		case " $COMPARE_SKIP " in
		*" $s "*) echo "SKIP: $s (COMPARE_SKIP)" ;;
		*) kept="$kept $s" ;;
		esac
	done
	sets=$kept
fi

if [ -n "${COMPARE_KEEP:-}" ]; then
	tmp=$COMPARE_KEEP
	mkdir -p "$tmp" || exit 1
else
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
fi
pass=0
fail=0

# Wall-clock milliseconds (information only).
ms() {
	t=$(date +%s%N 2>/dev/null)
	case $t in
	*N|'') echo "$(date +%s)000" ;;
	*) echo "$t" | cut -c1-13 ;;
	esac
}
secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f s", (b - a) / 1000 }'
}

# PriorityFlags of a set
flags_of() {
	case $1 in
	default|default-fresh|MOVED|CLOCK|ENFORCE_LIMITS) echo "" ;;
	CLOCK-classic) echo "NO_FAIR_TREE" ;;
	DEPTH_OBLIVIOUS) echo "NO_FAIR_TREE,DEPTH_OBLIVIOUS" ;;
	*) echo "$1" ;;
	esac
}

# Other slurm.conf lines of a set.  ENFORCE_LIMITS: slurmctld counts the
# run-seconds of running jobs (GrpTRESRunMins, MaxTRESRunMinsPerUser...)
# and the plugin drains them; the reports then show those counters
# (run_secs= on assoc and qos rows, and on Slurm 24.11 qos-used rows per
# QOS and account or user).
conf_of() {
	case $1 in
	ENFORCE_LIMITS) echo "AccountingStorageEnforce=limits" ;;
	MOVED) echo "DebugFlags=Priority" ;;
	CLOCK*) echo "PriorityUsageResetPeriod=DAILY" ;;
	esac
}

# mkconf SET > slurm.conf: tests/harness/big.conf with the set's
# PriorityFlags and other lines.
mkconf() {
	cat "$top_srcdir/tests/harness/big.conf"
	f=$(flags_of "$1")
	if [ -n "$f" ]; then
		echo "PriorityFlags=$f"
	fi
	conf_of "$1"
}

# run OUT CONF PLUGIN [--last-ran EPOCH]: report in OUT, time in OUT.time,
# exit status in OUT.rc
run() {
	r_out=$1 r_conf=$2 r_plugin=$3
	shift 3
	t0=$(ms)
	"$H" --conf "$r_conf" --world "$tmp/big.world" --plugin "$r_plugin" \
		--plugindir "$prism_dir:$slurm_dir" --now "$now" \
		--digits 15 --timeout 120 "$@" ${COMPARE_HARNESS_ARGS:-} \
		>"$r_out" 2>"$r_out.err"
	echo $? >"$r_out.rc"
	t1=$(ms)
	secs "$t0" "$t1" >"$r_out.time"
}

# compare A B: compare.awk, prints a summary line then differences; exit 1
# on any (in the C locale: the reports are ASCII, and gawk's multibyte
# handling in C.UTF-8 cost a fifth of this test's CPU)
compare() {
	LC_ALL=C awk -v show="$show" -f "$here/compare.awk" "$1" "$2"
}

# ---- the world ----
t0=$(ms)
if ! sh "$here/gen-world.sh" -s "$seed" -u "$nusers" -j "$njobs" -q "$multiqos" >"$tmp/big.world"; then
	echo "FAIL: gen-world.sh"
	exit 1
fi
t1=$(ms)
echo "world: gen-world.sh -s $seed -u $nusers -j $njobs -q $multiqos: $(grep -c '^assoc' "$tmp/big.world") associations, $(grep -c '^job' "$tmp/big.world") jobs ($(secs "$t0" "$t1"))"
sed -n 's/^# stats /world: /p' "$tmp/big.world"
# every feature the world must exercise is present at least once
missing=$(sed -n 's/^# stats //p' "$tmp/big.world" | tr ' ' '\n' | grep '=0$')
if [ -n "$missing" ]; then
	echo "FAIL: the world lacks:" $missing
	fail=$((fail + 1))
fi

last_ran=$((now - last_ran_ago))
for set in $sets; do
	conf="$tmp/$set.conf"
	mkconf "$set" >"$conf"
	case $set in
	default-fresh) extra="" ;;
	# div1-dep1-grp1 (level 3) and div2 (level 1): in every gen-world.sh world
	MOVED) extra="--last-ran $last_ran --passes 3 --calc-period 1 --advance 300 --move div1-dep1-grp1=div2 -v -v" ;;
	# the wall clock steps a day forward (across the daily usage reset),
	# then an hour back, then goes on (issue 32: clock steps)
	CLOCK*) extra="--last-ran $last_ran --passes 4 --calc-period 1 --advance 86400,-3600,300" ;;
	*) extra="--last-ran $last_ran" ;;
	esac
	mf="$tmp/$set.multifactor.out"
	pr="$tmp/$set.prism.out"
	if [ "$parallel" = 1 ]; then
		run "$mf" "$conf" priority/multifactor $extra &
		run "$pr" "$conf" priority/prism $extra &
		wait
	else
		run "$mf" "$conf" priority/multifactor $extra
		run "$pr" "$conf" priority/prism $extra
	fi
	times="multifactor $(cat "$mf.time"), prism $(cat "$pr.time")"
	f=$(flags_of "$set")
	c=$(conf_of "$set")
	label="$set (PriorityFlags=${f:-none}${c:+, $c}, ${extra:-empty state})"
	rc_mf=$(cat "$mf.rc") rc_pr=$(cat "$pr.rc")
	if [ "$rc_mf" != 0 ] || [ "$rc_pr" != 0 ]; then
		echo "FAIL: $label: harness exit status multifactor $rc_mf, prism $rc_pr [$times]"
		for f in "$mf" "$pr"; do
			[ -s "$f.err" ] && sed -n '1,5s/^/    /p' "$f.err"
		done
		fail=$((fail + 1))
		continue
	fi
	compare "$mf" "$pr" >"$tmp/$set.cmp"
	rc=$?
	summary=$(sed -n 's/^SUMMARY //p' "$tmp/$set.cmp")
	if [ "$multiqos" -gt 0 ]; then
		# jobs with entries for two or more QOS, and their entries
		mq=$(awk '$1 == "job" && $3 != "part=*" && $4 ~ /^qos=/ {
				k = $2 SUBSEP $4
				if (!(k in seen)) { seen[k] = 1; n[$2]++ }
				e[$2]++
			}
			END { for (j in n) if (n[j] > 1) { jobs++; entries += e[j] }
			      printf "%d %d", jobs, entries }' "$pr")
		summary="$summary; multi-QOS: ${mq% *} jobs, ${mq#* } priority entries"
		if [ "${mq% *}" = 0 ]; then
			summary="$summary (none: the world asked for some)"
			rc=1
		fi
	fi
	if [ "$set" = MOVED ]; then
		moved=$(grep -c 'moves from div1-dep1 to div2' "$pr.err")
		shape=$(grep -c 'Fair Tree: the tree changed shape' "$pr.err")
		summary="$summary; moved $moved time(s), Prism ranked from list order $shape time(s)"
		if [ "$moved" != 1 ] || [ "$shape" != 1 ]; then
			summary="$summary (want 1 and 1)"
			rc=1
		fi
	fi
	case $set in
	CLOCK*)
		neg=$(grep -c 'usage_raw=-' "$pr")
		summary="$summary; $neg negative usage values"
		[ "$neg" = 0 ] || rc=1
		;;
	esac
	if [ "$rc" = 0 ]; then
		echo "PASS: $label: $summary agree [$times]"
		pass=$((pass + 1))
	else
		echo "FAIL: $label: $summary compared [$times]"
		grep -v '^SUMMARY ' "$tmp/$set.cmp"
		fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
