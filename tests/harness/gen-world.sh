#!/bin/sh
# gen-world.sh - deterministic generator of big prism-harness worlds.
#
# Usage: tests/harness/gen-world.sh [-s SEED] [-u USER_ASSOCS] [-j JOBS]
#                                   [-q PCT] > FILE
#
#   -s SEED         1..2147483646 (default 1)
#   -u USER_ASSOCS  number of user associations (default 10000)
#   -j JOBS         number of jobs (default 10000)
#   -q PCT          0..100: about PCT % of the jobs ask for two or three
#                   QOS (qos=a,b[,c], Slurm 24.11's sbatch --qos=a,b;
#                   prism-harness refuses them when built for 22.05).
#                   Default 0: no such job, and the world is exactly what
#                   it was before -q existed (no random number is drawn
#                   for it).
#
# POSIX sh + awk only.  The random numbers come from an integer
# Park-Miller generator (s = s * 16807 mod 2^31-1; every intermediate
# value stays below 2^46, so it is exact in any awk's doubles), and only
# integers are printed, so mawk and gawk give byte-identical output for
# the same arguments.
#
# The world (see README, "World file") has:
#  - a tree root -> divisions (L1) -> departments (L2) -> groups (L3)
#    -> some teams (L4); users hang off groups and teams, a few directly
#    off departments (mixed depth);
#  - ties: sibling users with identical shares and usage; "clone" groups
#    whose shares and users (shares, usage) copy their previous sibling
#    exactly, so sibling accounts have identical totals;
#  - zero shares (users and accounts), users with no usage, accounts
#    without users, users in several accounts, FairShare=parent
#    (shares=parent) on users and on accounts;
#  - association priorities (priority=N) on some accounts and users;
#  - QOS with different priorities and usage factors, one NoDecay;
#  - 4 partitions with different PriorityJobFactor, PriorityTier and
#    TRESBillingWeights (one without);
#  - jobs: mostly pending, some multi-partition, held, admin-set
#    priority, running (with start times), future begin, loaded from
#    saved state with an earlier priority (loaded=N: what INCR_ONLY
#    keeps when the new one is lower), various nice/site/cpus/nodes/mem/
#    time limits and submit ages;
#  - with -q: jobs asking for several QOS, of different priorities, with
#    a zero-priority QOS among them, equal priorities, and with several
#    partitions too (one priority per (partition, QOS) pair).
# A "# stats" comment at the end counts each of these features.
set -eu

seed=1
users=10000
jobs=10000
multiqos=0
while getopts s:u:j:q: opt; do
	case $opt in
	s) seed=$OPTARG ;;
	u) users=$OPTARG ;;
	j) jobs=$OPTARG ;;
	q) multiqos=$OPTARG ;;
	*) echo "usage: $0 [-s SEED] [-u USER_ASSOCS] [-j JOBS] [-q PCT]" >&2; exit 2 ;;
	esac
done
for v in "$seed" "$users" "$jobs" "$multiqos"; do
	case $v in
	''|*[!0-9]*) echo "$0: numbers only" >&2; exit 2 ;;
	esac
done
if [ "$seed" -lt 1 ] || [ "$seed" -gt 2147483646 ] || [ "$users" -lt 50 ] ||
	[ "$multiqos" -gt 100 ]; then
	echo "$0: SEED must be 1..2147483646, USER_ASSOCS >= 50, PCT 0..100" >&2
	exit 2
fi

exec ${AWK:-awk} -v seed="$seed" -v nusers="$users" -v njobs="$jobs" \
	-v multiqos="$multiqos" '
