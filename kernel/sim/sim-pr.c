// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FME's partial reconfiguration engine of the simulated card.
 *
 * Its registers are those of the DFL PR feature (dfl-regs.h), with the
 * staging window of FME_PR_STAGE_CAP in place of the FIFO: a model that
 * polls memory cannot see a register written twice.  The engine:
 * - PR_RST: drops what it was doing and clears PR_ERR; PR_RSTACK follows
 *   PR_RST both ways.
 * - START, with RGN_ID naming the port: takes a bitstream.  Each store of
 *   a length to STAGE_LEN appends that many bytes of the window, and the
 *   engine writes STAGE_LEN back to 0 when it has them.
 * - COMPLETE: checks the bitstream (include/uapi/linux/fpga-sim.h) and, if
 *   it is good, loads its AFU's model into the port; then clears START
 *   and COMPLETE.  A bad one leaves the port's AFU as it was and PR_ERR
 *   says why: CRC (magic, sizes or CRC), INCOMPATIBLE (another interface
 *   id), OPERATION (an AFU the card has no model for, nonzero flags, a
 *   port that does not exist, is not held in soft reset, or that the
 *   FME's port offset register says is a VF's or not implemented: RGN_ID
 *   is the FME's port number), FIFO_OVERFLOW
 *   (more than FPGA_SIM_BS_MAX_SIZE, or a STAGE_LEN past the window).
 * Stores to PR_ERR and PR_STS change nothing: the engine keeps PR_ERR
 * until its next reset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/fpga-sim.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "fpga-compat.h"
#include "sim.h"
#include "sim_trace.h"

#define FPGA_SIM_PR_REG(r)	(FPGA_SIM_FME_PR + (r))

/**
 * fpga_sim_pr_layout() - the PR feature, last of the FME's list
 * @sim: the card
 */
void fpga_sim_pr_layout(struct fpga_sim *sim)
{
	uuid_t id;

	/* An EOL feature's "next" is its size */
	fpga_sim_write(sim, FPGA_SIM_PR_REG(DFH),
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, FME_FEATURE_ID_PR,
				    FPGA_SIM_PR_SIZE, true));
	fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_STAGE_CAP),
		       FIELD_PREP(FME_PR_STAGE_CAP_MAGIC, FME_PR_STAGE_MAGIC) |
		       FIELD_PREP(FME_PR_STAGE_CAP_OFS,
				  FPGA_SIM_PR_STAGE / SZ_4K) |
		       FIELD_PREP(FME_PR_STAGE_CAP_SIZE,
				  FPGA_SIM_PR_STAGE_SIZE / SZ_1K));
	if (WARN_ON(uuid_parse(FPGA_SIM_INTERFACE_ID, &id)))
		return;
	fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_INTFC_ID_H),
		       get_unaligned_be64(id.b));
	fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_INTFC_ID_L),
		       get_unaligned_be64(id.b + 8));
}

/* Drop the bitstream taken so far */
static void fpga_sim_pr_drop(struct fpga_sim *sim)
{
	struct fpga_sim_pr *pr = &sim->pr;

	kvfree(pr->buf);
	pr->buf = NULL;
	pr->len = 0;
	pr->overflow = false;
	pr->busy = false;
	fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_STS), 0);
}

/* START: a programming of the port RGN_ID names begins */
static void fpga_sim_pr_begin(struct fpga_sim *sim, u64 ctrl)
{
	struct fpga_sim_pr *pr = &sim->pr;

	pr->busy = true;
	pr->port = FIELD_GET(FME_PR_CTRL_RGN_ID, ctrl);
	pr->len = 0;
	pr->overflow = false;
	/* A failed allocation is an operation error at the end */
	pr->buf = kvmalloc(FPGA_SIM_BS_MAX_SIZE, GFP_KERNEL);
	fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_STS), FME_PR_STS_BUSY);
}

/* Take what software staged; true if there was something */
static bool fpga_sim_pr_take(struct fpga_sim *sim)
{
	struct fpga_sim_pr *pr = &sim->pr;
	u64 len = fpga_sim_read(sim, FPGA_SIM_PR_REG(FME_PR_STAGE_LEN));

	if (!len)
		return false;
	/* The window was written before the length */
	smp_rmb();
	if (len > FPGA_SIM_PR_STAGE_SIZE ||
	    len > FPGA_SIM_BS_MAX_SIZE - pr->len)
		pr->overflow = true;
	else if (pr->buf)
		memcpy(pr->buf + pr->len,
		       sim->regs + FPGA_SIM_FME_PR + FPGA_SIM_PR_STAGE, len);
	if (!pr->overflow)
		pr->len += len;
	/* Software stores nothing here until it reads 0 */
	fpga_sim_update(sim, FPGA_SIM_PR_REG(FME_PR_STAGE_LEN), len, 0);
	return true;
}

/*
 * RGN_ID is the FME's number for the port, the n of FME_HDR_PORT_OFST(n):
 * the port must be there, the PF's (not a VF's) and held in reset
 */
static bool fpga_sim_pr_port_ok(struct fpga_sim *sim, unsigned int n)
{
	u64 ofst;

	if (n >= sim->num_ports || !sim->ports[n].in_reset)
		return false;
	ofst = fpga_sim_read(sim, FME_HDR_PORT_OFST(n));
	return (ofst & FME_PORT_OFST_IMP) && !(ofst & FME_PORT_OFST_ACC_VF);
}

