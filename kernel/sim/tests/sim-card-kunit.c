// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites of the simulated card's model, on a register file laid out
 * as fpga_sim lays out a card but with no model thread, no bus device and
 * no enumeration: the test plays software and steps the model by hand.
 *
 *   fpga_sim_reset: the soft-reset handshake (sim-card.c)
 *   fpga_sim_error: the port error registers, W1C on change, first error,
 *                   the mask and the error interrupt (sim-error.c)
 *   fpga_sim_layout: the register file is the DFL sim-card.c describes
 *                   (and board n3000's, with feature 0xe),
 *                   as fpga_dfl's parser reads it
 *   fpga_sim_sensors: the thermal and power model, its bounds and its
 *                   alarms (sim-sensors.c)
 *
 * The PR engine's suite is in sim-pr-kunit.c, on the same register file.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-enum.h>
#include <fpga-suite/sim-bmc.h>
#include "sim-kunit.h"

/* No irq domain here: nothing to deliver, a raise stays pending */
static void sim_kunit_irq_work(struct irq_work *work)
{
}

int sim_kunit_init(struct kunit *test)
{
	struct sim_kunit *t;
	int ret;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->sim.dev.init_name = "fpga_sim_kunit";
	t->sim.num_ports = NUM_PORTS;
	t->sim.afu_size = FPGA_SIM_DEFAULT_AFU_SIZE;
	t->sim.live = true;
	mutex_init(&t->sim.err_lock);
	spin_lock_init(&t->sim.cntr_lock);
	/*
	 * The interrupt controller without a domain: every vector masked,
	 * so what the card raises stays in irq.pending for the tests to see
	 */
	t->sim.irq.num = FPGA_SIM_FME_ERR_VEC(NUM_PORTS) + 1;
	bitmap_fill(t->sim.irq.masked, FPGA_SIM_MAX_VECS);
	init_irq_work(&t->sim.irq.work, sim_kunit_irq_work);
	ret = fpga_sim_card_layout(&t->sim);
	if (ret)
		return ret;
	test->priv = t;
	return 0;
}

void sim_kunit_exit(struct kunit *test)
{
	struct sim_kunit *t = test->priv;

	if (!t)		/* init failed */
		return;
	irq_work_sync(&t->sim.irq.work);
	fpga_sim_pr_fini(&t->sim);
	if (t->card)
		fpga_dfl_card_discard(t->card);
	if (t->parent)
		root_device_unregister(t->parent);
	free_pages_exact(t->sim.regs, t->sim.regs_size);
}

static size_t ctrl_reg(struct fpga_sim *sim, unsigned int n)
{
	return sim->ports[n].hdr + PORT_HDR_CTRL;
}

/* Software: store @val to port @n's PORT_HDR_CTRL */
static void sw_ctrl(struct fpga_sim *sim, unsigned int n, u64 val)
{
	fpga_sim_write(sim, ctrl_reg(sim, n), val);
}

/* The model: one pass of port @n's reset handshake */
static bool reset_step(struct fpga_sim *sim, unsigned int n)
{
	return fpga_sim_port_reset_step(sim, n,
					fpga_sim_read(sim, ctrl_reg(sim, n)));
}

static u64 resets(struct fpga_sim *sim, unsigned int port)
{
	return fpga_sim_cntr_get(sim, port, CNTR_EVT_RESETS);
}

static void sim_reset_enter(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t afu = sim->ports[0].afu;

	/* The AFU is running when software asserts reset */
	fpga_sim_write(sim, afu + NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START);
	fpga_sim_write(sim, afu + NLB_STATUS1, 0x1234);
	sw_ctrl(sim, 0, PORT_CTRL_SFTRST);

	KUNIT_EXPECT_TRUE(test, reset_step(sim, 0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)),
			PORT_CTRL_SFTRST | PORT_CTRL_SFTRST_ACK);
	KUNIT_EXPECT_TRUE(test, sim->ports[0].in_reset);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, afu + NLB_CTL), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, afu + NLB_STATUS1), 0);
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 1);
	KUNIT_EXPECT_EQ(test, resets(sim, CNTR_CARD), 1);
	KUNIT_EXPECT_EQ(test, resets(sim, 1), 0);

	/* Each effect once: nothing more to do on the next passes */
	KUNIT_EXPECT_FALSE(test, reset_step(sim, 0));
	KUNIT_EXPECT_FALSE(test, reset_step(sim, 0));
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 1);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)),
			PORT_CTRL_SFTRST | PORT_CTRL_SFTRST_ACK);
}

