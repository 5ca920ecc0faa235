#!/usr/bin/env bash
# debian-root.sh: a cached Debian root (debootstrap) for running Prism's
# tests against another Debian's Slurm (e.g. trixie's Slurm 24.11), and a
# way to run commands in it, isolated, with nothing left behind.
#
# Usage: scripts/debian-root.sh ROOT ensure
#        scripts/debian-root.sh ROOT run [--host-net] [--overlay DIR [--lower DIR]] [--bind HOST:INROOT]... -- CMD [ARGS...]
#        scripts/debian-root.sh ROOT path
#        scripts/debian-root.sh -h
#
# ROOT    SUITE (e.g. trixie): the root with the packages the tests need;
#         SUITE-clean: minbase and nothing else (where a package is
#         installed as on a new machine; use it through --overlay)
#
# ensure  create the root (debootstrap --variant=minbase SUITE DIR MIRROR,
#         MIRROR = the URI of the machine's own main Debian entry), write
#         apt sources for SUITE, SUITE-updates and SUITE-security from the
#         machine's entries (same URIs), install the packages the tests
#         need (no service is started: policy-rc.d exits 101). A marker
#         written only when every step succeeded makes later calls skip the
#         work; an incomplete root is redone.
# run     run CMD inside the root, as root, in its own mount, PID, UTS, IPC
#         and network namespaces: a fresh /proc, /dev and /sys bound from
#         the host (/dev/shm fresh), the host's /etc/hosts read-only, a
#         loopback with 127.0.0.1 and 127.0.0.2 and no other network. Every
#         process CMD starts dies with it; every mount is undone when it
#         ends, however it ends. CMD's exit status is passed through.
#         --bind HOST:INROOT  bind HOST (a directory or file) at INROOT
#         --host-net          share the host's network instead (to fetch from
#                             the archive, e.g. scripts/slurm-source.sh);
#                             daemons then see the host's ports
#         --overlay DIR       run in an overlay of the root: changes go to
#                             DIR (made if missing; reused by later runs
#                             with the same DIR), the cached root stays as
#                             it is. The caller removes DIR.
#         --lower DIR         (with --overlay) DIR, the upper layer of
#                             another overlay of this root, read-only
#                             between the root and the changes (e.g. a
#                             Slurm built there: scripts/slurm-build.sh);
#                             nothing may write to DIR meanwhile
#         The environment is cleared except TERM and PRISM_* variables.
# path    print the root's directory
#
# Env:   PRISM_ROOT_CACHE           roots live in PRISM_ROOT_CACHE/SUITE
#                                   (default /var/cache/prism/roots)
#        PRISM_ROOT_EXTRA_PACKAGES  more packages for ensure (e.g. clang)
#
# Run as root. No host name is written anywhere: the mirror is read from
# /etc/apt/sources.list.d/*.sources (or sources.list) at run time.
# shellcheck disable=SC2317  # functions called from traps
set -euo pipefail

