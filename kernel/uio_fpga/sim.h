/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_sim: a simulated DFL card.
 *
 * The card's register file is ordinary memory laid out as a Device Feature
 * List.  The drivers reach it only through the __iomem accessors; a model
 * thread plays the hardware, reacting to what they write.
 */
#ifndef _FPGA_SIM_H
#define _FPGA_SIM_H

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "dfl-regs.h"

#define FPGA_SIM_MAX_PORTS		FME_MAX_PORTS
#define FPGA_SIM_FME_SIZE		SZ_64K
#define FPGA_SIM_PORT_HDR_SIZE		SZ_64K
#define FPGA_SIM_DEFAULT_AFU_SIZE	SZ_256K

struct fpga_dfl_card;
struct task_struct;

/**
 * struct fpga_sim_port - the model of one port
 * @hdr:	offset of the port header in the register file
 * @afu:	offset of the AFU
 * @resets:	completed soft resets
 */
struct fpga_sim_port {
	size_t hdr;
	size_t afu;
	u64 resets;
};

/**
 * struct fpga_sim - one simulated card
 * @dev:	the card device on the fpga_sim bus
 * @id:		the id user space gave in new_device
 * @num_ports:	number of ports
 * @afu_size:	MMIO size of each AFU
 * @regs:	the register file
 * @regs_size:	its size
 * @ports:	per-port model state
 * @model:	the thread that plays the hardware
 * @card:	the card as enumerated by fpga_dfl
 * @fail_reset_ack: fault injection: never acknowledge a soft reset
 */
struct fpga_sim {
	struct device dev;
	unsigned int id;
	unsigned int num_ports;
	size_t afu_size;
	void *regs;
	size_t regs_size;
	struct fpga_sim_port ports[FPGA_SIM_MAX_PORTS];
	struct task_struct *model;
	struct fpga_dfl_card *card;
	bool fail_reset_ack;
};

#define to_fpga_sim(d) container_of(d, struct fpga_sim, dev)

/* The model owns the register file: it uses plain memory accesses */
static inline u64 *fpga_sim_reg(struct fpga_sim *sim, size_t ofs)
{
	return sim->regs + ofs;
}

static inline u64 fpga_sim_read(struct fpga_sim *sim, size_t ofs)
{
	return READ_ONCE(*fpga_sim_reg(sim, ofs));
}

static inline void fpga_sim_write(struct fpga_sim *sim, size_t ofs, u64 val)
{
	WRITE_ONCE(*fpga_sim_reg(sim, ofs), val);
}

int fpga_sim_card_init(struct fpga_sim *sim);
void fpga_sim_card_fini(struct fpga_sim *sim);

#endif /* _FPGA_SIM_H */
