#!/bin/sh
# test-contrib.sh: what the package ships beside `prism metrics`
# (contrib/): its systemd units and its Grafana dashboard.
#  - the units as make builds them pass `systemd-analyze verify` with
#    nothing to say (skipped without systemd-analyze): keys, sections,
#    the command's path (here the build tree's prism);
#  - the textfile unit's command, run as systemd runs it (its "$$" a "$",
#    /bin/sh -c) with a stand-in for prism: prism.prom whole (the
#    stand-in's text), readable by node_exporter's user (0644), no
#    temporary file left; when prism fails: exit 1, the last prism.prom
#    kept as it was, no temporary file left;
#  - the dashboard is JSON (python3; skipped without), each panel has a
#    query, and every family a query names is one `prism metrics` writes
#    (the texts of test_cli_metrics, under every policy).
set -u
# shellcheck source=tests/lib.sh
. "${top_srcdir:-.}/tests/lib.sh"
units="prism-metrics.service prism-metrics-textfile.service prism-metrics-textfile.timer"
cli=$(cd "$top_builddir/src/cli" && pwd)

# ---- systemd-analyze verify ----------------------------------------------
mkdir "$tmp/units"
for u in $units; do
	f="$top_builddir/contrib/systemd/$u"
	[ -f "$f" ] || f="$top_srcdir/contrib/systemd/$u"
	if ! [ -f "$f" ]; then
		ko "$u: not built"
		continue
	fi
	# the installed path of prism, that of the build tree here
	sed "s|^\(ExecStart=\)[^ ]*/prism |\1$cli/prism |" "$f" >"$tmp/units/$u"
done
if command -v systemd-analyze >/dev/null 2>&1; then
	# shellcheck disable=SC2086 # (the three names)
	(cd "$tmp/units" && systemd-analyze verify --man=no $units) \
		>"$tmp/verify.out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && ! [ -s "$tmp/verify.out" ]; then
		ok "systemd-analyze verify: the three units, nothing to say"
	else
		ko "systemd-analyze verify (exit $rc):"
		cat "$tmp/verify.out"
	fi
else
	echo "SKIP: systemd-analyze verify (no systemd-analyze)"
fi

# ---- the textfile unit's command -------------------------------------------
# ExecStart's argument to sh -c, with systemd's "$$" made "$" and prism
# a stand-in that prints TEXT or fails
cmd=$(sed -n "s|^ExecStart=/bin/sh -c '\(.*\)'\$|\1|p" \
	"$tmp/units/prism-metrics-textfile.service" | sed 's/\$\$/$/g')
mkdir "$tmp/tf" "$tmp/bin"
# shellcheck disable=SC2016 # (the stand-in's own text)
printf '#!/bin/sh\n[ "$1" = metrics ] || exit 2\n[ -z "${FAIL:-}" ] || { echo "prism: no controller" >&2; exit 1; }\nprintf "# TYPE prism_info gauge\\nprism_info 1\\n"\n' \
	>"$tmp/bin/prism"
chmod +x "$tmp/bin/prism"
cmd=$(printf '%s' "$cmd" | sed "s|[^ ]*/prism metrics|$tmp/bin/prism metrics|")
if [ -z "$cmd" ]; then
	ko "no sh -c command in prism-metrics-textfile.service's ExecStart"
else
	rc=0
	(umask 077; PRISM_TEXTFILE_DIR=$tmp/tf /bin/sh -c "$cmd") || rc=$?
	mode=$(stat -c %a "$tmp/tf/prism.prom" 2>/dev/null)
	left=$(find "$tmp/tf" -mindepth 1 ! -name prism.prom)
	if [ "$rc" -eq 0 ] && [ "$mode" = 644 ] && [ -z "$left" ] &&
		grep -q '^prism_info 1$' "$tmp/tf/prism.prom"; then
		ok "the textfile unit's command writes prism.prom whole, mode 644, nothing else left"
	else
		ko "the textfile unit's command: exit $rc, mode '$mode', left '$left'"
	fi
	cp "$tmp/tf/prism.prom" "$tmp/before"
	rc=0
	FAIL=1 PRISM_TEXTFILE_DIR=$tmp/tf /bin/sh -c "$cmd" 2>"$tmp/fail.err" || rc=$?
	left=$(find "$tmp/tf" -mindepth 1 ! -name prism.prom)
	if [ "$rc" -eq 1 ] && [ -z "$left" ] && cmp -s "$tmp/before" "$tmp/tf/prism.prom" &&
		grep -q "no controller" "$tmp/fail.err"; then
		ok "when prism fails: exit 1, its message, the last prism.prom kept, nothing left"
	else
		ko "when prism fails: exit $rc, left '$left'"
	fi
fi

# ---- the dashboard ---------------------------------------------------------
dash="$top_srcdir/contrib/grafana/prism-dashboard.json"
PRISM_METRICS_SAMPLES=$tmp "$top_builddir/tests/cli/test_cli_metrics" \
	>"$tmp/samples.out" 2>&1 || {
	ko "test_cli_metrics failed:"
	tail -5 "$tmp/samples.out"
}
cat "$tmp"/*.prom 2>/dev/null | sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' |
	sort -u >"$tmp/families"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: the dashboard (no python3)"
elif ! python3 - "$dash" >"$tmp/exprs" 2>"$tmp/dash.err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d.get("panels"), "no panels"
for p in d["panels"]:
    t = [x.get("expr", "") for x in p.get("targets", [])]
    assert t and all(t), "panel %r has no query" % p.get("title")
    for e in t:
        print(p["title"] + "\t" + e)
PY
then
	ko "the dashboard: $(tail -n 1 "$tmp/dash.err")"
elif ! [ -s "$tmp/families" ]; then
	ko "no families from test_cli_metrics"
else
	unknown=$(cut -f2 "$tmp/exprs" | grep -o 'prism_[a-z_]*' | sort -u |
		comm -23 - "$tmp/families" | tr '\n' ' ')
	n=$(wc -l <"$tmp/exprs")
	if [ -z "$unknown" ]; then
		ok "the dashboard is JSON, $n queries in $(cut -f1 "$tmp/exprs" | sort -u | wc -l) panels, each family one prism metrics writes"
	else
		ko "the dashboard names families prism metrics does not write: $unknown"
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