static void sim_reset_leave(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t err = sim->ports[0].hdr + FPGA_SIM_PORT_ERR;

	sw_ctrl(sim, 0, PORT_CTRL_SFTRST);
	KUNIT_ASSERT_TRUE(test, reset_step(sim, 0));
	fpga_sim_write(sim, err + PORT_ERROR_MASK, ~0ULL);
	fpga_sim_error_raise(sim, 0, PORT_ERR_DMA_FAULT);
	KUNIT_ASSERT_EQ(test, fpga_sim_read(sim, err + PORT_ERROR),
			PORT_ERR_DMA_FAULT);

	/* Software releases reset (keeping ACK, which it cannot clear) */
	sw_ctrl(sim, 0, PORT_CTRL_SFTRST_ACK);
	KUNIT_EXPECT_TRUE(test, reset_step(sim, 0));
	KUNIT_EXPECT_FALSE(test, sim->ports[0].in_reset);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err + PORT_ERROR), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err + PORT_FIRST_ERROR), 0);
	KUNIT_EXPECT_EQ(test, sim->ports[0].err_seen, 0);
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 1);
	KUNIT_EXPECT_FALSE(test, reset_step(sim, 0));

	/* A second reset is counted again */
	sw_ctrl(sim, 0, PORT_CTRL_SFTRST);
	KUNIT_EXPECT_TRUE(test, reset_step(sim, 0));
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 2);
	KUNIT_EXPECT_EQ(test, resets(sim, CNTR_CARD), 2);
}

static void sim_reset_ack_restored(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;

	sw_ctrl(sim, 0, PORT_CTRL_SFTRST);
	KUNIT_ASSERT_TRUE(test, reset_step(sim, 0));
	/* Software stores over the read-only ACK while in reset */
	sw_ctrl(sim, 0, PORT_CTRL_SFTRST | PORT_CTRL_LATENCY);
	KUNIT_EXPECT_TRUE(test, reset_step(sim, 0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)),
			PORT_CTRL_SFTRST | PORT_CTRL_LATENCY |
			PORT_CTRL_SFTRST_ACK);
	KUNIT_EXPECT_TRUE(test, sim->ports[0].in_reset);
	/* Not a new reset */
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 1);
}

static void sim_reset_no_ack(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t afu = sim->ports[0].afu;

	/* fail_reset_ack: the port never acknowledges, and nothing happens */
	WRITE_ONCE(sim->fail_reset_ack, true);
	fpga_sim_write(sim, afu + NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START);
	sw_ctrl(sim, 0, PORT_CTRL_SFTRST);
	KUNIT_EXPECT_FALSE(test, reset_step(sim, 0));
	KUNIT_EXPECT_FALSE(test, reset_step(sim, 0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)),
			PORT_CTRL_SFTRST);
	KUNIT_EXPECT_FALSE(test, sim->ports[0].in_reset);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, afu + NLB_CTL),
			NLB_CTL_RESET_N | NLB_CTL_START);
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 0);

	/* The knob cleared: the pending request is acknowledged */
	WRITE_ONCE(sim->fail_reset_ack, false);
	KUNIT_EXPECT_TRUE(test, reset_step(sim, 0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)),
			PORT_CTRL_SFTRST | PORT_CTRL_SFTRST_ACK);
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 1);
}

static void sim_reset_per_port(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;

	sw_ctrl(sim, 1, PORT_CTRL_SFTRST);
	KUNIT_EXPECT_FALSE(test, reset_step(sim, 0));
	KUNIT_EXPECT_TRUE(test, reset_step(sim, 1));
	KUNIT_EXPECT_FALSE(test, sim->ports[0].in_reset);
	KUNIT_EXPECT_TRUE(test, sim->ports[1].in_reset);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, ctrl_reg(sim, 0)), 0);
	KUNIT_EXPECT_EQ(test, resets(sim, 0), 0);
	KUNIT_EXPECT_EQ(test, resets(sim, 1), 1);
	KUNIT_EXPECT_EQ(test, resets(sim, CNTR_CARD), 1);
}

