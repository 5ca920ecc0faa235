#!/bin/sh
# test-slurm-progs.sh: Slurm's own test programs for multifactor
# (testsuite/expect/test24.N.prog.c of the release's source: a program
# that sets up assoc_mgr and the controller globals multifactor needs,
# loads the priority plugin, runs its decay thread and prints sshare's
# long listing) pass with priority/prism in place of priority/multifactor:
# every line their expect script counts is printed, and the listing equals
# multifactor's line for line. Prism needs nothing of the program that
# multifactor does not: it is not slurmctld, it defines no
# slurmctld_tres_cnt or last_part_update.
#
# Env (make check sets them): SLURM_SOURCE (configured tree),
# SLURM_LIBDIR (the installed libslurmfull.so and multifactor), top_builddir.
# A release without these programs (25.11 on moved its tests to Python)
# has nothing to run: the test says so and passes.
set -u
T=${SLURM_SOURCE:?SLURM_SOURCE: the configured Slurm tree}
L=${SLURM_LIBDIR:?SLURM_LIBDIR: the installed Slurm plugin directory}
build=$(cd "${top_builddir:-.}" && pwd)
E=$T/testsuite/expect
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

progs=$(ls "$E"/test24.*.prog.c 2>/dev/null)
if [ -z "$progs" ]; then
	echo "SKIP: $T has no testsuite/expect/test24.*.prog.c (Slurm 25.11 on)"
	exit 0
fi

cat >"$tmp/slurm.conf" <<CONF
ClusterName=progs
SlurmctldHost=localhost
PluginDir=$build/src/plugin/.libs:$L
CONF

# the expected lines of an expect script: each quoted string whose block
# counts a match
expected() {
	awk '/^[ \t]*"[^"]*\|[^"]*" \{/ {
		s = $0; sub(/^[ \t]*"/, "", s); sub(/" \{.*$/, "", s); cand = s; next
	}
	cand != "" && /incr matches/ { print cand }
	{ if ($0 !~ /^[ \t]*$/) cand = "" }' "$1"
}

# run PROG.c PLUGIN OUT: build the program for PLUGIN and run it
run() {
	sed "s|\"priority/multifactor\"|\"$2\"|" "$1" >"$tmp/p.c"
	if ! ${CC:-gcc} -g -O1 -w -I"$T" -I"$T/slurm" -o "$tmp/p" "$tmp/p.c" \
		"$T/src/slurmctld/locks.c" "$T/src/sshare/process.c" \
		-L"$L" -Wl,-rpath,"$L" -lslurmfull -ldl -lm -pthread \
		-Wl,--export-dynamic >"$tmp/cc.log" 2>&1; then
		cat "$tmp/cc.log"
		return 1
	fi
	# (the programs sleep a second for the plugin's thread; a minute is
	# their own expect scripts' limit)
	(cd "$tmp" && SLURM_CONF="$tmp/slurm.conf" timeout 60 ./p) >"$3" 2>"$3.err"
}

for c in $progs; do
	name=${c##*/}
	name=${name%.prog.c}
	[ -f "$E/$name" ] || { ko "$name: no expect script beside $c"; continue; }
	if ! run "$c" priority/multifactor "$tmp/$name.mf"; then
		ko "$name: multifactor's program did not build or run"
		continue
	fi
	if ! run "$c" priority/prism "$tmp/$name.prism"; then
		ko "$name: the program with priority/prism did not build or run:"
		tail -n 5 "$tmp/$name.prism.err"
		continue
	fi
	n=0
	miss=0
	expected "$E/$name" >"$tmp/$name.want"
	while IFS= read -r line; do
		n=$((n + 1))
		if ! grep -qF -- "$line" "$tmp/$name.prism"; then
			miss=$((miss + 1))
			echo "  missing: $line"
		fi
	done <"$tmp/$name.want"
	if [ "$n" -eq 0 ]; then
		ko "$name: no expected lines read from its expect script"
	elif [ "$miss" -eq 0 ]; then
		ok "$name: every one of the $n lines its expect script counts is printed with priority/prism"
	else
		ko "$name: $miss of the $n lines its expect script counts are missing with priority/prism"
	fi
	if cmp -s "$tmp/$name.mf" "$tmp/$name.prism" && [ -s "$tmp/$name.mf" ]; then
		ok "$name: the listing equals multifactor's ($(wc -l <"$tmp/$name.mf") lines)"
	else
		ko "$name: the listing differs from multifactor's:"
		diff "$tmp/$name.mf" "$tmp/$name.prism" | head -n 20
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
