#!/bin/busybox sh
# /init of the lab's guest for bench/perf-lab.sh (issue 32): perf.sh's rows on
# a null_blk device, the lab's kernel and qemu (tests/lab/lab.sh builds and
# boots it).  null_blk without memory behind it completes a read without
# touching any data, so what limits a row is the tool and the kernel's block
# and io_uring paths.  Each run's exit code, stdout and stderr go, framed by
# '@@@' lines as tests/lab/guest.sh frames them, to the second serial port;
# bench/perf-lab.py makes the table.  Nothing is judged here.
# Its settings come on the kernel's command line: PERF_REPS, PERF_RUNTIME
# (seconds) and PERF_DEPTHS (comma-separated).
. /lib/lab-common.sh # busybox, the mounts, emit and run (tests/lab/guest-common.sh)

reps=${PERF_REPS:-3}
runtime=${PERF_RUNTIME:-3}
depths=$(echo "${PERF_DEPTHS:-1,8,32,128}" | tr , ' ')
emit "@@@ kernel $(uname -r) accel=$LAB_ACCEL reps=$reps runtime=$runtime depths=$depths"

# configfs and null_blk only (modules.order lists them after what they need)
for ko in $(grep -E '/(configfs|null_blk)\.ko' /modules.order); do
	case $ko in
	*/null_blk.ko) insmod /lib/modules/$ko nr_devices=0 ;;
	*) insmod /lib/modules/$ko ;;
	esac || emit "@@@ note insmod $ko failed"
done
mkdir -p /sys/kernel/config
mount -t configfs none /sys/kernel/config
# 1 GiB, no memory behind it, blk-mq, a queue deep enough for depth 128
d=/sys/kernel/config/nullb/nullb0
if ! { mkdir "$d" && echo 1024 >"$d/size" && echo 2 >"$d/queue_mode" &&
	echo 256 >"$d/hw_queue_depth" && echo 1 >"$d/power"; }; then
	emit "@@@ note null_blk failed"
	poweroff -f
fi
dev=/dev/nullb0
emit "@@@ device $dev irqmode=$(cat "$d/irqmode") hw_queue_depth=$(cat "$d/hw_queue_depth")"

# interleaved: repetition 1 of every depth and row, then repetition 2, ...
# (t/io_uring prints IOPS once a second and not for the last: -r runtime+1).
# No t/io_uring -N1 row: the lab's kernel (Debian's 6.1) refuses its NOPs
# (EINVAL, "io: unexpected ret=-22"; at depth 8 it then waits for ever), so
# --engine=nop's row stands alone here, as diskbench's own ceiling.
for rep in $(seq 1 "$reps"); do
	for q in $depths; do
		b=$q
		[ "$b" -gt 32 ] && b=32
		run "$q.db-def.$rep" diskbench --json randread --qd "$q" -t "$runtime" -s 64M "$dev"
		run "$q.db-nop.$rep" diskbench --json randread --engine=nop --qd "$q" -t "$runtime" -s 64M "$dev"
		run "$q.t/io_uring.$rep" io_uring -d "$q" -s "$b" -c "$b" -b 4096 -p0 -B1 -F1 -n1 \
			-r $((runtime + 1)) "$dev"
	done
done
emit "@@@ done"
poweroff -f
