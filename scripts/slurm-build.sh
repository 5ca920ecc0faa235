#!/usr/bin/env bash
# slurm-build.sh: SchedMD's Slurm release VERSION built from its release
# tarball and installed the way a site installs it, in an overlay of the
# cached Debian 13 (trixie) root (scripts/debian-root.sh), cached.
#
# Usage: scripts/slurm-build.sh VERSION [ensure]
#        scripts/slurm-build.sh VERSION path
#        scripts/slurm-build.sh VERSION tree
#        scripts/slurm-build.sh VERSION run [RUN-OPTIONS] -- CMD [ARGS...]
#        scripts/slurm-build.sh VERSION verify
#        scripts/slurm-build.sh VERSION smoke
#        scripts/slurm-build.sh -h
#
# ensure  (the default) unless cached: check the tarball against
#         SHA256SUMS; in a fresh overlay of the trixie root install the
#         build dependencies (the only step with the host's network),
#         purge every Debian Slurm package (dpkg -l | grep slurm; munge,
#         mariadb, the build tools, check, ... stay; the slurm user and
#         group, which the purge deletes, are made again as they were),
#         unpack the tarball at
#         /usr/src/slurm-VERSION, ./configure --prefix=/usr
#         --sysconfdir=/etc/slurm --libdir=/usr/lib/x86_64-linux-gnu
#         --enable-multiple-slurmd --disable-static, under dash
#         (CONFIG_SHELL=/bin/dash; fails unless munge, mysql, http-parser
#         and json support were found), make -j2, make install (plugins in
#         /usr/lib/x86_64-linux-gnu/slurm, headers in /usr/include/slurm,
#         libslurm.so), ldconfig, and check the result (slurmctld -V says
#         "slurm VERSION", the plugins are there, the commands run). A
#         marker written only when every step succeeded makes later calls
#         skip the work; an incomplete cache is redone from scratch. Prints
#         the overlay directory (as path does).
# path    print the overlay directory (fails unless built):
#         scripts/debian-root.sh trixie run
#         --overlay "$(scripts/slurm-build.sh VERSION path)" -- CMD runs CMD
#         in a root where that Slurm is installed
# tree    print the configured and built source tree as seen from the host
#         (fails unless built; inside the overlay it is
#         /usr/src/slurm-VERSION): config.h, slurm/*.h, src/slurmctld/*.h,
#         objects such as src/slurmctld/locks.o
# run     scripts/debian-root.sh trixie run --overlay OVERLAY [RUN-OPTIONS]
#         -- CMD, holding this version's lock: no rebuild removes the
#         overlay meanwhile, and no second run, verify or smoke mounts the
#         same upper layer at the same time (overlayfs does not allow it).
#         What CMD changes stays in the overlay (the cache), as with
#         debian-root.sh's --overlay.
# verify  the checks of ensure again, on a finished build
# smoke   start munged and slurmctld (a minimal slurm.conf, no slurmdbd)
#         briefly in the overlay, print what they said, stop them; all of
#         it under a temporary directory that is removed afterwards
#
# VERSION is a release, e.g. 25.11.7 or 26.05.3: the tarball is
# RELEASES/slurm-VERSION.tar.gz, checked against RELEASES/SHA256SUMS.
#
# Env:   PRISM_SLURM_RELEASES     RELEASES (default: ../shared/slurm-releases
#                                 from the repository's top)
#        PRISM_SLURM_BUILD_CACHE  builds live in PRISM_SLURM_BUILD_CACHE/VERSION
#                                 (default /var/cache/prism/slurm-build)
#        PRISM_ROOT_CACHE         (debian-root.sh) where the roots are kept
#
# Cache:  CACHE/VERSION/overlay     the overlay (upper, work, merged)
#         CACHE/VERSION/log         one log per step
#         CACHE/VERSION/.prism-slurm-build-ready   the marker
#         CACHE/.VERSION.lock       the lock: exclusive to build and to mount
#                                   the overlay (run, verify, smoke)
#
# Run as root. The trixie root itself is never changed (debian-root.sh
# trixie ensure makes it if missing).
# shellcheck disable=SC2317,SC2016  # steps called through timed; scripts for the root in single quotes
set -euo pipefail

self=$(readlink -f "$0")
top=$(cd "$(dirname "$self")/.." && pwd)
root_sh=$top/scripts/debian-root.sh
suite=trixie
libdir=/usr/lib/x86_64-linux-gnu

log() { printf 'slurm-build: %s\n' "$*" >&2; }
die() { printf 'slurm-build: error: %s\n' "$*" >&2; exit 1; }

