#!/bin/sh
# check-man.sh: the manual pages in man/ render cleanly and keep up with
# the code.
#  - Each page renders with `man --warnings` (groff, as Debian's man-db
#    runs it) without a single line on stderr.
#  - prism.1 has a .SS section for every subcommand `prism --help` lists;
#    the options of each subcommand's synopsis (from `prism SUB --help`)
#    appear in its section, and the general options (the `prism --help |
#    --version` line, the "  -x, --xyz  ..." lines) somewhere in the page.
#    Without a built prism the usage text is read from src/cli/prism.c.
#  - prism-moab.5 and prism-gridengine.5 name every key the parsers know,
#    read from the parsers' key tables (src/core/moab/prism_moab_conf.c,
#    src/core/gridengine/prism_ge_conf.c) and their strcasecmp() literals:
#    a Moab component or subcomponent X as XWEIGHT and XCAP, a Grid Engine
#    NAME[ID] key as "NAME[".
# Pages are searched in their troff source with fonts, comments and
# escapes taken out, so that line breaks and hyphenation do not matter.
# Exits 77 (skipped) when man or groff is not installed.
set -u
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
mandir="$srcdir/man"
pages="prism.1 priority_prism.5 prism-moab.5 prism-gridengine.5"
moab_c="$srcdir/src/core/moab/prism_moab_conf.c"
ge_c="$srcdir/src/core/gridengine/prism_ge_conf.c"
cli_c="$srcdir/src/cli/prism.c"
prism="$builddir/src/cli/prism"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ko() {
	echo "FAIL: $*"
	fail=1
}

if ! command -v man >/dev/null 2>&1 || ! command -v groff >/dev/null 2>&1
then
	echo "SKIP: man (man-db) or groff (groff-base) is not installed"
	exit 77
fi

# ---- rendering --------------------------------------------------------

for p in $pages; do
	if [ ! -f "$mandir/$p" ]; then
		ko "$mandir/$p is missing"
		continue
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat PAGER=cat \
		MAN_DISABLE_SECCOMP=1 \
		man --warnings -E UTF-8 -l "$mandir/$p" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ] || [ ! -s "$tmp/out" ]; then
		ko "man/$p does not render cleanly (status $rc):"
		sed 's/^/    /' "$tmp/err"
	else
		echo "PASS: man/$p renders without warnings ($(wc -l <"$tmp/out") lines)"
	fi
done
[ "$fail" -eq 0 ] || exit 1

# The troff source of page $1 as plain text: comments, font changes and
# the common escapes taken out.
plain() {
	sed -e '/^\.\\"/d' -e 's/\\".*$//' \
		-e 's/\\f\[[^]]*\]//g' -e 's/\\f([A-Za-z][A-Za-z]//g' \
		-e 's/\\f[A-Za-z0-9]//g' \
		-e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\%//g' -e 's/\\c$//' \
		-e 's/\\(lq/"/g' -e 's/\\(rq/"/g' -e 's/\\(mu/x/g' \
		-e 's/\\(ha/^/g' -e 's/\\ / /g' -e 's/\\e/\\/g' "$mandir/$1"
}

# Is the fixed string $1 in file $2, not inside a longer name?
# $3: the characters a name is made of (besides letters and digits).
mentions() {
	re=$(printf '%s' "$1" | sed 's/[][\.*^$/+?(){}|]/\\&/g')
	grep -qE "(^|[^A-Za-z0-9$3])$re([^A-Za-z0-9$3]|\$)" "$2"
}

# ---- prism.1 against the prism command ----------------------------------

plain prism.1 >"$tmp/prism.1"

# The usage text of `prism ARGS...`; from prism.c when prism is not built.
usage() {
	if [ -x "$prism" ]; then
		"$prism" "$@"
		return
	fi
	awk '/usage_text\[\] =/ { on = 1; next }
	     on && /^[ \t]*"/ { print }
	     on && /;[ \t]*$/ { exit }' "$cli_c" |
		sed -e 's/^[ \t]*"//' -e 's/"[ \t]*;*[ \t]*$//' \
			-e 's/\\n$//' -e 's/\\"/"/g'
}

# Option tokens (-x, --xyz) of the text on stdin.
options() {
	grep -oE '(^|[][ |,(])--?[A-Za-z][A-Za-z0-9-]*' |
		sed -E 's/^[][ |,(]//' | sort -u
}

# The .SS section of prism.1 whose title names subcommand $1.
section() {
	awk -v s="$1" '/^\.S[SH]/ {
		on = ($0 ~ /^\.SS/ &&
		      $0 ~ ("(^|[^A-Za-z0-9_-])" s "([^A-Za-z0-9_-]|$)"))
	} on' "$tmp/prism.1"
}

if [ ! -x "$prism" ]; then
	echo "NOTE: $prism is not built; the usage text is read from $cli_c"
