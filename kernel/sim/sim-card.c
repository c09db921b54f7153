// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's register file and the model that plays its hardware.
 *
 * Layout of the window (one BAR):
 *   0x00000  FME header -> global error -> global performance -> counter
 *            bank -> thermal -> power -> PR engine (EOL, to the end of the
 *            FME's 64 KiB), 4 KiB apart
 *   P        port header -> port error -> user interrupts (EOL)
 *   P+64K    AFU (NLB0 until programmed), PORT_CAP.MMIO_SIZE long
 * with P = 64K + n * (64K + AFU size) for port n.
 *
 * The model thread polls the registers: without pause for 200 us after it
 * last did something (while its CPU has nothing else to run), every
 * 10-20 us for 20 ms, every 100-200 us until 200 ms, and every 2-4 ms on
 * a card left alone since (what many idle cards would otherwise take of
 * the CPUs: scale_bench's idle_model_cpu).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>

#include <fpga-suite/dfl-core.h>
#include "sim.h"

#define FPGA_SIM_FME_GUID_L		0x82fee346524ae92aULL
#define FPGA_SIM_FME_GUID_H		0xf9e1776438f0afbfULL
#define FPGA_SIM_PORT_GUID_L		0xa4c33a8a96eab1c0ULL
#define FPGA_SIM_PORT_GUID_H		0x3bbed86a8d0c4ef1ULL
#define FPGA_SIM_BITSTREAM_ID		0x0100000000010203ULL
#define FPGA_SIM_BITSTREAM_MD		0x0000000020260101ULL

/* How long the model polls fast, then slower, after the last activity */
#define FPGA_SIM_BUSY_WINDOW		msecs_to_jiffies(20)
#define FPGA_SIM_IDLE_WINDOW		msecs_to_jiffies(200)
/* How long the model spins after it did something; how often it ticks */
#define FPGA_SIM_SPIN_NS		(200 * NSEC_PER_USEC)
#define FPGA_SIM_TICK_NS		(10 * NSEC_PER_USEC)

static void fpga_sim_layout_fme(struct fpga_sim *sim)
{
	unsigned int n;

	fpga_sim_write(sim, DFH, fpga_sim_dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME,
					      SZ_4K, false));
	fpga_sim_write(sim, DFH_GUID_L, FPGA_SIM_FME_GUID_L);
	fpga_sim_write(sim, DFH_GUID_H, FPGA_SIM_FME_GUID_H);
	fpga_sim_write(sim, FME_HDR_CAP,
		       FIELD_PREP(FME_CAP_FABRIC_VERID, 1) |
		       FIELD_PREP(FME_CAP_NUM_PORTS, sim->num_ports) |
		       FIELD_PREP(FME_CAP_ADDR_WIDTH, 48));
	for (n = 0; n < sim->num_ports; n++)
		fpga_sim_write(sim, FME_HDR_PORT_OFST(n),
			       FME_PORT_OFST_IMP |
			       FIELD_PREP(FME_PORT_OFST_DFH, sim->ports[n].hdr));
	fpga_sim_write(sim, FME_HDR_BITSTREAM_ID, FPGA_SIM_BITSTREAM_ID);
	fpga_sim_write(sim, FME_HDR_BITSTREAM_MD, FPGA_SIM_BITSTREAM_MD);

	fpga_sim_write(sim, FPGA_SIM_FME_GLOBAL_ERR,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, FME_FEATURE_ID_GLOBAL_ERR,
				    SZ_4K, false));
	fpga_sim_write(sim, FPGA_SIM_FME_GLOBAL_ERR + FME_ERROR_CAP,
		       FME_ERROR_CAP_SUPP_INT |
		       FIELD_PREP(FME_ERROR_CAP_INT_VECT,
				  FPGA_SIM_FME_ERR_VEC(sim->num_ports)));
	fpga_sim_write(sim, FPGA_SIM_FME_IPERF,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE,
				    FME_FEATURE_ID_GLOBAL_IPERF, SZ_4K, false));
	fpga_sim_cntr_layout(sim, FPGA_SIM_FME_THERMAL - FPGA_SIM_FME_COUNTERS,
			     false);
	fpga_sim_sensors_layout(sim);
	fpga_sim_pr_layout(sim);
	fpga_sim_bmc_layout(sim);
}

