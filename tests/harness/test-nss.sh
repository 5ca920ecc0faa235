#!/bin/sh
# test-nss.sh: the names the Moab policy (USERCFG, GROUPCFG) and the Grid
# Engine policy (its users) match jobs by are looked up with no lock held
# (src/plugin/nss.h). A world whose jobs all came from slurmctld's saved
# state (loaded=, no submit path looks their names up), so that the first
# pass meets every user and group, as a controller's first pass after a
# start does:
#  - no plugin thread looks a name up by id (getpwuid_r, getgrgid_r) while
#    it holds the job lock; the pass looks them up outside it;
#  - every pending job's priority is the one of the same world submitted
#    (whose submit path looks the names up), partition for partition;
#  - a second pass looks nothing up again.
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
now=1800000000

# loaded WORLD: WORLD with every job that is neither held nor given an
# admin-set priority loaded from state (priority 1)
loaded() {
	sed -E '/^job / { / (priority=|state=HELD)/! s/$/ loaded=1/ }' "$1"
}

# check POLICY CONF WORLD EXAMPLE: the checks above for one policy
check() {
	d=$tmp/$1
	mkdir -p "$d"
	sed '/^PriorityParameters=/d' "$top_srcdir/tests/harness/$2" \
		>"$d/slurm.conf"
	echo "PriorityParameters=policy=$1,config=$(cd "$top_srcdir/slurm-conf-examples" && pwd)/$4" \
		>>"$d/slurm.conf"
	loaded "$top_srcdir/tests/harness/worlds/$3" >"$d/loaded.world"
	# (the submitted world's one pass is enough: its rows are compared)
	for run in submitted.1 loaded.1 loaded.2; do
		w=${run%.*} passes=${run#*.}
		world=$d/loaded.world
		[ "$w" = submitted ] && world=$top_srcdir/tests/harness/worlds/$3
		"$H" --conf "$d/slurm.conf" --world "$world" \
			--now "$now" --last-ran $((now - 3600)) \
			--plugindir "$prism_dir:$slurm_dir" --timeout 60 \
			--report jobs --nss-count --passes "$passes" \
			--advance 60 >"$d/$run" 2>"$d/$run.err" ||
			ko "policy=$1, $w world, $passes passes: the harness exited $?: $(head -c 300 "$d/$run.err")"
	done
	nss=$(grep '^nss-by-id ' "$d/loaded.1")
	case $nss in
	*" plugin-locked=0 plugin-unlocked=0 "*)
		ko "policy=$1: the pass looked no name up ($nss): the world does not test it" ;;
	*" plugin-locked=0 "*)
		ok "policy=$1: the first pass looks the names of loaded jobs up with no job lock held ($nss)" ;;
	*)
		ko "policy=$1: names looked up under the job lock: $nss" ;;
	esac
	if [ -n "$nss" ] && [ "$(grep '^nss-by-id ' "$d/loaded.2")" = "$nss" ]; then
		ok "policy=$1: the second pass looks no name up again"
	else
		ko "policy=$1: after two passes $(grep '^nss-by-id ' "$d/loaded.2"), after one $nss"
	fi
	grep '^job .* state=PENDING ' "$d/submitted.1" >"$d/submitted.rows"
	grep '^job .* state=PENDING ' "$d/loaded.1" >"$d/loaded.rows"
	if [ -s "$d/submitted.rows" ] &&
		cmp -s "$d/submitted.rows" "$d/loaded.rows"; then
		ok "policy=$1: the pending jobs' priorities are the submitted world's ($(wc -l <"$d/loaded.rows") rows)"
	else
		ko "policy=$1: loaded and submitted differ: $(diff "$d/submitted.rows" "$d/loaded.rows" | tr '\n' ';')"
	fi
}

check moab moab.conf moab.world prism-moab.conf
check gridengine ge.conf ge.world gridengine.conf

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