fi
usage --help >"$tmp/help"
subs=$(awk '/^COMMANDS/ { on = 1; next }
	    on && /^[^ ]/ { on = 0 }
	    on && /^  [a-z]/ { print $1 }' "$tmp/help" | sort -u)
if [ -z "$subs" ]; then
	ko "no subcommand found in the usage text (COMMANDS section)"
fi
nsub=0
nopt=0
for s in $subs; do
	nsub=$((nsub + 1))
	section "$s" >"$tmp/sec"
	if [ ! -s "$tmp/sec" ]; then
		ko "man/prism.1 has no .SS section for the subcommand '$s'"
		continue
	fi
	usage "$s" --help >"$tmp/subhelp"
	# the synopsis lines of $s: its options belong in its section
	awk -v s="$s" '{
		l = $0
		sub(/^[ \t]*/, "", l); sub(/^Usage:[ \t]*/, "", l)
		sub(/^prism[ \t]+/, "", l)
		split(l, w, " ")
		if (w[1] == s) print l
	}' "$tmp/subhelp" | options >"$tmp/opts"
	for o in $(cat "$tmp/opts"); do
		nopt=$((nopt + 1))
		mentions "$o" "$tmp/sec" "_-" ||
			ko "man/prism.1: section 'prism $s' does not mention $o (prism $s --help lists it)"
	done
	# the general options: "Usage: ..." and "  prism ..." lines, and the
	# lines that define options ("  -h, --help   print ...")
	{
		grep -E '^(Usage:|[ \t]+prism )' "$tmp/subhelp"
		grep -E '^[ \t]+-' "$tmp/subhelp" | sed -E 's/^[ \t]+//; s/ {2,}.*$//'
	} | options >"$tmp/gopts"
	for o in $(cat "$tmp/gopts"); do
		nopt=$((nopt + 1))
		mentions "$o" "$tmp/prism.1" "_-" ||
			ko "man/prism.1 does not mention $o (prism $s --help lists it)"
	done
done
[ "$fail" -eq 0 ] &&
	echo "PASS: man/prism.1 covers the $nsub subcommands of prism --help ($(echo $subs)) and their options ($nopt checks)"

# ---- the policy pages against the parsers -------------------------------

# The string literals of the table named $2 in C file $1 (from its
# "NAME[...] = {" line to the closing "};").
table() {
	awk -v t="$2" '$0 ~ ("(^|[^A-Za-z0-9_])" t "\\[") && /= *\{/ { on = 1 }
		on { print }
		on && /^};/ { exit }' "$1" | grep -oE '"[^"]*"' | tr -d '"'
}

# The literals compared with strcasecmp() in C file $1.
compared() {
	grep -oE 'strcasecmp\([A-Za-z_]+, "[^"]+"\)' "$1" |
		sed -E 's/.*"([^"]+)".*/\1/'
}

# Check that page $1 mentions every word on stdin; $2 names the source.
want_all() {
	page=$1
	n=0
	while IFS= read -r k; do
		[ -n "$k" ] || continue
		n=$((n + 1))
		case $k in
		*\[) grep -qF -- "$k" "$tmp/$page" ;;
		*) mentions "$k" "$tmp/$page" "_" ;;
		esac || ko "man/$page does not mention $k ($2)"
	done
	echo "$n" >"$tmp/count"
}

plain prism-moab.5 >"$tmp/prism-moab.5"
before=$fail
{
	# components and subcomponents: XWEIGHT and XCAP (and aliases)
	for t in _comp_names _subs; do
		table "$moab_c" "$t" | while IFS= read -r k; do
			case $k in
			*WEIGHT) echo "$k" ;;
			*) echo "${k}WEIGHT"; echo "${k}CAP" ;;
			esac
		done
	done
	for t in _misc _cfg_names _state_names _fspolicy_names _cfg_ignored; do
		table "$moab_c" "$t"
	done
	compared "$moab_c"
} | sort -u >"$tmp/moab-keys"
if [ "$(wc -l <"$tmp/moab-keys")" -lt 100 ]; then
	ko "only $(wc -l <"$tmp/moab-keys") keys read from $moab_c: has its key tables' layout changed?"
fi
want_all prism-moab.5 "a key of $moab_c" <"$tmp/moab-keys"
[ "$fail" -eq "$before" ] &&
	echo "PASS: man/prism-moab.5 names all $(cat "$tmp/count") keys and values of the Moab parser"

plain prism-gridengine.5 >"$tmp/prism-gridengine.5"
before=$fail
{
	table "$ge_c" _keys
	table "$ge_c" _entry_keys | sed 's/$/[/'
	compared "$ge_c"
} | sort -u >"$tmp/ge-keys"
if [ "$(wc -l <"$tmp/ge-keys")" -lt 30 ]; then
	ko "only $(wc -l <"$tmp/ge-keys") keys read from $ge_c: has its key tables' layout changed?"
fi
want_all prism-gridengine.5 "a key of $ge_c" <"$tmp/ge-keys"
[ "$fail" -eq "$before" ] &&
	echo "PASS: man/prism-gridengine.5 names all $(cat "$tmp/count") keys of the Grid Engine parser"

exit "$fail"