static struct kunit_case sim_reset_cases[] = {
	KUNIT_CASE(sim_reset_enter),
	KUNIT_CASE(sim_reset_leave),
	KUNIT_CASE(sim_reset_ack_restored),
	KUNIT_CASE(sim_reset_no_ack),
	KUNIT_CASE(sim_reset_per_port),
	{}
};

static struct kunit_suite sim_reset_suite = {
	.name = "fpga_sim_reset",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_reset_cases,
};

static size_t err_reg(struct fpga_sim *sim, unsigned int n, size_t reg)
{
	return sim->ports[n].hdr + FPGA_SIM_PORT_ERR + reg;
}

static void sim_error_first(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;

	fpga_sim_write(sim, err_reg(sim, 0, PORT_ERROR_MASK), ~0ULL);
	fpga_sim_error_raise(sim, 0, BIT_ULL(3));
	fpga_sim_error_raise(sim, 0, BIT_ULL(5));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err_reg(sim, 0, PORT_ERROR)),
			BIT_ULL(3) | BIT_ULL(5));
	/* PORT_FIRST_ERROR keeps the first */
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err_reg(sim, 0, PORT_FIRST_ERROR)),
			BIT_ULL(3));
	/* Port 1 untouched */
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err_reg(sim, 1, PORT_ERROR)), 0);
}

static void sim_error_w1c(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t reg = err_reg(sim, 0, PORT_ERROR);

	fpga_sim_write(sim, err_reg(sim, 0, PORT_ERROR_MASK), ~0ULL);
	fpga_sim_error_raise(sim, 0, BIT_ULL(0) | BIT_ULL(1));
	KUNIT_EXPECT_FALSE(test, fpga_sim_error_step(sim, 0));

	/* Software writes 1 to bit 0: only bit 0 clears */
	fpga_sim_write(sim, reg, BIT_ULL(0));
	KUNIT_EXPECT_TRUE(test, fpga_sim_error_step(sim, 0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, reg), BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, sim->ports[0].err_seen, BIT_ULL(1));
	KUNIT_EXPECT_FALSE(test, fpga_sim_error_step(sim, 0));

	/* A new error after the clear sets its bit again */
	fpga_sim_error_raise(sim, 0, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, reg), BIT_ULL(0) | BIT_ULL(1));

	/* Writing 0 (a change) clears nothing */
	fpga_sim_write(sim, reg, 0);
	KUNIT_EXPECT_TRUE(test, fpga_sim_error_step(sim, 0));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, reg), BIT_ULL(0) | BIT_ULL(1));
}

static void sim_error_irq(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	unsigned int vec = FPGA_SIM_PORT_ERR_VEC(1);

	/* Masked: logged, no interrupt */
	fpga_sim_write(sim, err_reg(sim, 1, PORT_ERROR_MASK), PORT_ERR_DMA_FAULT);
	fpga_sim_error_raise(sim, 1, PORT_ERR_DMA_FAULT);
	irq_work_sync(&sim->irq.work);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err_reg(sim, 1, PORT_ERROR)),
			PORT_ERR_DMA_FAULT);
	KUNIT_EXPECT_FALSE(test, test_bit(vec, sim->irq.pending));
	KUNIT_EXPECT_EQ(test, fpga_sim_cntr_get(sim, 1, CNTR_EVT_ERROR_IRQS), 0);

	/* An unmasked bit interrupts, on port 1's error vector */
	fpga_sim_error_raise(sim, 1, BIT_ULL(7));
	irq_work_sync(&sim->irq.work);
	KUNIT_EXPECT_TRUE(test, test_bit(vec, sim->irq.pending));
	KUNIT_EXPECT_EQ(test, bitmap_weight(sim->irq.pending, sim->irq.num), 1);
	KUNIT_EXPECT_EQ(test, fpga_sim_cntr_get(sim, 1, CNTR_EVT_ERROR_IRQS), 1);
	KUNIT_EXPECT_EQ(test, fpga_sim_cntr_get(sim, CNTR_CARD,
						CNTR_EVT_ERROR_IRQS), 1);
	KUNIT_EXPECT_EQ(test, fpga_sim_cntr_get(sim, 0, CNTR_EVT_ERROR_IRQS), 0);
}

