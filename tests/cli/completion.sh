#!/usr/bin/env bash
# End-to-end tests of shell completion: `diskbench completion bash|zsh`,
# the scripts driven as the shells drive them, and `make install`.
#
#   bash tests/cli/completion.sh ./diskbench      (part of `make cli`)
#
# bash: tests/cli/complete.bash sources the script in `bash --norc` and calls
# the function `complete -p diskbench` names with COMP_WORDS, COMP_CWORD,
# COMP_LINE and COMP_POINT set as bash sets them.  zsh (where installed):
# tests/cli/complete.zsh types the lines into an interactive zsh on a
# pseudo-terminal and records what reaches compadd.  What should complete is
# read from the binary itself (`diskbench --help`, `diskbench help TEST`),
# so the check is that the scripts agree with the parser, both ways.
# Writes only in a scratch directory (mktemp -d), removed by a trap.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: completion.sh PATH/TO/diskbench}") || exit 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
S=$(mktemp -d "${TMPDIR:-/tmp}/diskbench-completion.XXXXXX") || exit 2
trap 'rm -rf -- "$S"' EXIT
trap 'rm -rf -- "$S"; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
# same_set A B: the words of A and of B are the same set (no fork: forks are
# slow on a busy machine, and this runs a few hundred times)
same_set() {
	local - w
	set -f
	local -A a=() b=()
	for w in $1; do a[$w]=1; done
	for w in $2; do b[$w]=1; done
	[ ${#a[@]} = ${#b[@]} ] || return 1
	for w in "${!a[@]}"; do [ -n "${b[$w]-}" ] || return 1; done
}
# expect NAME WANT GOT: WANT and GOT, each a list of words, are the same set
expect() {
	if same_set "$2" "$3"; then ok "$1"; else not_ok "$1" "wanted: $2" "got:    $3"; fi
}

# ---- what the binary says it takes ---------------------------------------------
# the tests, from the "tests:" block of --help
TESTS=$("$DB" --help | awk '/^tests:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | tr '\n' ' ')
# OPTS[TEST]: every option `diskbench help TEST` lists in its left column,
# short and long forms; META[TEST --OPTION]: what it says the value is
declare -A OPTS=() META=()
for t in $TESTS; do
	while read -r o m; do
		OPTS[$t]+="$o "
		[ -n "$m" ] && META["$t $o"]=$m
	done < <("$DB" help "$t" | awk '/^options:$/ { on = 1; next }
		on && match($0, /^  (-[A-Za-z], +)? *--[a-z][a-z-]*([ =][^ ]+)?/) {
			s = substr($0, 1, RLENGTH); sub(/^ +/, "", s)
			if (s ~ /^-[A-Za-z],/) { print substr(s, 1, 2); sub(/^-[A-Za-z], +/, "", s) }
			n = split(s, p, /[ =]/); print p[1], (n > 1 ? p[2] : "")
		}')
done
if [ -z "$TESTS" ]; then
	not_ok "the tests listed by --help" "$("$DB" --help 2>&1 | head -n 20)"
fi

# ---- the command ---------------------------------------------------------------
"$DB" completion bash >"$S/diskbench.bash" 2>"$S/err"; rc=$?
if [ $rc = 0 ] && [ -s "$S/diskbench.bash" ] && [ ! -s "$S/err" ] && bash -n "$S/diskbench.bash"; then
	ok "completion bash: a script bash parses, exit 0"
else
	not_ok "completion bash: a script bash parses, exit 0" "exit $rc" "$(head -c 300 "$S/err")"
fi
"$DB" completion zsh >"$S/_diskbench" 2>"$S/err"; rc=$?
if [ $rc = 0 ] && head -n 1 "$S/_diskbench" | grep -qx '#compdef diskbench' && [ ! -s "$S/err" ]; then
	ok "completion zsh: a #compdef script, exit 0"
else
	not_ok "completion zsh: a #compdef script, exit 0" "exit $rc" "$(head -c 300 "$S/err")"
fi
# usage_case NAME WANTED_STDERR ARGS...: exit 2, that first line on stderr, nothing on stdout
usage_case() {
	local name=$1 want=$2; shift 2
	"$DB" "$@" >"$S/out" 2>"$S/err"; rc=$?
	if [ $rc = 2 ] && [ "$(head -n 1 "$S/err")" = "$want" ] && [ ! -s "$S/out" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc, stderr: $(head -c 200 "$S/err")" "stdout: $(head -c 100 "$S/out")"
	fi
}
usage_case "completion fish: exit 2, unknown shell" \
	"diskbench: completion: unknown shell 'fish' (bash, zsh)" completion fish
usage_case "completion without a shell: exit 2" "diskbench: completion: name a shell (bash, zsh)" completion
usage_case "completion bash zsh: exit 2" "diskbench: unexpected argument 'zsh'" completion bash zsh
usage_case "completion with a test's option: exit 2" \
	"diskbench: option '--bs' does not apply to completion" completion bash --bs 4k
if "$DB" completion bash --quiet >"$S/out" 2>&1 && cmp -s "$S/out" "$S/diskbench.bash"; then
	ok "completion bash with a global option: the same script"
else
	not_ok "completion bash with a global option: the same script" "$(head -c 200 "$S/out")"
fi

# ---- bash ----------------------------------------------------------------------
# bask [--no-eq-break] LINE...: asks bash what completes each LINE, all in one
# bash, and keeps the words offered in R[LINE] (RNOEQ[LINE] with --no-eq-break).
declare -A R=() RNOEQ=()
bask() {
	local target=R flags=() l line=""
	[ "$1" = --no-eq-break ] && { target=RNOEQ; flags=(--no-eq-break); shift; }
	local -n into=$target
	(cd "$S/play" && bash --norc --noprofile "$HERE/complete.bash" "${flags[@]}" "$S/diskbench.bash" "$@") \
		>"$S/bash.out" 2>&1 || echo "complete.bash: exit $?" >>"$S/bash.out"
	while IFS= read -r l; do
		case $l in
		'line: '*) line=${l#line: }; into[$line]="" ;;
		'reply: '*) into[$line]+="${l#reply: } " ;;
		*) not_ok "bash: complete.bash says nothing else" "$l" ;;
		esac
	done <"$S/bash.out"
}
mkdir -p "$S/play/adir/inner" && : >"$S/play/afile" && mkfifo "$S/play/afifo"
# fit's profiles come from the binary being completed (fit --list), found as
# "diskbench" on the PATH as a user's is; what it must offer is the tree's
# profiles/: each file's name and its diskbench-alias
mkdir -p "$S/bin" && ln -s "$DB" "$S/bin/diskbench" && PATH=$S/bin:$PATH
PROFILES=$(cd "$ROOT/profiles" && for f in *.fio; do echo "${f%.fio}"; done &&
	sed -n 's/^# diskbench-alias: *//p' ./*.fio | tr ' ' '\n')
PROFILES=$(echo $PROFILES)

spec=$(bash --norc --noprofile -c 'source "$1" && complete -p diskbench' _ "$S/diskbench.bash" 2>&1)
if [[ $spec == "complete -F _diskbench diskbench" ]]; then ok "bash: complete -F _diskbench diskbench"; else not_ok "bash: complete -p diskbench" "$spec"; fi

# everything asked below, in one go
lines=('diskbench ' 'diskbench help ' 'diskbench completion ' 'diskbench -b 4k --json seqr'
	'diskbench randread --eng' 'diskbench --json -b 4k seqread --eng' 'diskbench -'
	'diskbench seqwrite -b ' 'diskbench seqwrite --size=' 'diskbench seqread -b 4k --json ad'
	'diskbench seqread adir/' 'diskbench seqread -- -' 'diskbench help seqread a'
	'diskbench seqread /dev/nul' 'diskbench info /dev/nul' 'diskbench steady ' 'diskbench steady rand'
	'diskbench sla ' 'diskbench fit ' 'diskbench fit s' 'diskbench fit etcd ' 'diskbench job ')
for t in $TESTS; do
	lines+=("diskbench ${t:0:2}" "diskbench $t -" "diskbench $t a")
	case $t in steady | sla) lines+=("diskbench $t randread a") ;; esac
	for o in ${OPTS[$t]}; do
		lines+=("diskbench $t ${o%?}")
		case ${META["$t $o"]-} in *FILE* | *DIR* | *PATH*) lines+=("diskbench $t $o=a") ;; esac
	done
done
dev=$(find /dev -maxdepth 1 -type b 2>/dev/null | sort | head -n 1)
[ -n "$dev" ] && lines+=("diskbench seqread ${dev%?}")
noeq=()
for ov in engine:randread sync:seqwrite drop-caches:seqread run:sweep buffers:seqread reap:randread; do
	o=${ov%:*} t=${ov#*:}
	lines+=("diskbench $t --$o=" "diskbench $t --$o " "diskbench $t --$o=a" "diskbench $t --$o=d"
		"diskbench $t --$o=f" "diskbench $t --$o=s" "diskbench $t --$o=h" "diskbench $t --$o=r")
	noeq+=("diskbench $t --$o=")
done
bask "${lines[@]}"
bask --no-eq-break "${noeq[@]}"

expect "bash: diskbench <TAB> gives every test, help and completion" "$TESTS help completion" "${R['diskbench ']-}"
bad=""
for t in $TESTS; do
	got=${R["diskbench ${t:0:2}"]-}
	[[ " $got " == *" $t "* ]] || bad+=" $t (from ${t:0:2}: $got)"
done
if [ -z "$bad" ]; then ok "bash: each test completes from its first two letters"; else not_ok "bash: each test completes from its first two letters" "$bad"; fi
expect "bash: help <TAB> gives the tests" "$TESTS" "${R['diskbench help ']-}"
expect "bash: completion <TAB> gives the shells" "bash zsh" "${R['diskbench completion ']-}"
expect "bash: steady <TAB> gives the tests it runs" "randread randwrite seqread seqwrite" "${R['diskbench steady ']-}"
expect "bash: steady rand<TAB>" "randread randwrite" "${R['diskbench steady rand']-}"
expect "bash: sla <TAB> gives the tests it runs" "randread randwrite seqread seqwrite" "${R['diskbench sla ']-}"
expect "bash: fit <TAB> gives the profiles ($PROFILES) and job files" "$PROFILES adir afile" "${R['diskbench fit ']-}"
expect "bash: fit s<TAB> gives slog, the alias" "slog" "${R['diskbench fit s']-}"
expect "bash: fit etcd <TAB>: its TARGET, no profile" "adir afile" "${R['diskbench fit etcd ']-}"
expect "bash: job <TAB>: a job file, no profile" "adir afile" "${R['diskbench job ']-}"
expect "bash: options before the test: -b 4k --json seqr<TAB>" "seqread" "${R['diskbench -b 4k --json seqr']-}"

# Each test's options, both ways: every one `help TEST` lists completes from
# its prefix (the option less its last letter), and `TEST -<TAB>` offers no other.
for t in $TESTS; do
	want=${OPTS[$t]}
	bad=""
	for o in $want; do
		got=${R["diskbench $t ${o%?}"]-}
		[[ " $got " == *" $o "* || " $got " == *" $o= "* ]] || bad+=" $o (from ${o%?}: $got)"
	done
	if [ -z "$bad" ]; then ok "bash: $t: each option of help $t completes from its prefix"; else not_ok "bash: $t: every option completes" "$bad"; fi
	expect "bash: $t -<TAB> offers exactly the options of help $t" "$want" "${R["diskbench $t -"]//=/}"
done
# a long option that takes a value comes with its =, and a short one alone
expect "bash: --eng<TAB> gives --engine=" "--engine=" "${R['diskbench randread --eng']-}"
expect "bash: the options given before the test count: --json -b 4k seqread --eng<TAB>" "--engine=" \
	"${R['diskbench --json -b 4k seqread --eng']-}"
expect "bash: no test yet: -<TAB> gives the global options" "${OPTS[info]}" "${R['diskbench -']-}"

# The closed sets: what the table says, each accepted by the parser, in each
# spelling bash can hand over.
check_values() { # OPTION TEST WANTED
	local o=$1 t=$2 want=$3 v rejected=""
	expect "bash: $t --$o=<TAB> gives $want" "$want" "${R["diskbench $t --$o="]-}"
	expect "bash: $t --$o <TAB> (value in the next word)" "$want" "${R["diskbench $t --$o "]-}"
	local first=""
	for v in $want; do [[ $v == "${want:0:1}"* ]] && first+="$v "; done
	expect "bash: $t --$o=${want:0:1}<TAB>" "$first" "${R["diskbench $t --$o=${want:0:1}"]-}"
	expect "bash: $t --$o=<TAB>, = not a word break: --$o=VALUE" "$(for v in $want; do echo "--$o=$v"; done)" \
		"${RNOEQ["diskbench $t --$o="]-}"
	for v in ${R["diskbench $t --$o="]-}; do
		"$DB" "$t" "--$o=$v" --help >/dev/null 2>&1 || rejected+=" $v"
	done
	if [ -z "$rejected" ] && ! "$DB" "$t" "--$o=frobnicate" --help >/dev/null 2>&1; then
		ok "bash: $t: each value of --$o offered parses (and a made-up one does not)"
	else
		not_ok "bash: $t: each value of --$o offered parses" "rejected:$rejected"
	fi
}
check_values engine randread "auto uring aio sync nop"
check_values reap randread "ring syscall"
check_values sync seqwrite "dsync fsync none osync"
check_values drop-caches seqread "file all none"
check_values run sweep "simple oltp dss"
check_values buffers seqread "huge pages"
expect "bash: an open value (-b <TAB>) completes nothing" "" "${R['diskbench seqwrite -b ']-}"
expect "bash: an open value (--size=<TAB>) completes nothing" "" "${R['diskbench seqwrite --size=']-}"

# Options whose value is a path (metavar FILE, DIR, PATH): paths complete.
path_opts=0
for t in $TESTS; do
	for o in ${OPTS[$t]}; do
		[[ $o == --* ]] || continue
		m=${META["$t $o"]-}
		case $m in
		*FILE*) want="adir afile" ;;
		*DIR*) want="adir" ;;
		*PATH*) want="adir afifo afile" ;;
		*) continue ;;
		esac
		path_opts=$((path_opts + 1))
		expect "bash: $t $o=a<TAB> ($m) gives paths" "$want" "${R["diskbench $t $o=a"]-}"
	done
done
[ $path_opts = 0 ] && skip "bash: an option whose value is a path" "no option takes a FILE, DIR or PATH yet"

# Targets: directories always; regular files and block devices for the tests
# that take them (not files and matrix, which work in a directory, nor
# capacity, which takes a block device alone); anything for info; report
# reads files.
for t in $TESTS; do
	case $t in
	info) want="adir afifo afile" ;;
	files | matrix | capacity) want="adir" ;;
	*) want="adir afile" ;;
	esac
	# steady's first word is the test it runs (below): its targets after that
	case $t in steady | sla) t="$t randread" ;; esac
	expect "bash: $t a<TAB>: its targets" "$want" "${R["diskbench $t a"]-}"
done
expect "bash: a target after options: seqread -b 4k --json ad<TAB>" "adir" "${R['diskbench seqread -b 4k --json ad']-}"
expect "bash: into a directory: seqread adir/<TAB>" "adir/inner" "${R['diskbench seqread adir/']-}"
expect "bash: after --, a word with a dash is a target: seqread -- -<TAB>" "" "${R['diskbench seqread -- -']-}"
expect "bash: after help TEST, nothing" "" "${R['diskbench help seqread a']-}"
if [ -n "$dev" ]; then
	got=${R["diskbench seqread ${dev%?}"]-}
	if [[ " $got " == *" $dev "* ]]; then ok "bash: a block device completes ($dev)"; else not_ok "bash: a block device completes ($dev)" "got: $got"; fi
else
	skip "bash: a block device completes" "no block device in /dev here"
fi
expect "bash: a character device is not a target of seqread (/dev/nul<TAB>)" "" "${R['diskbench seqread /dev/nul']-}"
expect "bash: ... but info describes it" "/dev/null" "${R['diskbench info /dev/nul']-}"

# ---- zsh -----------------------------------------------------------------------
# zcomp LINE...: what zsh's completion offers, as complete.zsh prints it
zcomp() { (cd "$S/play" && timeout 120 zsh -f "$HERE/complete.zsh" "$S/_diskbench" "$@"); }
# zread: reads $S/zsh.out into Z[LINE] (the matches) and ZMSG[LINE] (the messages)
declare -A Z=() ZMSG=()
zread() {
	local l line=""
	while IFS= read -r l; do
		case $l in
		'line: '*) line=${l#line: }; Z[$line]=""; ZMSG[$line]="" ;;
		'match: '*) Z[$line]+="${l#match: } " ;;
		'message: '*) ZMSG[$line]+="${l#message: }" ;;
		esac
	done <"$S/zsh.out"
}
if ! command -v zsh >/dev/null; then
	skip "zsh: the script" "zsh is not installed (apt-get install zsh)"
else
	if zsh -f -c 'autoload -U compinit; compinit -u -D; source "$1"; [[ $_comps[diskbench] == _diskbench ]]' _ "$S/_diskbench" >"$S/out" 2>&1 && [ ! -s "$S/out" ]; then
		ok "zsh: sourced after compinit, it registers _diskbench, silently"
	else
		not_ok "zsh: sourced after compinit, it registers _diskbench" "$(head -c 300 "$S/out")"
	fi
	mkdir -p "$S/fpath" && cp "$S/_diskbench" "$S/fpath/_diskbench"
	if zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; [[ $_comps[diskbench] == _diskbench ]]' _ "$S/fpath" >"$S/out" 2>&1 && [ ! -s "$S/out" ]; then
		ok "zsh: found in \$fpath by compinit (#compdef)"
	else
		not_ok "zsh: found in \$fpath by compinit" "$(head -c 300 "$S/out")"
	fi
	zcomp 'diskbench ' 'diskbench randread -' 'diskbench -b 4k --json randread --en' 'diskbench randread --engine=' \
		'diskbench seqwrite --sync ' 'diskbench seqread --drop-caches=' 'diskbench sweep --run=' \
		'diskbench seqwrite -b ' 'diskbench seqread a' 'diskbench info a' 'diskbench completion ' \
		'diskbench steady ' 'diskbench fit ' >"$S/zsh.out" 2>"$S/zsh.err"
	rc=$?
	if [ $rc = 2 ] && grep -q 'zpty' "$S/zsh.err"; then # no pseudo-terminal here (a chroot without /dev/pts)
		skip "zsh: completing lines" "$(head -n 1 "$S/zsh.err")"
	elif [ $rc != 0 ]; then
		not_ok "zsh: completing lines" "exit $rc: $(head -c 300 "$S/zsh.err")"
	else
		zread
		expect "zsh: diskbench <TAB> gives every test, help and completion" "$TESTS help completion" "${Z['diskbench ']-}"
		expect "zsh: randread -<TAB> offers exactly the options of help randread" "${OPTS[randread]}" "${Z['diskbench randread -']-}"
		expect "zsh: options before the test count: -b 4k --json randread --en<TAB>" "--engine" "${Z['diskbench -b 4k --json randread --en']-}"
		expect "zsh: --engine=<TAB>" "auto uring aio sync nop" "${Z['diskbench randread --engine=']-}"
		expect "zsh: --sync <TAB>" "dsync fsync none osync" "${Z['diskbench seqwrite --sync ']-}"
		expect "zsh: --drop-caches=<TAB>" "file all none" "${Z['diskbench seqread --drop-caches=']-}"
		expect "zsh: --run=<TAB>" "simple oltp dss" "${Z['diskbench sweep --run=']-}"
		if [ "${ZMSG['diskbench seqwrite -b ']-}" = "SIZE: block size of each I/O" ] &&
			[ -z "${Z['diskbench seqwrite -b ']-}" ]; then
			ok "zsh: -b <TAB>: a description, no match"
		else
			not_ok "zsh: -b <TAB>: a description, no match" "$(cat "$S/zsh.out")"
		fi
		expect "zsh: seqread a<TAB>: a directory and a file" "adir afile" "${Z['diskbench seqread a']-}"
		expect "zsh: info a<TAB>: any path" "adir afifo afile" "${Z['diskbench info a']-}"
		expect "zsh: completion <TAB>" "bash zsh" "${Z['diskbench completion ']-}"
		expect "zsh: steady <TAB>: the tests it runs" "randread randwrite seqread seqwrite" "${Z['diskbench steady ']-}"
		expect "zsh: fit <TAB>: the profiles and job files" "$PROFILES adir afile" "${Z['diskbench fit ']-}"
	fi
fi

# ---- make install --------------------------------------------------------------
D="$S/dest"
if make -s -C "$ROOT" install DESTDIR="$D" PREFIX=/usr >"$S/out" 2>&1 &&
	cmp -s "$D/usr/share/bash-completion/completions/diskbench" "$S/diskbench.bash" &&
	cmp -s "$D/usr/share/zsh/site-functions/_diskbench" "$S/_diskbench"; then
	ok "make install DESTDIR PREFIX=/usr: both scripts where bash-completion and zsh look"
else
	not_ok "make install DESTDIR PREFIX=/usr: both scripts" "$(head -c 300 "$S/out")" "$(cd "$D" 2>/dev/null && find . | head -n 20)"
fi
if [ "$(stat -c %a "$D/usr/share/bash-completion/completions/diskbench" 2>/dev/null)" = 644 ]; then
	ok "make install: the scripts are mode 644"
else
	not_ok "make install: the scripts are mode 644" "$(ls -l "$D/usr/share/bash-completion/completions" 2>&1)"
fi
spec=$(bash --norc --noprofile -c 'source "$1" && complete -p diskbench' _ "$D/usr/share/bash-completion/completions/diskbench" 2>&1)
if [[ $spec == *"-F _diskbench diskbench"* ]]; then ok "make install: the installed bash script loads"; else not_ok "make install: the installed bash script loads" "$spec"; fi
if make -s -C "$ROOT" uninstall DESTDIR="$D" PREFIX=/usr >"$S/out" 2>&1 && [ -z "$(find "$D" -type f)" ]; then
	ok "make uninstall: nothing left"
else
	not_ok "make uninstall: nothing left" "$(find "$D" -type f)"
fi

tap_done
