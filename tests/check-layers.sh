#!/bin/sh
# check-layers.sh: the adapter's include graph runs one way (entry points
# -> recalc/sprio -> the policy dispatcher -> policy implementations ->
# shared job helpers -> core), with no circle, and a policy is reached
# only through the policy interface:
#  1. no circle among src/plugin modules (a module is x.c with x.h);
#  2. the policy implementations (src/plugin/policy_<name>.c) have no
#     header, and their operation tables are named only in policy.c;
#  3. the interface (policy_ops.h) is included only by the policy layer:
#     policy.h, policy.c and policy_<name>.c;
#  4. the core's Moab and Grid Engine headers are included only by their
#     policy's implementation in src/plugin (the multifactor core is the
#     base every policy shares);
#  5. the CLI includes no adapter header.
# Prints what breaks a rule and fails; run by make check.
set -u
top="${top_srcdir:-.}"
plugin="$top/src/plugin"
cli="$top/src/cli"
core="$top/src/core"
fail=0

bad() {
	echo "FAIL: $*"
	fail=1
}

# "file header" for each local #include "x.h" in the given files.
includes() {
	for f in "$@"; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' "$f" |
			while read -r h; do echo "$(basename "$f") $h"; done
	done
}

edges=$(includes "$plugin"/*.c "$plugin"/*.h)

# 1. the module graph: x.c and x.h are module x; an edge for each
# include of another module's header that lives in src/plugin.
graph=$(echo "$edges" | while read -r from h; do
	[ -f "$plugin/$h" ] || continue
	a=${from%.[ch]}
	b=${h%.h}
	[ "$a" = "$b" ] || echo "$a $b"
done | sort -u)
if ! out=$(printf '%s\n' "$graph" | tsort 2>&1 >/dev/null) || [ -n "$out" ]; then
	bad "a circle among src/plugin modules:"
	echo "$out"
fi

# 2. implementations: no header, tables named only in policy.c.
for f in "$plugin"/policy_*.c; do
	name=$(basename "$f" .c)
	[ -f "$plugin/$name.h" ] && bad "$name.h exists: a policy is reached only through policy_ops.h"
done
for sym in prism_multifactor_ops prism_moab_ops prism_gridengine_ops; do
	users=$(grep -l "\b$sym\b" "$plugin"/*.c | xargs -n1 basename |
		grep -v '^policy\.c$' | grep -v '^policy_[a-z]*\.c$')
	[ -n "$users" ] && bad "$sym named outside the policy layer: $users"
	impl=$(grep -l "^const prism_policy_ops_t $sym\b" "$plugin"/*.c |
		xargs -n1 basename)
	others=$(grep -l "\b$sym\b" "$plugin"/policy_*.c | xargs -n1 basename |
		grep -vx "$impl")
	[ -n "$others" ] && bad "$sym named by another implementation: $others"
done

# 3. the interface header stays in the policy layer.
echo "$edges" | while read -r from h; do
	[ "$h" = policy_ops.h ] || continue
	case "$from" in
	policy.h | policy.c | policy_*.c) ;;
	*) echo "FAIL: $from includes policy_ops.h (use policy.h)" ;;
	esac
done | grep . && fail=1

# 4. a policy's core headers only in its implementation.
for h in $(cd "$core" && find moab gridengine -name '*.h' | xargs -n1 basename); do
	case "$h" in
	prism_moab*) own=policy_moab.c ;;
	prism_ge*) own=policy_gridengine.c ;;
	*) own= ;;
	esac
	echo "$edges" | while read -r from inc; do
		[ "$inc" = "$h" ] && [ "$from" != "$own" ] &&
			echo "FAIL: src/plugin/$from includes $h (only $own may)"
	done
done | grep . && fail=1

# 5. the CLI needs no adapter header.
includes "$cli"/*.c "$cli"/*.h | while read -r from h; do
	[ -f "$plugin/$h" ] && echo "FAIL: src/cli/$from includes src/plugin/$h"
done | grep . && fail=1

[ "$fail" -eq 0 ] || exit 1
n=$(printf '%s\n' "$graph" | wc -l)
echo "PASS: $n include edges among src/plugin modules, no circle; policies reached only through policy_ops.h"
