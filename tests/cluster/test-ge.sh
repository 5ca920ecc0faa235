#!/bin/bash
# tests/cluster/test-ge.sh -- cluster test of the Grid Engine policy.
#
# Starts a private loopback cluster with PriorityType=priority/prism and
# PriorityParameters=policy=gridengine,config=DIR/ge/prism.conf (urgency
# 100 per slot, partition high 40000, 0.278 per second of waiting, a
# deadline weight, weight_priority for nice; share-tree tickets computed
# but weighed 0 so the order is the urgency's), fills every node with
# running jobs, submits pending jobs whose order the formulas make
# obvious, then checks:
#   (a) the policy file was loaded and its notice logged
#   (b) each job's urgency parts are what the formulas give: slots x 100
#       plus the partition's urgency; the deadline job's weight_deadline /
#       seconds left; the niced job's POSIX priority -nice
#   (c) sprio's columns add up to each job's priority (squeue %Q), and the
#       AGE column (urgency) orders the jobs as the priority does
#   (d) squeue lists the pending jobs in the order the formulas predict:
#       partition urgency > big-CPU job > 8 CPUs > deadline > plain > niced
#       (the niced job was submitted first: nice beats the waiting time)
#   (e) a held job stays at 0; an admin-set priority is kept by the passes
#   (f) a broken file on reconfigure is reported with file:line, the
#       controller keeps running and the old policy stays in force; prism
#       explain then shows the policy in force (issue 35)
#   (g) a changed file on reconfigure is in force at the next pass (no
#       more urgency for partition high: the big-CPU job leads)
#   (h) the share-tree usage (CPU-seconds of the running jobs, saved in
#       StateSaveLocation) grows and survives a slurmctld restart
#   (i) prism whatif refuses a broken candidate file (exit 1, FILE:LINE)
#   (j) prism whatif --all --policy-file on the file of (g), run just
#       before the reconfigure, predicts the order sprio shows after it,
#       and its priorities but for the deadline job's (which grows)
#   (k) prism compare of the 24-CPU and the 8-CPU job names the urgency
#       (sprio's AGE: urgency_slots) as the term that decides
#   (l) prism explain agrees with the controller: its qstat -pri table
#       lists the pending jobs in squeue's order, and each job's urg in
#       qstat -urg is the urgency the plugin logged at its last pass
#   (m) prism whatif refuses a Moab file as a candidate: nothing in it
#       was understood as Grid Engine, it looks like a Moab file (issue 35)
#   (n) prism explain --json is a usage error under this policy (exit 2)
# The cluster is always stopped (trap); the temp dir is removed on success
# and kept on failure (or with PRISM_KEEP_DIR).
#
# Environment: PRISM_PLUGIN_DIR (passed to cluster-start.sh), PRISM_CLI
# (the prism command; default: the build's src/cli/prism, else prism).
# Last output line: "N passed, M failed"; exit 0 only if M is 0.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"

TOP=$(cd "$HERE/../.." && pwd)
CLI=${PRISM_CLI:-$TOP/src/cli/prism}
[[ -x $CLI ]] || CLI=$(command -v prism || echo "$TOP/src/cli/prism")

cluster_test_begin ge

# ---------------------------------------------------------------- policy
POLICY=$DIR/ge/prism.conf
mkdir -p "$DIR/ge"
write_policy() { # write_policy HIGH_URGENCY
    cat >"$POLICY" <<EOF
# Grid Engine policy of tests/cluster/test-ge.sh
schedule_interval          0:0:15
weight_urgency             1
weight_ticket              0
weight_priority            0.1
weight_waiting_time        0.278
weight_deadline            3600000
urgency_slots              100
urgency_partition[high]    $1
halftime                   336
weight_tickets_share       10000
EOF
}
write_policy 40000
W_PRIO=0.1 # weight_priority (W = 1 + 0 + 0.1)

export PRISM_PRIORITY_TYPE=priority/prism
export PRISM_SLURM_CONF_EXTRA="PriorityParameters=policy=gridengine,config=$POLICY
DebugFlags=Priority"

