#!/bin/sh
# test-compare-dense.sh: test-compare.sh on a world with many jobs per
# association (gen-world.sh's fewest associations, 2,232, and 20,000
# jobs: about nine each), under Fair Tree and the classic fair-share sets,
# over two passes five minutes apart. Under Fair Tree the second pass
# ranks each sibling set starting from the first pass's ranking (the
# tree kept its shape), where the charges of five minutes moved many
# levels. Under the classic algorithm a pass computes
# each job as it charges it, and a user association's effective usage is
# filled in by the first of its jobs the walk meets, after the charges of
# the jobs before it; with many jobs per association that order decides
# most factors, and the second pass starts from usage the first decayed
# and charged. Every priority, sprio row and association field must still
# agree with priority/multifactor's. COMPARE_DENSE_JOBS: another number of
# jobs (make distcheck's run, which checks the tarball, not the numbers).
set -u
top_srcdir=${top_srcdir:-.}
here="$top_srcdir/tests/harness"

COMPARE_USERS=400 COMPARE_JOBS=${COMPARE_DENSE_JOBS:-20000} \
	COMPARE_SETS="default NO_FAIR_TREE DEPTH_OBLIVIOUS" \
	COMPARE_HARNESS_ARGS="--passes 2 --calc-period 1 --advance 300" \
	exec sh "$here/test-compare.sh"
