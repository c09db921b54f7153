// SPDX-License-Identifier: GPL-2.0-only
/*
 * board=n3000: FME private feature 0xe, the SPI master of the card's board
 * management controller, and the BMC behind it (the register interface
 * and frame of <fpga-suite/sim-bmc.h>, the simulated card's own).
 *
 * The feature takes the second half of the IPERF feature's page, which is
 * a header only, so that the rest of the FME keeps its offsets.  The
 * model thread does a shift when it finds CMD.GO: the bytes of TX go to
 * the BMC one by one, what it answers goes to RX, then GO clears.  The
 * BMC's sensors read the card's thermal and power model (sim-sensors.c)
 * at the moment the frame's address is in.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/kernel.h>

#include <fpga-suite/sim-bmc.h>
#include "sim.h"

#define FPGA_SIM_BMC_12V_MV		12000
/* The board around the FPGA warms by half as much as the FPGA */
#define FPGA_SIM_BMC_BOARD_HEAT_DIV	2

/* Sensor @i's reading in hwmon's unit */
static s32 fpga_sim_bmc_sensor(struct fpga_sim *sim, unsigned int i)
{
	const struct fpga_sim_sensors *s = &sim->sensors;
	s32 air = READ_ONCE(s->ambient) * 1000;

	switch (i) {
	case SIM_BMC_FPGA_TEMP:
		return air + s->heat_mc;
	case SIM_BMC_BOARD_TEMP:
		return air + s->heat_mc / FPGA_SIM_BMC_BOARD_HEAT_DIV;
	case SIM_BMC_12V_VOLTAGE:
		return FPGA_SIM_BMC_12V_MV;
	case SIM_BMC_12V_CURRENT:
		return s->power_mw * 1000 / FPGA_SIM_BMC_12V_MV;
	default:
		return s->power_mw * 1000;	/* SIM_BMC_BOARD_POWER, uW */
	}
}

/* Register @addr: 0 and *@val, or the status that says why not */
static u8 fpga_sim_bmc_reg(struct fpga_sim *sim, u16 addr, u32 *val)
{
	unsigned int i;

	switch (addr) {
	case SIM_BMC_REG_ID:
		*val = SIM_BMC_ID;
		return SIM_BMC_STS_OK;
	case SIM_BMC_REG_VERSION:
		*val = SIM_BMC_VERSION;
		return SIM_BMC_STS_OK;
	case SIM_BMC_REG_NUM_SENSORS:
		*val = SIM_BMC_NUM_SENSORS;
		return SIM_BMC_STS_OK;
	}
	if (addr < SIM_BMC_REG_SENSOR(0) || addr % 4)
		return SIM_BMC_STS_BAD_ADDR;
	i = (addr - SIM_BMC_REG_SENSOR(0)) / 4;
	if (i >= SIM_BMC_NUM_SENSORS)
		return SIM_BMC_STS_BAD_ADDR;
	*val = fpga_sim_bmc_sensor(sim, i);
	return SIM_BMC_STS_OK;
}

/**
 * fpga_sim_bmc_shift() - one byte through the BMC's shift register
 * @sim: the card
 * @sof: chip select was asserted just before: a new frame starts
 * @in: the byte the host shifts out
 *
 * Return: the byte the BMC shifts out meanwhile.
 */
u8 fpga_sim_bmc_shift(struct fpga_sim *sim, bool sof, u8 in)
{
	struct fpga_sim_bmc *b = &sim->bmc;
	unsigned int pos;
	u32 val = 0;
	u8 out = 0;

	if (sof)
		b->pos = 0;
	pos = b->pos;
	if (pos < SIM_BMC_FRAME_LEN)
		b->pos++;

	switch (pos) {
	case 0:
		b->op = in;
		break;
	case 1:
		b->addr = in << 8;
		break;
	case 2:
		/* The address is in: the reply is fixed now */
		b->addr |= in;
		if (b->op == SIM_BMC_OP_READ)
			b->reply[0] = fpga_sim_bmc_reg(sim, b->addr, &val);
		else
			b->reply[0] = SIM_BMC_STS_BAD_OP;
		if (b->reply[0] != SIM_BMC_STS_OK)
			val = 0;
		b->reply[1] = val >> 24;
		b->reply[2] = val >> 16;
		b->reply[3] = val >> 8;
		b->reply[4] = val;
		break;
	case SIM_BMC_FRAME_LEN:
		/* Past the frame: the BMC's output is off, the line floats */
		out = 0xff;
		break;
	default:
		out = b->reply[pos - 3];
	}
	return out;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_bmc_shift);

/**
 * fpga_sim_bmc_step() - a shift CMD.GO asked for, if there is one
 * @sim: the card
 *
 * The model thread's.  Return: true if there was one.
 */
bool fpga_sim_bmc_step(struct fpga_sim *sim)
{
	size_t spi = FPGA_SIM_FME_SPI;
	unsigned int i, len;
	u64 cmd, tx, rx = 0;
	bool sof;

	if (sim->board != FPGA_SIM_BOARD_N3000)
		return false;
	cmd = fpga_sim_read(sim, spi + SIM_SPI_CMD);
	if (!(cmd & SIM_SPI_CMD_GO))
		return false;
	tx = fpga_sim_read(sim, spi + SIM_SPI_TX);
	/* FIELD_GET() inside clamp_t() is too long a token for 7.x's sparse */
	len = FIELD_GET(SIM_SPI_CMD_BYTES, cmd);
	len = clamp_t(unsigned int, len, 1, SIM_SPI_MAX_BYTES);
	sof = cmd & SIM_SPI_CMD_SOF;
	for (i = 0; i < len; i++, sof = false) {
		u8 in = 0xff;	/* nothing on another chip select */

		if (!FIELD_GET(SIM_SPI_CMD_CS, cmd))
			in = fpga_sim_bmc_shift(sim, sof, tx >> (8 * i));
		rx |= (u64)in << (8 * i);
	}
	fpga_sim_write(sim, spi + SIM_SPI_RX, rx);
	/* RX before GO clears; a store of software's since wins */
	fpga_sim_update(sim, spi + SIM_SPI_CMD, cmd, cmd & ~SIM_SPI_CMD_GO);
	return true;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_bmc_step);

/**
 * fpga_sim_bmc_layout() - the SPI master's feature, on a board with a BMC
 * @sim: the card, its FME laid out
 */
void fpga_sim_bmc_layout(struct fpga_sim *sim)
{
	size_t iperf = FPGA_SIM_FME_IPERF, spi = FPGA_SIM_FME_SPI;

	if (sim->board != FPGA_SIM_BOARD_N3000)
		return;
	fpga_sim_write(sim, iperf + DFH,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE,
				    FME_FEATURE_ID_GLOBAL_IPERF, spi - iperf,
				    false));
	fpga_sim_write(sim, spi + DFH,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, FME_FEATURE_ID_MAX10_SPI,
				    FPGA_SIM_FME_COUNTERS - spi, false));
	fpga_sim_write(sim, spi + SIM_SPI_CAP,
		       FIELD_PREP(SIM_SPI_CAP_NUM_CS, 1) |
		       FIELD_PREP(SIM_SPI_CAP_SHIFT_BYTES, SIM_SPI_MAX_BYTES));
	sim->bmc.pos = SIM_BMC_FRAME_LEN;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_bmc_layout);