self=$(readlink -f "$0")
prog=${0##*/}

log() { printf 'root: %s\n' "$*" >&2; }
die() { printf 'root: error: %s\n' "$*" >&2; exit 1; }

usage() {
	sed -n '2,/^[^#]/{/^#/!d;/shellcheck/d;s/^# \{0,1\}//;p}' "$self"
}

# The packages the test suite needs inside the root (names as in trixie).
packages=(
	# Slurm as the suite ships it
	slurmctld slurmd slurmdbd slurm-client libslurm-dev
	slurm-wlm-basic-plugins slurm-wlm-mysql-plugin
	# the cluster test
	munge libmunge-dev mariadb-server mariadb-client
	# build and packaging
	build-essential autoconf automake libtool pkg-config check dpkg-dev
	binutils debhelper dh-autoreconf lintian fakeroot man-db
	# the memory checks
	valgrind
	# tools
	iproute2 procps python3 curl gpgv lz4 ca-certificates
)
# A SUITE-clean root gets none of them: it is a new machine.

# Packages added to a root that was made with the list above: installed on
# top of it, with a marker of their own, so that the root stays the same
# root for what was built on it (scripts/slurm-build.sh keys its Slurm
# builds on the first marker: a change here remakes none of them). A new
# package goes here; the list above changes only with a new suite.
later_packages=(
	# prism metrics --listen, in the package built in the root
	libmicrohttpd-dev
	# the compiler cache of the builds in the root (scripts/root-suite.sh)
	ccache
	# tests/cluster/test-metrics.sh: promtool, a real Prometheus and
	# node_exporter's textfile collector
	prometheus prometheus-node-exporter
	# the cluster tests' polling loops: sleep without a process
	# (tests/cluster/lib.sh)
	bash-builtins
	# Prometheus' answers in tests/cluster/test-metrics.sh
	jq
)

# ---------------------------------------------------------------- helpers

# host_entries: the machine's "deb" entries, one per suite and URI:
# URI<TAB>SUITE<TAB>COMPONENTS<TAB>SIGNED-BY (deb822 and one-line formats).
host_entries() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			types = ""; uris = ""; suites = ""; comps = ""; signed = ""
			enabled = "yes"
			for (i = 1; i <= NF; i++) {
				line = $i
				if (line ~ /^#/) continue
				key = substr(line, 1, index(line, ":") - 1)
				val = substr(line, index(line, ":") + 1)
				sub(/^[ \t]+/, "", val); sub(/[ \t]+$/, "", val)
				if (key == "Types") types = val
				else if (key == "URIs") uris = val
				else if (key == "Suites") suites = val
				else if (key == "Components") comps = val
				else if (key == "Signed-By") signed = val
				else if (key == "Enabled") enabled = tolower(val)
			}
			if (types !~ /(^| )deb( |$)/ || enabled == "no") next
			n = split(suites, s, " "); m = split(uris, u, " ")
			for (j = 1; j <= m; j++)
				for (k = 1; k <= n; k++)
					printf "%s\t%s\t%s\t%s\n", u[j], s[k], comps, signed
		}' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" {
			i = 2; signed = ""
			if ($i ~ /^\[/) {
				for (; ; i++) {
					o = $i; gsub(/[][]/, "", o)
					if (o ~ /^signed-by=/) signed = substr(o, 11)
					if ($i ~ /\]$/) break
				}
				i++
			}
			comps = ""
			for (j = i + 2; j <= NF; j++) comps = comps (comps == "" ? "" : " ") $j
			printf "%s\t%s\t%s\t%s\n", $i, $(i+1), comps, signed
		}' "$f"
	done
}

host_codename() {
	# shellcheck disable=SC1091
	(. /etc/os-release && printf '%s\n' "${VERSION_CODENAME:-}")
}

# suite_map SUITE HOST_SUITE: the root's suite for one host suite, or
# nothing (SUITE has no -updates/-security when it is sid or unstable).
suite_map() {
	local suite=$1 hs=$2 host
	host=$(host_codename)
	case $hs in
	"$host") echo "$suite" ;;
	"$host"-updates | "$host"-security)
		case $suite in sid | unstable | experimental) ;;
		*) echo "$suite-${hs#"$host"-}" ;;
		esac
		;;
	esac
}

main_mirror() {
	local host
	host=$(host_codename)
	[ -n "$host" ] || die "no VERSION_CODENAME in /etc/os-release"
	host_entries | awk -F '\t' -v s="$host" '$2 == s { print $1; exit }'
}

timed() { # timed NAME CMD...: run CMD, print how long it took
	local step=$1 t0=$SECONDS rc=0
	shift
	log "step $step ..."
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then
		log "step $step: $((SECONDS - t0)) s"
	else
		log "step $step: FAILED (status $rc) after $((SECONDS - t0)) s"
	fi
	return "$rc"
}

# mounts_under DIR: mount points at or below DIR in this mount namespace.
mounts_under() {
	awk -v d="$1" '{
		p = $5; gsub(/\\040/, " ", p)
		if (p == d || index(p, d "/") == 1) print p
	}' /proc/self/mountinfo
}

