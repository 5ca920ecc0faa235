#!/bin/sh
# tests/bench/cpu-valgrind.sh - CPU of one steady recalculation pass,
# priority/prism vs priority/multifactor, counted by valgrind (issue 34,
# "CPU per pass, measured without noise").
#
# Timings on a shared VM move +-40%; valgrind's counts do not depend on
# load.  For every world (generated once by tests/harness/gen-world.sh),
# algorithm (Fair Tree, classic = PriorityFlags=NO_FAIR_TREE) and plugin
# it runs the fake controller (tests/harness/prism-harness) under
#   valgrind --tool=cachegrind --cache-sim=yes
# twice, the same way as tests/bench/run.sh (--now 1763700000 --last-ran
# now-600 --calc-period 1 --advance 300) but with --passes 1 and with
# --passes 2.  Valgrind 3.19 has no cachegrind client requests to switch
# counting on and off, so the second (steady) pass's cost is the
# difference of the two runs' totals (all threads: cachegrind counts
# every thread, valgrind runs them one at a time):
#   Ir           instructions executed
#   LL misses    DLmr + DLmw: simulated last-level cache data misses
#                (read + write)
# both less what the fake controller's own code did (see counts below;
# shown in a column of its own).
# The first pass, which also allocates (Prism's fair-share arrays), is
# in both runs and cancels out.  Prints a markdown table on stdout: one
# row per (jobs, assocs, algorithm, plugin), a ratio row prism /
# multifactor, and the wall time of each valgrind run (information
# only; progress on stderr).  A run that fails, or a difference that is
# not positive, is shown as such, never as a number.  Exit status 0 when
# every configuration gave positive differences.  See README.
#
# BENCH_MEASURE=sprio counts sprio's call instead (issue 34, part 3):
# one run per plugin with --passes 1 and --bench (the harness then asks
# for every job's factors as slurmctld does for sprio, after the pass),
# under valgrind --tool=callgrind --cache-sim=yes, collecting only inside
# the plugin's priority_p_get_priority_factors_list() (--collect-atstart=no
# --toggle-collect): the plugin's whole answer, its list and rows
# included, the locks slurmctld takes around it and the freeing of the
# list afterwards not (the same for both plugins: Slurm's list destructor
# over the same rows).
#
# Environment:
#   BENCH_SIZES    list of JOBSxASSOCS (k = 1000, M = 1000000: nominal
#                  pending jobs, user associations); default
#                  "10kx10k 10kx100k 100kx10k" (~1 h on a 2-vCPU VM).
#                  "100kx100k 1Mx10k" work too but are slow under
#                  valgrind (each run ~30-50x the native time; 1M jobs
#                  needs several GB of RAM per process); "small": 10kx10k
#   BENCH_ALGOS    "fairtree classic" (default)
#   BENCH_SEED     gen-world.sh seed (1)
#   BENCH_KEEP     directory to keep worlds, confs, cachegrind files,
#                  reports and valgrind logs (one subdirectory per size)
#   BENCH_TIMEOUT  harness --timeout per phase (3600 s, the most it takes:
#                  valgrind is slow)
#   BENCH_LL       cachegrind --LL=SIZE,ASSOC,LINE (e.g. 33554432,16,64);
#                  default: cachegrind's own choice from the CPU (printed)
#   BENCH_REPORT   harness --report: none (default) or jobs
#   BENCH_NICE     nice level of the valgrind runs (19)
#   BENCH_TRIES    runs of a (world, algorithm, plugin) pair when one of
#                  them did not do exactly 1 and 2 passes (2; see passratio)
#   BENCH_BUILD    1 (default): make the harness and the plugin first
#   BENCH_MEASURE  pass (default): a steady pass; sprio: sprio's call
#   SLURM_LIBDIR   Slurm's plugin directory (default: configure's, see
#                  lib.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${top_builddir:-$(cd "$here/../.." && pwd)}
src=${top_srcdir:-$top}
H="$top/tests/harness/prism-harness"
prism_dir="$top/src/plugin/.libs"
now=1763700000
last_ran=$((now - 600))
seed=${BENCH_SEED:-1}
algos=${BENCH_ALGOS:-fairtree classic}
timeout=${BENCH_TIMEOUT:-3600}
report=${BENCH_REPORT:-none}
nicelevel=${BENCH_NICE:-19}
tries=${BENCH_TRIES:-2}
measure=${BENCH_MEASURE:-pass}

