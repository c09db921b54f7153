// SPDX-License-Identifier: GPL-2.0-only
/*
 * port_bench: the port's speed, each figure against a baseline measured in
 * the same run (same guest, same moment):
 *
 *   mmio_read64 / mmio_write64   64-bit loads/stores through the AFU mmap
 *                                vs the same loop on anonymous memory
 *   mmio_syscall_read64          one syscall per access (pread of
 *                                /proc/self/mem, the port's access op) vs
 *                                the mmap loop
 *   dma_loopback_<size>          NLB0 copy bandwidth vs memcpy
 *   dma_loopback_pages_2MiB_apart, dma_loopback_<size>_<n>MiB_apart
 *                                the share of source/destination page
 *                                pairs that far apart: what decides the
 *                                copy's speed in the emulated VM
 *   dma_loopback_dst_shifted     64 MiB less a page copied to one page
 *                                into the destination vs to its start
 *   dma_loopback_<size>_vs_lines NLB0 copy vs the engine's own copy loop
 *                                (64-byte lines, loaded whole, then
 *                                stored) run in user space on the same
 *                                pages
 *   dma_map_unmap_<size>         map + unmap cost per MiB (4 KiB pages)
 *   map_floor_<kind>_<size>      map + unmap vs the kernel's floor: pin,
 *                                scatter table, dma_map_sgtable() for the
 *                                same DMA device and back (the bench-only
 *                                module fpga_bench_floor), for 4 KiB
 *                                pages, transparent huge pages and
 *                                fragmented memory
 *   map_pin_<kind>_<size>        the same vs pinning alone
 *   map_floor_<kind>_runs        physical runs of the 16 MiB buffer
 *   port_reset                   reset latency
 *
 * Prints a table, and the same figures as JSON between BENCH-JSON-BEGIN
 * and BENCH-JSON-END lines (the host stores them in build/bench.json).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <liburing.h>

#include "sim_util.h"
#include "nlb_util.h"
#include "loopback.h"
#include "floor_util.h"
#include "bench_util.h"


static void bench_mmio(volatile uint64_t *afu)
{
	volatile uint64_t *anon, *regs = afu + NLB_SCRATCH / 8;
	long iters = 1 << 20;
	struct bench_stat t_mmio, t_anon, t_sys;
	char path[64];
	int mem;

	anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (anon == MAP_FAILED)
		exit(1);

	BENCH_PAIR("mmio_read64", t_mmio, bench_read_loop(regs, iters),
		   t_anon, bench_read_loop(anon, iters));
	t_mmio = bench_scale(t_mmio, 1.0 / iters);
	t_anon = bench_scale(t_anon, 1.0 / iters);
	bench_add("mmio_read64", t_mmio, "ns/access", t_anon, "anonymous memory",
	    t_anon.med / t_mmio.med, 0.9);
	BENCH_PAIR("mmio_write64", t_mmio, bench_write_loop(regs, iters),
		   t_anon, bench_write_loop(anon, iters));
	t_mmio = bench_scale(t_mmio, 1.0 / iters);
	t_anon = bench_scale(t_anon, 1.0 / iters);
	bench_add("mmio_write64", t_mmio, "ns/access", t_anon, "anonymous memory",
	    t_anon.med / t_mmio.med, 0.9);

	snprintf(path, sizeof(path), "/proc/%d/mem", getpid());
	mem = open(path, O_RDONLY);
	if (mem >= 0) {
		long n = 20000;
		uint64_t v;

		BENCH_PAIR("mmio_syscall_read64", t_sys, {
			for (long i = 0; i < n; i++)
				if (pread(mem, &v, 8, (off_t)(uintptr_t)
					  &regs[i & (BENCH_MMIO_WORDS - 1)]) != 8)
					exit(1);
		}, t_mmio, bench_read_loop(regs, n));
		t_sys = bench_scale(t_sys, 1.0 / n);
		t_mmio = bench_scale(t_mmio, 1.0 / n);
		bench_add("mmio_syscall_read64", t_sys, "ns/access", t_mmio,
		    "mmap read", t_mmio.med / t_sys.med, 0);
		close(mem);
	}
	munmap((void *)anon, 4096);
}

/* A buffer the way an application makes one: allocated, filled, mapped */
static int bench_buf(int fd, uint64_t len, int fill, struct dma_buf *b)
{
	b->len = len;
	b->va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->va == MAP_FAILED)
		return -errno;
	memset(b->va, fill, len);
	return dma_map(fd, b->va, len, 0, &b->iova);
}

