// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz, the port and FME nodes: every ioctl of <linux/fpga-dfl.h> and
 * of our extension <linux/fpga-suite.h> with arguments built from their
 * structs, mmap/munmap/touch of the AFU region, a debugger's reads and
 * writes of those mappings (/proc/self/mem, process_vm_readv/writev),
 * DMA maps of anonymous memory and of dma-bufs, and NLB runs at mapped
 * and unmapped addresses.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/fpga-dfl.h>
#include <linux/fpga-suite.h>

#include "fuzz.h"
#include "nlb_util.h"
#include "pr_util.h"

static int rnd_fd(struct worker *w)
{
	return w->fds[below(MAX_FDS)];
}

static uint64_t rnd_iova(struct worker *w)
{
	return below(2) ? w->iovas[below(ARRAY_LEN(w->iovas))] : rnd_value();
}

/*
 * A node that exists (/dev/fpga-port.N, /dev/fpga-fme.N), picked by rank
 * so that a replay picks the same; numbers grow as cards come and go.
 */
static int pick_node(const char *prefix, char *path, size_t size)
{
	int nums[32], n = 0;
	struct dirent *de;
	DIR *d = opendir("/dev");

	if (!d)
		return -1;
	while ((de = readdir(d)) && n < 32)
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			nums[n++] = atoi(de->d_name + strlen(prefix));
	closedir(d);
	if (!n)
		return -1;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (nums[j] < nums[i]) {
				int t = nums[i];

				nums[i] = nums[j];
				nums[j] = t;
			}
	snprintf(path, size, "/dev/%s%d", prefix, nums[below(n)]);
	return 0;
}

static void port_open(struct worker *w)
{
	char path[64];
	/* Mostly for writing; a read-only file may look, not change */
	int i = below(MAX_FDS), flags = below(8) ? O_RDWR : O_RDONLY;

	fuzz_close(&w->fds[i]);
	if (one_in(16))		/* a number that may not exist */
		snprintf(path, sizeof(path), "/dev/fpga-port.%llu",
			 (unsigned long long)below(64));
	else if (pick_node(below(4) ? "fpga-port." : "fpga-fme.", path,
			   sizeof(path)))
		return;
	if (one_in(8))
		flags |= O_EXCL;
	w->fds[i] = open(path, flags);
	FUZZ_OK(w, AREA_PORT, w->fds[i]);
}

/* The dma-buf extension: map a vgem_ext buffer, arm a fence on it */
static void port_dmabuf(struct worker *w, int fd, uint8_t *arg)
{
	if (below(2)) {
		struct fpga_port_dmabuf_map *m = (void *)arg;

		m->argsz = below(4) ? sizeof(*m) : rnd_value();
		m->flags = below(3) ? below(4) : rnd_value();
		m->fd = below(4) ? w->dmabufs[below(ARRAY_LEN(w->dmabufs))]
				 : (int)rnd_value();
		m->pad = below(4) ? 0 : rnd_value();
		uint64_t slot = below(ARRAY_LEN(w->iovas));

		if (!ioctl(fd, FPGA_PORT_DMABUF_MAP, m)) {
			w->iovas[slot] = m->iova;
			w->ok[AREA_PORT]++;
		}
	} else {
		struct fpga_port_dmabuf_fence *f = (void *)arg;

		f->argsz = below(4) ? sizeof(*f) : rnd_value();
		f->flags = below(3) ? below(2) : rnd_value();
		f->iova = rnd_iova(w);
		f->vector = below(3) ? below(2) : rnd_value();
		/* short timeouts: a fence nobody signals must not pile up */
		f->timeout_ms = below(4) ? below(200) : rnd_value();
		FUZZ_OK(w, AREA_PORT, ioctl(fd, FPGA_PORT_DMABUF_FENCE, f));
	}
}

/*
 * DFL_FPGA_FME_PORT_PR: a bitstream for the simulated card in the last
 * anonymous page, now and then a good one (which replaces the port under
 * the other workers), mostly one with a byte, a size or an id wrong
 */