# ---- random numbers: Park-Miller minimal standard, integers only ----
function rnd(n) {		# 0 .. n-1
	S = (S * 16807) % 2147483647
	return S % n
}
function pct(p) {		# true with probability p %
	return rnd(100) < p
}
function acct_shares(lvl,   r) {
	r = rnd(100)
	if (r < 6) return 0
	if (r < 14 && lvl >= 2) return "parent"
	if (r < 40) return 10		# many equal shares: ties
	return 1 + rnd(100)
}
function user_shares(   r) {
	r = rnd(100)
	if (r < 5) return 0
	if (r < 10) return "parent"
	if (r < 65) return 1
	if (r < 85) return 1 + rnd(10)
	return 100
}
function usage(   r, m, e, v) {
	r = rnd(100)
	if (r < 30) return 0		# no usage
	m = 1 + rnd(999)
	e = rnd(7)
	v = m
	while (e-- > 0) v = v * 10
	return v
}
# ---- associations ----
function add_acct(name, parent, sh, lvl) {
	nacct++
	acct[nacct] = name
	aparent[nacct] = parent
	ashares[nacct] = sh
	alvl[nacct] = lvl
	out[++nout] = sprintf("assoc %s parent=%s shares=%s", name, parent, sh)
	if (pct(20)) { out[nout] = out[nout] " priority=" rnd(200); st_prio++ }
	if (sh == "parent") st_acct_parent++
	if (sh == "0") st_acct_zero++
}
# a user association in account a with shares sh and usage u
function add_user(a, sh, u,   name, k, tries) {
	name = ""
	if (nuname > 20 && pct(8)) {	# a user already in another account
		for (tries = 0; tries < 5 && name == ""; tries++) {
			k = 1 + rnd(nuname)
			if (!((uname[k], a) in member)) name = uname[k]
		}
		if (name != "") st_multi++
	}
	if (name == "") {
		nuname++
		name = "u" nuname
		uname[nuname] = name
	}
	member[name, a] = 1
	nua++
	ua_user[nua] = name
	ua_acct[nua] = a
	out[++nout] = sprintf("assoc %s@%s shares=%s usage=%.0f", name, a, sh, u)
	if (pct(10)) { out[nout] = out[nout] " priority=" rnd(500); st_prio++ }
	if (sh == "parent") st_user_parent++
	if (sh == "0") st_user_zero++
	if (u == 0) st_user_nousage++
}
# n users in account a; ties with the previous sibling user
function fill(a, n,   i, sh, u) {
	for (i = 0; i < n; i++) {
		if (i > 0 && pct(12)) {
			st_user_tie++
		} else {
			sh = user_shares()
			u = usage()
		}
		cnt[a]++
		csh[a, cnt[a]] = sh
		cus[a, cnt[a]] = u
		add_user(a, sh, u)
	}
}
# account b copies account a: same shares, same users (shares, usage)
function clone_users(a, b,   i) {
	for (i = 1; i <= cnt[a]; i++) {
		cnt[b]++
		csh[b, i] = csh[a, i]
		cus[b, i] = cus[a, i]
		add_user(b, csh[a, i], cus[a, i])
	}
}
function group_size() {
	return 5 + rnd(2 * per_group - 9)
}
BEGIN {
	S = seed
	rnd(2); rnd(2)
	nout = 0

	print "# generated by tests/harness/gen-world.sh -s " seed " -u " nusers " -j " njobs
	print "cluster nodes=200 cpus=6400 mem=512000"
	print "part batch   nodes=200 cpus=6400 mem=102400000 factor=1  tier=1 billing=CPU=1.0,Mem=0.25G"
	print "part highmem nodes=40  cpus=1280 mem=40960000  factor=4  tier=2 billing=CPU=0.5,Mem=1G,Node=2.0"
	print "part debug   nodes=8   cpus=256  mem=2048000   factor=20 tier=3 billing=CPU=2.0 max_time=60"
	print "part long    nodes=100 cpus=3200 mem=51200000  factor=2  tier=1"
	print "qos normal   priority=0"
	print "qos low      priority=10   usage_factor=0.5"
	print "qos high     priority=500  usage_factor=2.0"
	print "qos urgent   priority=1000 usage_factor=4.0"
	print "qos scavenge priority=0    usage_factor=0"
	print "qos keep     priority=50   usage_factor=1.0 flags=NoDecay"
	nqos = split("normal normal normal normal low low high urgent scavenge keep", qosname, " ")
	ndq = split("normal low high urgent scavenge keep", dqos, " ")

	# users per group on average: (accounts that take users) ~ 270
	per_group = int(nusers / 270)
	if (per_group < 8) per_group = 8

	left = nusers
	for (d = 1; d <= 8; d++) {
		dn = "div" d
		add_acct(dn, "root", d == 8 ? 0 : acct_shares(1), 1)
		ndep = 4 + rnd(5)
		for (p = 1; p <= ndep; p++) {
			pn = dn "-dep" p
			add_acct(pn, dn, acct_shares(2), 2)
			if (pct(15)) fill(pn, 1 + rnd(4))	# mixed depth
			ngrp = 3 + rnd(6)
			prev = ""
			for (g = 1; g <= ngrp; g++) {
				gn = pn "-grp" g
				if (prev != "" && cnt[prev] > 0 && pct(18)) {
					# identical sibling: same shares, same users
					add_acct(gn, pn, ashares[nacct_of[prev]], 3)
					nacct_of[gn] = nacct
					clone_users(prev, gn)
					st_acct_tie++
					prev = gn
					continue
				}
				add_acct(gn, pn, acct_shares(3), 3)
				nacct_of[gn] = nacct
				if (pct(7)) {			# no users at all
					st_acct_empty++
					prev = gn
					continue
				}
				if (pct(20)) {			# teams (level 4)
					nt = 2 + rnd(3)
					for (t = 1; t <= nt; t++) {
						tn = gn "-t" t
						add_acct(tn, gn, acct_shares(4), 4)
						if (pct(10)) { st_acct_empty++; continue }
						fill(tn, int(group_size() / 2) + 1)
					}
					if (pct(50)) fill(gn, 2 + rnd(4))
				} else
					fill(gn, group_size())
				prev = gn
			}
		}
	}
	# top up (or stop at) the requested number of user associations
	k = 0
	while (nua < nusers) {
		k++
		gn = "extra" int((k - 1) / 40 + 1)
		if ((k - 1) % 40 == 0) add_acct(gn, "div" (1 + rnd(7)), acct_shares(2), 2)
		fill(gn, 1)
	}
	# an account tree without any user below it
	add_acct("idle", "root", 5, 1)
	add_acct("idle-sub", "idle", 5, 2)
	add_acct("idle-sub-leaf", "idle-sub", "parent", 3)
	st_acct_empty += 3

	for (i = 1; i <= nout; i++) print out[i]

	# ---- jobs ----
	npart = split("batch highmem debug long", part, " ")
	for (j = 1; j <= njobs; j++) {
		i = 1 + rnd(nua)
		line = "job " j " user=" ua_user[i] " account=" ua_acct[i]

		p = 1 + rnd(npart)
		parts = part[p]
		if (pct(12)) {				# multi-partition
			q = 1 + rnd(npart)
			if (q == p) q = (p % npart) + 1
			parts = parts "," part[q]
			if (pct(30)) {
				r = (q % npart) + 1
				if (r != p) parts = parts "," part[r]
			}
			st_multipart++
		}
		qn = qosname[1 + rnd(nqos)]
		if (multiqos > 0 && pct(multiqos)) {	# several QOS (24.11)
			k = 1 + rnd(ndq)
			while (dqos[k] == qn) k = (k % ndq) + 1
			qn = qn "," dqos[k]
			if (pct(30)) {
				k2 = 1 + rnd(ndq)
				while (index("," qn ",", "," dqos[k2] ",")) k2 = (k2 % ndq) + 1
				qn = qn "," dqos[k2]
			}
			st_multiqos++
		}
		line = line " part=" parts " qos=" qn

		r = rnd(100)
		if (r < 70) { cpus = 1 + rnd(8); nodes = 1 }
		else if (r < 90) { cpus = 8 * (1 + rnd(8)); nodes = 1 + rnd(2) }
		else { nodes = 1 + rnd(16); cpus = 32 * nodes }
		if (cpus < nodes) cpus = nodes
		line = line " cpus=" cpus " nodes=" nodes
		if (!pct(10)) line = line " mem=" (100 * (1 + rnd(640)))

		age = 60 + rnd(20 * 86400)		# up to 20 days
		line = line " submit=-" age
		if (!pct(8)) line = line " time_limit=" (10 * (1 + rnd(432)))

		r = rnd(100)
		if (r < 4) {
			line = line " state=HELD"; st_held++
		} else if (r < 7) {
			line = line " priority=" (1 + rnd(100000)); st_admin++
		} else if (r < 19) {
			line = line " state=R start=-" (1 + rnd(age)); st_running++
		} else if (r < 21) {
			line = line " begin=+" (60 + rnd(86400)); st_future++
		} else if (r < 24) {
			line = line " begin=-" (1 + rnd(age)); st_begin++
		}
		if (r >= 7 && pct(10)) {		# priority from saved state
			line = line " loaded=" (1 + rnd(110000)); st_loaded++
		}
		if (pct(10)) { line = line " nice=" (rnd(3000) - 500); st_nice++ }
		if (pct(5)) { line = line " site=" rnd(1000); st_site++ }
		print line
	}

	printf "# stats accounts=%d user_assocs=%d users=%d jobs=%d\n", nacct, nua, nuname, njobs
	printf "# stats acct_shares_parent=%d acct_shares_zero=%d acct_empty=%d acct_clone_ties=%d\n", st_acct_parent, st_acct_zero, st_acct_empty, st_acct_tie
	printf "# stats assoc_priority=%d\n", st_prio
	printf "# stats user_shares_parent=%d user_shares_zero=%d user_no_usage=%d user_ties=%d user_in_several_accounts=%d\n", st_user_parent, st_user_zero, st_user_nousage, st_user_tie, st_multi
	printf "# stats job_multipart=%d job_held=%d job_admin_prio=%d job_running=%d job_future_begin=%d job_late_begin=%d job_loaded=%d job_nice=%d job_site=%d\n", st_multipart, st_held, st_admin, st_running, st_future, st_begin, st_loaded, st_nice, st_site
	if (multiqos > 0) printf "# stats job_multiqos=%d\n", st_multiqos
}'
