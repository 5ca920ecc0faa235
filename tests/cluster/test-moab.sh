#!/bin/bash
# tests/cluster/test-moab.sh -- cluster test of the Moab/Maui policy layer.
#
# Starts a private loopback cluster with PriorityType=priority/prism and
# PriorityParameters=policy=moab,config=DIR/moab/prism.conf (USERCFG and
# GROUPCFG priorities, QTWEIGHT, XFACTOR, a fair-share target, negative
# priorities with REJECTNEGPRIOJOBS, two lines Slurm has nothing for),
# runs root's and user games's jobs on every node, submits pending jobs, then
# checks:
#   (a) the policy file was loaded and its notices logged
#   (b) the job with a negative priority is held with a readable reason
#   (c) CRED (sprio ASSOC) and FS (sprio FAIRSHARE) columns are what the
#       formulas give: USERCFG/GROUPCFG priorities; 100 * (50 - user games's
#       share of the decayed usage in Prism's usage file)
#   (d) SERV (sprio AGE) is queue minutes * (1 + QTWEIGHT) + 1000 *
#       XFACTOR, XFACTOR = 1 + queued / time limit, from each job's accrue
#       time at the last pass
#   (e) sprio's columns add up to each job's priority (squeue %Q)
#   (f) pending jobs are ordered as the formulas predict
#   (g) `prism explain` agrees with sprio (component by component)
#   (h) a broken file on reconfigure is reported with file:line, the
#       controller keeps running and the old policy stays in force;
#       prism explain then shows the policy in force (the copy the plugin
#       keeps), with a note that the file differs (issue 35)
#   (i) a fixed file on reconfigure is in force at the next pass
#   (j) the Moab fair-share usage survives a slurmctld restart
#   (k) with PrivateData=jobs a user sees only their own jobs in sprio, in
#       `prism explain` and in `prism whatif` (which says so in a note)
#   (l) with a broken file slurmctld refuses to start, naming file and line
#   (m) prism whatif refuses a broken candidate file (exit 1, FILE:LINE),
#       slurm.conf settings (policy=moab needs a candidate file) and a
#       Grid Engine file, of which nothing is a Moab parameter and which
#       it names as a Grid Engine file (issue 35)
#   (n) prism whatif --all --policy-file on the file of (i), run just
#       before the reconfigure, predicts the order sprio shows after it
#       and the change at the last pass (daemon's job +1000, no other)
#   (o) prism compare of daemon's and bin's jobs names CRED (sprio's
#       ASSOC) as the term that decides, by USERCFG against GROUPCFG
#   (p) prism explain --json is a usage error under this policy (exit 2)
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

cluster_test_begin moab

# ---------------------------------------------------------------- policy
POLICY=$DIR/moab/prism.conf
mkdir -p "$DIR/moab"
write_policy() { # write_policy DAEMON_PRIORITY
    cat >"$POLICY" <<EOF
# Moab policy of tests/cluster/test-moab.sh
ENABLENEGJOBPRIORITY TRUE
REJECTNEGPRIOJOBS    TRUE
USERWEIGHT       100
GROUPWEIGHT      10
USERCFG[daemon]  PRIORITY=$1
GROUPCFG[bin]    PRIORITY=50
QUEUETIMEWEIGHT  1
XFACTORWEIGHT    1000
USERPRIOWEIGHT   10
QOSCFG[high]     QTWEIGHT=10
FSPOLICY         DEDICATEDPS
FSWEIGHT         1
FSUSERWEIGHT     100
USERCFG[games]  FSTARGET=50
BYPASSWEIGHT     1
RMCFG[slurm]     TYPE=SLURM
EOF
}
write_policy 30
MAX_PRIO=1000000000	# MAX_PRIO_VAL: Slurm's priority is Moab's + MAX + 1

export PRISM_PRIORITY_TYPE=priority/prism
export PRISM_SLURM_CONF_EXTRA="PriorityParameters=policy=moab,config=$POLICY
PrivateData=jobs"

