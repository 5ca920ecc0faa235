#!/bin/sh
# test-moab.sh: the Moab/Maui policy through the loaded plugin, in the fake
# controller (prism-harness), with slurm-conf-examples/prism-moab.conf:
#  - every job's priority is what seeds 000-002's formulas give (worked
#    out below, job by job);
#  - sprio's columns add up to each job's priority, for each partition;
#  - without config= the file is prism.conf next to slurm.conf;
#  - REJECTNEGPRIOJOBS holds a job with a negative priority (priority 0);
#  - a bad policy file stops the plugin with one message naming the file
#    and the line (table below), as slurmctld would refuse to start.
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
W="$top_srcdir/tests/harness/worlds/moab.world"
example="$top_srcdir/slurm-conf-examples/prism-moab.conf"
now=1800000000

# conf DIR PARAMS: DIR/slurm.conf with PriorityParameters=PARAMS
conf() {
	mkdir -p "$1"
	sed '/^PriorityParameters=/d' "$top_srcdir/tests/harness/moab.conf" \
		>"$1/slurm.conf"
	echo "PriorityParameters=$2" >>"$1/slurm.conf"
}

# run DIR [OPTIONS...]: report into DIR/out, messages into DIR/err
run() {
	d=$1
	shift
	"$H" --conf "$d/slurm.conf" --world "$W" --now "$now" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 "$@" \
		>"$d/out.raw" 2>"$d/err"
	st=$?
	# Built for Slurm 24.11 the harness labels each job and sprio row
	# with its QOS (and account, array size): these worlds have one
	# QOS per job, so the checks below read the 22.05 shape.
	sed -E -e 's/^((job|factors) [0-9]+ part=[^ ]+) qos=[^ ]+/\1/' \
		-e 's/^(factors [0-9]+ .*) account=[^ ]+/\1/' \
		-e 's/^(job [0-9]+ part=\*.*) array=[0-9]+ names=[^ ]+/\1/' \
		"$d/out.raw" >"$d/out"
	return $st
}

# prio DIR JOB [PART]: the job's priority in the report
prio() {
	sed -n "s/^job $2 part=${3:-[^ *]*} .* priority=\([0-9]*\)$/\1/p" \
		"$1/out" | head -n 1
}

# ---- the example policy, one hour of usage charged --------------------
ex=$(cd "$(dirname "$example")" && pwd)/$(basename "$example")
conf "$tmp/ex" "policy=moab,config=$ex"
mkdir -p "$tmp/ex/state"
if run "$tmp/ex" --last-ran $((now - 3600)) --state "$tmp/ex/state"; then
	ok "priority/prism loads $example"
else
	ko "priority/prism with $example exited $?"
	cat "$tmp/ex/err"
fi

# the policy put in force is kept (for a restart by a reconfigure): its
# parameters, path and the file's text exactly
saved="$tmp/ex/state/priority_prism_policy"
if [ -f "$saved" ] &&
	sed -n 1,4p "$saved" | grep -qx "params policy=moab,config=$ex" &&
	sed -n 1,4p "$saved" | grep -qx "path $ex" &&
	sed -n 1,4p "$saved" | grep -qx "length $(wc -c <"$example")" &&
	tail -n +6 "$saved" | cmp -s - "$example"; then
	ok "the policy in force is kept in StateSaveLocation/priority_prism_policy"
else
	ko "priority_prism_policy missing or not the file in force: $(head -c 300 "$saved" 2>&1)"
fi

# Expected priorities (Moab priority + 1: no ENABLENEGJOBPRIORITY).
# Usage: the running job 6 (nobody@physics, 8 CPUs) was charged an hour,
# so user nobody and account physics have 100% of it, everyone else 0%.
# FS: daemon 10*(25-0)=250, bin floor 10+ at 0% -> 10*10=100, nobody no
# target; physics 5*(60-100)=-200, chem 5*(40-0)=200.
# CRED: USERWEIGHT 100, GROUPWEIGHT 10, QOS 1, CLASS 1 (batch has no
# CLASSCFG: its PriorityJobFactor 1; fast: CLASSCFG 100).
# SERV: queued minutes + 100 * (1 + queued / MAX(10 min, limit)).
#  job 1 daemon batch, 2 h, 60 min: 120+300 + 1000+1 + 250-200 = 1471
#  job 2 bin (group bin) batch, 1 h, 240 min: 60+125 + 500+200+1
#        + 100+200 = 1186
#  job 3 nobody fast, QOS high (QTWEIGHT 5: 6 a minute), 30 min, 60 min:
#        180+150 + 500+100 - 200 = 730
#  job 4 daemon batch+fast, 10 min, 60 min: 10+116.67 + 1000+1 + 50
#        = 1177.67 -> 1177 in batch; with fast's 100: 1276
#  job 5 admin priority 7: system priority, MAX_PRIO_VAL + 7
#  job 7 daemon, nice 500 (USERPRIOWEIGHT 0), 1 h, 60 min:
#        60+200 + 1001 + 50 = 1311
for row in "1 batch 1472" "2 batch 1187" "3 fast 731" "4 batch 1178" \
	"4 fast 1277" "5 batch 1000000008" "7 batch 1312"; do
	set -- $row
	got=$(prio "$tmp/ex" "$1" "$2")
	if [ "$got" = "$3" ]; then
		ok "job $1 in $2: priority $got as the formulas give"
	else
		ko "job $1 in $2: priority '$got', the formulas give $3"
	fi