/* What is wrong with the bitstream taken (PR_ERR bits); @model if good */
static u64 fpga_sim_pr_check(struct fpga_sim *sim,
			     const struct fpga_sim_afu_model **model)
{
	struct fpga_sim_pr *pr = &sim->pr;
	const struct fpga_sim_bitstream *bs = (const void *)pr->buf;
	u32 crc;

	if (pr->overflow)
		return FME_PR_ERR_FIFO_OVERFLOW;
	if (!pr->buf || !fpga_sim_pr_port_ok(sim, pr->port))
		return FME_PR_ERR_OPERATION;
	if (pr->len < sizeof(*bs) + sizeof(crc) ||
	    memcmp(bs->magic, FPGA_SIM_BS_MAGIC, sizeof(bs->magic)) ||
	    le32_to_cpu(bs->hdr_size) != sizeof(*bs) ||
	    le32_to_cpu(bs->total_size) != pr->len)
		return FME_PR_ERR_CRC;
	crc = ~crc32_le(~0U, pr->buf, pr->len - sizeof(crc));
	if (crc != get_unaligned_le32(pr->buf + pr->len - sizeof(crc)))
		return FME_PR_ERR_CRC;
	if (get_unaligned_be64(bs->interface_id) !=
	    fpga_sim_read(sim, FPGA_SIM_PR_REG(FME_PR_INTFC_ID_H)) ||
	    get_unaligned_be64(bs->interface_id + 8) !=
	    fpga_sim_read(sim, FPGA_SIM_PR_REG(FME_PR_INTFC_ID_L)))
		return FME_PR_ERR_INCOMPATIBLE;
	if (bs->flags || memchr_inv(bs->reserved, 0, sizeof(bs->reserved)))
		return FME_PR_ERR_OPERATION;
	*model = fpga_sim_afu_model_find(get_unaligned_be64(bs->afu_id),
					 get_unaligned_be64(bs->afu_id + 8));
	return *model ? 0 : FME_PR_ERR_OPERATION;
}

/* COMPLETE: load the AFU, or say why not; then the end of START */
static void fpga_sim_pr_end(struct fpga_sim *sim, u64 ctrl)
{
	const struct fpga_sim_afu_model *model = NULL;
	unsigned int port = sim->pr.port;
	u64 err = fpga_sim_pr_check(sim, &model);

	if (!err)
		fpga_sim_afu_load(sim, port, model);
	trace_pr_end(sim, port, sim->pr.len, err, model);
	fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_ERR), err);
	fpga_sim_pr_drop(sim);
	/* The AFU and PR_ERR before the end that software polls for */
	smp_wmb();
	fpga_sim_update(sim, FPGA_SIM_PR_REG(FME_PR_CTRL), ctrl,
			ctrl & ~(FME_PR_CTRL_START | FME_PR_CTRL_COMPLETE));
}

/* PR_RST and its ACK; true while the engine is in reset or leaving it */
static bool fpga_sim_pr_reset_step(struct fpga_sim *sim, u64 ctrl, bool *busy)
{
	struct fpga_sim_pr *pr = &sim->pr;
	bool want = ctrl & FME_PR_CTRL_PR_RST;
	bool acked = ctrl & FME_PR_CTRL_PR_RSTACK;

	if (want && !pr->in_reset) {
		fpga_sim_pr_drop(sim);
		fpga_sim_write(sim, FPGA_SIM_PR_REG(FME_PR_ERR), 0);
		pr->in_reset = true;
		*busy = true;
	} else if (!want && pr->in_reset) {
		pr->in_reset = false;
		*busy = true;
	}
	/* On a race with a store, the next pass tries again */
	if (acked != want) {
		fpga_sim_update(sim, FPGA_SIM_PR_REG(FME_PR_CTRL), ctrl,
				ctrl ^ FME_PR_CTRL_PR_RSTACK);
		*busy = true;
	}
	return want || acked;
}

/**
 * fpga_sim_pr_step() - react to what software wrote to the PR engine
 * @sim: the card
 *
 * Return: true if there was something to do.
 */
bool fpga_sim_pr_step(struct fpga_sim *sim)
{
	u64 ctrl = fpga_sim_read(sim, FPGA_SIM_PR_REG(FME_PR_CTRL));
	struct fpga_sim_pr *pr = &sim->pr;
	bool busy = false;

	/* What software stored before CTRL is seen from here on */
	smp_rmb();
	if (fpga_sim_pr_reset_step(sim, ctrl, &busy))
		return busy;
	if (!pr->busy) {
		if (!(ctrl & FME_PR_CTRL_START))
			return busy;
		fpga_sim_pr_begin(sim, ctrl);
		return true;
	}
	busy |= fpga_sim_pr_take(sim);
	if ((ctrl & FME_PR_CTRL_COMPLETE) &&
	    !fpga_sim_read(sim, FPGA_SIM_PR_REG(FME_PR_STAGE_LEN))) {
		fpga_sim_pr_end(sim, ctrl);
		busy = true;
	}
	return busy;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_pr_step);

/**
 * fpga_sim_pr_fini() - free what a programming cut short left
 * @sim: the card, whose model has stopped
 */
void fpga_sim_pr_fini(struct fpga_sim *sim)
{
	kvfree(sim->pr.buf);
	sim->pr.buf = NULL;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_pr_fini);
