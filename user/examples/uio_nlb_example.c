// SPDX-License-Identifier: MIT
/*
 * uio_nlb_example: a complete user-space driver for the NLB0 loopback AFU,
 * in the style of ixy: no library, only the UIO device that uio_fpga makes
 * of a port, read top to bottom.
 *
 *   modprobe uio_fpga
 *   fpgactl bind 0 uio                  # or: echo uio_fpga > driver_override ...
 *   uio_nlb_example uio0 [BYTES]
 *
 * What a driver for your own AFU needs is all here:
 *   1. find the UIO device and its maps in sysfs (/sys/class/uio/uioX)
 *   2. mmap the AFU registers (map0) and the kernel's DMA buffers (map2..)
 *   3. reset the port through sysfs (the kernel does the handshake)
 *   4. program the AFU with device addresses (maps/mapN/addr)
 *   5. sleep until the completion interrupt: write 1 to re-enable, read()
 *   6. check the result
 *
 * Exit status 0 when the copy is verified.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The maps uio_fpga exports, by index (the mmap offset is index * page) */
#define MAP_AFU		0	/* AFU MMIO */
#define MAP_HDR		1	/* port header, read-only */
#define MAP_DSM		2	/* DMA buffer dma0: status memory */
#define MAP_SRC		3	/* dma1: what the AFU reads */
#define MAP_DST		4	/* dma2: where it writes */

/*
 * NLB0 registers (OPAE hello_fpga), offsets in the AFU map.  Written out
 * here so that this file builds alone; the suite's build checks each of
 * them against its own header (user/include/fpga/nlb0.h).
 */
#define NLB_DSM_BASEL	0x110	/* status memory, device address in bytes */
#define NLB_SRC_ADDR	0x120	/* source, device address / 64 */
#define NLB_DST_ADDR	0x128	/* destination, device address / 64 */
#define NLB_NUM_LINES	0x130	/* 64-byte lines to copy */
#define NLB_CTL		0x138	/* 0 holds the AFU in reset */
#define NLB_CTL_RESET_N	0x1	/* out of reset */
#define NLB_CTL_START	0x2
#define NLB_CTL_STOP	0x4
#define NLB_CFG		0x140
#define NLB_CFG_HELLO	0x42000
#define NLB_CFG_IRQ_ON_DONE (1u << 28) /* user interrupt 0 when done */
#define NLB_DSM_STATUS	0x40	/* in the status memory: bit 0 = done */
#define NLB_CACHE_LINE	64

#define TIMEOUT_MS	30000

struct map {
	void *va;		/* where we mapped it */
	uint64_t addr;		/* sysfs addr: the device address of a DMA map */
	uint64_t size;
};

struct dev {
	char name[32];		/* uioX */
	int fd;			/* /dev/uioX */
	struct map maps[5];
};

static int die(const char *what)
{
	fprintf(stderr, "uio_nlb_example: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Read one number from sysfs */
static uint64_t sysfs_u64(const char *fmt, const char *uio, int n)
{
	char path[128], buf[64];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), fmt, uio, n);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		die(path);
	buf[len] = '\0';
	return strtoull(buf, NULL, 0);
}

/* Step 1 and 2: open the device and map what we use */
static void dev_open(struct dev *d, const char *name)
{
	long page = sysconf(_SC_PAGESIZE);
	char path[64];

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(path, sizeof(path), "/dev/%s", d->name);
	d->fd = open(path, O_RDWR);
	if (d->fd < 0)
		die(path);

	for (int i = 0; i < 5; i++) {
		struct map *m = &d->maps[i];
		int prot = i == MAP_HDR ? PROT_READ : PROT_READ | PROT_WRITE;

		m->addr = sysfs_u64("/sys/class/uio/%s/maps/map%d/addr",
				    d->name, i);
		m->size = sysfs_u64("/sys/class/uio/%s/maps/map%d/size",
				    d->name, i);
		/* MAP_SHARED: a private copy would not see the device */
		m->va = mmap(NULL, m->size, prot, MAP_SHARED, d->fd, i * page);
		if (m->va == MAP_FAILED)
			die("mmap");
	}
}