/* Page frame number of the page at @va (/proc/self/pagemap; root), or 0 */
static uint64_t pfn_of(int pagemap, const void *va)
{
	uint64_t e;

	if (pread(pagemap, &e, sizeof(e),
		  (uintptr_t)va / 4096 * sizeof(e)) != sizeof(e) ||
	    !(e & (1ULL << 63)))
		return 0;
	return e & ((1ULL << 55) - 1);
}

/*
 * How the buffers' pages line up, the cause of the loopback's swings
 * between boots (Documentation/benchmarks.md): the engine reads source
 * page i and writes destination page i through the kernel's direct map,
 * whose addresses follow the frame numbers, and QEMU's TCG looks guest
 * addresses up in a direct-mapped TLB indexed by the low bits of the page
 * number.  Pages whose frame numbers differ by a multiple of that TLB's
 * size evict each other on every line copied.  Return: the percentage of
 * the first @len bytes' page pairs that are a multiple of @apart pages
 * apart, or -1 if the frame numbers cannot be read.
 */
static double pages_apart(const struct dma_buf *src, const struct dma_buf *dst,
			  uint64_t len, uint64_t apart)
{
	uint64_t hits = 0, seen = 0;
	int pagemap = open("/proc/self/pagemap", O_RDONLY);

	if (pagemap < 0)
		return -1;
	for (uint64_t i = 0; i < len / 4096; i++) {
		uint64_t s = pfn_of(pagemap, (char *)src->va + i * 4096);
		uint64_t d = pfn_of(pagemap, (char *)dst->va + i * 4096);

		if (!s || !d)
			continue;
		seen++;
		hits += (s - d) % apart == 0;
	}
	close(pagemap);
	return seen ? 100.0 * hits / seen : -1;
}

/*
 * The engine's copy loop (sim-dma.c, fpga_sim_dma_copy_lines()) in user
 * space: per 64-byte line, eight 64-bit loads, then eight stores.
 * Volatile, so that the compiler keeps the moves as they are (no memcpy,
 * no "rep movs", no vector registers), as the kernel's build keeps them.
 */
static void line_copy(void *dst, const void *src, uint64_t len)
{
	const volatile uint64_t *s = src;
	volatile uint64_t *d = dst;

	for (uint64_t i = 0; i < len / 8; i += NLB_CACHE_LINE / 8) {
		uint64_t w0 = s[i + 0], w1 = s[i + 1], w2 = s[i + 2];
		uint64_t w3 = s[i + 3], w4 = s[i + 4], w5 = s[i + 5];
		uint64_t w6 = s[i + 6], w7 = s[i + 7];

		d[i + 0] = w0;
		d[i + 1] = w1;
		d[i + 2] = w2;
		d[i + 3] = w3;
		d[i + 4] = w4;
		d[i + 5] = w5;
		d[i + 6] = w6;
		d[i + 7] = w7;
	}
}

/*
 * The same buffers in turns, with the destination as mapped and one page
 * further on: the frame numbers of the pages copied one to the other are
 * then no longer a multiple of 512 apart, whatever the boot drew.  A
 * shifted copy much faster than the aligned one shows the TLB aliasing
 * above at work in this boot.
 */
