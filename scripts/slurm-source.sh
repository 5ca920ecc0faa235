#!/usr/bin/env bash
# slurm-source.sh: a configured Slurm source tree, cached: Debian's
# slurm-wlm source package at exactly the version of the installed
# slurmctld, or a SchedMD release from its tarball.
#
# Usage: scripts/slurm-source.sh [--release VERSION [--headers-only]] [CACHE_DIR]
# Prints the path of the configured tree on stdout (last line).
#
# Without --release: the installed slurmctld's version, from Debian's
# source package (below).
# --release VERSION (e.g. 25.11.7): the installed slurmctld's when it is
#         that release; else $PRISM_SLURM_RELEASES/slurm-VERSION.tar.gz,
#         checked against that directory's SHA256SUMS, unpacked and
#         configured as a site builds it (--prefix=/usr
#         --sysconfdir=/etc/slurm --libdir=/usr/lib/x86_64-linux-gnu).
#         Where the tarball is missing it says where to put it and stops.
# --headers-only  (with --release) generate only the headers a plugin
#         compiles against (config.h, slurm/slurm_version.h), not the
#         tree's Makefiles: faster, enough to build Prism's plugin
#         against the release, not to build Slurm.
#
# Env:   PRISM_SLURM_CACHE     cache dir (default /var/cache/prism/slurm-source)
#        PRISM_SLURM_RELEASES  release tarballs (default: ../shared/slurm-releases
#                              beside the project)
#        PRISM_DEBIAN_SUITE    suite to use (default: VERSION_CODENAME of
#                              /etc/os-release, e.g. bookworm or trixie)
#
# The apt sources used are derived from the machine's own: every "deb"
# entry for this machine's suite (SUITE, SUITE-updates, SUITE-security, ...)
# is copied as "deb-src" into a private sources file, with a private lists
# directory, so the system's apt configuration is never touched and no host
# name is written into the project.
#
# The archive may not serve every file of the source package (seen: the
# .dsc answers 404 everywhere, the .debian.tar.xz 404 in the main pool but
# not in the security pool). So: apt-get fetches what it can, the rest is
# fetched by the file names and Directory of the package's entry in the
# suite's Sources index (any suite listing that exact version, any pool),
# every file is checked against that entry's SHA256 (apt verified the
# index's signature), and a .dsc the archive did not serve is rebuilt from
# the index entry before dpkg-source -x.
set -euo pipefail

log() { printf 'slurm-source: %s\n' "$*" >&2; }
die() { printf 'slurm-source: error: %s\n' "$*" >&2; exit 1; }

release=
headers_only=
while [ $# -gt 0 ]; do
	case $1 in
	--release)
		[ $# -ge 2 ] || die "--release needs a version (e.g. 25.11.7)"
		release=$2
		shift 2
		;;
	--headers-only) headers_only=1; shift ;;
	-h | --help)
		sed -n '2,/^[^#]/{/^#/!d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ -z "$headers_only" ] || [ -n "$release" ] ||
	die "--headers-only goes with --release"
cache=${1:-${PRISM_SLURM_CACHE:-/var/cache/prism/slurm-source}}

