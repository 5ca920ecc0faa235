#!/bin/sh
# check-core-headers.sh: the core (src/core) includes no Slurm header, and
# its folders are layers.
#  - Only the C library's <...> headers (and the three POSIX ones
#    prism_file.c reads files with) and the core's own "prism_*.h" pass.
#  - Every core file sits in one of the four folders; a "prism_*.h" is
#    resolved to the folder holding it (it must be found exactly once).
#  - common/ includes only headers of common/; multifactor/, moab/ and
#    gridengine/ include only headers of common/ and of their own folder.
# Files are found recursively (find), so a new folder or file is checked
# without editing this script.
set -u
dir="${top_srcdir:-.}/src/core"
layers="common multifactor moab gridengine"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

find "$dir" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort \
	>"$tmp/files"
n=$(wc -l <"$tmp/files")
if [ "$n" -eq 0 ]; then
	echo "FAIL: no core files found under $dir"
	exit 1
fi
fail=0

# Rule 1: only the C library and the core's own headers.
bad=$(tr '\n' '\0' <"$tmp/files" | xargs -0 grep -Hn \
	'^[[:space:]]*#[[:space:]]*include' |
	grep -Ev '#[[:space:]]*include[[:space:]]*("prism_[a-z_]+\.h"|<(assert|ctype|errno|float|inttypes|limits|math|stdarg|stdbool|stddef|stdint|stdio|stdlib|string|strings|time|fcntl|unistd|sys/stat)\.h>)')
if [ -n "$bad" ]; then
	echo "FAIL: the core includes headers outside the C library:"
	echo "$bad"
	fail=1
fi

# The folder (layer) of a core file, or "" if it is in none of them.
layer_of() {
	rel=${1#"$dir"/}
	case $rel in
	*/*/*) echo "" ;;
	*/*)
		l=${rel%%/*}
		case " $layers " in
		*" $l "*) echo "$l" ;;
		*) echo "" ;;
		esac ;;
	*) echo "" ;;
	esac
}

# Rule 2: every file in a layer; each header name found once.
while IFS= read -r f; do
	l=$(layer_of "$f")
	if [ -z "$l" ]; then
		echo "FAIL: src/core/${f#"$dir"/} is not in src/core/common, multifactor, moab or gridengine"
		fail=1
		continue
	fi
	case $f in
	*.h) echo "${f##*/} $l" >>"$tmp/headers" ;;
	esac
done <"$tmp/files"
touch "$tmp/headers"
dups=$(awk '{ print $1 }' "$tmp/headers" | sort | uniq -d)
for h in $dups; do
	echo "FAIL: $h is in more than one folder:$(awk -v h="$h" \
		'$1 == h { printf " %s/", $2 }' "$tmp/headers")"
	fail=1
done

# Rule 3: the layers. common/ may include common/; a policy folder may
# include common/ and itself.
edges=0
while IFS= read -r f; do
	l=$(layer_of "$f")
	[ -n "$l" ] || continue
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*$/\1 \2/' >"$tmp/inc"
	while read -r line h; do
		edges=$((edges + 1))
		hl=$(awk -v h="$h" '$1 == h { print $2; exit }' "$tmp/headers")
		rel=${f#"$dir"/}
		if [ -z "$hl" ]; then
			echo "FAIL: src/core/$rel:$line includes \"$h\", which is not a core header"
			fail=1
		elif [ "$hl" != common ] && [ "$hl" != "$l" ]; then
			if [ "$l" = common ]; then
				echo "FAIL: src/core/$rel:$line includes \"$h\" of $hl/: common/ may include only common/"
			else
				echo "FAIL: src/core/$rel:$line includes \"$h\" of $hl/: $l/ may include only common/ and $l/"
			fi
			fail=1
		fi
	done <"$tmp/inc"
done <"$tmp/files"

[ "$fail" -eq 0 ] || exit 1
echo "PASS: $n core files include only C library and core headers"
echo "PASS: $edges core includes keep the layers (common/ alone; multifactor/, moab/, gridengine/ on common/ only)"
