#!/usr/bin/env bash
# in-root.sh: the part of tests/package/test-install.sh that runs inside
# the clean Debian root (see there). Prints PASS:/FAIL: lines; the exit
# status is the number of failures.
#
# Usage: in-root.sh install DEB [OTHER_DEB]   (with the archive reachable)
#        in-root.sh run                       (loopback only)
set -uo pipefail

# shellcheck source=tests/package/lib.sh
. "$(dirname "$0")/lib.sh"
conf=/etc/slurm/slurm.conf
state=/var/lib/slurm/slurmctld
plugindir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	echo x86_64-linux-gnu)/slurm-wlm

# The site before Prism: slurmctld with Debian's multifactor.
write_conf() { # write_conf PRIORITY_TYPE
	mkdir -p /etc/slurm "$state" /var/log/slurm /run/slurm
	cat >"$conf" <<CONF
ClusterName=site
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$state
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmctldDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
PriorityType=$1
PriorityWeightAge=1000
PriorityWeightPartition=1000
PriorityWeightFairshare=1000
NodeName=n1 NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES State=UP
CONF
}

# slurmctld_range DEB: the package's relations on slurmctld, as written
slurmctld_range() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' |
		sed -n 's/^ *slurmctld (\(.*\)) *$/\1/p' | paste -sd, -
}

# in_range VERSION DEB: 0 when VERSION satisfies every relation DEB has on
# slurmctld (and it has at least one), 1 otherwise
in_range() {
	local rel op ver n=0
	while read -r op ver; do
		[ -n "$op" ] || continue
		n=$((n + 1))
		case $op in
		'>=') rel=ge ;; '<<') rel=lt ;; '<=') rel=le ;;
		'>>') rel=gt ;; '=') rel=eq ;; *) echo 1; return ;;
		esac
		dpkg --compare-versions "$1" "$rel" "$ver" || { echo 1; return; }
	done < <(slurmctld_range "$2" | tr ',' '\n')
	[ "$n" -gt 0 ] && echo 0 || echo 1
}

cmd_install() {
	local deb=$1 other=${2:-} before after v ctl next
	apt-get -q update >/dev/null || { echo "FAIL: apt-get update"; exit 1; }
	apt_install slurmctld man-db >/tmp/apt-slurm.log 2>&1 ||
		{ tail -n 20 /tmp/apt-slurm.log; echo "FAIL: installing slurmctld"; exit 1; }
	write_conf priority/multifactor
	before=$(find /etc/slurm -type f -exec md5sum {} + | sort)
	apt_install "$deb" >/tmp/apt-prism.log 2>&1
	check "(b) apt-get install ./$(basename "$deb")" $? \
		"$(tail -n 5 /tmp/apt-prism.log | tr '\n' ' ')"
	after=$(find /etc/slurm -type f -exec md5sum {} + | sort)
	check "(b) /etc/slurm is unchanged by the install" \
		"$([ "$before" = "$after" ]; echo $?)"
	check "(b) priority_prism.so is in Slurm's plugin directory, beside priority_multifactor.so" \
		"$(ok test -f "$plugindir/priority_prism.so" -a -f "$plugindir/priority_multifactor.so")"
	v=$(dpkg-query -W -f='${Version}' prism-slurm)
	ctl=$(dpkg-query -W -f='${Version}' slurmctld)
	check "(b) the package depends on exactly this slurmctld release ($(slurmctld_range "$deb"))" \
		"$(in_range "$ctl" "$deb")"
	if [ -n "$other" ]; then
		apt_install "$other" >/tmp/apt-other.log 2>&1
		check "(c) the package for the other Slurm is refused" \
			"$([ $? -ne 0 ]; echo $?)"
		check "(c) ... and Prism stays as it was ($v)" \
			"$([ "$(dpkg-query -W -f='${Version}' prism-slurm)" = "$v" ]; echo $?)"
		grep -m 2 -E 'Depends|unmet' /tmp/apt-other.log | sed 's/^/  apt: /'
		check "(c) ... whose slurmctld range ($(slurmctld_range "$other")) excludes slurmctld $ctl" \
			"$([ "$(in_range "$ctl" "$other")" -ne 0 ]; echo $?)"
	fi
	# a slurmctld of the next micro release, as an upgrade would bring
	next=$(dpkg-query -W -f='${Version}' slurmctld |
		awk -F'[.-]' '{ printf "%s.%s.%d-1", $1, $2, $3 + 1 }')
	mkdir -p /tmp/fake/DEBIAN
	printf 'Package: slurmctld\nVersion: %s\nArchitecture: %s\nMaintainer: test <test@prism.invalid>\nDescription: a later slurmctld (test)\n' \
		"$next" "$(dpkg --print-architecture)" >/tmp/fake/DEBIAN/control
	dpkg-deb -b /tmp/fake "/tmp/slurmctld_$next.deb" >/dev/null
	apt-get -s -q install "/tmp/slurmctld_$next.deb" >/tmp/apt-upgrade.log 2>&1
	check "(c) an upgrade to slurmctld $next takes Prism out rather than leave a plugin that cannot load" \
		"$(ok grep -E '^Remv prism-slurm' /tmp/apt-upgrade.log)" \
		"$(grep -E '^(Remv|Inst)' /tmp/apt-upgrade.log | tr '\n' ' ')"
	exit "$fails"
}

