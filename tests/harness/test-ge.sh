#!/bin/sh
# test-ge.sh: the Grid Engine policy through the loaded plugin, in the fake
# controller (prism-harness), on worlds/ge.world:
#  - slurm-conf-examples/gridengine.conf loads, its notices are logged,
#    grant1's override tickets are shared among its pending jobs, and the
#    share-tree usage file holds the running job's CPU-seconds;
#  - a small policy of the seed's site (urgency 100 per slot, partitions
#    t2 and u2 40000 and 80000, 0.278 per second of waiting): every
#    pending job's urgency is exact (the harness freezes time), the
#    pending jobs come in the order of their urgency, each Slurm priority
#    is 1 + floor(S * prio) (worked out below with awk), held and
#    admin-set jobs keep 0 and their priority;
#  - sprio's columns add up to each job's priority, for each partition;
#  - a job gets a priority (never 0) at submission, before any pass;
#  - without config= the file is prism.conf next to slurm.conf;
#  - a bad policy file stops the plugin with one message naming the file
#    and the line (table below), as slurmctld would refuse to start.
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
W="$top_srcdir/tests/harness/worlds/ge.world"
example="$top_srcdir/slurm-conf-examples/gridengine.conf"
now=1800000000

# conf DIR PARAMS: DIR/slurm.conf with PriorityParameters=PARAMS
conf() {
	mkdir -p "$1"
	sed '/^PriorityParameters=/d' "$top_srcdir/tests/harness/ge.conf" \
		>"$1/slurm.conf"
	echo "PriorityParameters=$2" >>"$1/slurm.conf"
}

# run DIR [OPTIONS...]: report into DIR/out, messages (-vv: the notices
# and DebugFlags=Priority lines) into DIR/err
run() {
	d=$1
	shift
	"$H" --conf "$d/slurm.conf" --world "$W" --now "$now" \
		--plugindir "$prism_dir:$slurm_dir" --timeout 60 -vv "$@" \
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

# pass_line DIR JOB: the job's DebugFlags=Priority line of the pass
pass_line() {
	grep "PRIO: JobId=$2 Grid Engine priority: " "$1/err" | tail -n 1
}

# sums DIR: sprio's columns add up to the job's priority in that partition
sums() {
	awk '
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
				printf "job %s: columns add up to %.0f, priority %s\n",
					key, sum, prio[key]; bad++
			}
		}
		END { if (!n) { print "no factor rows"; exit 1 }; exit bad > 0 }
	' "$1/out" >"$tmp/sum.txt" &&
		ok "$2: sprio columns add up to each job's priority ($(grep -c '^factors' "$1/out") rows)" ||
		{ ko "$2: sprio columns do not add up"; cat "$tmp/sum.txt"; }
}

# ---- the example policy, one hour of usage charged --------------------
ex=$(cd "$(dirname "$example")" && pwd)/$(basename "$example")
conf "$tmp/ex" "policy=gridengine,config=$ex"
if run "$tmp/ex" --last-ran $((now - 3600)) --state "$tmp/ex/state"; then
	ok "priority/prism loads $example"
else
	ko "priority/prism with $example exited $?"
	tail -n 5 "$tmp/ex/err"
fi
if grep -q "priority/prism: policy=gridengine from $ex$" "$tmp/ex/err" &&
	grep -q "priority/prism: $ex:20: algorithm: not a priority parameter, ignored" "$tmp/ex/err" &&
	grep -q "priority/prism: $ex:33: usage_weight_list: not modelled by Prism, ignored" "$tmp/ex/err"; then
	ok "example: policy in force, its notices logged"
else
	ko "example: no 'policy=gridengine from' or notice lines"
fi
# grant1 (daemon's jobs 1, 3, 8) has 2000 override tickets, shared among
# its three pending jobs (share_override_tickets): 2000 + 1000 + 666.67
otix=$(for j in 1 3 8; do pass_line "$tmp/ex" $j; done |
	sed -n 's/.*(override \([0-9.]*\) .*/\1/p' |
	awk '{ s += $1; n++ } END { if (n == 3) printf "%.2f\n", s }')
[ "$otix" = 3666.67 ] &&
	ok "example: grant1's 2000 override tickets shared by its 3 jobs (3666.67 in all)" ||
	ko "example: grant1's jobs have '$otix' override tickets, not 3666.67"
# the running job 6 (nobody, 8 CPUs) was charged an hour: 28800 CPU-s
u="$tmp/ex/state/priority_prism_ge_usage"
if [ -f "$u" ] && [ "$(grep -c '^assoc ' "$u")" = 1 ] &&
	grep -q '^assoc [0-9]* 28800$' "$u"; then
	ok "example: share-tree usage file holds job 6's 8 CPUs x 3600 s"