static void fpga_sim_layout_port(struct fpga_sim *sim, unsigned int n)
{
	size_t hdr = sim->ports[n].hdr, afu = sim->ports[n].afu;

	fpga_sim_write(sim, hdr + DFH,
		       fpga_sim_dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, SZ_4K, false));
	fpga_sim_write(sim, hdr + DFH_GUID_L, FPGA_SIM_PORT_GUID_L);
	fpga_sim_write(sim, hdr + DFH_GUID_H, FPGA_SIM_PORT_GUID_H);
	fpga_sim_write(sim, hdr + FIU_NEXT_AFU,
		       FIELD_PREP(FIU_NEXT_AFU_OFFSET, afu - hdr));
	fpga_sim_write(sim, hdr + PORT_HDR_CAP,
		       FIELD_PREP(PORT_CAP_PORT_NUM, n) |
		       FIELD_PREP(PORT_CAP_MMIO_SIZE, sim->afu_size / SZ_1K) |
		       FIELD_PREP(PORT_CAP_SUPP_INT_NUM, FPGA_SIM_NUM_UINT));

	fpga_sim_write(sim, hdr + FPGA_SIM_PORT_ERR,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR,
				    SZ_4K, false));
	fpga_sim_write(sim, hdr + FPGA_SIM_PORT_ERR + PORT_ERROR_CAP,
		       PORT_ERROR_CAP_SUPP_INT |
		       FIELD_PREP(PORT_ERROR_CAP_INT_VECT,
				  FPGA_SIM_PORT_ERR_VEC(n)));
	fpga_sim_write(sim, hdr + FPGA_SIM_PORT_UINT,
		       fpga_sim_dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_UINT,
				    SZ_4K, true));
	fpga_sim_write(sim, hdr + FPGA_SIM_PORT_UINT + PORT_UINT_CAP,
		       FIELD_PREP(PORT_UINT_CAP_INT_NUM, FPGA_SIM_NUM_UINT) |
		       FIELD_PREP(PORT_UINT_CAP_FST_VECT,
				  FPGA_SIM_PORT_UINT_VEC(n, 0)));

	fpga_sim_afu_load(sim, n, &fpga_sim_nlb0_model);
}

/**
 * fpga_sim_port_reset_step() - the soft-reset handshake of port @n
 * @sim: the card
 * @n: port
 * @ctrl: PORT_HDR_CTRL as just read
 *
 * ACK follows SFTRST in both directions.  Entering reset stops the AFU and
 * counts a reset; leaving it clears the port's errors.  The model keeps
 * its own idea of the port's state, so each effect happens once, and ACK
 * (read-only on hardware) is put back if software stored over it.
 *
 * Return: true if the model did something.
 */
bool fpga_sim_port_reset_step(struct fpga_sim *sim, unsigned int n, u64 ctrl)
{
	struct fpga_sim_port *port = &sim->ports[n];
	bool want = ctrl & PORT_CTRL_SFTRST;
	bool acked = ctrl & PORT_CTRL_SFTRST_ACK;
	bool busy = false;

	if (want && !port->in_reset && !READ_ONCE(sim->fail_reset_ack)) {
		port->model->reset(sim, n);
		fpga_sim_cntr_add(sim, n, CNTR_EVT_RESETS, 1);
		port->in_reset = true;
		busy = true;
	} else if (!want && port->in_reset) {
		fpga_sim_error_reset(sim, n);
		port->in_reset = false;
		busy = true;
	}
	/* On a race with a store, the next pass tries again */
	if (acked != port->in_reset) {
		fpga_sim_update(sim, port->hdr + PORT_HDR_CTRL, ctrl,
				ctrl ^ PORT_CTRL_SFTRST_ACK);
		busy = true;
	}
	return busy;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_port_reset_step);

/* Port @n's error and soft-reset handshakes; @ctrl: its CTRL, read */
static bool fpga_sim_port_handshake(struct fpga_sim *sim, unsigned int n,
				    u64 *ctrl)
{
	bool busy;

	*ctrl = fpga_sim_read(sim, sim->ports[n].hdr + PORT_HDR_CTRL);
	/*
	 * What software stored before this CTRL value is seen from here on:
	 * an error clear written before the reset is released is applied
	 * before the release is acknowledged.
	 */
	smp_rmb();
	busy = fpga_sim_error_step(sim, n);
	busy |= fpga_sim_port_reset_step(sim, n, *ctrl);
	return busy;
}

