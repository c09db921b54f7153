/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register map of a Device Feature List card (FME, port, private features)
 * and of the NLB0 loopback AFU.  Shared by the drivers and by the simulated
 * card, which implements the same map.
 */
#ifndef _FPGA_DFL_REGS_H
#define _FPGA_DFL_REGS_H

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>

/* Device Feature Header, at offset 0 of every feature */
#define DFH				0x0
#define DFH_ID				GENMASK_ULL(11, 0)
#define DFH_REVISION			GENMASK_ULL(15, 12)
#define DFH_NEXT			GENMASK_ULL(39, 16)
#define DFH_EOL				BIT_ULL(40)
#define DFH_VERSION			GENMASK_ULL(59, 52)
#define DFH_TYPE			GENMASK_ULL(63, 60)

#define DFH_TYPE_AFU			1
#define DFH_TYPE_PRIVATE		3
#define DFH_TYPE_FIU			4
#define DFH_TYPE_INTERFACE		5

#define DFH_ID_FIU_FME			0
#define DFH_ID_FIU_PORT			1

/* FIU and AFU headers */
#define DFH_GUID_L			0x8
#define DFH_GUID_H			0x10
#define FIU_NEXT_AFU			0x18
#define FIU_NEXT_AFU_OFFSET		GENMASK_ULL(23, 0)
/* Room for either FIU header: the FME's registers run to BITSTREAM_MD */
#define FIU_HDR_SIZE			0x70
/* An AFU header: DFH and GUID */
#define AFU_HDR_SIZE			0x18

/* DFHv1 extension */
#define DFHV1_CSR_ADDR			0x18
#define DFHV1_CSR_ADDR_ABS		BIT_ULL(0)	/* 0: relative to the DFH */
#define DFHV1_CSR_ADDR_MASK		GENMASK_ULL(63, 1)
#define DFHV1_CSR_SIZE_GRP		0x20
#define DFHV1_CSR_SIZE			GENMASK_ULL(63, 32)
#define DFHV1_HAS_PARAMS		BIT_ULL(31)
#define DFHV1_PARAM_HDR			0x28
#define DFHV1_PARAM_ID			GENMASK_ULL(15, 0)
#define DFHV1_PARAM_VERSION		GENMASK_ULL(31, 16)
#define DFHV1_PARAM_EOP			BIT_ULL(32)
#define DFHV1_PARAM_NEXT		GENMASK_ULL(63, 35)	/* in 8-byte words */
#define DFHV1_PARAM_DATA		0x8
#define DFHV1_PARAM_ID_MSIX		1
#define DFHV1_PARAM_MSIX_START		GENMASK_ULL(31, 0)
#define DFHV1_PARAM_MSIX_COUNT		GENMASK_ULL(63, 32)

/* A private feature whose next offset is 0 is given this size */
#define DFL_DEFAULT_FEATURE_SIZE	SZ_4K

/* FME header */
#define FME_HDR_CAP			0x30
#define FME_CAP_FABRIC_VERID		GENMASK_ULL(7, 0)
#define FME_CAP_SOCKET_ID		BIT_ULL(8)
#define FME_CAP_NUM_PORTS		GENMASK_ULL(19, 17)
#define FME_CAP_ADDR_WIDTH		GENMASK_ULL(29, 24)
#define FME_CAP_CACHE_SIZE		GENMASK_ULL(43, 32)
#define FME_HDR_PORT_OFST(n)		(0x38 + (n) * 0x8)
#define FME_PORT_OFST_DFH		GENMASK_ULL(23, 0)
#define FME_PORT_OFST_BAR		GENMASK_ULL(34, 32)
#define FME_PORT_OFST_ACC_VF		BIT_ULL(55)
#define FME_PORT_OFST_IMP		BIT_ULL(60)
#define FME_HDR_BITSTREAM_ID		0x60
#define FME_HDR_BITSTREAM_MD		0x68
#define FME_MAX_PORTS			4

/* FME private features */
#define FME_FEATURE_ID_THERMAL_MGMT	0x1
#define FME_FEATURE_ID_POWER_MGMT	0x2
#define FME_FEATURE_ID_GLOBAL_IPERF	0x3
#define FME_FEATURE_ID_GLOBAL_ERR	0x4

/*
 * FME partial reconfiguration (PR) feature: program the AFU behind a
 * port.  Software resets the engine (PR_RST, wait for PR_RSTACK), names
 * the port in RGN_ID and sets START, hands the bitstream over, sets
 * COMPLETE and waits for PR_STS to return to idle; FME_PR_ERR then holds
 * what went wrong, and keeps it until the next reset of the engine.
 */