log "starting cluster in $DIR (policy=gridengine)"
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"
LOGF=$DIR/log/slurmctld.log
STATE=$DIR/state
USAGE=$STATE/priority_prism_ge_usage

# ---------------------------------------------------------------- helpers
prio_of() { squeue -h -j "$1" -o '%Q' 2>/dev/null | tr -d ' '; }
submit() { # submit USER SBATCH_ARGS... -- job id
    local user=$1
    shift
    submit_as "$user" -o /dev/null --chdir="$DIR/out" "$@"
}
state_mtime() { file_mtime "$STATE/priority_prism_state"; echo "$MTIME"; }
# wait_pass DESC -- wait until the next recalculation pass has saved state
wait_pass() { wait_written "$STATE/priority_prism_state" "$1" || log "no pass seen ($1)"; }
# sprio_row JOB -- "PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTITION QOS NICE"
sprio_row() {
    sprio -h -j "$1" -o '%Y %S %A %B %F %J %P %Q %N' 2>/dev/null | head -n 1
}
col() { sprio_row "$1" | awk -v c="$2" '{print $c}'; }
# pass_line JOB [FROM] -- the job's last DebugFlags=Priority line of a pass
# (after log line FROM)
pass_line() {
    tail -n +"${2:-1}" "$LOGF" | grep "PRIO: JobId=$1 Grid Engine priority: " | tail -n 1
}
# field JOB NAME [FROM] -- a number of the job's pass line ("urg", "rr",
# "deadline", "ppri", "slurm")
field() {
    pass_line "$1" "${3:-1}" | sed -n "s/.*[ (]$2 \\(-\\?[0-9.]*\\).*/\\1/p"
}
# usage_sum -- all share-tree usage in the saved file
usage_sum() {
    awk '$1 == "assoc" { s += $3 } END { printf "%.3f\n", s }' "$USAGE" 2>/dev/null || echo 0
}
# pending order by squeue's own sort (priority, highest first)
squeue_order() {
    squeue -h -t PD -S -p -o '%i' -j "$(IFS=,; echo "${ORDERED[*]}")" |
        tr -d ' ' | tr '\n' ' '
}
name_of() { # name_of JOB -- the job's label in messages
    local j
    for j in "${!LABEL[@]}"; do [[ $j == "$1" ]] && { echo "${LABEL[$j]}"; return; }; done
    echo "$1"
}
names() { local j; for j in $1; do printf '%s ' "$(name_of "$j")"; done; }

