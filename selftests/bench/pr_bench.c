// SPDX-License-Identifier: GPL-2.0-only
/*
 * pr_bench: what a programming of a port costs on the simulated card,
 * against a baseline measured in the same run:
 *
 *   pr_program        DFL_FPGA_FME_PORT_PR of NLB0 (the ioctl alone) vs
 *                     unbinding and binding the port's driver: the part
 *                     of a programming that is the port's removal and
 *                     return, which every programming pays
 *   pr_working_afu    from the ioctl to the new AFU answering through a
 *                     fresh open and mmap of the port (what a user waits)
 *                     vs the same open, mmap and read with no programming
 *
 * Prints a table, and the same figures as JSON between BENCH-JSON-BEGIN
 * and BENCH-JSON-END lines (the host stores them in build/bench.json).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_util.h"
#include "nlb_util.h"
#include "pr_util.h"
#include "uio_util.h"
#include "bench_util.h"

#define PR_ROUNDS	10

static int fme_fd;
static uint8_t *bs;
static size_t bs_len;
static char port_dev[64];

static void program(void)
{
	if (pr_program(fme_fd, 0, bs, bs_len)) {
		perror("DFL_FPGA_FME_PORT_PR");
		exit(1);
	}
}

/* The port's driver let go and bound again, as a programming does */
static void rebind(int num)
{
	char name[32];

	snprintf(name, sizeof(name), "fpga-port.%d", num);
	if (sysfs_write(DFL_BUS "/drivers/fpga_port/unbind", name) ||
	    sysfs_write(DFL_BUS "/drivers/fpga_port/bind", name)) {
		fprintf(stderr, "pr_bench: cannot rebind %s\n", name);
		exit(1);
	}
}

/* Open the port, map the AFU and read its header: what a user does next */
static void afu_answers(void)
{
	volatile uint64_t *afu;
	int fd = open(port_dev, O_RDWR);

	if (fd < 0) {
		perror(port_dev);
		exit(1);
	}
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	if (afu == MAP_FAILED || afu[0] >> 60 != 1) {
		fprintf(stderr, "pr_bench: the AFU does not answer\n");
		exit(1);
	}
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
}

int main(void)
{
	unsigned int card = sim_random_id();
	struct bench_stat t_pr, t_rebind, t_ready, t_open;
	char path[256], dev[64];
	int num;

	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme") ||
	    sim_add(card, 1) ||
	    card_child(card, "fpga-fme.", path, sizeof(path))) {
		fprintf(stderr, "pr_bench: cannot create a simulated card\n");
		return 1;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(path, '/') + 1);
	fme_fd = open(dev, O_RDWR);
	num = sim_port_number(card);
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 0, &bs_len);
	if (fme_fd < 0 || num < 0 || !bs) {
		fprintf(stderr, "pr_bench: no FME, port or bitstream\n");
		return 1;
	}
	snprintf(port_dev, sizeof(port_dev), "/dev/fpga-port.%d", num);

	BENCH_PAIR("pr_program", t_pr,
		   for (int i = 0; i < PR_ROUNDS; i++) program(),
		   t_rebind, for (int i = 0; i < PR_ROUNDS; i++) rebind(num));
	bench_add("pr_program", bench_scale(t_pr, 1 / 1e3 / PR_ROUNDS), "us",
		  bench_scale(t_rebind, 1 / 1e3 / PR_ROUNDS),
		  "driver unbind + bind", t_rebind.med / t_pr.med, 0);

	BENCH_PAIR("pr_working_afu", t_ready,
		   for (int i = 0; i < PR_ROUNDS; i++) { program(); afu_answers(); },
		   t_open, for (int i = 0; i < PR_ROUNDS; i++) afu_answers());
	bench_add("pr_working_afu", bench_scale(t_ready, 1 / 1e3 / PR_ROUNDS),
		  "us", bench_scale(t_open, 1 / 1e3 / PR_ROUNDS),
		  "open + mmap + read, no programming", t_open.med / t_ready.med,
		  0);
	bench_print("pr");

	free(bs);
	close(fme_fd);
	sim_del(card);
	return 0;
}