usage() {
	sed -n '2,/^[^#]/{/^#/!d;/shellcheck/d;s/^# \{0,1\}//;p}' "$self"
}

# The build dependencies installed in the overlay (names as in trixie).
# libhttp-parser-dev: without it 25.11's daemons log "cannot create
# http_parser context"; libjson-c-dev: without it 26.05's slurmctld stops
# ("serializer_required: could not find plugin for application/json").
build_deps=(build-essential pkg-config python3 libmunge-dev libmariadb-dev
	libhttp-parser-dev libjson-c-dev)

apt_opts=(-o DPkg::Lock::Timeout=600 -q)

# configure's flags: a site's install, plus --enable-multiple-slurmd (as in
# Debian's build): the cluster tests run several slurmd on one host; and
# --disable-static: libtool compiles every library and plugin source once
# (position-independent), not twice, for the shared objects Slurm loads:
# the installed files are the same less the plugins' static archives (84 in
# 25.11.7), which nothing loads (libslurm.a, made by its own rule, stays).
# The marker records them, so a change here rebuilds the cache.
configure_flags=(--prefix=/usr --sysconfdir=/etc/slurm --libdir="$libdir"
	--enable-multiple-slurmd --disable-static)

# The shell configure runs under, and so the shell of its libtool script and
# of every Makefile recipe (SHELL): dash (essential in Debian), which starts
# faster than bash; left to itself, configure re-executes itself under bash.
# The marker records it.
config_shell=/bin/dash

# ---------------------------------------------------------------- helpers

timed() { # timed NAME CMD...: run CMD, its output in $logdir/NAME.log
	local step=$1 t0=$SECONDS rc=0
	shift
	log "step $step ..."
	# a subshell: a die in the step ends the step, its message in the log
	("$@") >"$logdir/$step.log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		log "step $step: $((SECONDS - t0)) s"
	else
		log "step $step: FAILED (status $rc) after $((SECONDS - t0)) s; the end of $logdir/$step.log:"
		tail -n 30 "$logdir/$step.log" | sed 's/^/  | /' >&2
	fi
	return "$rc"
}

# in_overlay [--host-net] -- SCRIPT [ARGS...]: bash -c SCRIPT in the overlay
in_overlay() {
	local net=()
	if [ "$1" = --host-net ]; then
		net=(--host-net)
		shift
	fi
	[ "$1" = -- ] || die "internal: in_overlay expects --"
	shift
	local script=$1
	shift
	"$root_sh" "$suite" run "${net[@]}" --overlay "$overlay" -- \
		bash -c "set -euo pipefail; $script" slurm-build "$@"
}

lock() { # lock -s|-x: take (or convert to) this version's lock on fd 8
	mkdir -p "$cache"
	if [ -z "${lock_open:-}" ]; then
		exec 8>"$cache/.$version.lock"
		lock_open=1
	fi
	if ! flock -n "$1" 8; then
		log "waiting for the lock on $dir (another build or run)"
		flock "$1" 8
	fi
}

# stamp: what the marker records; a different tarball or a remade root
# (the overlay's lower layer) makes the cache stale.
stamp() {
	local root
	root=$("$root_sh" "$suite" path)
	printf 'version %s\nsha256 %s\nroot %s %s\nconfigure %s\nshell %s\n' \
		"$version" "$sha" "$root" \
		"$(stat -c '%i %Y' "$root/.prism-root-ready")" \
		"${configure_flags[*]}" "$config_shell"
}

# ---------------------------------------------------------------- steps

install_deps() {
	in_overlay --host-net -- '
		apt-get "${@:2}" update
		DEBIAN_FRONTEND=noninteractive apt-get "${@:2}" -y \
			--no-install-recommends install $1
		apt-get "${@:2}" clean' "${build_deps[*]}" "${apt_opts[@]}"
}

purge_debian_slurm() {
	in_overlay -- '
		pkgs=$(dpkg-query -W -f "\${Package} \${db:Status-Status}\n" "*slurm*" |
			awk "\$2 != \"not-installed\" { print \$1 }" || true)
		echo "Debian Slurm packages: $pkgs"
		if [ -n "$pkgs" ]; then
			# purge only: what they pulled in (libraries) stays
			DEBIAN_FRONTEND=noninteractive apt-get "$@" -y purge $pkgs
		fi
		left=$(dpkg -l | grep -i slurm || true)
		[ -z "$left" ] || { echo "still there: $left"; exit 1; }
		for d in '"$libdir"'/slurm-wlm '"$libdir"'/slurm /usr/include/slurm; do
			if [ -e "$d" ]; then
				echo "left behind by the packages: $d:"
				ls -la "$d"
				rm -rf "$d"
			fi
		done
		echo "no Slurm package left"
		# their purge deletes the slurm user and group (the reserved ids
		# 64030); the root keeps them, as a site has them
		getent group slurm >/dev/null || groupadd --system --gid 64030 slurm
		getent passwd slurm >/dev/null || useradd --system --uid 64030 \
			--gid slurm --home-dir /nonexistent --shell /usr/sbin/nologin slurm
		getent passwd slurm' "${apt_opts[@]}"
}

