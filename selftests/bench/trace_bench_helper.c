// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_bench's worker, built twice from the same source against libfpga's
 * sources: trace_bench_usdt (with its USDT probes) and trace_bench_base
 * (FPGA_NO_USDT: the probes compiled out).
 *
 *   trace_bench_{usdt,base} PORT mmio_write|mmio_read|dma_map|loopback N
 *
 * Does the work N times through libfpga and prints nanoseconds per
 * operation (setup excluded): the mean for MMIO, the fastest one for a
 * loopback, whose port reset and model-thread wake-ups make single runs
 * noisy.  Fails with libfpga's message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fpga/nlb0.h>

#include "fpga.h"
#include "bench_util.h"

int main(int argc, char **argv)
{
	struct fpga_nlb_result res;
	struct fpga_port *port;
	uint64_t v = 0;
	double t0, t, best = 1e300;
	long n, i;
	int ret = 0;

	if (argc != 4 || (n = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: %s PORT mmio_write|mmio_read|dma_map|loopback N\n",
			argv[0]);
		return 2;
	}
	if (fpga_port_open(argv[1], 0, &port) || fpga_mmio_map(port)) {
		fprintf(stderr, "%s\n", fpga_errmsg());
		return 1;
	}
	t0 = bench_now_ms();
	/* NLB0's SRC_ADDR: a plain read-write register until a run starts */
	if (!strcmp(argv[2], "mmio_write")) {
		for (i = 0; i < n && !ret; i++)
			ret = fpga_mmio_write64(port, NLB_SRC_ADDR, i);
	} else if (!strcmp(argv[2], "mmio_read")) {
		for (i = 0; i < n && !ret; i++)
			ret = fpga_mmio_read64(port, NLB_SRC_ADDR, &v);
	} else if (!strcmp(argv[2], "dma_map")) {
		/* Map and unmap one page: two ioctls, two tracepoints */
		static char page[4096] __attribute__((aligned(4096)));
		uint64_t iova;

		for (i = 0; i < n && !ret; i++) {
			ret = fpga_dma_map(port, page, sizeof(page), &iova);
			if (!ret)
				ret = fpga_dma_unmap(port, iova);
		}
	} else if (!strcmp(argv[2], "loopback")) {
		for (i = 0; i < n && !ret; i++) {
			double t1 = bench_now_ms();

			ret = fpga_nlb_loopback(port, 256 * 1024, 10000, &res);
			t1 = (bench_now_ms() - t1) * 1e6;
			best = t1 < best ? t1 : best;
		}
	} else {
		fprintf(stderr, "%s: unknown work '%s'\n", argv[0], argv[2]);
		return 2;
	}
	t = (bench_now_ms() - t0) * 1e6;
	if (ret) {
		fprintf(stderr, "%s\n", fpga_errmsg());
		return 1;
	}
	printf("%.1f\n", !strcmp(argv[2], "loopback") ? best :
	       t / n + (double)(v & 0));
	fpga_port_close(port);
	return 0;
}