static void sim_error_inject(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;

	fpga_sim_write(sim, err_reg(sim, 0, PORT_ERROR_MASK), ~0ULL);
	KUNIT_EXPECT_EQ(test, fpga_sim_error_inject(sim, 0, BIT_ULL(2)), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err_reg(sim, 0, PORT_ERROR)),
			BIT_ULL(2));
	/* Once teardown began, the knob changes nothing */
	sim->live = false;
	KUNIT_EXPECT_EQ(test, fpga_sim_error_inject(sim, 0, BIT_ULL(4)),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, err_reg(sim, 0, PORT_ERROR)),
			BIT_ULL(2));
}

static size_t fme_err_reg(size_t reg)
{
	return FPGA_SIM_FME_GLOBAL_ERR + reg;
}

/*
 * RAS injection is a level: each bit shows its status bit while set,
 * raises the FME error vector when set unless that bit is masked, and
 * its status bit goes when it is cleared
 */
static void sim_error_fme_inject(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	unsigned int vec = FPGA_SIM_FME_ERR_VEC(NUM_PORTS);

	KUNIT_EXPECT_FALSE(test, fpga_sim_fme_error_step(sim));

	/* Non-fatal, masked: shown, no interrupt */
	fpga_sim_write(sim, fme_err_reg(FME_RAS_NONFAT_ERROR_MASK),
		       FME_RAS_NONFAT_INJECTED_WARNING);
	fpga_sim_write(sim, fme_err_reg(FME_RAS_ERROR_INJECT),
		       FME_RAS_INJECT_NONFATAL);
	KUNIT_EXPECT_TRUE(test, fpga_sim_fme_error_step(sim));
	irq_work_sync(&sim->irq.work);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, fme_err_reg(FME_RAS_NONFAT_ERROR)),
			FME_RAS_NONFAT_INJECTED_WARNING);
	KUNIT_EXPECT_FALSE(test, test_bit(vec, sim->irq.pending));
	KUNIT_EXPECT_FALSE(test, fpga_sim_fme_error_step(sim));

	/* Fatal added, unmasked: its bit and the FME's vector */
	fpga_sim_write(sim, fme_err_reg(FME_RAS_ERROR_INJECT),
		       FME_RAS_INJECT_NONFATAL | FME_RAS_INJECT_FATAL);
	KUNIT_EXPECT_TRUE(test, fpga_sim_fme_error_step(sim));
	irq_work_sync(&sim->irq.work);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, fme_err_reg(FME_RAS_CATFAT_ERROR)),
			FME_RAS_CATFAT_INJECTED_FATAL);
	KUNIT_EXPECT_TRUE(test, test_bit(vec, sim->irq.pending));
	KUNIT_EXPECT_EQ(test, bitmap_weight(sim->irq.pending, sim->irq.num), 1);

	/* 0 ends both; other bits of the status registers stay */
	fpga_sim_write(sim, fme_err_reg(FME_RAS_CATFAT_ERROR),
		       FME_RAS_CATFAT_INJECTED_FATAL | BIT_ULL(2));
	fpga_sim_write(sim, fme_err_reg(FME_RAS_ERROR_INJECT), 0);
	KUNIT_EXPECT_TRUE(test, fpga_sim_fme_error_step(sim));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, fme_err_reg(FME_RAS_NONFAT_ERROR)), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, fme_err_reg(FME_RAS_CATFAT_ERROR)),
			BIT_ULL(2));
}

static struct kunit_case sim_error_cases[] = {
	KUNIT_CASE(sim_error_first),
	KUNIT_CASE(sim_error_w1c),
	KUNIT_CASE(sim_error_irq),
	KUNIT_CASE(sim_error_inject),
	KUNIT_CASE(sim_error_fme_inject),
	{}
};

static struct kunit_suite sim_error_suite = {
	.name = "fpga_sim_error",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_error_cases,
};

/* Enumerate the register file as fpga_sim_card_init() has fpga_dfl do */
static struct fpga_dfl_card *sim_enumerate(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_dfl_card_info info = {
		.ioaddr = (void __force __iomem *)t->sim.regs,
		.start = virt_to_phys(t->sim.regs),
		.len = t->sim.regs_size,
		.cacheable = true,
		.irqs = t->irqs,
		.num_irqs = t->sim.irq.num,
	};
	struct fpga_dfl_card *card;
	struct device *parent;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->irqs); i++)
		t->irqs[i] = 1000 + i;
	/* No owner: the module's sysfs directory does not exist yet */
	parent = __root_device_register("fpga_sim_kunit", NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(parent));
	t->parent = parent;
	info.parent = parent;
	card = fpga_dfl_card_enumerate(&info);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(card), "enumerate: %ld",
			       PTR_ERR(card));
	t->card = card;
	return card;
}

