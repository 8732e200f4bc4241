#!/usr/bin/env bash
# make check-lab: diskbench on every kind of disk, driven by a real kernel.
#
# Boots Debian's own kernel in qemu-system-x86_64 (KVM where /dev/kvm opens,
# else TCG) with a busybox initramfs holding the static diskbench, the guest
# script (tests/lab/guest.sh) and the peer tools (lsblk, blkzone, smartctl,
# nvme, dmsetup, f3probe) with their libraries, and with these disks at once:
#   NVMe behind a PCIe root port, an NVMe zoned namespace, a 7200 rpm SATA
#   HDD and a SATA SSD on AHCI, a SCSI HDD on virtio-scsi, USB mass storage
#   on xHCI, a virtio volume capped by qemu's throttling at 150 IOPS, one with
#   burst credits (1000 IOPS for about 2 s, then 100: steady finds the drop); in the
#   guest null_blk (plain and zoned), dm-delay, dm-flakey and dm-linear tables that
#   claim more than they keep (capacity).
# The guest writes each command's output, framed, to its second serial port,
# a file here; tests/lab/check.py holds it against the peers and what the
# command line below set up, and prints TAP and 'N passed, N failed'.
# Then three short boots on one virtio disk behind cache=none (issue 42,
# tests/lab/guest-powercut.sh): two power cuts (qemu killed with SIGKILL while
# the guest writes with --verify and a witness on its third serial port, each
# cut verified by the next boot against that witness and by
# tests/lab/witness_truth.py against the image itself), a lying disk and a
# corrupting one (dm-flakey).
#
# usage: tests/lab/lab.sh ./diskbench-static
# env:   LAB_CACHE  kernel and tools kept between runs (default build/lab)
#        LAB_KEEP=1 keep the guest's output (in LAB_CACHE/last/)
#        LAB_ACCEL=kvm  (default tcg), LAB_NVME_ENGINE=uring (default sync, see guest.sh)
#        LAB_POWERCUT_ONLY=1  the power-cut boots alone, checked by check_verify.py
#        LAB_CUT_LINES  writes the witness lists before each cut (default 100)
#        for another guest job on the same machine (bench/perf-lab.sh):
#        LAB_GUEST  its /init (default tests/lab/guest.sh), LAB_ADD  static programs
#        for its /usr/bin, LAB_GUEST_ENV  KEY=VALUE words for its environment (on the
#        kernel's command line), LAB_CHECK  what reads results.log (default check.py)
# Without qemu, busybox-static, cpio, kmod or python3 it skips with the reason.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${1:?usage: lab.sh DISKBENCH_STATIC}
cache=${LAB_CACHE:-build/lab}
t_start=$(date +%s)

skip() {
	echo "lab: skipped: $*"
	exit 0
}

need_tools() {
	command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
	if [[ ! -x /bin/busybox ]] || ldd /bin/busybox >/dev/null 2>&1; then
		skip "no static /bin/busybox (apt-get install busybox-static)"
	fi
	command -v cpio >/dev/null || skip "cpio is not installed"
	command -v depmod >/dev/null && command -v modprobe >/dev/null || skip "kmod (depmod, modprobe) is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	command -v dpkg-deb >/dev/null && command -v apt-get >/dev/null || skip "no dpkg-deb/apt-get to fetch Debian's kernel"
	[[ -x $bin ]] || { echo "lab: $bin: no such binary (make static)" >&2; exit 1; }
	require_static "$bin" " (make static)"
}

# require_static FILE [HINT]: the guest has no libraries of its own for it
require_static() {
	if ldd "$1" >/dev/null 2>&1; then
		echo "lab: $1 is not static${2:-}" >&2
		exit 1
	fi
}

# What of the kernel package the lab uses: the kernel, the drivers, and the
# modules they need (crc-t10dif's crypto, ext4 for the filesystem step).
KPARTS=('./boot/vmlinuz-*' './lib/modules/*/modules.*' './lib/modules/*/kernel/drivers/*'
	'./lib/modules/*/kernel/lib/*' './lib/modules/*/kernel/block/*' './lib/modules/*/kernel/crypto/*'
	'./lib/modules/*/kernel/arch/*' './lib/modules/*/kernel/fs/configfs/*' './lib/modules/*/kernel/fs/ext4/*'
	'./lib/modules/*/kernel/fs/jbd2/*' './lib/modules/*/kernel/fs/mbcache.ko')

