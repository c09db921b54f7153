/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The bitstream format of the simulated card (fpga_sim).
 *
 * A real card's partial reconfiguration engine takes a vendor's raw
 * bitstream; the simulated card's engine takes this one.  It is what
 * DFL_FPGA_FME_PORT_PR hands to the card: in a GBS file it is the payload
 * after the GBS header and its JSON metadata, which OPAE's fpgaconf and
 * "fpgactl pr" strip before the ioctl (Documentation/pr.md).
 *
 * Layout, all integers little-endian:
 *	struct fpga_sim_bitstream	the header
 *	payload				model parameters (may be empty)
 *	__le32 crc			CRC-32 (as zlib's crc32()) of all
 *					bytes before it
 * @total_size covers all three and is a multiple of 4.
 *
 * The card refuses, and keeps the AFU it has: a bad magic, size or CRC
 * (PR CRC error), another @interface_id than its own (incompatible
 * bitstream), an @afu_id it has no model for or a nonzero @flags or
 * @reserved (PR operation error).
 */
#ifndef _UAPI_LINUX_FPGA_SIM_H
#define _UAPI_LINUX_FPGA_SIM_H

#include <linux/types.h>

#define FPGA_SIM_BS_MAGIC	"FSIM_BS1"
#define FPGA_SIM_BS_MAX_SIZE	(1u << 20)

/**
 * struct fpga_sim_bitstream - header of a simulated card's bitstream
 * @magic:	FPGA_SIM_BS_MAGIC, without its NUL
 * @hdr_size:	sizeof(struct fpga_sim_bitstream)
 * @total_size:	header, payload and CRC, a multiple of 4, at most
 *		FPGA_SIM_BS_MAX_SIZE
 * @interface_id: the PR interface id (the FME region's compat_id) the
 *		bitstream was built for, as 16 bytes in the order of its
 *		text form
 * @afu_id:	the AFU's GUID (the AFU header's, afu_id in sysfs), the same
 *		byte order; it selects the model the card runs
 * @flags:	must be 0
 * @reserved:	must be 0
 */
struct fpga_sim_bitstream {
	__u8 magic[8];
	__le32 hdr_size;
	__le32 total_size;
	__u8 interface_id[16];
	__u8 afu_id[16];
	__le32 flags;
	__u8 reserved[12];
};

/* The PR interface id every simulated card has unless set otherwise */
#define FPGA_SIM_INTERFACE_ID	"b2d602a3-7779-44af-a0e4-4ea57c9c6a0e"

#endif /* _UAPI_LINUX_FPGA_SIM_H */