/* Offset in the register file of a feature's registers */
static long sim_ofs(struct fpga_sim *sim, void __iomem *addr)
{
	return (long)((__force void *)addr - sim->regs);
}

static void sim_layout_fme(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_dfl_card *card = sim_enumerate(test);
	struct fpga_dfl_device *fme = card->fme;
	struct fpga_dfl_feature *f;
	unsigned int i;
	u64 cap;

	KUNIT_EXPECT_EQ(test, card->num_reports, 0);
	KUNIT_ASSERT_NOT_NULL(test, fme);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, fme->hdr.ioaddr), 0);
	KUNIT_ASSERT_EQ(test, fme->num_features, 6);
	/* Each feature's block runs to the next DFH, the last one's to the end */
	for (i = 0; i + 1 < fme->num_features; i++)
		KUNIT_EXPECT_EQ(test, fme->features[i].size,
				sim_ofs(&t->sim, fme->features[i + 1].ioaddr) -
				sim_ofs(&t->sim, fme->features[i].ioaddr));
	KUNIT_EXPECT_EQ(test, fme->features[i].size, FPGA_SIM_PR_SIZE);

	/* Global error, with its vector after the ports' */
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_GLOBAL_ERR);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_GLOBAL_ERR);
	KUNIT_ASSERT_EQ(test, f->irq_count, 1);
	KUNIT_EXPECT_EQ(test, f->irqs[0], t->irqs[FPGA_SIM_FME_ERR_VEC(NUM_PORTS)]);

	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_GLOBAL_IPERF);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->irq_count, 0);

	/* The counter bank, with its capability */
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_COUNTERS);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_COUNTERS);
	cap = readq(f->ioaddr + CNTR_CAP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(CNTR_CAP_NUM_PORTS, cap), NUM_PORTS);
	KUNIT_EXPECT_EQ(test, FIELD_GET(CNTR_CAP_NUM_EVENTS, cap),
			CNTR_NUM_EVENTS);
	KUNIT_EXPECT_EQ(test, FIELD_GET(CNTR_CAP_CLOCK_MHZ, cap),
			FPGA_SIM_CLOCK_MHZ);

	/* Thermal, then power, each with all its registers */
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_THERMAL_MGMT);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_THERMAL);
	KUNIT_EXPECT_GE(test, f->size, FME_THERM_SIZE);
	KUNIT_EXPECT_EQ(test, f->irq_count, 0);
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_POWER_MGMT);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_POWER);
	KUNIT_EXPECT_GE(test, f->size, FME_PWR_SIZE);

	/* The PR engine, last, its staging window inside it */
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_PR);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_PTR_EQ(test, f, &fme->features[fme->num_features - 1]);
	KUNIT_EXPECT_TRUE(test, readq(f->ioaddr + DFH) & DFH_EOL);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_PR);
	KUNIT_EXPECT_EQ(test, f->size, FPGA_SIM_PR_SIZE);
	cap = readq(f->ioaddr + FME_PR_STAGE_CAP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_PR_STAGE_CAP_MAGIC, cap),
			FME_PR_STAGE_MAGIC);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_PR_STAGE_CAP_OFS, cap) * SZ_4K +
			FIELD_GET(FME_PR_STAGE_CAP_SIZE, cap) * SZ_1K,
			FPGA_SIM_PR_SIZE);
	/* FPGA_SIM_INTERFACE_ID, b2d602a3-7779-44af-a0e4-4ea57c9c6a0e */
	KUNIT_EXPECT_EQ(test, readq(f->ioaddr + FME_PR_INTFC_ID_H),
			0xb2d602a3777944afULL);
	KUNIT_EXPECT_EQ(test, readq(f->ioaddr + FME_PR_INTFC_ID_L),
			0xa0e44ea57c9c6a0eULL);
}

