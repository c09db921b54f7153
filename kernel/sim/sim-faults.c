// SPDX-License-Identifier: GPL-2.0-only
/*
 * Other Device Feature Lists than the card's normal one, for the parser's
 * tests: a DFHv1 feature with parameters, and the malformed lists the
 * parser must report and survive.  Chosen with the module parameter
 * dfl_layout before new_device; each change is made to the first port's
 * list (the loop also needs a second port), except dfh2_port, which takes
 * the last port's header so that the ports before it keep their numbers,
 * and dfh2_fme_feature.  And an older card's counter bank, for the
 * drivers: cntr8; and a card whose port 0 the PF does not have (port0_vf,
 * port0_absent: the FME's port offset register says so, the port's
 * registers and model stay), so that the ports after it keep their
 * numbers with a gap before them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "sim.h"

enum fpga_sim_layout {
	FPGA_SIM_LAYOUT_NORMAL,
	FPGA_SIM_LAYOUT_DFHV1,		/* UINT as DFHv1, MSI-X parameter */
	FPGA_SIM_LAYOUT_LOOP,		/* port 1's offset is port 0's */
	FPGA_SIM_LAYOUT_OUTSIDE,	/* port error's next leaves the window */
	FPGA_SIM_LAYOUT_NEXT0,		/* port error's next is 0, no EOL */
	FPGA_SIM_LAYOUT_UNKNOWN_TYPE,	/* port error has DFH type 7 */
	FPGA_SIM_LAYOUT_BAD_IRQ,	/* UINT vectors past the card's */
	FPGA_SIM_LAYOUT_DFH2_FME_FEATURE, /* FME global error of DFH version 2 */
	FPGA_SIM_LAYOUT_DFH2_PORT,	/* the last port's header, version 2 */
	FPGA_SIM_LAYOUT_DFH2_AFU,	/* the AFU of DFH version 2 */
	FPGA_SIM_LAYOUT_SHORT_FEATURE,	/* port error as DFHv1, 8 bytes of CSRs */
	FPGA_SIM_LAYOUT_AFU_UINT_ID,	/* the AFU's DFH id is the UINT's */
	FPGA_SIM_LAYOUT_AFU_ON_PORT,	/* DFHv1 AFU, registers: its port header */
	FPGA_SIM_LAYOUT_AFU_ON_FME,	/* DFHv1 AFU, registers: the FME header */
	FPGA_SIM_LAYOUT_FEATURE_ON_AFU,	/* DFHv1 UINT, registers: the AFU */
	FPGA_SIM_LAYOUT_AFU_UNALIGNED,	/* the AFU starts 1 KiB into a page */
	FPGA_SIM_LAYOUT_CNTR8,		/* a counter bank of eight events */
	FPGA_SIM_LAYOUT_PORT0_VF,	/* port 0 assigned to a VF */
	FPGA_SIM_LAYOUT_PORT0_ABSENT,	/* port 0 not implemented */
};

static const char * const fpga_sim_layout_names[] = {
	[FPGA_SIM_LAYOUT_NORMAL]	= "normal",
	[FPGA_SIM_LAYOUT_DFHV1]		= "dfhv1",
	[FPGA_SIM_LAYOUT_LOOP]		= "loop",
	[FPGA_SIM_LAYOUT_OUTSIDE]	= "outside",
	[FPGA_SIM_LAYOUT_NEXT0]		= "next0",
	[FPGA_SIM_LAYOUT_UNKNOWN_TYPE]	= "unknown_type",
	[FPGA_SIM_LAYOUT_BAD_IRQ]	= "bad_irq",
	[FPGA_SIM_LAYOUT_DFH2_FME_FEATURE] = "dfh2_fme_feature",
	[FPGA_SIM_LAYOUT_DFH2_PORT]	= "dfh2_port",
	[FPGA_SIM_LAYOUT_DFH2_AFU]	= "dfh2_afu",
	[FPGA_SIM_LAYOUT_SHORT_FEATURE]	= "short_feature",
	[FPGA_SIM_LAYOUT_AFU_UINT_ID]	= "afu_uint_id",
	[FPGA_SIM_LAYOUT_AFU_ON_PORT]	= "afu_on_port",
	[FPGA_SIM_LAYOUT_AFU_ON_FME]	= "afu_on_fme",
	[FPGA_SIM_LAYOUT_FEATURE_ON_AFU] = "feature_on_afu",
	[FPGA_SIM_LAYOUT_AFU_UNALIGNED]	= "afu_unaligned",
	[FPGA_SIM_LAYOUT_CNTR8]		= "cntr8",
	[FPGA_SIM_LAYOUT_PORT0_VF]	= "port0_vf",
	[FPGA_SIM_LAYOUT_PORT0_ABSENT]	= "port0_absent",
};

static int fpga_sim_layout = FPGA_SIM_LAYOUT_NORMAL;