done
got=$(prio "$tmp/ex" 4 '\*')
[ "$got" = 1178 ] && ok "job 4 takes its first partition's priority" ||
	ko "job 4's priority is '$got', not 1178"

# sprio's columns add up to the job's priority in that partition
awk -v tmpout="$tmp/ex/out" '
	$1 == "job" { split($3, p, "="); split($NF, v, "=");
		      prio[$2 " " p[2]] = v[2] }
	$1 == "factors" && $5 !~ /^direct=/ {
		split($3, p, "="); sum = 0
		for (i = 5; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "nice") sum -= kv[2]
			else if (kv[1] != "tres") sum += kv[2]
		}
		key = $2 " " p[2]; n++
		if (sum != prio[key]) {
			printf "job %s: columns add up to %s, priority %s\n",
				key, sum, prio[key]; bad++
		}
	}
	END { if (!n) { print "no factor rows"; exit 1 }; exit bad > 0 }
' "$tmp/ex/out" >"$tmp/sum.txt" &&
	ok "sprio columns add up to each job's priority ($(grep -c '^factors' "$tmp/ex/out") rows)" ||
	{ ko "sprio columns do not add up"; cat "$tmp/sum.txt"; }

# A running job that ends during a pass, after the pass charged it
# (lib.sh): the account's usage is that of the job ending after the pass.
policy_job_end "policy=moab,config=$ex" priority_prism_moab_usage \
	'^account physics 29040 ' "the account's usage"
# Killed after a pass saved the state file, before the Moab usage file
# (lib.sh): that pass's charge is lost, not made twice.
policy_killed "policy=moab,config=$ex" priority_prism_moab_usage \
	'^total 480 0 ' '^total 29280 0 ' "the Moab usage"

# ---- a job asking for several QOS (Slurm 24.11: sbatch --qos=a,b) -----
# Each entry of its priority array is computed with that entry's QOS as
# the QOS credential: it equals the priority of the same job asking for
# that QOS alone; the job's own priority is that of its first QOS (the
# highest). Jobs 11-13 are alike but for their QOS.
slurm_version=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"$/\1/p' \
	"${SLURM_SOURCE:-/nonexistent}/config.h" 2>/dev/null)
case $slurm_version in
2[4-9].*)
	mq="$tmp/multiqos"
	conf "$mq" "policy=moab,config=$ex"
	{
		cat "$W"
		echo "job 11 user=nobody part=fast qos=high,normal cpus=1 submit=-30m time_limit=60"
		echo "job 12 user=nobody part=fast qos=high cpus=1 submit=-30m time_limit=60"
		echo "job 13 user=nobody part=fast qos=normal cpus=1 submit=-30m time_limit=60"
	} >"$mq/world"
	W_saved=$W
	W="$mq/world"
	run "$mq" --last-ran $((now - 3600)) || ko "multi-QOS world: harness exited $?"
	W=$W_saved
	# entry ENTRY JOB QOS: job JOB's priority (in QOS, for the entries)
	entry() {
		sed -n "s/^job $1 part=fast qos=$2 .* priority=\([0-9]*\)$/\1/p" \
			"$mq/out.raw" | head -n 1
	}
	own=$(sed -n 's/^job 11 part=\* .* priority=\([0-9]*\)$/\1/p' \
		"$mq/out.raw" | head -n 1)
	e_high=$(entry 11 high) e_normal=$(entry 11 normal)
	p_high=$(entry 12 high) p_normal=$(entry 13 normal)
	if [ -n "$e_high" ] && [ -n "$p_normal" ] &&
		[ "$e_high" = "$p_high" ] && [ "$e_normal" = "$p_normal" ] &&
		[ "$own" = "$p_high" ] && [ "$e_high" != "$e_normal" ]; then
		ok "multi-QOS job: entry (fast, high) $e_high = the high job's, (fast, normal) $e_normal = the normal job's, its own $own"
	else
		ko "multi-QOS job: entries high '$e_high' normal '$e_normal' own '$own'; alone: high '$p_high' normal '$p_normal'"
		grep -E '^job 1[123] ' "$mq/out.raw"
		cat "$mq/err"
	fi
	;;