lock_root() { # lock_root -s|-x: take (or convert to) the root's lock on fd 9
	mkdir -p "$base"
	if [ -z "${lock_open:-}" ]; then
		exec 9>"$base/.$name.lock"
		lock_open=1
	fi
	if ! flock -n "$1" 9; then
		log "waiting for the lock on $root (another ensure or run)"
		flock "$1" 9
	fi
}

# ---------------------------------------------------------------- ensure

write_root_config() {
	local uri hs comps signed rs sb f
	mkdir -p "$root/etc/apt/sources.list.d"
	f="$root/etc/apt/sources.list.d/debian.sources"
	: >"$f.tmp"
	while IFS=$'\t' read -r uri hs comps signed; do
		rs=$(suite_map "$suite" "$hs")
		[ -n "$rs" ] || continue
		sb=
		# keep Signed-By only if that keyring exists inside the root
		if [ -n "$signed" ] && [ -f "$root$signed" ]; then sb=$signed; fi
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: %s\n%s\n' \
			"$uri" "$rs" "$comps" "${sb:+Signed-By: $sb
}" >>"$f.tmp"
	done < <(host_entries)
	grep -q '^Suites: ' "$f.tmp" || die "no $suite entry could be derived from the machine's sources"
	mv "$f.tmp" "$f"
	rm -f "$root/etc/apt/sources.list"
	# no service may start while packages are installed
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	# targets for the bind mounts of run
	[ -f "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n' >"$root/etc/hosts"
	[ -e "$root/etc/resolv.conf" ] || : >"$root/etc/resolv.conf"
}

# install_packages PKG...: (called in a || list, so no set -e: every
# failure is returned explicitly)
install_packages() {
	local policy missing
	# the man-db index is not needed and costs time at every install
	enter host -- sh -c 'echo "man-db man-db/auto-update boolean false" |
		debconf-set-selections' || return 1
	enter host -- apt-get -q update >&2 || return 1
	# every package must have a candidate (names differ between suites)
	policy=$(enter host -- apt-cache policy "$@") || return 1
	missing=$(printf '%s\n' "$policy" | awk -v want="$*" '
		/^[^ ]/ { p = $1; sub(/:$/, "", p) }
		/^  Candidate:/ && $2 != "(none)" { ok[p] = 1 }
		END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!(w[i] in ok)) printf "%s ", w[i] }')
	if [ -n "$missing" ]; then
		log "no such package in $suite: $missing"
		return 1
	fi
	enter host -- env DEBIAN_FRONTEND=noninteractive apt-get -q -y \
		--no-install-recommends install "$@" >&2 || return 1
	enter host -- apt-get -q clean || return 1
}