static void bench_dma_shifted(volatile uint64_t *afu, int efd,
			      const struct dma_buf *dsm,
			      const struct dma_buf *src,
			      const struct dma_buf *dst)
{
	uint64_t len = src->len - 4096;
	struct bench_stat t_shifted, t_aligned;

	BENCH_PAIR("dma_loopback_dst_shifted", t_shifted,
		  loopback(afu, efd, dsm, src->iova, dst->iova + 4096, len),
		   t_aligned, loopback(afu, efd, dsm, src->iova, dst->iova, len));
	bench_add("dma_loopback_dst_shifted", bench_per(len, t_shifted), "GB/s",
		  bench_per(len, t_aligned), "dst as mapped",
		  t_aligned.med / t_shifted.med, 0);
}

static void bench_dma(int fd, volatile uint64_t *afu)
{
	static const uint64_t sizes[] = {
		4 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20,
	};
	struct dma_buf dsm, src, dst;
	char name[48];
	int efd;

	efd = eventfd(0, 0);
	if (efd < 0 || loopback_bind_irq(fd, efd)) {
		fprintf(stderr, "port_bench: cannot bind the completion interrupt\n");
		exit(1);
	}
	if (bench_buf(fd, 64 << 20, 0xa5, &src) ||
	    bench_buf(fd, 64 << 20, 0, &dst) ||
	    bench_buf(fd, 4096, 0, &dsm)) {
		fprintf(stderr, "port_bench: cannot map DMA buffers\n");
		exit(1);
	}

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t len = sizes[i];
		struct bench_stat t_dma, t_cpy;

		snprintf(name, sizeof(name), "dma_loopback_%lluKiB",
			 (unsigned long long)len >> 10);
		BENCH_PAIR(name, t_dma,
			   loopback(afu, efd, &dsm, src.iova, dst.iova, len),
			   t_cpy, memcpy(dst.va, src.va, len));
		bench_add(name, bench_per(len, t_dma), "GB/s",
			  bench_per(len, t_cpy), "memcpy", t_cpy.med / t_dma.med,
			  len >= (4 << 20) ? 0.8 : 0);
		/* The same pages, the engine's own loop on the CPU */
		snprintf(name, sizeof(name), "dma_loopback_%lluKiB_vs_lines",
			 (unsigned long long)len >> 10);
		BENCH_PAIR(name, t_dma,
			   loopback(afu, efd, &dsm, src.iova, dst.iova, len),
			   t_cpy, line_copy(dst.va, src.va, len));
		bench_add(name, bench_per(len, t_dma), "GB/s",
			  bench_per(len, t_cpy), "line copy loop",
			  t_cpy.med / t_dma.med, len >= (4 << 20) ? 0.8 : 0);
		/* Transparent huge pages are 2 MiB aligned: 512 pages */
		if (len == sizes[0])
			bench_add("dma_loopback_pages_2MiB_apart",
				  bench_fixed(pages_apart(&src, &dst, src.len,
							  512)),
				  "%pairs", BENCH_NONE, "", 0, 0);
		for (uint64_t apart = 1024; len >= (4 << 20) && apart <= 4096;
		     apart *= 4) {
			snprintf(name, sizeof(name),
				 "dma_loopback_%lluKiB_%lluMiB_apart",
				 (unsigned long long)len >> 10,
				 (unsigned long long)apart / 256);
			bench_add(name,
				  bench_fixed(pages_apart(&src, &dst, len, apart)),
				  "%pairs", BENCH_NONE, "", 0, 0);
		}
	}
	bench_dma_shifted(afu, efd, &dsm, &src, &dst);
	dma_buf_free(fd, &src);
	dma_buf_free(fd, &dst);
	dma_buf_free(fd, &dsm);
	close(efd);
}

/*
 * DMA map + unmap of a buffer against the kernel's own fastest way to pin
 * the same buffer for a device-like user: io_uring's fixed-buffer
 * registration and unregistration (pin, account, build the bvec table).
 * Ours also builds a scatter list and maps it through the card's IOMMU.
 */
