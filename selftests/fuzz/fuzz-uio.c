// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz, uio_fpga: /dev/uioX of ports bound to uio_fpga (and no other
 * UIO device): mmap of each map index with odd lengths, offsets, flags and
 * protections, touches of the maps and a debugger's reads and writes of
 * them (/proc/self/mem, process_vm_readv/writev), read() of the interrupt
 * count and write() of irqcontrol with odd sizes and buffers, poll(), and
 * the port's reset attribute while bound to uio_fpga.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "sysfs_util.h"

/* A UIO device whose name says it is one of our ports; -1 if none */
static int uio_pick(char *name, size_t size)
{
	int found[16], n = 0;
	struct dirent *de;
	DIR *d;

	d = opendir("/sys/class/uio");
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < 16) {
		char path[300], val[64];

		if (strncmp(de->d_name, "uio", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/class/uio/%s/name",
			 de->d_name);
		if (!sysfs_read(path, val, sizeof(val)) &&
		    !strncmp(val, "fpga-port.", 10))
			found[n++] = atoi(de->d_name + 3);
	}
	closedir(d);
	if (!n)
		return -1;
	/* readdir order is not stable: pick by rank, not by position */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (found[j] < found[i]) {
				int t = found[i];

				found[i] = found[j];
				found[j] = t;
			}
	snprintf(name, size, "uio%d", found[below(n)]);
	return 0;
}

static void uio_open(struct worker *w)
{
	int *fd = &w->uio_fds[below(ARRAY_LEN(w->uio_fds))];
	char name[32], path[64];

	fuzz_close(fd);
	if (uio_pick(name, sizeof(name)))
		return;
	snprintf(path, sizeof(path), "/dev/%s", name);
	/* Never block: a read waits for an interrupt otherwise */
	*fd = open(path, (below(4) ? O_RDWR : O_RDONLY) | O_NONBLOCK);
	FUZZ_OK(w, AREA_UIO, *fd);
}

static int rnd_uio(struct worker *w)
{
	return w->uio_fds[below(ARRAY_LEN(w->uio_fds))];
}

static void uio_mmap(struct worker *w)
{
	static const size_t lens[] = { 4096, 8192, 64 * 1024, 256 * 1024,
				       1 << 20, 4097, 0 };
	struct fuzz_map *m = &w->uio_maps[below(ARRAY_LEN(w->uio_maps))];
	size_t len = below(4) ? lens[below(ARRAY_LEN(lens))]
			      : rnd_value() & 0x3ffffff;
	/* map M is at offset M pages; 5 maps, then past the end */
	off_t off = below(8) ? (off_t)below(7) * 4096 : (off_t)rnd_value();
	int prot = below(4) ? PROT_READ | PROT_WRITE : PROT_READ;
	void *p;

	fuzz_unmap(m);
	p = mmap(NULL, len, prot, below(8) ? MAP_SHARED : MAP_PRIVATE,
		 rnd_uio(w), off);
	if (p == MAP_FAILED)
		return;
	w->ok[AREA_UIO]++;
	m->p = p;
	m->len = len;
	/* Writes to the DMA buffers only: AFU writes are fuzz-port's */
	m->writable = (prot & PROT_WRITE) && off >= 2 * 4096;
	m->prot = prot;
}

static void uio_rw(struct worker *w)
{
	int fd = rnd_uio(w);
	size_t len = below(4) ? 4 : below(16);
	void *buf = below(6) ? w->anon : rnd_ptr(w, len);

	if (below(2)) {
		FUZZ_OK(w, AREA_UIO, read(fd, buf, len));
	} else {
		/* irqcontrol: 1 enables, 0 disables, others are odd */
		*(int32_t *)w->anon = below(3) ? (int32_t)below(2) :
						 (int32_t)rnd_value();
		FUZZ_OK(w, AREA_UIO, write(fd, buf, len));
	}
}

static void uio_poll(struct worker *w)
{
	struct pollfd p = { .fd = rnd_uio(w), .events = POLLIN | POLLOUT };

	poll(&p, 1, below(3));
}

/* The port's reset while bound to uio_fpga, through the UIO device */
static void uio_reset(struct worker *w)
{
	char name[32], path[96];

	if (uio_pick(name, sizeof(name)))
		return;
	snprintf(path, sizeof(path), "/sys/class/uio/%s/device/reset", name);
	FUZZ_OK(w, AREA_UIO,
		sysfs_write(path, below(4) ? "1" : below(2) ? "0" : "maybe"));
}

void fuzz_uio(struct worker *w)
{
	/* Nothing open: open first, the other calls would only get EBADF */
	if (w->uio_fds[0] < 0 && w->uio_fds[1] < 0 && below(2)) {
		uio_open(w);
		return;
	}
	switch (below(22)) {
	case 0 ... 2:
		uio_open(w);
		break;
	case 3 ... 6:
		uio_mmap(w);
		break;
	case 7 ... 11:
		fuzz_touch(w, &w->uio_maps[below(ARRAY_LEN(w->uio_maps))]);
		break;
	case 12 ... 15:
		uio_rw(w);
		break;
	case 16 ... 17:
		uio_poll(w);
		break;
	case 18 ... 19: {
		struct fuzz_map *m = &w->uio_maps[below(ARRAY_LEN(w->uio_maps))];

		/* Writes where the fuzzer's own stores go: the DMA buffers */
		fuzz_remote(w, m, AREA_UIO, m->writable ? 0 : SIZE_MAX);
		break;
	}
	default:
		uio_reset(w);
	}
}