/**
 * fpga_sim_serve_handshakes() - the other ports' handshakes, mid-run
 * @sim: the card
 * @busy_port: the port whose AFU's run the model thread is in
 *
 * One thread models every port: a long run on one (a continuous one never
 * ends by itself) must not leave another port's reset unacknowledged, or
 * one user could make another's reset time out.  Called between chunks of
 * a run, as hardware handshakes each port on its own.
 */
void fpga_sim_serve_handshakes(struct fpga_sim *sim, unsigned int busy_port)
{
	unsigned int n;
	u64 ctrl;

	for (n = 0; n < sim->num_ports; n++)
		if (n != busy_port)
			fpga_sim_port_handshake(sim, n, &ctrl);
}

static bool fpga_sim_port_step(struct fpga_sim *sim, unsigned int n)
{
	bool busy;
	u64 ctrl;

	busy = fpga_sim_port_handshake(sim, n, &ctrl);
	if (!(ctrl & PORT_CTRL_SFTRST) && !sim->ports[n].in_reset)
		busy |= sim->ports[n].model->step(sim, n);
	return busy;
}

/*
 * Sleep for @min_us to @max_us, or until kthread_stop() wakes us, which
 * usleep_range() would not: removing a card waits for its model.  An idle
 * card's model does not count as load.
 */
