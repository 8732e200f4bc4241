#!/bin/busybox sh
# /powercut of the lab's initramfs (rdinit=/powercut; tests/lab/lab.sh's
# power-cut boots, issue 42).  One virtio disk (serial lab-powercut) behind
# qemu's cache=none; in every boot after the first, a second one holding
# the witness the last boot streamed (serial lab-witness).  LAB_CUT on the
# kernel's command line says which boot this is:
#   1, 2   verify the last cut (from 2 on), then write with --verify and a
#          witness on the third serial port until the host kills qemu with
#          SIGKILL: a power cut, as far as the guest can tell
#   3      verify the last cut, then the lying disk (dm-flakey drop_writes:
#          writes acknowledged and dropped after its first second) and the
#          corrupting one (dm-flakey corrupt_bio_byte on a write of one
#          block), after an honest run, then power off
# Every command's output goes, framed, to the second serial port as in
# guest.sh; tests/lab/check_verify.py judges it against what the host read
# from the disk's image itself.
. /lib/lab-common.sh

for ko in $(cat /modules.order); do
	case $ko in
	*virtio_scsi*) ;;
	*virtio* | */dm-mod.ko | */dm-flakey.ko) insmod /lib/modules/$ko 2>/dev/null ||
		emit "@@@ note powercut: insmod $ko failed" ;;
	esac
done
for i in $(seq 1 100); do
	[ "$(ls /sys/block | grep -c '^vd')" -ge 1 ] && break
	sleep 0.1
done
disk() { for b in /sys/block/vd*; do [ "$(cat "$b/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${b##*/}"; done; }
# the node of a device-mapper device (no udev here: /dev/dm-N, not /dev/mapper)
dm_of() { for d in /sys/block/dm-*; do [ "$(cat "$d/dm/name")" = "$1" ] && echo "/dev/${d##*/}"; done; }
pc=$(disk lab-powercut)
wd=$(disk lab-witness)
cut=${LAB_CUT:-1}
emit "@@@ note powercut: boot $cut, disk $pc, witness ${wd:-none}"
prev=$((cut - 1))
[ -n "$wd" ] && run "cut$prev.verify" diskbench --json verify --witness "$wd" "$pc"

exec 4>/dev/ttyS2 # held open, so that its raw mode stays for diskbench's own open
stty -F /dev/ttyS2 raw -echo 2>/dev/null
case $cut in
1)
	# sequential 64 KiB O_DSYNC writes, one in flight
	emit "@@@ note powercut: writing until the cut"
	diskbench --quiet seqwrite --verify --witness /dev/ttyS2 --force --engine=sync -b 64k -s 16M \
		-t 600 "$pc" >/dev/null 2>&1
	;;
2)
	# random 4 KiB O_DSYNC writes, two threads of four in flight
	emit "@@@ note powercut: writing until the cut"
	diskbench --quiet randwrite --verify --witness /dev/ttyS2 --force -j 2 --qd 4 -b 4k -s 16M \
		-t 600 "$pc" >/dev/null 2>&1
	;;
*)
	# The lying disk: 16 x 1 MiB blocks written again and again, O_DSYNC, the
	# witness in a file; dm-flakey passes the first second's writes, then
	# acknowledges every write without making it.  --verify reads back
	# through it (reads pass), then verify --witness reads the disk itself.
	sz=$(cat /sys/block/${pc#/dev/}/size)
	if dmsetup --noudevsync create pcliar --table "0 32768 flakey $pc 0 1 60 1 drop_writes"; then
		run lying.write diskbench --json seqwrite --verify --witness /tmp/lying.w --force \
			--engine=sync -b 1M -s 16M -t 2 $(dm_of pcliar)
		dmsetup --noudevsync remove pcliar
		run lying.verify diskbench --json verify --witness /tmp/lying.w "$pc"
		run lying.witness cat /tmp/lying.w
	else
		emit "@@@ note powercut: dmsetup create pcliar failed"
	fi
	# The corrupting disk: [32 MiB, 48 MiB) of the disk written and verified
	# honestly, then its block 5 (at 5 MiB) written again through dm-flakey
	# set to make byte 49 of every write 255 (a reserved zero of the header:
	# the header stays, its CRC fails), and read back by verify.  (6.1's
	# dm-flakey corrupts no read: its end_io sees the bio already consumed.)
	if dmsetup --noudevsync create pchonest --table "0 32768 linear $pc 65536"; then
		hn=$(dm_of pchonest)
		run honest.write diskbench --json seqwrite --verify --force --once -b 1M -s 16M "$hn"
		run honest.verify diskbench --json verify "$hn"
		if printf '0 10240 linear %s 65536\n10240 2048 flakey %s 75776 0 60 5 corrupt_bio_byte 49 w 255 0\n12288 20480 linear %s 77824\n' \
			"$pc" "$pc" "$pc" | dmsetup --noudevsync create pccorrupt; then
			dd if="$hn" of="$(dm_of pccorrupt)" bs=1M skip=5 seek=5 count=1 iflag=direct oflag=direct 2>/dev/null ||
				emit "@@@ note powercut: dd through pccorrupt failed"
			dmsetup --noudevsync remove pccorrupt
			run corrupt.verify diskbench --json verify "$hn"
		else
			emit "@@@ note powercut: dmsetup create pccorrupt failed"
		fi
		dmsetup --noudevsync remove pchonest
	else
		emit "@@@ note powercut: dmsetup create pchonest failed"
	fi
	run powercut.done true
	sync
	poweroff -f
	;;
esac
# the write ran to its -t without the cut: say so, and stay up for the kill
emit "@@@ note powercut: boot $cut's write ended before the cut"
sleep 600