static void bench_map(int fd)
{
	static const uint64_t sizes[] = { 4 << 10, 1 << 20, 64 << 20, 256 << 20 };
	struct io_uring ring;
	char name[48];
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret) {
		fprintf(stderr, "port_bench: io_uring: %s\n", strerror(-ret));
		exit(1);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t len = sizes[i], iova = 0;
		struct iovec iov;
		struct bench_stat t, base;
		double mib = len / (double)(1 << 20);
		void *va;

		va = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (va == MAP_FAILED)
			exit(1);
		iov.iov_base = va;
		iov.iov_len = len;
		snprintf(name, sizeof(name), "dma_map_unmap_%lluKiB",
			 (unsigned long long)len >> 10);
		BENCH_PAIR(name, t, {
			if (dma_map(fd, va, len, 0, &iova) ||
			    dma_unmap(fd, iova))
				exit(1);
		}, base, {
			if (io_uring_register_buffers(&ring, &iov, 1) ||
			    io_uring_unregister_buffers(&ring))
				exit(1);
		});
		bench_add(name, bench_scale(t, 1 / 1e3 / mib), "us/MiB",
			  bench_scale(base, 1 / 1e3 / mib), "io_uring register",
			  base.med / t.med, 1 / 1.5);
		munmap(va, len);
	}
	io_uring_queue_exit(&ring);
}

/*
 * ---- DMA map + unmap against the kernel's floor ----
 *
 * The same buffer mapped through the port and pinned (and mapped for the
 * port's own DMA device) by fpga_bench_floor, in turns (BENCH_PAIR), two
 * ioctls a cycle on both sides.  Three kinds of memory, 16 MiB each, of
 * which the first 4 KiB to 16 MiB are mapped:
 *
 *   4k    MADV_NOHUGEPAGE, touched in order: 4 KiB pages, in whatever
 *         physical runs the page allocator hands out
 *   thp   MADV_HUGEPAGE, 2 MiB aligned: transparent huge pages
 *   frag  MADV_NOHUGEPAGE, each page touched in turn with a page of a
 *         scratch buffer freed afterwards: no two neighbours physically
 *         adjacent (map_floor_frag_runs says how many runs there are)
 */
#define FLOOR_BUF	(16ULL << 20)
#define HUGE_2M		(2ULL << 20)

struct floor_buf {
	const char *kind;
	void *va;
	void *mapping;	/* what to munmap */
	uint64_t mapped_len;
};

