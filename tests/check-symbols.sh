#!/bin/sh
# check-symbols.sh: priority_prism.so exports exactly the symbols Slurm
# looks up in a priority plugin, nothing else. The list is read from the
# Slurm source tree the plugin was built against (its priority interface's
# syms[]), plus the five every plugin has. And it needs no prism_ symbol
# from outside (a function of its own declared but not built would only
# fail when slurmctld first calls it).
set -u
so="${top_builddir:-.}/src/plugin/.libs/priority_prism.so"
[ -f "$so" ] || { echo "FAIL: $so not built"; exit 1; }
tree=${SLURM_SOURCE:-}
iface=
for f in src/interfaces/priority.c src/common/slurm_priority.c; do
	[ -n "$tree" ] && [ -f "$tree/$f" ] && { iface=$tree/$f; break; }
done
[ -n "$iface" ] || { echo "FAIL: no priority interface in the Slurm tree '$tree'"; exit 1; }
slurm=$(sed -n '/syms\[\] = {/,/};/s/^[[:space:]]*"\([a-z_]*\)",*$/\1/p' "$iface")
[ -n "$slurm" ] || { echo "FAIL: no syms[] in $iface"; exit 1; }
want=$(printf '%s\n' fini init plugin_name plugin_type plugin_version $slurm |
	sort)
got=$(nm -D --defined-only "$so" | awk '{print $3}' | sort)
if [ "$got" != "$want" ]; then
	echo "FAIL: exported symbols differ from Slurm's list ($iface):"
	printf '%s\n' "$want" >want.$$
	printf '%s\n' "$got" >got.$$
	diff want.$$ got.$$
	rm -f want.$$ got.$$
	exit 1
fi
undef=$(nm -D --undefined-only "$so" | awk '$2 ~ /^prism_/ {print $2}')
if [ -n "$undef" ]; then
	echo "FAIL: $so needs Prism's own symbols it does not define:"
	echo "$undef"
	exit 1
fi
version=$(nm -D --defined-only "$so" | awk '$3 == "plugin_version"')
[ -n "$version" ] || { echo "FAIL: no plugin_version"; exit 1; }
echo "PASS: priority_prism.so exports exactly the $(printf '%s\n' "$want" | wc -l) symbols Slurm $(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"$/\1/p' "$tree/config.h") looks up"