static void fme_port_pr(struct worker *w, int fd, uint8_t *arg)
{
	struct dfl_fpga_fme_port_pr *p = (void *)arg;
	uint8_t *page = (uint8_t *)w->anon + (ANON_PAGES - 1) * 4096;
	size_t len;
	uint8_t *bs = pr_bitstream(below(4) ? NLB0_ID : FPGA_SIM_INTERFACE_ID,
				   below(4) ? FPGA_SIM_INTERFACE_ID : NLB0_ID,
				   below(64), &len);

	if (!bs)
		return;
	memcpy(page, bs, len);
	free(bs);
	if (below(2))
		page[below(len)] ^= 1 << below(8);
	p->argsz = below(4) ? sizeof(*p) : rnd_value();
	p->flags = below(4) && fuzz_reprogram ? 0 : rnd_value() | 1;
	p->port_id = below(3) ? below(3) : rnd_value();
	p->buffer_size = below(3) ? len : below(2) ? len & ~3u : rnd_value();
	p->buffer_address = below(8) ? (uintptr_t)page
				     : (uintptr_t)rnd_ptr(w, 64);
	FUZZ_OK(w, AREA_PORT, ioctl(fd, DFL_FPGA_FME_PORT_PR, p));
}

/* An ioctl of the port or FME ABI with a struct built for it */
static void port_ioctl(struct worker *w)
{
	static const unsigned long cmds[] = {
		DFL_FPGA_GET_API_VERSION, DFL_FPGA_CHECK_EXTENSION,
		DFL_FPGA_PORT_RESET, DFL_FPGA_PORT_GET_INFO,
		DFL_FPGA_PORT_GET_REGION_INFO, DFL_FPGA_PORT_DMA_MAP,
		DFL_FPGA_PORT_DMA_UNMAP, DFL_FPGA_PORT_ERR_GET_IRQ_NUM,
		DFL_FPGA_PORT_ERR_SET_IRQ, DFL_FPGA_PORT_UINT_GET_IRQ_NUM,
		DFL_FPGA_PORT_UINT_SET_IRQ, DFL_FPGA_FME_PORT_PR,
		DFL_FPGA_FME_PORT_RELEASE, DFL_FPGA_FME_PORT_ASSIGN,
		DFL_FPGA_FME_ERR_GET_IRQ_NUM, DFL_FPGA_FME_ERR_SET_IRQ,
		FPGA_PORT_DMABUF_MAP, FPGA_PORT_DMABUF_FENCE,
	};
	unsigned long cmd = below(20) ? cmds[below(ARRAY_LEN(cmds))]
				      : (unsigned long)rnd();
	uint8_t *arg = w->anon;
	int fd = rnd_fd(w);
	uint64_t slot;

	/* Fill the argument area with a struct-shaped guess */
	for (int i = 0; i < 8; i++)
		((uint64_t *)arg)[i] = rnd_value();
	switch (cmd) {
	case DFL_FPGA_PORT_DMA_MAP: {
		struct dfl_fpga_port_dma_map *m = (void *)arg;

		m->argsz = below(4) ? sizeof(*m) : rnd_value();
		m->flags = below(3) ? below(4) : rnd_value();
		m->user_addr = below(2) ? (uintptr_t)w->anon + (below(ANON_PAGES) << 12)
					: rnd_value();
		m->length = below(2) ? (below(8) + 1) << 12 : rnd_value();
		slot = below(ARRAY_LEN(w->iovas));
		if (ioctl(fd, cmd, m) == 0) {
			w->iovas[slot] = m->iova;
			w->ok[AREA_PORT]++;
		}
		return;
	}
	case DFL_FPGA_PORT_DMA_UNMAP: {
		struct dfl_fpga_port_dma_unmap *u = (void *)arg;

		u->argsz = below(4) ? sizeof(*u) : rnd_value();
		u->flags = below(4) ? 0 : rnd_value();
		u->iova = rnd_iova(w);
		FUZZ_OK(w, AREA_PORT, ioctl(fd, cmd, u));
		return;
	}
	case DFL_FPGA_PORT_ERR_SET_IRQ:
	case DFL_FPGA_PORT_UINT_SET_IRQ:
	case DFL_FPGA_FME_ERR_SET_IRQ: {
		struct dfl_fpga_irq_set *s = (void *)arg;

		s->start = below(3) ? below(5) : rnd_value();
		s->count = below(3) ? below(5) : rnd_value();
		for (int i = 0; i < 4; i++)
			s->evtfds[i] = below(3) ? w->efd : (int)rnd_value();
		FUZZ_OK(w, AREA_PORT, ioctl(fd, cmd, s));
		return;
	}
	case DFL_FPGA_PORT_GET_INFO:
	case DFL_FPGA_PORT_GET_REGION_INFO:
		((uint32_t *)arg)[0] = below(4) ? 32 : rnd_value();
		((uint32_t *)arg)[2] = below(3);
		FUZZ_OK(w, AREA_PORT,
			ioctl(fd, cmd, below(8) ? (void *)arg : rnd_ptr(w, 32)));
		return;
	case DFL_FPGA_CHECK_EXTENSION:
		ioctl(fd, cmd, below(2) ? FPGA_PORT_EXT_DMABUF : rnd_value());
		return;
	case DFL_FPGA_FME_PORT_PR:
		fme_port_pr(w, fd, arg);
		return;
	case FPGA_PORT_DMABUF_MAP:
	case FPGA_PORT_DMABUF_FENCE:
		if (below(8))
			port_dmabuf(w, fd, arg);
		else
			ioctl(fd, cmd, rnd_ptr(w, 32));
		return;
	default:
		ioctl(fd, cmd, below(2) ? (unsigned long)rnd_value()
				       : (unsigned long)rnd_ptr(w, 64));
	}
}

