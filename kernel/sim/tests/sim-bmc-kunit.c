// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites of board=n3000 (sim-board.c, sim-bmc.c):
 *
 *   fpga_sim_board: new_device's "board=NAME" word
 *   fpga_sim_bmc:   feature 0xe in the FME's list, and the BMC's frame
 *                   end to end: <fpga-suite/sim-bmc.h>'s encoding, the
 *                   SPI master's registers as fpga_fme drives them, the
 *                   BMC's answers and its sensors following the model
 */
#include <kunit/test.h>
#include <linux/bitfield.h>

#include "fpga-compat.h"
#include <fpga-suite/sim-bmc.h>
#include "sim-kunit.h"

#define SPI_REG(r)	(FPGA_SIM_FME_SPI + (r))

static void sim_board_parse(struct kunit *test)
{
	enum fpga_sim_board b = FPGA_SIM_BOARD_SIM;

	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("board=n3000", &b), 0);
	KUNIT_EXPECT_EQ(test, b, FPGA_SIM_BOARD_N3000);
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("board=sim", &b), 0);
	KUNIT_EXPECT_EQ(test, b, FPGA_SIM_BOARD_SIM);
	/* Not a board word: the caller takes it for a number */
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("2", &b), -ENOENT);
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("boardn3000", &b), -ENOENT);
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("board=", &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("board=n3001", &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("board=N3000", &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_sim_board_parse("board=n3000x", &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, b, FPGA_SIM_BOARD_SIM);
	KUNIT_EXPECT_STREQ(test, fpga_sim_board_name(FPGA_SIM_BOARD_N3000),
			   "n3000");
}

static struct kunit_case sim_board_cases[] = {
	KUNIT_CASE(sim_board_parse),
	{}
};

static struct kunit_suite sim_board_suite = {
	.name = "fpga_sim_board",
	.test_cases = sim_board_cases,
};

/* The card of sim_kunit_init(), made an n3000 */
static struct fpga_sim *bmc_card(struct kunit *test)
{
	struct sim_kunit *t = test->priv;

	t->sim.board = FPGA_SIM_BOARD_N3000;
	fpga_sim_bmc_layout(&t->sim);
	return &t->sim;
}

/* One shift as fpga_fme does it: TX, CMD with GO, the model, RX */
static u64 bmc_shift(struct kunit *test, struct fpga_sim *sim, u64 tx,
		     unsigned int len, bool sof, unsigned int cs)
{
	fpga_sim_write(sim, SPI_REG(SIM_SPI_TX), tx);
	fpga_sim_write(sim, SPI_REG(SIM_SPI_CMD),
		       FIELD_PREP(SIM_SPI_CMD_BYTES, len) |
		       FIELD_PREP(SIM_SPI_CMD_CS, cs) |
		       (sof ? SIM_SPI_CMD_SOF : 0) | SIM_SPI_CMD_GO);
	KUNIT_EXPECT_TRUE(test, fpga_sim_bmc_step(sim));
	KUNIT_EXPECT_FALSE(test, fpga_sim_read(sim, SPI_REG(SIM_SPI_CMD)) &
			   SIM_SPI_CMD_GO);
	/* Nothing more to do until GO again */
	KUNIT_EXPECT_FALSE(test, fpga_sim_bmc_step(sim));
	return fpga_sim_read(sim, SPI_REG(SIM_SPI_RX));
}

/* A read of BMC register @addr in one 8-byte shift: 0 and *@val or -errno */
static int bmc_read(struct kunit *test, struct fpga_sim *sim, u16 addr,
		    u32 *val)
{
	u8 tx[SIM_BMC_FRAME_LEN], rx[SIM_BMC_FRAME_LEN];

	sim_bmc_read_frame(addr, tx);
	sim_spi_unpack(bmc_shift(test, sim, sim_spi_pack(tx, sizeof(tx)),
				 sizeof(tx), true, 0), rx, sizeof(rx));
	return sim_bmc_read_reply(rx, val);
}

static void sim_bmc_layout(struct kunit *test)
{
	struct fpga_sim *sim = bmc_card(test);
	u64 iperf = fpga_sim_read(sim, FPGA_SIM_FME_IPERF + DFH);
	u64 spi = fpga_sim_read(sim, SPI_REG(DFH));

	KUNIT_EXPECT_EQ(test, FIELD_GET(DFH_ID, iperf),
			FME_FEATURE_ID_GLOBAL_IPERF);
	KUNIT_EXPECT_EQ(test, FIELD_GET(DFH_NEXT, iperf),
			FPGA_SIM_FME_SPI - FPGA_SIM_FME_IPERF);
	KUNIT_EXPECT_EQ(test, FIELD_GET(DFH_TYPE, spi), DFH_TYPE_PRIVATE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(DFH_ID, spi), FME_FEATURE_ID_MAX10_SPI);
	KUNIT_EXPECT_EQ(test, FPGA_SIM_FME_SPI + FIELD_GET(DFH_NEXT, spi),
			FPGA_SIM_FME_COUNTERS);
	KUNIT_EXPECT_FALSE(test, spi & DFH_EOL);
	KUNIT_EXPECT_GE(test, FIELD_GET(DFH_NEXT, spi), SIM_SPI_SIZE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(SIM_SPI_CAP_NUM_CS,
					fpga_sim_read(sim, SPI_REG(SIM_SPI_CAP))),
			1);
}

/* The default card has none of it, and its model ignores the registers */
static void sim_bmc_default_board(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	u64 iperf = fpga_sim_read(sim, FPGA_SIM_FME_IPERF + DFH);

	KUNIT_EXPECT_EQ(test, FIELD_GET(DFH_NEXT, iperf), SZ_4K);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, SPI_REG(DFH)), 0);
	fpga_sim_write(sim, SPI_REG(SIM_SPI_CMD), SIM_SPI_CMD_GO | 8);
	KUNIT_EXPECT_FALSE(test, fpga_sim_bmc_step(sim));
	KUNIT_EXPECT_TRUE(test, fpga_sim_read(sim, SPI_REG(SIM_SPI_CMD)) &
			  SIM_SPI_CMD_GO);
}

