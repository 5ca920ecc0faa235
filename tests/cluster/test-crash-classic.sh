#!/bin/bash
# tests/cluster/test-crash-classic.sh -- test-crash.sh with the default
# policy on classic fair-share (PriorityFlags=NO_FAIR_TREE): the pass
# charges after its fair-share walk, so the usage snapshot holds the
# walk's copy of every association and, after it, the associations
# charged since; SIGKILL inside a pass and inside the save must still lose
# no usage and no state. See test-crash.sh.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PRISM_CRASH_CLASSIC=1 exec "$HERE/test-crash.sh" "$@"
