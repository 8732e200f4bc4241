#!/usr/bin/env bash
# check_arch.py on small trees whose faults are known: each must be caught
# (and a clean tree must pass), so `make check-arch` passing on main means
# something.  TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../cli/tap.sh"
tmp=$(mktemp -d /tmp/diskbench-arch.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# A tree of two rooms, low and high; high may use low.  Public headers in
# include/ROOM/, as in the project.  $1: extra set-up.
tree() {
	rm -rf "$tmp/t" && mkdir -p "$tmp/t/src/low" "$tmp/t/src/high" "$tmp/t/include/low" \
		"$tmp/t/include/high"
	cat >"$tmp/t/ARCH.md" <<'MD'
| room | holds | public headers | may use |
|---|---|---|---|
| main | the entry | — | high, low |
| high | callers | `high.h` | low |
| low | leaves | `low.h` | — |
MD
	printf 'int low_fn(void);\n' >"$tmp/t/include/low/low.h"
	printf '#include "low.h"\nint low_fn(void) { return 1; }\n' >"$tmp/t/src/low/low.c"
	printf 'int high_fn(void);\n' >"$tmp/t/include/high/high.h"
	printf '#include "high.h"\n#include "low.h"\nint high_fn(void) { return low_fn(); }\n' \
		>"$tmp/t/src/high/high.c"
	printf '#include "high.h"\nint main(void) { return high_fn(); }\n' >"$tmp/t/src/main.c"
}
compile_and_check() {
	local f
	for f in "$tmp"/t/src/*.c "$tmp"/t/src/*/*.c; do
		cc -c -I"$tmp/t/include/low" -I"$tmp/t/include/high" -I"$tmp/t/src/low" -I"$tmp/t/src/high" \
			-o "${f%.c}.o" "$f" \
			2>"$tmp/cc.err" || { cat "$tmp/cc.err"; return 2; }
	done
	python3 "$here/check_arch.py" --src "$tmp/t/src" --include "$tmp/t/include" \
		--arch "$tmp/t/ARCH.md" --max-lines 20 \
		>"$tmp/out" 2>&1
}
expect() { # name, 0|1, pattern in the output
	compile_and_check
	local rc=$?
	if [[ $rc == "$2" ]] && grep -q -- "$3" "$tmp/out"; then
		ok "$1"
	else
		not_ok "$1 (exit $rc, wanted $2 and '$3')"
		sed 's/^/#   /' "$tmp/out"
	fi
}

tree
expect "a clean tree passes" 0 "0 problems"

tree
printf '#include "high.h"\nint low_fn(void) { return high_fn(); }\n' >"$tmp/t/src/low/low.c"
expect "a circle between two rooms' files is caught" 1 "circle between files"

tree
printf 'int other(void);\nint low_fn(void) { return other(); }\n' >"$tmp/t/src/low/low.c"
printf 'int low_fn(void);\nint other(void) { return low_fn(); }\n' >"$tmp/t/src/low/other.c"
expect "a circle inside one room is caught" 1 "circle between files"

tree
printf '#include "high.h"\nint low_fn(void) { return 1; }\n' >"$tmp/t/src/low/low.c"
expect "a forbidden include is caught" 1 "does not let low use high"

tree
printf 'int low_secret(void);\n' >"$tmp/t/src/low/low_int.h"
printf '#include "high.h"\n#include "low_int.h"\nint high_fn(void) { return 0; }\n' \
	>"$tmp/t/src/high/high.c"
expect "an internal header used from another room is caught" 1 "internal to room low"

tree
printf 'int low_more(void);\n' >"$tmp/t/src/low/more.h"
printf '#include "high.h"\n#include "more.h"\nint high_fn(void) { return 0; }\n' \
	>"$tmp/t/src/high/high.c"
expect "another room's header outside include/ is caught" 1 "internal to room low"

tree
sed -i 's/| low | leaves | `low.h` | — |/| low | leaves | `low.h`, `more.h` | — |/' "$tmp/t/ARCH.md"
printf 'int low_more(void);\n' >"$tmp/t/src/low/more.h"
printf '#include "high.h"\n#include "more.h"\nint high_fn(void) { return 0; }\n' \
	>"$tmp/t/src/high/high.c"
expect "a header the table calls public but src/ holds is caught" 1 "internal to room low"

tree
sed -i 's/| low | leaves | `low.h`, `more.h` | — |/| low | leaves | `low.h` | — |/' "$tmp/t/ARCH.md"
printf 'int low_more(void);\n' >"$tmp/t/include/low/more.h"
expect "a header in include/ the table does not list is caught" 1 "does not list it"

tree
mv "$tmp/t/include/low/low.h" "$tmp/t/src/low/low.h"
printf '#include "low.h"\nint high_fn(void) { return 0; }\n' >"$tmp/t/src/high/high.c"
expect "a public header that left include/ is caught" 1 "not in .*include/low/"

tree
printf 'int low_fn(void);\n' >"$tmp/t/src/low/low.h"
expect "two headers of one name are caught" 1 "two headers named low.h"

tree
printf 'int low_secret(void);\n' >"$tmp/t/src/low/low_int.h"
printf '#include "low_int.h"\nint low_fn(void) { return 1; }\n' >"$tmp/t/src/low/low.c"
expect "a room's own internal header beside its sources passes" 0 "0 problems"

tree
printf 'const char *p = "/sys/block";\nint low_fn(void) { return 1; }\n' >"$tmp/t/src/low/low.c"
expect "a /sys path outside devinfo and platform is caught" 1 "names a /sys or /proc path"

tree
for i in $(seq 25); do printf 'int v%d;\n' "$i"; done >>"$tmp/t/src/low/low.c"
expect "a file over the line limit is caught" 1 "split it by concern"

tree
printf 'int stray(void) { return 0; }\n' >"$tmp/t/src/stray.c"
expect "a source outside a room is caught" 1 "not in a room"

tree
sed -i 's/| high | callers | `high.h` | low |/&\n| ghost | nothing | — | — |/' "$tmp/t/ARCH.md"
expect "a room the tree lacks is caught" 1 "which src/ does not have"

tree
sed -i 's/| low | leaves | `low.h` | — |/| low | leaves | `low.h` | high |/' "$tmp/t/ARCH.md"
expect "a circle in the table itself is caught" 1 "the table itself has a circle"

tap_done