static void port_mmap(struct worker *w)
{
	struct fuzz_map *m = &w->maps[below(MAX_MAPS)];
	size_t len = below(2) ? 4096ull << below(7) : rnd_value() & 0xffffff;
	off_t off = below(2) ? (off_t)(below(64) << 12) : (off_t)rnd_value();
	int prot = below(4) ? PROT_READ | PROT_WRITE : PROT_READ;
	void *p;

	fuzz_unmap(m);
	p = mmap(NULL, len, prot, below(6) ? MAP_SHARED : MAP_PRIVATE,
		 rnd_fd(w), off);
	if (p != MAP_FAILED) {
		w->ok[AREA_PORT]++;
		m->p = p;
		m->len = len;
		/* NLB registers past 0x1000 only; the DFH stays readable */
		m->writable = 0;
		m->prot = prot;
	}
}

/* Touch the AFU: reads anywhere, writes to the NLB's registers */
static void port_touch(struct worker *w)
{
	struct fuzz_map *m = &w->maps[below(MAX_MAPS)];
	volatile uint64_t *p = m->p;
	size_t k;

	if (!p || m->len < 8)
		return;
	if (below(2) || !(m->prot & PROT_WRITE)) {
		fuzz_touch(w, m);
		return;
	}
	k = below(m->len / 8);
	if (k < 0x1000 / 8 && below(4))
		return;
	in_access = 1;
	if (sigsetjmp(fault_jmp, 1) == 0)
		p[k] = rnd_value();
	else
		w->faults++;
	in_access = 0;
}

/* Start the NLB with addresses that are mapped, or not */
static void port_nlb(struct worker *w)
{
	volatile uint64_t *afu = NULL;

	for (int i = 0; i < MAX_MAPS && !afu; i++)
		if (w->maps[i].p && w->maps[i].len >= 0x1000 &&
		    (w->maps[i].prot & PROT_WRITE))
			afu = w->maps[i].p;
	if (!afu)
		return;
	in_access = 1;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		afu[NLB_CTL / 8] = 0;
		afu[NLB_DSM_BASEL / 8] = rnd_iova(w);
		afu[NLB_CTL / 8] = NLB_CTL_RESET_N;
		afu[NLB_SRC_ADDR / 8] = rnd_iova(w) >> 6;
		afu[NLB_DST_ADDR / 8] = rnd_iova(w) >> 6;
		afu[NLB_NUM_LINES / 8] = below(3) ? below(64) : rnd_value();
		afu[NLB_CFG / 8] = NLB_CFG_HELLO |
				   (below(2) ? NLB_CFG_IRQ_ON_DONE : 0);
		afu[NLB_CTL / 8] = NLB_CTL_RUN;
	} else {
		w->faults++;
	}
	in_access = 0;
}

static void port_dma_anon(struct worker *w)
{
	void *va = (char *)w->anon + (below(ANON_PAGES - 8) << 12);
	uint64_t iova = 0, len = (1 + below(8)) << 12, flags = below(4);
	uint64_t slot = below(ARRAY_LEN(w->iovas));

	if (!dma_map(rnd_fd(w), va, len, flags, &iova)) {
		w->iovas[slot] = iova;
		w->ok[AREA_PORT]++;
	}
}

void fuzz_port(struct worker *w)
{
	switch (below(22)) {
	case 0 ... 2:
		port_open(w);
		break;
	case 3 ... 10:
		port_ioctl(w);
		break;
	case 11 ... 12:
		port_mmap(w);
		break;
	case 13 ... 15:
		port_touch(w);
		break;
	case 16 ... 17:
		port_nlb(w);
		break;
	case 18 ... 19:
		/* A debugger's access: writes to the NLB's registers only */
		fuzz_remote(w, &w->maps[below(MAX_MAPS)], AREA_PORT, 0x1000);
		break;
	default:
		port_dma_anon(w);
	}
}
