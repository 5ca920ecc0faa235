# shellcheck shell=bash
# tests/cluster/lib.sh -- helpers shared by the Prism loopback-cluster scripts.
#
# Sourced by cluster-start.sh, cluster-stop.sh, cluster-restart-ctld.sh,
# the test-*.sh cluster tests and demo.sh.
# Nothing in here kills processes by name: every daemon is recorded in
# DIR/pids/NAME.pid as "PID STARTTIME" (STARTTIME = field 22 of
# /proc/PID/stat) and is only ever signalled by that PID, and only while the
# start time still matches (so a recycled PID is never hit).

# Slurm's own plugin directory: Debian's packages use slurm-wlm, a Slurm
# built from SchedMD's tarball (--libdir=/usr/lib/x86_64-linux-gnu) slurm.
# shellcheck disable=SC2034  # used by the scripts sourcing this file
PRISM_DEBIAN_PLUGIN_DIR=/usr/lib/x86_64-linux-gnu/slurm-wlm
for _d in /usr/lib/x86_64-linux-gnu/slurm-wlm /usr/lib/x86_64-linux-gnu/slurm; do
	if [[ -f $_d/priority_multifactor.so ]]; then
		PRISM_DEBIAN_PLUGIN_DIR=$_d
		break
	fi
done
unset _d

PRISM_CLUSTER_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# sleep as a bash builtin where Debian's bash-builtins is installed
# (scripts/setup.sh and the Debian roots install it): the polling loops
# sleep a fraction of a second thousands of times in a run, and a process
# costs milliseconds of CPU on a small virtual machine. sleep(1) without.
enable -f sleep sleep 2>/dev/null || true
# realpath likewise, for spool_strays' reading of every process's cwd
_HAVE_REALPATH=
enable -f realpath realpath 2>/dev/null && _HAVE_REALPATH=1
# and stat, loaded but enabled only inside file_mtime: its options are not
# stat(1)'s, which the scripts call with -c
_HAVE_STAT=
enable -f stat stat 2>/dev/null && enable -n stat && _HAVE_STAT=1

# file_mtime FILE -- FILE's modification time (whole seconds since the
# epoch) in MTIME; 0 when FILE cannot be read. The tests poll the state
# file's time thousands of times a run: no process where the stat builtin
# loaded.
file_mtime() {
    MTIME=0
    if [[ -n $_HAVE_STAT ]]; then
        local -A _st=()
        enable stat
        stat -A _st "$1" 2>/dev/null && MTIME=${_st[mtime]:-0}
        enable -n stat
    else
        MTIME=$(stat -c %Y "$1" 2>/dev/null) || MTIME=0
    fi
}