else
	ko "example: usage file: $(tr '\n' ';' <"$u" 2>/dev/null)"
fi
# A running job that ends during a pass, after the pass charged it
# (lib.sh): the share tree's usage is that of the job ending after the pass.
policy_job_end "policy=gridengine,config=$ex" priority_prism_ge_usage \
	'^assoc [0-9]* 29040$' "the share tree's usage"
# Killed after a pass saved the state file, before the share tree's usage
# file (lib.sh): that pass's charge is lost, not made twice.
policy_killed "policy=gridengine,config=$ex" priority_prism_ge_usage \
	'^assoc [0-9]* 480$' '^assoc [0-9]* 29279\.' "the share tree's usage"
# nobody's usage: the share tree gives physics's jobs (bin, nobody) almost
# nothing, grant1's jobs the tickets
t1=$(pass_line "$tmp/ex" 1 | sed -n 's/.*tickets \([0-9.]*\) .*/\1/p')
t4=$(pass_line "$tmp/ex" 4 | sed -n 's/.*tickets \([0-9.]*\) .*/\1/p')
awk -v a="$t1" -v b="$t4" 'BEGIN { exit !(a > 10000 && b < 1) }' &&
	ok "example: used-up physics gets almost no share-tree tickets (job 4: $t4, job 1: $t1)" ||
	ko "example: tickets job 1 '$t1', job 4 '$t4'"
sums "$tmp/ex" "example"

# ---- the seed's site, exact numbers -------------------------------------
conf "$tmp/seed" "policy=gridengine,config=$tmp/seed/seed.conf"
cat >"$tmp/seed/seed.conf" <<'EOF'
# the seed's site; no ticket pools: every job's ntckts is 0.5
urgency_slots 100
urgency_partition[t2] 40000
urgency_partition[u2] 80000
weight_waiting_time 0.278
weight_urgency 0.5
weight_ticket 0.5
weight_priority 0.1
EOF
run "$tmp/seed" || ko "seed policy: the harness exited $?"
# urgency: 100 per CPU + partition + 0.278 per second (ge.world)
for row in "1 41428.00" "2 40216.68" "3 39426.40" "4 80216.68" \
	"8 2201.60" "9 1100.80"; do
	set -- $row
	if pass_line "$tmp/seed" "$1" | grep -q ": urg $2 "; then
		ok "seed: job $1's urgency is $2"
	else
		ko "seed: job $1: $(pass_line "$tmp/seed" "$1")"
	fi
done
# order: by urgency (nice only lowers job 9, already last)
order=$(awk '$1 == "job" && $3 != "part=*" && $2 !~ /^[567]$/ {
		split($3, p, "="); split($NF, v, "=")
		print v[2], $2 (p[2] == "t2" && $2 == 8 ? "@t2" : "") }' \
	"$tmp/seed/out" | sort -rn | awk '{ printf "%s ", $2 }')
[ "$order" = "4 8@t2 1 2 3 8 9 " ] &&
	ok "seed: pending jobs ordered by urgency: $order" ||
	ko "seed: order '$order', not '4 8@t2 1 2 3 8 9 '"
# Slurm priority = 1 + floor(S * prio), S = (0xfffffffd - 1) / W,
# W = 0.5 + 0.5 + 0.1, prio = 0.5 nurg + 0.5 * 0.5 + 0.1 npprior,
# nurg over the pass's urgencies 1100.8 .. 80216.68 (job 8 in t2: its
# urgency there, normalised alike), npprior = (1024 - nice) / 2048
bad=$(awk '
	BEGIN {
		u["1 batch"] = 41428; u["2 t2"] = 40216.68
		u["3 batch"] = 39426.4; u["4 u2"] = 80216.68
		u["8 batch"] = 2201.6; u["8 t2"] = 42201.6
		u["9 batch"] = 1100.8; nice["9 batch"] = 100
		w = 0.5 + 0.5 + 0.1; s = (4294967293 - 1) / w
		lo = 1100.8; hi = 80216.68
	}
	$1 == "job" && $3 != "part=*" {
		split($3, p, "="); split($NF, v, "="); k = $2 " " p[2]
		if (!(k in u)) next
		n++
		pr = 0.5 * (u[k] - lo) / (hi - lo) + 0.5 * 0.5
		pr += 0.1 * (1024 - nice[k]) / 2048
		want = 1 + int(s * pr)
		d = v[2] - want
		if (d > 1 || d < -1)
			printf "job %s: %s, not %.0f; ", k, v[2], want
	}
	END { if (n != 7) printf "%d rows, not 7", n }' "$tmp/seed/out" ||
	echo "awk failed")
