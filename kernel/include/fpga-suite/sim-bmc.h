/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated card's board management controller (board=n3000) as the
 * FME's driver and the card's model both see it (Documentation/sim-card.md):
 *
 * - FME private feature 0xe, an SPI master of the simulated card's own
 *   design (not the register map of Intel's spi-altera/Avalon-MM bridge):
 *   software puts up to 8 bytes in TX, starts a shift with CMD.GO, and
 *   finds the bytes shifted in, in RX, once the card has cleared GO.
 * - Behind it, on chip select 0, a BMC answering register reads in a
 *   protocol of the simulated card's own: one 8-byte full-duplex frame.
 *
 *   byte     0     1        2        3       4..7
 *   host     0x52  addr hi  addr lo  0x00    0x00 ...
 *   BMC      0x00  0x00     0x00     status  value, big-endian
 *
 * Status 0 is a good read; otherwise the value bytes are 0.
 */
#ifndef _FPGA_SUITE_SIM_BMC_H
#define _FPGA_SUITE_SIM_BMC_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/types.h>

/* Upstream's id of the feature (FME_FEATURE_ID_MAX10_SPI in dfl.h) */
#define FME_FEATURE_ID_MAX10_SPI	0xe

/* The SPI master's registers, from the feature's DFH */
#define SIM_SPI_CAP			0x08	/* RO */
#define  SIM_SPI_CAP_NUM_CS		GENMASK_ULL(7, 0)
#define  SIM_SPI_CAP_SHIFT_BYTES	GENMASK_ULL(15, 8)
#define SIM_SPI_TX			0x10	/* byte 0 in bits 7:0, out first */
#define SIM_SPI_CMD			0x18
#define  SIM_SPI_CMD_BYTES		GENMASK_ULL(3, 0)	/* 1..8 */
#define  SIM_SPI_CMD_CS			GENMASK_ULL(11, 8)
/* Chip select was asserted just before this shift: a new frame */
#define  SIM_SPI_CMD_SOF		BIT_ULL(16)
#define  SIM_SPI_CMD_GO			BIT_ULL(63)	/* the card clears it */
#define SIM_SPI_RX			0x20	/* RO, byte 0 in bits 7:0 */
#define SIM_SPI_SIZE			0x28
#define SIM_SPI_MAX_BYTES		8

/* The BMC's frame and registers */
#define SIM_BMC_FRAME_LEN		8
#define SIM_BMC_OP_READ			0x52
#define SIM_BMC_STS_OK			0x00
#define SIM_BMC_STS_BAD_ADDR		0xe1
#define SIM_BMC_STS_BAD_OP		0xe2

#define SIM_BMC_REG_ID			0x0000	/* SIM_BMC_ID */
#define SIM_BMC_REG_VERSION		0x0004
#define SIM_BMC_REG_NUM_SENSORS		0x0008
/* Sensor i's reading, s32 in hwmon's unit: m°C, mV, mA or uW */
#define SIM_BMC_REG_SENSOR(i)		(0x0100 + 4 * (i))
#define SIM_BMC_ID			0x53424d43	/* "SBMC" */
#define SIM_BMC_VERSION			1

enum sim_bmc_sensor {
	SIM_BMC_FPGA_TEMP,	/* temp1: the FME's thermal model */
	SIM_BMC_BOARD_TEMP,	/* temp2 */
	SIM_BMC_12V_VOLTAGE,	/* in0 */
	SIM_BMC_12V_CURRENT,	/* curr1 */
	SIM_BMC_BOARD_POWER,	/* power1: the FME's power model */
	SIM_BMC_NUM_SENSORS
};

/* The host's half of a read frame of register @addr */
static inline void sim_bmc_read_frame(u16 addr, u8 tx[SIM_BMC_FRAME_LEN])
{
	unsigned int i;

	for (i = 0; i < SIM_BMC_FRAME_LEN; i++)
		tx[i] = 0;
	tx[0] = SIM_BMC_OP_READ;
	tx[1] = (addr >> 8) & 0xff;
	tx[2] = addr & 0xff;
}

/* What the BMC shifted in reply: 0 and *@val, or -errno for its status */
static inline int sim_bmc_read_reply(const u8 rx[SIM_BMC_FRAME_LEN], u32 *val)
{
	switch (rx[3]) {
	case SIM_BMC_STS_OK:
		*val = (u32)rx[4] << 24 | (u32)rx[5] << 16 | (u32)rx[6] << 8 |
		       rx[7];
		return 0;
	case SIM_BMC_STS_BAD_ADDR:
		return -ENXIO;
	case SIM_BMC_STS_BAD_OP:
		return -EOPNOTSUPP;
	default:
		/* No BMC there: a floating line reads 0xff */
		return -EIO;
	}
}

/* Up to 8 bytes of @buf as a shift register holds them, byte 0 lowest */
static inline u64 sim_spi_pack(const u8 *buf, unsigned int len)
{
	u64 v = 0;

	while (len--)
		v = v << 8 | buf[len];
	return v;
}

static inline void sim_spi_unpack(u64 v, u8 *buf, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++, v >>= 8)
		buf[i] = v & 0xff;
}

#endif /* _FPGA_SUITE_SIM_BMC_H */
