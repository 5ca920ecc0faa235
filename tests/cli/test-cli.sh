#!/bin/bash
# test-cli.sh: the prism command without a controller.
#  - usage: --help, help, --version, usage errors exit 2;
#  - check: the example policy file (its notices, "OK"), bad files with
#    file:line and exit 1, the weights Slurm has no data for, slurm.conf's
#    PriorityParameters (--slurm-conf, $SLURM_CONF, prism.conf next to it,
#    config=, case, comments, Include, the last line wins), multifactor,
#    gridengine (the example file, --gridengine FILE, a bad file with
#    file:line), a bad PriorityParameters, a missing slurm.conf;
#  - check under multifactor (issue 14): each file of tests/cli/slurm-conf/
#    read with Slurm's own parser (a table: exit status, a line printed):
#    one per warning rule with FILE:LINE or FILE:(default), Include with a
#    continuation and the time forms 0-4, 48:00:00 and a bare 7, a clean
#    file, files Slurm's parser refuses (its error, exit 1), settings
#    slurmctld stops on (errors, exit 1), a misspelt PriorityFlags item
#    (a warning, exit 0), items that contain a flag's name (read as that
#    flag by Slurm's parser: a warning that says so);
#  - convert: a moab.cfg with RMCFG/NODECFG/LOGLEVEL lines and priority
#    lines: priority lines kept as they are, the others commented out
#    with a reason, a summary at the end, the output passes `prism
#    check`; a bad priority line: commented out as needing attention,
#    exit 0 (convert never fails on a readable file);
#  - issue 15: each file of tests/cli/compat/ (a table: loads with its
#    notice, or is refused with FILE:LINE; each Moab one converts to a
#    file check passes); the one-screen summary check prints;
#  - explain: no controller (a slurm.conf naming an unused port, a
#    SLURM_CONF that does not exist): "cannot reach slurmctld", exit 1,
#    quickly, with either policy, and with --json (no JSON printed);
#    malformed job ids with --json are usage errors (exit 2).
# The explain view itself is tested by tests/cli/test_cli_diag (records
# made up there) and against a live controller by tests/cluster.
set -u
# shellcheck source=tests/lib.sh
. "${top_srcdir:-.}/tests/lib.sh"
P="$top_builddir/src/cli/prism"
example="$top_srcdir/slurm-conf-examples/prism-moab.conf"
compat_dir="$top_srcdir/tests/cli/compat"

