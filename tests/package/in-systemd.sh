#!/usr/bin/env bash
# in-systemd.sh: the parts of tests/package/test-systemd.sh that run inside
# the Debian root (see there).
#
# Usage: in-systemd.sh install DEB   (chroot, with the archive reachable):
#            systemd, slurmctld, prometheus-node-exporter and DEB
#            installed with apt-get; slurm.conf for priority/prism; this
#            script's own "boot" part made a unit that runs once at boot
#            and powers the machine off
#        in-systemd.sh boot          (under systemd, PID 1 of the root, as
#            prism-systemd-test.service): the checks; PASS:/FAIL: lines
#            in /out/results, a last line "done"
set -uo pipefail

conf=/etc/slurm/slurm.conf
state=/var/lib/slurm/slurmctld
units=(prism-metrics.service prism-metrics-textfile.service prism-metrics-textfile.timer)
textfile=/var/lib/prometheus/node-exporter

# shellcheck source=tests/package/lib.sh
. "$(dirname "$0")/lib.sh"

cmd_install() {
	local deb=$1
	apt-get -q update >/dev/null || { echo "apt-get update failed"; exit 1; }
	# systemd-sysv: /sbin/init for the boot; dbus: systemctl's bus; man-db:
	# the units' Documentation= (systemd-analyze verify runs man); procps
	apt_install systemd systemd-sysv dbus slurmctld prometheus-node-exporter \
		man-db procps iproute2 \
		>/tmp/apt-base.log 2>&1 ||
		{ tail -n 20 /tmp/apt-base.log; echo "installing systemd and slurmctld failed"; exit 1; }
	apt_install "$deb" >/tmp/apt-prism.log 2>&1 ||
		{ tail -n 20 /tmp/apt-prism.log; echo "installing $deb failed"; exit 1; }
	[ -f /etc/munge/munge.key ] || {
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
		chown munge:munge /etc/munge/munge.key
		chmod 400 /etc/munge/munge.key
	}
	# a new machine's hosts file (debootstrap writes none): SlurmctldHost
	printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >/etc/hosts
	# Debian's slurmctld runs as SlurmUser slurm: prism-metrics.service's
	# User= reads the state it writes
	mkdir -p /etc/slurm "$state" /var/log/slurm
	chown slurm:slurm "$state" /var/log/slurm
	cat >"$conf" <<'CONF'
ClusterName=site
SlurmctldHost=localhost
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmctldDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
PriorityType=priority/prism
PriorityCalcPeriod=1
PriorityWeightAge=1000
PriorityWeightPartition=1000
PriorityWeightFairshare=1000
NodeName=n1 NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES State=UP
CONF
	# how the package left its units (systemctl reads the unit files and
	# their links without a running systemd)
	for u in "${units[@]}"; do
		printf '%s %s\n' "$u" "$(systemctl is-enabled "$u" 2>/dev/null || true)"
	done >/root/units-as-installed
	# The container's network is a loopback with 127.0.0.1 alone, and
	# slurmctld binds its port through getaddrinfo(AI_ADDRCONFIG), which
	# finds no address there (fatal: slurm_init_msg_engine_port error
	# Address family not supported by protocol); a machine has an address
	# on a network interface: here a second one on lo, before slurmctld
	# starts (as scripts/debian-root.sh gives its roots)
	cat >/etc/systemd/system/prism-test-address.service <<'UNIT'
[Unit]
Description=A second loopback address for slurmctld (tests/package/in-systemd.sh)
Before=munge.service slurmctld.service network.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/sbin/ip addr add 127.0.0.2/8 dev lo

[Install]
WantedBy=multi-user.target
UNIT
	systemctl enable prism-test-address.service munge.service slurmctld.service >/dev/null 2>&1
	cat >/etc/systemd/system/prism-systemd-test.service <<'UNIT'
[Unit]
Description=Prism's units under systemd (tests/package/in-systemd.sh)
After=multi-user.target
SuccessAction=poweroff
FailureAction=poweroff

[Service]
Type=oneshot
ExecStart=/bin/bash /prism-test/in-systemd.sh boot
StandardOutput=append:/out/boot-test.log
StandardError=inherit
TimeoutStartSec=240

[Install]
WantedBy=multi-user.target
UNIT
	systemctl enable prism-systemd-test.service >/dev/null 2>&1
	# a console without a login prompt
	systemctl mask console-getty.service getty@tty1.service >/dev/null 2>&1
	echo "installed: $(dpkg-query -W -f='${Package} ${Version}' prism-slurm), systemd $(dpkg-query -W -f='${Version}' systemd), slurmctld $(dpkg-query -W -f='${Version}' slurmctld)"
}

# ---------------------------------------------------------------- boot
# until SECONDS CMD...: run CMD every 0.5 s until it succeeds (0) or
# SECONDS have passed (1)
until_ok() {
	local end=$((SECONDS + $1))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.5
	done
}
# (the body read whole, then searched: `scrape | grep -q` fails by chance
# under pipefail, when grep leaves before scrape's last write)
has_family() {
	local b
	b=$(scrape "$1" 2>/dev/null)
	grep -q "^$2" <<<"$b"
}
ctld_up() { scontrol ping 2>/dev/null | grep -q 'is UP'; }
pass_file() { [ -s "$state/priority_prism_pass" ]; }
none_active() {
	local u
	for u in "${units[@]}"; do
		! systemctl is-active -q "$u" || return 1
	done
}
main_user() { # the user the unit's main process runs as
	local pid
	pid=$(systemctl show -p MainPID --value "$1")
	[ "${pid:-0}" -gt 0 ] && ps -o user= -p "$pid"
}