static void fpga_sim_model_sleep(unsigned int min_us, unsigned int max_us)
{
	ktime_t timeout = ns_to_ktime((u64)min_us * NSEC_PER_USEC);

	set_current_state(TASK_IDLE);
	if (!kthread_should_stop())
		schedule_hrtimeout_range(&timeout,
					 (u64)(max_us - min_us) * NSEC_PER_USEC,
					 HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
}

/*
 * Wait for the next pass.  Right after the model did something it spins
 * instead, for FPGA_SIM_SPIN_NS, as long as nothing else wants its CPU: a
 * sleep of tens of microseconds costs more than that in timer and wakeup
 * (far more in an emulated VM), and software that rings the doorbell
 * again as soon as the last interrupt arrived, as a user-space driver's
 * request loop does, is then seen at once, as hardware would see it.
 * local_clock() may step back across a migration: the unsigned difference
 * then ends the spin early, which is harmless.
 */
static void fpga_sim_model_wait(u64 now, u64 last_busy_ns,
				unsigned long last_busy)
{
	if (now - last_busy_ns < FPGA_SIM_SPIN_NS && single_task_running()) {
		cpu_relax();
		/* A spin that never sleeps must still let Tasks RCU through */
		cond_resched_tasks_rcu_qs();
	} else if (time_before(jiffies, last_busy + FPGA_SIM_BUSY_WINDOW)) {
		fpga_sim_model_sleep(10, 20);
	} else if (time_before(jiffies, last_busy + FPGA_SIM_IDLE_WINDOW)) {
		fpga_sim_model_sleep(100, 200);
	} else {
		fpga_sim_model_sleep(2000, 4000);
	}
}

static int fpga_sim_model_thread(void *data)
{
	struct fpga_sim *sim = data;
	unsigned long last_busy = jiffies;
	u64 now, last_busy_ns = 0, last_tick_ns = 0;
	unsigned int n;

	while (!kthread_should_stop()) {
		bool busy = false;

		/*
		 * A spinning pass comes every few microseconds, and reading
		 * the time for the clock counter is not free everywhere (in
		 * the test VM ktime_get() reads the emulated HPET)
		 */
		now = local_clock();
		if (now - last_tick_ns >= FPGA_SIM_TICK_NS) {
			fpga_sim_cntr_tick(sim);
			last_tick_ns = now;
		}
		busy |= fpga_sim_fme_error_step(sim);
		busy |= fpga_sim_pr_step(sim);
		busy |= fpga_sim_bmc_step(sim);
		for (n = 0; n < sim->num_ports; n++)
			busy |= fpga_sim_port_step(sim, n);

		now = local_clock();
		if (busy) {
			last_busy = jiffies;
			last_busy_ns = now;
		}
		fpga_sim_model_wait(now, last_busy_ns, last_busy);
	}
	return 0;
}

/**
 * fpga_sim_card_layout() - allocate the register file and lay out the DFL
 * @sim: the card; id and num_ports set
 *
 * Before the card device is added: its sysfs reads the registers.  The
 * register file is freed when the device is released.
 *
 * Return: 0 or -ENOMEM.
 */
int fpga_sim_card_layout(struct fpga_sim *sim)
{
	size_t stride = FPGA_SIM_PORT_HDR_SIZE + sim->afu_size;
	unsigned int n;

	sim->regs_size = PAGE_ALIGN(FPGA_SIM_FME_SIZE + sim->num_ports * stride);
	sim->regs = alloc_pages_exact(sim->regs_size, GFP_KERNEL | __GFP_ZERO);
	if (!sim->regs)
		return -ENOMEM;

	for (n = 0; n < sim->num_ports; n++) {
		sim->ports[n].hdr = FPGA_SIM_FME_SIZE + n * stride;
		sim->ports[n].afu = sim->ports[n].hdr + FPGA_SIM_PORT_HDR_SIZE;
		fpga_sim_layout_port(sim, n);
	}
	fpga_sim_layout_fme(sim);
	fpga_sim_layout_faults(sim);
	return 0;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_card_layout);

/* From here on the sysfs knobs leave interrupts and model alone */
static void fpga_sim_card_kill(struct fpga_sim *sim)
{
	mutex_lock(&sim->err_lock);
	sim->live = false;
	mutex_unlock(&sim->err_lock);
}

static int fpga_sim_card_up(struct fpga_sim *sim)
{
	struct fpga_dfl_card_info info = { };
	struct fpga_dfl_card *card;
	int ret;

	ret = fpga_sim_irq_init(sim);
	if (ret)
		return ret;
	ret = fpga_sim_iommu_init(sim);
	if (ret)
		goto err_fini_irq;

	sim->model = kthread_run(fpga_sim_model_thread, sim, "fpga_sim%u",
				 sim->id);
	if (IS_ERR(sim->model)) {
		ret = PTR_ERR(sim->model);
		goto err_fini_iommu;
	}
	mutex_lock(&sim->err_lock);
	sim->live = true;
	mutex_unlock(&sim->err_lock);

	info.parent = &sim->dev;
	/* Where tools that go by PCI look for the regions */
	if (sim->pdev)
		info.region_parent = &sim->pdev->dev;
	info.ioaddr = (void __force __iomem *)sim->regs;
	info.start = virt_to_phys(sim->regs);
	info.len = sim->regs_size;
	info.cacheable = true;
	info.dma_isolation = sim->translated ? FPGA_DFL_DMA_PER_PORT :
					       FPGA_DFL_DMA_UNTRANSLATED;
	info.port_dma_devs = sim->dma_devs;
	info.num_port_dma_devs = sim->num_ports;
	info.owner = THIS_MODULE;
	info.irqs = sim->irq.virqs;
	info.num_irqs = sim->irq.num;
	card = fpga_dfl_card_add(&info);
	if (IS_ERR(card)) {
		ret = PTR_ERR(card);
		goto err_stop_model;
	}
	sim->card = card;
	return 0;

err_stop_model:
	fpga_sim_card_kill(sim);
	kthread_stop(sim->model);
	fpga_sim_pr_fini(sim);
err_fini_iommu:
	fpga_sim_iommu_fini(sim);
err_fini_irq:
	fpga_sim_irq_fini(sim);
	return ret;
}

/**
 * fpga_sim_card_init() - bring the card up and let fpga_dfl enumerate it
 * @sim: the card, laid out and added, with its PCI function if it has one
 *
 * Return: 0, -ENODEV if the card was removed meanwhile, or -errno.
 */
int fpga_sim_card_init(struct fpga_sim *sim)
{
	int ret = -ENODEV;

	mutex_lock(&sim->card_lock);
	if (!sim->unplugged)
		ret = fpga_sim_card_up(sim);
	mutex_unlock(&sim->card_lock);
	return ret;
}

/**
 * fpga_sim_card_unplug() - take the card down; the register file stays
 * @sim: the card
 *
 * Its deletion, or its surprise removal (its PCI function removed): once
 * only.  In this order: knobs stop raising, drivers unbind (they free
 * their irqs and DMA mappings), the model stops (a DMA in flight is cut
 * short), then the interrupt controller and the IOMMU go.
 */
void fpga_sim_card_unplug(struct fpga_sim *sim)
{
	mutex_lock(&sim->card_lock);
	sim->unplugged = true;
	if (sim->card) {
		fpga_sim_card_kill(sim);
		fpga_dfl_card_remove(sim->card);
		sim->card = NULL;
		kthread_stop(sim->model);
		fpga_sim_pr_fini(sim);
		fpga_sim_irq_fini(sim);
		fpga_sim_iommu_fini(sim);
	}
	mutex_unlock(&sim->card_lock);
}