cmd_ensure() {
	local mirror marker want later_marker later_want t0=$SECONDS extra=()
	[ "$(id -u)" -eq 0 ] || die "ensure needs root"
	marker="$root/.prism-root-ready"
	# shellcheck disable=SC2206  # a space-separated list on purpose
	extra=(${PRISM_ROOT_EXTRA_PACKAGES:-})
	[ -z "$clean" ] || packages=() later_packages=()
	want=$(printf '%s\n' "$suite" "${packages[@]}" "${extra[@]}")
	later_marker="$root/.prism-root-later"
	later_want=$(printf '%s\n' "${later_packages[@]}")
	# a shared lock to look (runs hold one too), an exclusive one to build
	lock_root -s
	if root_ready && later_ready; then
		log "cached $root"
		return 0
	fi
	lock_root -x
	if root_ready; then
		if later_ready; then
			log "cached $root (made meanwhile)"
		else
			install_later
		fi
		return 0
	fi
	rm -f "$marker" "$later_marker"

	if ! command -v debootstrap >/dev/null; then
		timed "install debootstrap on the host" sh -c \
			'DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install debootstrap >&2 ||
			 { apt-get -q update >&2 &&
			   DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install debootstrap >&2; }'
	fi
	mirror=$(main_mirror)
	[ -n "$mirror" ] || die "no main Debian entry ($(host_codename)) in the machine's apt sources"

	if [ ! -f "$root/.prism-debootstrap-done" ]; then
		if [ -e "$root" ]; then
			[ -z "$(mounts_under "$root")" ] ||
				die "something is mounted under $root: $(mounts_under "$root" | tr '\n' ' ')"
			log "removing the incomplete root $root"
			rm -rf --one-file-system "$root"
		fi
		mkdir -p "$root"
		# its own mount namespace: whatever debootstrap mounts vanishes with it
		timed debootstrap unshare --mount --propagation private \
			debootstrap --variant=minbase "$suite" "$root" "$mirror" >&2 ||
			die "debootstrap failed (log: $root/debootstrap/debootstrap.log)"
		: >"$root/.prism-debootstrap-done"
	else
		log "debootstrap already done"
	fi

	write_root_config
	if [ $((${#packages[@]} + ${#extra[@]})) -gt 0 ]; then
		timed packages install_packages "${packages[@]}" "${extra[@]}" ||
			die "installing packages in $root failed"
	fi
	printf '%s\n' "$want" >"$marker"
	install_later
	log "ready: $root ($((SECONDS - t0)) s; $(du -sh --one-file-system "$root" | cut -f 1))"
}

# (cmd_ensure's) the root was made with this list of packages
root_ready() { [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; }
# (cmd_ensure's) and has the later ones
later_ready() {
	[ ${#later_packages[@]} -eq 0 ] ||
		{ [ -f "$later_marker" ] && [ "$(cat "$later_marker")" = "$later_want" ]; }
}

# install_later: the later packages on top of a ready root (exclusive lock)
install_later() {
	[ ${#later_packages[@]} -gt 0 ] || return 0
	rm -f "$later_marker"
	write_root_config
	timed "later packages" install_packages "${later_packages[@]}" ||
		die "installing ${later_packages[*]} in $root failed"
	printf '%s\n' "$later_want" >"$later_marker"
}

# ---------------------------------------------------------------- run

# enter_exec host|own [--bind H:R]... -- CMD...: become the supervisor
# of CMD run in the root (see run): unshare execs it, so the PID stays the
# same and a signal sent to this command reaches the supervisor.
enter_exec() {
	local net=$1
	shift
	local ns=(--mount --propagation private --uts --ipc)
	[ "$net" = host ] || ns+=(--net)
	exec unshare "${ns[@]}" -- bash "$self" __supervise "$name" "$net" "$@"
}
enter() { (enter_exec "$@"); }

# Resolve an absolute path inside the root without following a symlink out
# of it: print the path as seen from outside.
in_root_path() {
	local p
	p=$(chroot "$root" realpath -m -- "$1") || return 1
	printf '%s%s\n' "$root" "$p"
}

# __supervise SUITE NET [--bind H:R]... -- CMD...
# Runs in the new mount (private), UTS, IPC and network namespaces, in the
# host's PID namespace. Makes the mounts, starts PID 1 of a new PID
# namespace, forwards signals to it, and undoes every mount at exit.
supervise() {
	local net=$1
	shift
	local binds=() mounted=() pid1='' rc=0 signals=0 b src dst overlay=
	local lower=
	while [ $# -gt 0 ]; do
		case $1 in
		--bind) binds+=("$2"); shift 2 ;;
		--overlay) overlay=$2; shift 2 ;;
		--lower) lower=$2; shift 2 ;;
		--) shift; break ;;
		*) die "internal: unexpected $1" ;;
		esac
	done
	undo_mounts() {
		local i
		for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
			umount -R "${mounted[i]}" 2>/dev/null ||
				umount -R -l "${mounted[i]}" 2>/dev/null || true
		done
		mounted=()
	}
	on_exit() {
		local st=$?
		[ -z "${pid1:-}" ] || kill -KILL "$pid1" 2>/dev/null || true
		undo_mounts
		exit "$st"
	}
	on_signal() { # first INT/TERM/HUP is passed on, a second one kills
		signals=$((signals + 1))
		if [ -z "${pid1:-}" ]; then
			exit $((128 + $2))
		elif [ "$signals" -gt 1 ]; then
			kill -KILL "$pid1" 2>/dev/null || true
		else
			kill -"$1" "$pid1" 2>/dev/null || true
		fi
	}
	trap on_exit EXIT
	trap 'on_signal INT 2' INT
	trap 'on_signal TERM 15' TERM
	trap 'on_signal HUP 1' HUP

	if [ -n "$overlay" ]; then
		mkdir -p "$overlay/upper" "$overlay/work" "$overlay/merged"
		mount -t overlay overlay -o "lowerdir=${lower:+$lower:}$root,upperdir=$overlay/upper,workdir=$overlay/work" \
			"$overlay/merged"
		mounted+=("$overlay/merged")
		root=$overlay/merged
		export _prism_overlay_root=$root	# for __init
	fi
	if [ "$net" != host ]; then
		# Slurm 24.11 daemons fail to bind when lo has only 127.0.0.1
		ip link set lo up
		ip addr add 127.0.0.2/8 dev lo
	fi
	mount --rbind /dev "$root/dev"; mounted+=("$root/dev")
	mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
	mount --rbind /sys "$root/sys"; mounted+=("$root/sys")
	# the host's name resolves in the root as on the host; with the host's
	# network, so do the archive's
	for b in /etc/hosts /etc/resolv.conf; do
		[ "$b" = /etc/hosts ] || [ "$net" = host ] || continue
		dst=$(in_root_path "$b") || continue
		if [ ! -f "$b" ] || [ ! -f "$dst" ]; then continue; fi
		mount --bind "$b" "$dst"; mounted+=("$dst")
		mount -o remount,bind,ro "$dst"
	done
	for b in ${binds[@]+"${binds[@]}"}; do
		src=${b%%:*}
		dst=${b#*:}
		src=$(readlink -e -- "$src") || die "--bind $b: no such file or directory"
		dst=$(in_root_path "$dst") || die "--bind $b: bad path in the root"
		if [ -d "$src" ]; then
			mkdir -p -- "$dst"
		else
			mkdir -p -- "$(dirname -- "$dst")"
			[ -e "$dst" ] || : >"$dst"
		fi
		mount --rbind -- "$src" "$dst"; mounted+=("$dst")
	done
	# The proc mount belongs to PID 1's own mount namespace (it vanishes
	# with it). setsid: the terminal's signals reach this supervisor only,
	# which passes each on once. pdeathsig: if this supervisor is killed,
	# unshare, and with it PID 1 and everything in its namespace, die too.
	exec 3<&0
	# env --default-signal: bash gives "&" jobs SIGINT and SIGQUIT ignored,
	# and PID 1 could then not pass on an INT.
	setsid env --default-signal=INT,QUIT setpriv --pdeathsig KILL \
		unshare --pid --fork --kill-child --mount-proc="$root/proc" \
		-- bash "$self" __init "$name" -- "$@" <&3 3<&- &
	local upid=$!
	exec 3<&-
	# PID 1 is unshare's child; signals go to it (unshare blocks them)
	local i
	for ((i = 0; i < 100; i++)); do
		pid1=$(awk '{ print $1 }' "/proc/$upid/task/$upid/children" 2>/dev/null) || pid1=
		[ -n "$pid1" ] && break
		kill -0 "$upid" 2>/dev/null || break
		sleep 0.05
	done
	while :; do
		rc=0
		wait "$upid" || rc=$?
		kill -0 "$upid" 2>/dev/null || break
	done
	pid1=
	exit "$rc"
}

# __init SUITE -- CMD...: PID 1 of the root's PID namespace. Runs CMD in
# the root, reaps orphans (bash waits for any child), passes INT, TERM and
# HUP on to CMD, and exits with CMD's status; when it exits the kernel
# kills everything left in the namespace.
init() {
	[ "${1:-}" = -- ] || die "internal: __init expects --"
	shift
	exec 9>&- # the root's lock stays with the supervisor
	local cmd rc=0 envs=() v
	envs=(HOME=/root LANG=C.UTF-8
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
	[ -z "${TERM:-}" ] || envs+=("TERM=$TERM")
	for v in $(compgen -e); do
		case $v in PRISM_*) envs+=("$v=${!v}") ;; esac
	done
	trap '[ -z "${cmd:-}" ] || kill -INT "$cmd" 2>/dev/null' INT
	trap '[ -z "${cmd:-}" ] || kill -TERM "$cmd" 2>/dev/null' TERM
	trap '[ -z "${cmd:-}" ] || kill -HUP "$cmd" 2>/dev/null' HUP
	trap 'umount -l "$root/proc" 2>/dev/null || true' EXIT
	exec 3<&0
	# --default-signal: undo the ignored SIGINT/SIGQUIT bash gives "&" jobs
	chroot "$root" env -i --default-signal "${envs[@]}" "$@" <&3 3<&- &
	cmd=$!
	exec 3<&-
	while :; do
		rc=0
		wait "$cmd" || rc=$?
		kill -0 "$cmd" 2>/dev/null || break
	done
	exit "$rc"
}

cmd_run() {
	local net=own binds=() overlay=() lower=()
	while [ $# -gt 0 ]; do
		case $1 in
		--lower)
			[ $# -ge 2 ] || die "--lower needs a directory"
			[ -d "$2" ] || die "--lower $2: no such directory"
			lower=(--lower "$(cd -- "$2" && pwd)")
			shift 2
			;;
		--overlay)
			[ $# -ge 2 ] || die "--overlay needs a directory"
			mkdir -p -- "$2" || die "--overlay $2: cannot make it"
			overlay=(--overlay "$(cd -- "$2" && pwd)")
			shift 2
			;;
		--bind)
			[ $# -ge 2 ] || die "--bind needs HOST:INROOT"
			case $2 in
			*:/*) ;;
			*) die "--bind $2: expected HOST:INROOT with INROOT absolute" ;;
			esac
			binds+=(--bind "$2")
			shift 2
			;;
		--bind=*) set -- --bind "${1#--bind=}" "${@:2}" ;;
		--host-net) net=host; shift ;;
		--) shift; break ;;
		-h | --help) usage; exit 0 ;;
		*) die "run: unexpected '$1' (the command goes after --)" ;;
		esac
	done
	[ $# -gt 0 ] || die "run: no command (usage: $prog $name run [--bind H:R]... -- CMD...)"
	[ "$(id -u)" -eq 0 ] || die "run needs root"
	[ -f "$root/.prism-root-ready" ] || die "$root is not ready: run '$prog $name ensure' first"
	[ ${#lower[@]} -eq 0 ] || [ ${#overlay[@]} -gt 0 ] ||
		die "run: --lower goes with --overlay"
	lock_root -s
	enter_exec "$net" ${overlay[@]+"${overlay[@]}"} ${lower[@]+"${lower[@]}"} \
		${binds[@]+"${binds[@]}"} -- "$@"
}

# ---------------------------------------------------------------- main

# set_root NAME: name (the root's), suite (Debian's), clean, base, root
set_root() {
	name=$1
	suite=${name%-clean}
	clean=
	[ "$suite" = "$name" ] || clean=1
	base=${PRISM_ROOT_CACHE:-/var/cache/prism/roots}
	root=$base/$name
}

main() {
	local mode cmd
	case ${1:-} in
	-h | --help | help) usage; exit 0 ;;
	"") usage >&2; exit 2 ;;
	__supervise | __init)
		mode=$1
		set_root "$2"
		shift 2
		if [ "$mode" = __init ] && [ -n "${_prism_overlay_root:-}" ]; then
			root=$_prism_overlay_root
		fi
		if [ "$mode" = __supervise ]; then supervise "$@"; else init "$@"; fi
		exit
		;;
	esac
	case $1 in
	*/* | .* | -*) die "bad root name '$1'" ;;
	esac
	set_root "$1"
	[ $# -ge 2 ] || { usage >&2; exit 2; }
	cmd=$2
	shift 2
	case $cmd in
	ensure) [ $# -eq 0 ] || die "ensure takes no arguments"; cmd_ensure ;;
	run) cmd_run "$@" ;;
	path) echo "$root" ;;
	*) die "unknown command '$cmd' (ensure, run, path; -h for help)" ;;
	esac
}

# One line, read whole before it runs: a running copy never reads past it
# (safe when this file is replaced while a long run is under way).
main "$@"; exit $?
