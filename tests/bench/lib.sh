# tests/bench/lib.sh: what the benchmarks on the fake controller
# (run.sh, cpu-valgrind.sh) share, sourced after they set $src (the
# source tree), $top (the build tree) and $prog (their name, for
# messages): Slurm's plugin directory in $slurm_dir, the work directory
# in $tmp (BENCH_KEEP, or a temporary one removed at exit), sizes,
# configurations and worlds.
# shellcheck shell=sh

# Slurm's plugin directory (multifactor, libslurmfull.so): SLURM_LIBDIR,
# else the one the build in $top was configured against (a release built
# from source has its own), else Debian's.
if [ -z "${SLURM_LIBDIR:-}" ] && [ -f "$top/Makefile" ]; then
	SLURM_LIBDIR=$(sed -n 's/^SLURM_LIBDIR = //p' "$top/Makefile")
fi
slurm_dir=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}

if [ -n "${BENCH_KEEP:-}" ]; then
	tmp=$BENCH_KEEP
	mkdir -p "$tmp" || exit 1
else
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
fi

# "10k" -> 10000, "1M" -> 1000000
num() {
	case $1 in
	*k) echo $((${1%k} * 1000)) ;;
	*M) echo $((${1%M} * 1000000)) ;;
	*) echo "$1" ;;
	esac
}

# secs_since EPOCH: whole seconds since then
secs_since() {
	awk -v a="$1" -v b="$(date +%s)" 'BEGIN { printf "%d", b - a }'
}

# mkconf FLAGS > slurm.conf: tests/harness/big.conf with PriorityFlags.
mkconf() {
	cat "$src/tests/harness/big.conf"
	if [ -n "$1" ]; then
		echo "PriorityFlags=$1"
	fi
}

# algo_flags ALGO: the PriorityFlags of an algorithm (fairtree, classic)
algo_flags() {
	case $1 in
	fairtree) echo "" ;;
	classic) echo "NO_FAIR_TREE" ;;
	*) echo "$prog: unknown algorithm $1" >&2; return 2 ;;
	esac
}

# make_world SIZE DIR SEED: DIR/world of SIZE (JOBSxASSOCS: nominal
# pending jobs, user associations) by tests/harness/gen-world.sh; sets
# pend and users. gen-world.sh makes ~87.6% of its jobs pending (held and
# future-begin jobs included): it is asked for enough jobs to get about
# pend pending ones.
make_world() {
	pend=$(num "${1%x*}") users=$(num "${1#*x}")
	mkdir -p "$2" || exit 1
	echo "$prog: world $1: gen-world.sh -s $3 -u $users -j $((pend * 1142 / 1000))" >&2
	sh "$src/tests/harness/gen-world.sh" -s "$3" -u "$users" \
		-j "$((pend * 1142 / 1000))" >"$2/world" ||
		{ echo "$prog: gen-world.sh failed" >&2; exit 1; }
}