cmd_boot() {
	local u was body out left mode n
	# (a) installed disabled, as the package's postinst left them
	was=$(tr '\n' ';' </root/units-as-installed)
	# (the textfile service has no [Install]: the timer starts it)
	check "(a) the package installed its units disabled" \
		"$(awk '$2 != ($1 ~ /textfile\.service$/ ? "static" : "disabled") { bad = 1 } END { exit bad || NR != 3 }' /root/units-as-installed; echo $?)" "$was"
	out=$(for u in "${units[@]}"; do systemctl status "$u" 2>&1 | head -n 3; done)
	check "(a) ... and systemd booted without starting them" \
		"$(none_active; echo $?)" "$(tr '\n' ' ' <<<"$out")"
	out=$(cd / && systemd-analyze verify "${units[@]/#//usr/lib/systemd/system/}" 2>&1 | grep -i prism-metrics)
	check "(a) systemd-analyze verify finds nothing to say of them" \
		"$([ -z "$out" ]; echo $?)" "$(tr '\n' ' ' <<<"$out")"

	until_ok 60 ctld_up
	check "(b) slurmctld.service started slurmctld with priority/prism" \
		"$(scontrol show config 2>/dev/null | grep -Eq '^PriorityType += priority/prism'; echo $?)" \
		"$(systemctl is-active slurmctld) $(tail -n 3 /var/log/slurm/slurmctld.log 2>/dev/null | tr '\n' ' ')"
	sbatch -Q -o /dev/null --wrap 'sleep 60' >/dev/null 2>&1
	# the plugin's pass figures: written after each pass (one at start,
	# then every PriorityCalcPeriod: 1 minute and a margin)
	until_ok 90 pass_file
	check "(b) the plugin wrote its pass figures in StateSaveLocation" \
		"$(pass_file; echo $?)" "$(ls -l "$state" | tr '\n' ' ')"

	# (c) prism metrics --listen, as its unit runs it (User=slurm, the
	# sandbox the unit sets)
	systemctl enable --now prism-metrics.service >/dev/null 2>&1
	until_ok 30 has_family 9814 'prism_info{'
	body=$(scrape 9814 2>/dev/null)
	check "(c) systemctl enable --now prism-metrics: GET /metrics on 127.0.0.1:9814 answers with the controller's figures" \
		"$(grep -q '^prism_info{' <<<"$body" && grep -q '^prism_pending_jobs{' <<<"$body" && grep -q '^prism_last_pass_timestamp_seconds ' <<<"$body"; echo $?)" \
		"$(systemctl is-active prism-metrics) $(head -n 1 <<<"$body") $(journalctl -u prism-metrics -n 3 --no-pager 2>/dev/null | tr '\n' ' ')"
	check "(c) ... as user slurm" \
		"$([ "$(main_user prism-metrics.service)" = slurm ]; echo $?)" "$(main_user prism-metrics.service)"
	n=0
	for _ in 1 2 3; do
		has_family 9814 'prism_info{' && n=$((n + 1))
	done
	check "(c) ... scrape after scrape, and the unit did not restart" \
		"$([ "$n" -eq 3 ] && [ "$(systemctl show -p NRestarts --value prism-metrics)" = 0 ]; echo $?)" \
		"$n of 3 scrapes; restarts $(systemctl show -p NRestarts --value prism-metrics)"

	# (d) the timer and the service it starts: prism.prom in
	# node_exporter's textfile directory, which node_exporter serves
	systemctl enable --now prism-metrics-textfile.timer >/dev/null 2>&1
	check "(d) systemctl enable --now prism-metrics-textfile.timer: the timer waits" \
		"$(systemctl is-active -q prism-metrics-textfile.timer; echo $?)" \
		"$(systemctl list-timers --all --no-pager 2>/dev/null | grep prism | tr -s ' ')"
	systemctl start prism-metrics-textfile.service
	mode=$(stat -c '%a %U' "$textfile/prism.prom" 2>/dev/null)
	left=$(find "$textfile" -name '.prism.prom.*' | wc -l)
	check "(d) prism-metrics-textfile.service (what the timer starts) writes $textfile/prism.prom whole, 644, no temporary file left" \
		"$(grep -q '^prism_info{' "$textfile/prism.prom" 2>/dev/null && [ "$mode" = '644 root' ] && [ "$left" -eq 0 ]; echo $?)" \
		"result $(systemctl show -p Result --value prism-metrics-textfile.service); mode ${mode:-none}; $left left; $(journalctl -u prism-metrics-textfile -n 3 --no-pager 2>/dev/null | tr '\n' ' ')"
	until_ok 30 has_family 9100 'prism_info{'
	check "(d) node_exporter (prometheus-node-exporter.service) serves prism.prom's families" \
		"$(has_family 9100 'prism_info{'; echo $?)" \
		"$(systemctl is-active prometheus-node-exporter) $(scrape 9100 2>/dev/null | grep -m 2 textfile | tr '\n' ' ' || true)"

	# (e) disabled again, as the package's removal would leave them
	systemctl disable --now prism-metrics.service prism-metrics-textfile.timer >/dev/null 2>&1
	check "(e) systemctl disable --now: nothing serves 9814 any more" \
		"$(! scrape 9814 >/dev/null 2>&1; echo $?)"
	echo done
}

case ${1:-} in
install) shift; cmd_install "$@" ;;
boot) : >/out/results; cmd_boot >>/out/results ;;
*) echo "usage: $0 install DEB | boot" >&2; exit 2 ;;
esac