#define FME_FEATURE_ID_PR		0x5
#define FME_PR_CTRL			0x08
#define FME_PR_CTRL_PR_RST		BIT_ULL(0)
#define FME_PR_CTRL_PR_RSTACK		BIT_ULL(4)
#define FME_PR_CTRL_RGN_ID		GENMASK_ULL(9, 7)
#define FME_PR_CTRL_START		BIT_ULL(12)
#define FME_PR_CTRL_COMPLETE		BIT_ULL(13)
#define FME_PR_STS			0x10
#define FME_PR_STS_CREDIT		GENMASK_ULL(8, 0)
#define FME_PR_STS_BUSY			BIT_ULL(16)
#define FME_PR_DATA			0x18	/* the FIFO: 32 bits a write */
#define FME_PR_ERR			0x20
#define FME_PR_ERR_OPERATION		BIT_ULL(0)
#define FME_PR_ERR_CRC			BIT_ULL(1)
#define FME_PR_ERR_INCOMPATIBLE		BIT_ULL(2)
#define FME_PR_ERR_PROTOCOL		BIT_ULL(3)
#define FME_PR_ERR_FIFO_OVERFLOW	BIT_ULL(4)
#define FME_PR_ERR_TIMEOUT		BIT_ULL(5)
#define FME_PR_ERR_SECURE_LOAD		BIT_ULL(6)
#define FME_PR_ERR_ALL			GENMASK_ULL(6, 0)
#define FME_PR_INTFC_ID_L		0xa8
#define FME_PR_INTFC_ID_H		0xb0
/*
 * Extension of the simulated card (fpga_sim): a staging window in place
 * of the FIFO, which a model that polls its registers cannot see written
 * word by word.  STAGE_CAP reads FME_PR_STAGE_MAGIC in its upper half and
 * the window's offset in the feature (4 KiB units) and size (KiB) below;
 * a real engine reads 0 there.  Software copies up to a window of the
 * bitstream into it and writes the byte count to STAGE_LEN; the engine
 * takes the bytes and writes STAGE_LEN back to 0.
 */
#define FME_PR_STAGE_CAP		0x40
#define FME_PR_STAGE_CAP_MAGIC		GENMASK_ULL(63, 32)
#define FME_PR_STAGE_MAGIC		0x50525354	/* "PRST" */
#define FME_PR_STAGE_CAP_OFS		GENMASK_ULL(15, 8)	/* 4 KiB */
#define FME_PR_STAGE_CAP_SIZE		GENMASK_ULL(7, 0)	/* KiB */
#define FME_PR_STAGE_LEN		0x48
#define FME_PR_SIZE			(FME_PR_INTFC_ID_H + 8)

/*
 * FME thermal management, in degrees Celsius.  At THRESHOLD1 the hardware
 * throttles the AFUs (50% or 90%, as POLICY says), at THRESHOLD2 fully;
 * at TRIP the board shuts the FPGA down.  The status bits say whether the
 * temperature is at or above a threshold now.  An FPGA that cannot
 * throttle says NO_THROTTLE, and then only the temperature is valid.
 */
#define FME_THERM_THRESHOLD		0x08
#define FME_THERM_THRESHOLD1		GENMASK_ULL(6, 0)
#define FME_THERM_THRESHOLD1_EN		BIT_ULL(7)
#define FME_THERM_THRESHOLD2		GENMASK_ULL(14, 8)
#define FME_THERM_THRESHOLD2_EN		BIT_ULL(15)
#define FME_THERM_TRIP			GENMASK_ULL(30, 24)
#define FME_THERM_THRESHOLD1_STS	BIT_ULL(32)
#define FME_THERM_THRESHOLD2_STS	BIT_ULL(33)
#define FME_THERM_THRESHOLD1_POLICY	BIT_ULL(44)	/* 1: AP1 (50%), 0: AP2 (90%) */
#define FME_THERM_RDSENSOR_FMT1		0x10
#define FME_THERM_TEMPERATURE		GENMASK_ULL(6, 0)
#define FME_THERM_CAP			0x20
#define FME_THERM_CAP_NO_THROTTLE	BIT_ULL(0)
#define FME_THERM_SIZE			(FME_THERM_CAP + 8)

/*
 * FME power management: the power consumed and the thresholds, in watts
 * (at THRESHOLD1 the hardware throttles 50%, at THRESHOLD2 90%; the status
 * bits say whether the power is at or above one now), the Xeon's and the
 * FPGA's power limits in 0.1 W, valid when enabled.  LTR: every AFU
 * tolerates a memory latency of 40 us or more.
 */