static void sim_layout_ports(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	struct fpga_dfl_card *card = sim_enumerate(test);
	struct fpga_dfl_device *port;
	struct fpga_dfl_feature *f;
	unsigned int n, k;

	KUNIT_ASSERT_EQ(test, card->num_ports, NUM_PORTS);
	for (n = 0; n < NUM_PORTS; n++) {
		port = card->ports[n];
		KUNIT_EXPECT_EQ(test, port->port_num, n);
		KUNIT_EXPECT_EQ(test, sim_ofs(sim, port->hdr.ioaddr),
				FPGA_SIM_FME_SIZE +
				n * (FPGA_SIM_PORT_HDR_SIZE + sim->afu_size));
		KUNIT_EXPECT_EQ(test, port->num_features, 2);

		f = fpga_dfl_find_feature(port, PORT_FEATURE_ID_ERROR);
		KUNIT_ASSERT_NOT_NULL(test, f);
		KUNIT_ASSERT_EQ(test, f->irq_count, 1);
		KUNIT_EXPECT_EQ(test, f->irqs[0],
				t->irqs[FPGA_SIM_PORT_ERR_VEC(n)]);

		f = fpga_dfl_find_feature(port, PORT_FEATURE_ID_UINT);
		KUNIT_ASSERT_NOT_NULL(test, f);
		KUNIT_ASSERT_EQ(test, f->irq_count, FPGA_SIM_NUM_UINT);
		for (k = 0; k < FPGA_SIM_NUM_UINT; k++)
			KUNIT_EXPECT_EQ(test, f->irqs[k],
					t->irqs[FPGA_SIM_PORT_UINT_VEC(n, k)]);

		/* The NLB0 AFU, after the port's 64K */
		KUNIT_EXPECT_EQ(test, sim_ofs(sim, port->afu.ioaddr),
				sim->ports[n].hdr + FPGA_SIM_PORT_HDR_SIZE);
		KUNIT_EXPECT_EQ(test, port->afu.size, sim->afu_size);
		KUNIT_EXPECT_EQ(test, port->afu.start,
				virt_to_phys(sim->regs) + sim->ports[n].afu);
		KUNIT_EXPECT_EQ(test, port->afu_guid_h, NLB0_AFU_GUID_H);
		KUNIT_EXPECT_EQ(test, port->afu_guid_l, NLB0_AFU_GUID_L);
	}
}

/* Board n3000: feature 0xe between IPERF and the counters, the rest as is */
static void sim_layout_n3000(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_dfl_device *fme;
	struct fpga_dfl_feature *f;

	t->sim.board = FPGA_SIM_BOARD_N3000;
	fpga_sim_bmc_layout(&t->sim);
	fme = sim_enumerate(test)->fme;
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_ASSERT_NOT_NULL(test, fme);
	KUNIT_EXPECT_EQ(test, fme->num_features, 7);
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_GLOBAL_IPERF);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->size, FPGA_SIM_FME_SPI - FPGA_SIM_FME_IPERF);
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_MAX10_SPI);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_SPI);
	KUNIT_EXPECT_EQ(test, f->size,
			FPGA_SIM_FME_COUNTERS - FPGA_SIM_FME_SPI);
	KUNIT_EXPECT_EQ(test, f->irq_count, 0);
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_COUNTERS);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, sim_ofs(&t->sim, f->ioaddr), FPGA_SIM_FME_COUNTERS);
	f = fpga_dfl_find_feature(fme, FME_FEATURE_ID_PR);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->size, FPGA_SIM_PR_SIZE);
}

static struct kunit_case sim_layout_cases[] = {
	KUNIT_CASE(sim_layout_fme),
	KUNIT_CASE(sim_layout_n3000),
	KUNIT_CASE(sim_layout_ports),
	{}
};

static struct kunit_suite sim_layout_suite = {
	.name = "fpga_sim_layout",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_layout_cases,
};

/* The model's readings, as the registers show them */
static unsigned int sim_temp(struct fpga_sim *sim)
{
	return FIELD_GET(FME_THERM_TEMPERATURE,
			 fpga_sim_read(sim, FPGA_SIM_FME_THERMAL +
				       FME_THERM_RDSENSOR_FMT1));
}

static u64 sim_pwr_status(struct fpga_sim *sim)
{
	return fpga_sim_read(sim, FPGA_SIM_FME_POWER + FME_PWR_STATUS);
}

static unsigned int sim_watts(struct fpga_sim *sim)
{
	return FIELD_GET(FME_PWR_CONSUMED, sim_pwr_status(sim));
}

static u64 sim_therm_thr(struct fpga_sim *sim)
{
	return fpga_sim_read(sim, FPGA_SIM_FME_THERMAL + FME_THERM_THRESHOLD);
}

