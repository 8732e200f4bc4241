/* The commands that ask a disk about its health, sent to an open disk:
 * NVMe Get Log Page through NVME_IOCTL_ADMIN_CMD (CAP_SYS_ADMIN), ATA SMART
 * through SG_IO and ATA PASS-THROUGH (16) (CAP_SYS_RAWIO), SCSI LOG SENSE
 * through SG_IO.  Each returns 0, or -1 with errno; a command the device
 * completed with an error status is EIO.  Nothing here decodes:
 * devinfo_health.c does, and devinfo_health_read.c picks the commands. */
#define _GNU_SOURCE
#include "platform.h"

#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#define NVME_NSID_ALL 0xffffffffu /* the controller-wide log */

enum {
	NVME_ADMIN_GET_LOG_PAGE = 0x02,
	HEALTH_TIMEOUT_MS = 5000,
	ATA_PASS_THROUGH_16 = 0x85,
	ATA_SMART = 0xb0,
	SCSI_LOG_SENSE = 0x4d,
};

int plat_nvme_log(int fd, uint8_t log_id, uint8_t *buf, size_t len)
{
	struct nvme_admin_cmd cmd;
	uint32_t dwords = (uint32_t)(len / 4) - 1; /* NUMD counts from 0 */
	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, len);
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = NVME_NSID_ALL;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = (uint32_t)len;
	cmd.cdw10 = (dwords & 0xffff) << 16 | log_id;
	cmd.cdw11 = dwords >> 16;
	cmd.timeout_ms = HEALTH_TIMEOUT_MS;
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (rc > 0) /* the controller's status: no such log, invalid field */
		errno = EIO;
	return rc == 0 ? 0 : -1;
}

/* One SG_IO command reading len bytes into buf; EIO unless it completed
 * with good status and the whole transfer. */
static int sg_read(int fd, uint8_t *cdb, unsigned cdb_len, uint8_t *buf, size_t len)
{
	uint8_t sense[32];
	sg_io_hdr_t io;
	memset(&io, 0, sizeof(io));
	memset(buf, 0, len);
	io.interface_id = 'S';
	io.cmd_len = (unsigned char)cdb_len;
	io.cmdp = cdb;
	io.dxfer_direction = SG_DXFER_FROM_DEV;
	io.dxferp = buf;
	io.dxfer_len = (unsigned)len;
	io.sbp = sense;
	io.mx_sb_len = sizeof(sense);
	io.timeout = HEALTH_TIMEOUT_MS;
	if (ioctl(fd, SG_IO, &io) != 0)
		return -1;
	if ((io.info & SG_INFO_OK_MASK) != SG_INFO_OK || io.status || io.host_status ||
	    io.driver_status) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int plat_ata_smart(int fd, uint8_t feature, uint8_t buf[512])
{
	uint8_t cdb[16] = { 0 };
	cdb[0] = ATA_PASS_THROUGH_16;
	cdb[1] = 4 << 1;  /* protocol: PIO data-in */
	cdb[2] = 0x0e;    /* from the device, length in sectors, in the count field */
	cdb[4] = feature; /* D0h READ DATA, D1h READ THRESHOLDS */
	cdb[6] = 1;       /* one sector */
	cdb[10] = 0x4f;   /* LBA mid and high: SMART's signature */
	cdb[12] = 0xc2;
	cdb[14] = ATA_SMART;
	return sg_read(fd, cdb, sizeof(cdb), buf, 512);
}

int plat_scsi_log_sense(int fd, uint8_t page, uint8_t *buf, size_t len)
{
	uint8_t cdb[10] = { 0 };
	cdb[0] = SCSI_LOG_SENSE;
	cdb[2] = 0x40 | (page & 0x3f); /* cumulative values */
	cdb[7] = (uint8_t)(len >> 8);
	cdb[8] = (uint8_t)len;
	return sg_read(fd, cdb, sizeof(cdb), buf, len);
}