case ${BENCH_SIZES:-default} in
default) sizes="10kx10k 10kx100k 100kx10k" ;;
small) sizes="10kx10k" ;;
*) sizes=$BENCH_SIZES ;;
esac
case $report in
none | jobs) ;;
*) echo "cpu-valgrind.sh: BENCH_REPORT must be none or jobs" >&2; exit 2 ;;
esac
case $measure in
pass | sprio) ;;
*) echo "cpu-valgrind.sh: BENCH_MEASURE must be pass or sprio" >&2; exit 2 ;;
esac

if ! command -v valgrind >/dev/null 2>&1; then
	echo "cpu-valgrind.sh: valgrind not found" >&2
	exit 1
fi
if [ "${BENCH_BUILD:-1}" = 1 ]; then
	make -s -C "$top" tests/harness/prism-harness \
		src/plugin/priority_prism.la >&2 || exit 1
fi
if [ ! -x "$H" ] || [ ! -f "$prism_dir/priority_prism.so" ]; then
	echo "cpu-valgrind.sh: build first (make; make tests/harness/prism-harness)" >&2
	exit 1
fi

prog=${0##*/}
# shellcheck source=tests/bench/lib.sh
. "$here/lib.sh"

ll_opt=""
if [ -n "${BENCH_LL:-}" ]; then
	ll_opt="--LL=$BENCH_LL"
fi


# vgrun NAME CONF PLUGIN PASSES: NAME.cg, NAME.out, NAME.err; prints the
# run's wall seconds on stdout; status 1 when the run failed
vgrun() {
	v_name=$1 v_conf=$2 v_plugin=$3 v_passes=$4
	v_t0=$(date +%s)
	# shellcheck disable=SC2086 # $ll_opt: empty or one word
	nice -n "$nicelevel" valgrind --tool=cachegrind --cache-sim=yes \
		$ll_opt --cachegrind-out-file="$v_name.cg" \
		"$H" --conf "$v_conf" --world "$d/world" --plugin "$v_plugin" \
		--plugindir "$prism_dir:$slurm_dir" --now "$now" \
		--timeout "$timeout" --last-ran "$last_ran" \
		--passes "$v_passes" --calc-period 1 --advance 300 \
		--report "$report" >"$v_name.out" 2>"$v_name.err"
	v_rc=$?
	secs_since "$v_t0"
	if [ "$v_rc" != 0 ] || ! grep -q '^summary:' "$v_name.cg" 2>/dev/null; then
		echo "cpu-valgrind.sh: $v_plugin --passes $v_passes failed (exit $v_rc); see $v_name.err:" >&2
		grep -v '^==[0-9]*==' "$v_name.err" | sed -n '1,5s/^/    /p' >&2
		return 1
	fi
	return 0
}

# sprio_run NAME CONF PLUGIN: NAME.cg (callgrind, only inside the
# plugin's sprio call), NAME.bench, NAME.out, NAME.err; prints the run's
# wall seconds; status 1 when the run failed or sprio gave no row
sprio_run() {
	v_name=$1 v_conf=$2 v_plugin=$3
	v_t0=$(date +%s)
	# shellcheck disable=SC2086 # $ll_opt: empty or one word
	nice -n "$nicelevel" valgrind --tool=callgrind --cache-sim=yes \
		$ll_opt --collect-atstart=no \
		--toggle-collect=priority_p_get_priority_factors_list \
		--callgrind-out-file="$v_name.cg" \
		"$H" --conf "$v_conf" --world "$d/world" --plugin "$v_plugin" \
		--plugindir "$prism_dir:$slurm_dir" --now "$now" \
		--timeout "$timeout" --last-ran "$last_ran" \
		--passes 1 --calc-period 1 --advance 300 --report none \
		--bench "$v_name.bench" >"$v_name.out" 2>"$v_name.err"
	v_rc=$?
	secs_since "$v_t0"
	if [ "$v_rc" != 0 ] || ! grep -q '^summary:' "$v_name.cg" 2>/dev/null ||
		! awk '$1 == "sprio_rows" && $2 > 0 { ok = 1 } END { exit !ok }' \
			"$v_name.bench"; then
		echo "cpu-valgrind.sh: $v_plugin sprio run failed (exit $v_rc); see $v_name.err:" >&2
		grep -v '^==[0-9]*==' "$v_name.err" | sed -n '1,5s/^/    /p' >&2
		return 1
	fi
	return 0
}

# counts FILE.cg -> "Ir DLmr+DLmw DLmr DLmw HIr": the summary line's, by
# the names of the events line, less what the fake controller's own code
# (tests/harness/*.c) did; HIr: the instructions left out. The harness
# stands in for slurmctld (its locks, its gate) and wraps assoc_mgr_lock()
# and assoc_mgr_unlock() to time holds for --bench: a wrapper a real
# slurmctld does not have, and multifactor locks the association manager
# once a job (about 4% of its steady pass at 10k jobs), Prism once a
# slice.  What the wrapped functions themselves do (Slurm's) still counts,
# and so does the harness's find_job_record(), the same lookup as
# slurmctld's (Prism's Fair Tree walk finds its jobs by id).
# Cachegrind files only (fl= names every file in full).
counts() {
	awk '
	/^events:/ { for (i = 2; i <= NF; i++) { col[$i] = i; name[i] = $i } }
	/^fl=/ { inh = ($0 ~ /\/tests\/harness\//); inf = inh; next }
	/^fn=/ { inf = inh && ($0 != "fn=find_job_record"); next }
	inf && /^[0-9]/ { for (i = 2; i <= NF; i++) h[name[i]] += $i }
	/^summary:/ { for (i = 2; i <= NF; i++) v[i] = $i }
	END {
		if (!("Ir" in col) || !("DLmr" in col) || !("DLmw" in col)) exit 1
		r = v[col["DLmr"]] - h["DLmr"]; w = v[col["DLmw"]] - h["DLmw"]
		printf "%.0f %.0f %.0f %.0f %.0f\n", v[col["Ir"]] - h["Ir"],
			r + w, r, w, h["Ir"]
	}' "$1"
}

# cg_totals FILE -> "Ir DLmr+DLmw DLmr DLmw" of a callgrind file's
# summary line (collected only inside the toggled function: the harness's
# code is not in it)
cg_totals() {
	awk '
	/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
	/^summary:/ { for (i = 2; i <= NF; i++) v[i] = $i }
	END {
		if (!("Ir" in col) || !("DLmr" in col) || !("DLmw" in col)) exit 1
		printf "%s %s %s %s\n", v[col["Ir"]],
			v[col["DLmr"]] + v[col["DLmw"]], v[col["DLmr"]], v[col["DLmw"]]
	}' "$1"
}

# sub2 "A1 B1 C1 D1" "A2 B2 C2 D2" -> "A2-A1 B2-B1 ...", or "bad" when
# Ir or DLmr+DLmw did not grow.  DLmr or DLmw alone may go down by a
# few: two runs' counts differ a little (thread switches, addresses),
# which matters only where a pass misses almost nothing (a huge LL)
sub2() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " "); out = ""
		for (i = 1; i <= n; i++) {
			dd = y[i] - x[i]
			if (i <= 2 && dd <= 0) { print "bad"; exit }
			out = out (i > 1 ? " " : "") sprintf("%.0f", dd)
		}
		print out
	}'
}

