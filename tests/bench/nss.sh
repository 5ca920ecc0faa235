#!/bin/sh
# nss.sh: the job lock while the Moab and Grid Engine policies learn the
# names of users and groups (src/plugin/nss.h), with a slow name service.
#
# A controller's first pass after a start meets every user (and, for
# Moab, every group) of the jobs it found in its saved state. Each name
# is an NSS lookup, which a directory service (LDAP, SSSD) can take
# milliseconds to answer. The fake controller plays it: a world of
# BENCH_USERS user associations and BENCH_JOBS jobs (gen-world.sh), every
# job neither held nor admin-set loaded from state (so the submit path
# looks no name up), and every lookup by id (getpwuid_r, getgrgid_r)
# taking BENCH_NSS_USEC more (prism-harness --nss-delay). One run per
# policy (slurm-conf-examples/prism-moab.conf, gridengine.conf), the
# first pass measured (--bench).
#
# Prints a markdown table, one row a policy: the lookups made by the
# plugin's thread while it held the job lock and outside it, the job
# lock's holds in the pass (read or write), the longest, how many passed
# 2 ms, their sum (what RPCs waited behind), and the pass's wall time.
#
# Environment:
#   BENCH_USERS     user associations (default 2000)
#   BENCH_JOBS      jobs (default 10000)
#   BENCH_NSS_USEC  added to each lookup, microseconds (default 1000)
#   BENCH_PLUGIN_DIR  the priority_prism.so to measure (default: this
#                   build's src/plugin/.libs; another build's, to compare)
#   BENCH_BUILD     1 (default): make the harness and the plugin first
#   BENCH_KEEP      keep the work files in this directory
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${top_builddir:-$(cd "$here/../.." && pwd)}
src=${top_srcdir:-$top}
H="$top/tests/harness/prism-harness"
prism_dir=${BENCH_PLUGIN_DIR:-$top/src/plugin/.libs}
users=${BENCH_USERS:-2000}
jobs=${BENCH_JOBS:-10000}
delay=${BENCH_NSS_USEC:-1000}
now=1763700000

if [ "${BENCH_BUILD:-1}" = 1 ]; then
	make -s -C "$top" tests/harness/prism-harness \
		src/plugin/priority_prism.la >&2 || exit 1
fi
if [ ! -x "$H" ] || [ ! -f "$prism_dir/priority_prism.so" ]; then
	echo "nss.sh: build first (make; make tests/harness/prism-harness)" >&2
	exit 1
fi

prog=${0##*/}
# shellcheck source=tests/bench/lib.sh
. "$here/lib.sh"

sh "$src/tests/harness/gen-world.sh" -u "$users" -j "$jobs" |
	sed -E '/^job / { / (priority=|state=HELD|loaded=)/! s/$/ loaded=1/ }' \
		>"$tmp/world" || exit 1

# fig FILE KEY: the --bench figure KEY
fig() {
	sed -n "s/^$2 //p" "$1"
}

echo "| policy | lookups under the job lock | lookups outside | job lock holds | longest hold ms | holds > 2 ms | held in all ms | pass wall s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for policy in moab gridengine; do
	case $policy in
	moab) example=prism-moab.conf ;;
	gridengine) example=gridengine.conf ;;
	esac
	sed -e '/^PriorityParameters=/d' \
		-e 's|^PriorityType=.*|PriorityType=priority/prism|' \
		"$src/tests/harness/big.conf" >"$tmp/$policy.conf"
	echo "PriorityParameters=policy=$policy,config=$(cd "$src/slurm-conf-examples" && pwd)/$example" \
		>>"$tmp/$policy.conf"
	echo "$prog: policy=$policy, $users users, $jobs jobs, $delay us a lookup" >&2
	if ! "$H" --conf "$tmp/$policy.conf" --world "$tmp/world" \
		--now "$now" --last-ran $((now - 600)) --timeout 3600 \
		--plugindir "$prism_dir:$slurm_dir" --report jobs --nss-count \
		--nss-delay "$delay" --bench "$tmp/$policy.bench" \
		>"$tmp/$policy.out" 2>"$tmp/$policy.err"; then
		echo "$prog: policy=$policy: the harness failed: $(head -c 500 "$tmp/$policy.err")" >&2
		exit 1
	fi
	nss=$(grep '^nss-by-id ' "$tmp/$policy.out")
	b=$tmp/$policy.bench
	awk -v p="$policy" -v nss="$nss" -v holds="$(fig "$b" pass_job_holds)" \
		-v max="$(fig "$b" pass_job_hold_max_ns)" \
		-v over="$(fig "$b" pass_job_holds_over_2ms)" \
		-v sum="$(fig "$b" pass_job_hold_sum_ns)" \
		-v wall="$(fig "$b" pass_wall_ns)" 'BEGIN {
		split(nss, f, /[ =]/)
		printf "| %s | %d | %d | %d | %.1f | %d | %.1f | %.2f |\n", p,
		       f[3], f[5], holds, max / 1e6, over, sum / 1e6, wall / 1e9
	}'
done
