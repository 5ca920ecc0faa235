#!/usr/bin/env bash
# test-systemd.sh: Prism's Debian package on a machine that boots with
# systemd, its units (prism metrics') run by systemd itself.
#
# Usage: tests/package/test-systemd.sh SUITE DEB   (as root)
#
# In an overlay of the cached SUITE-clean root (scripts/debian-root.sh):
# systemd, slurmctld, prometheus-node-exporter and DEB installed with
# apt-get, slurm.conf set to priority/prism, munge and slurmctld enabled
# (tests/package/in-systemd.sh install). Then the overlay boots: systemd
# is PID 1 of a container (systemd-nspawn --boot, its own network with a
# loopback only, no machine registration), and a unit of the test's own
# (prism-systemd-test.service) checks, after multi-user.target:
#  (a) the package's units are installed disabled, systemd started none of
#      them, systemd-analyze verify finds nothing to say of them;
#  (b) slurmctld.service runs slurmctld with priority/prism, which writes
#      its pass figures;
#  (c) systemctl enable --now prism-metrics: GET /metrics on its address
#      answers with the controller's figures, from a process of user
#      slurm (the unit's User=, in the unit's sandbox);
#  (d) systemctl enable --now prism-metrics-textfile.timer: the timer
#      waits; the service it starts writes prism.prom whole into
#      node_exporter's textfile directory, and node_exporter serves it;
#  (e) disable --now stops the server;
# and powers the machine off. The overlay and its mount go when the test
# ends (the mount lives in a mount namespace of its own); the cached root
# is not written.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
root_sh=$top/scripts/debian-root.sh
log() { printf 'test-systemd: %s\n' "$*" >&2; }
die() { printf 'test-systemd: error: %s\n' "$*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 SUITE DEB"
suite=$1
deb=$(readlink -e -- "$2") || die "no such file: $2"
command -v systemd-nspawn >/dev/null ||
	die "no systemd-nspawn (apt-get install systemd-container)"

"$root_sh" "$suite-clean" ensure || die "no clean $suite root"
lower=$("$root_sh" "$suite-clean" path)
work=$(mktemp -d)
trap 'rm -rf --one-file-system "$work"' EXIT
mkdir -p "$work/pkg" "$work/overlay" "$work/out"
cp "$deb" "$work/pkg/"
# downloaded packages are kept between runs (a directory of its own: apt
# locks its archive directory, and test-install.sh may run beside)
archives=/var/cache/prism/apt-archives/$suite-systemd
mkdir -p "$archives/partial"

log "installing systemd, slurmctld and $(basename "$deb") in an overlay of the $suite-clean root"
"$root_sh" "$suite-clean" run --host-net --overlay "$work/overlay" \
	--bind "$work/pkg:/pkg" --bind "$here:/prism-test" \
	--bind "$archives:/var/cache/apt/archives" \
	-- bash /prism-test/in-systemd.sh install "/pkg/$(basename "$deb")" ||
	die "the install in the root failed"

# The boot. systemd in the container gives prism-systemd-test.service
# (TimeoutStartSec=240) its time and powers off; 300 s bounds the whole
# boot, and timeout's TERM makes systemd-nspawn stop the container.
log "booting the overlay with systemd (systemd-nspawn --boot)"
unshare --mount --propagation private -- bash -c '
	set -e
	o=$1 lower=$2 here=$3 out=$4
	mount -t overlay overlay -o "lowerdir=$lower,upperdir=$o/upper,workdir=$o/work" "$o/merged"
	timeout --kill-after=20 300 systemd-nspawn --quiet --register=no --keep-unit \
		--private-network --machine=prism-systemd -D "$o/merged" \
		--bind-ro="$here:/prism-test" --bind="$out:/out" --boot \
		</dev/null
' sh "$work/overlay" "$lower" "$here" "$work/out" >"$work/console.log" 2>&1
rc=$?

fails=0
if [ -f "$work/out/results" ]; then
	cat "$work/out/results" | grep -v '^done$'
	fails=$(grep -c '^FAIL' "$work/out/results")
	grep -qx done "$work/out/results" || {
		echo "FAIL: the checks under systemd did not finish (systemd-nspawn exit $rc)"
		fails=$((fails + 1))
	}
else
	echo "FAIL: the checks under systemd did not run (systemd-nspawn exit $rc)"
	fails=1
fi
if [ "$fails" -ne 0 ]; then
	echo "--- the container's console, last lines:"
	tail -n 30 "$work/console.log" | sed 's/\x1b\[[0-9;]*m//g'
	[ ! -s "$work/out/boot-test.log" ] || {
		echo "--- the test unit's output:"
		tail -n 30 "$work/out/boot-test.log"
	}
fi
[ "$fails" -eq 0 ] && echo "test-systemd $suite: all passed" ||
	echo "test-systemd $suite: $fails failed"
[ "$fails" -eq 0 ]
