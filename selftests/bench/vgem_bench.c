// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgem_bench: the cost of preparing a DMA buffer for the AFU, per MiB,
 * vgem_ext against anonymous memory, each pair measured in turns in the
 * same run (BENCH_PAIR, as port_bench):
 *
 *   prepare_<size>   vgem_ext: create + PRIME export + FPGA_PORT_DMABUF_MAP
 *                    (the exporter allocates and pins the pages) + unmap +
 *                    free, against mmap(MAP_POPULATE) + DFL_FPGA_PORT_DMA_MAP
 *                    (pin) + unmap + munmap
 *   map_<size>       the map and unmap alone, on memory that is there
 *                    already (a populated vgem_ext buffer, exported once;
 *                    populated anonymous memory)
 *
 * ratio = anonymous / vgem_ext time: above 1, vgem_ext is cheaper.  Sizes
 * 4 KiB to 1 GiB.  Table, then JSON between BENCH-JSON-BEGIN/END.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_util.h"
#include "nlb_util.h"
#include "vgem_util.h"
#include "bench_util.h"

/* vgem_ext's cost against anonymous memory's, per MiB */
static const char *fig_name(const char *what, uint64_t len)
{
	static char name[48];

	if (len >= (1 << 20))
		snprintf(name, sizeof(name), "%s_%lluMiB", what,
			 (unsigned long long)len >> 20);
	else
		snprintf(name, sizeof(name), "%s_%lluKiB", what,
			 (unsigned long long)len >> 10);
	return name;
}

static void add(const char *what, uint64_t len, struct bench_stat v_ns,
		struct bench_stat a_ns)
{
	double mib = len / (double)(1 << 20);

	bench_add(fig_name(what, len), bench_scale(v_ns, 1 / 1e3 / mib),
		  "us/MiB", bench_scale(a_ns, 1 / 1e3 / mib), "anonymous memory",
		  a_ns.med / v_ns.med, 0);
}

static void die(const char *what)
{
	fprintf(stderr, "vgem_bench: %s failed: %s\n", what, strerror(errno));
	exit(1);
}

/* vgem_ext: allocate, export, map for the card, unmap, free */
static void vgem_prepare(int drm, int port, uint64_t len)
{
	struct drm_vgem_ext_bo_create c;
	uint64_t iova = 0;
	int dmabuf;

	if (vgem_ext_create(drm, len, 0, &c))
		die("BO_CREATE");
	dmabuf = prime_export(drm, c.handle);
	if (dmabuf < 0)
		die("PRIME export");
	if (port_dmabuf_map(port, dmabuf, 0, &iova, NULL))
		die("FPGA_PORT_DMABUF_MAP");
	if (dma_unmap(port, iova))
		die("DMA_UNMAP");
	close(dmabuf);
	gem_close(drm, c.handle);
}

/* anonymous memory: allocate, pin and map for the card, unmap, free */
static void anon_prepare(int port, uint64_t len)
{
	uint64_t iova = 0;
	void *va;

	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (va == MAP_FAILED)
		die("mmap");
	if (dma_map(port, va, len, 0, &iova))
		die("DMA_MAP");
	if (dma_unmap(port, iova))
		die("DMA_UNMAP");
	munmap(va, len);
}

static void bench_size(int drm, int port, uint64_t len)
{
	struct drm_vgem_ext_bo_create c;
	struct bench_stat v_ns, a_ns;
	uint64_t iova = 0;
	int dmabuf;
	void *va;

	BENCH_PAIR(fig_name("prepare", len), v_ns, vgem_prepare(drm, port, len),
		   a_ns, anon_prepare(port, len));
	add("prepare", len, v_ns, a_ns);

	if (vgem_ext_create(drm, len, VGEM_EXT_BO_POPULATE, &c))
		die("BO_CREATE");
	dmabuf = prime_export(drm, c.handle);
	if (dmabuf < 0)
		die("PRIME export");
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (va == MAP_FAILED)
		die("mmap");
	BENCH_PAIR(fig_name("map", len), v_ns, {
		if (port_dmabuf_map(port, dmabuf, 0, &iova, NULL) ||
		    dma_unmap(port, iova))
			die("dma-buf map/unmap");
	}, a_ns, {
		if (dma_map(port, va, len, 0, &iova) || dma_unmap(port, iova))
			die("map/unmap");
	});
	add("map", len, v_ns, a_ns);
	munmap(va, len);
	close(dmabuf);
	gem_close(drm, c.handle);
}

int main(void)
{
	static const uint64_t sizes[] = {
		4 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20, 1 << 30,
	};
	unsigned int card = sim_random_id();
	char dev[64];
	int port, drm;

	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe vgem_ext") ||
	    sim_add(card, 1)) {
		fprintf(stderr, "vgem_bench: cannot set up vgem_ext and a simulated card\n");
		return 1;
	}
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", sim_port_number(card));
	port = open(dev, O_RDWR);
	drm = drm_open_driver("vgem_ext", "renderD");
	if (port < 0 || drm < 0) {
		fprintf(stderr, "vgem_bench: cannot open %s or vgem_ext\n", dev);
		return 1;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		bench_size(drm, port, sizes[i]);
	bench_print("vgem");
	close(drm);
	close(port);
	sim_del(card);
	return 0;
}
