# What bash's programmable completion offers for command lines.
#
#   bash --norc tests/cli/complete.bash [--no-eq-break] SCRIPT 'diskbench seqwrite --' ...
#
# Sources the completion SCRIPT, finds the function `complete -p diskbench`
# names, and for each LINE (the cursor at its end) sets COMP_WORDS,
# COMP_CWORD, COMP_LINE and COMP_POINT as bash does, calls the function
# with the command, the word and the word before, and prints
# "line: LINE", then each word of COMPREPLY as "reply: WORD".  Words split
# as readline splits them with the default COMP_WORDBREAKS: at blanks, and
# '=' is a word of its own ("--sync=ds" is "--sync" "=" "ds", and the word
# under the cursor of "--sync=" is "=").  --no-eq-break: as when a user
# took '=' out of COMP_WORDBREAKS, "--sync=ds" stays one word.
# Exit status 2: SCRIPT registers no function for diskbench.
set -u
eq_break=1
if [[ ${1-} == --no-eq-break ]]; then
	eq_break=0
	shift
fi
script=${1:?usage: complete.bash [--no-eq-break] SCRIPT LINE...}
shift
# shellcheck source=/dev/null
source "$script" || exit 2
spec=$(complete -p diskbench 2>/dev/null) || { echo "complete.bash: $script registers nothing for diskbench" >&2; exit 2; }
[[ $spec == *" -F "* ]] || { echo "complete.bash: not a function: $spec" >&2; exit 2; }
func=${spec#* -F }
func=${func%% *}
if ((!eq_break)); then
	COMP_WORDBREAKS=${COMP_WORDBREAKS//=/}
fi

for line in "$@"; do
	split=$line
	((eq_break)) && split=${line//=/ = }
	read -r -a COMP_WORDS <<<"$split"
	[[ -z $line || $line == *' ' ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]-}
	[[ $cur == = ]] && cur= # what readline hands over after a break character
	COMPREPLY=()
	"$func" diskbench "$cur" "$prev"
	printf 'line: %s\n' "$line"
	((${#COMPREPLY[@]})) && printf 'reply: %s\n' "${COMPREPLY[@]}"
done
exit 0
