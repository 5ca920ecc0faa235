# shellcheck shell=bash
# sched.sh: the test command's scheduler (sourced by scripts/test.sh).
#
# Steps are declared with their class and the steps they need, then run
# as soon as what they need has passed and their class has a free slot:
#
#   sched_step NAME CLASS "NEED1|NEED2" SECONDS CMD [ARG...]
#   sched_slots CLASS N  at most N steps of CLASS at once
#   sched_run            run them all; 0 when every step passed
#
# CLASS says what a step spends its time on, and so how many of its kind
# may run at once (default):
#   cpu    compiles and test programs that keep a core busy (2: the cores)
#   wait   real-cluster tests, which mostly wait for recalculation passes
#          in their own namespaces (12)
#   io     downloads and debootstrap (2: they share the network)
#   slurm  Slurm built from a release tarball (2): a second when cached;
#          from nothing, the longest steps of the run, whose chains (the
#          builds against each release, its tests) are the run's longest,
#          and which can start only once the Debian root is made. In the
#          cpu class they waited for the steps that had started meanwhile
#          (from nothing at 4b97ee1: the root made at 6:48, the first
#          build started at 17:03); in their own class they start at once
#          and share the CPUs with those steps.
# SECONDS is about how long the step takes alone on a quiet machine: only
# the order in which ready steps start depends on it (the step with the
# longest chain of steps still to run after it starts first), never a
# timeout. NEEDs are separated by "|" (names hold spaces); a NEED that was never
# declared (its step was skipped by an option) counts as passed. A step
# whose NEED failed does not run and counts as failed ("not run").
#
# Each step runs in its own process group with its output in a log file;
# when it ends its log is printed whole between "=== NAME ===" lines, so
# the output reads step by step whatever ran beside it. At the end:
# a table of every step (start, wall time, CPU time of the step and of
# everything it waited for, result), the chain of steps that decided the
# total, each failed step's last 40 lines beside its name, and the last
# line "N passed, M failed".
#
# CPU time is what the step's processes and the children they waited for
# used (bash's "times"); a daemon that was not waited for is not in it
# (the cluster tests run under tests/cluster/isolate.sh, whose PID 1
# reaps their daemons, so theirs is).
# After the table, the machine's own CPU figures over the run (from
# /proc/stat): how busy its CPUs were, how much of that in the kernel,
# and what the hypervisor took: a run whose CPUs were busy throughout is
# bound by CPU, not by its waits.

declare -A SCHED_SLOTS=([cpu]=2 [wait]=12 [io]=2 [slurm]=2)

_s_n=0
_s_name=() _s_class=() _s_needs=() _s_cmd=() _s_est=() _s_order=()
_s_state=() _s_pid=() _s_start=() _s_end=() _s_cpu=() _s_why=()
_s_log=
_s_t0=0
_s_stat0=

# _sched_now: milliseconds since sched_run started, in _now
sched_slots() {
	SCHED_SLOTS[$1]=$2
}

_sched_now() {
	local t=${EPOCHREALTIME/./}
	_now=$((t / 1000 - _s_t0))
}

sched_step() {
	local name=$1 class=$2 needs=$3 est=$4 i
	shift 4
	[ -n "${SCHED_SLOTS[$class]:-}" ] || {
		echo "sched: step '$name': unknown class '$class'" >&2
		return 2
	}
	for ((i = 0; i < _s_n; i++)); do
		[ "${_s_name[i]}" != "$name" ] || {
			echo "sched: step '$name' declared twice" >&2
			return 2
		}
	done
	_s_name[_s_n]=$name
	_s_class[_s_n]=$class
	_s_needs[_s_n]=$needs
	_s_est[_s_n]=$est
	_s_cmd[_s_n]=$(printf '%q ' "$@")
	_s_state[_s_n]=pending
	_s_n=$((_s_n + 1))
}

_sched_index() { # _sched_index NAME: its index in _idx, or 1
	local i
	for ((i = 0; i < _s_n; i++)); do
		if [ "${_s_name[i]}" = "$1" ]; then
			_idx=$i
			return 0
		fi
	done
	return 1
}