static u64 sim_pwr_thr(struct fpga_sim *sim)
{
	return fpga_sim_read(sim, FPGA_SIM_FME_POWER + FME_PWR_THRESHOLD);
}

/* The DMA engine: @bytes more in the card's counter of @event */
static void sim_count(struct fpga_sim *sim, unsigned int event, u64 bytes)
{
	fpga_sim_write(sim, FPGA_SIM_FME_COUNTERS + CNTR_REG(CNTR_CARD, event),
		       fpga_sim_cntr_get(sim, CNTR_CARD, event) + bytes);
}

/* @ticks ticks, each with @bytes of DMA each way */
static void sim_load(struct fpga_sim *sim, unsigned int ticks, u64 bytes)
{
	unsigned int i;

	for (i = 0; i < ticks; i++) {
		sim_count(sim, CNTR_EVT_DMA_RD_BYTES, bytes);
		sim_count(sim, CNTR_EVT_DMA_WR_BYTES, bytes);
		fpga_sim_sensors_step(sim, 1);
	}
}

/* A new card is at rest: 20 W, 45 degrees in 35 degrees air, no alarm */
static void sim_sensors_idle(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	u64 thr = sim_therm_thr(sim);

	KUNIT_EXPECT_EQ(test, sim_temp(sim), 45);
	KUNIT_EXPECT_EQ(test, sim_watts(sim), 20);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_THERM_THRESHOLD1, thr), 80);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_THERM_THRESHOLD2, thr), 90);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_THERM_TRIP, thr), 100);
	KUNIT_EXPECT_TRUE(test, thr & FME_THERM_THRESHOLD1_POLICY);
	KUNIT_EXPECT_FALSE(test, thr & (FME_THERM_THRESHOLD1_STS |
					 FME_THERM_THRESHOLD2_STS));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, FPGA_SIM_FME_THERMAL +
					    FME_THERM_CAP), 0);
	thr = sim_pwr_thr(sim);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_PWR_THRESHOLD1, thr), 80);
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_PWR_THRESHOLD2, thr), 95);
	KUNIT_EXPECT_FALSE(test, thr & (FME_PWR_THRESHOLD1_STS |
					 FME_PWR_THRESHOLD2_STS));
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, FPGA_SIM_FME_POWER +
					    FME_PWR_FPGA_LIMIT),
			FME_PWR_LIMIT_EN | 1000);
	KUNIT_EXPECT_EQ(test, fpga_sim_read(sim, FPGA_SIM_FME_POWER +
					    FME_PWR_XEON_LIMIT), 0);

	/* Ten idle seconds change nothing */
	fpga_sim_sensors_step(sim, 1000);
	KUNIT_EXPECT_EQ(test, sim_temp(sim), 45);
	KUNIT_EXPECT_EQ(test, sim_watts(sim), 20);
}

/* Load raises power at once and temperature slowly; idle brings both back */
static void sim_sensors_load(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	unsigned int temp, watts;

	/* 10 MiB each way per 10 ms: 2 GiB/s, 64 W over the idle 20 */
	sim_load(sim, 10, 10 * SZ_1M);
	watts = sim_watts(sim);
	KUNIT_EXPECT_GT(test, watts, 30);
	KUNIT_EXPECT_LT(test, watts, 84);
	KUNIT_EXPECT_GE(test, sim_temp(sim), 46);
	sim_load(sim, 190, 10 * SZ_1M);
	KUNIT_EXPECT_EQ(test, sim_watts(sim), 84);
	temp = sim_temp(sim);
	KUNIT_EXPECT_GT(test, temp, 60);
	KUNIT_EXPECT_LT(test, temp, 35 + 42);

	/* Idle: power falls first, temperature follows */
	fpga_sim_sensors_step(sim, 50);
	KUNIT_EXPECT_LT(test, sim_watts(sim), 40);
	KUNIT_EXPECT_GT(test, sim_temp(sim), 50);
	KUNIT_EXPECT_LT(test, sim_temp(sim), temp);
	fpga_sim_sensors_step(sim, 1000);
	fpga_sim_sensors_step(sim, 1000);
	KUNIT_EXPECT_EQ(test, sim_watts(sim), 20);
	KUNIT_EXPECT_EQ(test, sim_temp(sim), 45);
}