# ---------------------------------------------------------------- workload
log "filling the nodes: 3 with root's jobs, 1 with user games's"
FILL=()
nodes=($(sinfo -h -N -p low -o '%N' | sort -u))
for ((i = 0; i < ${#nodes[@]}; i++)); do
    user=root
    ((i == ${#nodes[@]} - 1)) && user=games
    FILL+=("$(submit "$user" -p low -w "${nodes[i]}" -N 1 --exclusive \
        -J fill -t 60 --wrap 'sleep 1800')")
done
fill_running() {
    local n
    n=$(squeue -h -t R -j "$(IFS=,; echo "${FILL[*]}")" -o '%i' | wc -l)
    ((n == ${#FILL[@]}))
}
wait_for "$LIMIT_SCHED" "fill jobs running" fill_running || die "fill jobs did not start"

log "submitting pending jobs"
DL_AT=$(($(date +%s) + 7200))
J_NICE=$(submit root -p low -n 1 -t 10 --nice=100 -J niced --wrap 'sleep 5')
sleep 2
J_PLAIN=$(submit daemon -p low -n 1 -t 10 -J plain --wrap 'sleep 5')
J_DL=$(submit root -p low -n 1 -t 10 --deadline="$(date -d "@$DL_AT" +%Y-%m-%dT%H:%M:%S)" \
    -J deadline --wrap 'sleep 5')
J_MID=$(submit bin -p low -n 8 -t 10 -J cpu8 --wrap 'sleep 5')
J_BIG=$(submit root -p low -n 24 -t 10 -J cpu24 --wrap 'sleep 5')
J_HIGH=$(submit games -p high -n 1 -t 10 -J part-high --wrap 'sleep 5')
J_HELD=$(submit root -p low -n 1 -t 10 -H -J held --wrap 'sleep 5')
J_ADMIN=$(submit daemon -p low -n 1 -t 10 -J admin --wrap 'sleep 5')
scontrol update jobid="$J_ADMIN" priority=1234
# predicted order (see (d))
ORDERED=("$J_HIGH" "$J_BIG" "$J_MID" "$J_DL" "$J_PLAIN" "$J_NICE")
declare -A LABEL=(["$J_HIGH"]=part-high ["$J_BIG"]=cpu24 ["$J_MID"]=cpu8
    ["$J_DL"]=deadline ["$J_PLAIN"]=plain ["$J_NICE"]=niced)
declare -A CPUS=(["$J_HIGH"]=1 ["$J_BIG"]=24 ["$J_MID"]=8 ["$J_DL"]=1
    ["$J_PLAIN"]=1 ["$J_NICE"]=1)
declare -A NICE=(["$J_NICE"]=100)
# Two passes: the first after submission, the second with usage charged.
wait_pass "after submission"
wait_pass "second"

echo "=== squeue"
squeue -o '%.6i %.9P %.10j %.8u %.8T %.12Q %r' || true
echo "=== sprio -l"
sprio -l || true
echo "=== $USAGE"
cat "$USAGE" || true

# ---------------------------------------------------------------- checks
# (a) loaded, with notices
if grep -q "priority/prism: policy=gridengine from $POLICY" "$LOGF" &&
    grep -q "priority/prism: $POLICY:2: schedule_interval: not a priority parameter, ignored" "$LOGF"; then
    check "(a) policy file loaded, notice logged" 0
else
    check "(a) policy file loaded, notice logged" 1 \
        "$(grep 'priority/prism' "$LOGF" | head -n 5 | tr '\n' ';')"
fi

# (b) urgency parts from the pass's DebugFlags=Priority lines
bad=()
for j in "${ORDERED[@]}"; do
    want_rr=$(awk -v c="${CPUS[$j]}" -v h="$([[ $j == "$J_HIGH" ]] && echo 40000 || echo 0)" \
        'BEGIN { printf "%.2f\n", 100 * c + h }')
    rr=$(field "$j" rr)
    [[ $rr == "$want_rr" ]] || bad+=("$(name_of "$j"):rr=$rr!=$want_rr")
    ppri=$(field "$j" ppri)
    [[ $ppri == "$((-${NICE[$j]:-0}))" ]] || bad+=("$(name_of "$j"):ppri=$ppri")
done
# the deadline job: weight_deadline / seconds left, at some second of the
# minute before the last pass
dl=$(field "$J_DL" deadline)
ok=$(awk -v d="$dl" -v at="$DL_AT" -v t="$(state_mtime)" 'BEGIN {
    for (s = t - 65; s <= t + 1; s++)
        if (sprintf("%.2f", 3600000 / (at - s)) == d) { print 1; exit }
    print 0 }')
((ok == 1)) || bad+=("deadline:dl=$dl(deadline $DL_AT)")
[[ $(field "$J_PLAIN" deadline) == 0.00 ]] || bad+=("plain:dl=$(field "$J_PLAIN" deadline)")
check "(b) urgency parts as the formulas give" "${#bad[@]}" \
    "${bad[*]:-high rr $(field "$J_HIGH" rr), cpu24 rr $(field "$J_BIG" rr), deadline $dl}"

# (c) columns add up to squeue's priority; AGE orders as the priority
bad=()
for j in "${ORDERED[@]}"; do
    row=$(sprio_row "$j")
    p=$(prio_of "$j")
    sum=$(awk '{ printf "%.0f\n", $2 + $3 + $4 + $5 + $6 + $7 + $8 - $9 }' <<<"$row")
    [[ ${row%% *} == "$p" && $sum == "$p" ]] || bad+=("$(name_of "$j"):$row:squeue=$p")
    [[ $(col "$j" 4) == 0 ]] || bad+=("$(name_of "$j"):ASSOC=$(col "$j" 4) (weight_ticket 0)")
done
age_order=$(for j in "${ORDERED[@]}"; do echo "$(col "$j" 3) $j"; done |
    sort -k1,1nr | awk '{print $2}' | tr '\n' ' ')
prio_order=$(for j in "${ORDERED[@]}"; do echo "$(prio_of "$j") $j"; done |
    sort -k1,1nr | awk '{print $2}' | tr '\n' ' ')
# the niced job's AGE may tie or beat plain's (it waited longer): compare
# without those two
strip() { local x=" $1 "; x=${x// $J_NICE / }; x=${x// $J_PLAIN / }; echo "$x" | xargs; }
[[ $(strip "$age_order") == "$(strip "$prio_order")" ]] ||
    bad+=("AGE order $(names "$age_order")!= priority order $(names "$prio_order")")
check "(c) sprio columns add up to the priority" "${#bad[@]}" "${bad[*]:-}"

# (d) squeue's order is the predicted one
want="${ORDERED[*]} "
got=$(squeue_order)
if [[ $got == "$want" ]]; then
    check "(d) squeue orders the pending jobs as the formulas predict" 0 "$(names "$got")"
else
    check "(d) squeue orders the pending jobs as the formulas predict" 1 \
        "squeue: $(names "$got")predicted: $(names "$want")"
fi
# and the formulas from the logged urgencies: nurg over the pass's jobs,
# prio = nurg + W_PRIO * (1024 - nice) / 2048
pred=$(for j in "${ORDERED[@]}"; do echo "$j ${NICE[$j]:-0} $(field "$j" urg)"; done |
    awk -v wp="$W_PRIO" 'NF == 3 { u[$1] = $3; n[$1] = $2; if (!c++ || $3 < lo) lo = $3; if ($3 > hi) hi = $3 }
        END { for (j in u) printf "%.9f %s\n", (u[j] - lo) / (hi - lo) + wp * (1024 - n[j]) / 2048, j }' |
    sort -k1,1nr | awk '{print $2}' | tr '\n' ' ')
[[ $pred == "$want" ]] &&
    check "(d) the logged urgencies give the same order" 0 ||
    check "(d) the logged urgencies give the same order" 1 "$(names "$pred")"

# (k) prism compare of the 24-CPU and the 8-CPU job (same partition and
# time limit, nice 0, tickets weighed 0): urgency_slots decides, in AGE
cmp_out=$("$CLI" compare "$J_MID" "$J_BIG" 2>&1) && crc=0 || crc=$?
echo "=== prism compare $J_MID $J_BIG"
echo "$cmp_out"
if ((crc == 0)) && grep -q "^  job $J_BIG ranks above job $J_MID by " <<<"$cmp_out" &&
    grep -q "^  decided by: AGE (urgency) (" <<<"$cmp_out"; then
    check "(k) prism compare names the urgency (AGE) as the deciding term" 0 "$(grep '^  decided by' <<<"$cmp_out")"
else
    check "(k) prism compare names the urgency (AGE) as the deciding term" 1 "exit $crc"
fi

# (l) prism explain agrees with the controller: the qstat -pri table lists
# the pending jobs in squeue's order, and each job's urg in the qstat -urg
# table is the urgency the plugin logged at its last pass (captured
# between two reads of the state file's time: no pass in between)
ex_ok=1
for try in 1 2 3; do
    m0=$(state_mtime)
    EXPLAIN=$("$CLI" explain 2>&1) && erc=0 || erc=$?
    ex_order=$(sed -n '/^qstat -pri/,/^$/p' <<<"$EXPLAIN" | grep -oE '^[0-9]+' | tr '\n' ' ') || true
    sq_order=$(squeue_order)
    urgs=$(for j in "${ORDERED[@]}"; do echo "$j $(field "$j" urg)"; done)
    [[ $(state_mtime) == "$m0" ]] && { ex_ok=0; break; }
    log "(l) a pass ran during the capture (try $try)"
done
echo "=== prism explain"
echo "$EXPLAIN"
bad=()
((ex_ok == 0)) || bad+=("a pass ran during every capture")
((erc == 0)) || bad+=("exit $erc")
# the -pri table holds every pending job, the held one not: keep the
# jobs of ORDERED, in the table's order
ex_ordered=$(for j in $ex_order; do
    if [[ " ${ORDERED[*]} " == *" $j "* ]]; then printf '%s ' "$j"; fi
done)
[[ $ex_ordered == "$sq_order" ]] || bad+=("order $(names "$ex_ordered")vs squeue $(names "$sq_order")")
while read -r j u; do
    line=$(sed -n '/^qstat -urg/,/^$/p' <<<"$EXPLAIN" | grep -E "^$j " | head -n 1) || true
    got=$(awk '{ print $4 }' <<<"$line")
    awk -v g="$got" -v u="$u" 'BEGIN { exit !(g != "" && u != "" && g - u <= 1 && u - g <= 1) }' ||
        bad+=("$(name_of "$j"): urg '$got', logged '$u'")
done <<<"$urgs"
check "(l) prism explain agrees with the controller (order, urgency)" "${#bad[@]}" "${bad[*]:-${#ORDERED[@]} jobs}"

# (e) held stays 0, admin-set kept
hp=$(prio_of "$J_HELD")
ap=$(prio_of "$J_ADMIN")
if [[ $hp == 0 && $ap == 1234 ]]; then
    check "(e) held job stays 0, admin-set priority kept" 0
else
    check "(e) held job stays 0, admin-set priority kept" 1 "held=$hp admin=$ap"
fi

# (f) a broken file on reconfigure keeps the old policy
echo "weight_urgency lots" >>"$POLICY"
line=$(wc -l <"$POLICY")
mark=$(wc -l <"$LOGF")
ctld_reconfigure "$DIR" || true
sleep 2
wait_pass "after a broken reconfigure"
errline=$(tail -n +"$mark" "$LOGF" | grep -m 1 "priority/prism: $POLICY:$line: weight_urgency: 'lots' is not a number" || true)
# (Slurm 22.05 reconfigures in place; 24.11 starts a new slurmctld, which
# goes on with the policy Prism kept)
kept=$(tail -n +"$mark" "$LOGF" | grep -cE "reconfigure ignored, the previous settings stay in force|reconfigure: the new PriorityParameters or policy file is refused \(above\); the policy in force before stays" || true)
repassed=$(tail -n +"$mark" "$LOGF" | grep -c "PRIO: JobId=$J_HIGH Grid Engine priority: .*(rr 40100.00 " || true)
got=$(squeue_order)
if [[ -n $errline ]] && ((kept >= 1 && repassed >= 1)) && ctld_up && [[ $got == "$want" ]]; then
    check "(f) broken file on reconfigure: reported, old policy kept" 0 "${errline#*] }"
else
    check "(f) broken file on reconfigure: reported, old policy kept" 1 \
        "error='$errline' kept=$kept passes=$repassed order=$(names "$got")"
fi
# ... and prism explain shows the policy in force, not the broken file,
# with a note that the file differs (issue 35)
fout=$("$CLI" explain 2>"$DIR/explain-f.err") && frc=0 || frc=$?
ferr=$(<"$DIR/explain-f.err")
if ((frc == 0)) && [[ $(head -n 1 <<<"$fout") == "Prism policy=gridengine from $POLICY (in force: the copy the plugin keeps in StateSaveLocation)." &&
    $ferr == "prism: note: $POLICY is not the file in force "* && $fout == *"qstat -pri"* ]]; then
    check "(f) prism explain after the refused reconfigure shows the policy in force" 0 "$ferr"
else
    check "(f) prism explain after the refused reconfigure shows the policy in force" 1 \
        "exit $frc, stderr '$ferr', stdout $(head -n 3 <<<"$fout")"
fi

# (i) prism whatif refuses the broken file of (f) as a candidate: exit 1,
# one line with file and line
werr=$("$CLI" whatif --policy-file "$POLICY" 2>&1 >/dev/null) && wrc=0 || wrc=$?
if ((wrc == 1)) && [[ $(wc -l <<<"$werr") == 1 && $werr == "prism: whatif: $POLICY:$line: "* ]]; then
    check "(i) prism whatif: broken candidate refused (exit 1)" 0 "$werr"
else
    check "(i) prism whatif: broken candidate refused (exit 1)" 1 "exit $wrc '$werr'"
fi

# (m) prism whatif refuses a Moab file as a candidate, saying that
# nothing in it was understood as Grid Engine and that it looks like a
# Moab file (issue 35, item 7): the Moab example (refused at its first
# USERCFG[...] line) and a file of Moab weights only (every line a notice)
MOAB_FILE=$TOP/slurm-conf-examples/prism-moab.conf
printf 'QUEUETIMEWEIGHT 10\nUSERWEIGHT 100\n' >"$DIR/moab-weights.cfg"
for f in "$MOAB_FILE" "$DIR/moab-weights.cfg"; do
    mout=$("$CLI" whatif --policy-file "$f" 2>"$DIR/moab-whatif.err") && mrc=0 || mrc=$?
    merr=$(<"$DIR/moab-whatif.err")
    if ((mrc == 1)) && [[ -z $mout ]] &&
        [[ $(tail -n 1 <<<"$merr") == "prism: whatif: nothing in $f was understood as a Grid Engine policy"*"; it looks like a Moab file (\`prism check --moab $f\` reads it as one). Nothing computed." ]]; then
        check "(m) prism whatif: a Moab file under policy=gridengine is refused as one (${f##*/})" 0 "$merr"
    else
        check "(m) prism whatif: a Moab file under policy=gridengine is refused as one (${f##*/})" 1 \
            "exit $mrc, stdout '$mout', stderr '$merr'"
    fi
done

# (n) issue 35, the audit: --json is a usage error under policy=gridengine
# (prism(1), explain): exit 2, said on stderr, nothing on stdout
json_refused_check "(n) prism explain --json under policy=gridengine: a usage error (exit 2)" gridengine

# (g) a changed file is in force at the next pass; prism whatif on it
# just before predicts the order after it (j). Its priorities are the
# last pass's: the waiting time grows alike for every job (nurg keeps),
# but the deadline job's urgency grows as its deadline nears, so only the
# order is compared.
NEWPOLICY=$DIR/ge/new.conf
POLICY=$NEWPOLICY write_policy 0
WHATIF=$("$CLI" whatif --all --policy-file "$NEWPOLICY" 2>&1) || true
echo "=== prism whatif --all --policy-file $NEWPOLICY"
echo "$WHATIF"
cp "$NEWPOLICY" "$POLICY"
ctld_reconfigure "$DIR" || true
sleep 2
wait_pass "after a good reconfigure"
wait_pass "one more"
got=$(squeue_order)
first=${got%% *}
rr=$(field "$J_HIGH" rr)
if [[ $first == "$J_BIG" && $rr == 100.00 ]]; then
    check "(g) changed file in force after reconfigure" 0 "$(names "$got")"
else
    check "(g) changed file in force after reconfigure" 1 "part-high rr=$rr order=$(names "$got")"
fi
echo "=== sprio after the reconfigure"
sprio -o '%i %r %Y' || true
whatif_check "(j) prism whatif's new order before (g) is sprio's after it" "$WHATIF"
# ... and the priorities it predicted are sprio's, but for the deadline
# job's (its urgency grew with the passes in between)
bad=()
now_prios=" $(sprio_prios)"
for e in $(whatif_prios "$WHATIF"); do
    IFS=: read -r j p _ new <<<"$e"
    [[ $j == "$J_DL" || $now_prios == *" $j:$p:$new "* ]] || bad+=("$j:$p:$new")
done
check "(j) prism whatif's new priorities are sprio's (but the deadline job's)" \
    "${#bad[@]}" "${bad[*]:-$now_prios}"

# (h) usage: grows pass by pass, kept across a restart of slurmctld
u1=$(usage_sum)
lines=$(grep -c '^assoc ' "$USAGE" 2>/dev/null || echo 0)
"$HERE/cluster-restart-ctld.sh" "$DIR" >/dev/null
wait_pass "after restart"
wait_pass "after restart, charged"
u2=$(usage_sum)
ok=$(awk -v a="$u1" -v b="$u2" 'BEGIN { print (a > 0 && b > a) ? 0 : 1 }')
check "(h) share-tree usage kept across a slurmctld restart and still charged" "$ok" \
    "$lines associations; $u1 CPU-s before the restart, $u2 after"

FINISHED=1
((FAILED == 0))
