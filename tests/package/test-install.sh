#!/usr/bin/env bash
# test-install.sh: install Prism's Debian package on a new machine of its
# Debian release, the way an administrator would, and check it.
#
# Usage: tests/package/test-install.sh SUITE DEB [OTHER_DEB]   (as root)
#
# In an overlay of the cached SUITE-clean root (debootstrap minbase and
# nothing else: scripts/debian-root.sh; the cached root stays clean):
#  (a) the package's maintainer scripts are a prerm that warns and
#      debhelper's sections for its own systemd units (prism metrics',
#      installed disabled: they enable nothing, and start or restart only
#      a unit the site enabled): installing it changes nothing that runs,
#      removing or purging it touches no file of the site's;
#  (b) apt-get install ./DEB pulls in the Slurm it was built for from the
#      archive; /etc/slurm is the same before and after;
#  (c) OTHER_DEB (the package built for the other Slurm) is refused beside
#      this Slurm, and apt removes Prism rather than upgrade slurmctld to a
#      release the plugin cannot load into (a local slurmctld package of
#      the next micro release, simulated);
#  then, in the root's own network namespace (tests/package/in-root.sh):
#  (d) slurmctld starts with PriorityType=priority/prism from the installed
#      files alone (no PluginDir), a pending job has a priority in sprio,
#      `prism --version` names the controller's Slurm release, `prism
#      metrics --listen` answers a scrape with the controller's figures,
#      `man prism` and `man priority_prism` render;
#  (e) after apt-get remove, slurmctld starts with priority/multifactor on
#      the same StateSaveLocation; after purge every file there is still
#      there.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
root_sh=$top/scripts/debian-root.sh
log() { printf 'test-install: %s\n' "$*" >&2; }
die() { printf 'test-install: error: %s\n' "$*" >&2; exit 1; }

[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 SUITE DEB [OTHER_DEB]"
suite=$1
deb=$(readlink -e -- "$2") || die "no such file: $2"
other=
[ $# -lt 3 ] || other=$(readlink -e -- "$3") || die "no such file: $3"

# shellcheck source=tests/package/lib.sh
. "$here/lib.sh"

"$root_sh" "$suite-clean" ensure || die "no clean $suite root"
work=$(mktemp -d)
trap 'rm -rf --one-file-system "$work"' EXIT
mkdir -p "$work/pkg" "$work/overlay"
cp "$deb" "$work/pkg/"
[ -z "$other" ] || cp "$other" "$work/pkg/other.deb"
# downloaded packages are kept between runs
archives=/var/cache/prism/apt-archives/$suite
mkdir -p "$archives/partial"

in_root() { # in_root [--host-net] -- CMD...: in the overlay
	local net=()
	if [ "$1" = --host-net ]; then net=(--host-net); shift; fi
	"$root_sh" "$suite-clean" run "${net[@]}" --overlay "$work/overlay" \
		--bind "$work/pkg:/pkg" --bind "$here:/prism-test" \
		--bind "$archives:/var/cache/apt/archives" "$@"
}

# (a) no maintainer script but the prerm's warning and debhelper's
# sections for prism metrics' units
mkdir "$work/control"
dpkg-deb -e "$deb" "$work/control"
other_code='' foreign_units='' enables=0 was_enabled=0
for s in preinst postinst postrm config prerm; do
	f=$work/control/$s
	[ -f "$f" ] || continue
	# what is left out of dh_installsystemd's sections (the prerm's own
	# text is checked below)
	[ "$s" = prerm ] ||
		other_code+=$(awk '/^# Automatically added by dh_installsystemd\// { sec = 1; next }
			/^# End automatically added section/ { sec = 0; next }
			!sec' "$f" | grep -Ev '^(#!/bin/sh|set -e|exit 0|[[:space:]]*)$' | sed "s/^/$s: /")
	foreign_units+=$(grep -o "'[^']*\.\(service\|timer\|socket\)'" "$f" | tr -d "'" |
		grep -v '^prism-metrics\(-textfile\)\{0,1\}\.\(service\|timer\)$' | tr '\n' ' ')
	enables=$((enables + $(grep -c 'deb-systemd-helper enable' "$f")))
	was_enabled=$((was_enabled + $(grep -c 'deb-systemd-helper --quiet was-enabled' "$f")))
done
check "(a) no maintainer script but debhelper's sections for prism metrics' own units" \
	"$([ -z "$other_code$foreign_units" ]; echo $?)" "$other_code $foreign_units"
check "(a) the units are installed disabled: enabled again only where the site had enabled them" \
	"$([ "$enables" -eq "$was_enabled" ]; echo $?)" "$enables enable, $was_enabled was-enabled"
check "(a) the prerm only warns (no command but grep and echo)" \
	"$(awk '/^# Automatically added by dh_installsystemd\// { sec = 1; next }
		/^# End automatically added section/ { sec = 0; next } !sec' "$work/control/prerm" |
		grep -Ev '^[[:space:]]*(#|$|set -e$|case |remove\)|;;|esac|exit 0|conf=|if \[|then|fi$|echo |"set priority|grep -Eiq)' |
		grep -q .; [ $? -ne 0 ]; echo $?)"

# (b) install as an administrator would
in_root --host-net -- bash /prism-test/in-root.sh install \
	"/pkg/$(basename "$deb")" ${other:+/pkg/other.deb}
rc=$?
[ "$rc" -eq 0 ] || fails=$((fails + rc))

# (d), (e) in the root's own network namespace
in_root -- bash /prism-test/in-root.sh run
rc=$?
[ "$rc" -eq 0 ] || fails=$((fails + rc))

[ "$fails" -eq 0 ] && echo "test-install $suite: all passed" ||
	echo "test-install $suite: $fails failed"
[ "$fails" -eq 0 ]