# passratio PLUGIN ONE.cg TWO.cg: the Ir of a function that runs once
# per pass over the same jobs and associations (multifactor:
# decay_apply_new_usage, prism: prism_usage_rec_decay) in the --passes 2
# run over the --passes 1 run: "2.000" when the runs did 1 and 2 passes.
# With --calc-period 1, a slow run (valgrind, a loaded machine) could
# start one more pass between the report and priority_g_fini(): the
# harness opened its gate for fini, and a thread already waiting for the
# next pass got in first. Since e34310f the harness lets such a thread
# sleep until fini() wakes it; the check stays as a guard. Such a pass
# would be a steady pass like the others (the fake clock moved on at the
# end of the one before), and only the one at fini could be added: the
# --passes 1 run did 1 or 2 passes, the --passes 2 run 2 or 3, and the
# ratio says which (see passes).
passratio() {
	case $1 in
	multifactor) p_pat='^decay_apply_new_usage$' ;;
	*) p_pat='^prism_usage_rec_decay$' ;;
	esac
	awk -v pat="$p_pat" '
	FNR == 1 { f++ }
	/^fn=/ { fn = substr($0, 4); next }
	/^[0-9]/ && fn ~ pat { ir[f] += $2 }
	END { printf "%.3f\n", ir[1] ? ir[2] / ir[1] : -1 }' "$2" "$3"
}

# passes RATIO -> "A B": the passes of the --passes 1 and --passes 2 runs
# whose per-pass work has RATIO; nothing when no such pair (or no pass
# between them)
passes() {
	case $1 in
	2.000) echo "1 2" ;;
	1.500) echo "2 3" ;;
	3.000) echo "1 3" ;;
	esac
}