log "starting cluster in $DIR (policy=moab)"
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"
LOGF=$DIR/log/slurmctld.log
STATE=$DIR/state

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
# user games's share (percent) of the decayed usage, from Prism's usage file
games_pct() {
    awk '$1 == "total" { for (i = 2; i <= NF; i++) t += $i }
         $1 == "user" && $2 == "games" { for (i = 3; i <= NF; i++) u += $i }
         END { if (t > 0) printf "%.10f\n", 100 * u / t; else print 0 }' \
        "$STATE/priority_prism_moab_usage"
}

# ---------------------------------------------------------------- workload
log "filling the nodes: 3 with root's jobs, 1 with user games's"
FILL=()
nodes=($(sinfo -h -N -p low -o '%N' | sort -u))
for ((i = 0; i < ${#nodes[@]}; i++)); do
    user=root
    ((i == ${#nodes[@]} - 1)) && user=games
    FILL+=("$(submit "$user" -p low -w "${nodes[i]}" -N 1 --exclusive \
        -J fill -t 30 --wrap 'sleep 600')")
done
fill_running() {
    local n
    n=$(squeue -h -t R -j "$(IFS=,; echo "${FILL[*]}")" -o '%i' | wc -l)
    ((n == ${#FILL[@]}))
}
wait_for "$LIMIT_SCHED" "fill jobs running" fill_running || die "fill jobs did not start"

log "submitting pending jobs"
J_DAEMON=$(submit daemon -p low -n 1 -t 60 -J cred-user --wrap 'sleep 5')
J_BIN=$(submit bin -p low -n 1 -t 60 -J cred-group --wrap 'sleep 5')
J_GAMES=$(submit games -p low -n 1 -t 60 -J fs-target --wrap 'sleep 5')
J_QOS=$(submit root -p low --qos=high -n 1 -t 60 -J qtweight --wrap 'sleep 5')
J_SHORT=$(submit root -p low -n 1 -t 10 -J xf-short --wrap 'sleep 5')
J_LONG=$(submit root -p low -n 1 -t 600 -J xf-long --wrap 'sleep 5')
J_NEG=$(submit games -p low -n 1 -t 60 --nice=1000 -J negative --wrap 'sleep 5')
PENDING=("$J_DAEMON" "$J_BIN" "$J_GAMES" "$J_QOS" "$J_SHORT" "$J_LONG")
# expected CRED (USERWEIGHT * user + GROUPWEIGHT * group priority)
declare -A CRED=(["$J_DAEMON"]=3000 ["$J_BIN"]=500 ["$J_GAMES"]=0
    ["$J_QOS"]=0 ["$J_SHORT"]=0 ["$J_LONG"]=0)
declare -A QTW=(["$J_QOS"]=11)	# QUEUETIMEWEIGHT + QTWEIGHT; others 1
# Two passes: the first charges the running jobs, the second has every
# pending job queued for a while.
wait_pass "after submission"
wait_pass "second"
PASS_T=$(state_mtime)

echo "=== squeue"
squeue -o '%.6i %.9P %.10j %.8u %.8T %.12Q %r' || true
echo "=== sprio -l"
sprio -l || true
echo "=== $POLICY usage"
cat "$STATE/priority_prism_moab_usage" || true

# ---------------------------------------------------------------- checks
# (a) loaded, with notices
if grep -q "priority/prism: policy=moab from $POLICY" "$LOGF" &&
    grep -q "priority/prism: $POLICY:17: RMCFG\[slurm\]: not a priority parameter, ignored" "$LOGF" &&
    grep -q "priority/prism: $POLICY: BYPASSWEIGHT: Slurm does not count" "$LOGF"; then
    check "(a) policy file loaded, notices logged" 0
else
    check "(a) policy file loaded, notices logged" 1 \
        "$(grep 'priority/prism' "$LOGF" | head -n 5 | tr '\n' ';')"
fi

# (b) REJECTNEGPRIOJOBS: SERV 1 - 10 * 1000 < 0
reason=$(squeue -h -j "$J_NEG" -o '%T|%Q|%r')
if [[ $reason == "PENDING|0|"*"REJECTNEGPRIOJOBS"* ]]; then
    check "(b) negative job held with a reason" 0 "$reason"
else
    check "(b) negative job held with a reason" 1 "$reason"
fi

# (c) CRED and FS columns
bad=()
for j in "${PENDING[@]}"; do
    got=$(col "$j" 4)
    [[ $got == "${CRED[$j]}" ]] || bad+=("$j:ASSOC=$got!=${CRED[$j]}")
done
pct=$(games_pct)
want_fs=$(awk -v p="$pct" 'BEGIN { v = 100 * (50 - p); printf "%d\n", v }')
got_fs=$(col "$J_GAMES" 5)
if [[ $got_fs != "$want_fs" ]]; then
    # the file and the priority may come from two passes: once more
    wait_pass "re-read usage"
    pct=$(games_pct)
    want_fs=$(awk -v p="$pct" 'BEGIN { v = 100 * (50 - p); printf "%d\n", v }')
    got_fs=$(col "$J_GAMES" 5)
fi
[[ $got_fs == "$want_fs" ]] || bad+=("$J_GAMES:FAIRSHARE=$got_fs!=$want_fs")
for j in "$J_DAEMON" "$J_BIN" "$J_QOS"; do
    [[ $(col "$j" 5) == 0 ]] || bad+=("$j:FAIRSHARE=$(col "$j" 5)")
done
check "(c) CRED and FS columns as the formulas give" "${#bad[@]}" \
    "${bad[*]:-games has $pct% of the usage: FS $got_fs}"

# (d) SERV: from accrue time to the pass that computed it
accrue_of() {
    date -d "$(scontrol show job "$1" | sed -n 's/.*AccrueTime=\([^ ]*\).*/\1/p')" +%s
}
# at_pass CMD... -- CMD's output, read with no pass saved while it ran:
# sets PASS_T to the state file's mtime then (checks (a)-(c) may take
# past the next pass on a busy machine, or wait for one)
at_pass() {
    local m1 out try
    for try in 1 2 3; do
        m1=$(state_mtime)
        out=$("$@")
        PASS_T=$(state_mtime)
        [[ $m1 == "$PASS_T" ]] && break
        log "a pass came while reading ($*, try $try): again" >&2
    done
    printf '%s\n' "$out"
}
bad=()
for j in "${PENDING[@]}"; do
    a=$(accrue_of "$j")
    lim=$(squeue -h -j "$j" -o '%l' | awk -F: '{ if (NF == 3) print ($1 * 60 + $2) * 60 + $3; else print $1 * 60 + $2 }')
    at_pass col "$j" 3 >"$DIR/col.out"
    got=$(<"$DIR/col.out")
    # the pass ran within the last minute before the state file's mtime
    ok=$(awk -v a="$a" -v t="$PASS_T" -v l="$lim" -v w="${QTW[$j]:-1}" -v g="$got" 'BEGIN {
        for (s = t - 65; s <= t; s++) {
            q = s - a; if (q < 0) q = 0
            v = w * q / 60 + 1000 * (1 + q / l)
            if (int(v) == g) { print 1; exit }
        }
        print 0 }')
    ((ok == 1)) || bad+=("$j:AGE=$got(accrue $a limit $lim)")
done
check "(d) SERV (AGE column) = queue minutes * QTW + 1000 * XFACTOR" "${#bad[@]}" "${bad[*]:-}"

# (e) columns add up to squeue's priority
bad=()
for j in "${PENDING[@]}"; do
    row=$(sprio_row "$j")
    p=$(prio_of "$j")
    sum=$(awk '{ print $2 + $3 + $4 + $5 + $6 + $7 + $8 - $9 }' <<<"$row")
    [[ ${row%% *} == "$p" && $sum == "$p" ]] || bad+=("$j:$row:squeue=$p")
done
check "(e) sprio columns add up to the priority" "${#bad[@]}" "${bad[*]:-}"

# (f) order: priority = CRED + FS + SERV (+ offset), recomputed from the
# columns' own inputs at the pass; here: the predicted order of the jobs
queue_order() {
    for j in "${PENDING[@]}"; do echo "$(prio_of "$j") $j"; done |
        sort -rn | awk '{print $2}' | tr '\n' ' '
}
at_pass queue_order >"$DIR/order.out"
order_actual=$(<"$DIR/order.out")
order_pred=$(for j in "${PENDING[@]}"; do
    a=$(accrue_of "$j")
    lim=$(squeue -h -j "$j" -o '%l' | awk -F: '{ if (NF == 3) print ($1 * 60 + $2) * 60 + $3; else print $1 * 60 + $2 }')
    fs=0
    [[ $j == "$J_GAMES" ]] && fs=$want_fs
    awk -v a="$a" -v t="$PASS_T" -v l="$lim" -v w="${QTW[$j]:-1}" \
        -v c="${CRED[$j]}" -v f="$fs" -v j="$j" 'BEGIN {
        q = t - a; if (q < 0) q = 0
        printf "%.3f %s\n", c + f + w * q / 60 + 1000 * (1 + q / l), j }'
done | sort -rn | awk '{print $2}' | tr '\n' ' ')
if [[ $order_actual == "$order_pred" ]]; then
    check "(f) pending jobs ordered as the formulas predict" 0 "$order_actual"
else
    check "(f) pending jobs ordered as the formulas predict" 1 \
        "actual: $order_actual predicted: $order_pred"
fi

# (g) prism explain agrees with sprio
# explain and sprio are read at two moments: a pass between them changes
# every age. Read sprio's rows around explain and compare only a reading
# that no pass cut (a pass comes once a minute: the third try is clear).
all_rows() {
    local j
    for j in "${PENDING[@]}"; do
        echo "$(sprio_row "$j") $(prio_of "$j")"
    done
}
if [[ -x $CLI ]]; then
    for try in 1 2 3; do
        rows0=$(all_rows)
        EXPLAIN=$("$CLI" explain 2>&1) && erc=0 || erc=$?
        [[ $(all_rows) != "$rows0" ]] || break
        log "(g) a recalculation pass came between explain and sprio (reading $try): reading again"
    done
    echo "=== prism explain"
    echo "$EXPLAIN"
    bad=()
    ((erc == 0)) || bad+=("exit $erc")
    mapfile -t rows <<<"$rows0"
    for i in "${!PENDING[@]}"; do
        j=${PENDING[i]}
        row=${rows[i]% *}
        line=$(grep -E "^ *$j " <<<"$EXPLAIN" | head -n 1)
        [[ -n $line ]] || { bad+=("$j:missing"); continue; }
        # every non-zero component of sprio appears in the job's row
        for c in 3 4 5; do
            v=$(awk -v c="$c" '{print $c}' <<<"$row")
            [[ $v == 0 ]] || grep -qw -- "$v" <<<"$line" || bad+=("$j:$v")
        done
        grep -qw -- "${rows[i]##* }" <<<"$line" || bad+=("$j:priority")
    done
    check "(g) prism explain agrees with sprio" "${#bad[@]}" "${bad[*]:-}"
else
    check "(g) prism explain agrees with sprio" 1 "no prism command at $CLI"
fi

# (o) prism compare of daemon's and bin's jobs (same partition, size and
# time limit, a second apart): USERCFG[daemon] PRIORITY=30 x USERWEIGHT
# 100 against GROUPCFG[bin] PRIORITY=50 x GROUPWEIGHT 10 -- CRED decides
# (first; daemon's second more of queue time may add to it in SERV)
cmp_out=$("$CLI" compare "$J_DAEMON" "$J_BIN" 2>&1) && crc=0 || crc=$?
echo "=== prism compare $J_DAEMON $J_BIN"
echo "$cmp_out"
if ((crc == 0)) && grep -q "^  job $J_DAEMON ranks above job $J_BIN by " <<<"$cmp_out" &&
    grep -qE "^  (decided by:|no term decides alone; together:) ASSOC \(CRED\) \(2500\.00\)" <<<"$cmp_out"; then
    check "(o) prism compare names CRED as the deciding term" 0 "$(grep -E '^  (decided by|no term)' <<<"$cmp_out")"
else
    check "(o) prism compare names CRED as the deciding term" 1 "exit $crc"
fi

# (k) PrivateData=jobs: a user sees only their own jobs, in sprio and in
# prism explain (the controller filters both RPCs)
if [[ -x $CLI ]]; then
    # The user daemon runs a copy of the command it can reach (the build
    # tree may sit below a directory only root can enter).
    mkdir -p "$DIR/bin"
    install -m 755 "$CLI" "$DIR/bin/prism"
    as_daemon() { runuser -u daemon -- env SLURM_CONF="$SLURM_CONF" "$@"; }
    # job_ids -- the job ids that start explain's or sprio's rows, once
    # each (explain's note "N pending job(s) ... held" is not a job).
    job_ids() { { grep -v ' pending job' | grep -oE '^[0-9]+ ' | tr -d ' ' | sort -un | tr '\n' ' '; } || true; }
    sprio_ids() { sprio -h -o '%i' 2>/dev/null | awk '{ print $1 " " }'; }
    ex_ids=$(as_daemon "$DIR/bin/prism" explain 2>/dev/null | job_ids) || true
    sp_ids=$(as_daemon sprio -h -o '%i' 2>/dev/null | awk '{ print $1 " " }' | job_ids) || true
    # root sees every job sprio shows it, in explain too.
    root_ex=$("$CLI" explain 2>/dev/null | job_ids) || true
    root_sp=$(sprio_ids | job_ids) || true
    n_root=$(wc -w <<<"$root_ex")
    if [[ $ex_ids == "$J_DAEMON " && $sp_ids == "$J_DAEMON " && $root_ex == "$root_sp" ]] && ((n_root > 1)); then
        check "(k) PrivateData=jobs: daemon sees only its own job in prism explain and sprio" 0 \
            "job $J_DAEMON; root sees the same $n_root jobs in both: $root_ex"
    else
        check "(k) PrivateData=jobs: daemon sees only its own job in prism explain and sprio" 1 \
            "daemon: explain '$ex_ids' sprio '$sp_ids' (its job: $J_DAEMON); root: explain '$root_ex' sprio '$root_sp'"
    fi
    # prism whatif as daemon: the same filter, and a note that says so
    wi=$(as_daemon "$DIR/bin/prism" whatif --all --policy-file "$POLICY" 2>&1) || true
    wi_ids=$(sed -n '/^The new order:/,$p' <<<"$wi" | sed 's/^ *//' | job_ids) || true
    if grep -q '^note: PrivateData=jobs: the controller shows you only your own jobs' <<<"$wi" &&
        [[ $wi_ids == "$J_DAEMON " ]]; then
        check "(k) PrivateData=jobs: prism whatif as daemon ranks only its own job, and says so" 0 "job $J_DAEMON"
    else
        check "(k) PrivateData=jobs: prism whatif as daemon ranks only its own job, and says so" 1 \
            "ids '$wi_ids' (want '$J_DAEMON '); output: $(tr '\n' ';' <<<"$wi")"
    fi
else
    check "(k) PrivateData=jobs in prism explain" 1 "no prism command at $CLI"
fi

# (h) a broken file on reconfigure keeps the old policy
echo "USERCFG[daemon] PRIORITY=lots" >>"$POLICY"
mark=$(wc -l <"$LOGF")
ctld_reconfigure "$DIR" || true
sleep 2
wait_pass "after a broken reconfigure"
errline=$(tail -n +"$mark" "$LOGF" | grep -m 1 "priority/prism: $POLICY:18: USERCFG\[daemon\] PRIORITY: 'lots' is not a number" || true)
# (Slurm 22.05 reconfigures in place; 24.11 starts a new slurmctld, which
# goes on with the policy Prism kept)
kept=$(tail -n +"$mark" "$LOGF" | grep -cE "reconfigure ignored, the previous settings stay in force|reconfigure: the new PriorityParameters or policy file is refused \(above\); the policy in force before stays" || true)
if [[ -n $errline ]] && ((kept >= 1)) && scontrol ping | grep -q UP &&
    [[ $(col "$J_DAEMON" 4) == 3000 ]]; then
    check "(h) broken file on reconfigure: reported, old policy kept" 0 "${errline#*] }"
else
    check "(h) broken file on reconfigure: reported, old policy kept" 1 \
        "error='$errline' kept=$kept ASSOC=$(col "$J_DAEMON" 4)"
fi
hout=$("$CLI" explain 2>"$DIR/explain-h.err") && hrc=0 || hrc=$?
herr=$(<"$DIR/explain-h.err")
if ((hrc == 0)) && [[ $(head -n 1 <<<"$hout") == "Prism policy=moab from $POLICY (in force: the copy the plugin keeps in StateSaveLocation)." &&
    $herr == "prism: note: $POLICY is not the file in force "* &&
    $hout != *"the policy changed since"* && $hout == *"$J_DAEMON "* ]]; then
    check "(h) prism explain after the refused reconfigure shows the policy in force" 0 "$herr"
else
    check "(h) prism explain after the refused reconfigure shows the policy in force" 1 \
        "exit $hrc, stderr '$herr', stdout $(head -n 3 <<<"$hout")"
fi

# (m) prism whatif refuses a broken candidate (the file of (h)) and
# settings without a candidate file: exit 1, one line saying why
werr=$("$CLI" whatif --policy-file "$POLICY" 2>&1 >/dev/null) && wrc=0 || wrc=$?
serr=$("$CLI" whatif PriorityWeightAge=1 2>&1 >/dev/null) && src=0 || src=$?
GE_FILE=$TOP/slurm-conf-examples/gridengine.conf
gout=$("$CLI" whatif --policy-file "$GE_FILE" 2>"$DIR/ge-whatif.err") && grc=0 || grc=$?
gerr=$(<"$DIR/ge-whatif.err")
if ((wrc == 1 && src == 1)) && [[ $(wc -l <<<"$werr") == 1 && $(wc -l <<<"$serr") == 1 ]] &&
    [[ $werr == "prism: whatif: $POLICY:18: "* && $serr == *"give a candidate with --policy-file"* ]]; then
    check "(m) prism whatif: broken candidate and settings refused (exit 1)" 0 "$werr"
else
    check "(m) prism whatif: broken candidate and settings refused (exit 1)" 1 \
        "exit $wrc '$werr'; exit $src '$serr'"
fi
if ((grc == 1)) && [[ -z $gout && $gerr == "prism: whatif: nothing in $GE_FILE was understood as a Moab policy: "*"; it looks like a Grid Engine file (\`prism check --gridengine $GE_FILE\` reads it as one). Nothing computed." ]]; then
    check "(m) prism whatif: a Grid Engine file under policy=moab is refused (exit 1)" 0 "$gerr"
else
    check "(m) prism whatif: a Grid Engine file under policy=moab is refused (exit 1)" 1 \
        "exit $grc, stdout '$gout', stderr '$gerr'"
fi

# (p) issue 35, the audit: --json is a usage error under policy=moab
# (prism(1), explain): exit 2, said on stderr, nothing on stdout
json_refused_check "(p) prism explain --json under policy=moab: a usage error (exit 2)" moab

# (i) a fixed file is in force at the next pass; prism whatif on it just
# before predicts the order the next pass gives (its priorities are those
# of the last pass: the next pass's SERV has grown by the queue minutes in
# between, so the order is compared with whatif's advanced by that growth)
NEWPOLICY=$DIR/moab/new.conf
POLICY=$NEWPOLICY write_policy 40
state_last() { awk '$1 == "last_recalc" { print $2 }' "$STATE/priority_prism_state" 2>/dev/null; }
whatif_new() { "$CLI" whatif --all --policy-file "$NEWPOLICY" 2>&1 || true; }
for try in 1 2 3; do
    T_WHATIF=$(state_last)
    WHATIF=$(whatif_new)
    [[ $(state_last) == "$T_WHATIF" ]] && break
done
echo "=== prism whatif --all --policy-file $NEWPOLICY"
echo "$WHATIF"
cp "$NEWPOLICY" "$POLICY"
ctld_reconfigure "$DIR" || true
sleep 2
wait_pass "after a good reconfigure"
got=$(col "$J_DAEMON" 4)
check "(i) changed file in force after reconfigure" "$([[ $got == 4000 ]]; echo $?)" "daemon ASSOC=$got"
echo "=== sprio after the reconfigure"
sprio -o '%i %r %Y' || true
# whatif's new order at sprio's pass: each job's SERV grows by
# (QUEUETIMEWEIGHT + QTWEIGHT) / 60 + 1000 / limit per second queued (the
# two jobs of (d)'s near tie cross within a minute: xf-short gains 100 a
# minute); compared when no pass came while sprio was read
advanced_order() { # advanced_order SECONDS -- whatif's order, advanced
    local e j part new lim
    for e in $(whatif_prios "$WHATIF"); do
        IFS=: read -r j part _ new <<<"$e"
        lim=$(squeue -h -j "$j" -o '%l' | awk -F: '{ if (NF == 3) print ($1 * 60 + $2) * 60 + $3; else print $1 * 60 + $2 }')
        awk -v p="$new" -v d="$1" -v w="${QTW[$j]:-1}" -v l="$lim" -v j="$j" -v r="$part" \
            'BEGIN { printf "%.3f %s %s\n", p + w * d / 60 + 1000 * d / l, j, r }'
    done | sort -k1,1gr -k2,2n -k3,3 | awk '{ printf "%s:%s ", $2, $3 }'
}
for try in 1 2 3; do
    T_SPRIO=$(state_last)
    SPRIO_ORDER=$(sprio_order)
    [[ $(state_last) == "$T_SPRIO" ]] && break
done
WANT_ORDER=$(advanced_order $((T_SPRIO - T_WHATIF)))
if [[ -n $WANT_ORDER && $WANT_ORDER == "$SPRIO_ORDER" ]]; then
    check "(n) prism whatif's new order before (i) is sprio's after it (advanced by SERV's growth)" 0 \
        "$WANT_ORDER ($((T_SPRIO - T_WHATIF)) s later)"
else
    check "(n) prism whatif's new order before (i) is sprio's after it (advanced by SERV's growth)" 1 \
        "whatif: '$(whatif_order "$WHATIF")', advanced $((T_SPRIO - T_WHATIF)) s: '$WANT_ORDER'; sprio: '$SPRIO_ORDER'"
fi
# ... and, at the same pass, the change is daemon's CRED only: USERWEIGHT
# 100 x (40 - 30) on daemon's job, nothing on the others
bad=()
for e in $(whatif_prios "$WHATIF"); do
    IFS=: read -r j _ was new <<<"$e"
    want=$was
    [[ $j == "$J_DAEMON" ]] && want=$((was + 1000))
    [[ $new == "$want" ]] || bad+=("$j:$was->$new(want $want)")
done
[[ -n $WHATIF ]] || bad+=("no output")
check "(n) prism whatif's new priorities: daemon's job +1000, the others kept" \
    "${#bad[@]}" "${bad[*]:-}"

# (j) the usage survives a restart of slurmctld
before=$(games_pct)
"$HERE/cluster-restart-ctld.sh" "$DIR" >/dev/null
after_restart=$(games_pct)
wait_pass "after restart"
after=$(games_pct)
ok=$(awk -v b="$before" -v a="$after" 'BEGIN { d = a - b; if (d < 0) d = -d; print (b > 0 && d < 5) ? 0 : 1 }')
check "(j) Moab usage kept across a slurmctld restart" "$ok" \
    "games: $before% before, $after_restart% on restart, $after% after a pass"

# (l) a broken file at start: slurmctld refuses to start, naming file and
# line; with the file fixed it starts again
echo "QUEUETIMEWEIGHT -" >>"$POLICY"
mark=$(wc -l <"$LOGF")
if PRISM_CTLD_TIMEOUT=15 "$HERE/cluster-restart-ctld.sh" "$DIR" >/dev/null 2>&1; then
    refused=0
else
    refused=1
fi
why=$(tail -n +"$mark" "$LOGF" | grep -m 1 "priority/prism: $POLICY:18: QUEUETIMEWEIGHT" || true)
write_policy 40
"$HERE/cluster-restart-ctld.sh" "$DIR" >/dev/null 2>&1 && back=1 || back=0
if ((refused && back)) && [[ -n $why ]]; then
    check "(l) broken file at start: slurmctld refuses to start" 0 "${why#*] }"
else
    check "(l) broken file at start: slurmctld refuses to start" 1 \
        "refused=$refused message='$why' started again=$back"
fi

FINISHED=1
((FAILED == 0))
