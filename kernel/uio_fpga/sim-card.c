// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's register file and the model that plays its hardware.
 *
 * Layout of the window (one BAR):
 *   0x00000  FME header -> global error -> global performance (EOL)
 *   P        port header -> port error -> user interrupts (EOL)
 *   P+64K    AFU (NLB0), PORT_CAP.MMIO_SIZE long
 * with P = 64K + n * (64K + AFU size) for port n.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>

#include "dfl-core.h"
#include "sim.h"

#define FPGA_SIM_FME_GUID_L		0x82fee346524ae92aULL
#define FPGA_SIM_FME_GUID_H		0xf9e1776438f0afbfULL
#define FPGA_SIM_PORT_GUID_L		0xa4c33a8a96eab1c0ULL
#define FPGA_SIM_PORT_GUID_H		0x3bbed86a8d0c4ef1ULL
#define FPGA_SIM_BITSTREAM_ID		0x0100000000010203ULL
#define FPGA_SIM_BITSTREAM_MD		0x0000000020260101ULL

/* How long the model polls fast after the last register activity */
#define FPGA_SIM_BUSY_WINDOW		msecs_to_jiffies(20)

static u64 fpga_sim_dfh(unsigned int type, unsigned int id, size_t next,
			bool eol)
{
	return FIELD_PREP(DFH_TYPE, type) | FIELD_PREP(DFH_ID, id) |
	       FIELD_PREP(DFH_NEXT, next) | (eol ? DFH_EOL : 0);
}

static void fpga_sim_layout_fme(struct fpga_sim *sim)
{
	unsigned int n;

	fpga_sim_write(sim, DFH, fpga_sim_dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME,
					      SZ_4K, false));
	fpga_sim_write(sim, DFH_GUID_L, FPGA_SIM_FME_GUID_L);
	fpga_sim_write(sim, DFH_GUID_H, FPGA_SIM_FME_GUID_H);
	fpga_sim_write(sim, FME_HDR_CAP,
		       FIELD_PREP(FME_CAP_FABRIC_VERID, 1) |
		       FIELD_PREP(FME_CAP_NUM_PORTS, sim->num_ports) |
		       FIELD_PREP(FME_CAP_ADDR_WIDTH, 48));
	for (n = 0; n < sim->num_ports; n++)
		fpga_sim_write(sim, FME_HDR_PORT_OFST(n),
			       FME_PORT_OFST_IMP |
			       FIELD_PREP(FME_PORT_OFST_DFH, sim->ports[n].hdr));
	fpga_sim_write(sim, FME_HDR_BITSTREAM_ID, FPGA_SIM_BITSTREAM_ID);
	fpga_sim_write(sim, FME_HDR_BITSTREAM_MD, FPGA_SIM_BITSTREAM_MD);

	fpga_sim_write(sim, SZ_4K,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, FME_FEATURE_ID_GLOBAL_ERR,
				    SZ_4K, false));
	fpga_sim_write(sim, 2 * SZ_4K,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE,
				    FME_FEATURE_ID_GLOBAL_IPERF, SZ_4K, true));
}

static void fpga_sim_layout_port(struct fpga_sim *sim, unsigned int n)
{
	size_t hdr = sim->ports[n].hdr, afu = sim->ports[n].afu;

	fpga_sim_write(sim, hdr + DFH,
		       fpga_sim_dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, SZ_4K, false));
	fpga_sim_write(sim, hdr + DFH_GUID_L, FPGA_SIM_PORT_GUID_L);
	fpga_sim_write(sim, hdr + DFH_GUID_H, FPGA_SIM_PORT_GUID_H);
	fpga_sim_write(sim, hdr + FIU_NEXT_AFU,
		       FIELD_PREP(FIU_NEXT_AFU_OFFSET, afu - hdr));
	fpga_sim_write(sim, hdr + PORT_HDR_CAP,
		       FIELD_PREP(PORT_CAP_PORT_NUM, n) |
		       FIELD_PREP(PORT_CAP_MMIO_SIZE, sim->afu_size / SZ_1K));

	fpga_sim_write(sim, hdr + SZ_4K,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR,
				    SZ_4K, false));
	fpga_sim_write(sim, hdr + 2 * SZ_4K,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_UINT,
				    SZ_4K, true));

	fpga_sim_write(sim, afu + DFH, fpga_sim_dfh(DFH_TYPE_AFU, 0, 0, true));
	fpga_sim_write(sim, afu + DFH_GUID_L, NLB0_AFU_GUID_L);
	fpga_sim_write(sim, afu + DFH_GUID_H, NLB0_AFU_GUID_H);
}