# per_pass "D1 D2 ..." K -> each count divided by K (K steady passes)
per_pass() {
	awk -v a="$1" -v k="$2" 'BEGIN {
		n = split(a, x, " "); out = ""
		for (i = 1; i <= n; i++)
			out = out (i > 1 ? " " : "") sprintf("%.0f", x[i] / k)
		print out
	}'
}

# thousands separators
th() {
	awk -v n="$1" 'BEGIN {
		sg = n < 0 ? "-" : ""; s = sprintf("%.0f", n < 0 ? -n : n); o = ""
		while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }
		print sg s o
	}'
}

start=$(date +%s)
failed=0
ll_desc=""
if [ "$measure" = sprio ]; then
	echo "# prism vs multifactor, sprio's call under callgrind: tests/bench/cpu-valgrind.sh (BENCH_MEASURE=sprio, BENCH_SIZES=${BENCH_SIZES:-default}, BENCH_ALGOS=$algos, seed $seed${BENCH_LL:+, BENCH_LL=$BENCH_LL})"
	echo
	echo "Counts inside priority_p_get_priority_factors_list() after one pass, every job's factors asked for as root. LL misses = DLmr + DLmw."
	echo
	echo "| jobs (pending) | assocs | algo | plugin | Ir (sprio) | LL data misses (sprio) | DLmr | DLmw | rows | valgrind s |"
	echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|"
else
	echo "# prism vs multifactor, one steady pass under cachegrind: tests/bench/cpu-valgrind.sh (BENCH_SIZES=${BENCH_SIZES:-default}, BENCH_ALGOS=$algos, seed $seed${BENCH_LL:+, BENCH_LL=$BENCH_LL})"
	echo
	echo "Steady pass = (counts(--passes 2) - counts(--passes 1)) / the passes between them (see README), all threads, less the fake controller's own code (tests/harness: its locks and its assoc_mgr_lock wrapper, shown apart). LL misses = DLmr + DLmw."
	echo
	echo "| jobs (pending) | assocs | algo | plugin | Ir (steady pass) | LL data misses (steady pass) | DLmr | DLmw | fake controller's Ir, left out (steady pass) | Ir, --passes 1 run | valgrind s (1 pass / 2 passes) |"
	echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
