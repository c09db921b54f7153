// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's interrupt controller: a linear irq domain of its
 * own, one hwirq per vector (Debian's kernel has no CONFIG_IRQ_SIM).
 *
 * The model thread raises a vector in process context and delivers it at
 * once, with interrupts off, through the irq core's edge flow
 * (generic_handle_domain_irq_safe(), as a demultiplexer of interrupts
 * behind a bus does).  An irq_work delivering it in hard-irq context
 * instead cost the model's CPU a self-IPI per interrupt, a third of an
 * interrupt round trip in the emulated test VM.  The irq_work still
 * delivers a vector unmasked or enabled again while pending, raises from
 * atomic context, and every raise on a kernel that proves its locking:
 * there the handlers must run in hard-irq context, as real hardware runs
 * them, for lockdep to learn which locks they take there.
 *
 * A vector raised while masked or disabled stays pending; raises of a
 * vector that is already pending coalesce, like an MSI-X pending bit.  A
 * raise while the vector's handler runs on another CPU is not lost: the
 * edge flow runs the handler again.  A vector nobody has requested is
 * shut down: what is raised there is counted, then dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/irq_work.h>

#include "sim.h"
#include "sim_trace.h"

static struct fpga_sim_irq *fpga_sim_irq_of(struct irq_data *d)
{
	return &((struct fpga_sim *)irq_data_get_irq_chip_data(d))->irq;
}

/*
 * Deliver what is pending and unmasked.  Each vector's pending bit goes to
 * whoever clears it, the raising task or the irq_work.
 */
static void fpga_sim_irq_deliver(struct fpga_sim_irq *irq)
{
	unsigned int vec;

	for_each_set_bit(vec, irq->pending, irq->num) {
		if (test_bit(vec, irq->masked))
			continue;
		/* NULL would be the default domain: another chip's vectors */
		if (WARN_ON_ONCE(!irq->domain))
			return;
		if (test_and_clear_bit(vec, irq->pending))
			generic_handle_domain_irq_safe(irq->domain, vec);
	}
}

/* Runs in hard-irq context */
static void fpga_sim_irq_work(struct irq_work *work)
{
	fpga_sim_irq_deliver(container_of(work, struct fpga_sim_irq, work));
}

static void fpga_sim_irq_mask(struct irq_data *d)
{
	set_bit(irqd_to_hwirq(d), fpga_sim_irq_of(d)->masked);
}

/* The edge flow acks each interrupt it takes: taking the pending bit was it */
static void fpga_sim_irq_ack(struct irq_data *d)
{
}

static void fpga_sim_irq_unmask(struct irq_data *d)
{
	struct fpga_sim_irq *irq = fpga_sim_irq_of(d);
	irq_hw_number_t vec = irqd_to_hwirq(d);

	clear_bit(vec, irq->masked);
	/* Pairs with the barrier in fpga_sim_irq_raise(): one of us queues */
	smp_mb__after_atomic();
	if (test_bit(vec, irq->pending))
		irq_work_queue(&irq->work);
}

/* request_irq(): start clean, events from before nobody listened are gone */
static unsigned int fpga_sim_irq_startup(struct irq_data *d)
{
	clear_bit(irqd_to_hwirq(d), fpga_sim_irq_of(d)->pending);
	fpga_sim_irq_unmask(d);
	return 0;
}

static void fpga_sim_irq_shutdown(struct irq_data *d)
{
	fpga_sim_irq_mask(d);
	clear_bit(irqd_to_hwirq(d), fpga_sim_irq_of(d)->pending);
}

/* enable_irq() of a vector raised while disabled: deliver it from hard irq */
static int fpga_sim_irq_retrigger(struct irq_data *d)
{
	struct fpga_sim_irq *irq = fpga_sim_irq_of(d);

	set_bit(irqd_to_hwirq(d), irq->pending);
	irq_work_queue(&irq->work);
	return 1;
}

static struct irq_chip fpga_sim_irq_chip = {
	.name		= "fpga_sim",
	.irq_startup	= fpga_sim_irq_startup,
	.irq_shutdown	= fpga_sim_irq_shutdown,
	.irq_ack	= fpga_sim_irq_ack,
	.irq_mask	= fpga_sim_irq_mask,
	.irq_unmask	= fpga_sim_irq_unmask,
	.irq_retrigger	= fpga_sim_irq_retrigger,
};

static int fpga_sim_irq_map(struct irq_domain *d, unsigned int virq,
			    irq_hw_number_t hw)
{
	struct fpga_sim *sim = d->host_data;

	irq_set_chip_data(virq, sim);
	irq_set_chip_and_handler_name(virq, &fpga_sim_irq_chip,
				      handle_edge_irq, sim->irq.names[hw]);
	irq_set_noprobe(virq);
	return 0;
}

static void fpga_sim_irq_unmap(struct irq_domain *d, unsigned int virq)
{
	irq_set_chip_and_handler(virq, NULL, NULL);
	irq_set_chip_data(virq, NULL);
}

static const struct irq_domain_ops fpga_sim_irq_domain_ops = {
	.map	= fpga_sim_irq_map,
	.unmap	= fpga_sim_irq_unmap,
};

/* Name of a vector, as /proc/interrupts and /sys/kernel/irq/N/name show it */
static void fpga_sim_irq_name(struct fpga_sim *sim, unsigned int vec)
{
	char *name = sim->irq.names[vec];
	size_t size = sizeof(sim->irq.names[vec]);
	unsigned int port = vec / FPGA_SIM_VECS_PER_PORT;
	unsigned int k = vec % FPGA_SIM_VECS_PER_PORT;

	if (vec == FPGA_SIM_FME_ERR_VEC(sim->num_ports))
		snprintf(name, size, "fpga_sim%u-fme-err", sim->id);
	else if (!k)
		snprintf(name, size, "fpga_sim%u-p%u-err", sim->id, port);
	else
		snprintf(name, size, "fpga_sim%u-p%u-uint%u", sim->id, port,
			 k - 1);
}

/**
 * fpga_sim_irq_raise() - the card signals interrupt vector @vec
 * @sim: the card
 * @vec: vector (see FPGA_SIM_PORT_ERR_VEC() and friends)
 *
 * Any context.  From a task the handlers run before this returns (unless
 * the vector is masked or disabled, or already taken elsewhere): the
 * caller holds no lock a handler may take.  From atomic context, and on a
 * kernel with CONFIG_PROVE_LOCKING, an irq_work delivers it.  Counted in
 * the counter bank whether delivered or not.
 */
void fpga_sim_irq_raise(struct fpga_sim *sim, unsigned int vec)
{
	struct fpga_sim_irq *irq = &sim->irq;
	unsigned int port = vec / FPGA_SIM_VECS_PER_PORT;
	bool user = vec % FPGA_SIM_VECS_PER_PORT;

	if (WARN_ON_ONCE(vec >= irq->num))
		return;
	if (vec == FPGA_SIM_FME_ERR_VEC(sim->num_ports))
		port = CNTR_CARD;
	fpga_sim_cntr_add(sim, port,
			  user ? CNTR_EVT_USER_IRQS : CNTR_EVT_ERROR_IRQS, 1);
	trace_irq_raise(sim, vec);

	set_bit(vec, irq->pending);
	/* Pending before the mask is read: pairs with fpga_sim_irq_unmask() */
	smp_mb__after_atomic();
	if (in_task() && !IS_ENABLED(CONFIG_PROVE_LOCKING))
		fpga_sim_irq_deliver(irq);
	else
		irq_work_queue(&irq->work);
}

/**
 * fpga_sim_irq_init() - create the domain and map every vector
 * @sim: the card; its id and number of ports are set
 *
 * Return: 0 or -errno.
 */
int fpga_sim_irq_init(struct fpga_sim *sim)
{
	struct fpga_sim_irq *irq = &sim->irq;
	unsigned int vec;

	irq->num = FPGA_SIM_FME_ERR_VEC(sim->num_ports) + 1;
	/* Unrequested vectors are masked, as the irq core believes */
	bitmap_fill(irq->masked, FPGA_SIM_MAX_VECS);
	bitmap_zero(irq->pending, FPGA_SIM_MAX_VECS);
	irq->work = IRQ_WORK_INIT_HARD(fpga_sim_irq_work);
	for (vec = 0; vec < irq->num; vec++)
		fpga_sim_irq_name(sim, vec);

	irq->fwnode = irq_domain_alloc_named_fwnode(dev_name(&sim->dev));
	if (!irq->fwnode)
		return -ENOMEM;
	irq->domain = irq_domain_create_linear(irq->fwnode, irq->num,
					       &fpga_sim_irq_domain_ops, sim);
	if (!irq->domain) {
		irq_domain_free_fwnode(irq->fwnode);
		return -ENOMEM;
	}
	for (vec = 0; vec < irq->num; vec++) {
		irq->virqs[vec] = irq_create_mapping(irq->domain, vec);
		if (!irq->virqs[vec]) {
			fpga_sim_irq_fini(sim);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * fpga_sim_irq_fini() - unmap the vectors and remove the domain
 * @sim: the card
 *
 * Only once nothing raises any more (model stopped) and no driver holds an
 * irq (fpga_dfl_card_remove() has returned).
 */
void fpga_sim_irq_fini(struct fpga_sim *sim)
{
	struct fpga_sim_irq *irq = &sim->irq;
	unsigned int vec;

	irq_work_sync(&irq->work);
	for (vec = 0; vec < irq->num; vec++) {
		if (irq->virqs[vec])
			irq_dispose_mapping(irq->virqs[vec]);
		irq->virqs[vec] = 0;
	}
	irq_domain_remove(irq->domain);
	irq_domain_free_fwnode(irq->fwnode);
}