*) echo "SKIP: multi-QOS jobs need Slurm 24.11 (built for '${slurm_version:-unknown}')" ;;
esac

# ---- default file: prism.conf next to slurm.conf ----------------------
conf "$tmp/def" "policy=moab"
printf 'QUEUETIMEWEIGHT 2\n' >"$tmp/def/prism.conf"
if run "$tmp/def" && [ "$(prio "$tmp/def" 1 batch)" = 241 ]; then
	ok "without config= prism.conf next to slurm.conf is read (job 1: 2 * 120 min + 1)"
else
	ko "prism.conf next to slurm.conf: job 1 has '$(prio "$tmp/def" 1 batch)', not 241"
	tail -5 "$tmp/def/err"
fi

# ---- REJECTNEGPRIOJOBS -------------------------------------------------
conf "$tmp/rej" "policy=moab"
printf 'ENABLENEGJOBPRIORITY TRUE\nREJECTNEGPRIOJOBS TRUE\nUSERPRIOWEIGHT 10\n' \
	>"$tmp/rej/prism.conf"
run "$tmp/rej"
# job 7: 60 min queued - 10 * 500 nice < 0: held; job 1: M + 120 + 1
if grep -q '^job 7 part=batch state=PENDING reason=JobHeldAdmin priority=0$' "$tmp/rej/out" &&
	[ "$(prio "$tmp/rej" 1 batch)" = 1000000121 ]; then
	ok "REJECTNEGPRIOJOBS holds the negative job 7, job 1 maps to MAX_PRIO_VAL + 121"
else
	ko "REJECTNEGPRIOJOBS: $(grep '^job [17] ' "$tmp/rej/out" | tr '\n' ';')"
fi

# ---- a file Moab ran loads; its notices reach the log (issue 15) -------
# (-vv: the harness logs slurmctld's info() lines, where notices go)
d="$tmp/compat"
conf "$d" "policy=moab"
printf 'CLASSCFG[batch] FSTARGET=200 MAXNODEPERUSER=4\nRESOURCEWEIGHT 2\n' \
	>"$d/prism.conf"
if ! run "$d" -vv; then
	ko "a Moab file with limits, a target above 100, an older name: $(head -n 2 "$d/err")"
else
	for want in ":1: CLASSCFG\[batch\] FSTARGET: 200% is above 100" \
		":1: CLASSCFG\[batch\] MAXNODEPERUSER: not an attribute Prism reads" \
		":2: RESOURCEWEIGHT: older name of RESWEIGHT"; do
		if grep -q "priority/prism: $d/prism.conf$want" "$d/err"; then
			ok "the plugin logs 'prism.conf$want'"
		else
			ko "no log line 'prism.conf$want' in: $(grep prism "$d/err" | head -n 3)"
		fi
	done
fi

# ---- bad files: one message naming file and line ----------------------
# Each row: a label, the file's text (printf format; "DIR" makes it a
# directory, "NONE" leaves it out), the message expected.
i=0
while IFS='|' read -r label text want; do
	[ -n "$label" ] || continue
	i=$((i + 1))
	d="$tmp/bad$i"
	conf "$d" "policy=moab"
	case $text in
	DIR) mkdir "$d/prism.conf" ;;
	NONE) ;;
	*) printf "$text" >"$d/prism.conf" ;;
	esac
	if run "$d"; then
		ko "$label: the plugin loaded"
	elif grep -q "priority/prism: $d/prism.conf$want" "$d/err"; then
		ok "$label: $(grep -m 1 -o "prism.conf$want.*" "$d/err")"
	else
		ko "$label: no message 'prism.conf$want' in: $(head -n 2 "$d/err")"
	fi
done <<'EOF'
not a number|USERCFG[daemon] PRIORITY=ten\n|:1: USERCFG\[daemon\] PRIORITY: 'ten' is not a number
bad weight on line 3|# c\n\nQUEUETIMEWEIGHT x\n|:3: QUEUETIMEWEIGHT
misspelt weight|QUEUETIMWEIGHT 3\n|:1: QUEUETIMWEIGHT: unknown priority weight or cap
bad target|USERCFG[bin] FSTARGET=-5\n|:1: USERCFG\[bin\] FSTARGET: '-5' is out of range
bad cap|SERVCAP -\n|:1:
non-UTF-8 bytes|USERCFG[d\351mon] PRIORITY=1\n|:1: invalid UTF-8
overlong line|USERCFG[daemon] PRIORITY=1 %01100d\n|:1: line is longer than 1024 bytes
empty file||: file is empty
a directory|DIR|: is a directory, not a file
missing file|NONE|: cannot open: No such file or directory
EOF

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