static void sim_bmc_identity(struct kunit *test)
{
	struct fpga_sim *sim = bmc_card(test);
	u32 v = 0;

	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, SIM_BMC_REG_ID, &v), 0);
	KUNIT_EXPECT_EQ(test, v, SIM_BMC_ID);
	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, SIM_BMC_REG_VERSION, &v), 0);
	KUNIT_EXPECT_EQ(test, v, SIM_BMC_VERSION);
	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, SIM_BMC_REG_NUM_SENSORS, &v),
			0);
	KUNIT_EXPECT_EQ(test, v, SIM_BMC_NUM_SENSORS);
}

static void sim_bmc_errors(struct kunit *test)
{
	struct fpga_sim *sim = bmc_card(test);
	u8 tx[SIM_BMC_FRAME_LEN], rx[SIM_BMC_FRAME_LEN];
	u32 v;

	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, 0x0002, &v), -ENXIO);
	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, 0x00fc, &v), -ENXIO);
	KUNIT_EXPECT_EQ(test, bmc_read(test, sim,
				       SIM_BMC_REG_SENSOR(SIM_BMC_NUM_SENSORS),
				       &v), -ENXIO);
	/* An opcode the BMC does not know */
	sim_bmc_read_frame(SIM_BMC_REG_ID, tx);
	tx[0] = 0x57;
	sim_spi_unpack(bmc_shift(test, sim, sim_spi_pack(tx, 8), 8, true, 0),
		       rx, 8);
	KUNIT_EXPECT_EQ(test, sim_bmc_read_reply(rx, &v), -EOPNOTSUPP);
	/* Nobody on chip select 1: the line floats */
	sim_bmc_read_frame(SIM_BMC_REG_ID, tx);
	KUNIT_EXPECT_EQ(test, bmc_shift(test, sim, sim_spi_pack(tx, 8), 8,
					true, 1), ~0ULL);
	/* Past the frame's 8 bytes the BMC is silent too */
	KUNIT_EXPECT_EQ(test, bmc_shift(test, sim, 0, 2, false, 0), 0xffffULL);
}