/*
 * Registers are plain memory written by the drivers with plain stores, so
 * the model changes them only with a compare-and-exchange: a driver store
 * that lands between our read and write is never lost.
 */
static bool fpga_sim_update(struct fpga_sim *sim, size_t ofs, u64 old, u64 val)
{
	return cmpxchg64(fpga_sim_reg(sim, ofs), old, val) == old;
}

/* What a port does when software pulls its soft reset */
static void fpga_sim_port_reset(struct fpga_sim *sim, struct fpga_sim_port *port)
{
	size_t afu = port->afu;

	fpga_sim_write(sim, afu + NLB_CTL, 0);
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);
	port->resets++;
}

/* The soft-reset handshake: ACK follows SFTRST in both directions */
static bool fpga_sim_port_step(struct fpga_sim *sim, struct fpga_sim_port *port)
{
	size_t ctrl_ofs = port->hdr + PORT_HDR_CTRL;
	u64 ctrl = fpga_sim_read(sim, ctrl_ofs);
	bool in_reset = ctrl & PORT_CTRL_SFTRST;
	bool acked = ctrl & PORT_CTRL_SFTRST_ACK;

	if (in_reset == acked)
		return false;
	if (in_reset && READ_ONCE(sim->fail_reset_ack))
		return false;

	if (in_reset)
		fpga_sim_port_reset(sim, port);
	fpga_sim_update(sim, ctrl_ofs, ctrl, ctrl ^ PORT_CTRL_SFTRST_ACK);
	return true;
}

static int fpga_sim_model_thread(void *data)
{
	struct fpga_sim *sim = data;
	unsigned long last_busy = jiffies;
	unsigned int n;

	while (!kthread_should_stop()) {
		bool busy = false;

		for (n = 0; n < sim->num_ports; n++)
			busy |= fpga_sim_port_step(sim, &sim->ports[n]);

		/* Poll fast while software is talking to us, slowly otherwise */
		if (busy)
			last_busy = jiffies;
		if (time_before(jiffies, last_busy + FPGA_SIM_BUSY_WINDOW))
			usleep_range(10, 20);
		else
			usleep_range(100, 200);
	}
	return 0;
}

int fpga_sim_card_init(struct fpga_sim *sim)
{
	struct fpga_dfl_card_info info = { };
	size_t stride = FPGA_SIM_PORT_HDR_SIZE + sim->afu_size;
	unsigned int n;
	int ret;

	sim->regs_size = PAGE_ALIGN(FPGA_SIM_FME_SIZE + sim->num_ports * stride);
	sim->regs = alloc_pages_exact(sim->regs_size, GFP_KERNEL | __GFP_ZERO);
	if (!sim->regs)
		return -ENOMEM;

	for (n = 0; n < sim->num_ports; n++) {
		sim->ports[n].hdr = FPGA_SIM_FME_SIZE + n * stride;
		sim->ports[n].afu = sim->ports[n].hdr + FPGA_SIM_PORT_HDR_SIZE;
		fpga_sim_layout_port(sim, n);
	}
	fpga_sim_layout_fme(sim);

	sim->model = kthread_run(fpga_sim_model_thread, sim, "fpga_sim%u",
				 sim->id);
	if (IS_ERR(sim->model)) {
		ret = PTR_ERR(sim->model);
		goto err_free_regs;
	}

	info.parent = &sim->dev;
	info.ioaddr = (void __force __iomem *)sim->regs;
	info.start = virt_to_phys(sim->regs);
	info.len = sim->regs_size;
	info.cacheable = true;
	sim->card = fpga_dfl_card_add(&info);
	if (IS_ERR(sim->card)) {
		ret = PTR_ERR(sim->card);
		goto err_stop_model;
	}
	return 0;

err_stop_model:
	kthread_stop(sim->model);
err_free_regs:
	free_pages_exact(sim->regs, sim->regs_size);
	return ret;
}

void fpga_sim_card_fini(struct fpga_sim *sim)
{
	fpga_dfl_card_remove(sim->card);
	kthread_stop(sim->model);
	free_pages_exact(sim->regs, sim->regs_size);
}
