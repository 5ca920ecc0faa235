#!/bin/bash
# tests/cluster/cluster-start.sh DIR
#
# Start a complete, private Slurm 22.05 cluster on loopback under DIR
# (an existing, preferably empty directory, e.g. from `mktemp -d`):
#   munged (own key/socket), mariadbd (own datadir/socket/TCP port on
#   127.0.0.1), slurmdbd, slurmctld (priority plugin under test) and
#   PRISM_NODES (default 4) slurmd instances (multiple-slurmd, node1..nodeN,
#   8 CPUs each via SlurmdParameters=config_overrides).
# Accounting is populated with accounts physics/chem, users root, daemon,
# bin, games and QOS normal/high/low (see "accounting setup" below).
#
# After success, `. DIR/env` makes the Slurm client commands talk to this
# cluster.  Stop it with tests/cluster/cluster-stop.sh DIR; restart only
# slurmctld (optionally with another PriorityType) with
# tests/cluster/cluster-restart-ctld.sh DIR [TYPE].  On failure the
# relevant log tail is printed, everything started so far is stopped, and the
# script exits non-zero.
#
# Environment:
#   PRISM_PLUGIN_DIR        directory holding priority_prism.so; prepended to
#                           PluginDir (Debian's plugin dir is always appended)
#   PRISM_PRIORITY_TYPE     PriorityType (default priority/prism)
#   PRISM_SLURM_CONF_EXTRA  text appended verbatim to slurm.conf; a repeated
#                           key overrides the earlier value (slurmctld logs
#                           "X 1 specified more than once, latest value used")
#   PRISM_NODES             number of slurmd nodes (default 4, min 1)
#   PRISM_NODE_CPUS         CPUs per node (default 8)
#   PRISM_SLURMCTLD_DEBUG   SlurmctldDebug (default debug3; the plugin-load
#                           line "found Slurm plugin name:... type:priority/X"
#                           is only logged at debug3)
#   PRISM_CTLD_PAIR         1: two controllers, SlurmctldHost=prism-ctl1
#                           (127.0.0.3) and prism-ctl2 (127.0.0.4), with a
#                           shared StateSaveLocation, as a real primary and
#                           backup; only the primary is started (the test
#                           starts the backup: start_slurmctld DIR "" 2 in
#                           lib.sh, which says how each runs as its host)
#   PRISM_STATE_TMPFS_KB    StateSaveLocation on a tmpfs of this many KiB
#                           (in the test's own mount namespace; unmounted
#                           by cluster-stop.sh)
#   PRISM_KEEP_ON_FAIL      if non-empty, do not stop the daemons when start
#                           fails (for debugging; run cluster-stop.sh later)
#
# Layout under DIR: etc/ (slurm.conf, slurmdbd.conf), log/ (all logs),
# pids/ (our "PID STARTTIME" records used by cluster-stop.sh), run/ (Slurm's
# own pid files), state/, spool/<node>/, munge/, mysql/, out/ (1777, job
# output), env, ports.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

