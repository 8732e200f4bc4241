# Sourced by each /init of the lab's guest (tests/lab/guest.sh, and
# bench/perf-lab-guest.sh): busybox's applets, the kernel's filesystems, and
# the framing of every command's output on the second serial port (a file on
# the host), which tests/lab/check.py and bench/perf-lab.py read.
/bin/busybox --install -s /bin
export PATH=/usr/bin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
exec 3>/dev/ttyS1
stty -F /dev/ttyS1 raw -echo 2>/dev/null

emit() { echo "$*" >&3; }
# run NAME CMD...: the command's exit code, stdout and stderr, framed
run() {
	name=$1
	shift
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	emit "@@@ begin $name rc=$rc t0=$t0 t1=$(cut -d' ' -f1 /proc/uptime)"
	cat /tmp/out >&3
	emit "@@@ stderr $name"
	cat /tmp/err >&3
	emit "@@@ end $name"
}
