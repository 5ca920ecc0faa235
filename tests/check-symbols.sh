#!/bin/sh
# check-symbols.sh: priority_prism.so exports exactly the symbols Slurm
# looks up in a priority plugin, nothing else.
set -u
so="${top_builddir:-.}/src/plugin/.libs/priority_prism.so"
[ -f "$so" ] || { echo "FAIL: $so not built"; exit 1; }
want="fini
init
plugin_name
plugin_type
plugin_version
priority_p_calc_fs_factor
priority_p_get_priority_factors_list
priority_p_job_end
priority_p_reconfig
priority_p_set
priority_p_set_assoc_usage"
got=$(nm -D --defined-only "$so" | awk '{print $3}' | sort)
if [ "$got" != "$want" ]; then
	echo "FAIL: exported symbols differ from Slurm's list:"
	printf '%s\n' "$want" >want.$$
	printf '%s\n' "$got" >got.$$
	diff want.$$ got.$$
	rm -f want.$$ got.$$
	exit 1
fi
version=$(nm -D --defined-only "$so" | awk '$3 == "plugin_version"')
[ -n "$version" ] || { echo "FAIL: no plugin_version"; exit 1; }
echo "PASS: priority_prism.so exports exactly the $(printf '%s\n' "$want" | wc -l) symbols Slurm looks up"
