#!/bin/sh
# check-core-headers.sh: the core (src/core) includes no Slurm header.
# Only the C library's <...> headers (and the three POSIX ones prism_file.c
# reads files with) and the core's own "prism_*.h" pass.
set -u
dir="${top_srcdir:-.}/src/core"
bad=$(grep -Hn '^[[:space:]]*#[[:space:]]*include' "$dir"/*.c "$dir"/*.h |
	grep -Ev '#[[:space:]]*include[[:space:]]*("prism_[a-z_]+\.h"|<(assert|ctype|errno|float|inttypes|limits|math|stdarg|stdbool|stddef|stdint|stdio|stdlib|string|strings|time|fcntl|unistd|sys/stat)\.h>)')
if [ -n "$bad" ]; then
	echo "FAIL: the core includes headers outside the C library:"
	echo "$bad"
	exit 1
fi
n=$(ls "$dir"/*.[ch] | wc -l)
echo "PASS: $n core files include only C library and core headers"