unpack() {
	local topdir host_tree
	topdir=$(tar -tzf "$tarball" | awk -F / '
		NR == 1 { t = $1 } $1 != t { bad = 1 }
		END { if (!bad && t != "") print t }')
	[ -n "$topdir" ] || die "$tarball has no single top directory"
	echo "top directory: $topdir"
	host_tree=$overlay/upper$tree_in
	mkdir -p "$host_tree"
	# the overlay is not mounted now: writing to its upper layer is safe
	tar -xzf "$tarball" -C "$host_tree" --strip-components=1 --no-same-owner
	[ -x "$host_tree/configure" ] || die "no configure in $tarball"
}

configure_slurm() {
	in_overlay -- 'cd "$1" && CONFIG_SHELL=$2 && export CONFIG_SHELL && shift 2 &&
		"$CONFIG_SHELL" ./configure "$@"' "$tree_in" "$config_shell" \
		"${configure_flags[@]}"
}

# check_features: configure found munge, mysql, an http parser and json,
# and took --enable-multiple-slurmd
check_features() {
	local t=$overlay/upper$tree_in missing=() f
	for f in HAVE_MYSQL HAVE_HTTP_PARSER HAVE_JSON MULTIPLE_SLURMD; do
		grep -q "^#define $f 1" "$t/config.h" || missing+=("$f")
	done
	grep -q "^WITH_MUNGE_TRUE=''" "$t/config.log" || missing+=(munge)
	grep -q "^WITH_MYSQL_TRUE=''" "$t/config.log" || missing+=(WITH_MYSQL)
	# what configure said about them
	grep -E '^checking for (munge|mysql|mariadb|http[-_ ]parser|llhttp|json|json-c)' \
		"$logdir/configure.log" || true
	grep -E '^#define (HAVE_MYSQL|HAVE_HTTP_PARSER|HAVE_JSON[A-Z_]*|MULTIPLE_SLURMD) ' "$t/config.h"
	grep -E "^WITH_(MUNGE|MYSQL|HTTP_PARSER|LIBHTTP_PARSER|LLHTTP_PARSER|JSON_PARSER)_TRUE=" \
		"$t/config.log"
	if [ ${#missing[@]} -gt 0 ]; then
		echo "configure did not find: ${missing[*]}" \
			"(libmunge-dev, libmariadb-dev, libhttp-parser-dev, libjson-c-dev)"
		return 1
	fi
}

make_slurm() {
	in_overlay -- 'cd "$1" && make -j2' "$tree_in"
}

install_slurm() {
	in_overlay -- 'cd "$1" && make install && ldconfig' "$tree_in"
}

verify() {
	in_overlay -- '
		v=$1 lib=$2
		out=$(slurmctld -V)
		echo "slurmctld -V: $out"
		[ "$out" = "slurm $v" ] || { echo "expected: slurm $v"; exit 1; }
		# the commands read a configuration before --version (without one
		# they look for DNS SRV records): a minimal one, removed after
		d=$(mktemp -d /tmp/prism-verify.XXXXXX)
		trap "rm -rf $d" EXIT
		printf "ClusterName=verify\nSlurmctldHost=localhost\n" >"$d/slurm.conf"
		printf "DbdHost=localhost\nSlurmUser=root\nStorageType=accounting_storage/mysql\n" \
			>"$d/slurmdbd.conf"
		chmod 600 "$d/slurmdbd.conf"
		export SLURM_CONF=$d/slurm.conf
		for c in "slurmd -V" "slurmdbd -V" "sprio --version" "sshare --version" \
			"sacctmgr --version" "scontrol --version" "sbatch --version"; do
			out=$($c) || { echo "$c failed"; exit 1; }
			echo "$c: $out"
			[ "$out" = "slurm $v" ] || { echo "expected: slurm $v"; exit 1; }
		done
		for f in $lib/slurm/priority_multifactor.so \
			$lib/slurm/accounting_storage_mysql.so \
			$lib/slurm/accounting_storage_slurmdbd.so \
			$lib/slurm/auth_munge.so $lib/slurm/cred_munge.so \
			$lib/slurm/serializer_json.so \
			$lib/libslurm.so /usr/include/slurm/slurm.h \
			/usr/include/slurm/slurm_errno.h /usr/include/slurm/spank.h; do
			[ -e "$f" ] || { echo "missing: $f"; exit 1; }
			ls -lL "$f"
		done
		echo "plugins in $lib/slurm: $(ls $lib/slurm/*.so | wc -l)"
		command -v slurmctld slurmd slurmdbd sprio sshare sacctmgr
		echo "dpkg -l | grep slurm: $(dpkg -l | grep -ci slurm || true) lines"
		ldd /usr/sbin/slurmctld | grep -i slurm' "$version" "$libdir"
}

# cmd_verify: the checks again, on a finished build
cmd_verify() {
	[ "$(id -u)" -eq 0 ] || die "verify needs root"
	need_ready
	lock -x
	timed verify verify || die "the installed Slurm does not look right"
	sed 's/^/  /' "$logdir/verify.log" >&2
}

cmd_ensure() {
	local t0=$SECONDS want marker=$dir/.prism-slurm-build-ready
	[ "$(id -u)" -eq 0 ] || die "building needs root"
	[ -f "$tarball" ] || die "no $tarball (PRISM_SLURM_RELEASES=$releases)"
	[ -f "$releases/SHA256SUMS" ] || die "no $releases/SHA256SUMS"
	"$root_sh" "$suite" ensure
	sha=$(awk -v f="slurm-$version.tar.gz" '$2 == f || $2 == "*" f { print $1 }' \
		"$releases/SHA256SUMS")
	[ -n "$sha" ] || die "slurm-$version.tar.gz is not in $releases/SHA256SUMS"
	want=$(stamp)
	lock -s
	if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
		log "cached: Slurm $version in $overlay (tree $overlay/upper$tree_in)"
		echo "$overlay"
		return 0
	fi
	lock -x
	if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
		log "cached (built meanwhile): Slurm $version in $overlay"
		echo "$overlay"
		return 0
	fi
	rm -f "$marker"
	[ "$(sha256sum <"$tarball" | cut -d ' ' -f 1)" = "$sha" ] ||
		die "$tarball does not match $releases/SHA256SUMS"
	log "$tarball: sha256 OK"
	if [ -e "$overlay" ]; then
		log "removing the incomplete build $dir"
		rm -rf --one-file-system "$overlay"
	fi
	rm -rf "$logdir"
	mkdir -p "$overlay" "$logdir"

	timed deps install_deps || die "installing the build dependencies failed"
	timed purge purge_debian_slurm || die "purging Debian's Slurm packages failed"
	timed unpack unpack || die "unpacking $tarball failed"
	timed configure configure_slurm || die "configure failed"
	timed features check_features ||
		die "configure did not find munge, mysql, http-parser and json support (see $logdir/features.log and $overlay/upper$tree_in/config.log)"
	sed 's/^/  /' "$logdir/features.log" >&2
	timed make make_slurm || die "make failed"
	timed install install_slurm || die "make install failed"
	timed verify verify || die "the installed Slurm does not look right"
	sed 's/^/  /' "$logdir/verify.log" >&2
	printf '%s\n' "$want" >"$marker"
	log "ready: Slurm $version in $overlay ($((SECONDS - t0)) s; $(du -sh --one-file-system "$overlay" | cut -f 1)); tree $overlay/upper$tree_in"
	echo "$overlay"
}

# need_ready: the build exists (no building here)
need_ready() {
	[ -f "$dir/.prism-slurm-build-ready" ] ||
		die "Slurm $version is not built: run '$0 $version' first"
}

cmd_run() {
	[ "$(id -u)" -eq 0 ] || die "run needs root"
	need_ready
	lock -x
	need_ready
	# the lock (fd 8) stays open in what runs, and so held until it ends
	exec "$root_sh" "$suite" run --overlay "$overlay" "$@"
}

# smoke: munged and slurmctld once, briefly
cmd_smoke() {
	[ "$(id -u)" -eq 0 ] || die "smoke needs root"
	need_ready
	lock -x
	"$root_sh" "$suite" run --overlay "$overlay" -- bash -c '
		set -euo pipefail
		d=$(mktemp -d /tmp/prism-smoke.XXXXXX)
		munged_pid= ctld_pid=
		stop() {
			local p
			for p in $ctld_pid $munged_pid; do
				kill -TERM "$p" 2>/dev/null || true
			done
			for p in $ctld_pid $munged_pid; do
				wait "$p" 2>/dev/null || true
			done
			rm -rf "$d"
		}
		trap stop EXIT
		chmod 755 "$d"	# munged (user munge) must reach its files
		mkdir -p "$d"/{munge/key,munge/run,munge/lib,state,log}
		chown munge:munge "$d"/munge/{key,run,lib}
		chmod 700 "$d/munge/key" "$d/munge/lib"
		chmod 755 "$d/munge/run"	# munged wants the socket reachable by all
		dd if=/dev/urandom of="$d/munge/key/munge.key" bs=1 count=1024 status=none
		chown munge:munge "$d/munge/key/munge.key"
		chmod 400 "$d/munge/key/munge.key"
		setpriv --reuid=munge --regid=munge --init-groups -- \
			/usr/sbin/munged --foreground --socket="$d/munge/run/socket" \
			--key-file="$d/munge/key/munge.key" --pid-file="$d/munge/run/pid" \
			--seed-file="$d/munge/lib/seed" --log-file="$d/munge/lib/log" \
			</dev/null >"$d/log/munged.out" 2>&1 &
		munged_pid=$!
		for _ in $(seq 50); do
			munge -n --socket="$d/munge/run/socket" 2>/dev/null |
				unmunge --socket="$d/munge/run/socket" >/dev/null 2>&1 && break
			sleep 0.1
		done
		echo "== munge -n | unmunge"
		munge -n --socket="$d/munge/run/socket" | unmunge --socket="$d/munge/run/socket" |
			grep STATUS || { cat "$d/log/munged.out" "$d/munge/lib/log"; exit 1; }
		host=$(uname -n)
		host=${host%%.*}
		cat >"$d/slurm.conf" <<EOF
ClusterName=smoke
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/run/socket
CredType=cred/munge
StateSaveLocation=$d/state
SlurmctldPidFile=$d/slurmctld.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmctldDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
MailProg=/bin/true
PriorityType=priority/multifactor
NodeName=node1 NodeAddr=127.0.0.2 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=node1 Default=YES State=UP
EOF
		export SLURM_CONF=$d/slurm.conf
		slurmctld -D </dev/null >"$d/log/slurmctld.out" 2>&1 &
		ctld_pid=$!
		up=
		for _ in $(seq 100); do
			if scontrol ping 2>/dev/null | grep -q UP; then up=1; break; fi
			kill -0 "$ctld_pid" 2>/dev/null || break
			sleep 0.2
		done
		echo "== scontrol ping"; scontrol ping || true
		if [ -n "$up" ]; then
			echo "== scontrol show config (some)"
			scontrol show config | grep -E "^(SLURM_VERSION|PriorityType|PluginDir|AuthType) "
			echo "== sinfo"; sinfo || true
			echo "== sprio"; sprio || true
			echo "== sshare"; sshare || true
		fi
		echo "== slurmctld.log"; cat "$d/log/slurmctld.log" 2>/dev/null || true
		# (with -D it writes its log to stderr too: only what the log lacks)
		echo "== slurmctld stderr, lines not in its log"
		grep -vxF -f "$d/log/slurmctld.log" "$d/log/slurmctld.out" 2>/dev/null ||
			true
		[ -n "$up" ]'
}

# ---------------------------------------------------------------- main

main() {
	case ${1:-} in
	-h | --help | help) usage; exit 0 ;;
	"") usage >&2; exit 2 ;;
	esac
	version=$1
	shift
	[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
		die "bad VERSION '$version' (a release such as 25.11.7)"
	releases=${PRISM_SLURM_RELEASES:-$top/../shared/slurm-releases}
	tarball=$releases/slurm-$version.tar.gz
	cache=${PRISM_SLURM_BUILD_CACHE:-/var/cache/prism/slurm-build}
	dir=$cache/$version
	overlay=$dir/overlay
	logdir=$dir/log
	tree_in=/usr/src/slurm-$version
	local cmd=${1:-ensure}
	[ $# -eq 0 ] || shift
	case $cmd in
	ensure) [ $# -eq 0 ] || die "ensure takes no arguments"; cmd_ensure ;;
	path) [ $# -eq 0 ] || die "path takes no arguments"; need_ready; echo "$overlay" ;;
	tree) [ $# -eq 0 ] || die "tree takes no arguments"; need_ready; echo "$overlay/upper$tree_in" ;;
	run) cmd_run "$@" ;;
	smoke) [ $# -eq 0 ] || die "smoke takes no arguments"; cmd_smoke ;;
	verify) [ $# -eq 0 ] || die "verify takes no arguments"; cmd_verify ;;
	*) die "unknown command '$cmd' (ensure, path, tree, run, verify, smoke; -h for help)" ;;
	esac
}

# One line, read whole before it runs: a running copy never reads past it.
main "$@"; exit $?