#define FME_PWR_STATUS			0x08
#define FME_PWR_CONSUMED		GENMASK_ULL(17, 0)
#define FME_PWR_LTR			BIT_ULL(18)
#define FME_PWR_THRESHOLD		0x10
#define FME_PWR_THRESHOLD1		GENMASK_ULL(6, 0)
#define FME_PWR_THRESHOLD2		GENMASK_ULL(14, 8)
#define FME_PWR_THRESHOLD_MAX		0x7f
#define FME_PWR_THRESHOLD1_STS		BIT_ULL(16)
#define FME_PWR_THRESHOLD2_STS		BIT_ULL(17)
#define FME_PWR_XEON_LIMIT		0x18
#define FME_PWR_FPGA_LIMIT		0x20
#define FME_PWR_LIMIT			GENMASK_ULL(14, 0)	/* 0.1 W */
#define FME_PWR_LIMIT_EN		BIT_ULL(15)
#define FME_PWR_SIZE			(FME_PWR_FPGA_LIMIT + 8)

/*
 * FME global error feature.  The error registers are write-1-to-clear;
 * each has a mask register 8 bytes below it.  RAS_ERROR_INJECT's bits
 * 2:0 inject a catastrophic, a fatal and a non-fatal error, which show
 * as the "injected" bits of the RAS status registers.
 */
#define FME_ERROR_MASK			0x08
#define FME_ERROR			0x10
#define FME_ERROR_MBP			BIT_ULL(6)
#define FME_PCIE0_ERROR_MASK		0x18
#define FME_PCIE0_ERROR			0x20
#define FME_PCIE1_ERROR_MASK		0x28
#define FME_PCIE1_ERROR			0x30
#define FME_FIRST_ERROR			0x38
#define FME_NEXT_ERROR			0x40
#define FME_RAS_NONFAT_ERROR_MASK	0x48
#define FME_RAS_NONFAT_ERROR		0x50
#define FME_RAS_NONFAT_INJECTED_WARNING	BIT_ULL(6)
#define FME_RAS_CATFAT_ERROR_MASK	0x58
#define FME_RAS_CATFAT_ERROR		0x60
#define FME_RAS_CATFAT_INJECTED_FATAL	BIT_ULL(8)
#define FME_RAS_CATFAT_INJECTED_CATAST	BIT_ULL(11)
#define FME_RAS_ERROR_INJECT		0x68
#define FME_RAS_INJECT_CATAST		BIT_ULL(0)
#define FME_RAS_INJECT_FATAL		BIT_ULL(1)
#define FME_RAS_INJECT_NONFATAL		BIT_ULL(2)
#define FME_RAS_INJECT_MASK		GENMASK_ULL(2, 0)
/* Its interrupt capability */
#define FME_ERROR_CAP			0x70
#define FME_ERROR_CAP_SUPP_INT		BIT_ULL(0)
#define FME_ERROR_CAP_INT_VECT		GENMASK_ULL(12, 1)
#define FME_ERROR_SIZE			(FME_ERROR_CAP + 8)

/* Port header */
#define PORT_HDR_CAP			0x30
#define PORT_CAP_PORT_NUM		GENMASK_ULL(1, 0)
#define PORT_CAP_MMIO_SIZE		GENMASK_ULL(23, 8)	/* KiB */
#define PORT_CAP_SUPP_INT_NUM		GENMASK_ULL(35, 32)
#define PORT_HDR_CTRL			0x38
#define PORT_CTRL_SFTRST		BIT_ULL(0)
#define PORT_CTRL_LATENCY		BIT_ULL(2)
#define PORT_CTRL_SFTRST_ACK		BIT_ULL(4)
#define PORT_HDR_STS			0x40
#define PORT_STS_PWR_STATE		GENMASK_ULL(11, 8)
#define PORT_STS_AP1_EVT		BIT_ULL(12)
#define PORT_STS_AP2_EVT		BIT_ULL(13)

/* Port private features */
#define PORT_FEATURE_ID_ERROR		0x10
#define PORT_FEATURE_ID_UMSG		0x11
#define PORT_FEATURE_ID_UINT		0x12
#define PORT_FEATURE_ID_STP		0x13

#define PORT_ERROR_MASK			0x08
#define PORT_ERROR			0x10
#define PORT_FIRST_ERROR		0x18
#define PORT_MALFORMED_REQ0		0x20
#define PORT_MALFORMED_REQ1		0x28
#define PORT_ERROR_CAP			0x38
#define PORT_ERROR_CAP_SUPP_INT		BIT_ULL(0)
#define PORT_ERROR_CAP_INT_VECT		GENMASK_ULL(12, 1)
#define PORT_ERROR_SIZE			(PORT_ERROR_CAP + 8)

