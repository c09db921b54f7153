// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites of the simulated card's model, on a register file laid out
 * as fpga_sim lays out a card but with no model thread, no bus device and
 * no enumeration: the test plays software and steps the model by hand.
 *
 *   fpga_sim_reset: the soft-reset handshake (sim-card.c)
 *   fpga_sim_error: the port error registers, W1C on change, first error,
 *                   the mask and the error interrupt (sim-error.c)
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "sim.h"

#define NUM_PORTS	2

struct sim_kunit {
	struct fpga_sim sim;
	atomic_t irq_works;	/* times the interrupt delivery work ran */
};

static void sim_kunit_irq_work(struct irq_work *work)
{
	struct sim_kunit *t = container_of(work, struct sim_kunit,
					   sim.irq.work);

	atomic_inc(&t->irq_works);
}

static int sim_kunit_init(struct kunit *test)
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
	/* The interrupt controller: only its delivery work, counted here */
	t->sim.irq.num = FPGA_SIM_FME_ERR_VEC(NUM_PORTS) + 1;
	init_irq_work(&t->sim.irq.work, sim_kunit_irq_work);
	ret = fpga_sim_card_layout(&t->sim);
	if (ret)
		return ret;
	test->priv = t;
	return 0;
}

static void sim_kunit_exit(struct kunit *test)
{
	struct sim_kunit *t = test->priv;

	irq_work_sync(&t->sim.irq.work);
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
	KUNIT_EXPECT_EQ(test, atomic_read(&t->irq_works), 0);
	KUNIT_EXPECT_EQ(test, fpga_sim_cntr_get(sim, 1, CNTR_EVT_ERROR_IRQS), 0);

	/* An unmasked bit interrupts, on port 1's error vector */
	fpga_sim_error_raise(sim, 1, BIT_ULL(7));
	irq_work_sync(&sim->irq.work);
	KUNIT_EXPECT_TRUE(test, test_bit(vec, sim->irq.pending));
	KUNIT_EXPECT_EQ(test, bitmap_weight(sim->irq.pending, sim->irq.num), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->irq_works), 1);
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

static struct kunit_case sim_error_cases[] = {
	KUNIT_CASE(sim_error_first),
	KUNIT_CASE(sim_error_w1c),
	KUNIT_CASE(sim_error_irq),
	KUNIT_CASE(sim_error_inject),
	{}
};

static struct kunit_suite sim_error_suite = {
	.name = "fpga_sim_error",
	.init = sim_kunit_init,
	.exit = sim_kunit_exit,
	.test_cases = sim_error_cases,
};

kunit_test_suites(&sim_reset_suite, &sim_error_suite);

MODULE_DESCRIPTION("KUnit suites of the simulated card's model (fpga_sim)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(FPGA_SUITE_KUNIT);