static int fpga_sim_layout_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(fpga_sim_layout_names, val);

	if (i < 0) {
		pr_err("dfl_layout: unknown layout %s\n", val);
		return i;
	}
	WRITE_ONCE(fpga_sim_layout, i);
	return 0;
}

static int fpga_sim_layout_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  fpga_sim_layout_names[READ_ONCE(fpga_sim_layout)]);
}

static const struct kernel_param_ops fpga_sim_layout_ops = {
	.set = fpga_sim_layout_set,
	.get = fpga_sim_layout_get,
};
module_param_cb(dfl_layout, &fpga_sim_layout_ops, NULL, 0644);
MODULE_PARM_DESC(dfl_layout,
		 "DFL of cards created next: normal, dfhv1, loop, outside, next0, unknown_type, bad_irq, dfh2_fme_feature, dfh2_port, dfh2_afu, short_feature, afu_uint_id, afu_on_port, afu_on_fme, feature_on_afu, afu_unaligned, cntr8, port0_vf, port0_absent");

static void fpga_sim_set_bits(struct fpga_sim *sim, size_t ofs, u64 mask,
			      u64 val)
{
	fpga_sim_write(sim, ofs, (fpga_sim_read(sim, ofs) & ~mask) | val);
}

/* The UINT feature as DFHv1: registers at the DFH, vectors in a parameter */
static void fpga_sim_layout_dfhv1(struct fpga_sim *sim, size_t uint)
{
	fpga_sim_set_bits(sim, uint, DFH_VERSION, FIELD_PREP(DFH_VERSION, 1));
	fpga_sim_write(sim, uint + PORT_UINT_CAP, 0);
	fpga_sim_write(sim, uint + DFHV1_CSR_ADDR, 0);	/* relative, +0 */
	fpga_sim_write(sim, uint + DFHV1_CSR_SIZE_GRP,
		       FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K) | DFHV1_HAS_PARAMS);
	fpga_sim_write(sim, uint + DFHV1_PARAM_HDR,
		       FIELD_PREP(DFHV1_PARAM_ID, DFHV1_PARAM_ID_MSIX) |
		       DFHV1_PARAM_EOP);
	fpga_sim_write(sim, uint + DFHV1_PARAM_HDR + DFHV1_PARAM_DATA,
		       FIELD_PREP(DFHV1_PARAM_MSIX_START,
				  FPGA_SIM_PORT_UINT_VEC(0, 0)) |
		       FIELD_PREP(DFHV1_PARAM_MSIX_COUNT, FPGA_SIM_NUM_UINT));
}

/* A future DFH version on the header at @ofs */
static void fpga_sim_layout_dfh2(struct fpga_sim *sim, size_t ofs)
{
	fpga_sim_set_bits(sim, ofs, DFH_VERSION, FIELD_PREP(DFH_VERSION, 2));
}

/* A DFHv1 feature whose registers are fewer than its driver reads */
static void fpga_sim_layout_short(struct fpga_sim *sim, size_t feat)
{
	fpga_sim_set_bits(sim, feat, DFH_VERSION, FIELD_PREP(DFH_VERSION, 1));
	fpga_sim_write(sim, feat + DFHV1_CSR_ADDR, 0);	/* relative, +0 */
	fpga_sim_write(sim, feat + DFHV1_CSR_SIZE_GRP,
		       FIELD_PREP(DFHV1_CSR_SIZE, 8));
}

