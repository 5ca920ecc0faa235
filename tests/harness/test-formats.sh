#!/bin/sh
# test-formats.sh: the files Prism keeps in StateSaveLocation, as every
# released format wrote them (tests/harness/formats/N/POLICY/: format N,
# written by Prism's harness after one pass on its worlds), through the
# loaded plugin (prism-harness; issue 32, item 6):
#  - upgrade: a controller that starts on them (one more pass, 300 s
#    later) computes and saves exactly what it does on the files this
#    Prism writes itself today from the same first pass: every row of the
#    report, and every file after the pass;
#  - downgrade: each file with a format number one past the newest this
#    Prism reads (the state, the usage snapshot, the Moab and Grid Engine
#    usage) is refused: the plugin does not start, says that a later Prism
#    wrote the file, and leaves the file as it was.
# POLICY is multifactor (basic.world), moab (moab.world with
# slurm-conf-examples/prism-moab.conf) or gridengine (ge.world with
# gridengine.conf).
#
#   tests/harness/test-formats.sh            the checks
#   tests/harness/test-formats.sh --write N  (re)write formats/N/ from
#       this build: once per new format, when the format numbers change;
#       the directories of the formats before stay as they are
set -u
# shellcheck source=tests/harness/lib.sh
. "${top_srcdir:-.}/tests/harness/lib.sh"
formats="$top_srcdir/tests/harness/formats"
now=1800000000
policies="multifactor moab gridengine"

# setup POLICY: $tmp/POLICY.conf and the world in $world
setup() {
	case $1 in
	multifactor)
		world=basic
		cp "$top_srcdir/tests/harness/basic.conf" "$tmp/$1.conf"
		;;
	moab)
		world=moab
		sed '/^PriorityParameters=/d' "$top_srcdir/tests/harness/moab.conf" >"$tmp/$1.conf"
		echo "PriorityParameters=policy=moab,config=$(cd "$top_srcdir" && pwd)/slurm-conf-examples/prism-moab.conf" >>"$tmp/$1.conf"
		;;
	gridengine)
		world=ge
		sed '/^PriorityParameters=/d' "$top_srcdir/tests/harness/ge.conf" >"$tmp/$1.conf"
		echo "PriorityParameters=policy=gridengine,config=$(cd "$top_srcdir" && pwd)/slurm-conf-examples/gridengine.conf" >>"$tmp/$1.conf"
		;;
	esac
}

# harness POLICY STATEDIR OUT [OPTIONS...]: one pass; status in OUT.rc
harness() {
	p=$1 s=$2 o=$3
	shift 3
	"$H" --conf "$tmp/$p.conf" --world "$top_srcdir/tests/harness/worlds/$world.world" \
		--plugin priority/prism --plugindir "$prism_dir:$slurm_dir" \
		--timeout 60 -v --state "$s" --keep-state "$@" >"$o" 2>"$o.err"
	echo $? >"$o.rc"
}

# first POLICY DIR: the first pass, from a state 600 s old, into DIR
first() {
	rm -rf "$2"
	mkdir -p "$2"
	harness "$1" "$2" "$tmp/first.out" --now "$now" --last-ran $((now - 600))
	if [ "$(cat "$tmp/first.out.rc")" != 0 ]; then
		echo "the first pass under $1 failed:"
		tail -5 "$tmp/first.out.err"
		return 1
	fi
}

if [ "${1:-}" = --write ]; then
	[ -n "${2:-}" ] || { echo "usage: $0 --write FORMAT" >&2; exit 2; }
	for p in $policies; do
		setup "$p"
		first "$p" "$formats/$2/$p" || exit 1
		# the harness's own log of the pass is not a state file
		ls "$formats/$2/$p"
	done
	exit 0
fi

[ -d "$formats" ] || { echo "FAIL: no $formats"; exit 1; }

# the format number of FILE as a text's first line, or the snapshot's
fmt_of() {
	case $(basename "$1") in
	priority_prism_usage) od -An -tu4 -j8 -N4 "$1" | tr -d ' ' ;;
	priority_last_decay_ran | priority_prism_policy) ;;
	*) sed -n '1s/^[a-z-]* \([0-9][0-9]*\)$/\1/p' "$1" ;;
	esac
}

