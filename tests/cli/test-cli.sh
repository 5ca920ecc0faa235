#!/bin/bash
# test-cli.sh: the prism command without a controller.
#  - usage: --help, help, --version, usage errors exit 2;
#  - check: the example policy file (its notices, "OK"), bad files with
#    file:line and exit 1, the weights Slurm has no data for, slurm.conf's
#    PriorityParameters (--slurm-conf, $SLURM_CONF, prism.conf next to it,
#    config=, case, comments, Include, the last line wins), multifactor,
#    gridengine (the example file, --gridengine FILE, a bad file with
#    file:line), a bad PriorityParameters, a missing slurm.conf;
#  - convert: a moab.cfg with RMCFG/NODECFG/LOGLEVEL lines and priority
#    lines: priority lines kept as they are, the others commented out,
#    the output passes `prism check`; a bad priority line: file:line, 1;
#  - explain: no controller (a slurm.conf naming an unused port, a
#    SLURM_CONF that does not exist): "cannot reach slurmctld", exit 1,
#    quickly, with either policy.
# The explain view itself is tested by tests/cli/test_cli_diag (records
# made up there) and against a live controller by tests/cluster.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
P="$top_builddir/src/cli/prism"
example="$top_srcdir/slurm-conf-examples/prism-moab.conf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run ARGS...: exit status in $rc, stdout in $tmp/out, stderr in $tmp/err
run() {
	"$P" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect RC WHAT: the last run exited RC
expect() {
	if [ "$rc" = "$1" ]; then
		ok "$2 (exit $rc)"
	else
		ko "$2: exit $rc, not $1"
		sed 's/^/  out: /' "$tmp/out" | head -20
		sed 's/^/  err: /' "$tmp/err" | head -20
	fi
}

# has FILE LINE WHAT: FILE holds the whole line LINE
has() {
	if grep -Fxq -- "$2" "$1"; then
		ok "$3"
	else
		ko "$3: no line '$2' in"
		sed 's/^/  | /' "$1" | head -30
	fi
}

[ -x "$P" ] || { echo "FAIL: $P not built"; exit 1; }

# ---- usage -------------------------------------------------------------
version=$(sed -n 's/^AC_INIT(\[prism\], \[\([^]]*\)\].*/\1/p' \
	"$top_srcdir/configure.ac")
run --version
expect 0 "--version"
slurm_hdr=$(sed -n 's/^#define SLURM_VERSION_NUMBER 0x\([0-9a-f]*\)$/\1/p' \
	/usr/include/slurm/slurm_version.h)
slurm_ver=$(printf '%d.%02d.%d' "0x${slurm_hdr:0:2}" "0x${slurm_hdr:2:2}" \
	"0x${slurm_hdr:4:2}")
has "$tmp/out" "prism $version (built for Slurm $slurm_ver)" \
	"--version prints the configured version and the Slurm it was built for"
for a in --help -h help "check --help" "explain -h"; do
	run $a
	if [ "$rc" = 0 ] && grep -q '^Usage: prism COMMAND' "$tmp/out" &&
		grep -q '^  explain \[-l | --long\] \[JOBID...\]' "$tmp/out"; then
		ok "prism $a prints the usage text"
	else
		ko "prism $a: exit $rc, usage text missing"
	fi
done
# each row: the arguments, the message expected on stderr
while IFS='|' read -r args want; do
	[ -n "$want" ] || continue
	# shellcheck disable=SC2086
	run $args
	if [ "$rc" = 2 ] && grep -Fq -- "prism: $want" "$tmp/err" &&
		grep -Fq "Try 'prism --help'." "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "usage error '$args': exit 2, '$want'"
	else
		ko "usage error '$args': exit $rc, stderr: $(head -1 "$tmp/err")"
	fi
done <<'EOF'
|missing command
frobnicate|unknown command 'frobnicate'
--frob|unknown option '--frob'
--version extra|unexpected argument 'extra'
check a b|check: unexpected argument 'b'
check --frob|check: unknown option '--frob'
check --slurm-conf|check: --slurm-conf needs a file
convert|convert: missing MOAB.CFG
convert a b|convert: unexpected argument 'b'
convert -x|convert: unknown option '-x'
explain abc|explain: 'abc' is not a job id
explain 12 0|explain: '0' is not a job id
explain --frob|explain: unknown option '--frob'
EOF

# ---- check a policy file -----------------------------------------------
run check "$example"
expect 0 "check $example"
has "$tmp/out" "$example:63: RMCFG[slurm]: not a priority parameter, ignored" \
	"check prints the example's notice with file:line"
if [ "$(tail -n 1 "$tmp/out")" = "$example: OK (policy=moab)" ] &&
	[ "$(wc -l <"$tmp/out")" = 2 ] && [ ! -s "$tmp/err" ]; then
	ok "check ends with '$example: OK (policy=moab)'"
else
	ko "check output:"; cat "$tmp/out" "$tmp/err"
fi

printf 'FSWEIGHT 1\nSWAPWEIGHT 5\nBYPASSWEIGHT 2\nLOGLEVEL 3\n' >"$tmp/nodata.conf"
run check "$tmp/nodata.conf"
expect 0 "check a file weighing what Slurm has no data for"
has "$tmp/out" "$tmp/nodata.conf:4: LOGLEVEL: not a priority parameter, ignored" \
	"the parser's notice"
has "$tmp/out" "$tmp/nodata.conf: SWAPWEIGHT: Slurm jobs request no swap; its value is always 0" \
	"the no-data notice of SWAPWEIGHT, as the plugin logs it"
has "$tmp/out" "$tmp/nodata.conf: BYPASSWEIGHT: Slurm does not count how often backfill passed a job over; its value is always 0" \
	"the no-data notice of BYPASSWEIGHT"

# bad files: each row a label, the text (printf format), the message
i=0
while IFS='|' read -r label text want; do
	[ -n "$label" ] || continue
	i=$((i + 1))
	f="$tmp/bad$i.conf"
	printf "$text" >"$f"
	run check "$f"
	want=${want//FILE/$f}
	if [ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "$want" ] &&
		[ ! -s "$tmp/out" ]; then
		ok "bad file ($label): exit 1, '$want'"
	else
		ko "bad file ($label): exit $rc, stderr '$(cat "$tmp/err")', want '$want'"
	fi
done <<'EOF'
not a number|FSWEIGHT 1\nUSERCFG[bob] PRIORITY=lots\n|FILE:2: USERCFG[bob] PRIORITY: 'lots' is not a number
misspelt weight|\n\nQUEUETIMWEIGHT 5\n|FILE:3: QUEUETIMWEIGHT: unknown priority weight or cap (a misspelling?)
missing value|LOGLEVEL\n|FILE:1: LOGLEVEL: missing value
empty file||FILE: file is empty (a file of comments only gives the policy's defaults)
EOF
run check "$tmp/does-not-exist.conf"
expect 1 "check a missing file"
has "$tmp/err" "$tmp/does-not-exist.conf: cannot open: No such file or directory" \
	"a missing file is named with the reason"

# ---- check through slurm.conf ------------------------------------------
# sconf DIR LINES...: DIR/slurm.conf made of a few settings and LINES
sconf() {
	d=$1
	shift
	mkdir -p "$d"
	{
		echo "ClusterName=test"
		echo "SlurmctldHost=localhost"
		echo "PriorityType=priority/prism"
		for l in "$@"; do echo "$l"; done
	} >"$d/slurm.conf"
}

sconf "$tmp/next" "PriorityParameters=policy=moab"
printf 'QUEUETIMEWEIGHT 2\nRMCFG[x] TYPE=SLURM\n' >"$tmp/next/prism.conf"
run check --slurm-conf "$tmp/next/slurm.conf"
expect 0 "check --slurm-conf with policy=moab and no config="
has "$tmp/out" "$tmp/next/prism.conf:2: RMCFG[x]: not a priority parameter, ignored" \
	"prism.conf next to slurm.conf is read"
has "$tmp/out" "$tmp/next/prism.conf: OK (policy=moab)" \
	"prism.conf next to slurm.conf is OK"
run check --slurm-conf="$tmp/next/slurm.conf"
expect 0 "check --slurm-conf=FILE"
SLURM_CONF="$tmp/next/slurm.conf" run check
expect 0 "check with \$SLURM_CONF"
has "$tmp/out" "$tmp/next/prism.conf: OK (policy=moab)" \
	"\$SLURM_CONF is read without --slurm-conf"
# with a file: the file is checked as the policy slurm.conf names
run check --slurm-conf "$tmp/next/slurm.conf" "$example"
expect 0 "check --slurm-conf FILE POLICYFILE"
has "$tmp/out" "$example: OK (policy=moab)" "POLICYFILE is the one checked"

# config=, a key in any case, comments, quotes, Include, the last wins
mkdir -p "$tmp/inc"
printf 'PriorityParameters=policy=gridengine\n' >"$tmp/inc/early.conf"
printf '# a comment\nprioritypARAMETERS="policy=moab,config=%s" # more\n' \
	"$tmp/bad1.conf" >"$tmp/inc/prio.conf"
sconf "$tmp/inc" "Include early.conf" \
	"#PriorityParameters=policy=multifactor" \
	"PriorityWeightAge=1000 PriorityParameters=policy=moab,config=/nonexistent" \
	"Include $tmp/inc/prio.conf"
run check --slurm-conf "$tmp/inc/slurm.conf"
expect 1 "check follows Include and takes the last PriorityParameters (a bad file)"
has "$tmp/err" "$tmp/bad1.conf:2: USERCFG[bob] PRIORITY: 'lots' is not a number" \
	"config= of the last line, read through Include, quoted, any case"

sconf "$tmp/mf"
run check --slurm-conf "$tmp/mf/slurm.conf"
expect 0 "check without PriorityParameters"
has "$tmp/out" "PriorityParameters: policy=multifactor reads no file" \
	"no PriorityParameters: multifactor"
sconf "$tmp/mf2" "PriorityParameters=policy=multifactor"
run check --slurm-conf "$tmp/mf2/slurm.conf"
expect 0 "check policy=multifactor"
has "$tmp/out" "PriorityParameters: policy=multifactor reads no file" \
	"policy=multifactor reads no file"
run check --slurm-conf "$tmp/mf2/slurm.conf" "$example"
expect 1 "check --slurm-conf (multifactor) POLICYFILE"

# policy=gridengine: the example file, through slurm.conf and directly
ge_example="$top_srcdir/slurm-conf-examples/gridengine.conf"
sconf "$tmp/ge" "PriorityParameters=policy=gridengine"
cp "$ge_example" "$tmp/ge/prism.conf"
run check --slurm-conf "$tmp/ge/slurm.conf"
expect 0 "check policy=gridengine (prism.conf next to slurm.conf)"
has "$tmp/out" "$tmp/ge/prism.conf: OK (policy=gridengine)" \
	"policy=gridengine: the file is OK"
has "$tmp/out" "$tmp/ge/prism.conf:33: usage_weight_list: not modelled by Prism, ignored" \
	"policy=gridengine: the parser's notices with file:line"
run check --gridengine "$ge_example"
expect 0 "check --gridengine $ge_example"
if [ "$(tail -n 1 "$tmp/out")" = "$ge_example: OK (policy=gridengine)" ] &&
	[ ! -s "$tmp/err" ]; then
	ok "check --gridengine ends with '$ge_example: OK (policy=gridengine)'"
else
	ko "check --gridengine output:"; cat "$tmp/out" "$tmp/err"
fi
sconf "$tmp/ge2" "PriorityParameters=policy=gridengine,config=$tmp/ge/prism.conf"
run check --slurm-conf "$tmp/ge2/slurm.conf"
expect 0 "check policy=gridengine with config="
has "$tmp/out" "$tmp/ge/prism.conf: OK (policy=gridengine)" \
	"policy=gridengine: config= is read"
printf 'weight_urgency 1\nweight_ticket -1\n' >"$tmp/ge-bad.conf"
run check --gridengine "$tmp/ge-bad.conf"
expect 1 "check --gridengine a bad file"
has "$tmp/err" "$tmp/ge-bad.conf:2: weight_ticket: '-1' is out of range (0..1e+09)" \
	"a bad Grid Engine file: file:line and the reason"
[ ! -s "$tmp/out" ] && ok "a bad Grid Engine file: nothing on stdout" ||
	ko "a bad Grid Engine file: stdout $(cat "$tmp/out")"
run check --slurm-conf "$tmp/ge/slurm.conf" "$tmp/ge-bad.conf"
expect 1 "check --slurm-conf (gridengine) a bad POLICYFILE"
has "$tmp/err" "$tmp/ge-bad.conf:2: weight_ticket: '-1' is out of range (0..1e+09)" \
	"POLICYFILE is checked as the Grid Engine policy slurm.conf selects"
run check --gridengine
expect 2 "check --gridengine without a file"
run check --gridengine --slurm-conf "$tmp/ge/slurm.conf" "$ge_example"
expect 2 "check --gridengine with --slurm-conf"

sconf "$tmp/badp" "PriorityParameters=policy=foo"
run check --slurm-conf "$tmp/badp/slurm.conf"
expect 1 "check a bad PriorityParameters"
if grep -q "^$tmp/badp/slurm.conf: PriorityParameters: " "$tmp/err"; then
	ok "a bad PriorityParameters is reported with slurm.conf's name"
else
	ko "bad PriorityParameters: $(cat "$tmp/err")"
fi

mkdir -p "$tmp/other"
ex=$(cd "$(dirname "$example")" && pwd)/$(basename "$example")
printf 'ClusterName=x\nPriorityType=priority/multifactor\nPriorityParameters=policy=moab,config=%s\n' \
	"$ex" >"$tmp/other/slurm.conf"
run check --slurm-conf "$tmp/other/slurm.conf"
expect 0 "check a slurm.conf that does not select Prism"
has "$tmp/out" "$tmp/other/slurm.conf: note: PriorityType=priority/multifactor: slurmctld does not run Prism (PriorityType=priority/prism)" \
	"a note when PriorityType is not priority/prism"

run check --slurm-conf "$tmp/nowhere/slurm.conf"
expect 1 "check a missing slurm.conf"
has "$tmp/err" "$tmp/nowhere/slurm.conf: cannot open: No such file or directory" \
	"a missing slurm.conf is named"

# ---- convert -----------------------------------------------------------
cat >"$tmp/moab.cfg" <<'EOF'
# moab.cfg of a site moving to Slurm
SCHEDCFG[Moab]      SERVER=head:42559
ADMINCFG[1]         USERS=root
RMCFG[base]         TYPE=PBS
LOGLEVEL            3
NODECFG[node01]     PARTITION=batch

CREDWEIGHT          10
USERWEIGHT          100   # per user
FSPOLICY            DEDICATEDPS
FSWEIGHT            5
FSUSERWEIGHT        10
QUEUETIMEWEIGHT     1
USERCFG[alice]      PRIORITY=100 MAXJOB=4
USERCFG[bob]        MAXJOB=2 MAXPROC=64
QOSCFG[high]        PRIORITY=1000 QTWEIGHT=5
JOBPRIOF            STATE[Running]=10
EOF
"$P" convert "$tmp/moab.cfg" >"$tmp/conv.conf" 2>"$tmp/err"
rc=$?
expect 0 "convert a moab.cfg"
for l in "CREDWEIGHT          10" "USERWEIGHT          100   # per user" \
	"FSPOLICY            DEDICATEDPS" "QUEUETIMEWEIGHT     1" \
	"USERCFG[alice]      PRIORITY=100 MAXJOB=4" \
	"QOSCFG[high]        PRIORITY=1000 QTWEIGHT=5" \
	"JOBPRIOF            STATE[Running]=10" \
	"# moab.cfg of a site moving to Slurm"; do
	has "$tmp/conv.conf" "$l" "convert keeps '$l'"
done
for l in "SCHEDCFG[Moab]      SERVER=head:42559" "ADMINCFG[1]         USERS=root" \
	"RMCFG[base]         TYPE=PBS" "LOGLEVEL            3" \
	"NODECFG[node01]     PARTITION=batch" \
	"USERCFG[bob]        MAXJOB=2 MAXPROC=64"; do
	has "$tmp/conv.conf" "# ignored (not about priority): $l" \
		"convert comments out '${l%% *}'"
done
has "$tmp/conv.conf" "#     PriorityParameters=policy=moab,config=/etc/slurm/prism.conf" \
	"the header says how to use the file"
has "$tmp/conv.conf" "#     prism convert $tmp/moab.cfg" \
	"the header says where the file came from"
has "$tmp/err" "$tmp/moab.cfg: 9 priority lines kept, 6 other lines commented out" \
	"convert counts the lines on stderr"
run check "$tmp/conv.conf"
expect 0 "the converted file passes prism check"
if [ "$(grep -c 'not a priority' "$tmp/out")" = 1 ] &&
	grep -q "USERCFG\[alice\] MAXJOB: not a priority attribute, ignored" "$tmp/out"; then
	ok "the converted file has one notice left (alice's MAXJOB, kept with her PRIORITY)"
else
	ko "notices of the converted file:"; cat "$tmp/out"
fi

printf 'FSWEIGHT 5\nRMCFG[x] TYPE=PBS\nUSERWEIGHT ten\n' >"$tmp/bad-moab.cfg"
"$P" convert "$tmp/bad-moab.cfg" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect 1 "convert a moab.cfg with a malformed priority line"
has "$tmp/err" "$tmp/bad-moab.cfg:3: USERWEIGHT: 'ten' is not a number" \
	"convert names file:line of the bad line"
[ ! -s "$tmp/out" ] && ok "convert writes nothing on error" ||
	ko "convert wrote output despite the error"

# ---- explain without a controller --------------------------------------
# a port nothing listens on (bash's /dev/tcp probes it)
port=
for p in $(seq 39871 39971); do
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		port=$p
		break
	fi
done
mkdir -p "$tmp/noctl"
cat >"$tmp/noctl/slurm.conf" <<EOF
ClusterName=noctl
SlurmctldHost=localhost
SlurmctldPort=${port:-39871}
MessageTimeout=1
StateSaveLocation=$tmp/noctl
EOF
start=$(date +%s)
SLURM_CONF="$tmp/noctl/slurm.conf" timeout 60 "$P" explain >"$tmp/out" \
	2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
expect 1 "explain without a controller (port ${port:-39871})"
if grep -q "^prism: cannot reach slurmctld: " "$tmp/err" && [ "$took" -le 30 ]; then
	ok "explain says 'cannot reach slurmctld' after ${took}s"
else
	ko "explain without a controller: ${took}s, stderr: $(cat "$tmp/err")"
fi
SLURM_CONF="$tmp/noctl/missing.conf" timeout 60 "$P" explain 12 >"$tmp/out" \
	2>"$tmp/err"
rc=$?
expect 1 "explain with a SLURM_CONF that does not exist"
has "$tmp/err" "prism: cannot reach slurmctld: SLURM_CONF=$tmp/noctl/missing.conf: No such file or directory" \
	"a missing SLURM_CONF is named at once"
# the same with policy=gridengine: the controller is asked first
mkdir -p "$tmp/noctl-ge"
sed 's/^ClusterName=noctl$/ClusterName=noctlge/' "$tmp/noctl/slurm.conf" \
	>"$tmp/noctl-ge/slurm.conf"
printf 'PriorityType=priority/prism\nPriorityParameters=policy=gridengine,config=%s\n' \
	"$tmp/ge/prism.conf" >>"$tmp/noctl-ge/slurm.conf"
start=$(date +%s)
SLURM_CONF="$tmp/noctl-ge/slurm.conf" timeout 60 "$P" explain 7 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
expect 1 "explain (policy=gridengine) without a controller"
if grep -q "^prism: cannot reach slurmctld: " "$tmp/err" && [ "$took" -le 30 ]; then
	ok "explain (policy=gridengine) says 'cannot reach slurmctld' after ${took}s"
else
	ko "explain (policy=gridengine) without a controller: ${took}s, stderr: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