# _sched_ready I: 0 ready, 1 not yet, 2 a need failed (in _why)
_sched_ready() {
	local i=$1 need rc=0
	local -a needs
	IFS='|' read -r -a needs <<<"${_s_needs[i]}"
	for need in ${needs[@]+"${needs[@]}"}; do
		_sched_index "$need" || continue
		case ${_s_state[_idx]} in
		ok) ;;
		failed | skipped)
			_why="needs '$need', which did not pass"
			return 2
			;;
		*) rc=1 ;;
		esac
	done
	return "$rc"
}

# _sched_order: _s_order, the steps by the longest chain of estimated
# seconds from their start to the end of the run, longest first (ties:
# in the order declared)
_sched_order() {
	local i j k need changed=1
	local -a rank needs
	for ((i = 0; i < _s_n; i++)); do
		rank[i]=${_s_est[i]}
	done
	# rank(i) = est(i) + the largest rank of a step that needs i
	for ((k = 0; k < _s_n && changed; k++)); do
		changed=0
		for ((j = 0; j < _s_n; j++)); do
			IFS='|' read -r -a needs <<<"${_s_needs[j]}"
			for need in ${needs[@]+"${needs[@]}"}; do
				_sched_index "$need" || continue
				if [ $((_s_est[_idx] + rank[j])) -gt "${rank[_idx]}" ]; then
					rank[_idx]=$((_s_est[_idx] + rank[j]))
					changed=1
				fi
			done
		done
	done
	mapfile -t _s_order < <(for ((i = 0; i < _s_n; i++)); do
		printf '%d %d\n' "${rank[i]}" "$i"
	done | sort -k1,1nr -k2,2n | cut -d ' ' -f 2)
}

_sched_running() { # _sched_running CLASS: how many of CLASS run, in _cnt
	local i
	_cnt=0
	for ((i = 0; i < _s_n; i++)); do
		[ "${_s_state[i]}" != running ] ||
			[ "${_s_class[i]}" != "$1" ] || _cnt=$((_cnt + 1))
	done
}

# _sched_body I: what runs in the step's own process group
_sched_body() {
	local i=$1 rc=0
	eval "${_s_cmd[i]}" </dev/null || rc=$?
	times >"$_s_log/$i.times"
	exit "$rc"
}

_sched_start() {
	local i=$1
	_sched_now
	_s_start[i]=$_now
	_s_state[i]=running
	printf '=== %s: started at %s (%s) ===\n' "${_s_name[i]}" \
		"$(_sched_fmt "$_now")" "${_s_class[i]}"
	set -m
	_sched_body "$i" >"$_s_log/$i.log" 2>&1 &
	_s_pid[i]=$!
	set +m
}

_sched_fmt() { # _sched_fmt MS: m:ss
	local s=$(($1 / 1000))
	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# _sched_cpu I: the step's CPU seconds (user + system, its own shell's
# and its children's)
_sched_cpu() {
	local f=$_s_log/$1.times
	_s_cpu[$1]=$(awk '{
		for (k = 1; k <= 2; k++) {
			split($k, a, "m"); sub(/s$/, "", a[2]); n += a[1] * 60 + a[2]
		}
	}
	END { if (NR == 2) printf "%.0f", n }' "$f" 2>/dev/null)
	[ -n "${_s_cpu[$1]}" ] || _s_cpu[$1]=-
}

_sched_finish() { # _sched_finish I RC
	local i=$1 rc=$2
	_sched_now
	_s_end[i]=$_now
	_s_pid[i]=
	_sched_cpu "$i"
	if [ "$rc" -eq 0 ]; then
		_s_state[i]=ok
	else
		_s_state[i]=failed
		_s_why[i]="status $rc"
	fi
	printf '\n=== %s ===\n' "${_s_name[i]}"
	cat "$_s_log/$i.log"
	printf '=== %s: %s (%d s, %s s CPU) ===\n' "${_s_name[i]}" \
		"$([ "$rc" -eq 0 ] && echo ok || echo "FAILED (status $rc)")" \
		$(((_s_end[i] - _s_start[i]) / 1000)) "${_s_cpu[i]}"
}

# _sched_stop_all SIGNAL: on INT or TERM, every running step's group gets
# TERM, no step starts any more, and the run ends as usual (the steps
# stopped count as failed, the others as not run) with its report.
_s_stopped=
_sched_stop_all() {
	local i
	[ -z "$_s_stopped" ] || return 0
	_s_stopped=$1
	printf '\n=== stopped by SIG%s: stopping the running steps ===\n' "$1"
	for ((i = 0; i < _s_n; i++)); do
		[ -z "${_s_pid[i]:-}" ] || kill -TERM -- "-${_s_pid[i]}" 2>/dev/null || true
	done
}

# _sched_reap_lost: a running step whose process is gone ended while a
# trap ran: it is finished with the status wait still knows, or 127
_sched_reap_lost() {
	local i rc
	for ((i = 0; i < _s_n; i++)); do
		[ -n "${_s_pid[i]:-}" ] || continue
		kill -0 "${_s_pid[i]}" 2>/dev/null && continue
		rc=0
		wait "${_s_pid[i]}" 2>/dev/null || rc=$?
		_sched_finish "$i" "$rc"
	done
}

# _sched_stat: the machine's CPU ticks so far: busy, of which in the
# kernel, idle, stolen (the first line of /proc/stat; nothing without it)
_sched_stat() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $4 + $7 + $8, $5 + $6, $9 }' \
		/proc/stat 2>/dev/null
}