/* No load takes the card past its FPGA limit, nor the register's range */
static void sim_sensors_bounded(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;

	sim_load(sim, 1, 1ULL << 50);
	fpga_sim_sensors_step(sim, 1);
	KUNIT_EXPECT_LE(test, sim_watts(sim), 100);
	sim_load(sim, 3000, 1ULL << 40);
	KUNIT_EXPECT_EQ(test, sim_watts(sim), 100);
	KUNIT_EXPECT_LE(test, sim_temp(sim), 35 + 50);
	KUNIT_EXPECT_GE(test, sim_temp(sim), 35 + 49);

	sim->sensors.ambient = 100;
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_temp(sim), FIELD_MAX(FME_THERM_TEMPERATURE));
}

/* The power thresholds are software's; 0 turns one off */
static void sim_sensors_power_alarms(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	size_t ofs = FPGA_SIM_FME_POWER + FME_PWR_THRESHOLD;

	fpga_sim_write(sim, ofs, FIELD_PREP(FME_PWR_THRESHOLD1, 20) |
		       FIELD_PREP(FME_PWR_THRESHOLD2, 21));
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_pwr_thr(sim) & (FME_PWR_THRESHOLD1_STS |
						  FME_PWR_THRESHOLD2_STS),
			FME_PWR_THRESHOLD1_STS);
	/* The thresholds themselves are left as software stored them */
	KUNIT_EXPECT_EQ(test, FIELD_GET(FME_PWR_THRESHOLD2, sim_pwr_thr(sim)),
			21);
	sim_load(sim, 20, SZ_1M);
	KUNIT_EXPECT_TRUE(test, sim_pwr_thr(sim) & FME_PWR_THRESHOLD2_STS);

	fpga_sim_write(sim, ofs, 0);
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_pwr_thr(sim), 0);
}

/* The FIM's thermal thresholds, crossed by a hotter room */
static void sim_sensors_thermal_alarms(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	u64 both = FME_THERM_THRESHOLD1_STS | FME_THERM_THRESHOLD2_STS;

	sim->sensors.ambient = 69;
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_temp(sim), 79);
	KUNIT_EXPECT_EQ(test, sim_therm_thr(sim) & both, 0);
	sim->sensors.ambient = 70;
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_therm_thr(sim) & both,
			FME_THERM_THRESHOLD1_STS);
	sim->sensors.ambient = 80;
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_therm_thr(sim) & both, both);

	/* A threshold that is not enabled never alarms */
	fpga_sim_write(sim, FPGA_SIM_FME_THERMAL + FME_THERM_THRESHOLD,
		       sim_therm_thr(sim) & ~FME_THERM_THRESHOLD2_EN);
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_therm_thr(sim) & both,
			FME_THERM_THRESHOLD1_STS);
	sim->sensors.ambient = 35;
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_EQ(test, sim_therm_thr(sim) & both, 0);
}

/* LTR: every port's AFU tolerates latency */
static void sim_sensors_ltr(struct kunit *test)
{
	struct sim_kunit *t = test->priv;
	struct fpga_sim *sim = &t->sim;
	unsigned int n;

	for (n = 0; n < NUM_PORTS; n++) {
		fpga_sim_sensors_step(sim, 0);
		KUNIT_EXPECT_FALSE(test, sim_pwr_status(sim) & FME_PWR_LTR);
		sw_ctrl(sim, n, PORT_CTRL_LATENCY);
	}
	fpga_sim_sensors_step(sim, 0);
	KUNIT_EXPECT_TRUE(test, sim_pwr_status(sim) & FME_PWR_LTR);
}

static struct kunit_case sim_sensors_cases[] = {
	KUNIT_CASE(sim_sensors_idle),
	KUNIT_CASE(sim_sensors_load),
	KUNIT_CASE(sim_sensors_bounded),
	KUNIT_CASE(sim_sensors_power_alarms),
	KUNIT_CASE(sim_sensors_thermal_alarms),
	KUNIT_CASE(sim_sensors_ltr),
	{}
};

static struct kunit_suite sim_sensors_suite = {
	.name = "fpga_sim_sensors",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_sensors_cases,
};

kunit_test_suites(&sim_reset_suite, &sim_error_suite, &sim_layout_suite,
		  &sim_sensors_suite);

MODULE_DESCRIPTION("KUnit suites of the simulated card's model (fpga_sim)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("FPGA_SUITE_KUNIT");
