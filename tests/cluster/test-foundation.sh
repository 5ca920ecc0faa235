#!/bin/bash
# tests/cluster/test-foundation.sh -- cluster test for the foundation issue.
#
# Starts a private loopback cluster (cluster-start.sh) in a fresh temp dir,
# fills all nodes with exclusive long jobs, submits identical pending jobs
# to partitions low and high plus one held job, then checks:
#   (a) slurmctld loaded the configured priority plugin (log line)
#   (b) every non-held pending job has a non-zero priority
#   (c) the high-partition job outranks the identical low-partition job
#   (d) sprio -l shows AGE and PARTITION columns and rows for the jobs
#   (e) the held job has priority 0
#   (f) sshare -l answers and lists the accounts and users created
#   (g) priority = AGE + PARTITION with the configured weights
#   (h) sprio -w, -n, -j, -u, -p
#   (i) scontrol reconfigure applies a changed weight at the next pass
#   (k) DebugFlags=Priority logs each job's terms
#   (l) PrivateData=jobs: a user sees only their own jobs in sprio
#   (j) associations added and removed with sacctmgr at run time
#   (m) issue 35, under priority/prism: an admin-set priority (scontrol
#       update priority=) shows site 0 and nice 0 in prism compare and
#       explain --json, as in sprio, and compare says the administrator's
#       priority decides; explain --json gives the time of the plugin's
#       last pass (pass_time)
#   (n) issue 35, the audit, under priority/prism: explain prints the
#       lines of prism(1)'s example, --json the fields the page names, a
#       job id not found is exit 1; whatif's heading; --policy-file under
#       multifactor is exit 1
# The cluster is always stopped (trap), even on failure or interrupt.
# The temp dir is removed on success and kept (path printed) on failure, or
# always kept when PRISM_KEEP_DIR is non-empty.
#
# Environment: PRISM_PLUGIN_DIR, PRISM_PRIORITY_TYPE (default
# priority/prism), PRISM_SLURM_CONF_EXTRA -- passed to cluster-start.sh.
# Last output line: "N passed, M failed"; exit 0 only if M is 0.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $(id -u) -eq 0 ]] || die "must run as root"

PRIORITY_TYPE=${PRISM_PRIORITY_TYPE:-priority/prism}
export PRISM_PRIORITY_TYPE=$PRIORITY_TYPE
# A short PriorityMaxAge (minutes) so the age term grows visibly while the
# test runs: 1000 * waited / 300 s.
MAX_AGE_MIN=5
export PRISM_SLURM_CONF_EXTRA="PriorityMaxAge=$MAX_AGE_MIN${PRISM_SLURM_CONF_EXTRA:+
$PRISM_SLURM_CONF_EXTRA}"

cluster_test_begin cluster

log "starting cluster in $DIR (PriorityType=$PRIORITY_TYPE)"
"$HERE/cluster-start.sh" "$DIR"
# shellcheck source=/dev/null
. "$DIR/env"

NODES=$(sinfo -h -N -p low -o '%N' | sort -u | wc -l)
CPUS=$(sinfo -h -N -p low -o '%c' | head -n 1)

# ---------------------------------------------------------------- workload
log "filling $NODES nodes with exclusive long-running jobs"
FILL=()
for n in $(sinfo -h -N -p low -o '%N' | sort -u); do
    FILL+=("$(submit_as root -p low -w "$n" -N 1 --exclusive -J fill \
        -o /dev/null --chdir="$DIR/out" --wrap 'sleep 300')")