/* The feature at @ofs as DFHv1, its 4 KiB of registers at CSR_ADDR @addr */
static void fpga_sim_layout_regs_at(struct fpga_sim *sim, size_t ofs, u64 addr)
{
	fpga_sim_set_bits(sim, ofs, DFH_VERSION, FIELD_PREP(DFH_VERSION, 1));
	fpga_sim_write(sim, ofs + DFHV1_CSR_ADDR, addr);
	fpga_sim_write(sim, ofs + DFHV1_CSR_SIZE_GRP,
		       FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
}

/* Port @n's AFU moved 1 KiB up, 1 KiB shorter: not on a page any more */
static void fpga_sim_layout_afu_unaligned(struct fpga_sim *sim, unsigned int n)
{
	size_t hdr = sim->ports[n].hdr, afu = sim->ports[n].afu;
	unsigned int i;

	for (i = DFH; i <= DFH_GUID_H; i += 8)
		fpga_sim_write(sim, afu + SZ_1K + i, fpga_sim_read(sim, afu + i));
	fpga_sim_write(sim, hdr + FIU_NEXT_AFU,
		       FIELD_PREP(FIU_NEXT_AFU_OFFSET, afu + SZ_1K - hdr));
	fpga_sim_set_bits(sim, hdr + PORT_HDR_CAP, PORT_CAP_MMIO_SIZE,
			  FIELD_PREP(PORT_CAP_MMIO_SIZE,
				     sim->afu_size / SZ_1K - 1));
}

/* Hostile lists: features whose registers are another's, or unmappable */
static void fpga_sim_layout_hostile(struct fpga_sim *sim, int layout)
{
	size_t hdr = sim->ports[0].hdr, afu = sim->ports[0].afu;
	size_t uint = hdr + FPGA_SIM_PORT_UINT;

	switch (layout) {
	case FPGA_SIM_LAYOUT_AFU_UINT_ID:
		fpga_sim_set_bits(sim, afu, DFH_ID,
				  FIELD_PREP(DFH_ID, PORT_FEATURE_ID_UINT));
		break;
	case FPGA_SIM_LAYOUT_AFU_ON_PORT:	/* relative, backwards */
		fpga_sim_layout_regs_at(sim, afu, (u64)hdr - afu);
		break;
	case FPGA_SIM_LAYOUT_AFU_ON_FME:
		fpga_sim_layout_regs_at(sim, afu, virt_to_phys(sim->regs) |
					DFHV1_CSR_ADDR_ABS);
		break;
	case FPGA_SIM_LAYOUT_FEATURE_ON_AFU:
		fpga_sim_layout_regs_at(sim, uint, afu - uint);
		break;
	case FPGA_SIM_LAYOUT_AFU_UNALIGNED:
		fpga_sim_layout_afu_unaligned(sim, 0);
		break;
	}
}

/**
 * fpga_sim_layout_faults() - apply the chosen dfl_layout to a laid-out card
 * @sim: the card, whose register file holds the normal layout
 */
void fpga_sim_layout_faults(struct fpga_sim *sim)
{
	size_t hdr = sim->ports[0].hdr;
	size_t err = hdr + FPGA_SIM_PORT_ERR, uint = hdr + FPGA_SIM_PORT_UINT;
	int layout = READ_ONCE(fpga_sim_layout);

	if (layout != FPGA_SIM_LAYOUT_NORMAL)
		dev_info(&sim->dev, "DFL layout \"%s\"\n",
			 fpga_sim_layout_names[layout]);

	switch (layout) {
	case FPGA_SIM_LAYOUT_DFHV1:
		fpga_sim_layout_dfhv1(sim, uint);
		break;
	case FPGA_SIM_LAYOUT_LOOP:
		if (sim->num_ports > 1)
			fpga_sim_write(sim, FME_HDR_PORT_OFST(1),
				       fpga_sim_read(sim, FME_HDR_PORT_OFST(0)));
		break;
	case FPGA_SIM_LAYOUT_OUTSIDE:
		fpga_sim_set_bits(sim, err, DFH_NEXT,
				  FIELD_PREP(DFH_NEXT, sim->regs_size));
		break;
	case FPGA_SIM_LAYOUT_NEXT0:
		fpga_sim_set_bits(sim, err, DFH_NEXT, 0);
		break;
	case FPGA_SIM_LAYOUT_UNKNOWN_TYPE:
		fpga_sim_set_bits(sim, err, DFH_TYPE, FIELD_PREP(DFH_TYPE, 7));
		break;
	case FPGA_SIM_LAYOUT_DFH2_FME_FEATURE:
		fpga_sim_layout_dfh2(sim, FPGA_SIM_FME_GLOBAL_ERR);
		break;
	case FPGA_SIM_LAYOUT_DFH2_PORT:
		fpga_sim_layout_dfh2(sim, sim->ports[sim->num_ports - 1].hdr);
		break;
	case FPGA_SIM_LAYOUT_DFH2_AFU:
		fpga_sim_layout_dfh2(sim, sim->ports[0].afu);
		break;
	case FPGA_SIM_LAYOUT_SHORT_FEATURE:
		fpga_sim_layout_short(sim, err);
		break;
	case FPGA_SIM_LAYOUT_CNTR8:
		/* The model still counts them all: the drivers must not look */
		fpga_sim_set_bits(sim, FPGA_SIM_FME_COUNTERS + CNTR_CAP,
				  CNTR_CAP_NUM_EVENTS,
				  FIELD_PREP(CNTR_CAP_NUM_EVENTS, 8));
		break;
	case FPGA_SIM_LAYOUT_PORT0_VF:
		fpga_sim_set_bits(sim, FME_HDR_PORT_OFST(0), 0,
				  FME_PORT_OFST_ACC_VF);
		break;
	case FPGA_SIM_LAYOUT_PORT0_ABSENT:
		fpga_sim_set_bits(sim, FME_HDR_PORT_OFST(0), FME_PORT_OFST_IMP,
				  0);
		break;
	case FPGA_SIM_LAYOUT_BAD_IRQ:
		fpga_sim_write(sim, uint + PORT_UINT_CAP,
			       FIELD_PREP(PORT_UINT_CAP_INT_NUM,
					  FPGA_SIM_NUM_UINT) |
			       FIELD_PREP(PORT_UINT_CAP_FST_VECT, 4000));
		break;
	default:
		fpga_sim_layout_hostile(sim, layout);
	}
}
