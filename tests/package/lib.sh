# shellcheck shell=bash
# tests/package/lib.sh: what the package tests share (sourced by
# test-install.sh and test-systemd.sh on the host, and by in-root.sh and
# in-systemd.sh inside the Debian root, where this directory is
# /prism-test).

fails=0
check() { # check NAME STATUS [DETAIL]: a PASS:/FAIL: line on stdout
	if [ "$2" -eq 0 ]; then
		echo "PASS: $1"
	else
		echo "FAIL: $1${3:+ ($3)}"
		fails=$((fails + 1))
	fi
}
ok() { "$@" >/dev/null 2>&1; echo $?; }
apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends \
		install "$@"
}
scrape() { # scrape PORT: GET /metrics from 127.0.0.1:PORT (bash's /dev/tcp)
	local r
	exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
	printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
	r=$(cat <&3)
	exec 3<&-
	printf '%s\n' "$r"
}
