// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite fpga_sim_pr: the simulated card's PR engine (sim-pr.c),
 * driven as fpga_fme's PR driver drives it (start, stage through the
 * window, complete) and as software that gets it wrong: a bitstream that
 * loads, every refusal keeping the AFU the port had, a STAGE_LEN past the
 * window, more than a bitstream may hold, and an engine reset midway.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/crc32.h>
#include <linux/fpga-sim.h>
#include <linux/slab.h>
#include <linux/uuid.h>

#include "fpga-compat.h"
#include "sim-kunit.h"
#include "../afu-regs.h"

#define PR_REG(r)	(FPGA_SIM_FME_PR + (r))
#define PR_WINDOW	(FPGA_SIM_FME_PR + FPGA_SIM_PR_STAGE)

/* The AFU GUID the test programs, as uuid_parse() and the card see it */
#define NLB3_ID		"f7df405c-bd7a-cf72-22f1-44b0b93acd18"

/* What a bitstream gets wrong */
enum bs_fault { BS_GOOD, BS_CRC, BS_INTERFACE, BS_AFU, BS_FLAGS };

/* A bitstream of the card's format for @afu, @payload bytes of zeros */
static u8 *sim_pr_bitstream(struct kunit *test, const char *afu,
			    size_t payload, enum bs_fault fault, size_t *len)
{
	struct fpga_sim_bitstream *bs;
	uuid_t intf, id;
	u8 *buf;

	*len = sizeof(*bs) + payload + sizeof(u32);
	buf = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0, uuid_parse(FPGA_SIM_INTERFACE_ID, &intf));
	KUNIT_ASSERT_EQ(test, 0, uuid_parse(afu, &id));
	bs = (struct fpga_sim_bitstream *)buf;
	memcpy(bs->magic, FPGA_SIM_BS_MAGIC, sizeof(bs->magic));
	bs->hdr_size = cpu_to_le32(sizeof(*bs));
	bs->total_size = cpu_to_le32(*len);
	memcpy(bs->interface_id, intf.b, sizeof(bs->interface_id));
	memcpy(bs->afu_id, id.b, sizeof(bs->afu_id));
	if (fault == BS_INTERFACE)
		bs->interface_id[15] ^= 1;
	if (fault == BS_AFU)
		bs->afu_id[0] ^= 1;
	if (fault == BS_FLAGS)
		bs->flags = cpu_to_le32(1);
	put_unaligned_le32(~crc32_le(~0U, buf, *len - sizeof(u32)),
			   buf + *len - sizeof(u32));
	if (fault == BS_CRC)
		buf[sizeof(*bs)] ^= 1;
	return buf;
}

/* Steps of the engine until it has nothing to do (a bounded number) */
static void pr_settle(struct kunit *test, struct fpga_sim *sim)
{
	int i;

	for (i = 0; i < 8 && fpga_sim_pr_step(sim); i++)
		;
	KUNIT_EXPECT_FALSE(test, fpga_sim_pr_step(sim));
}

/* Software holds port @n in soft reset, as the core does around PR */
static void port_hold_reset(struct kunit *test, struct fpga_sim *sim,
			    unsigned int n)
{
	fpga_sim_write(sim, sim->ports[n].hdr + PORT_HDR_CTRL,
		       PORT_CTRL_SFTRST);
	fpga_sim_port_reset_step(sim, n, fpga_sim_read(sim, sim->ports[n].hdr +
						       PORT_HDR_CTRL));
	KUNIT_ASSERT_TRUE(test, sim->ports[n].in_reset);
}

static void pr_start(struct kunit *test, struct fpga_sim *sim,
		     unsigned int port)
{
	fpga_sim_write(sim, PR_REG(FME_PR_CTRL),
		       FIELD_PREP(FME_PR_CTRL_RGN_ID, port) |
		       FME_PR_CTRL_START);
	pr_settle(test, sim);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_STS)),
			FME_PR_STS_BUSY);
}

/* One store of @len bytes to STAGE_LEN, the window holding @buf's */
static void pr_stage(struct kunit *test, struct fpga_sim *sim,
		     const u8 *buf, size_t len)
{
	if (buf)
		memcpy(sim->regs + PR_WINDOW, buf, len);
	fpga_sim_write(sim, PR_REG(FME_PR_STAGE_LEN), len);
	pr_settle(test, sim);
	/* Taken, whatever it was: software may store again */
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_STAGE_LEN)), 0);
}

