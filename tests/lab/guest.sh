#!/bin/busybox sh
# /init of the lab's initramfs (PID 1 in the qemu guest; tests/lab/lab.sh).
# Finds each disk by the identity lab.sh gave it, runs diskbench and the peer
# tools on it, and writes every command's exit code, stdout and stderr,
# framed by '@@@' lines, to the second serial port (a file on the host,
# checked there by tests/lab/check.py). Nothing is judged here.
. /lib/lab-common.sh # busybox, the mounts, emit and run

emit "@@@ kernel $(uname -r) accel=$LAB_ACCEL"
for ko in $(cat /modules.order); do
	case $ko in
	*/null_blk.ko) continue ;; # loaded below, with its parameters
	*/usb-storage.ko) insmod /lib/modules/$ko delay_use=0 ;;
	*) insmod /lib/modules/$ko ;;
	esac 2>/dev/null || emit "@@@ note insmod $ko failed"
done

# null_blk through configfs: a plain memory-backed device (under dm-delay
# and dm-flakey) and a host-managed zoned one with 8 MiB zones of 6 MiB
# capacity, the first conventional, at most 3 open and 4 active (issue 31:
# what a zoned write test must keep to, as a ZNS drive sets it).
insmod /lib/modules/$(grep null_blk.ko /modules.order) nr_devices=0
mkdir -p /sys/kernel/config
mount -t configfs none /sys/kernel/config
nullb() {
	d=/sys/kernel/config/nullb/$1
	mkdir "$d" && echo 64 >"$d/size" && echo 1 >"$d/memory_backed" && echo 2 >"$d/queue_mode"
	[ "$2" = zoned ] && echo 1 >"$d/zoned" && echo 8 >"$d/zone_size" && echo 6 >"$d/zone_capacity" &&
		echo 1 >"$d/zone_nr_conv" && echo 3 >"$d/zone_max_open" && echo 4 >"$d/zone_max_active"
	echo 1 >"$d/power"
}
nullb nullb0 plain || emit "@@@ note null_blk plain failed"
nullb nullb1 zoned || emit "@@@ note null_blk zoned failed"
# M/D/1 (issue 30): one request at a time, each completed by a timer 100 us
# after it started; no memory behind it (reads return at once, as zeros)
d=/sys/kernel/config/nullb/nullb2
if mkdir "$d" && echo 64 >"$d/size" && echo 2 >"$d/queue_mode" && echo 2 >"$d/irqmode" &&
	echo 100000 >"$d/completion_nsec" && echo 1 >"$d/hw_queue_depth" && echo 1 >"$d/submit_queues" &&
	echo 1 >"$d/power"; then
	emit "@@@ role null_md1 nullb2"
else
	emit "@@@ note null_blk M/D/1 failed"
fi
# Polled I/O (issue 32): a null_blk with a poll queue (its queue/io_poll is
# 1), where --poll runs (null_blk's module default is one poll queue, so it
# is asked for here rather than assumed); the virtio disk has none and is
# refused.
d=/sys/kernel/config/nullb/nullb3
if mkdir "$d" && echo 64 >"$d/size" && echo 2 >"$d/queue_mode" && echo 1 >"$d/poll_queues" &&
	echo 1 >"$d/power"; then
	emit "@@@ role null_poll nullb3"
else
	emit "@@@ note null_blk with poll queues failed"
fi

want=11 # the 8 disks qemu attached and nullb0-2; nullb3 where it was made
[ -e /sys/block/nullb3 ] && want=12
for i in $(seq 1 300); do
	[ "$(ls /sys/block | grep -cvE '^(loop|ram)')" -ge $want ] && break
	sleep 0.1
done
emit "@@@ note block devices: $(ls /sys/block | grep -vE '^(loop|ram)' | tr '\n' ' ')"

