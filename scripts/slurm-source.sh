#!/usr/bin/env bash
# slurm-source.sh: obtain, unpack and configure Debian's slurm-wlm source
# package at exactly the version of the installed slurmctld, and cache it.
#
# Usage: scripts/slurm-source.sh [CACHE_DIR]
# Prints the path of the configured tree on stdout (last line).
#
# The apt sources used are derived from the machine's own: every "deb"
# entry for a bookworm suite is copied as "deb-src" into a private sources
# file, with a private lists directory, so the system's apt configuration
# is never touched and no host name is written into the project.
set -euo pipefail

cache=${1:-${PRISM_SLURM_CACHE:-/var/cache/prism/slurm-source}}

log() { printf 'slurm-source: %s\n' "$*" >&2; }
die() { printf 'slurm-source: error: %s\n' "$*" >&2; exit 1; }

version=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null) ||
	die "slurmctld is not installed (apt-get install slurmctld)"
[ -n "$version" ] || die "slurmctld is not installed"
upstream=${version#*:}
upstream=${upstream%-*}

tree="$cache/$version/slurm-wlm-$upstream"
stamp="$tree/.prism-configured"
if [ -f "$stamp" ]; then
	log "cached tree for slurmctld $version: $tree"
	echo "$tree"
	exit 0
fi

command -v dpkg-source >/dev/null || die "dpkg-source missing (apt-get install dpkg-dev)"

work="$cache/$version"
mkdir -p "$work"
apt_dir="$cache/apt"
mkdir -p "$apt_dir/lists/partial"
src_list="$apt_dir/sources.list"

# Derive deb-src entries from the machine's own deb entries (deb822 and
# one-line formats), keeping only bookworm suites.
: >"$src_list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	awk '$1 == "deb" {
		i = 2
		if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
		if ($(i+1) ~ /^bookworm/) { $1 = "deb-src"; print }
	}' "$f" >>"$src_list"
done
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	awk 'BEGIN { RS = ""; FS = "\n" }
	{
		types = ""; uris = ""; suites = ""; comps = ""; signed = ""
		for (i = 1; i <= NF; i++) {
			line = $i
			if (line ~ /^#/) continue
			split(line, kv, ":[ \t]*")
			key = kv[1]; val = substr(line, length(key) + 2)
			sub(/^[ \t]+/, "", val)
			if (key == "Types") types = val
			else if (key == "URIs") uris = val
			else if (key == "Suites") suites = val
			else if (key == "Components") comps = val
			else if (key == "Signed-By") signed = val
		}
		if (types !~ /(^| )deb( |$)/ || suites !~ /^bookworm/) next
		n = split(suites, s, " ")
		m = split(uris, u, " ")
		for (j = 1; j <= m; j++)
			for (k = 1; k <= n; k++) {
				opt = signed != "" ? "[signed-by=" signed "] " : ""
				print "deb-src " opt u[j] " " s[k] " " comps
			}
	}' "$f" >>"$src_list"
done
[ -s "$src_list" ] || die "no bookworm 'deb' entry found in /etc/apt/sources.list*"

apt_opts=(-o "Dir::Etc::sourcelist=$src_list" -o "Dir::Etc::sourceparts=-"
	-o "Dir::State::Lists=$apt_dir/lists" -o "APT::Get::Only-Source=true")
if [ ! -d "$tree" ]; then
	log "fetching slurm-wlm=$version source"
	apt-get -q "${apt_opts[@]}" update >&2 ||
		die "apt-get update of the private source list failed"
	rm -rf "$work/dl"
	mkdir -p "$work/dl"
	(cd "$work/dl" && apt-get -q "${apt_opts[@]}" --download-only source "slurm-wlm=$version" >&2) ||
		die "apt-get source slurm-wlm=$version failed"
	dsc=$(ls "$work"/dl/*.dsc | head -n 1)
	rm -rf "$tree.tmp"
	dpkg-source --no-check -x "$dsc" "$tree.tmp" >&2 ||
		die "dpkg-source -x $dsc failed"
	mv "$tree.tmp" "$tree"
	rm -rf "$work/dl"
fi

log "configuring $tree (about a minute)"
(cd "$tree" && ./configure --prefix=/usr --sysconfdir=/etc/slurm \
	--libdir=/usr/lib/x86_64-linux-gnu --disable-debug \
	>"$tree/.prism-configure.log" 2>&1) ||
	die "Slurm configure failed; see $tree/.prism-configure.log"
[ -f "$tree/config.h" ] || die "Slurm configure produced no config.h"
printf '%s\n' "$version" >"$stamp"
log "ready: $tree"
echo "$tree"