fi
for size in $sizes; do
	jl=${size%x*} al=${size#*x}
	t0=$(date +%s)
	d="$tmp/$size"
	make_world "$size" "$d" "$seed"
	npend=$(awk '$1 == "job" && !/ state=R/ { n++ } END { print n + 0 }' "$d/world")
	nassoc=$(awk '$1 == "assoc" { n++ } END { print n + 0 }' "$d/world")
	for algo in $algos; do
		flags=$(algo_flags "$algo") || exit 2
		mkconf "$flags" >"$d/$algo.conf"
		mf="" pr=""
		for plugin in multifactor prism; do
			n="$d/$algo.$plugin"
			lbl="| $jl ($npend) | $al ($nassoc) | $algo | $plugin"
			if [ "$measure" = sprio ]; then
				echo "cpu-valgrind.sh:   $size $algo $plugin sprio" >&2
				if ! s1=$(sprio_run "$n.sprio" "$d/$algo.conf" "priority/$plugin") ||
					! c1=$(cg_totals "$n.sprio.cg"); then
					echo "$lbl | FAILED | - | - | - | - | ${s1:-} |"
					failed=$((failed + 1))
					continue
				fi
				rows=$(awk '$1 == "sprio_rows" { print $2 }' "$n.sprio.bench")
				[ -n "$ll_desc" ] ||
					ll_desc=$(sed -n 's/^desc: LL cache: *//p' "$n.sprio.cg")
				# shellcheck disable=SC2086 # split the four counts
				set -- $c1
				echo "$lbl | $(th "$1") | $(th "$2") | $(th "$3") | $(th "$4") | $(th "$rows") | $s1 |"
				if [ "$plugin" = multifactor ]; then mf=$c1; else pr=$c1; fi
				[ -n "${BENCH_KEEP:-}" ] || rm -f "$n".sprio.out
				continue
			fi
			try=1
			while :; do
				echo "cpu-valgrind.sh:   $size $algo $plugin --passes 1" >&2
				s1=$(vgrun "$n.p1" "$d/$algo.conf" "priority/$plugin" 1)
				ok1=$?
				s2="-" ok2=1 pr2=""
				if [ "$ok1" = 0 ]; then
					echo "cpu-valgrind.sh:   $size $algo $plugin --passes 2 (1 pass: $s1 s)" >&2
					s2=$(vgrun "$n.p2" "$d/$algo.conf" "priority/$plugin" 2)
					ok2=$?
				fi
				if [ "$ok1" = 0 ] && [ "$ok2" = 0 ]; then
					pr2=$(passratio "$plugin" "$n.p1.cg" "$n.p2.cg")
				fi
				[ -z "$pr2" ] || [ -n "$(passes "$pr2")" ] && break
				echo "cpu-valgrind.sh:   $size $algo $plugin: the runs did not do one pass and more (per-pass work ratio $pr2)" >&2
				[ "$try" -lt "$tries" ] || break
				try=$((try + 1))
			done
			if [ -z "$ll_desc" ] && [ -f "$n.p1.cg" ]; then
				ll_desc=$(sed -n 's/^desc: LL cache: *//p' "$n.p1.cg")
				# what cachegrind read from the CPU, when it changed it
				ll_cpu=$(sed -n 's/.*warning: specified LL cache: *//p' "$n.p1.err" | head -n 1)
				[ -z "$ll_cpu" ] || ll_desc="$ll_desc (the CPU reported: $ll_cpu)"
			fi
			if [ "$ok1" != 0 ] || [ "$ok2" != 0 ]; then
				if [ "$ok1" != 0 ]; then what="--passes 1"; else what="--passes 2"; fi
				echo "$lbl | FAILED ($what run) | - | - | - | - | - | $s1 / $s2 |"
				failed=$((failed + 1))
				continue
			fi
			if ! c1=$(counts "$n.p1.cg") || ! c2=$(counts "$n.p2.cg"); then
				echo "$lbl | FAILED (no Ir/DLmr/DLmw in cachegrind file) | - | - | - | - | - | $s1 / $s2 |"
				failed=$((failed + 1))
				continue
			fi
			pp=$(passes "$pr2")
			if [ -z "$pp" ]; then
				echo "$lbl | PASSES UNKNOWN (per-pass work, --passes 2 run / --passes 1 run: $pr2) | - | - | - | - | - | $s1 / $s2 |"
				failed=$((failed + 1))
				continue
			fi
			diff=$(sub2 "$c1" "$c2")
			if [ "$diff" = bad ]; then
				echo "$lbl | NOT POSITIVE (1 pass: $c1; 2 passes: $c2) | - | - | - | - | - | $s1 / $s2 |"
				failed=$((failed + 1))
				continue
			fi
			# shellcheck disable=SC2086 # "A B": the two runs' passes
			set -- $pp
			pa=$1 pb=$2
			diff=$(per_pass "$diff" $((pb - pa)))
			# shellcheck disable=SC2086 # split the counts
			set -- $diff
			echo "$lbl | $(th "$1") | $(th "$2") | $(th "$3") | $(th "$4") | $(th "$5") | $(th "${c1%% *}") | $s1 / $s2 (passes $pa / $pb) |"
			if [ "$plugin" = multifactor ]; then mf=$diff; else pr=$diff; fi
			[ -n "${BENCH_KEEP:-}" ] || rm -f "$n".p?.out
		done
		if [ -n "$mf" ] && [ -n "$pr" ]; then
			# (the pass table has one column more)
			if [ "$measure" = pass ]; then rest="| | | |"; else rest="| | |"; fi
			awk -v jl="$jl" -v al="$al" -v algo="$algo" -v m="$mf" -v p="$pr" \
				-v rest="$rest" 'BEGIN {
				split(m, a, " "); split(p, b, " ")
				for (i = 1; i <= 4; i++)
					r[i] = a[i] > 0 ? sprintf("%.3f", b[i] / a[i]) : "-"
				printf "| %s | %s | %s | **prism / multifactor** | **%s** | **%s** | %s | %s %s\n",
					jl, al, algo, r[1], r[2], r[3], r[4], rest
			}'
		fi
	done
	[ -n "${BENCH_KEEP:-}" ] || rm -f "$d/world"
	echo "cpu-valgrind.sh: world $size done in $(secs_since "$t0") s" >&2
done
echo
echo "LL cache as cachegrind simulated it: ${ll_desc:-unknown}${BENCH_LL:+ (BENCH_LL=$BENCH_LL)}; $(valgrind --version)."
echo "Total run time $(secs_since "$start") s on $(nproc) CPUs; $failed failed configuration(s)."
[ "$failed" -eq 0 ]