# _sched_machine: the machine's CPU figures since sched_run began
_sched_machine() {
	local now hz
	now=$(_sched_stat)
	[ -n "$_s_stat0" ] && [ -n "$now" ] || return 0
	hz=$(getconf CLK_TCK 2>/dev/null) || hz=100
	echo "$_s_stat0 $now" | awk -v hz="$hz" '{
		b = ($5 - $1) / hz; k = ($6 - $2) / hz; i = ($7 - $3) / hz; s = ($8 - $4) / hz
		printf "the machine'"'"'s CPUs: %d s busy (%d s of it in the kernel, %d s taken by the hypervisor), %d s idle: %.0f%% busy\n",
			b, k, s, i, (b + i > 0) ? 100 * b / (b + i) : 0
	}'
}

sched_run() {
	local i rc who progress class
	_s_stat0=$(_sched_stat)
	_s_log=$(mktemp -d "${TMPDIR:-/tmp}/prism-test.XXXXXX")
	local t=${EPOCHREALTIME/./}
	_s_t0=$((t / 1000))
	_sched_order
	trap '_sched_stop_all INT' INT
	trap '_sched_stop_all TERM' TERM
	while :; do
		progress=1
		[ -z "$_s_stopped" ] || progress=0
		while [ "$progress" -eq 1 ]; do
			progress=0
			for i in "${_s_order[@]}"; do
				[ "${_s_state[i]}" = pending ] || continue
				rc=0
				_sched_ready "$i" || rc=$?
				if [ "$rc" -eq 2 ]; then
					_s_state[i]=skipped
					_s_why[i]=$_why
					_sched_now
					_s_start[i]=$_now _s_end[i]=$_now _s_cpu[i]=-
					printf '=== %s: not run (%s) ===\n' "${_s_name[i]}" "$_why"
					progress=1
					continue
				fi
				[ "$rc" -eq 0 ] || continue
				class=${_s_class[i]}
				_sched_running "$class"
				[ "$_cnt" -lt "${SCHED_SLOTS[$class]}" ] || continue
				_sched_start "$i"
			done
		done
		local pids=()
		for ((i = 0; i < _s_n; i++)); do
			[ -z "${_s_pid[i]:-}" ] || pids+=("${_s_pid[i]}")
		done
		[ "${#pids[@]}" -gt 0 ] || break
		rc=0 who=
		wait -n -p who "${pids[@]}" || rc=$?
		if [ -z "${who:-}" ]; then
			# a signal came (wait -p unset it); a step that ended
			# meanwhile was reaped without its status being kept
			_sched_reap_lost
			continue
		fi
		for ((i = 0; i < _s_n; i++)); do
			if [ "${_s_pid[i]:-}" = "${who:-}" ]; then
				_sched_finish "$i" "$rc"
				break
			fi
		done
	done
	trap - INT TERM
	for ((i = 0; i < _s_n; i++)); do
		if [ "${_s_state[i]}" = pending ]; then
			_s_state[i]=skipped
			_s_why[i]="stopped by SIG$_s_stopped"
		fi
	done
	_sched_report
	local st=$?
	case $_s_stopped in
	INT) return 130 ;;
	TERM) return 143 ;;
	esac
	return "$st"
}