munged_start() {
	[ -f /etc/munge/munge.key ] || {
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
		chown munge:munge /etc/munge/munge.key
		chmod 400 /etc/munge/munge.key
	}
	mkdir -p /run/munge && chown munge:munge /run/munge
	setpriv --reuid=munge --regid=munge --init-groups -- /usr/sbin/munged
	for _ in $(seq 50); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

ctld_start() { # ctld_start: start slurmctld, wait until it answers
	/usr/sbin/slurmctld >/tmp/slurmctld.out 2>&1
	for _ in $(seq 100); do
		scontrol ping 2>/dev/null | grep -q 'is UP' && return 0
		sleep 0.3
	done
	tail -n 20 /var/log/slurm/slurmctld.log /tmp/slurmctld.out
	return 1
}

ctld_stop() { # stop the slurmctld this script started, by its PID
	local pid
	pid=$(cat /run/slurm/slurmctld.pid 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.2
	done
	kill -KILL "$pid" 2>/dev/null
}

# listen_check: prism metrics --listen is built in: a scrape gets the
# controller's figures (this namespace's own loopback), and so do the
# scrapes after it (each loads the records again through Slurm's API,
# which Slurm 24.11's library cannot open a second time)
listen_check() {
	local pid body='' port=9811 n=0
	prism metrics --listen "127.0.0.1:$port" >/tmp/listen.out 2>&1 &
	pid=$!
	for _ in $(seq 50); do
		body=$(scrape "$port" 2>/dev/null) && [ -n "$body" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	check "(d) prism metrics --listen serves the metrics over HTTP" \
		"$(ok grep -q '^prism_info{' <<<"$body")" \
		"$(head -n 1 <<<"$body") $(head -c 300 /tmp/listen.out)"
	# (each body read whole, then searched: `scrape | grep -q` fails by
	# chance under pipefail, when grep leaves before the last write)
	for _ in 1 2 3; do
		body=$(scrape "$port" 2>/dev/null)
		grep -q '^prism_info{' <<<"$body" && n=$((n + 1))
	done
	check "(d) ... and three scrapes more, by the same server" \
		"$([ "$n" -eq 3 ]; echo $?)" \
		"$n of 3; $(head -c 300 /tmp/listen.out)"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

priority_type() {
	scontrol show config | awk -F' = ' '$1 ~ /^PriorityType *$/ { print $2 }'
}

cmd_run() {
	local prio ver ctl files_before files_after
	munged_start; check "(d) munged starts" $?
	# the administrator's one line
	sed -i 's|^PriorityType=.*|PriorityType=priority/prism|' "$conf"
	ctld_start; check "(d) slurmctld starts with PriorityType=priority/prism and no PluginDir" $?
	check "(d) the controller reports priority/prism" \
		"$([ "$(priority_type)" = priority/prism ]; echo $?)" "$(priority_type)"
	sbatch -Q --wrap 'sleep 60' >/dev/null
	sleep 1
	prio=$(sprio -h -o '%i %Y' | awk 'NR == 1 { print $2 }')
	check "(d) sprio shows the pending job with a priority ($prio)" \
		"$([ "${prio:-0}" -gt 0 ] 2>/dev/null; echo $?)"
	ver=$(prism --version)
	ctl=$(/usr/sbin/slurmctld -V | awk '{ print $2 }')
	check "(d) prism --version names this Slurm ($ver; slurmctld $ctl)" \
		"$(ok grep -F "Slurm $ctl" <<<"$ver")"
	listen_check
	check "(d) man prism renders" \
		"$(page=$(MANWIDTH=80 man -P cat prism 2>/dev/null); grep -q 'explain' <<<"$page"; echo $?)"
	check "(d) man priority_prism renders" \
		"$(page=$(MANWIDTH=80 man -P cat priority_prism 2>/dev/null); grep -q 'PriorityParameters' <<<"$page"; echo $?)"
	ctld_stop
	check "(e) Prism's state is in StateSaveLocation" \
		"$(ok compgen -G "$state/priority_prism*")" "$(ls "$state" | tr '\n' ' ')"

	DEBIAN_FRONTEND=noninteractive apt-get -q -y remove prism-slurm >/tmp/apt-remove.log 2>&1
	check "(e) apt-get remove prism-slurm" $?
	check "(e) ... warns that slurm.conf still names priority/prism" \
		"$(ok grep -F 'prism-slurm: warning: /etc/slurm/slurm.conf sets PriorityType=priority/prism' /tmp/apt-remove.log)"
	sed -i 's|^PriorityType=.*|PriorityType=priority/multifactor|' "$conf"
	ctld_start; check "(e) after removal slurmctld starts with priority/multifactor on the same state" $?
	check "(e) ... and still has the pending job" \
		"$([ -n "$(sprio -h -o '%i')" ]; echo $?)"
	ctld_stop
	files_before=$(cd "$state" && find . -type f | sort)
	DEBIAN_FRONTEND=noninteractive apt-get -q -y purge prism-slurm >/tmp/apt-purge.log 2>&1
	files_after=$(cd "$state" && find . -type f | sort)
	check "(e) purge leaves every file in StateSaveLocation" \
		"$([ "$files_before" = "$files_after" ]; echo $?)"
	exit "$fails"
}

case ${1:-} in
install) shift; cmd_install "$@" ;;
run) cmd_run ;;
*) echo "usage: $0 install DEB [OTHER_DEB] | run" >&2; exit 2 ;;
esac