# Debian's generic kernel (the cloud one has no AHCI and no USB), unpacked
# with only the parts the lab loads, and modules.dep made for it.
fetch_kernel() {
	kv=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
	kv=${kv#linux-image-}
	[[ -n $kv ]] || skip "apt-cache knows no linux-image-amd64 (run apt-get update)"
	kdir=$(cd "$cache" && pwd)/kernel-$kv
	# unpacked again when the parts wanted change
	[[ -f $kdir/boot/vmlinuz-$kv && $(cat "$kdir/.parts" 2>/dev/null) == "${KPARTS[*]}" ]] && return
	mkdir -p "$cache/debs"
	compgen -G "$cache/debs/linux-image-${kv}_*.deb" >/dev/null ||
		(cd "$cache/debs" && apt-get download -q "linux-image-$kv" >/dev/null 2>&1) ||
		skip "apt-get download linux-image-$kv failed (no package mirror?)"
	rm -rf "$kdir" && mkdir -p "$kdir"
	dpkg-deb --fsys-tarfile "$cache"/debs/linux-image-"${kv}"_*.deb | tar -x -C "$kdir" --wildcards "${KPARTS[@]}"
	echo "${KPARTS[*]}" >"$kdir/.parts"
	depmod -b "$kdir" "$kv" # the .deb ships no modules.dep
}

# Modules in load order, dependencies first (kmod resolves them against the
# unpacked tree); the guest loads them with busybox insmod.
MODULES="crct10dif_generic nvme ahci sd_mod sg virtio_pci virtio_blk virtio_scsi xhci_pci usb_storage configfs null_blk dm_mod dm_delay dm_flakey ext4"

copy_modules() {
	local root=$1 m ko
	: >"$root/modules.order"
	for m in $MODULES; do
		modprobe -d "$kdir" -S "$kv" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
	done | awk '!seen[$0]++' | while read -r ko; do
		rel=${ko#"$kdir"/lib/modules/"$kv"/}
		mkdir -p "$root/lib/modules/$(dirname "$rel")"
		cp "$ko" "$root/lib/modules/$rel"
		echo "$rel" >>"$root/modules.order"
	done
}

# A dynamic tool with every library it loads (ldd on this host).
copy_tool() {
	local root=$1 tool lib
	tool=$(command -v "$2") || return 0
	cp -L "$tool" "$root/usr/bin/"
	ldd "$tool" | awk '/=> \//{print $3} /^\t\/lib/{print $1}' | while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -Ln "$lib" "$root$lib"
	done
}

build_initramfs() {
	local root=$work/root
	mkdir -p "$root"/{bin,usr/bin,proc,sys,dev,tmp,lib64,run}
	cp /bin/busybox "$root/bin/busybox"
	cp "$bin" "$root/usr/bin/diskbench"
	cp "${LAB_GUEST:-$here/guest.sh}" "$root/init"
	cp "$here/guest-powercut.sh" "$root/powercut"
	chmod 755 "$root/init" "$root/powercut"
	mkdir -p "$root/lib"
	cp "$here/guest-common.sh" "$root/lib/lab-common.sh"
	local add
	for add in ${LAB_ADD:-}; do
		require_static "$add"
		cp "$add" "$root/usr/bin/"
	done
	copy_modules "$root"
	for t in lsblk blkzone smartctl nvme dmsetup f3probe; do
		copy_tool "$root" "$t"
	done
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
}

# The disks: each backing image a sparse temp file of 64 MiB.
run_guest() {
	local img=$work/img accel
	mkdir -p "$img"
	for d in nvme zns sata_hdd sata_ssd scsi_hdd usb capped burst; do
		truncate -s 64M "$img/$d.img"
	done
	# TCG unless asked: on this kind of machine /dev/kvm opens but a nested
	# guest hangs before its first console line
	accel=${LAB_ACCEL:-tcg}
	# cache=none: the guest's writes reach the image file, not the host's
	# page cache only (LAB_DRIVE_OPTS overrides, "" for qemu's default)
	local D="-drive if=none,format=raw${LAB_DRIVE_OPTS-,cache=none,aio=threads}"
	# shellcheck disable=SC2086 # $D and $accel are lists of words
	local args=(-M q35 -accel $accel -cpu max -smp 1 -m 768M -display none -monitor none -no-reboot -nic none
		-kernel "$kdir/boot/vmlinuz-$kv" -initrd "$work/initrd.gz"
		-append "console=ttyS0 ${LAB_KAPPEND:-quiet loglevel=3} panic=-1 LAB_ACCEL=${accel%% *} LAB_NVME_ENGINE=${LAB_NVME_ENGINE:-sync} ${LAB_GUEST_ENV:-}"
		-serial "file:$work/console.log"
		-chardev "file,id=results,path=$work/results.log" -device isa-serial,chardev=results
		# NVMe behind a PCIe root port: the link speed and width show in sysfs
		-device pcie-root-port,id=rp1,chassis=1,slot=1
		$D,file="$img/nvme.img",id=nvme -device nvme,bus=rp1,serial=LABNVME0001,drive=nvme
		# a zoned namespace on a second controller, which also carries the
		# injected SMART critical warning (4: reliability degraded)
		-device nvme,id=nvmez,serial=LABZNS0001,smart_critical_warning=4
		$D,file="$img/zns.img",id=zns
		-device nvme-ns,bus=nvmez,drive=zns,nsid=1,zoned=true,zoned.zone_size=8M,zoned.zone_capacity=8M
		# q35's AHCI: a 7200 rpm HDD and an SSD (rotation_rate=1)
		$D,file="$img/sata_hdd.img",id=sh
		-device "ide-hd,bus=ide.0,drive=sh,model=WDC WD40EFRX-68N32N0,serial=WD-WCC7K0LAB001,rotation_rate=7200"
		$D,file="$img/sata_ssd.img",id=ss
		-device "ide-hd,bus=ide.1,drive=ss,model=Samsung SSD 860 EVO 250GB,serial=S3YJNB0KLAB002,rotation_rate=1"
		# a SCSI HDD on virtio-scsi
		-device virtio-scsi-pci,id=scsi0 $D,file="$img/scsi_hdd.img",id=hd
		-device scsi-hd,bus=scsi0.0,drive=hd,vendor=SEAGATE,product=ST4000NM0035,serial=ZC1LAB03,rotation_rate=7200
		# USB mass storage (bulk-only transport) on xHCI, its LUN named
		-device qemu-xhci,id=xhci -device usb-bot,id=ubot,bus=xhci.0,serial=USB0001 $D,file="$img/usb.img",id=ub
		-device "scsi-hd,bus=ubot.0,scsi-id=0,lun=0,drive=ub,vendor=SanDisk,product=Extreme SSD,serial=LABUSB04,rotation_rate=1"
		# a cloud volume capped by qemu's token bucket at 150 IOPS
		$D,file="$img/capped.img",id=cap,throttling.iops-total=150
		-device virtio-blk-pci,drive=cap,serial=vol-lab0150
		# a volume with burst credits, as a cloud volume's or an SSD's SLC
		# cache: 1000 IOPS for about 2 s, then 100 (steady finds the figure after)
		$D,file="$img/burst.img",id=burst,throttling.iops-total=100,throttling.iops-total-max=1000,throttling.iops-total-max-length=2
		-device virtio-blk-pci,drive=burst,serial=vol-labburst)
	touch "$work/results.log"
	local rc=0 t0
	t0=$(date +%s)
	timeout "${LAB_TIMEOUT:-600}" qemu-system-x86_64 "${args[@]}" </dev/null >"$work/qemu.out" 2>&1 || rc=$?
	echo "# lab: guest ran $(($(date +%s) - t0)) s (accel ${accel%% *}, qemu exit $rc)"
	if [[ $rc -ne 0 ]]; then
		echo "# lab: qemu failed; its output and the console's tail:"
		sed 's/^/#   /' "$work/qemu.out" | tail -20
		tr -d '\r' <"$work/console.log" | sed 's/^/#   /' | tail -30
	fi
}

# Power cuts (issue 42): boots 1 and 2 write with --verify and stream the
# witness to the third serial port (a file here) until it lists CUT_LINES
# writes, when qemu is killed with SIGKILL; boot 3 only verifies the last cut
# and runs the lying and corrupting disks to its end.  Each boot after the
# first gets the last boot's witness as a read-only disk.  Right after each
# boot the image is read here (witness_truth.py) and the truth framed into
# the results as cutN.truth, lying.truth.
CUT_LINES=${LAB_CUT_LINES:-100}
frame() { # NAME FILE: a run's output as guest-common.sh's run frames it
	printf '@@@ begin %s rc=0\n' "$1"
	cat "$2"
	printf '@@@ stderr %s\n@@@ end %s\n' "$1" "$1"
}

powercut_boot() {
	local n=$1 pc=$work/pc pid t0 wimg=$work/pc/witness$(($1 - 1)).img
	# shellcheck disable=SC2086 # $accel is a list of words
	local args=(-M q35 -accel $accel -cpu max -smp 1 -m 256M -display none -monitor none -no-reboot
		-nic none -kernel "$kdir/boot/vmlinuz-$kv" -initrd "$work/initrd.gz"
		-append "console=ttyS0 quiet loglevel=3 panic=-1 rdinit=/powercut LAB_CUT=$n"
		-serial "file:$pc/console$n.log"
		-chardev "file,id=results,path=$pc/results$n.log" -device isa-serial,chardev=results
		-chardev "file,id=witness,path=$pc/witness$n.log" -device isa-serial,chardev=witness
		-drive "if=none,format=raw,cache=none,aio=threads,file=$pc/disk.img,id=pc"
		-device virtio-blk-pci,drive=pc,serial=lab-powercut)
	[[ -f $wimg ]] && args+=(-drive "if=none,format=raw,readonly=on,file=$wimg,id=w"
		-device virtio-blk-pci,drive=w,serial=lab-witness)
	: >"$pc/witness$n.log"
	t0=$(date +%s)
	qemu-system-x86_64 "${args[@]}" </dev/null >"$pc/qemu$n.out" 2>&1 &
	pid=$!
	if [[ $n -lt 3 ]]; then
		while kill -0 "$pid" 2>/dev/null && [[ $(grep -c '^w ' "$pc/witness$n.log") -lt $CUT_LINES &&
			$(($(date +%s) - t0)) -lt ${LAB_TIMEOUT:-600} ]]; do
			sleep 0.2
		done
		kill -KILL "$pid" 2>/dev/null # the power cut
	fi
	{ wait "$pid"; } 2>/dev/null || true # the shell would say "Killed"
	echo "# lab: power-cut boot $n ran $(($(date +%s) - t0)) s, its witness $(grep -c '^w ' "$pc/witness$n.log") writes"
	cp "$pc/witness$n.log" "$pc/witness$n.img"
	truncate -s %512 "$pc/witness$n.img" # whole sectors for a disk; the zeros end it
	[[ -s $pc/witness$n.img ]] || truncate -s 512 "$pc/witness$n.img"
	cat "$pc/results$n.log" >>"$work/results.log"
	if [[ $n -lt 3 ]]; then
		python3 "$here/witness_truth.py" "$pc/disk.img" "$pc/witness$n.log" >"$pc/truth$n.json"
		frame "cut$n.truth" "$pc/truth$n.json" >>"$work/results.log"
	else
		sed -n '/^@@@ begin lying.witness /,/^@@@ stderr lying.witness/{/^@@@/d;p}' "$pc/results$n.log" |
			tr -d '\r' >"$pc/lying.w"
		python3 "$here/witness_truth.py" "$pc/disk.img" "$pc/lying.w" >"$pc/truth$n.json"
		frame lying.truth "$pc/truth$n.json" >>"$work/results.log"
		# the corrupted byte, as the image holds it: 32 MiB + 5 MiB + 48
		od -A n -t u1 -j $(((32 + 5) * 1048576 + 48)) -N 1 "$pc/disk.img" | tr -d ' ' >"$pc/byte"
		frame corrupt.truth "$pc/byte" >>"$work/results.log"
	fi
}

run_powercut() {
	mkdir -p "$work/pc"
	truncate -s 64M "$work/pc/disk.img"
	accel=${LAB_ACCEL:-tcg}
	local n
	for n in 1 2 3; do
		powercut_boot "$n"
	done
}

need_tools
mkdir -p "$cache"
fetch_kernel
work=$(mktemp -d "${TMPDIR:-/var/tmp}/diskbench-lab.XXXXXX")
trap 'rm -rf "$work"' EXIT
build_initramfs
[[ ${LAB_POWERCUT_ONLY:-} == 1 ]] || run_guest
[[ -n ${LAB_GUEST:-} ]] || run_powercut # another guest job has its own disks
status=0
if [[ ${LAB_POWERCUT_ONLY:-} == 1 ]]; then
	python3 "$here/check_verify.py" "$work/results.log" || status=$?
else
	python3 "${LAB_CHECK:-$here/check.py}" "$work/results.log" || status=$?
fi
if [[ ${LAB_KEEP:-} == 1 ]]; then
	rm -rf "$cache/last" && mkdir -p "$cache/last"
	cp "$work/results.log" "$cache/last/"
	[[ -f $work/console.log ]] && cp "$work/console.log" "$cache/last/"
	[[ -d $work/pc ]] && { cp "$work/pc/"*.log "$work/pc/"*.json "$cache/last/" 2>/dev/null || true; }
fi
if [[ $status -ne 0 && -f $work/console.log ]]; then
	echo "# lab: the guest console's tail:"
	tr -d '\r' <"$work/console.log" | sed 's/^/#   /' | tail -40
fi
echo "# lab: whole run $(($(date +%s) - t_start)) s"
exit $status
