/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bitstreams for the simulated card (include/uapi/linux/fpga-sim.h) and
 * DFL_FPGA_FME_PORT_PR, for the selftests.
 */
#ifndef _FPGA_SELFTEST_PR_UTIL_H
#define _FPGA_SELFTEST_PR_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fpga-dfl.h>
#include <linux/fpga-sim.h>

#define NLB0_ID		"d8424dc4-a4a3-c413-f89e-433683f9040b"

/*
 * CRC-32 as zlib computes it, bit by bit: the tests' image carries no
 * zlib, and speed does not matter for a few KiB
 */
static inline uint32_t pr_crc32(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0u;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* "xxxxxxxx-xxxx-..." into 16 bytes in text order; 0 or -EINVAL */
static inline int pr_uuid(const char *s, uint8_t out[16])
{
	unsigned int i = 0, v;

	for (; *s && i < 16; s++) {
		if (*s == '-')
			continue;
		if (sscanf(s, "%2x", &v) != 1)
			return -EINVAL;
		out[i++] = v;
		s++;
	}
	return i == 16 && !*s ? 0 : -EINVAL;
}

static inline void pr_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * A bitstream for AFU @afu and interface @intf with @payload bytes of
 * parameters; malloc()ed, its size in *@len.  The CRC is right: tests
 * that want it wrong change a byte after.
 */
static inline uint8_t *pr_bitstream(const char *afu, const char *intf,
				    size_t payload, size_t *len)
{
	struct fpga_sim_bitstream *h;
	uint8_t *b;

	*len = sizeof(*h) + payload + 4;
	b = calloc(1, *len);
	if (!b)
		return NULL;
	h = (struct fpga_sim_bitstream *)b;
	memcpy(h->magic, FPGA_SIM_BS_MAGIC, sizeof(h->magic));
	pr_put_le32((uint8_t *)&h->hdr_size, sizeof(*h));
	pr_put_le32((uint8_t *)&h->total_size, *len);
	if (pr_uuid(intf, h->interface_id) || pr_uuid(afu, h->afu_id)) {
		free(b);
		return NULL;
	}
	memset(b + sizeof(*h), 0x5a, payload);
	pr_put_le32(b + *len - 4, pr_crc32(b, *len - 4));
	return b;
}

/* DFL_FPGA_FME_PORT_PR of @len bytes at @buf into port @port: 0 or -errno */
static inline int pr_program(int fme_fd, unsigned int port, const void *buf,
			     size_t len)
{
	struct dfl_fpga_fme_port_pr pr = {
		.argsz = sizeof(pr), .port_id = port,
		.buffer_size = len, .buffer_address = (uintptr_t)buf,
	};

	return ioctl(fme_fd, DFL_FPGA_FME_PORT_PR, &pr) ? -errno : 0;
}

/* Where netlink's PORT_PROGRAM finds its files (request_firmware) */
#define PR_FIRMWARE_DIR	"/lib/firmware"

/* Write @len bytes to PR_FIRMWARE_DIR/@name: 0 or -errno */
static inline int pr_firmware_write(const char *name, const void *buf,
				    size_t len)
{
	char path[256];
	FILE *f;
	size_t n;

	mkdir(PR_FIRMWARE_DIR, 0755);
	snprintf(path, sizeof(path), PR_FIRMWARE_DIR "/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	n = fwrite(buf, 1, len, f);
	return fclose(f) || n != len ? -EIO : 0;
}

#endif /* _FPGA_SELFTEST_PR_UTIL_H */