[ -z "$bad" ] &&
	ok "seed: every Slurm priority is 1 + floor(S * prio) (+-1)" ||
	ko "seed: $bad"
[ "$(prio "$tmp/seed" 5)" = 0 ] && [ "$(prio "$tmp/seed" 7)" = 7 ] &&
	grep -q '^factors 7 part=batch user=2 direct=7.000000$' "$tmp/seed/out" &&
	ok "seed: held job 5 stays 0, admin-set job 7 keeps 7" ||
	ko "seed: job 5 '$(prio "$tmp/seed" 5)', job 7 '$(prio "$tmp/seed" 7)'"
# job 8's rows differ in AGE only (its t2 urgency)
r8=$(grep '^factors 8 ' "$tmp/seed/out" |
	sed 's/.* assoc=\([^ ]*\) .* qos=\([^ ]*\) site=\([^ ]*\) .*/\1 \2 \3/' |
	sort -u | wc -l)
[ "$r8" = 1 ] && ok "seed: job 8's partitions differ in the urgency column only" ||
	ko "seed: job 8's rows: $(grep '^factors 8 ' "$tmp/seed/out" | tr '\n' ';')"
sums "$tmp/seed" "seed"

# ---- submission: a priority before any pass -----------------------------
mkdir -p "$tmp/sub"
cp "$tmp/seed/slurm.conf" "$tmp/seed/seed.conf" "$tmp/sub/"
sed -i "s|$tmp/seed/|$tmp/sub/|" "$tmp/sub/slurm.conf"
run "$tmp/sub" --pass none
zero=$(awk '$1 == "job" && $2 != 5 && $NF == "priority=0"' "$tmp/sub/out")
if [ -z "$zero" ] && [ "$(prio "$tmp/sub" 5)" = 0 ] &&
	[ "$(grep -c 'Grid Engine priority (submission)' "$tmp/sub/err")" -ge 6 ]; then
	ok "submission: every pending job gets a priority > 0 before a pass"
else
	ko "submission: $zero job 5 '$(prio "$tmp/sub" 5)'"
fi

# ---- default file: prism.conf next to slurm.conf ----------------------
conf "$tmp/def" "policy=gridengine"
printf 'urgency_slots 7\n' >"$tmp/def/prism.conf"
if run "$tmp/def" &&
	grep -q "policy=gridengine from $tmp/def/prism.conf$" "$tmp/def/err" &&
	pass_line "$tmp/def" 9 | grep -q 'rr 7.00 '; then
	ok "without config= prism.conf next to slurm.conf is read"
else
	ko "prism.conf next to slurm.conf: $(tail -n 3 "$tmp/def/err")"
fi

# ---- a Grid Engine 8.x qconf -ssconf dump loads (issue 15) ------------
ge8=$(cd "$top_srcdir/tests/cli/compat" && pwd)/ge8-ssconf.conf
conf "$tmp/ge8" "policy=gridengine,config=$ge8"
if run "$tmp/ge8" &&
	grep -q "priority/prism: $ge8:37: backfilling: not a priority parameter, ignored" "$tmp/ge8/err" &&
	grep -q "priority/prism: $ge8:44: weight_host_sort: sorts hosts or queues, not jobs" "$tmp/ge8/err"; then
	ok "a Grid Engine 8.x dump loads, its notices logged"
else
	ko "a Grid Engine 8.x dump: $(grep prism "$tmp/ge8/err" | head -n 3)"
fi

# ---- bad files: one message naming file and line ----------------------
# Each row: a label, the file's text (printf format; "DIR" makes it a
# directory, "NONE" leaves it out), the message expected.
i=0
while IFS='|' read -r label text want; do
	[ -n "$label" ] || continue
	i=$((i + 1))
	d="$tmp/bad$i"
	conf "$d" "policy=gridengine"
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
		ko "$label: no message 'prism.conf$want' in: $(grep -m 2 prism "$d/err")"
	fi
done <<'EOF'
not a number|weight_urgency abc\n|:1: weight_urgency: 'abc' is not a number
bad value on line 3|# c\n\nhalftime 1.5\n|:3: halftime: '1.5' is not an integer
misspelt parameter|weight_urgncy 0.5\n|:1: 'weight_urgncy': unknown priority weight (did you mean weight_urgency?)
missing bracket|urgency_partition[t2 40000\n|:1: 'urgency_partition\[t2': missing '\]'
conflicting lines|weight_urgency 0.5\nweight_urgency 0.6\n|:2: weight_urgency: '0.6' conflicts with line 1
empty file||: file is empty
missing file|NONE|: cannot open: No such file or directory
EOF

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