# _sched_path: the chain of steps that decided the total, last first:
# from the step that ended last, back through the need that ended last
# before it started, or, when it started later than all its needs, the
# step whose end freed its slot.
_sched_path() {
	local i=$1 j best need chain=()
	local -a needs
	while [ -n "$i" ]; do
		chain+=("$i")
		best=
		IFS='|' read -r -a needs <<<"${_s_needs[i]}"
		for need in ${needs[@]+"${needs[@]}"}; do
			_sched_index "$need" || continue
			if [ -z "$best" ] || [ "${_s_end[_idx]}" -gt "${_s_end[best]}" ]; then
				best=$_idx
			fi
		done
		# started more than a second after its needs: it waited for a slot
		if [ -z "$best" ] || [ $((_s_start[i] - _s_end[best])) -gt 1000 ]; then
			for ((j = 0; j < _s_n; j++)); do
				[ "$j" != "$i" ] || continue
				[ -n "${_s_end[j]:-}" ] || continue
				[ "${_s_end[j]}" -le "${_s_start[i]}" ] || continue
				[ "${_s_class[j]}" = "${_s_class[i]}" ] || continue
				if [ -z "$best" ] || [ "${_s_end[j]}" -gt "${_s_end[best]}" ]; then
					best=$j
				fi
			done
			[ -z "$best" ] || [ $((_s_start[i] - _s_end[best])) -le 1000 ] || best=
		fi
		i=$best
	done
	for ((j = ${#chain[@]} - 1; j >= 0; j--)); do
		i=${chain[j]}
		printf '  %6s  %6s  %s\n' "$(_sched_fmt "${_s_start[i]}")" \
			"$(_sched_fmt "${_s_end[i]}")" "${_s_name[i]}"
	done
}

_sched_report() {
	local i passed=0 failed=0 last='' result
	echo
	echo "steps (start and wall time m:ss; CPU seconds):"
	printf '  %6s  %6s  %6s  %-7s %s\n' start wall cpu result step
	for ((i = 0; i < _s_n; i++)); do
		case ${_s_state[i]} in
		ok) result=ok passed=$((passed + 1)) ;;
		failed) result=FAILED failed=$((failed + 1)) ;;
		skipped) result="not run" failed=$((failed + 1)) ;;
		*) result=${_s_state[i]} failed=$((failed + 1)) ;;
		esac
		printf '  %6s  %6s  %6s  %-7s %s\n' \
			"$(_sched_fmt "${_s_start[i]:-0}")" \
			"$(_sched_fmt $((${_s_end[i]:-0} - ${_s_start[i]:-0})))" \
			"${_s_cpu[i]:--}" "$result" "${_s_name[i]}"
		if [ "${_s_state[i]}" != skipped ] && [ -n "${_s_end[i]:-}" ] &&
			{ [ -z "$last" ] || [ "${_s_end[i]}" -gt "${_s_end[last]}" ]; }; then
			last=$i
		fi
	done
	_sched_now
	printf 'total: %s (%d s)\n' "$(_sched_fmt "$_now")" $((_now / 1000))
	_sched_machine
	if [ -n "$last" ]; then
		echo
		echo "the path that decided the total (start, end, step):"
		_sched_path "$last"
	fi
	for ((i = 0; i < _s_n; i++)); do
		case ${_s_state[i]} in
		failed)
			printf '\nfailed: %s (%s); its last 40 lines:\n' \
				"${_s_name[i]}" "${_s_why[i]}"
			tail -n 40 "$_s_log/$i.log" | sed 's/^/  | /'
			;;
		skipped)
			printf '\nnot run: %s (%s)\n' "${_s_name[i]}" "${_s_why[i]}"
			;;
		esac
	done
	rm -rf "$_s_log"
	echo
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