attr() { tr -d '\000' <"/sys/block/$1/$2" 2>/dev/null | sed 's/ *$//'; }
role_of() {
	b=$1
	case $b in
	nvme*) [ "$(attr "$b" queue/zoned)" = none ] && echo nvme || echo zns ;;
	vd*) [ "$(attr "$b" serial)" = vol-labburst ] && echo burst || echo capped ;;
	nullb2 | nullb3) ;; # the M/D/1 server, the polled one: their own runs (below)
	nullb*) [ "$(attr "$b" queue/zoned)" = none ] && echo null || echo null_zoned ;;
	sd*)
		case "$(attr "$b" device/vendor)/$(attr "$b" queue/rotational)" in
		ATA/1) echo sata_hdd ;;
		ATA/0) echo sata_ssd ;;
		SEAGATE/*) echo scsi_hdd ;;
		SanDisk/*) echo usb ;;
		esac ;;
	esac
}

# The NVMe controllers get synchronous I/O only: qemu 7.2's NVMe emulation
# with io_uring in the guest lost commands in 8 of 16 boots of the reference
# probe (30 s timeout, abort, reset, then ~61 s per I/O); sync never did.
# Here LAB_NVME_ENGINE=uring (lab.sh's environment) ran quick, seqwrite and
# randread on both controllers with io_uring in 10 boots (6 with cache=none,
# 4 with qemu's default cache) and lost none, too few to call it gone.
engine_for() { case $1 in nvme*) echo "${LAB_NVME_ENGINE:-sync}" ;; *) echo auto ;; esac; }

for b in $(ls /sys/block | grep -vE '^(loop|ram)'); do
	role=$(role_of "$b")
	[ -n "$role" ] || continue
	dev=/dev/$b
	emit "@@@ role $role $b"
	run "$role.info" diskbench --json info "$dev"
	run "$role.lsblk" lsblk -J -b -d -o NAME,TRAN,VENDOR,MODEL,SERIAL,REV,ROTA,ZONED,ZONE-SZ,ZONE-NR,SIZE,TYPE "$dev"
	case $role in
	usb) run "$role.smartctl" smartctl -i -j -d scsi "$dev" ;; # qemu's USB bridge is in no table
	nvme | zns | sata_* | scsi_hdd) run "$role.smartctl" smartctl -i -A -H -j "$dev" ;;
	esac
	case $role in
	nvme | zns) run "$role.smartlog" nvme smart-log -o json "/dev/${b%n*}" ;;
	esac
	case $role in
	zns | null_zoned)
		# issue 31: nothing written yet, then writes at the write pointers
		# (random, then one sequential pass), reads below them, and what a
		# zoned disk cannot run; the zones as blkzone reports them between
		eng=$(engine_for "$b")
		qd=8
		[ "$eng" = sync ] && qd=1
		run "$role.blkzone" blkzone report -c 2 "$dev"
		run "$role.read_empty" diskbench --json randread --engine=$eng -t 1 -s 32M "$dev"
		run "$role.randwrite" diskbench --json randwrite --force --engine=$eng --qd $qd -b 64k -t 2 -s 32M "$dev"
		run "$role.refused_mix" diskbench --json randrw --force --engine=$eng -t 1 -s 32M "$dev"
		run "$role.refused_open" diskbench --json randwrite --force --engine=$eng --max-open-zones 64 -t 1 -s 32M "$dev"
		run "$role.blkzone_mid" blkzone report -c 4 "$dev"
		run "$role.seqwrite" diskbench --json seqwrite --force --engine=$eng --once -b 1M -s 32M "$dev"
		run "$role.blkzone_after" blkzone report -c 4 "$dev"
		run "$role.randread" diskbench --json randread --engine=$eng --max-open-zones 2 -t 1 -s 32M "$dev"
		run "$role.sweep" diskbench --json sweep --engine=$eng --levels 1,2 --point-time 0.2 -s 32M "$dev"
		run "$role.seqwrite_text" diskbench seqwrite --force --engine=$eng --once -b 1M -s 16M "$dev"
		# issue 44: sla's open loop of writes is refused before its closed-loop
		# probe writes or resets a zone; --engine=nop (no --force) prepares,
		# writes and resets none: the zones and the write counter as they were
		run "$role.blkzone_pre44" blkzone report -c 4 "$dev"
		run "$role.stat_pre44" cat "/sys/block/$b/stat"
		run "$role.sla_write" diskbench --json sla randwrite --force --engine=$eng --latency 10ms --step-time 0.2 -s 32M "$dev"
		run "$role.nop_write" diskbench --json seqwrite --engine=nop -t 0.5 -s 32M "$dev"
		run "$role.stat_post44" cat "/sys/block/$b/stat"
		run "$role.blkzone_post44" blkzone report -c 4 "$dev"
		run "$role.dmesg" dmesg
		;;
	esac
	# the burst volume's credits are kept for steady (below)
	[ "$role" = burst ] || run "$role.quick" diskbench --json quick --engine=$(engine_for "$b") -t 3 -s 32M "$dev"
done
# The burst volume: its credits spent in the first rounds, then steady at
# the base rate (issue 29)
bv=$(for b in $(ls /sys/block); do [ "$(role_of "$b")" = burst ] && echo "$b"; done)
[ -n "$bv" ] && run burst.steady diskbench --json steady randread --round 1 --window 3 --max-rounds 10 \
	-s 32M "/dev/$bv"
run nvme.list nvme list -o json

# What the disk says before and after a write: result.health against the
# peers read just before and just after the run.
for b in $(ls /sys/block); do
	role=$(role_of "$b")
	case $role in
	nvme)
		run health_before.$role nvme smart-log -o json "/dev/${b%n*}"
		run health_write.$role diskbench --json seqwrite --force --engine=$(engine_for "$b") -t 2 -s 16M "/dev/$b"
		run health_after.$role nvme smart-log -o json "/dev/${b%n*}"
		;;
	sata_hdd)
		run health_before.$role smartctl -A -j "/dev/$b"
		run health_write.$role diskbench --json seqwrite --force -t 2 -s 16M "/dev/$b"
		run health_after.$role smartctl -A -j "/dev/$b"
		;;
	zns) run health_read.$role diskbench --json randread --engine=$(engine_for "$b") -t 1 -s 16M "/dev/$b" ;;
	esac
done
# matrix on ext2 on the NVMe namespace: the health read around the whole
# command (a 4 MiB file laid out, written and rewritten in 1 MiB blocks),
# between nvme smart-log's readings
nv=$(for b in $(ls /sys/block); do [ "$(role_of "$b")" = nvme ] && echo "$b"; done)
if [ -n "$nv" ] && mke2fs -q "/dev/$nv" && mkdir -p /mnt && mount -t ext2 "/dev/$nv" /mnt; then
	run matrix_before.nvme nvme smart-log -o json "/dev/${nv%n*}"
	run matrix.nvme diskbench --json matrix --engine=sync --ops write,rewrite --file-sizes 4M \
		--block-sizes 1M /mnt
	run matrix_after.nvme nvme smart-log -o json "/dev/${nv%n*}"
	umount /mnt
else
	emit "@@@ note ext2 on the NVMe namespace failed"
fi
# the links as sysfs has them, for the host to hold info's against
run sysfs.links grep -H . /sys/bus/pci/devices/*/current_link_speed \
	/sys/bus/pci/devices/*/current_link_width /sys/class/ata_link/*/sata_spd \
	/sys/bus/usb/devices/*/speed /sys/bus/pci/devices/*/subsystem_vendor