version=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null) || version=
upstream=${version#*:}
upstream=${upstream%-*}

# release_tree: a SchedMD release from its tarball (--release).
release_tree() {
	local dir sums tarball top tree stamp want got
	case $release in
	[0-9]*.[0-9]*.[0-9]*) ;;
	*) die "--release $release: give a release as MAJOR.MINOR.MICRO (e.g. 25.11.7)" ;;
	esac
	dir=${PRISM_SLURM_RELEASES:-$(cd "$(dirname "$0")/.." && pwd)/../shared/slurm-releases}
	tarball=$dir/slurm-$release.tar.gz
	[ -f "$tarball" ] ||
		die "no tarball of Slurm $release: put SchedMD's release slurm-$release.tar.gz (from the downloads page of SchedMD's website) and its line of SHA256SUMS into $dir, or set PRISM_SLURM_RELEASES to the directory holding them"
	sums=$dir/SHA256SUMS
	[ -f "$sums" ] || die "$sums missing: cannot check $tarball"
	want=$(awk -v f="slurm-$release.tar.gz" '{ n = $2; sub(/^\*/, "", n) } n == f { print $1 }' "$sums")
	[ -n "$want" ] || die "$sums has no line for slurm-$release.tar.gz"
	tree=$cache/release-$release/slurm-$release
	if [ -n "$headers_only" ]; then stamp=$tree/.prism-headers; else stamp=$tree/.prism-configured; fi
	if [ -f "$stamp" ] || [ -f "$tree/.prism-configured" ]; then
		log "cached tree of Slurm $release: $tree"
		echo "$tree"
		exit 0
	fi
	got=$(sha256sum <"$tarball" | cut -d ' ' -f 1)
	[ "$got" = "$want" ] ||
		die "$tarball: sha256 $got, but SHA256SUMS says $want"
	log "verified $tarball (sha256 as in SHA256SUMS)"
	mkdir -p "$cache/release-$release"
	if [ ! -f "$tree/configure" ]; then
		top=$(tar tzf "$tarball" | head -n 1) || true
		top=${top%%/*}
		[ -n "$top" ] || die "$tarball: cannot read its top directory"
		rm -rf "$cache/release-$release/$top" "$tree"
		tar xzf "$tarball" -C "$cache/release-$release" ||
			die "cannot unpack $tarball"
		[ "$top" = "slurm-$release" ] || mv "$cache/release-$release/$top" "$tree"
	fi
	log "configuring $tree${headers_only:+ (headers only)}"
	t0=$SECONDS
	if [ -n "$headers_only" ]; then
		(cd "$tree" && ./configure --prefix=/usr --sysconfdir=/etc/slurm \
			--libdir=/usr/lib/x86_64-linux-gnu --disable-debug \
			--enable-multiple-slurmd --no-create \
			>"$tree/.prism-configure.log" 2>&1 &&
			./config.status --header=config.h \
				--header=slurm/slurm_version.h \
				>>"$tree/.prism-configure.log" 2>&1) ||
			die "Slurm configure failed; see $tree/.prism-configure.log"
	else
		(cd "$tree" && ./configure --prefix=/usr --sysconfdir=/etc/slurm \
			--libdir=/usr/lib/x86_64-linux-gnu --disable-debug \
			--enable-multiple-slurmd >"$tree/.prism-configure.log" 2>&1) ||
			die "Slurm configure failed; see $tree/.prism-configure.log"
	fi
	[ -f "$tree/config.h" ] && [ -f "$tree/slurm/slurm_version.h" ] ||
		die "Slurm configure produced no config.h or slurm/slurm_version.h"
	printf '%s\n' "$release" >"$stamp"
	log "configured in $((SECONDS - t0)) s"
	log "ready: $tree"
	echo "$tree"
	exit 0
}

if [ -n "$release" ] && [ "$release" != "$upstream" ]; then
	release_tree
fi
[ -n "$version" ] ||
	die "slurmctld is not installed (apt-get install slurmctld), and no --release given"

tree="$cache/$version/slurm-wlm-$upstream"
stamp="$tree/.prism-configured"
if [ -f "$stamp" ]; then
	log "cached tree for slurmctld $version: $tree"
	echo "$tree"
	exit 0
fi

command -v dpkg-source >/dev/null || die "dpkg-source missing (apt-get install dpkg-dev)"

suite=${PRISM_DEBIAN_SUITE:-}
if [ -z "$suite" ] && [ -r /etc/os-release ]; then
	# shellcheck disable=SC1091
	suite=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
fi
[ -n "$suite" ] || die "cannot tell this machine's Debian suite (set PRISM_DEBIAN_SUITE)"

work="$cache/$version"
mkdir -p "$work"
apt_dir="$cache/apt-$suite"
mkdir -p "$apt_dir/lists/partial"
src_list="$apt_dir/sources.list"

# Derive deb-src entries from the machine's own deb entries (deb822 and
# one-line formats), keeping only this suite and its -updates, -security...
: >"$src_list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	awk -v suite="$suite" '$1 == "deb" {
		i = 2
		if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
		s = $(i+1)
		if (s == suite || index(s, suite "-") == 1) { $1 = "deb-src"; print }
	}' "$f" >>"$src_list"
done
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	awk -v suite="$suite" 'BEGIN { RS = ""; FS = "\n" }
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
		if (types !~ /(^| )deb( |$)/) next
		n = split(suites, s, " ")
		m = split(uris, u, " ")
		for (k = 1; k <= n; k++) {
			if (s[k] != suite && index(s[k], suite "-") != 1) continue
			for (j = 1; j <= m; j++) {
				opt = signed != "" ? "[signed-by=" signed "] " : ""
				print "deb-src " opt u[j] " " s[k] " " comps
			}
		}
	}' "$f" >>"$src_list"
done
[ -s "$src_list" ] || die "no '$suite' 'deb' entry found in /etc/apt/sources.list*"

apt_opts=(-o "Dir::Etc::sourcelist=$src_list" -o "Dir::Etc::sourceparts=-"
	-o "Dir::State::Lists=$apt_dir/lists" -o "APT::Get::Only-Source=true")
apt_helper=/usr/lib/apt/apt-helper

# index_entry FILE: print the Sources stanza of slurm-wlm $version in FILE
# (awk reads to the end: an early exit would fail the pipe under pipefail).
index_entry() {
	"$apt_helper" cat-file "$1" </dev/null | awk -v ver="$version" '
		BEGIN { RS = ""; FS = "\n" }
		{
			p = 0; v = 0
			for (i = 1; i <= NF; i++) {
				if ($i == "Package: slurm-wlm") p = 1
				else if ($i == "Version: " ver) v = 1
			}
			if (p && v && !found) { print; found = 1 }
		}'
}

# sha256_ok FILE SHA256 SIZE
sha256_ok() {
	[ -f "$1" ] && [ "$(stat -c %s "$1")" = "$3" ] &&
		[ "$(sha256sum <"$1" | cut -d ' ' -f 1)" = "$2" ]
}

# rebuild_dsc ENTRY DSCNAME: a .dsc from a Sources index entry: Package
# becomes Source, the index-only fields go, and so do the checksum lines
# naming the .dsc itself.
rebuild_dsc() {
	awk -v dsc="$2" '
		/^[^ \t]/ {
			cur = substr($0, 1, index($0, ":") - 1)
			order[++n] = cur; val[cur] = substr($0, index($0, ":") + 1)
			next
		}
		{
			if (cur ~ /^(Files|Checksums-)/ && $NF == dsc) next
			val[cur] = val[cur] "\n" $0
		}
		END {
			print "Format:" val["Format"]
			print "Source:" val["Package"]
			for (i = 1; i <= n; i++) {
				k = order[i]
				if (k ~ /^(Format|Package|Directory|Priority|Section)$/) continue
				print k ":" val[k]
			}
		}' "$1"
}

fetch_source() {
	local dl=$work/dl entry=$work/dl/.index-entry bases=() dsc_name
	local file repo release e dir sha size name base ok
	apt-get -q "${apt_opts[@]}" update >&2 ||
		die "apt-get update of the private source list failed"
	# apt-get update succeeds even when nothing could be fetched
	find "$apt_dir/lists" -maxdepth 1 -name '*_source_Sources*' | grep -q . ||
		die "apt-get update fetched no Sources index (no network? in a debian-root.sh root, use 'run --host-net')"
	rm -rf "$dl"
	mkdir -p "$dl"
	# let apt download as its sandbox user, as it prefers
	if id _apt >/dev/null 2>&1; then chown _apt "$dl"; fi
	# 1. what apt can fetch (it verifies what it gets)
	if (cd "$dl" && apt-get -q "${apt_opts[@]}" --download-only source "slurm-wlm=$version" </dev/null >&2); then
		log "apt-get source fetched every file"
	else
		log "apt-get source fetched only part of slurm-wlm=$version; completing from the Sources index"
	fi
	# 2. the index entries listing exactly this version (signed indexes)
	: >"$entry"
	# shellcheck disable=SC2016  # $(FIELD) below is apt's syntax
	while IFS=$'\t' read -r file repo release; do
		[ -f "$file" ] || continue
		e=$(index_entry "$file")
		[ -n "$e" ] || continue
		dir=$(printf '%s\n' "$e" | awk '/^Directory:/ { print $2; exit }')
		[ -n "$dir" ] && bases+=("${repo%/}/$dir")
		log "slurm-wlm $version listed in $release (${dir:-no Directory})"
		[ -s "$entry" ] || printf '%s\n' "$e" >"$entry"
	done < <(apt-get -q "${apt_opts[@]}" indextargets \
		--format '$(FILENAME)	$(REPO_URI)	$(RELEASE)' 'Identifier: Sources')
	[ -s "$entry" ] || die "slurm-wlm $version is listed in no Sources index of $suite"
	# 3. every file named in the entry, checked against its SHA256
	dsc_name=
	while read -r sha size name; do
		case $name in *.dsc) dsc_name=$name ;; esac
		if sha256_ok "$dl/$name" "$sha" "$size"; then
			log "verified $name (sha256 as in the index)"
			continue
		fi
		rm -f "$dl/$name"
		ok=0
		for base in "${bases[@]}"; do
			if "$apt_helper" download-file "$base/$name" "$dl/$name" "SHA256:$sha" </dev/null >&2 &&
				sha256_ok "$dl/$name" "$sha" "$size"; then
				ok=1
				break
			fi
			rm -f "$dl/$name"
		done
		if [ "$ok" = 1 ]; then
			log "fetched and verified $name (sha256 as in the index)"
		elif [ "$name" = "$dsc_name" ]; then
			log "$name not served: rebuilding it from the index entry"
		else
			die "could not fetch $name from any pool listing slurm-wlm $version"
		fi
	done < <(awk '/^[^ \t]/ { on = ($0 ~ /^Checksums-Sha256:/); next }
		on && NF == 3 { print $1, $2, $3 }' "$entry")
	[ -n "$dsc_name" ] || die "the index entry names no .dsc"
	if [ ! -f "$dl/$dsc_name" ]; then
		rebuild_dsc "$entry" "$dsc_name" >"$dl/$dsc_name"
	fi
	rm -rf "$tree.tmp"
	dpkg-source -x "$dl/$dsc_name" "$tree.tmp" >&2 ||
		die "dpkg-source -x $dl/$dsc_name failed"
	mv "$tree.tmp" "$tree"
	rm -rf "$dl"
}

if [ ! -d "$tree" ]; then
	log "fetching slurm-wlm=$version source ($suite)"
	t0=$SECONDS
	fetch_source
	log "fetched and unpacked in $((SECONDS - t0)) s"
fi

log "configuring $tree (about a minute)"
t0=$SECONDS
# --enable-multiple-slurmd as in Debian's own build (debian/rules)
(cd "$tree" && ./configure --prefix=/usr --sysconfdir=/etc/slurm \
	--libdir=/usr/lib/x86_64-linux-gnu --disable-debug --enable-multiple-slurmd \
	>"$tree/.prism-configure.log" 2>&1) ||
	die "Slurm configure failed; see $tree/.prism-configure.log"
[ -f "$tree/config.h" ] || die "Slurm configure produced no config.h"
printf '%s\n' "$version" >"$stamp"
log "configured in $((SECONDS - t0)) s"
log "ready: $tree"
echo "$tree"
