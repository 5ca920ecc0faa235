#!/usr/bin/env bash
# setup.sh: install what Prism needs on Debian 12, fetch the matching Slurm
# source tree, and build Prism. Each step is skipped when already done.
#
# Usage: scripts/setup.sh            (run as root)
#        scripts/setup.sh --no-build install and fetch only; print the
#                                    Slurm source tree's path last
#        scripts/setup.sh --packages install the packages only
#        scripts/setup.sh --tools    install only what makes the Debian
#                                    roots (debootstrap) and runs tests
#                                    in namespaces (iproute2), so that
#                                    the roots can be made while the
#                                    other packages install
# Env:   PRISM_SLURM_CACHE  where the Slurm source tree is cached
#        (default /var/cache/prism/slurm-source)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
log() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

packages=(
	# build
	build-essential autoconf automake libtool pkg-config check dpkg-dev
	binutils libmunge-dev
	# the compiler cache of scripts/test.sh's builds
	ccache
	# Slurm 22.05 as Debian 12 ships it
	slurmctld slurmd slurmdbd slurm-client libslurm-dev
	slurm-wlm-basic-plugins slurm-wlm-mysql-plugin
	# prism metrics --listen (HTTP); promtool, prometheus and node_exporter
	# (textfile collector) for its tests; systemd-analyze for its units
	libmicrohttpd-dev prometheus prometheus-node-exporter systemd
	# the cluster test (bash-builtins: sleep without a process in its
	# polling loops, tests/cluster/lib.sh; jq: Prometheus' answers in
	# tests/cluster/test-metrics.sh)
	munge mariadb-server mariadb-client procps bash-builtins jq
	# tests/cluster/check-explain-mf.py
	python3
	# the fuzz targets
	clang libclang-rt-dev
	# the memory checks (tests/sanitize)
	valgrind
	# the manual pages (tests/check-man.sh renders them with man)
	man-db groff-base
	# the Debian package (scripts/package.sh)
	debhelper lintian
	# the Debian roots (scripts/debian-root.sh), tests in namespaces;
	# systemd-nspawn boots one with systemd (tests/package/test-systemd.sh)
	debootstrap iproute2 systemd-container
)
tools=(debootstrap iproute2)

install_packages() {
	local missing=() p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	if [ "${#missing[@]}" -eq 0 ]; then
		log "packages: all installed"
		return
	fi
	[ "$(id -u)" -eq 0 ] || die "installing ${missing[*]} needs root"
	log "installing: ${missing[*]}"
	# another apt-get may hold the lock (a step beside this one): wait
	apt-get -o DPkg::Lock::Timeout=600 update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -q --no-install-recommends "${missing[@]}" >&2
	# Debian starts daemons where it can; Prism's tests run their own.
}

build() {
	local tree=$1
	cd "$top"
	if [ ! -x configure ]; then
		log "autoreconf"
		autoreconf -fi >&2
	fi
	if [ ! -f config.status ] ||
		! grep -q -- "--with-slurm-source=$tree" config.status; then
		log "configure"
		./configure --with-slurm-source="$tree" >&2
	fi
	log "make"
	make -j"$(nproc)" >&2
}

case ${1:-} in
"" | --no-build | --packages) ;;
--tools) packages=("${tools[@]}") ;;
*) die "usage: $0 [--no-build|--packages|--tools]" ;;
esac
install_packages
case ${1:-} in --packages | --tools) exit 0 ;; esac
tree=$("$top/scripts/slurm-source.sh" | tail -n 1)
[ -n "$tree" ] || die "no Slurm source tree"
if [ "${1:-}" = --no-build ]; then
	printf '%s\n' "$tree"
	exit 0
fi
build "$tree"
log "built: $top/src/plugin/.libs/priority_prism.so"