/* COMPLETE; the engine's verdict, START and COMPLETE cleared */
static u64 pr_complete(struct kunit *test, struct fpga_sim *sim)
{
	u64 ctrl = fpga_sim_read(sim, PR_REG(FME_PR_CTRL));

	fpga_sim_write(sim, PR_REG(FME_PR_CTRL), ctrl | FME_PR_CTRL_COMPLETE);
	pr_settle(test, sim);
	KUNIT_EXPECT_FALSE(test, fpga_sim_read(sim, PR_REG(FME_PR_CTRL)) &
			   (FME_PR_CTRL_START | FME_PR_CTRL_COMPLETE));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_STS)), 0);
	KUNIT_EXPECT_NULL(test, sim->pr.buf);
	return fpga_sim_read(sim, PR_REG(FME_PR_ERR));
}

/* Program @buf into @port in chunks of @chunk bytes: PR_ERR */
static u64 pr_program(struct kunit *test, struct fpga_sim *sim,
		      unsigned int port, const u8 *buf, size_t len,
		      size_t chunk)
{
	size_t ofs, n;

	pr_start(test, sim, port);
	for (ofs = 0; ofs < len; ofs += n) {
		n = min(chunk, len - ofs);
		pr_stage(test, sim, buf + ofs, n);
	}
	return pr_complete(test, sim);
}

static u64 afu_guid_h(struct fpga_sim *sim, unsigned int n)
{
	return fpga_sim_read(sim, sim->ports[n].afu + DFH_GUID_H);
}

static void expect_nlb0(struct kunit *test, struct fpga_sim *sim,
			unsigned int n)
{
	KUNIT_EXPECT_EQ(test, afu_guid_h(sim, n), NLB0_AFU_GUID_H);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, sim->ports[n].afu +
					    DFH_GUID_L), NLB0_AFU_GUID_L);
}

/* A good bitstream, staged in pieces, loads its AFU into that port only */
static void sim_pr_loads(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t len;
	u8 *bs = sim_pr_bitstream(test, NLB3_ID, 200, BS_GOOD, &len);

	port_hold_reset(test, sim, 1);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 1, bs, len, 68), 0);
	KUNIT_EXPECT_EQ(test, afu_guid_h(sim, 1), NLB3_AFU_GUID_H);
	KUNIT_EXPECT_PTR_NE(test, sim->ports[1].model, sim->ports[0].model);
	expect_nlb0(test, sim, 0);

	/* And back, in one piece */
	bs = sim_pr_bitstream(test, "d8424dc4-a4a3-c413-f89e-433683f9040b", 0,
			      BS_GOOD, &len);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 1, bs, len, len), 0);
	expect_nlb0(test, sim, 1);
}

/* Every refusal: the error a real FME reports, and the AFU stays */
static void sim_pr_refusals(struct kunit *test)
{
	static const struct {
		enum bs_fault fault;
		u64 err;
	} cases[] = {
		{ BS_CRC, FME_PR_ERR_CRC },
		{ BS_INTERFACE, FME_PR_ERR_INCOMPATIBLE },
		{ BS_AFU, FME_PR_ERR_OPERATION },
		{ BS_FLAGS, FME_PR_ERR_OPERATION },
	};
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t len, i;
	u64 ofst;
	u8 *bs;

	port_hold_reset(test, sim, 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bs = sim_pr_bitstream(test, NLB3_ID, 16, cases[i].fault, &len);
		KUNIT_EXPECT_EQ_MSG(test, pr_program(test, sim, 0, bs, len, len),
				    cases[i].err, "fault %d", cases[i].fault);
		expect_nlb0(test, sim, 0);
	}

	/* Truncated: the sizes no longer agree */
	bs = sim_pr_bitstream(test, NLB3_ID, 16, BS_GOOD, &len);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 0, bs, len - 4, len),
			FME_PR_ERR_CRC);
	/* A port that is not in reset, or not there */
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 1, bs, len, len),
			FME_PR_ERR_OPERATION);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, NUM_PORTS, bs, len, len),
			FME_PR_ERR_OPERATION);
	/* In reset, but the FME says it is a VF's, or not implemented */
	port_hold_reset(test, sim, 1);
	ofst = fpga_sim_read(sim, FME_HDR_PORT_OFST(1));
	fpga_sim_write(sim, FME_HDR_PORT_OFST(1), ofst | FME_PORT_OFST_ACC_VF);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 1, bs, len, len),
			FME_PR_ERR_OPERATION);
	fpga_sim_write(sim, FME_HDR_PORT_OFST(1), ofst & ~FME_PORT_OFST_IMP);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 1, bs, len, len),
			FME_PR_ERR_OPERATION);
	fpga_sim_write(sim, FME_HDR_PORT_OFST(1), ofst);
	expect_nlb0(test, sim, 0);
	expect_nlb0(test, sim, 1);
}