static void reg_write(struct dev *d, unsigned int off, uint64_t v)
{
	((volatile uint64_t *)d->maps[MAP_AFU].va)[off / 8] = v;
}

static uint64_t reg_read(struct dev *d, unsigned int off)
{
	return ((volatile uint64_t *)d->maps[MAP_AFU].va)[off / 8];
}

/* Step 3: the parent of /sys/class/uio/uioX is the port: write its reset */
static void port_reset(struct dev *d)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/class/uio/%s/device/reset", d->name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "1", 1) != 1)
		die(path);
	close(fd);
}

/* Step 5: UIO's interrupt protocol */
static void irq_enable(struct dev *d)
{
	int32_t on = 1;

	/* uio_fpga disables the irq in its handler: re-enable it first */
	if (write(d->fd, &on, sizeof(on)) != sizeof(on))
		die("irq enable");
}

static int irq_wait(struct dev *d, int32_t *count)
{
	struct pollfd pfd = { .fd = d->fd, .events = POLLIN };

	if (poll(&pfd, 1, TIMEOUT_MS) != 1)
		return -1;
	/* read() returns the total number of interrupts so far */
	if (read(d->fd, count, sizeof(*count)) != sizeof(*count))
		die("read");
	return 0;
}

int main(int argc, char **argv)
{
	volatile uint64_t *dsm;
	uint64_t bytes;
	uint8_t *src, *dst;
	struct dev d;
	int32_t count;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: uio_nlb_example uioX [BYTES]\n");
		return 2;
	}
	dev_open(&d, argv[1]);
	dsm = d.maps[MAP_DSM].va;
	src = d.maps[MAP_SRC].va;
	dst = d.maps[MAP_DST].va;
	bytes = argc == 3 ? strtoull(argv[2], NULL, 0) : d.maps[MAP_SRC].size;
	if (!bytes || bytes % NLB_CACHE_LINE || bytes > d.maps[MAP_SRC].size ||
	    bytes > d.maps[MAP_DST].size) {
		fprintf(stderr, "uio_nlb_example: BYTES: a multiple of 64 up to %llu\n",
			(unsigned long long)d.maps[MAP_SRC].size);
		return 2;
	}

	/* Something recognisable to copy, and a destination to overwrite */
	for (uint64_t i = 0; i < bytes; i++)
		src[i] = (uint8_t)(i * 31 + 7);
	memset(dst, 0, bytes);
	memset((void *)dsm, 0, 4096);

	port_reset(&d);

	/* Step 4: the hello_fpga sequence, with device addresses */
	reg_write(&d, NLB_CTL, 0);
	reg_write(&d, NLB_DSM_BASEL, d.maps[MAP_DSM].addr);
	reg_write(&d, NLB_CTL, NLB_CTL_RESET_N);
	reg_write(&d, NLB_SRC_ADDR, d.maps[MAP_SRC].addr / NLB_CACHE_LINE);
	reg_write(&d, NLB_DST_ADDR, d.maps[MAP_DST].addr / NLB_CACHE_LINE);
	reg_write(&d, NLB_NUM_LINES, bytes / NLB_CACHE_LINE);
	reg_write(&d, NLB_CFG, NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	irq_enable(&d);
	reg_write(&d, NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START);

	if (irq_wait(&d, &count)) {
		fprintf(stderr, "uio_nlb_example: no completion interrupt within %d ms (CTL %#llx)\n",
			TIMEOUT_MS, (unsigned long long)reg_read(&d, NLB_CTL));
		return 1;
	}
	reg_write(&d, NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START | NLB_CTL_STOP);

	/* Step 6 */
	if (!(dsm[NLB_DSM_STATUS / 8] & 1)) {
		fprintf(stderr, "uio_nlb_example: interrupt, but the DSM does not say done\n");
		return 1;
	}
	if (memcmp(src, dst, bytes)) {
		fprintf(stderr, "uio_nlb_example: destination differs from source\n");
		return 1;
	}
	printf("%s: %llu bytes copied by the AFU and verified (interrupt %d)\n",
	       d.name, (unsigned long long)bytes, count);
	return 0;
}