# bump FILE: its format number one up, in place
bump() {
	b_n=$(($(fmt_of "$1") + 1))
	case $(basename "$1") in
	priority_prism_usage)
		# shellcheck disable=SC2059 # the octal escapes are the format
		printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((b_n & 255)) \
			$((b_n >> 8 & 255)) $((b_n >> 16 & 255)) $((b_n >> 24)))" |
			dd of="$1" bs=1 seek=8 conv=notrunc 2>/dev/null
		;;
	*) sed -i "1s/ $((b_n - 1))\$/ $b_n/" "$1" ;;
	esac
}

for dir in "$formats"/*/; do
	f=$(basename "$dir")
	for p in $policies; do
		old="$dir$p"
		[ -d "$old" ] || { ko "format $f: no $old"; continue; }
		setup "$p"
		# upgrade: the files of format $f against today's own
		first "$p" "$tmp/own" || { ko "format $f, $p: no first pass"; continue; }
		rm -rf "$tmp/from-old"
		cp -R "$old" "$tmp/from-old"
		harness "$p" "$tmp/own" "$tmp/own.out" --now $((now + 300))
		harness "$p" "$tmp/from-old" "$tmp/old.out" --now $((now + 300))
		bad=""
		[ "$(cat "$tmp/own.out.rc")" = 0 ] || bad="$bad; the pass on today's files failed"
		[ "$(cat "$tmp/old.out.rc")" = 0 ] || bad="$bad; the pass on format $f's files failed"
		cmp -s "$tmp/own.out" "$tmp/old.out" || bad="$bad; the reports differ"
		for x in "$tmp/own"/*; do
			# the pass figures hold the pass's measured times (its
			# duration, lock holds): there in both, never equal
			if [ "$(basename "$x")" = priority_prism_pass ]; then
				[ -s "$tmp/from-old/priority_prism_pass" ] ||
					bad="$bad; no pass figures after the pass"
				continue
			fi
			cmp -s "$x" "$tmp/from-old/$(basename "$x")" ||
				bad="$bad; $(basename "$x") differs after the pass"
		done
		if grep -E 'damaged|starts afresh|no saved state' "$tmp/old.out.err" >"$tmp/grep"; then
			bad="$bad; $(head -n 1 "$tmp/grep")"
		fi
		if [ -z "$bad" ]; then
			ok "format $f, $p: $(ls "$old" | wc -l) files load; the next pass is the same as on today's own files (report of $(wc -l <"$tmp/old.out") lines, every file after it)"
		else
			ko "format $f, $p: ${bad#; }"
			diff "$tmp/own.out" "$tmp/old.out" | head -5
		fi

		# downgrade: each file one format past the newest this Prism reads
		newest=$(for x in "$tmp/own"/*; do echo "$(basename "$x") $(fmt_of "$x")"; done)
		for x in "$old"/*; do
			n=$(basename "$x")
			want=$(echo "$newest" | sed -n "s/^$n \([0-9][0-9]*\)$/\1/p")
			[ -n "$want" ] || continue
			# a file of the last format this Prism writes, one up
			rm -rf "$tmp/down"
			cp -R "$tmp/own" "$tmp/down"
			bump "$tmp/down/$n"
			[ "$(fmt_of "$tmp/down/$n")" = $((want + 1)) ] ||
				{ ko "format $f, $p: cannot make $n of format $((want + 1))"; continue; }
			cp "$tmp/down/$n" "$tmp/down.file"
			harness "$p" "$tmp/down" "$tmp/down.out" --now $((now + 300))
			if [ "$(cat "$tmp/down.out.rc")" != 0 ] &&
				grep -q "$n.*format $((want + 1)), newer than format $want, the newest this Prism reads: written by a later Prism" "$tmp/down.out.err" &&
				cmp -s "$tmp/down.file" "$tmp/down/$n"; then
				ok "$p: $n of format $((want + 1)) (a downgrade) is refused by name, the plugin does not start, the file is as it was"
			else
				ko "$p: $n of format $((want + 1)): exit $(cat "$tmp/down.out.rc"), the file $(cmp -s "$tmp/down.file" "$tmp/down/$n" && echo kept || echo changed)"
				grep -i 'prism' "$tmp/down.out.err" | head -5
			fi
		done
	done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