/* A STAGE_LEN past the window is an overflow, not a read beyond it */
static void sim_pr_stage_past_window(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t len;
	u8 *bs = sim_pr_bitstream(test, NLB3_ID, 0, BS_GOOD, &len);

	port_hold_reset(test, sim, 0);
	pr_start(test, sim, 0);
	pr_stage(test, sim, bs, len);
	pr_stage(test, sim, NULL, FPGA_SIM_PR_STAGE_SIZE + 8);
	KUNIT_EXPECT_TRUE(test, sim->pr.overflow);
	KUNIT_EXPECT_EQ(test, sim->pr.len, len);
	KUNIT_EXPECT_EQ(test, pr_complete(test, sim), FME_PR_ERR_FIFO_OVERFLOW);
	expect_nlb0(test, sim, 0);

	/* A length no register can describe as a size either */
	pr_start(test, sim, 0);
	pr_stage(test, sim, NULL, U64_MAX);
	KUNIT_EXPECT_EQ(test, pr_complete(test, sim), FME_PR_ERR_FIFO_OVERFLOW);
}

/* Full windows past FPGA_SIM_BS_MAX_SIZE: an overflow, the AFU stays */
static void sim_pr_past_max_size(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t staged = 0;

	port_hold_reset(test, sim, 0);
	pr_start(test, sim, 0);
	while (staged <= FPGA_SIM_BS_MAX_SIZE) {
		pr_stage(test, sim, NULL, FPGA_SIM_PR_STAGE_SIZE);
		staged += FPGA_SIM_PR_STAGE_SIZE;
	}
	KUNIT_EXPECT_TRUE(test, sim->pr.overflow);
	KUNIT_EXPECT_LE(test, sim->pr.len, FPGA_SIM_BS_MAX_SIZE);
	KUNIT_EXPECT_EQ(test, pr_complete(test, sim), FME_PR_ERR_FIFO_OVERFLOW);
	expect_nlb0(test, sim, 0);
}

/* PR_RST midway: what was staged is dropped, PR_ERR cleared, ACK follows */
static void sim_pr_reset_midway(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t len;
	u8 *bs = sim_pr_bitstream(test, NLB3_ID, 64, BS_CRC, &len);

	port_hold_reset(test, sim, 0);
	KUNIT_ASSERT_EQ(test, pr_program(test, sim, 0, bs, len, len),
			FME_PR_ERR_CRC);
	pr_start(test, sim, 0);
	pr_stage(test, sim, bs, 32);
	KUNIT_EXPECT_EQ(test, sim->pr.len, 32);

	fpga_sim_write(sim, PR_REG(FME_PR_CTRL), FME_PR_CTRL_PR_RST);
	pr_settle(test, sim);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_CTRL)),
			FME_PR_CTRL_PR_RST | FME_PR_CTRL_PR_RSTACK);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_ERR)), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_STS)), 0);
	KUNIT_EXPECT_FALSE(test, sim->pr.busy);
	KUNIT_EXPECT_NULL(test, sim->pr.buf);

	/* Out of reset (ACK stays until the engine drops it), then a good one */
	fpga_sim_write(sim, PR_REG(FME_PR_CTRL), FME_PR_CTRL_PR_RSTACK);
	pr_settle(test, sim);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, PR_REG(FME_PR_CTRL)), 0);
	bs = sim_pr_bitstream(test, NLB3_ID, 64, BS_GOOD, &len);
	KUNIT_EXPECT_EQ(test, pr_program(test, sim, 0, bs, len, len), 0);
	KUNIT_EXPECT_EQ(test, afu_guid_h(sim, 0), NLB3_AFU_GUID_H);
}

static struct kunit_case sim_pr_cases[] = {
	KUNIT_CASE(sim_pr_loads),
	KUNIT_CASE(sim_pr_refusals),
	KUNIT_CASE(sim_pr_stage_past_window),
	KUNIT_CASE(sim_pr_past_max_size),
	KUNIT_CASE(sim_pr_reset_midway),
	{}
};

static struct kunit_suite sim_pr_suite = {
	.name = "fpga_sim_pr",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_pr_cases,
};

kunit_test_suites(&sim_pr_suite);