# the stack from the filesystem down: ext2 on the SCSI HDD, mounted
hd=$(for b in $(ls /sys/block); do [ "$(role_of "$b")" = scsi_hdd ] && echo "$b"; done)
if [ -n "$hd" ] && mke2fs -q "/dev/$hd" && mkdir -p /mnt && mount -t ext2 "/dev/$hd" /mnt; then
	run fs.dev echo "$hd"
	run fs.info diskbench --json info /mnt
	umount /mnt
else
	emit "@@@ note ext2 on the SCSI HDD failed"
fi

# The capped volume at queue depth 1: 150 IOPS from qemu's token bucket, for
# 10 s (the rate-cap detector wants 8 intervals after the first)
vd=$(for b in $(ls /sys/block); do [ "$(role_of "$b")" = capped ] && echo "$b"; done)
run capped.randread diskbench --json randread -t 10 -s 32M /dev/$vd

# the kernel name (dm-N) of a device-mapper device
dm_of() { for d in /sys/block/dm-*; do [ "$(cat "$d/dm/name")" = "$1" ] && echo "${d##*/}"; done; }

# dm-delay: 20 ms added to every read and write of the plain nullb.
nb=$(for b in /sys/block/nullb*; do [ "$(cat $b/queue/zoned)" = none ] && echo ${b##*/}; done | head -1)
sz=$(cat /sys/block/$nb/size)
run null.randread diskbench --json randread -t 2 -s 16M /dev/$nb
if dmsetup --noudevsync create labdelay --table "0 $sz delay /dev/$nb 0 20"; then
	dm=$(dm_of labdelay)
	emit "@@@ role dm_delay $dm"
	run dm_delay.info diskbench --json info /dev/$dm
	run dm_delay.randread diskbench --json randread -t 3 -s 16M /dev/$dm
	dmsetup --noudevsync remove labdelay
else
	emit "@@@ note dmsetup create labdelay failed"
fi

# Open loop (issue 30).  M/D/1 on nullb2: Poisson arrivals at 5000 and 8000
# a second on a 100 us server, mean response 150 and 300 us.
if [ -e /dev/nullb2 ]; then
	run md1.5k diskbench --json randread --rate 5000 -t 2 -s 16M /dev/nullb2
	run md1.8k diskbench --json randread --rate 8000 -t 2 -s 16M /dev/nullb2
fi
# --poll where the device has poll queues, and where it has none
if [ -e /dev/nullb3 ]; then
	run poll.io_poll cat /sys/block/nullb3/queue/io_poll
	run poll.randread diskbench --json randread --engine=uring --poll --qd 8 -t 1 -s 16M /dev/nullb3
fi
run poll.refused_io_poll cat /sys/block/$vd/queue/io_poll
run poll.refused diskbench --json randread --engine=uring --poll --qd 8 -t 1 -s 16M /dev/$vd
# A stall: dm-linear over the plain nullb, suspended for 200 ms one second
# into a 3 s run at 2000 IOPS open loop (the I/Os due meanwhile all wait),
# and again under a closed loop of one in flight (one I/O waits).
if dmsetup --noudevsync create labstall --table "0 $sz linear /dev/$nb 0"; then
	dm=$(dm_of labstall)
	stall() { sleep 1; dmsetup --noudevsync suspend labstall; sleep 0.2; dmsetup --noudevsync resume labstall; }
	stall &
	run stall.open diskbench --json randread --rate 2000 -t 3 -s 16M /dev/$dm
	wait
	stall &
	run stall.closed diskbench --json randread -t 3 -s 16M /dev/$dm
	wait
	dmsetup --noudevsync remove labstall
else
	emit "@@@ note dmsetup create labstall failed"
fi

# dm-flakey over a dm-delay of 1 ms (so that the run outlasts the up
# interval on any machine): up for 1 s after the table loads, then every I/O
# fails for 60 s.
if dmsetup --noudevsync create labslow --table "0 $sz delay /dev/$nb 0 1" &&
	dmsetup --noudevsync create labflakey --table "0 $sz flakey /dev/$(dm_of labslow) 0 1 60"; then
	dm=$(dm_of labflakey)
	emit "@@@ role dm_flakey $dm"
	run dm_flakey.randread diskbench --json randread -t 5 -s 64M /dev/$dm
	dmsetup --noudevsync remove labflakey
	dmsetup --noudevsync remove labslow
else
	emit "@@@ note dmsetup create labflakey failed"
fi

# capacity (issue 42), run last: the plain nullb is free.  A device that claims
# 1 GiB and keeps 64 MiB (dm-linear mapping every 64 MiB of it onto the nullb,
# so writes wrap), one that keeps 48 MiB (no power of two; its text output),
# and the nullb itself, which holds all it claims; the nullb's bytes before
# and after the three; then f3probe (--destructive) on the nullb and on the
# 64 MiB wrap.
wrap_table() { # wrap_table CLAIMED_SECTORS KEPT_SECTORS
	i=0
	while [ $i -lt $1 ]; do
		n=$2
		[ $(($1 - i)) -lt $n ] && n=$(($1 - i))
		echo "$i $n linear /dev/$nb 0"
		i=$((i + $2))
	done
}
cap="capacity --force --journal /tmp/capacity.undo"
run capacity.sum_before md5sum /dev/$nb
run capacity.honest diskbench --json $cap /dev/$nb
for kept in 131072 98304; do
	wrap_table 2097152 $kept | dmsetup --noudevsync create labwrap$kept ||
		emit "@@@ note dmsetup create labwrap$kept failed"
done
w64=$(dm_of labwrap131072)
w48=$(dm_of labwrap98304)
[ -n "$w64" ] && run capacity.wrap131072 diskbench --json $cap /dev/$w64
[ -n "$w48" ] && run capacity.wrap98304 diskbench $cap /dev/$w48
run capacity.sum_after md5sum /dev/$nb
run capacity.f3probe_honest f3probe --destructive --reset-type=2 /dev/$nb
[ -n "$w64" ] && run capacity.f3probe131072 f3probe --destructive --reset-type=2 /dev/$w64
# seqwrite --verify over the 1 GiB the 64 MiB wrap claims (misplaced blocks),
# then over the nullb, which holds all it claims (no false alarm); -t 300: the
# whole of it, however slow TCG writes (1 GiB took about 40 s)
[ -n "$w64" ] && run verify.wrap131072 diskbench --json seqwrite --verify --force --once -t 300 -b 1M -s 1G /dev/$w64
dmsetup --noudevsync remove labwrap131072
dmsetup --noudevsync remove labwrap98304
run verify.nullb diskbench --json seqwrite --verify --force --once -t 300 -b 1M -s 64M /dev/$nb

emit "@@@ done"
sync
poweroff -f