done
fill_running() {
    local n
    n=$(squeue -h -t R -j "$(IFS=,; echo "${FILL[*]}")" -o '%i' | wc -l)
    ((n == ${#FILL[@]}))
}
if ! wait_for "$LIMIT_SCHED" "fill jobs running" fill_running; then
    squeue -o '%i %u %P %T %r %N' || true
    log_tail "$DIR/log/slurmctld.log" 40
    die "fill jobs did not start"
fi

log "submitting pending jobs"
# Identical jobs (same user, account, size, QOS) differing only in the
# partition; the low one is submitted first so it is never younger.
JOB_LOW=$(submit_as daemon -p low -n 1 -J same-low -o /dev/null \
    --chdir="$DIR/out" --wrap 'sleep 10')
sleep 1
JOB_HIGH=$(submit_as daemon -p high -n 1 -J same-high -o /dev/null \
    --chdir="$DIR/out" --wrap 'sleep 10')
JOB_OTHER=$(submit_as bin -p low -n 2 -J other -o /dev/null \
    --chdir="$DIR/out" --wrap 'sleep 10')
JOB_HELD=$(submit_as games -H -p high -n 1 -J held -o /dev/null \
    --chdir="$DIR/out" --wrap 'sleep 10')
NONHELD=("$JOB_LOW" "$JOB_HIGH" "$JOB_OTHER")
log "jobs: low=$JOB_LOW high=$JOB_HIGH other=$JOB_OTHER held=$JOB_HELD (nodes=$NODES cpus/node=$CPUS)"

prio_of() { squeue -h -j "$1" -o '%Q' 2>/dev/null | tr -d ' '; }
all_prioritised() {
    local j p
    for j in "${NONHELD[@]}"; do
        [[ $(squeue -h -j "$j" -o '%T') == PENDING ]] || return 1
        p=$(prio_of "$j")
        [[ $p =~ ^[0-9]+$ ]] && ((p > 0)) || return 1
    done
}
# Priorities are normally set at submit time; a plugin may only set them in
# its periodic pass (PriorityCalcPeriod=1 minute), so allow two periods.
if ! wait_for "$(limit_passes 2)" "pending jobs to get a priority" all_prioritised; then
    log "not all pending jobs got a non-zero priority"
fi
# Wait for a recalculation pass after submission (PriorityCalcPeriod is one
# minute): the age term of the oldest pending job then becomes non-zero.
age_of() { sprio -h -j "$1" -o '%A' 2>/dev/null | awk '{print int($1)}' | head -n 1; }
aged() { local a; a=$(age_of "$JOB_LOW"); [[ $a =~ ^[0-9]+$ ]] && ((a > 0)); }
if ! wait_for "$(limit_passes 1)" "a recalculation pass to age the pending jobs" aged; then
    log "the age term stayed 0"
fi

echo "=== squeue"
squeue -o '%.6i %.9P %.10j %.8u %.8a %.8T %.12Q %r' || true
echo "=== sprio -l"
SPRIO=$(sprio -l 2>&1) || true
echo "$SPRIO"
echo "=== sshare -a -l"
SSHARE=$(sshare -a -l 2>&1) && SSHARE_RC=0 || SSHARE_RC=$?
echo "$SSHARE"
echo "==="

# ---------------------------------------------------------------- checks
# (a) plugin loaded
LOGF=$DIR/log/slurmctld.log
# At SlurmctldDebug=debug3 every loaded plugin is logged as
#   debug3: plugin_load_from_file->_verify_syms: found Slurm plugin name:NAME type:TYPE version:0x160508
# ("plugin_peek->_verify_syms" lines only mean a file was inspected).
if line=$(grep -F "plugin_load_from_file->_verify_syms: found Slurm plugin name:" "$LOGF" |
    grep -m1 -F " type:$PRIORITY_TYPE version:"); then
    check "(a) slurmctld loaded $PRIORITY_TYPE" 0 "${line#*] }"
else
    cfg=$(scontrol show config 2>/dev/null | awk -F' = ' '/^PriorityType /{print $2}')
    check "(a) slurmctld loaded $PRIORITY_TYPE" 1 \
        "no 'type:$PRIORITY_TYPE version:' line in $LOGF (scontrol says PriorityType=$cfg)"
fi

# (b) non-held pending jobs have non-zero priority
bad=()
for j in "${NONHELD[@]}"; do
    st=$(squeue -h -j "$j" -o '%T')
    p=$(prio_of "$j")
    if [[ $st != PENDING || ! $p =~ ^[0-9]+$ ]] || ((p == 0)); then
        bad+=("$j:$st:${p:-none}")
    fi
done
if ((${#bad[@]} == 0)); then
    check "(b) non-held pending jobs have non-zero priority" 0 \
        "$(for j in "${NONHELD[@]}"; do printf '%s=%s ' "$j" "$(prio_of "$j")"; done)"
else
    check "(b) non-held pending jobs have non-zero priority" 1 "offending: ${bad[*]}"
fi

# (c) high partition job outranks the identical low one
PL=$(prio_of "$JOB_LOW")
PH=$(prio_of "$JOB_HIGH")
if [[ $PL =~ ^[0-9]+$ && $PH =~ ^[0-9]+$ ]] && ((PH > PL)); then
    check "(c) high-partition job priority > low-partition job" 0 "high $JOB_HIGH=$PH > low $JOB_LOW=$PL"
else
    check "(c) high-partition job priority > low-partition job" 1 "high $JOB_HIGH=${PH:-?} low $JOB_LOW=${PL:-?}"
fi

# (d) sprio -l: factor columns and rows for the pending jobs
header=$(printf '%s\n' "$SPRIO" | grep -m1 -E '^[[:space:]]*JOBID' || true)
missing=()
for col in AGE PARTITION; do
    grep -qw "$col" <<<"$header" || missing+=("column:$col")
done
for j in "${NONHELD[@]}"; do
    printf '%s\n' "$SPRIO" | awk -v j="$j" '$1 == j {f=1} END {exit !f}' ||
        missing+=("job:$j")
done
if ((${#missing[@]} == 0)); then
    check "(d) sprio -l lists pending jobs with AGE/PARTITION factors" 0
else
    check "(d) sprio -l lists pending jobs with AGE/PARTITION factors" 1 "missing ${missing[*]}"
fi

# (e) held job has priority 0
PHELD=$(prio_of "$JOB_HELD")
REASON=$(squeue -h -j "$JOB_HELD" -o '%r')
if [[ $PHELD == 0 ]]; then
    check "(e) held job has priority 0" 0 "job $JOB_HELD reason=$REASON"
else
    check "(e) held job has priority 0" 1 "job $JOB_HELD priority=${PHELD:-?} reason=$REASON"
fi

# (f) sshare -l answers and lists the accounts and users
missing=()
if ((SSHARE_RC != 0)); then
    missing+=("rc=$SSHARE_RC")
fi
for a in physics chem; do
    awk -v a="$a" '$1 == a {f=1} END {exit !f}' <<<"$SSHARE" || missing+=("account:$a")
done
for u in root daemon bin games; do
    awk -v u="$u" '$2 == u {f=1} END {exit !f}' <<<"$SSHARE" || missing+=("user:$u")
done
if ((${#missing[@]} == 0)); then
    check "(f) sshare -l lists accounts physics/chem and users" 0
else
    check "(f) sshare -l lists accounts physics/chem and users" 1 "missing ${missing[*]}"
fi

# (g) the priorities follow the configured age and partition weights:
# PARTITION = PriorityWeightPartition * PriorityJobFactor / highest factor
# (low 1, high 10, weight 10000), AGE = PriorityWeightAge * waited / max
# age, and the job's priority is their sum.
weights_ok=1
detail=""
for j in "$JOB_LOW" "$JOB_HIGH"; do
    read -r part age pterm < <(sprio -h -j "$j" -o '%r %A %P' | head -n 1) || true
    q=$(prio_of "$j")
    want_part=$([[ $part == high ]] && echo 10000 || echo 1000)
    sum=$(awk -v a="${age:-x}" -v p="${pterm:-x}" 'BEGIN { printf "%d", a + p }')
    detail+="$j($part): Q=$q AGE=$age PARTITION=$pterm; "
    [[ ${pterm%.*} == "$want_part" ]] || weights_ok=0
    awk -v a="${age:-0}" 'BEGIN { exit !(a > 0 && a <= 1000) }' || weights_ok=0
    [[ $q =~ ^[0-9]+$ ]] && (( q - sum <= 1 && sum - q <= 1 )) || weights_ok=0
done
age_low=$(age_of "$JOB_LOW")
age_high=$(age_of "$JOB_HIGH")
[[ $age_low =~ ^[0-9]+$ && $age_high =~ ^[0-9]+$ ]] && ((age_low >= age_high)) || weights_ok=0
check "(g) priority = AGE + PARTITION with the configured weights" \
    $((1 - weights_ok)) "$detail"

# (h) sprio's options: -w weights, -n normalised, -j/-u/-p filters.
opts_ok=1
detail=""
wrow=$(sprio -w 2>/dev/null | grep -i 'weights' | head -n 1)
[[ $wrow == *10000* && $wrow == *1000* ]] || { opts_ok=0; detail+="-w: '$wrow'; "; }
n_high=$(sprio -n -h -j "$JOB_HIGH" -o '%p' | tr -d ' ')
n_low=$(sprio -n -h -j "$JOB_LOW" -o '%p' | tr -d ' ')
awk -v h="$n_high" -v l="$n_low" 'BEGIN { exit !(h == 1 && l > 0.099 && l < 0.101) }' ||
    { opts_ok=0; detail+="-n partition high '$n_high' low '$n_low'; "; }
only_j=$(sprio -h -j "$JOB_LOW" -o '%i' | tr -d ' ' | sort -u)
[[ $only_j == "$JOB_LOW" ]] || { opts_ok=0; detail+="-j gave '$only_j'; "; }
users=$(sprio -h -u bin -o '%u' | tr -d ' ' | sort -u)
[[ $users == bin ]] || { opts_ok=0; detail+="-u bin gave '$users'; "; }
parts=$(sprio -h -p high -o '%r' | tr -d ' ' | sort -u)
[[ $parts == high ]] || { opts_ok=0; detail+="-p high gave '$parts'; "; }
[[ -n $detail ]] ||
    detail="weights row: $wrow; normalised partition high $n_high low $n_low"
check "(h) sprio -w, -n, -j, -u and -p" $((1 - opts_ok)) "$detail"

# (i) scontrol reconfigure applies a changed weight without a restart:
# PriorityWeightPartition 10000 -> 20000 shows at the next pass. DebugFlags
# Priority is switched on at the same time, for (k).
echo "PriorityWeightPartition=20000" >>"$SLURM_CONF"
ctld_reconfigure "$DIR"
scontrol setdebugflags +Priority
part_doubled() {
    local p
    p=$(sprio -h -j "$JOB_HIGH" -o '%P' | awk '{print int($1)}' | head -n 1)
    [[ $p == 20000 ]]
}
if wait_for "$(limit_passes 2)" "the new partition weight in sprio" part_doubled; then
    check "(i) scontrol reconfigure applies PriorityWeightPartition=20000" 0 \
        "high job: PARTITION=$(sprio -h -j "$JOB_HIGH" -o '%P' | tr -d ' '), priority $(prio_of "$JOB_HIGH")"
else
    check "(i) scontrol reconfigure applies PriorityWeightPartition=20000" 1 \
        "sprio still shows PARTITION=$(sprio -h -j "$JOB_HIGH" -o '%P' | tr -d ' ')"
fi

# (k) DebugFlags=Priority: the pass logs each job's terms. (Slurm 24.11
# carries out the reconfigure above by starting a new slurmctld, which
# computes every job at once: the pass after setdebugflags may be the
# next one, a PriorityCalcPeriod later.)
terms_logged() {
    grep -qE "JobId=$JOB_HIGH priority: site -?[0-9]+ \+ age [0-9.]+ .* partition 20000.00 .* = [0-9]+" \
        "$DIR/log/slurmctld.log"
}
if wait_for "$(limit_passes 2)" "a pass logging the terms" terms_logged; then
    check "(k) DebugFlags=Priority logs each job's terms" 0 \
        "$(grep -oE "JobId=$JOB_HIGH priority: .*" "$DIR/log/slurmctld.log" | tail -n 1)"
else
    check "(k) DebugFlags=Priority logs each job's terms" 1 \
        "no term line for job $JOB_HIGH in slurmctld.log"
fi
scontrol setdebugflags -Priority

# (l) PrivateData=jobs: a user sees only their own jobs in sprio.
echo "PrivateData=jobs" >>"$SLURM_CONF"
ctld_reconfigure "$DIR"
seen_by_bin=$(runuser -u bin -- sprio -h -o '%u' 2>/dev/null | tr -d ' ' | sort -u | paste -sd, -)
seen_by_root=$(sprio -h -o '%u' | tr -d ' ' | sort -u | paste -sd, -)
if [[ $seen_by_bin == bin && $seen_by_root == *daemon* && $seen_by_root == *bin* ]]; then
    check "(l) PrivateData=jobs: bin sees only its jobs in sprio" 0 \
        "bin sees '$seen_by_bin', root sees '$seen_by_root'"
else
    check "(l) PrivateData=jobs: bin sees only its jobs in sprio" 1 \
        "bin sees '$seen_by_bin', root sees '$seen_by_root'"
fi

# (j) associations added and removed while the controller runs.
sacctmgr -i add user games account=physics fairshare=5 >/dev/null
has_games() { sshare -a -l -n -P -A physics | grep -q '|games|'; }
added=0
wait_for "$LIMIT_RPC" "the new association in sshare" has_games && added=1
sacctmgr -i remove user games account=physics >/dev/null
gone() { ! has_games; }
removed=0
wait_for "$LIMIT_RPC" "the association to leave sshare" gone && removed=1
alive=0
scontrol ping | grep -q 'UP' && alive=1
check "(j) associations added and removed at run time" \
    $(( (added && removed && alive) ? 0 : 1 )) \
    "added=$added removed=$removed controller up=$alive"

# (m) issue 35: an admin-set priority as sprio shows it (site 0, nice 0)
# in prism compare and explain --json; the pass the terms come from.
# scontrol update sets the priority at once: no wait.
if [[ $PRIORITY_TYPE == priority/prism ]]; then
    CLI=${PRISM_CLI:-$HERE/../../src/cli/prism}
    scontrol update job="$JOB_OTHER" priority=5000
    sprio_site=$(sprio -h -j "$JOB_OTHER" -o '%S %N' | head -n 1 | tr -s ' ' | sed 's/^ //')
    cmp=$("$CLI" compare "$JOB_OTHER" "$JOB_LOW" 2>&1) || true
    json=$("$CLI" explain --json "$JOB_OTHER" 2>&1) || true
    echo "=== prism compare $JOB_OTHER $JOB_LOW"
    echo "$cmp"
    if [[ $sprio_site == "0 0" && $cmp != *2147483648* &&
        $cmp == *"decided by: the priority an administrator set"* &&
        $json != *2147483648* && $json =~ \"pass_time\":[0-9]+, ]]; then
        check "(m) an admin-set priority: site 0 and nice 0 as in sprio; explain --json has pass_time" 0 \
            "sprio site/nice '$sprio_site'"
    else
        check "(m) an admin-set priority: site 0 and nice 0 as in sprio; explain --json has pass_time" 1 \
            "sprio site/nice '$sprio_site'; json ${json:0:300}"
    fi
fi

# (n) issue 35, the audit: prism(1)'s promises about explain, whatif and
# their errors under multifactor, against the live controller: the
# example's first line, block header, term table, sum line and fair-share
# path; the JSON fields the page names; a job id not found (exit 1, on
# stderr); whatif's heading and --top; a candidate file under
# multifactor (exit 1)
if [[ $PRIORITY_TYPE == priority/prism ]]; then
    CLI=${PRISM_CLI:-$HERE/../../src/cli/prism}
    xout=$("$CLI" explain "$JOB_LOW" 2>"$DIR/explain-n.err") && xrc=0 || xrc=$?
    first=$(head -n 1 <<<"$xout")
    page_re="^Prism policy=multifactor \(Slurm's multifactor terms as the controller computed them; sprio -l shows the same\), at the plugin's last pass, [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}: ages are measured to it\.$"
    if ((xrc == 0)) && [[ $first =~ $page_re ]] &&
        grep -Eq "^job $JOB_LOW  user daemon  account [a-z]+  partition low  QOS [a-z]+  priority [0-9]+$" <<<"$xout" &&
        grep -Eq '^  term +factor +weight +value  inputs$' <<<"$xout" &&
        grep -Eq '^  sum ' <<<"$xout" && grep -Fq '  fair-share path (Fair Tree):' <<<"$xout"; then
        check "(n) prism explain prints the lines of prism(1)'s example" 0 "$first"
    else
        check "(n) prism explain prints the lines of prism(1)'s example" 1 \
            "exit $xrc, stderr '$(<"$DIR/explain-n.err")', stdout ${xout:0:600}"
    fi
    json=$("$CLI" explain --json "$JOB_LOW" 2>/dev/null) || true
    fields=$(python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
j = d["jobs"][0]
print(all(k in d for k in ("time", "pass_time", "jobs")) and
      all(k in j for k in ("terms", "sum", "priority", "adds_up", "fairshare")))' <<<"$json" 2>&1) || true
    check "(n) prism explain --json has the fields prism(1) names" \
        $([[ $fields == True ]] && echo 0 || echo 1) "${fields:0:300}"
    nerr=$("$CLI" explain 99999999 2>&1 >/dev/null) && nrc=0 || nrc=$?
    check "(n) prism explain of a job id not found: exit 1, said on stderr" \
        $(( (nrc == 1) && ${#nerr} > 0 ? 0 : 1 )) "exit $nrc '$nerr'"
    wout=$("$CLI" whatif PriorityWeightAge=1 --top 1 2>&1) && wrc=0 || wrc=$?
    if ((wrc == 0)) && [[ $(sed -n 1p <<<"$wout") == "What if policy=multifactor with PriorityWeightAge=1:" &&
        $(sed -n 2p <<<"$wout") == "(computed by the prism command; nothing is changed in the controller)" ]]; then
        check "(n) prism whatif: its heading, nothing changed in the controller" 0
    else
        check "(n) prism whatif: its heading, nothing changed in the controller" 1 "exit $wrc ${wout:0:400}"
    fi
    perr=$("$CLI" whatif --policy-file "$HERE/../../slurm-conf-examples/prism-moab.conf" 2>&1 >/dev/null) &&
        prc=0 || prc=$?
    check "(n) prism whatif --policy-file under multifactor: exit 1" \
        $(( (prc == 1) && ${#perr} > 0 ? 0 : 1 )) "exit $prc '$perr'"
fi

FINISHED=1
((FAILED == 0))