/* A frame over several shifts, as a message of two transfers is */
static void sim_bmc_split_frame(struct kunit *test)
{
	struct fpga_sim *sim = bmc_card(test);
	u8 tx[SIM_BMC_FRAME_LEN], rx[SIM_BMC_FRAME_LEN];
	u32 v = 0;

	sim_bmc_read_frame(SIM_BMC_REG_ID, tx);
	sim_spi_unpack(bmc_shift(test, sim, sim_spi_pack(tx, 3), 3, true, 0),
		       rx, 3);
	sim_spi_unpack(bmc_shift(test, sim, sim_spi_pack(tx + 3, 5), 5, false,
				 0), rx + 3, 5);
	KUNIT_EXPECT_EQ(test, sim_bmc_read_reply(rx, &v), 0);
	KUNIT_EXPECT_EQ(test, v, SIM_BMC_ID);
	/* A new frame starts over, whatever came before */
	sim_spi_unpack(bmc_shift(test, sim, sim_spi_pack(tx, 3), 3, true, 0),
		       rx, 3);
	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, SIM_BMC_REG_VERSION, &v), 0);
	KUNIT_EXPECT_EQ(test, v, SIM_BMC_VERSION);
}

static s32 bmc_sensor(struct kunit *test, struct fpga_sim *sim,
		      enum sim_bmc_sensor i)
{
	u32 v = 0;

	KUNIT_EXPECT_EQ(test, bmc_read(test, sim, SIM_BMC_REG_SENSOR(i), &v),
			0);
	return v;
}

/* The sensors read the thermal and power model, in hwmon's units */
static void sim_bmc_sensors(struct kunit *test)
{
	struct fpga_sim *sim = bmc_card(test);
	struct fpga_sim_sensors *s = &sim->sensors;
	s32 die, board;

	die = bmc_sensor(test, sim, SIM_BMC_FPGA_TEMP);
	KUNIT_EXPECT_EQ(test, die, s->ambient * 1000 + s->heat_mc);
	board = bmc_sensor(test, sim, SIM_BMC_BOARD_TEMP);
	KUNIT_EXPECT_GT(test, board, s->ambient * 1000);
	KUNIT_EXPECT_LT(test, board, die);
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_12V_VOLTAGE),
			12000);
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_BOARD_POWER),
			s->power_mw * 1000);
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_12V_CURRENT),
			s->power_mw / 12);

	/* The air 20 degrees warmer: both temperatures follow at once */
	WRITE_ONCE(s->ambient, s->ambient + 20);
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_FPGA_TEMP),
			die + 20000);
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_BOARD_TEMP),
			board + 20000);

	/* More power drawn shows in power and current */
	s->power_mw = 60000;
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_BOARD_POWER),
			60000000);
	KUNIT_EXPECT_EQ(test, bmc_sensor(test, sim, SIM_BMC_12V_CURRENT),
			5000);
}

/* The host's encoding: the frame and the reply's statuses */
static void sim_bmc_encoding(struct kunit *test)
{
	u8 tx[SIM_BMC_FRAME_LEN], rx[SIM_BMC_FRAME_LEN] = {
		0, 0, 0, SIM_BMC_STS_OK, 0x12, 0x34, 0x56, 0x78 };
	u32 v = 0;

	sim_bmc_read_frame(0x0104, tx);
	KUNIT_EXPECT_EQ(test, sim_spi_pack(tx, 8), 0x0401ULL << 8 | 0x52);
	KUNIT_EXPECT_EQ(test, sim_bmc_read_reply(rx, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x12345678);
	rx[3] = SIM_BMC_STS_BAD_ADDR;
	KUNIT_EXPECT_EQ(test, sim_bmc_read_reply(rx, &v), -ENXIO);
	rx[3] = 0xff;
	KUNIT_EXPECT_EQ(test, sim_bmc_read_reply(rx, &v), -EIO);
	sim_spi_unpack(0x0807060504030201ULL, rx, 8);
	KUNIT_EXPECT_EQ(test, rx[0], 1);
	KUNIT_EXPECT_EQ(test, rx[7], 8);
	KUNIT_EXPECT_EQ(test, sim_spi_pack(rx, 3), 0x030201ULL);
}

static struct kunit_case sim_bmc_cases[] = {
	KUNIT_CASE(sim_bmc_encoding),
	KUNIT_CASE(sim_bmc_layout),
	KUNIT_CASE(sim_bmc_default_board),
	KUNIT_CASE(sim_bmc_identity),
	KUNIT_CASE(sim_bmc_errors),
	KUNIT_CASE(sim_bmc_split_frame),
	KUNIT_CASE(sim_bmc_sensors),
	{}
};

static struct kunit_suite sim_bmc_suite = {
	.name = "fpga_sim_bmc",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_bmc_cases,
};

kunit_test_suites(&sim_board_suite, &sim_bmc_suite);
