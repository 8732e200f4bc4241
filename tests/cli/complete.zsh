# What zsh's completion offers for command lines, one match a line.
#
#   zsh -f tests/cli/complete.zsh SCRIPT 'diskbench seqwrite --' 'diskbench ' ...
#
# Starts an interactive zsh on a pseudo-terminal (zsh/zpty), loads compinit
# and the completion SCRIPT, and for each LINE types it and a Tab there,
# prints "line: LINE", then what reached compadd: each match as
# "match: WORD", and each message (an option value with no set to offer) as
# "message: TEXT"; then clears the line.  compadd is wrapped, as
# zsh-capture-completion does: the wrapper asks the builtin for the matches
# (compadd -O) and prints them.  Exit status 2: zsh/zpty is missing, or the
# shell never answered.
zmodload zsh/zpty zsh/zselect || { print -u2 'complete.zsh: no zsh/zpty or zsh/zselect module'; exit 2 }
script=${1:?usage: complete.zsh SCRIPT LINE...}

# settle: reads (and drops) what the shell prints until it has been quiet
# for 0.2 s.  zle gives up completing when more input is waiting, so each
# write waits for the one before to be done with.
settle() {
	local out
	integer quiet=0
	while (( quiet < 10 )); do
		if zpty -r -t z out; then quiet=0; else zselect -t 2; (( quiet++ )); fi
	done
}

# answer LINE: types LINE and a Tab, prints what came back, clears the line.
answer() {
	local out
	integer in=0 start=$SECONDS
	print -r -- "line: $1"
	zpty -n -w z "$1"
	settle
	zpty -n -w z $'\t'
	while (( SECONDS - start < 20 )); do
		zpty -r -t z out || { zselect -t 2; continue }
		out=${${out//$'\r'/}%$'\n'}
		case $out in
		*@@BEGIN@@*) in=1 ;;
		*@@END@@*) settle; zpty -n -w z $'\C-u'; settle; return 0 ;;
		match:* | message:*) (( in )) && print -r -- "$out" ;;
		esac
	done
	print -u2 "complete.zsh: no answer to '$1' in 20 s"
	return 2
}

zpty z zsh -f -i || { print -u2 'complete.zsh: zpty cannot start a shell'; exit 2 }
# The set-up, one command per write; the markers are printed by functions,
# so the echo of what is typed never looks like one.
zpty -w z 'PS1= PS2= RPS1=; unsetopt beep'
zpty -w z 'autoload -U compinit; compinit -u -D'
zpty -w z "source ${(q)script}"
zpty -w z 'zstyle ":completion:*" list-grouped false; zstyle ":completion:*" insert-tab false'
# (no tab in what is typed: it would complete)
zpty -w z 'compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a __hits; builtin compadd -O __hits "$@"
  local __h; for __h in $__hits; do print -r -- "match: $__h"; done
  builtin compadd "$@"
}'
zpty -w z '_message() { print -r -- "message: ${@[-1]}"; }'
# (_main_complete empties these arrays on each use: each marker re-arms itself)
zpty -w z '_cap_begin() { print -r -- "@@BEGIN@@"; compprefuncs=(_cap_begin); }'
zpty -w z '_cap_end() { print -r -- "@@END@@"; comppostfuncs=(_cap_end); }'
zpty -w z 'compprefuncs=(_cap_begin); comppostfuncs=(_cap_end)'
zpty -w z 'bindkey "^I" complete-word; bindkey "^U" kill-buffer'
zpty -w z 'print -r -- "@@READY""@@"'
integer start=$SECONDS
until zpty -r -t z out && [[ $out == *@@READY@@* ]]; do
	if (( SECONDS - start > 30 )); then
		print -u2 'complete.zsh: the shell did not start in 30 s'
		zpty -d z
		exit 2
	fi
	zselect -t 2
done
settle

for line in "${@[2,-1]}"; do
	answer "$line" || { zpty -d z; exit 2 }
done
zpty -d z
