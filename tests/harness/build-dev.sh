#!/bin/sh
# build-dev.sh - developer build of prism-harness (the fake slurmctld) with
# plain gcc, outside automake.  The flags here are the ones Makefile.am
# needs to replicate.
#
# Usage: tests/harness/build-dev.sh [SLURM_SOURCE_TREE] [OUTPUT]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
T=${1:-${SLURM_SRC:-/var/cache/prism/slurm-source/22.05.8-4+deb12u3/slurm-wlm-22.05.8}}
OUT=${2:-$here/prism-harness}
SLURM_LIBDIR=${SLURM_LIBDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}

if [ ! -f "$T/config.h" ]; then
	echo "build-dev.sh: $T is not a configured Slurm source tree" >&2
	exit 1
fi

CC=${CC:-gcc}
CFLAGS="-std=gnu11 -g -O2 -Wall -Wextra -Werror -pthread"
CPPFLAGS="-I$T"
LDFLAGS="-rdynamic -L$SLURM_LIBDIR -Wl,-rpath,$SLURM_LIBDIR"
LIBS="-lslurmfull -lm -pthread"

set -x
$CC $CFLAGS $CPPFLAGS -o "$OUT" "$here/harness.c" $LDFLAGS $LIBS