[[ $# -eq 1 ]] || die "usage: $0 DIR"
[[ -d $1 ]] || die "$1 is not a directory"
DIR=$(cd "$1" && pwd -P)
[[ $DIR != / ]] || die "refusing to use / as cluster dir"

[[ $(id -u) -eq 0 ]] || die "must run as root"

for name in munged mariadbd slurmdbd slurmctld; do
    if pid=$(recorded_pid "$DIR" "$name"); then
        die "$name (pid $pid) of a cluster in $DIR is still running; run cluster-stop.sh $DIR first"
    fi
done
for f in "$DIR"/pids/slurmd-*.pid; do
    [[ -e $f ]] || continue
    n=$(basename "$f" .pid)
    if pid=$(recorded_pid "$DIR" "$n"); then
        die "$n (pid $pid) is still running; run cluster-stop.sh $DIR first"
    fi
done
if [[ -e $DIR/etc/slurm.conf ]]; then
    die "$DIR already holds a cluster (etc/slurm.conf exists); use a fresh directory"
fi

PRIORITY_TYPE=${PRISM_PRIORITY_TYPE:-priority/prism}
NODES=${PRISM_NODES:-4}
NODE_CPUS=${PRISM_NODE_CPUS:-8}
CTLD_DEBUG=${PRISM_SLURMCTLD_DEBUG:-debug3}
[[ $NODES =~ ^[1-9][0-9]*$ ]] || die "PRISM_NODES must be a positive integer"
[[ $NODE_CPUS =~ ^[1-9][0-9]*$ ]] || die "PRISM_NODE_CPUS must be a positive integer"

if [[ -n ${PRISM_PLUGIN_DIR:-} ]]; then
    [[ -d $PRISM_PLUGIN_DIR ]] || die "PRISM_PLUGIN_DIR=$PRISM_PLUGIN_DIR is not a directory"
    PLUGIN_DIR_ABS=$(cd "$PRISM_PLUGIN_DIR" && pwd -P)
    PLUGIN_DIR="$PLUGIN_DIR_ABS:$PRISM_DEBIAN_PLUGIN_DIR"
    so="$PLUGIN_DIR_ABS/${PRIORITY_TYPE//\//_}.so"
    [[ -f $so || -f $PRISM_DEBIAN_PLUGIN_DIR/${so##*/} ]] ||
        log "WARNING: $so does not exist"
else
    PLUGIN_DIR=$PRISM_DEBIAN_PLUGIN_DIR
fi

# Unix users the accounting setup and the tests use.
for u in root daemon bin games; do
    getent passwd "$u" >/dev/null || die "system user $u missing"
done
getent passwd munge >/dev/null || die "user munge missing"
getent passwd mysql >/dev/null || die "user mysql missing"

# ---------------------------------------------------------------- failure
STARTED=0
on_exit() {
    local rc=$?
    if ((rc != 0 && STARTED == 0)); then
        if [[ -n ${PRISM_KEEP_ON_FAIL:-} ]]; then
            log "cluster start FAILED (rc=$rc); PRISM_KEEP_ON_FAIL set, leaving daemons running"
            return
        fi
        log "cluster start FAILED (rc=$rc); stopping whatever was started"
        "$HERE/cluster-stop.sh" "$DIR" >&2 || true
    fi
}
trap on_exit EXIT
trap 'exit 130' INT TERM

fail() { # fail MSG LOG...
    local msg=$1
    shift
    local f
    for f in "$@"; do log_tail "$f" 60; done
    die "$msg"
}

# ---------------------------------------------------------------- layout
chmod 755 "$DIR"
# Every parent must be traversable by munge/mysql (mktemp -d under /tmp is
# fine; warn if not).
p=$DIR
while [[ $p != / ]]; do
    p=$(dirname "$p")
    perm=$(stat -c %A "$p")
    [[ ${perm:9:1} == x || ${perm:9:1} == t ]] ||
        log "WARNING: $p is not traversable by others; munge/mysql may fail"
done

mkdir -p "$DIR"/{etc,log,pids,run,state,spool,out,tmp} \
    "$DIR"/munge/{key,run,lib} "$DIR"/log/{munge,mariadb} \
    "$DIR"/mysql/{data,run}
chmod 755 "$DIR"/{etc,log,pids,run,spool,munge,mysql}
chmod 700 "$DIR/state"
chmod 1777 "$DIR/out" "$DIR/tmp"
# PRISM_STATE_TMPFS_KB: StateSaveLocation on a tmpfs of that size (a disk
# that can fill up), only in a mount namespace that shares no mount
# (isolate.sh's, the Debian roots'): it vanishes with it, and
# cluster-stop.sh unmounts it
if [[ -n ${PRISM_STATE_TMPFS_KB:-} ]]; then
    [[ $PRISM_STATE_TMPFS_KB =~ ^[1-9][0-9]*$ ]] ||
        die "PRISM_STATE_TMPFS_KB must be a positive integer"
    ! grep -q ' shared:' /proc/self/mountinfo ||
        die "PRISM_STATE_TMPFS_KB: this mount namespace shares its mounts (run the test through tests/cluster/isolate.sh)"
    mount -t tmpfs -o "size=${PRISM_STATE_TMPFS_KB}k,mode=700" prism-state "$DIR/state" ||
        die "cannot mount a tmpfs on $DIR/state"
    : >"$DIR/state-tmpfs"
fi

# Client commands run by other users (sbatch as daemon, ...) read PluginDir
# too, and a build tree may sit below a private directory (mktemp -d is
# 700): serve the plugins from a copy inside DIR, readable by all.
if [[ -n ${PLUGIN_DIR_ABS:-} ]]; then
    mkdir -p "$DIR/plugins"
    cp "$PLUGIN_DIR_ABS"/*.so "$DIR/plugins/"
    chmod 755 "$DIR/plugins"
    chmod 644 "$DIR/plugins"/*.so
    PLUGIN_DIR="$DIR/plugins:$PRISM_DEBIAN_PLUGIN_DIR"
fi

# ---------------------------------------------------------------- ports
mapfile -t PORTS < <(pick_free_ports $((3 + NODES))) ||
    die "could not find free TCP ports"
((${#PORTS[@]} == 3 + NODES)) || die "could not find enough free TCP ports"
MYSQL_PORT=${PORTS[0]}
DBD_PORT=${PORTS[1]}
CTLD_PORT=${PORTS[2]}
NODE_PORTS=("${PORTS[@]:3}")
{
    echo "MYSQL_PORT=$MYSQL_PORT"
    echo "DBD_PORT=$DBD_PORT"
    echo "CTLD_PORT=$CTLD_PORT"
    echo "NODE_PORTS=\"${NODE_PORTS[*]}\""
} >"$DIR/ports"

# ---------------------------------------------------------------- munge
MUNGE_SOCKET=$DIR/munge/run/munge.socket
MUNGE_KEY=$DIR/munge/key/munge.key
MUNGE_LOG=$DIR/log/munge/munged.log
chown munge:munge "$DIR"/munge/{key,run,lib} "$DIR/log/munge"
chmod 700 "$DIR/munge/key" "$DIR/munge/lib" "$DIR/log/munge"
chmod 755 "$DIR/munge/run"
dd if=/dev/urandom of="$MUNGE_KEY" bs=1 count=1024 status=none
chown munge:munge "$MUNGE_KEY"
chmod 400 "$MUNGE_KEY"

log "starting munged (socket $MUNGE_SOCKET)"
setsid setpriv --reuid=munge --regid=munge --init-groups -- \
    /usr/sbin/munged --foreground \
    --socket="$MUNGE_SOCKET" --key-file="$MUNGE_KEY" \
    --pid-file="$DIR/munge/run/munged.pid" \
    --seed-file="$DIR/munge/lib/munged.seed" \
    --log-file="$MUNGE_LOG" \
    </dev/null >>"$DIR/log/munged.stdout" 2>&1 &
record_pid "$DIR" munged $!

munge_ok() {
    munge -n --socket="$MUNGE_SOCKET" | unmunge --socket="$MUNGE_SOCKET"
}
wait_for_daemon "$LIMIT_DAEMON" "munged" "$DIR" munged munge_ok ||
    fail "munged did not come up" "$MUNGE_LOG" "$DIR/log/munged.stdout"
log "munged is up"

# ---------------------------------------------------------------- mariadb
MYSQL_SOCKET=$DIR/mysql/run/mysqld.sock
MYSQL_ERR=$DIR/log/mariadb/mariadbd.err
chown -R mysql:mysql "$DIR/mysql/data" "$DIR/mysql/run" "$DIR/log/mariadb"
chmod 700 "$DIR/mysql/data"
chmod 755 "$DIR/mysql/run"

# --tmpdir: MariaDB names its temporary files by its PID, and clusters
# started side by side in PID namespaces of their own (isolate.sh) have
# mariadbds of the same PID: a shared /tmp would mix them up.
# The datadir is a copy of what mariadb-install-db writes, made once per
# MariaDB release and kept under PRISM_MARIADB_CACHE (default
# /var/cache/prism/mariadb): it bootstraps a server to write the system
# tables, 1.3 s of CPU and 2.5 s per cluster on a small machine, where
# the copy takes 0.3 s. Without a usable cache it writes DIR's directly.
INSTALL_DB=(mariadb-install-db --no-defaults --user=mysql
    --auth-root-authentication-method=normal --skip-test-db
    --skip-name-resolve)
# mariadb_template -- the template datadir's path, made if missing
mariadb_template() {
    local cache=${PRISM_MARIADB_CACHE:-/var/cache/prism/mariadb} key t new
    key=$({ /usr/sbin/mariadbd --version && echo "${INSTALL_DB[*]}"; } | md5sum) ||
        return 1
    t=$cache/datadir-${key:0:16}
    if [[ ! -d $t ]]; then
        mkdir -p "$cache" && new=$(mktemp -d "$cache/new.XXXXXX") || return 1
        chmod 755 "$cache" "$new"
        if ! { mkdir "$new/tmp" && chown mysql:mysql "$new/tmp" &&
            "${INSTALL_DB[@]}" --datadir="$new/data" --tmpdir="$new/tmp" \
                >"$DIR/log/mariadb-install.log" 2>&1; }; then
            rm -rf "$new"
            return 1
        fi
        # (a cluster started beside may have made it first: then its own)
        mv -T "$new/data" "$t" 2>/dev/null
        rm -rf "$new"
        [[ -d $t ]] || return 1
    fi
    echo "$t"
}
log "initialising MariaDB datadir"
if template=$(mariadb_template); then
    cp -a "$template/." "$DIR/mysql/data/" ||
        fail "copying the MariaDB datadir $template failed"
else
    "${INSTALL_DB[@]}" --datadir="$DIR/mysql/data" --tmpdir="$DIR/tmp" \
        >"$DIR/log/mariadb-install.log" 2>&1 ||
        fail "mariadb-install-db failed" "$DIR/log/mariadb-install.log"
fi

log "starting mariadbd (port $MYSQL_PORT)"
setsid /usr/sbin/mariadbd --no-defaults --user=mysql \
    --datadir="$DIR/mysql/data" --socket="$MYSQL_SOCKET" \
    --port="$MYSQL_PORT" --bind-address=127.0.0.1 \
    --pid-file="$DIR/mysql/run/mariadbd.pid" --log-error="$MYSQL_ERR" \
    --skip-name-resolve --skip-log-bin --performance-schema=OFF \
    --innodb-buffer-pool-size=64M --innodb-log-file-size=16M \
    --innodb-lock-wait-timeout=900 --max-allowed-packet=64M \
    --tmpdir="$DIR/tmp" \
    </dev/null >>"$DIR/log/mariadbd.stdout" 2>&1 &
record_pid "$DIR" mariadbd $!

mysql_root() { mariadb --no-defaults --socket="$MYSQL_SOCKET" -uroot; }
wait_for_daemon "$LIMIT_DAEMON" "mariadbd" "$DIR" mariadbd mariadb-admin --no-defaults --socket="$MYSQL_SOCKET" \
    -uroot ping ||
    fail "mariadbd did not come up" "$MYSQL_ERR" "$DIR/log/mariadbd.stdout"
log "mariadbd is up"

DB_PASS=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
# The accounting database exists before slurmdbd first connects: Debian
# 13's slurmdbd dies on its first start against a server without it (a
# MariaDB client-library fault on an empty connection).
mysql_root <<EOF || fail "creating the slurm database user failed" "$MYSQL_ERR"
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
CREATE USER 'slurm'@'localhost' IDENTIFIED BY '$DB_PASS';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
FLUSH PRIVILEGES;
EOF

# ---------------------------------------------------------------- configs
CONF=$DIR/etc/slurm.conf
DBD_CONF=$DIR/etc/slurmdbd.conf

# Bind daemons to the host name's address instead of INADDR_ANY when that
# name resolves to loopback (it is used by slurm_setup_addr()).
COMM_PARAMS=
host_addr=$(getent ahostsv4 "$(hostname)" 2>/dev/null | awk 'NR==1{print $1}')
if [[ $host_addr == 127.* ]]; then
    COMM_PARAMS="CommunicationParameters=NoInAddrAny,NoCtldInAddrAny"
fi
PAIR=${PRISM_CTLD_PAIR:-0}
CTLD_HOSTS="SlurmctldHost=localhost"
if ((PAIR)); then
    # each controller binds the address of its own host name (which its
    # UTS namespace gives it), both on SlurmctldPort
    [[ -n $COMM_PARAMS ]] || COMM_PARAMS="CommunicationParameters=NoCtldInAddrAny"
    CTLD_HOSTS="SlurmctldHost=prism-ctl1(127.0.0.3)
SlurmctldHost=prism-ctl2(127.0.0.4)"
    { cat /etc/hosts; printf '127.0.0.3\tprism-ctl1\n127.0.0.4\tprism-ctl2\n'; } >"$DIR/etc/hosts"
    mkdir -p "$DIR/run/ctl2"
    : >"$DIR/log/slurmctld.log"
    : >"$DIR/log/slurmctld2.log"
    : >"$DIR/etc/ctld-pair"
fi

umask 077
cat >"$DBD_CONF" <<EOF
# generated by tests/cluster/cluster-start.sh
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
$COMM_PARAMS
SlurmUser=root
DebugLevel=info
LogFile=$DIR/log/slurmdbd.log
PidFile=$DIR/run/slurmdbd.pid
PluginDir=$PRISM_DEBIAN_PLUGIN_DIR
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$MYSQL_PORT
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
chown root:root "$DBD_CONF"
chmod 600 "$DBD_CONF"
umask 022

{
    cat <<EOF
# generated by tests/cluster/cluster-start.sh
ClusterName=prism
$CTLD_HOSTS
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
PluginDir=$PLUGIN_DIR
$COMM_PARAMS
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
SlurmctldDebug=$CTLD_DEBUG
SlurmdDebug=info
TmpFS=$DIR/tmp
SlurmctldTimeout=30
SlurmdTimeout=60
MessageTimeout=10
InactiveLimit=0
KillWait=5
MinJobAge=60
Waittime=0
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$DBD_PORT
# Connections to slurmdbd authenticate with AccountingStoragePass, not
# AuthInfo (see _global_auth_key() in slurm_protocol_api.c): for munge it is
# the socket path.
AccountingStoragePass=$MUNGE_SOCKET
AccountingStorageEnforce=associations
JobCompType=jobcomp/none
PriorityType=$PRIORITY_TYPE
PriorityCalcPeriod=1
PriorityMaxAge=1-0
PriorityDecayHalfLife=7-0
PriorityWeightAge=1000
PriorityWeightPartition=10000
PriorityWeightFairshare=0
PriorityWeightJobSize=0
PriorityWeightQOS=0
PriorityWeightAssoc=0
EOF
    for ((i = 0; i < NODES; i++)); do
        echo "NodeName=node$((i + 1)) NodeHostname=localhost NodeAddr=127.0.0.1 Port=${NODE_PORTS[i]} CPUs=$NODE_CPUS RealMemory=1000 State=UNKNOWN"
    done
    cat <<EOF
PartitionName=low Nodes=ALL PriorityJobFactor=1 Default=YES MaxTime=7-0 State=UP
PartitionName=high Nodes=ALL PriorityJobFactor=10 MaxTime=7-0 State=UP
EOF
    if [[ -n ${PRISM_SLURM_CONF_EXTRA:-} ]]; then
        echo "# PRISM_SLURM_CONF_EXTRA"
        printf '%s\n' "$PRISM_SLURM_CONF_EXTRA"
    fi
} >"$CONF"
chmod 644 "$CONF"

cat >"$DIR/env" <<EOF
# source this file to use the Prism test cluster in $DIR
export SLURM_CONF=$CONF
export PRISM_CLUSTER_DIR=$DIR
EOF
export SLURM_CONF=$CONF

# ---------------------------------------------------------------- slurmdbd
log "starting slurmdbd (port $DBD_PORT)"
setsid /usr/sbin/slurmdbd -D </dev/null >>"$DIR/log/slurmdbd.stdout" 2>&1 &
record_pid "$DIR" slurmdbd $!
wait_for_daemon "$LIMIT_DAEMON" "slurmdbd" "$DIR" slurmdbd sacctmgr -n list cluster ||
    fail "slurmdbd did not come up" "$DIR/log/slurmdbd.log" \
        "$DIR/log/slurmdbd.stdout" "$MYSQL_ERR"
log "slurmdbd is up"

# ---------------------------------------------------------------- accounting setup
SAM_LOG=$DIR/log/sacctmgr-setup.log
sam() {
    echo "+ sacctmgr -i $*" >>"$SAM_LOG"
    sacctmgr -i "$@" >>"$SAM_LOG" 2>&1 ||
        fail "sacctmgr $* failed" "$SAM_LOG" "$DIR/log/slurmdbd.log"
}
log "populating accounting (cluster prism, accounts, users, QOS)"
sam add cluster prism
sam add qos high Priority=100
sam add qos low Priority=10
sam add account physics Cluster=prism Description=physics Organization=prism Fairshare=60
sam add account chem Cluster=prism Description=chem Organization=prism Fairshare=40
sam add user root Account=physics Cluster=prism Fairshare=10
sam add user daemon Account=physics Cluster=prism Fairshare=30
sam add user bin Account=chem Cluster=prism Fairshare=20
sam add user games Account=chem Cluster=prism Fairshare=20
sam add user root Account=chem Cluster=prism Fairshare=10
sam modify user where name=root,daemon,bin,games cluster=prism set QOS=normal,high,low DefaultQOS=normal
sam modify user where name=root set DefaultAccount=physics

# ---------------------------------------------------------------- slurmctld
log "starting slurmctld (port $CTLD_PORT, PriorityType=$PRIORITY_TYPE)"
start_slurmctld "$DIR" "$LIMIT_DAEMON" ||
    fail "slurmctld did not come up" "$DIR/log/slurmctld.log" \
        "$DIR/log/slurmctld.stdout"
log "slurmctld is up"

# ---------------------------------------------------------------- slurmd
for ((i = 1; i <= NODES; i++)); do
    mkdir -p "$DIR/spool/node$i"
    # Started with cwd DIR/spool/nodeN: slurmstepd inherits it, which lets
    # cluster-stop.sh find stray slurmstepds of this cluster (they setsid).
    (cd "$DIR/spool/node$i" &&
        exec setsid /usr/sbin/slurmd -D -N "node$i" -f "$CONF" \
            </dev/null >>"$DIR/log/slurmd-node$i.stdout" 2>&1) &
    record_pid "$DIR" "slurmd-node$i" $!
done
log "started $NODES slurmd"
nodes_idle() {
    local i n
    for ((i = 1; i <= NODES; i++)); do
        recorded_pid "$DIR" "slurmd-node$i" >/dev/null || return 1
    done
    n=$(sinfo -h -N -p low -t idle -o '%N' 2>/dev/null | sort -u | wc -l)
    ((n == NODES))
}
if ! wait_for "$LIMIT_DAEMON" "all $NODES slurmd idle" nodes_idle; then
    sinfo -N -l >&2 || true
    for ((i = 1; i <= NODES; i++)); do
        log_tail "$DIR/log/slurmd-node$i.log" 20
        log_tail "$DIR/log/slurmd-node$i.stdout" 10
    done
    fail "slurmd nodes did not become idle" "$DIR/log/slurmctld.log"
fi

STARTED=1
log "cluster is up in $DIR (PriorityType=$PRIORITY_TYPE, PluginDir=$PLUGIN_DIR)"
log "use it with:  . $DIR/env"