static void floor_buf_make(struct floor_buf *b, const char *kind)
{
	uint64_t len = FLOOR_BUF + (!strcmp(kind, "thp") ? HUGE_2M : 0);
	char *va, *scratch = NULL;

	b->kind = kind;
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (va == MAP_FAILED) {
		perror("port_bench: mmap");
		exit(1);
	}
	b->mapping = va;
	b->mapped_len = len;
	if (!strcmp(kind, "thp")) {
		va = (char *)(((uintptr_t)va + HUGE_2M - 1) & ~(HUGE_2M - 1));
		madvise(va, FLOOR_BUF, MADV_HUGEPAGE);
	} else {
		madvise(va, FLOOR_BUF, MADV_NOHUGEPAGE);
	}
	if (!strcmp(kind, "frag")) {
		scratch = mmap(NULL, FLOOR_BUF, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (scratch == MAP_FAILED) {
			perror("port_bench: mmap");
			exit(1);
		}
		madvise(scratch, FLOOR_BUF, MADV_NOHUGEPAGE);
	}
	for (uint64_t o = 0; o < FLOOR_BUF; o += 4096) {
		va[o] = 1;
		if (scratch)
			scratch[o] = 1;
	}
	if (scratch)
		munmap(scratch, FLOOR_BUF);
	b->va = va;
}

/*
 * One row: a map and unmap of @len bytes of @b through the port, against
 * the floor module pinning them (@flags 0) or pinning and mapping them
 * (FPGA_BENCH_FLOOR_MAP)
 */
static void bench_floor_row(int fd, int ffd, const struct floor_buf *b,
			    const char *kind, uint64_t len, uint32_t flags,
			    double target)
{
	bool map = flags & FPGA_BENCH_FLOOR_MAP;
	/* Small buffers: several cycles per sample, both sides */
	int reps = len >= (1 << 20) ? 2 : (1 << 20) / len / 4;
	struct bench_stat t, base;
	uint64_t iova = 0;
	char name[48];

	snprintf(name, sizeof(name), "map_%s_%s_%lluKiB",
		 map ? "floor" : "pin", kind, (unsigned long long)len >> 10);
	BENCH_PAIR(name, t, {
		for (int r = 0; r < reps; r++)
			if (dma_map(fd, b->va, len, 0, &iova) ||
			    dma_unmap(fd, iova))
				exit(1);
	}, base, {
		for (int r = 0; r < reps; r++)
			if (floor_pin(ffd, b->va, len, flags, NULL) ||
			    floor_unpin(ffd))
				exit(1);
	});
	bench_add(name, bench_scale(t, 1e-3 / reps), "us",
		  bench_scale(base, 1e-3 / reps),
		  map ? "pin+map floor" : "pin floor", base.med / t.med, target);
}

static void bench_floor_map(int fd, int port)
{
	static const char * const kinds[] = { "4k", "thp", "frag" };
	static const uint64_t sizes[] = {
		4 << 10, 64 << 10, 1 << 20, 16 << 20,
	};
	char name[48];
	int ffd;

	ffd = floor_open("port_bench");
	if (ffd < 0)
		return;
	if (floor_bind_port(ffd, port)) {
		fprintf(stderr, "port_bench: the floor cannot bind fpga-port.%d: no floor rows\n",
			port);
		floor_close(ffd);
		return;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct floor_buf b;
		uint32_t runs = 0;

		floor_buf_make(&b, kinds[k]);
		if (floor_pin(ffd, b.va, FLOOR_BUF, FPGA_BENCH_FLOOR_MAP,
			      &runs) || floor_unpin(ffd)) {
			fprintf(stderr, "port_bench: the floor cannot map 16 MiB\n");
			exit(1);
		}
		snprintf(name, sizeof(name), "map_floor_%s_runs", kinds[k]);
		bench_add(name, bench_fixed(runs), "runs/16MiB", BENCH_NONE,
			  "", 0, 0);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint64_t len = sizes[i];
			/*
			 * The targets: at most 2x the floor's time for
			 * one page, 1.5x from 1 MiB; 64 KiB reported
			 */
			double target = len == 4096 ? 1 / 2.0 :
					len >= (1 << 20) ? 1 / 1.5 : 0;

			bench_floor_row(fd, ffd, &b, kinds[k], len,
					FPGA_BENCH_FLOOR_MAP, target);
			bench_floor_row(fd, ffd, &b, kinds[k], len, 0, 0);
		}
		munmap(b.mapping, b.mapped_len);
	}
	floor_close(ffd);
}

static void bench_reset(int fd)
{
	int n = 50;
	struct bench_stat t;

	t = BENCH_ONE({
		for (int i = 0; i < n; i++)
			if (ioctl(fd, DFL_FPGA_PORT_RESET, 0))
				exit(1);
	});
	bench_add("port_reset", bench_scale(t, 1 / 1e3 / n), "us", BENCH_NONE,
		  "", 0, 0);
}

int main(void)
{
	volatile uint64_t *afu;
	unsigned int card = sim_random_id();
	char dev[64];
	int fd, num;

	if (run_cmd("modprobe fpga_sim && modprobe fpga_port") ||
	    sim_add(card, 1)) {
		fprintf(stderr, "port_bench: cannot create a simulated card\n");
		return 1;
	}
	num = sim_port_number(card);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	fd = open(dev, O_RDWR);
	if (fd < 0) {
		perror(dev);
		return 1;
	}
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	if (afu == MAP_FAILED) {
		perror("mmap");
		return 1;
	}

	bench_mmio(afu);
	bench_dma(fd, afu);
	bench_map(fd);
	bench_floor_map(fd, num);
	bench_reset(fd);
	bench_print("port");

	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
	sim_del(card);
	return 0;
}