#define PORT_UINT_CAP			0x08
#define PORT_UINT_CAP_INT_NUM		GENMASK_ULL(11, 0)
#define PORT_UINT_CAP_FST_VECT		GENMASK_ULL(23, 12)
#define PORT_UINT_SIZE			(PORT_UINT_CAP + 8)

/* NLB0 loopback AFU (OPAE hello_fpga CSR map) */
#define NLB0_AFU_GUID_H			0xd8424dc4a4a3c413ULL
#define NLB0_AFU_GUID_L			0xf89e433683f9040bULL
#define NLB_DSM_BASEL			0x110
#define NLB_DSM_BASEH			0x114
#define NLB_SRC_ADDR			0x120	/* cache-line address */
#define NLB_DST_ADDR			0x128	/* cache-line address */
#define NLB_NUM_LINES			0x130
#define NLB_CTL				0x138
#define NLB_CTL_RESET_N			BIT(0)
#define NLB_CTL_START			BIT(1)
#define NLB_CTL_STOP			BIT(2)
#define NLB_CFG				0x140
#define NLB_STATUS1			0x168
#define NLB_DSM_STATUS			0x40	/* in the DSM: bit 0 = done */
#define NLB_DSM_SIZE			SZ_4K
#define NLB_CACHE_LINE			64
#define NLB_DSM_CLOCKS			0x48	/* in the DSM: run length */
/* Extensions of the simulated NLB0 (fpga_sim) */
#define NLB_CFG_IRQ_ON_DONE		BIT(28)	/* user IRQ 0 when a run ends */
#define NLB_DOORBELL			0x180	/* write BIT(n): raise user IRQ n */

/*
 * Counter bank of the simulated card (fpga_sim): an FME private feature
 * with free-running 64-bit counters, per port and for the whole card.
 * After the header, blocks of eight events: each port's counters of
 * those events, then the card's.  Events 0-7 are in the first block, 8-15
 * in the second, so that a bank of eight events keeps its layout.
 */
#define FME_FEATURE_ID_COUNTERS		0xc0
#define CNTR_CAP			0x08
#define CNTR_CAP_NUM_PORTS		GENMASK_ULL(3, 0)
#define CNTR_CAP_NUM_EVENTS		GENMASK_ULL(11, 4)
#define CNTR_CAP_CLOCK_MHZ		GENMASK_ULL(27, 16)
#define CNTR_CLOCK			0x10
#define CNTR_CARD			FME_MAX_PORTS	/* "port" of card totals */
#define CNTR_EVTS_PER_BLOCK		8
#define CNTR_BLOCK_SIZE			((CNTR_CARD + 1) * 0x40)
#define CNTR_REG(port, event)		fpga_cntr_reg(port, event)
#define CNTR_EVT_DMA_RD_BYTES		0	/* read from memory by the AFU */
#define CNTR_EVT_DMA_WR_BYTES		1	/* written to memory */
#define CNTR_EVT_DMA_RD_LINES		2
#define CNTR_EVT_DMA_WR_LINES		3
#define CNTR_EVT_USER_IRQS		4
#define CNTR_EVT_ERROR_IRQS		5
#define CNTR_EVT_RESETS			6
#define CNTR_EVT_DMA_FAULTS		7
#define CNTR_EVT_AFU_BUSY		8	/* clocks the AFU ran a job */
#define CNTR_NUM_EVENTS			9
/* A bank of @n events; the smallest has the first block */
#define CNTR_BANK_SIZE(n)		(0x40 + ((n) + CNTR_EVTS_PER_BLOCK - 1) / \
					 CNTR_EVTS_PER_BLOCK * CNTR_BLOCK_SIZE)
#define CNTR_SIZE			CNTR_BANK_SIZE(1)

/* Offset of the counter of @event for @port (CNTR_CARD: the card's) */
static inline unsigned int fpga_cntr_reg(unsigned int port, unsigned int event)
{
	return 0x40 + event / CNTR_EVTS_PER_BLOCK * CNTR_BLOCK_SIZE +
	       port * 0x40 + event % CNTR_EVTS_PER_BLOCK * 8;
}

/* Port error register bits the simulated card sets */
#define PORT_ERR_DMA_FAULT		BIT_ULL(0)	/* DMA to an unmapped IOVA */

#endif /* _FPGA_DFL_REGS_H */