# cluster_test_begin NAME -- for the tests/cluster/test-*.sh scripts: zero
# PASSED, FAILED and FINISHED, make DIR (a fresh temp dir prism-NAME.*),
# and trap EXIT, INT and TERM so that whatever happens the cluster in DIR
# is stopped, DIR is removed on success (kept, path printed, on failure or
# with PRISM_KEEP_DIR), a test that stopped early counts as a failure, and
# "N passed, M failed" is the last line. A test may define
# cluster_test_hook (run first: stop its own background work, print
# timings). The test sets FINISHED=1 after its last check.
cluster_test_begin() {
    PASSED=0
    FAILED=0
    FINISHED=0
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/prism-$1.XXXXXX")
    trap _cluster_test_end EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

_cluster_test_end() {
    local rc=$?
    trap - EXIT INT TERM
    if declare -F cluster_test_hook >/dev/null; then
        cluster_test_hook || true
    fi
    "$PRISM_CLUSTER_LIB_DIR/cluster-stop.sh" "$DIR" ||
        log "WARNING: cluster-stop.sh reported a problem"
    if [[ -s $DIR/upstream-hangs ]]; then
        echo "note: Slurm hangs worked around (see ctld_reconfigure in lib.sh):"
        sed 's/^/  /' "$DIR/upstream-hangs"
    fi
    if ((FINISHED == 1 && FAILED == 0 && rc == 0)) && [[ -z ${PRISM_KEEP_DIR:-} ]]; then
        rm -rf -- "$DIR"
    else
        log "cluster dir kept for inspection: $DIR"
    fi
    if ((FINISHED == 0)); then
        FAILED=$((FAILED + 1))
        echo "FAIL: test aborted before all checks ran (rc=$rc)"
        ((rc != 0)) || rc=1
    fi
    # a failed check fails the test, whatever the script's last command
    ((FAILED == 0 || rc != 0)) || rc=1
    # the summary is printed last, after the cluster has been stopped
    echo "$PASSED passed, $FAILED failed"
    exit "$rc"
}

# check NAME RESULT(0 = pass) [DETAIL] -- count and print one test result
# (the cluster tests keep PASSED and FAILED and print them last).
check() {
    local name=$1 ok=$2 detail=${3:-}
    if ((ok == 0)); then
        PASSED=$((PASSED + 1))
        echo "PASS: $name${detail:+ -- $detail}"
    else
        FAILED=$((FAILED + 1))
        echo "FAIL: $name${detail:+ -- $detail}"
    fi
}

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# log_tail FILE [LINES] -- print the end of a log file (if any) to stderr.
log_tail() {
    local f=$1 n=${2:-40}
    if [[ -r $f ]]; then
        printf -- '----- last %s lines of %s -----\n' "$n" "$f" >&2
        tail -n "$n" -- "$f" >&2 || true
        printf -- '----- end of %s -----\n' "$f" >&2
    else
        printf -- '----- (no log file %s) -----\n' "$f" >&2
    fi
}

# ---------------------------------------------------------------- limits
# How long a wait may last comes from what it waits for. The cluster
# tests run side by side with each other and with compilers on a 2-core
# machine (scripts/test.sh), so each limit adds LOAD_SLACK to the time
# the event takes on an idle machine: a pass, an RPC or a scheduling
# cycle started late by a loaded CPU (test-load.sh's 5,000 sbatch beside
# them slowed squeue to 3.6 s and a 2-minute test to 4.8 minutes).
LOAD_SLACK=${PRISM_LOAD_SLACK:-60}

# calc_period -- PriorityCalcPeriod of the cluster in $DIR, in seconds
# (the last value in slurm.conf wins, as in Slurm; the default is 5
# minutes)
calc_period() {
    local m
    m=$(awk -F= 'tolower($1) == "prioritycalcperiod" { v = $2 } END { print v }' \
        "$DIR/etc/slurm.conf" 2>/dev/null)
    [[ $m =~ ^[0-9]+$ ]] || m=5
    echo $((m * 60))
}

# limit_passes N -- seconds for N recalculation passes to come: N
# PriorityCalcPeriods (the timer may have just fired), plus LOAD_SLACK
limit_passes() {
    echo $((${1:-1} * $(calc_period) + LOAD_SLACK))
}

# LIMIT_SCHED -- seconds for a runnable job to start: slurmctld schedules
# at each submit and end and at least every sched_interval (60 s by
# default, as these clusters run), plus LOAD_SLACK
LIMIT_SCHED=$((60 + LOAD_SLACK))
# LIMIT_DAEMON -- seconds for a started daemon to answer: slurmctld
# recovers its state (up to 20,000 jobs here) and every slurmd registers,
# 30 s, plus LOAD_SLACK
LIMIT_DAEMON=$((30 + LOAD_SLACK))
# LIMIT_RPC -- seconds for slurmdbd's update to reach slurmctld (sent
# when sacctmgr commits), or an RPC's answer, plus LOAD_SLACK
LIMIT_RPC=$((5 + LOAD_SLACK))

# _wait_state FILE -- when a wait times out: what the awaited command last
# printed (FILE), and the cluster's state as the test saw it
_wait_state() {
    local out=$1 states
    if [[ -s $out ]]; then
        log "  the check last printed:"
        tail -n 5 -- "$out" | sed 's/^/    /' >&2
    fi
    [[ -n ${SLURM_CONF:-} && -r ${SLURM_CONF:-} ]] || return 0
    states=$(timeout 20 squeue -h -o '%T' 2>/dev/null | sort | uniq -c |
        awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }') || states=
    log "  jobs then: ${states:-none (or squeue did not answer in 20 s)}"
    if [[ -n ${DIR:-} && -r $DIR/log/slurmctld.log ]]; then
        log "  slurmctld's last log lines:"
        tail -n 3 -- "$DIR/log/slurmctld.log" | sed 's/^/    /' >&2
    fi
}

# poll_interval START -- POLL_INTERVAL: seconds to sleep before the next
# poll of a wait that began at SECONDS=START: 0.5 s for its first 10 s (an
# RPC's answer, a job's start), 1 s up to 30 s, then 2 s (a recalculation
# pass, which comes once a minute). Each poll is a Slurm client command,
# some 25 ms of CPU with the daemons' share; a wait for a pass polled 120
# times at a constant 0.5 s, and the polls were about a third of
# test-multifactor.sh's CPU. (A variable, not output: a subshell per poll
# costs a process.)
POLL_INTERVAL=
poll_interval() {
    local waited=$((SECONDS - $1))
    if ((waited < 10)); then
        POLL_INTERVAL=0.5
    elif ((waited < 30)); then
        POLL_INTERVAL=1
    else
        POLL_INTERVAL=2
    fi
}

# usec SECONDS -- USEC: SECONDS (a decimal such as 0.5, or $EPOCHREALTIME)
# in whole microseconds, computed in the shell (the current time in
# microseconds is ${EPOCHREALTIME//[!0-9]/})
USEC=
usec() {
    local s=${1%%[.,]*} f=000000
    [[ $1 == *[.,]* ]] && f=${1#*[.,]}000000
    USEC=$((10#${s:-0} * 1000000 + 10#${f:0:6}))
}

# wait_for TIMEOUT_SECONDS DESCRIPTION CMD [ARGS...]
# Run CMD, in this shell, until it succeeds or the timeout expires, every
# poll_interval. Returns 0 on success, 1 on timeout, which is logged with
# what CMD printed last and the state of the cluster.
wait_for() {
    local timeout=$1 desc=$2 out start=$SECONDS
    shift 2
    local deadline=$((SECONDS + timeout))
    out=$(mktemp "${TMPDIR:-/tmp}/prism-wait.XXXXXX") || return 1
    while true; do
        if "$@" >"$out" 2>&1; then
            rm -f -- "$out"
            return 0
        fi
        if ((SECONDS >= deadline)); then
            log "timed out after ${timeout}s waiting for: $desc"
            _wait_state "$out"
            rm -f -- "$out"
            return 1
        fi
        poll_interval "$start"
        sleep "$POLL_INTERVAL"
    done
}

# wait_for_daemon TIMEOUT DESC DIR NAME CMD [ARGS...] -- like wait_for, but
# gives up at once when the daemon recorded as NAME in DIR/pids has died.
wait_for_daemon() {
    local timeout=$1 desc=$2 dir=$3 name=$4
    shift 4
    local deadline=$((SECONDS + timeout))
    while true; do
        if "$@" >/dev/null 2>&1; then
            return 0
        fi
        if ! recorded_pid "$dir" "$name" >/dev/null; then
            log "$name exited while waiting for: $desc"
            return 1
        fi
        if ((SECONDS >= deadline)); then
            log "timed out after ${timeout}s waiting for: $desc"
            _wait_state /dev/null
            return 1
        fi
        sleep 0.5
    done
}

# pick_free_ports N -- print N distinct currently-free TCP ports (one per
# line), starting the search at a random base in 20000-60000, but below the
# kernel's ephemeral range (ip_local_port_range, usually 32768-60999) when
# that leaves room: otherwise an outgoing connection (e.g. slurmdbd to
# MariaDB) can take a picked port as its source port before the daemon meant
# for it binds it ("Address already in use").  A port counts as free when it
# can be bound on both 0.0.0.0 and 127.0.0.1.
pick_free_ports() {
    local n=$1
    if command -v python3 >/dev/null 2>&1; then
        python3 - "$n" <<'EOF'
import random, socket, sys
n = int(sys.argv[1])
lo, hi = 20000, 60000
try:
    with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
        eph_lo, eph_hi = (int(x) for x in f.read().split())
    if eph_lo - lo >= 4 * n + 1000:
        hi = eph_lo
    elif 65000 - eph_hi >= 4 * n + 1000:
        lo, hi = eph_hi + 1, 65000
except (OSError, ValueError):
    pass
base = random.randint(lo, hi - 4 * n - 200)
found = []
port = base
while len(found) < n and port < hi:
    ok = True
    for addr in ("0.0.0.0", "127.0.0.1"):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((addr, port))
        except OSError:
            ok = False
        finally:
            s.close()
        if not ok:
            break
    if ok:
        found.append(port)
    port += 1
if len(found) < n:
    sys.exit(1)
print("\n".join(str(p) for p in found))
EOF
    else
        # Fallback: a port is considered free when nothing accepts a
        # connection on 127.0.0.1.
        local base=$((20000 + RANDOM % 39000)) port found=0
        for ((port = base; port < 60000 && found < n; port++)); do
            if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                echo "$port"
                found=$((found + 1))
            fi
        done
        ((found == n))
    fi
}

# _proc_stat PID -- read /proc/PID/stat in this shell (no process): its
# state (field 3) into _PSTAT_STATE, its parent (4) into _PSTAT_PPID, its
# session (6) into _PSTAT_SESSION, its start time (22) into _PSTAT_START;
# 1 when PID is gone
_proc_stat() {
    local stat rest
    local -a fields
    { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
    rest=${stat##*) }          # strip "pid (comm) " (comm may hold spaces)
    # rest starts at field 3 (state); starttime is field 22 => index 19.
    read -r -a fields <<<"$rest"
    _PSTAT_STATE=${fields[0]} _PSTAT_PPID=${fields[1]} _PSTAT_SESSION=${fields[3]}
    _PSTAT_START=${fields[19]}
}

# proc_starttime PID -- print field 22 (starttime) of /proc/PID/stat.
proc_starttime() {
    _proc_stat "$1" || return 1
    echo "$_PSTAT_START"
}

# proc_session PID -- print the session id (field 6) of PID.
proc_session() {
    _proc_stat "$1" || return 1
    echo "$_PSTAT_SESSION"
}

# record_pid DIR NAME PID -- remember a daemon we started.
record_pid() {
    local dir=$1 name=$2 pid=$3 st
    mkdir -p "$dir/pids"
    st=$(proc_starttime "$pid") || st=unknown
    echo "$pid $st" >"$dir/pids/$name.pid"
}

# recorded_pid DIR NAME -- print the PID recorded for NAME if that very
# process (same start time) is still alive; return 1 otherwise.
# _recorded_pid DIR NAME: the same in _RPID, without printing (no
# command substitution, so no process, in spool_strays' polls)
_recorded_pid() {
    local f="$1/pids/$2.pid" pid st
    _RPID=
    [[ -r $f ]] || return 1
    read -r pid st <"$f" || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    _proc_stat "$pid" || return 1
    [[ $st == unknown || $_PSTAT_START == "$st" ]] || return 1
    # A zombie is as good as dead.
    [[ $_PSTAT_STATE != Z ]] || return 1
    _RPID=$pid
}
recorded_pid() {
    _recorded_pid "$@" || return 1
    echo "$_RPID"
}

# pid_alive PID STARTTIME -- same process still running?
pid_alive() {
    _proc_stat "$1" || return 1
    [[ $_PSTAT_START == "$2" && $_PSTAT_STATE != Z ]]
}

# mark_mtime FILE MARK -- make MARK a file with FILE's modification time
# (the epoch's when FILE is missing). `changed_since FILE MARK` then tells
# whether FILE was written since, with no process: the loops that wait for
# a pass's files poll every few hundredths of a second.
mark_mtime() {
    touch -d @0 "$2" || return 1
    [[ ! -e $1 ]] || touch -r "$1" "$2" 2>/dev/null || true
}
changed_since() { [[ $1 -nt $2 ]]; }

# wait_written FILE DESC -- wait until FILE is written again (a
# recalculation pass's file: at most limit_passes 1), then a second more
# for the files written with it; 1 when it was not (wait_for logs it).
# Marks with $DIR/pass.mark.
wait_written() {
    local rc=0
    mark_mtime "$1" "$DIR/pass.mark"
    wait_for "$(limit_passes 1)" "a recalculation pass ($2)" \
        changed_since "$1" "$DIR/pass.mark" || rc=$?
    sleep 1
    return "$rc"
}

# stop_pid PID STARTTIME DESC [TIMEOUT] -- SIGTERM, wait, then SIGKILL.
stop_pid() {
    local pid=$1 st=$2 desc=$3 timeout=${4:-20}
    pid_alive "$pid" "$st" || return 0
    log "stopping $desc (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + timeout))
    while pid_alive "$pid" "$st" && ((SECONDS < deadline)); do
        sleep 0.3
    done
    if pid_alive "$pid" "$st"; then
        log "$desc (pid $pid) still alive after ${timeout}s, sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        deadline=$((SECONDS + 10))
        while pid_alive "$pid" "$st" && ((SECONDS < deadline)); do
            sleep 0.2
        done
    fi
    if pid_alive "$pid" "$st"; then
        log "WARNING: $desc (pid $pid) did not die"
        return 1
    fi
    return 0
}

# stop_recorded DIR NAME [TIMEOUT] -- stop the daemon recorded as NAME.
stop_recorded() {
    local dir=$1 name=$2 timeout=${3:-20} f pid st
    f="$dir/pids/$name.pid"
    [[ -r $f ]] || return 0
    read -r pid st <"$f" || return 0
    [[ $pid =~ ^[0-9]+$ ]] || return 0
    if [[ $st == unknown ]]; then
        st=$(proc_starttime "$pid") || return 0
    fi
    stop_pid "$pid" "$st" "$name" "$timeout"
}

# submit_as USER SBATCH_ARGS... -- submit a batch job as Unix user USER
# (must be run as root, with SLURM_CONF pointing at the cluster) and print
# the job id.  runuser is used instead of `sbatch --uid`: --uid works in
# 22.05 but keeps root's gid unless --gid is given too.
submit_as() {
    local user=$1
    shift
    if [[ $user == root ]]; then
        sbatch --parsable "$@"
    else
        runuser -u "$user" -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable "$@"
    fi | cut -d';' -f1
}

# _cwd_of PID -- _CWD: the working directory of PID (with the realpath
# builtin where it is loaded: no process); 1 when it cannot be read
_CWD=
_cwd_of() {
    if [[ -n $_HAVE_REALPATH ]]; then
        local -a resolved=()
        realpath -q -a resolved "/proc/$1/cwd" 2>/dev/null || return 1
        ((${#resolved[@]})) || return 1
        _CWD=${resolved[0]}
    else
        _CWD=$(readlink "/proc/$1/cwd" 2>/dev/null)
    fi
}

# spool_strays DIR -- PIDs of processes whose working directory is inside
# DIR/spool (slurmstepd inherits the cwd of the slurmd that forked it and
# cluster-start.sh starts each slurmd in DIR/spool/<node>), followed by all
# their descendants (job processes).  This shell and its ancestors and the
# recorded daemons themselves (slurmd) are never listed.
spool_strays() {
    local dir=$1 p cwd pp f
    local -A skip=() roots=()
    for f in "$dir"/pids/*.pid; do
        [[ -e $f ]] || continue
        f=${f##*/}
        _recorded_pid "$dir" "${f%.pid}" && skip[$_RPID]=1
    done
    p=$$
    while [[ $p =~ ^[0-9]+$ ]] && ((p > 1)); do
        skip[$p]=1
        _proc_stat "$p" || break
        p=$_PSTAT_PPID
    done
    for p in /proc/[0-9]*; do
        p=${p#/proc/}
        [[ -n ${skip[$p]:-} ]] && continue
        _cwd_of "$p" || continue
        cwd=$_CWD
        [[ $cwd == "$dir/spool" || $cwd == "$dir/spool/"* ]] && roots[$p]=1
    done
    ((${#roots[@]} > 0)) || return 0
    # Descendants: repeatedly add children of listed processes.
    local -A all=()
    for p in "${!roots[@]}"; do all[$p]=1; done
    local changed=1 rounds=0
    while ((changed && rounds < 20)); do
        changed=0
        rounds=$((rounds + 1))
        for p in /proc/[0-9]*; do
            p=${p#/proc/}
            [[ -n ${all[$p]:-} || -n ${skip[$p]:-} ]] && continue
            _proc_stat "$p" || continue
            pp=$_PSTAT_PPID
            if [[ -n ${all[$pp]:-} ]]; then
                all[$p]=1
                changed=1
            fi
        done
    done
    # Print descendants (non-roots) first, then the roots.
    for p in "${!all[@]}"; do [[ -z ${roots[$p]:-} ]] && echo "$p"; done
    for p in "${!roots[@]}"; do echo "$p"; done
    return 0
}

# fill_nodes -- a whole-node job on every node of partition low that runs
# for the rest of the test (-J fill, sleep 3000): user root's on all but
# the last node, games's on the last, so that both are charged at every
# pass (root 8 CPUs a node, games 8); waits until all run. Needs DIR/out.
fill_nodes() {
    local nodes i user
    mapfile -t nodes < <(sinfo -h -N -p low -o '%N' | sort -u)
    for ((i = 0; i < ${#nodes[@]}; i++)); do
        user=root
        ((i == ${#nodes[@]} - 1)) && user=games
        submit_as "$user" -p low -w "${nodes[i]}" -N 1 --exclusive -J fill \
            -o /dev/null --chdir="$DIR/out" -t 60 --wrap 'sleep 3000' >/dev/null
    done
    wait_for "$LIMIT_SCHED" "fill jobs running" _fills_running "${#nodes[@]}"
}
_fills_running() { (($(squeue -h -t R -n fill | wc -l) == $1)); }

# ctld_up -- the slurmctld of $SLURM_CONF answers a ping.
ctld_up() {
    scontrol ping 2>/dev/null | grep -q 'is UP'
}

# start_slurmctld DIR [TIMEOUT] -- start slurmctld (foreground mode, own
# session, DIR/etc/slurm.conf, output appended to DIR/log/slurmctld.stdout),
# record it as "slurmctld" in DIR/pids and wait (default 60 s) until it
# answers pings.  SLURM_CONF must point at DIR/etc/slurm.conf.  Returns 1
# if it died or did not answer in time (it stays recorded, so
# cluster-stop.sh still stops it).
#
# A cluster started with PRISM_CTLD_PAIR=1 (cluster-start.sh) has two
# controllers, prism-ctl1 (primary) and prism-ctl2 (backup), as a real
# pair on two hosts: `start_slurmctld DIR TIMEOUT 2` starts the backup,
# recorded as "slurmctld2", and waits until `scontrol ping` shows it UP;
# index 1 (the default) is the primary. Each runs in a UTS and mount
# namespace of its own (ctld_pair_exec): its host name, the address it
# binds (CommunicationParameters=NoCtldInAddrAny: the address of that
# name, from DIR/etc/hosts), and for the backup its own SlurmctldPidFile
# directory and log (DIR/run/ctl2 and DIR/log/slurmctld2.log bound over
# DIR/run and DIR/log/slurmctld.log), since a slurmctld kills the process
# its pid file names when it starts. Their mounts vanish with them.
start_slurmctld() {
    local dir=$1 timeout=${2:-$LIMIT_DAEMON} inx=${3:-1} name=slurmctld
    if [[ ! -e $dir/etc/ctld-pair ]]; then
        setsid /usr/sbin/slurmctld -D -f "$dir/etc/slurm.conf" \
            </dev/null >>"$dir/log/slurmctld.stdout" 2>&1 &
    else
        ((inx == 1)) || name=slurmctld$inx
        local prop=private
        if ! unshare --mount -- true 2>/dev/null; then
            # in a chroot (the Debian roots) the root cannot be made
            # private, but then it runs in a mount namespace whose mounts
            # are all private already: the binds stay in this one
            if grep -q ' shared:' /proc/self/mountinfo; then
                log "cannot start controller $inx of the pair: a new mount namespace here would share its mounts"
                return 1
            fi
            prop=unchanged
        fi
        setsid unshare --uts --mount --propagation "$prop" -- bash "$PRISM_CLUSTER_LIB_DIR/lib.sh" \
            ctld_pair_exec "$dir" "$inx" \
            </dev/null >>"$dir/log/$name.stdout" 2>&1 &
    fi
    record_pid "$dir" "$name" $!
    if [[ ! -e $dir/etc/ctld-pair ]]; then
        wait_for_daemon "$timeout" "$name" "$dir" "$name" ctld_up
    else
        wait_for_daemon "$timeout" "$name" "$dir" "$name" ctld_up_at "$inx"
    fi
}

# ctld_up_at N -- `scontrol ping` shows controller N of a pair UP
# ("Slurmctld(backup) at prism-ctl2 is UP"), whichever is in control
ctld_up_at() {
    scontrol ping 2>/dev/null | grep -q "at prism-ctl$1 is UP"
}

# ctld_pair_exec DIR N (through `bash lib.sh ctld_pair_exec`, inside the
# new UTS and mount namespaces, whose mounts start_slurmctld made private):
# become host prism-ctlN and exec slurmctld
_ctld_pair_exec() {
    local dir=$1 inx=$2
    mount --bind "$dir/etc/hosts" /etc/hosts || exit 1
    if ((inx != 1)); then
        mount --bind "$dir/run/ctl$inx" "$dir/run" &&
            mount --bind "$dir/log/slurmctld$inx.log" "$dir/log/slurmctld.log" || exit 1
    fi
    hostname "prism-ctl$inx" || exit 1
    exec /usr/sbin/slurmctld -D -f "$dir/etc/slurm.conf"
}

# ctld_reconfigure DIR [N] -- `scontrol reconfigure` (its exit status is
# returned); on a Slurm that carries a reconfigure out by starting a new
# slurmctld (23.11 and later), also wait (up to 90 s) until the new one
# has started and answers. N: which controller of a pair is in control
# (its log is watched; 1 by default).
#
# Slurm 24.11.5's controller can hang for good inside a reconfigure (and a
# shutdown): slurmscriptd_flush() writes its request to slurmscriptd, then
# waits on a condition variable with no predicate (_wait_for_script_resp
# in src/slurmctld/slurmscriptd.c), so a reply that arrives before the
# wait begins is lost. The busier the machine, the likelier (it hung once
# in two CI runs with the trixie root's cluster tests beside the host's).
# Every plugin's state, the priority plugin's included, is saved before
# that flush. The hang's signature, checked here and nothing looser: the
# reconfigure began, the log's last four lines are that exchange (ending
# with the reply read by slurmctld's listener) and the log stays silent
# for 20 s. Such a reconfigure is completed the way 24.11 completes one, a
# new slurmctld on the saved state and the new slurm.conf, and the output
# says so (DIR/upstream-hangs, printed by the test's summary). Any other
# silence is left to fail the test. (Checked by hand in the trixie root:
# gdb held slurmctld's main thread 3 s after its request to slurmscriptd,
# the hang followed every time and this completed the reconfigure.)
_log_since() { # _log_since FILE LINE ERE -- a line from LINE on matches
    awk -v m="$2" -v re="$3" 'NR >= m && $0 ~ re { f = 1 } END { exit !f }' "$1"
}
# _scriptd_exchange LINES -- every line is slurmctld's and slurmscriptd's
# exchange of a request and its reply, and slurmctld's listener has read
# the reply (a line without the "slurmscriptd:" prefix)
_scriptd_exchange() {
    ! grep -qvE '(_msg_accept: leaving on read error|Called _msg_readable|slurmscriptd_fini starting)' <<<"$1" &&
        grep -qE '\] debug3: _msg_accept: leaving on read error' <<<"$1"
}
ctld_reconfigure() {
    local dir=$1 inx=${2:-1} rc=0 logf="$1/log/slurmctld.log" mark ver size last
    local quiet_since deadline tail4 pid name=slurmctld
    if ((inx != 1)); then
        name=slurmctld$inx
        logf=$dir/log/slurmctld$inx.log
    fi
    mark=$(($(wc -l <"$logf") + 1))
    scontrol reconfigure || rc=$?
    ver=$(scontrol --version | awk '{ print $2 }')
    if ! awk -v v="$ver" 'BEGIN { split(v, a, "."); exit !(a[1] + 0 > 23 ||
        (a[1] + 0 == 23 && a[2] + 0 >= 11)) }'; then
        return "$rc"
    fi
    size=-1
    quiet_since=$SECONDS
    deadline=$((SECONDS + LIMIT_DAEMON))
    while ((SECONDS < deadline)); do
        if _log_since "$logf" "$mark" "slurmctld version .* started on cluster" &&
            ctld_up; then
            return "$rc"
        fi
        last=$(stat -c %s "$logf")
        if [[ $last != "$size" ]]; then
            size=$last
            quiet_since=$SECONDS
        elif ((SECONDS - quiet_since >= 20)) &&
            _log_since "$logf" "$mark" "Reconfigure signal .SIGHUP. received"; then
            tail4=$(tail -n 4 "$logf")
            if _scriptd_exchange "$tail4" &&
                pid=$(recorded_pid "$dir" "$name"); then
                log "slurmctld (pid $pid) hangs in its reconfigure waiting for slurmscriptd's reply, which came first (Slurm $ver's lost wakeup in _wait_for_script_resp; its last log lines follow). Completing the reconfigure as Slurm $ver does: a new slurmctld on the saved state."
                printf '%s\n' "$tail4" >&2
                echo "$(date +%T) reconfigure: slurmctld pid $pid hung in slurmscriptd_flush (Slurm $ver), completed by starting a new slurmctld" >>"$dir/upstream-hangs"
                stop_recorded "$dir" "$name" 5 || return 1
                start_slurmctld "$dir" "" "$inx" || return 1
                # (scontrol times out when the hang comes before the
                # reply: the request was taken all the same)
                return 0
            fi
        fi
        sleep 0.5
    done
    log "slurmctld did not come back from the reconfigure within $LIMIT_DAEMON s"
    log_tail "$logf" 20
    return 1
}

# ctld_priority_type -- PriorityType the running slurmctld reports. (awk
# reads to the end: an awk that quits early leaves scontrol writing into a
# closed pipe, and under pipefail the caller's `set -e` would end the
# script without a word.)
ctld_priority_type() {
    scontrol show config 2>/dev/null |
        awk -F' = ' '$1 ~ /^PriorityType[[:space:]]*$/ && !found {
            print $2; found = 1 }'
}

# whatif_order TEXT -- the entries of the section "The new order:" of
# `prism whatif --all`'s output TEXT, as "JOBID:PARTITION ..." in order.
whatif_order() {
    awk '/^The new order:/ { on = 1; next }
         on && $1 == "JOBID" { next }
         on && $1 !~ /^[0-9]+$/ { exit }
         on { printf "%s:%s ", $1, $2 }' <<<"$1"
}

# whatif_prios TEXT -- "JOBID:PARTITION:PRIO_NOW:PRIO_NEW ..." of the
# section "The new order:" of `prism whatif --all`'s output TEXT.
whatif_prios() {
    awk '/^The new order:/ { on = 1; next }
         on && $1 == "JOBID" { next }
         on && $1 !~ /^[0-9]+$/ { exit }
         on { printf "%s:%s:%s:%s ", $1, $2, $6, $7 }' <<<"$1"
}

# sprio_prios -- sprio's rows as "JOBID:PARTITION:PRIORITY ...".
sprio_prios() {
    sprio -h -o '%i %r %Y' 2>/dev/null | sort -k1,1n -k2,2 |
        awk '{ printf "%s:%s:%s ", $1, $2, $3 }'
}

# sprio_order -- sprio's rows as "JOBID:PARTITION ..." in the queue's
# order: highest priority first, then lowest job id (then partition), as
# prism whatif ranks them.
sprio_order() {
    sprio -h -o '%i %r %Y' 2>/dev/null | sort -k3,3nr -k1,1n -k2,2 |
        awk '{ printf "%s:%s ", $1, $2 }'
}

# whatif_check LABEL TEXT -- PASS when the new order prism whatif
# predicted (TEXT: its --all output) is the order sprio shows now.
whatif_check() {
    local want got
    want=$(whatif_order "$2")
    got=$(sprio_order)
    if [[ -n $want && $want == "$got" ]]; then
        check "$1" 0 "$want"
    else
        check "$1" 1 "whatif: '$want' sprio: '$got'"
    fi
}

# json_refused_check LABEL POLICY -- PASS when `prism explain --json` is
# a usage error under policy=POLICY, as prism(1) says: exit 2, the reason
# on stderr, nothing on stdout (CLI: the prism command).
json_refused_check() {
    local out err rc
    out=$("$CLI" explain --json 2>"$DIR/json.err") && rc=0 || rc=$?
    err=$(<"$DIR/json.err")
    if ((rc == 2)) && [[ -z $out && $err == "prism: explain: --json is not available under policy=$2"* ]]; then
        check "$1" 0 "$err"
    else
        check "$1" 1 "exit $rc, stdout '${out:0:200}', stderr '$err'"
    fi
}

# `bash lib.sh ctld_pair_exec DIR N` (start_slurmctld of a pair)
if [[ ${BASH_SOURCE[0]} == "$0" && ${1:-} == ctld_pair_exec ]]; then
    shift
    _ctld_pair_exec "$@"
fi