# run ARGS...: exit status in $rc, stdout in $tmp/out, stderr in $tmp/err
run() {
	"$P" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# conv MOAB.CFG OUT: prism convert MOAB.CFG, its output in OUT, stderr in
# $tmp/err, exit status in $rc
conv() {
	"$P" convert "$1" >"$2" 2>"$tmp/err"
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
for a in --help -h help "check --help" "explain -h" "help -h" "--help x --help"; do
	run $a
	if [ "$rc" = 0 ] && grep -q '^Usage: prism COMMAND' "$tmp/out" &&
		grep -q '^  explain \[-l | --long\] \[--json\] \[JOBID...\]' "$tmp/out"; then
		ok "prism $a prints the usage text"
	else
		ko "prism $a: exit $rc, usage text missing"
	fi
done
# issue 35: --help says what the page says about compare's cases and
# about which subcommands read SLURM_CONF
run --help
for l in "      same priority are taken in job id order; a priority an" \
	"      is a usage error (exit 2)." \
	"                  explain, compare and whatif find the controller (one" \
	"                  convert reads none"; do
	has "$tmp/out" "$l" "--help: '$l'"
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
--help extra|unexpected argument 'extra'
help extra|unexpected argument 'extra'
check a b|check: unexpected argument 'b'
check --frob|check: unknown option '--frob'
check --slurm-conf|check: --slurm-conf needs a file
convert|convert: missing MOAB.CFG
convert a b|convert: unexpected argument 'b'
convert -x|convert: unknown option '-x'
convert a.cfg -x|convert: unknown option '-x'
explain abc|explain: 'abc' is not a job id
explain 12 0|explain: '0' is not a job id
explain --frob|explain: unknown option '--frob'
explain --json abc|explain: 'abc' is not a job id
explain --json 12 -3|explain: unknown option '-3'
explain 12 --jsonx|explain: unknown option '--jsonx'
whatif PriorityWeightAge=1 --top 0|whatif: --top '0' is not a count from 1 to 1000000
check --moab --gridengine F|check: --gridengine and --moab exclude each other
check F --gridengine --moab|check: --gridengine and --moab exclude each other
explain --json 4294967294|explain: '4294967294' is not a job id
explain --jsonx|explain: unknown option '--jsonx'
compare|compare: needs two different job ids
compare 12|compare: needs two different job ids
compare 12 12|compare: needs two different job ids
compare 1 2 3|compare: needs two different job ids
metrics --users x|metrics: --users takes all, pending or none, not 'x'
metrics --users|metrics: --users needs a value
metrics --listen|metrics: --listen needs a value
metrics extra|metrics: unexpected argument 'extra'
metrics --frob|metrics: unknown option '--frob'
metrics --listen 127.0.0.1|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not '127.0.0.1'
metrics --listen localhost:9100|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not 'localhost:9100'
metrics --listen :9100|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not ':9100'
metrics --listen 127.0.0.1:0|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not '127.0.0.1:0'
metrics --listen 127.0.0.1:65536|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not '127.0.0.1:65536'
metrics --listen [::1]9100|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not '[::1]9100'
metrics --listen ::1:9100|metrics: --listen takes ADDR:PORT with a numeric address (127.0.0.1:9100, [::1]:9100), not '::1:9100'
compare abc 2|compare: 'abc' is not a job id
compare --frob 1 2|compare: unknown option '--frob'
whatif|whatif: give SETTING=VALUE... (policy=multifactor) or --policy-file FILE
whatif --top 0 PriorityWeightAge=1|whatif: --top '0' is not a count from 1 to 1000000
whatif --top x PriorityWeightAge=1|whatif: --top 'x' is not a count from 1 to 1000000
whatif --frob|whatif: unknown option or missing value '--frob'
whatif --policy-file a PriorityWeightAge=1|whatif: either SETTING=VALUE... or --policy-file FILE, not both
EOF
# POSIXLY_CORRECT (prism(1), ENVIRONMENT): options end at the first
# other argument, as in GNU tools; before it they are read, and -h is
# found anywhere. Without it the same lines are tested above and below.
while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	POSIXLY_CORRECT=1 "$P" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$want" = help ]; then
		[ "$rc" = 0 ] && grep -q '^Usage: prism COMMAND' "$tmp/out" &&
			ok "POSIXLY_CORRECT: '$args' prints the usage text" ||
			ko "POSIXLY_CORRECT: '$args': exit $rc"
	elif [ "$want" = ok ]; then
		[ "$rc" = 0 ] && ok "POSIXLY_CORRECT: '$args' (exit 0)" ||
			ko "POSIXLY_CORRECT: '$args': exit $rc, $(cat "$tmp/err")"
	elif [ "$rc" = 2 ] && grep -Fq -- "prism: $want" "$tmp/err"; then
		ok "POSIXLY_CORRECT: '$args': exit 2, '$want'"
	else
		ko "POSIXLY_CORRECT: '$args': exit $rc, stderr: $(head -1 "$tmp/err")"
	fi
done <<EOF
explain 12 --json|explain: '--json' is not a job id
compare 1 2 --frob|compare: '--frob' is not a job id
check $top_srcdir/slurm-conf-examples/gridengine.conf --gridengine|check: unexpected argument '--gridengine'
check --gridengine $top_srcdir/slurm-conf-examples/gridengine.conf|ok
check $example --help|help
EOF

# ---- check a policy file -----------------------------------------------
run check "$example"
expect 0 "check $example"
has "$tmp/out" "$example:63: RMCFG[slurm]: not a priority parameter, ignored" \
	"check prints the example's notice with file:line"
if [ "$(tail -n 1 "$tmp/out")" = "$example: OK (policy=moab)" ] &&
	[ "$(grep -c "^$example:" "$tmp/out")" = 2 ] && [ ! -s "$tmp/err" ]; then
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
misspelt weight|\n\nQUEUETIMWEIGHT 5\n|FILE:3: QUEUETIMWEIGHT: unknown priority weight or cap (did you mean QUEUETIMEWEIGHT?)
missing value|FSWEIGHT\n|FILE:1: FSWEIGHT: missing value
empty file||FILE: file is empty (a file of comments only gives the policy's defaults)
EOF
# issue 35: a message at a long path is whole (it was cut at 159 bytes)
long="$tmp/$(printf 'd%.0s' {1..120})/$(printf 'e%.0s' {1..120})"
mkdir -p "$long"
printf 'FSWEIGHT 1\nFSUSRWEIGHT 5\n' >"$long/prism.conf"
run check "$long/prism.conf"
expect 1 "check a misspelt file at a long path"
has "$tmp/err" "$long/prism.conf:2: FSUSRWEIGHT: unknown priority weight or cap (did you mean FSUSERWEIGHT?)" \
	"the error at a long path is whole"
printf 'FSWEIGHT 1\nLOGLEVEL 3\n' >"$long/notice.conf"
run check "$long/notice.conf"
has "$tmp/out" "$long/notice.conf:2: LOGLEVEL: not a priority parameter, ignored" \
	"a notice at a long path is whole"
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
# the release the plugin was built for, against the slurmctld installed
if grep -q "^priority_prism.so: built for Slurm $slurm_ver" "$tmp/out"; then
	ok "check names the release the plugin was built for ($slurm_ver)"
else
	ko "check does not name the release $slurm_ver:"
	sed 's/^/  | /' "$tmp/out" | tail -5
fi
printf '#!/bin/sh\necho "slurm 99.11.1"\n' >"$tmp/ctld-other"
printf '#!/bin/sh\necho "slurm-wlm %s"\n' "$slurm_ver" >"$tmp/ctld-same"
chmod +x "$tmp/ctld-other" "$tmp/ctld-same"
PRISM_SLURMCTLD="$tmp/ctld-other" run check --slurm-conf "$tmp/next/slurm.conf"
expect 1 "check when the slurmctld installed is another release than the plugin's"
has "$tmp/err" "prism: error: $tmp/ctld-other is Slurm 99.11.1, but priority_prism.so was built for Slurm $slurm_ver: slurmctld refuses to load it (a plugin loads only into the release it was built for); install Prism built for Slurm 99.11.1" \
	"check says slurmctld would refuse the plugin"
PRISM_SLURMCTLD="$tmp/ctld-same" run check --slurm-conf "$tmp/next/slurm.conf"
expect 0 "check when the slurmctld installed is the plugin's release"
has "$tmp/out" "priority_prism.so: built for Slurm $slurm_ver, the release of $tmp/ctld-same" \
	"check says the installed slurmctld is the plugin's release"
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
has "$tmp/out" "$tmp/mf/slurm.conf: OK (policy=multifactor), 1 warning" \
	"no PriorityParameters: multifactor checks slurm.conf"
sconf "$tmp/mf2" "PriorityParameters=policy=multifactor" \
	"PriorityWeightAge=1000"
run check --slurm-conf "$tmp/mf2/slurm.conf"
expect 0 "check policy=multifactor"
has "$tmp/out" "$tmp/mf2/slurm.conf: OK (policy=multifactor)" \
	"policy=multifactor: slurm.conf's settings are checked"
SLURM_CONF="$tmp/mf2/slurm.conf" run check
expect 0 "check policy=multifactor with \$SLURM_CONF"
has "$tmp/out" "$tmp/mf2/slurm.conf: OK (policy=multifactor)" \
	"policy=multifactor: \$SLURM_CONF is checked without an argument"
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
# issue 35: options after arguments, as GNU tools take them
run check "$ge_example" --gridengine
expect 0 "check FILE --gridengine"
has "$tmp/out" "$ge_example: OK (policy=gridengine)" \
	"an option after the file is read (the file is a Grid Engine one)"
run check --gridengine
expect 2 "check --gridengine without a file"
run check --gridengine --slurm-conf "$tmp/ge/slurm.conf" "$ge_example"
expect 2 "check --gridengine with --slurm-conf"
# issue 35, item 7: a file of the other policy is named as one. A Moab
# file under --gridengine: refused at its first USERCFG[...] line, and
# nothing before it was Grid Engine's; with weights only, every line a
# notice (slurmctld would run Grid Engine's defaults): a warning
run check --gridengine "$example"
expect 1 "check --gridengine the Moab example"
has "$tmp/err" "prism: check: nothing in $example was understood as a Grid Engine policy; it looks like a Moab file (\`prism check --moab $example\` reads it as one)" \
	"check --gridengine of a Moab file says it looks like a Moab file"
printf 'QUEUETIMEWEIGHT 10\nUSERWEIGHT 100\n' >"$tmp/moab-weights.cfg"
run check --gridengine "$tmp/moab-weights.cfg"
expect 0 "check --gridengine a Moab file of weights only"
has "$tmp/out" "$tmp/moab-weights.cfg: warning: slurmctld would run Grid Engine's defaults: nothing in $tmp/moab-weights.cfg was understood as a Grid Engine policy; it looks like a Moab file (\`prism check --moab $tmp/moab-weights.cfg\` reads it as one)" \
	"check --gridengine of Moab weights warns that it looks like a Moab file"
run check "$ge_example"
expect 0 "check (Moab, the default) the Grid Engine example"
has "$tmp/out" "$ge_example: warning: slurmctld would run Moab's defaults: nothing in $ge_example was understood as a Moab policy; it looks like a Grid Engine file (\`prism check --gridengine $ge_example\` reads it as one)" \
	"check of a Grid Engine file as Moab warns that it looks like a Grid Engine file"
printf 'LOGLEVEL 3\n' >"$tmp/neither.cfg"
run check "$tmp/neither.cfg"
has "$tmp/out" "$tmp/neither.cfg: warning: slurmctld would run Moab's defaults: nothing in $tmp/neither.cfg was understood as a Moab policy; is it a file of another policy?" \
	"a file of neither policy: the warning asks"

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

# ---- prism(1)'s other promises about check (issue 35, the audit) -------
# a slurm.conf without PriorityType: a note, and the check goes on
mkdir -p "$tmp/notype"
printf 'ClusterName=x\nPriorityParameters=policy=moab\n' >"$tmp/notype/slurm.conf"
printf 'QUEUETIMEWEIGHT 1\n' >"$tmp/notype/prism.conf"
run check --slurm-conf "$tmp/notype/slurm.conf"
expect 0 "check a slurm.conf without PriorityType"
has "$tmp/out" "$tmp/notype/slurm.conf: note: PriorityType is not set (Slurm's default is priority/basic): slurmctld does not run Prism" \
	"a note when PriorityType is not set"
has "$tmp/out" "$tmp/notype/prism.conf: OK (policy=moab)" \
	"the check goes on without PriorityType"
# --slurm-conf FILE POLICYFILE where FILE selects multifactor: an error
sconf "$tmp/mfpol"
run check --slurm-conf "$tmp/mfpol/slurm.conf" "$example"
expect 1 "check --slurm-conf (multifactor) POLICYFILE"
has "$tmp/err" "$tmp/mfpol/slurm.conf: PriorityParameters: policy=multifactor reads no file, $example is not used" \
	"a POLICYFILE under multifactor is an error"
# Include: at most 8 deep (slurm.conf and a chain of 8 included files);
# a file one deeper is an error naming it
mkdir -p "$tmp/deep"
printf 'ClusterName=x\nPriorityType=priority/prism\nInclude i1.conf\n' \
	>"$tmp/deep/slurm.conf"
for i in 1 2 3 4 5 6 7; do
	echo "Include i$((i + 1)).conf" >"$tmp/deep/i$i.conf"
done
echo "PriorityParameters=policy=moab,config=$tmp/notype/prism.conf" \
	>"$tmp/deep/i8.conf"
run check --slurm-conf "$tmp/deep/slurm.conf"
expect 0 "check through Include 8 deep"
has "$tmp/out" "$tmp/notype/prism.conf: OK (policy=moab)" \
	"the 8th included file's PriorityParameters is read"
mv "$tmp/deep/i8.conf" "$tmp/deep/i9.conf"
echo "Include i9.conf" >"$tmp/deep/i8.conf"
run check --slurm-conf "$tmp/deep/slurm.conf"
expect 1 "check through Include 9 deep"
has "$tmp/err" "$tmp/deep/i9.conf: Include nested deeper than 8 files" \
	"a 9th included file is an error naming it"
# the Moab summary: a weighted subcomponent Slurm has no data for, and the
# first five credentials of a kind, then how many more
run check "$tmp/nodata.conf"
has "$tmp/out" "  SERVICE  weight 1: QUEUETIME 1 BYPASS 2 (no data: 0)" \
	"the summary marks a subcomponent Slurm has no data for"
{
	echo "USERWEIGHT 1"
	for i in 1 2 3 4 5 6 7; do echo "USERCFG[u$i] PRIORITY=$i"; done
} >"$tmp/creds.conf"
run check "$tmp/creds.conf"
has "$tmp/out" "  user     7: u1 prio 1; u2 prio 2; u3 prio 3; u4 prio 4; u5 prio 5; ... and 2 more" \
	"the summary shows five credentials of a kind, then how many more"

# ---- check under multifactor: slurm.conf's priority settings -----------
# each row: file|exit|a line of stdout (exit 0) or stderr (exit 1); @ is
# the folder. The files say what each one holds.
sc="$top_srcdir/tests/cli/slurm-conf"
while IFS='|' read -r f want line; do
	run check --slurm-conf "$sc/$f"
	expect "$want" "check --slurm-conf $f"
	[ "$want" = 0 ] && where=out || where=err
	has "$tmp/$where" "${line//@/$sc}" "$f: $line"
done <<'EOF'
clean.conf|0|@/clean.conf: OK (policy=multifactor)
clean.conf|0|  PriorityWeightTRES: CPU=1000,Mem=2000,GRES/gpu=5000
sum.conf|0|@/sum.conf:5: warning: PriorityWeightFairshare=4000000000: the weights sum to 4300000000, more than a 32-bit priority holds (4294967295): Slurm cuts the highest priorities to 4294967295, where they tie
allzero.conf|0|@/allzero.conf: warning: every PriorityWeight* is 0: every job's priority is 1, jobs run in submit order (FIFO)
allzero.conf|0|@/allzero.conf: OK (policy=multifactor), 1 warning
zero.conf|0|@/zero.conf:6: warning: PriorityFavorSmall=YES: PriorityWeightJobSize=0: the job-size factor it sets is never used
zero.conf|0|@/zero.conf:7: warning: PriorityFlags=NO_FAIR_TREE,ACCRUE_ALWAYS: NO_FAIR_TREE with PriorityWeightFairshare=0: the fair-share factor it computes is never used
zero.conf|0|@/zero.conf:8: warning: PriorityMaxAge=1-00:00:00: PriorityWeightAge=0: the age factor it scales is never used
zero.conf|0|@/zero.conf:7: warning: PriorityFlags=NO_FAIR_TREE,ACCRUE_ALWAYS: ACCRUE_ALWAYS with PriorityWeightAge=0: the age it accrues is never used
zero.conf|0|@/zero.conf: OK (policy=multifactor), 4 warnings
maxage.conf|0|@/maxage.conf:7: warning: PriorityMaxAge=00:04:00: shorter than PriorityCalcPeriod=00:05:00: the age factor jumps from 0 to 1 between two recalculations
default.conf|0|@/default.conf:(default): warning: PriorityMaxAge=7-00:00:00: shorter than PriorityCalcPeriod=8-00:00:00: the age factor jumps from 0 to 1 between two recalculations
apart.conf|0|@/apart.conf:6: warning: PriorityWeightAge=100: adds at most 100 points where PriorityWeightFairshare=1000000000 adds up to 1000000000: it only reorders jobs whose other terms agree to one part in a million
tres.conf|1|@/tres.conf:7: error: PriorityWeightTRES=gres/gpu=1000: gres/gpu is not a TRES of this cluster (AccountingStorageTRES and Slurm's own: cpu,mem,energy,node,billing,fs/disk,vmem,pages): slurmctld stops on it
tres.conf|1|@/tres.conf:7: error: PriorityWeightTRES=node: not TRES=WEIGHT: slurmctld stops on it
tres.conf|1|@/tres.conf: slurmctld refuses this file: 2 errors
tiny.conf|0|@/tiny.conf:6: warning: PriorityWeightTRES=mem=0.001: the TRES factor is at most 1, so this term adds less than one point to an integer priority
tiny.conf|0|@/tiny.conf: OK (policy=multifactor), 1 warning
flags.conf|0|@/flags.conf:8: warning: PriorityFlags=ACRUE_ALWAYS,max_tres,SOMETHING: 'ACRUE_ALWAYS' is not a flag (did you mean ACCRUE_ALWAYS?): Slurm ignores it without a word
flags.conf|0|@/flags.conf:8: warning: PriorityFlags=ACRUE_ALWAYS,max_tres,SOMETHING: 'SOMETHING' is not a flag: Slurm ignores it without a word
flags.conf|0|@/flags.conf: OK (policy=multifactor), 2 warnings
flagsub.conf|0|@/flagsub.conf:10: warning: PriorityFlags=NO_FAIR_TREEX,ACCRUE_ALWAYSS: 'NO_FAIR_TREEX' is not a flag, but Slurm finds NO_FAIR_TREE in it and reads it as that flag
flagsub.conf|0|@/flagsub.conf:10: warning: PriorityFlags=NO_FAIR_TREEX,ACCRUE_ALWAYSS: 'ACCRUE_ALWAYSS' is not a flag, but Slurm finds ACCRUE_ALWAYS in it and reads it as that flag
flagsub.conf|0|  PriorityFlags: NO_FAIR_TREE,ACCRUE_ALWAYS
forms.conf|0|@/forms-inc.conf:3: warning: PriorityMaxAge=00:07:00: shorter than PriorityCalcPeriod=04:00:00: the age factor jumps from 0 to 1 between two recalculations
forms.conf|0|  PriorityMaxAge 00:07:00, PriorityCalcPeriod 04:00:00
forms.conf|0|  PriorityDecayHalfLife 2-00:00:00, PriorityUsageResetPeriod NONE
forms.conf|0|  PriorityWeightTRES: cpu=100,mem=200
forms.conf|0|@/forms.conf: OK (policy=multifactor), 1 warning
decay.conf|1|prism: error: You have to either have PriorityDecayHalfLife != 0 or PriorityUsageResetPeriod set to something or the priority plugin will result in rolling over.
bad.conf|1|prism: error: Bad value "soon" for PriorityMaxAge
EOF
# the clean file: nothing but the summary and OK
run check --slurm-conf "$sc/clean.conf"
if ! grep -q 'warning' "$tmp/out" && [ ! -s "$tmp/err" ]; then
	ok "clean.conf: no warning"
else
	ko "clean.conf: $(cat "$tmp/out" "$tmp/err")"
fi
# issue 35: an error slurmctld stops on makes check fail, so that
# `prism check && systemctl restart slurmctld` is safe: nothing on stdout
# says OK
run check --slurm-conf "$sc/tres.conf"
if ! grep -q 'OK' "$tmp/out" && ! grep -q 'error' "$tmp/out"; then
	ok "tres.conf: no OK, the errors on stderr only"
else
	ko "tres.conf: stdout $(cat "$tmp/out")"
fi
# a slurm.conf named without a folder: its Include is still found
mkdir -p "$tmp/rel"
cp "$sc/forms.conf" "$sc/forms-inc.conf" "$tmp/rel/"
P_abs=$(cd "$(dirname "$P")" && pwd)/prism
(cd "$tmp/rel" && "$P_abs" check --slurm-conf forms.conf >"$tmp/out" \
	2>"$tmp/err")
rc=$?
expect 0 "check --slurm-conf forms.conf (no folder)"
has "$tmp/out" "./forms-inc.conf:3: warning: PriorityMaxAge=00:07:00: shorter than PriorityCalcPeriod=04:00:00: the age factor jumps from 0 to 1 between two recalculations" \
	"a relative slurm.conf: the Include file's line"

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
conv "$tmp/moab.cfg" "$tmp/conv.conf"
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
	grep -Fq -- "): $l" "$tmp/conv.conf" &&
		ok "convert comments out '${l%% *}' with a reason" ||
		ko "convert did not comment out '$l'"
done
has "$tmp/conv.conf" "# ignored (SCHEDCFG[Moab]: not a priority parameter): SCHEDCFG[Moab]      SERVER=head:42559" \
	"convert gives the reason on the line it comments out"
has "$tmp/conv.conf" "#     PriorityParameters=policy=moab,config=/etc/slurm/prism.conf" \
	"the header says how to use the file"
has "$tmp/conv.conf" "#     prism convert $tmp/moab.cfg" \
	"the header says where the file came from"
has "$tmp/err" "$tmp/moab.cfg: 9 priority lines kept, 6 other lines commented out, 0 lines need attention" \
	"convert counts the lines on stderr"
has "$tmp/conv.conf" "# prism convert: 9 priority lines kept, 6 other lines commented out, 0 lines need attention" \
	"the converted file ends with the summary"
run check "$tmp/conv.conf"
expect 0 "the converted file passes prism check"
if [ "$(grep -c 'not a priority' "$tmp/out")" = 1 ] &&
	grep -q "USERCFG\[alice\] MAXJOB: not a priority attribute, ignored" "$tmp/out"; then
	ok "the converted file has one notice left (alice's MAXJOB, kept with her PRIORITY)"
else
	ko "notices of the converted file:"; cat "$tmp/out"
fi

printf 'FSWEIGHT 5\nRMCFG[x] TYPE=PBS\nUSERWEIGHT ten\n' >"$tmp/bad-moab.cfg"
conv "$tmp/bad-moab.cfg" "$tmp/out"
expect 0 "convert never fails on a readable file (a malformed priority line)"
has "$tmp/out" "# needs attention, refused by Prism (USERWEIGHT: 'ten' is not a number): USERWEIGHT ten" \
	"convert comments the refused line out with the reason"
has "$tmp/err" "$tmp/bad-moab.cfg: 1 priority line kept, 1 other line commented out, 1 line needs attention" \
	"convert counts the line that needs attention"
run convert "$tmp/nonexistent.cfg"
expect 1 "convert a file it cannot read"
# issue 35: a zero-byte file is readable: the policy's defaults, a summary
: >"$tmp/empty.cfg"
conv "$tmp/empty.cfg" "$tmp/empty.conf"
expect 0 "convert a zero-byte file"
has "$tmp/empty.conf" "# prism convert: 0 priority lines kept, 0 other lines commented out, 0 lines need attention" \
	"the conversion of a zero-byte file ends with the summary"
has "$tmp/err" "$tmp/empty.cfg: 0 priority lines kept, 0 other lines commented out, 0 lines need attention" \
	"convert of a zero-byte file counts nothing on stderr"
run check "$tmp/empty.conf"
expect 0 "the conversion of a zero-byte file passes check"

# a refusal only the whole file makes (65 JOBPRIOF ATTR names), a line
# that is not UTF-8: commented out, and the output still passes check
{
	for i in $(seq 1 65); do echo "JOBPRIOF ATTR[a$i]=1"; done
	printf 'USERCFG[b\377] PRIORITY=1\n'
} >"$tmp/many.cfg"
conv "$tmp/many.cfg" "$tmp/many.conf"
expect 0 "convert a file only wrong as a whole"
has "$tmp/many.conf" "# needs attention, refused by Prism (JOBPRIOF: more than 64 ATTR names): JOBPRIOF ATTR[a65]=1" \
	"convert comments out the line the whole parse refuses"
has "$tmp/many.conf" "# needs attention, refused by Prism (invalid UTF-8 (byte 0xff at column 10)): line not copied" \
	"convert does not copy a line that is not UTF-8"
has "$tmp/err" "$tmp/many.cfg: 64 priority lines kept, 0 other lines commented out, 2 lines need attention" \
	"convert counts both as needing attention"
run check "$tmp/many.conf"
expect 0 "the conversion of a file only wrong as a whole passes check"
# convert fails (status 1) only on a file it cannot read or output it
# cannot write (prism(1)); a line holding a NUL byte is not copied
"$P" convert "$example" >/dev/full 2>"$tmp/err"
rc=$?
expect 1 "convert to a full device"
has "$tmp/err" "prism: convert: cannot write the output: No space left on device" \
	"convert says it cannot write the output"
# every subcommand: output that cannot be written is status 1 (prism(1),
# EXIT STATUS), not a silent 0
for args in "check $example" "--help" "--version" "help"; do
	# shellcheck disable=SC2086
	"$P" $args >/dev/full 2>"$tmp/err"
	rc=$?
	expect 1 "$args to a full device"
	# the reason when the last write failed, none when an earlier did
	if grep -Eqx "prism: cannot write the output(: No space left on device)?" "$tmp/err"; then
		ok "$args says it cannot write the output"
	else
		ko "$args to a full device: stderr '$(cat "$tmp/err")'"
	fi
done
printf 'QUEUETIMEWEIGHT 1\nLOG\0LEVEL 3\n' >"$tmp/nul.cfg"
conv "$tmp/nul.cfg" "$tmp/nul.conf"
expect 0 "convert a file with a NUL byte"
has "$tmp/nul.conf" "# needs attention, refused by Prism (NUL byte in the line): line not copied" \
	"a line holding a NUL byte is not copied"

# ---- files real sites ran (issue 15): tests/cli/compat/ ---------------
# each row: file|policy|exit of check|a line check prints (stdout for 0,
# stderr for 1); every Moab file also converts to a file check passes
compat="$top_srcdir/tests/cli/compat"
while IFS='|' read -r f pol want line; do
	[ -n "$f" ] || continue
	run check "--$pol" "$compat/$f"
	expect "$want" "check $f"
	if [ "$want" = 0 ]; then
		has "$tmp/out" "$compat/$f: OK (policy=$pol)" "$f loads"
		has "$tmp/out" "$compat/$line" "$f: its notice"
	else
		has "$tmp/err" "$compat/$line" "$f: refused with FILE:LINE"
	fi
	[ "$pol" = moab ] || continue
	conv "$compat/$f" "$tmp/conv-$f"
	expect 0 "convert $f"
	run check "$tmp/conv-$f"
	expect 0 "the conversion of $f passes check"
done <<'EOF'
moab-limits.cfg|moab|0|moab-limits.cfg:5: CLASSCFG[batch] MAXNODEPERUSER: not an attribute Prism reads (not about priority), ignored
moab-limits.cfg|moab|0|moab-limits.cfg:6: CLASSCFG[large] MAXPROC[USER:alice]: not a priority attribute, ignored
moab-limits.cfg|moab|0|moab-limits.cfg:7: CLASSCFG[debug] PLIST: not a priority attribute, ignored
moab-limits.cfg|moab|0|moab-limits.cfg:7: CLASSCFG[debug] FEATURES+: not a priority attribute, ignored
moab-targets.cfg|moab|0|moab-targets.cfg:7: CLASSCFG[large] FSTARGET: 200% is above 100: used as written (delta = target - usage, never reached) (Moab documents no cap or rescaling)
moab-targets.cfg|moab|0|moab-targets.cfg:10: USERCFG FSTARGET: the user targets sum to 110%, past 100: each is used as written (delta = target - usage) (Moab documents no cap or rescaling)
maui-old-names.cfg|moab|0|maui-old-names.cfg:2: RESOURCEWEIGHT: older name of RESWEIGHT, read as RESWEIGHT
maui-old-names.cfg|moab|0|maui-old-names.cfg:4: XFACTOR: older name of XFACTORWEIGHT, read as XFACTORWEIGHT
maui-old-names.cfg|moab|0|maui-old-names.cfg:6: FSPOLICY: PSDEDICATED is Maui's older name of DEDICATEDPS
moab-forms.cfg|moab|0|moab-forms.cfg:2: #INCLUDE: included files are not read (convert and check each one alone)
moab-forms.cfg|moab|0|moab-forms.cfg:5: 'SUBMITCMD=/usr/bin/qsub': a value without a parameter name (the rest of the line before?), ignored
moab-forms.cfg|moab|0|moab-forms.cfg:17: LOGLEVEL: no value, not a priority parameter, ignored
moab-misspelt.cfg|moab|1|moab-misspelt.cfg:3: FSUSRWEIGHT: unknown priority weight or cap (did you mean FSUSERWEIGHT?)
moab-bad-number.cfg|moab|1|moab-bad-number.cfg:3: QUEUETIMEWEIGHT: '1O' is not a number
ge8-ssconf.conf|gridengine|0|ge8-ssconf.conf:37: backfilling: not a priority parameter, ignored
ge8-ssconf.conf|gridengine|0|ge8-ssconf.conf:43: fair_urgency_list: not modelled by Prism, ignored
ge8-ssconf.conf|gridengine|0|ge8-ssconf.conf:44: weight_host_sort: sorts hosts or queues, not jobs: not a priority parameter, ignored
ge-misspelt.conf|gridengine|1|ge-misspelt.conf:2: 'weight_tickets_functionl': unknown priority weight (did you mean weight_tickets_functional?)
EOF

# what the policy does, after the notices: one screen
run check "$compat/moab-forms.cfg"
has "$tmp/out" "  qos      1: fast prio 100;" \
	"check shows the credentials with priorities"
has "$tmp/out" "  user     1: alice prio 5 target 25%;" \
	"check shows two lines of one credential merged"
has "$tmp/out" "Fair-share: off, interval 604800s, depth 7, decay 1" \
	"check shows the fair-share settings (the last FSINTERVAL)"
has "$tmp/out" "Ignored or read under an older name (notices above): #INCLUDE, SCHEDCFG[Moab], RMCFG[base], 'SUBMITCMD=/usr/bin/qsub', LOGLEVEL, DISPLAYFLAGS" \
	"check shows what is ignored"
run check "$compat/moab-limits.cfg"
has "$tmp/out" "  CRED     weight 1: CLASS 1" \
	"check shows the components in force with their weights"
has "$tmp/out" "Ignored or read under an older name (notices above): RMCFG[base], NODECFG[n01], CLASSCFG[batch] MAXNODEPERUSER, CLASSCFG[large] MAXPROC[USER:alice], CLASSCFG[large] MAXJOB[GROUP:chem], CLASSCFG[debug] PLIST, CLASSCFG[debug] FEATURES+, CLASSCFG[debug] DEFAULT.WCLIMIT, ... (13 in all)" \
	"check names an ignored attribute whole, its bracketed qualifier too"
run check --gridengine "$compat/ge8-ssconf.conf"
has "$tmp/out" "Priority = 1 * priority + 0.1 * urgency + 0.01 * tickets (normalized)" \
	"check shows the Grid Engine weights"

# ---- prism(1)'s examples are the real output (issue 35) ----------------
# block FIRST: the lines of the page's example that starts with the line
# FIRST, up to its .fi, troff's \- read as -
page="$top_srcdir/man/prism.1"
block() {
	awk -v first="$1" 'on && /^\.fi$/ { exit } $0 == first { on = 1 } on' \
		"$page" | sed 's/\\-/-/g'
}
# same_as_page FIRST WANT WHAT: the page's example FIRST is the file WANT
same_as_page() {
	block "$1" >"$tmp/page"
	if [ -s "$tmp/page" ] && cmp -s "$2" "$tmp/page"; then
		ok "prism(1): the example '$1' is $3"
	else
		ko "prism(1): the example '$1' differs from $3:"
		diff "$tmp/page" "$2" | head -20
	fi
}
mkdir -p "$tmp/etc"
cp "$example" "$tmp/etc/prism.conf"
sconf "$tmp/etc" "PriorityParameters=policy=moab"
{
	echo '$ prism check'
	"$P" check --slurm-conf "$tmp/etc/slurm.conf" 2>&1
} | sed -e "s|$tmp/etc/|/etc/slurm/|g" \
	-e "s|^\(priority_prism.so: built for Slurm\) $slurm_ver, the release of .*|\1 24.11.5, the release of /usr/sbin/slurmctld|" \
	>"$tmp/want-check"
same_as_page '$ prism check' "$tmp/want-check" "the output for $example"
cmd='$ prism convert /opt/moab/etc/moab.cfg > /etc/slurm/prism.conf'
{
	echo "$cmd"
	"$P" convert "$compat_dir/moab-forms.cfg" 2>&1 >"$tmp/etc/conv.conf" |
		sed "s|$compat_dir/moab-forms.cfg|/opt/moab/etc/moab.cfg|"
	echo '$ prism check /etc/slurm/prism.conf'
	"$P" check "$tmp/etc/conv.conf" 2>&1 | sed "s|$tmp/etc/conv.conf|/etc/slurm/prism.conf|"
} >"$tmp/want-conv"
same_as_page "$cmd" "$tmp/want-conv" "the output for moab-forms.cfg"
# the Fair Tree factor as explain prints it (test_cli_diag: rank 2 of 2
# is 1/2)
if grep -Fq '(count \- rank + 1) / count' "$page"; then
	ok "prism(1): the Fair Tree factor is (count - rank + 1) / count"
else
	ko "prism(1) does not give the Fair Tree factor as (count - rank + 1) / count"
fi

# ---- the section-5 pages' EXAMPLES pass check (issue 35, the audit) ----
# example PAGE N: the Nth .nf block of PAGE's EXAMPLES, troff's \- read as -
example() {
	awk -v want="$2" '/^\.SH EXAMPLES/ { on = 1; next } /^\.SH / { on = 0 }
		on && /^\.nf$/ { n++; blk = 1; next } on && /^\.fi$/ { blk = 0; next }
		on && blk && n == want' "$top_srcdir/man/$1" | sed 's/\\-/-/g'
}
mkdir -p "$tmp/ex5"
example prism-moab.5 1 >"$tmp/ex5/prism-moab.conf"
run check --moab "$tmp/ex5/prism-moab.conf"
expect 0 "prism-moab(5)'s example passes check --moab"
has "$tmp/out" "$tmp/ex5/prism-moab.conf: OK (policy=moab)" \
	"prism-moab(5)'s example: OK"
example prism-gridengine.5 1 >"$tmp/ex5/prism.conf"
run check --gridengine "$tmp/ex5/prism.conf"
expect 0 "prism-gridengine(5)'s example passes check --gridengine"
has "$tmp/out" "$tmp/ex5/prism.conf: OK (policy=gridengine)" \
	"prism-gridengine(5)'s example: OK"
# priority_prism(5)'s three slurm.conf lines, the Moab file at the path
# the page names moved to $tmp, the Grid Engine one as prism.conf next to
# slurm.conf
for n in 1 2 3; do
	{
		printf 'ClusterName=test\nSlurmctldHost=localhost\n'
		example priority_prism.5 "$n" |
			sed "s|/etc/slurm/prism-moab.conf|$tmp/ex5/prism-moab.conf|"
	} >"$tmp/ex5/slurm.conf"
	pol=$(sed -n 's/^PriorityParameters=policy=\([a-z]*\).*/\1/p' \
		"$tmp/ex5/slurm.conf")
	run check --slurm-conf "$tmp/ex5/slurm.conf"
	expect 0 "priority_prism(5)'s example $n passes check"
	if grep -q ": OK (policy=${pol:-multifactor})" "$tmp/out"; then
		ok "priority_prism(5)'s example $n: OK (policy=${pol:-multifactor})"
	else
		ko "priority_prism(5)'s example $n: $(cat "$tmp/out" "$tmp/err")"
	fi
done

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
# issue 35: options after the job ids (explain 12 --json): read as an
# option, not refused as a job id
SLURM_CONF="$tmp/noctl/missing.conf" timeout 60 "$P" explain 12 --json \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect 1 "explain 12 --json (no controller)"
has "$tmp/err" "prism: cannot reach slurmctld: SLURM_CONF=$tmp/noctl/missing.conf: No such file or directory" \
	"explain 12 --json: --json after the job id is an option"
# issue 35: an empty SLURM_CONF is an error at once (libslurm would try
# to read "" for about a minute); 10 s is far beyond "at once" and far
# below that minute
for cmd in "explain 12" "compare 1 2" "whatif PriorityWeightAge=1"; do
	start=$(date +%s)
	# shellcheck disable=SC2086
	SLURM_CONF= timeout 10 "$P" $cmd >"$tmp/out" 2>"$tmp/err"
	rc=$?
	took=$(($(date +%s) - start))
	expect 1 "$cmd with an empty SLURM_CONF"
	if [ "$(cat "$tmp/err")" = "prism: cannot reach slurmctld: SLURM_CONF is set but empty (unset it for Slurm's default)" ] &&
		[ "$took" -le 5 ] && [ ! -s "$tmp/out" ]; then
		ok "$cmd: an empty SLURM_CONF is named at once (${took}s)"
	else
		ko "$cmd with an empty SLURM_CONF: ${took}s, stderr: $(cat "$tmp/err")"
	fi
done
# --json (policy=multifactor): the same error, and no half-written JSON
start=$(date +%s)
SLURM_CONF="$tmp/noctl/slurm.conf" timeout 60 "$P" explain --json 12 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
expect 1 "explain --json without a controller"
if grep -q "^prism: cannot reach slurmctld: " "$tmp/err" &&
	[ ! -s "$tmp/out" ] && [ "$took" -le 30 ]; then
	ok "explain --json says 'cannot reach slurmctld', prints no JSON"
else
	ko "explain --json without a controller: ${took}s, stdout $(wc -c <"$tmp/out") bytes, stderr: $(cat "$tmp/err")"
fi
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

# whatif: no controller, an unreadable candidate file
SLURM_CONF="$tmp/noctl/slurm.conf" timeout 60 "$P" whatif PriorityWeightAge=5 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect 1 "whatif without a controller"
if grep -q "^prism: cannot reach slurmctld: " "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok "whatif says 'cannot reach slurmctld'"
else
	ko "whatif without a controller: $(cat "$tmp/err")"
fi
SLURM_CONF="$tmp/noctl/slurm.conf" timeout 60 "$P" whatif \
	--policy-file "$tmp/noctl/none.conf" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect 1 "whatif with a candidate file that does not exist"
if [ "$(cat "$tmp/err")" = "prism: whatif: cannot read $tmp/noctl/none.conf: No such file or directory" ] &&
	[ ! -s "$tmp/out" ]; then
	ok "whatif names the unreadable candidate file, before asking the controller"
else
	ko "whatif --policy-file missing: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
