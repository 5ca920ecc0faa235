#!/bin/sh
# test-metrics-format.sh: promtool (Debian's prometheus package) accepts
# the texts `prism metrics` writes from test_cli_metrics's records: Fair
# Tree, classic fair-share, --users pending, policy=moab and
# policy=gridengine with --users none. First, that this promtool refuses
# a text that is not the format (so that its "accepted" means something).
# Skipped (77) without promtool.
set -u
top_builddir=${top_builddir:-.}
command -v promtool >/dev/null 2>&1 || {
	echo "SKIP: no promtool (apt-get install prometheus)"
	exit 77
}
# shellcheck source=tests/lib.sh
. "${top_srcdir:-.}/tests/lib.sh"

printf '# HELP x_total A counter.\n# TYPE x_total counter\nx_total{a="b"} notanumber\n' \
	>"$tmp/bad.txt"
if promtool check metrics <"$tmp/bad.txt" >"$tmp/bad.out" 2>&1; then
	ko "promtool accepts a sample that is not a number"
else
	ok "promtool refuses a text that is not the format"
fi

PRISM_METRICS_SAMPLES=$tmp "$top_builddir/tests/cli/test_cli_metrics" \
	>"$tmp/run.out" 2>&1 || {
	ko "test_cli_metrics failed:"
	tail -5 "$tmp/run.out"
}
for c in fair-tree classic pending moab gridengine; do
	f="$tmp/$c.prom"
	if ! [ -s "$f" ]; then
		ko "$c: no text"
	elif promtool check metrics <"$f" >"$tmp/$c.out" 2>&1; then
		ok "$c: promtool check metrics accepts it ($(grep -vc '^#' "$f") samples)"
	else
		ko "$c: promtool check metrics:"
		cat "$tmp/$c.out"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
