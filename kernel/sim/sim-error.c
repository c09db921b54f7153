// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port errors of the simulated card.
 *
 * On hardware PORT_ERROR and PORT_FIRST_ERROR are write-1-to-clear.  The
 * model sees only memory, so it cannot see a store of the value that is
 * already there.  It models them as: a store that changes the register
 * clears the bits written as 1 (W1C on change), and the end of a port soft
 * reset clears the port's error registers.  Upstream's clear sequence
 * (reset asserted, mask, write the value back, unmask, reset released)
 * therefore clears.
 *
 * The FME's RAS error injection (RAS_ERROR_INJECT bits 2:0) is a level:
 * while a bit is set, its "injected" bit shows in the RAS status
 * register, and setting it raises the FME error interrupt unless that
 * status bit is masked; clearing it (OPAE clears inject_errors by writing
 * 0) clears the status bit.  Nothing else raises FME errors here.
 *
 * The model thread and the sysfs knobs both change these registers; they
 * do so under sim->err_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "sim.h"
#include "sim_trace.h"

/* Apply a store software made to a W1C register; true if there was one */
static bool fpga_sim_w1c(struct fpga_sim *sim, size_t ofs, u64 *seen)
{
	u64 cur = fpga_sim_read(sim, ofs);

	if (cur == *seen)
		return false;
	/* On a race with another store, the next pass sees that one */
	if (fpga_sim_update(sim, ofs, cur, *seen & ~cur))
		*seen &= ~cur;
	return true;
}

/* Set @bits in a W1C register, folding in any store made before */
static void fpga_sim_w1c_set(struct fpga_sim *sim, size_t ofs, u64 *seen,
			     u64 bits)
{
	for (;;) {
		fpga_sim_w1c(sim, ofs, seen);
		if (fpga_sim_update(sim, ofs, *seen, *seen | bits))
			break;
	}
	*seen |= bits;
}

/**
 * fpga_sim_error_step() - notice what software wrote to port @n's errors
 * @sim: the card
 * @n: port
 *
 * Return: true if software wrote something.
 */
bool fpga_sim_error_step(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t err = fpga_sim_port_err(sim, n);
	bool busy;

	mutex_lock(&sim->err_lock);
	busy = fpga_sim_w1c(sim, err + PORT_ERROR, &port->err_seen);
	busy |= fpga_sim_w1c(sim, err + PORT_FIRST_ERROR, &port->first_seen);
	mutex_unlock(&sim->err_lock);
	return busy;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_error_step);

static void __fpga_sim_error_raise(struct fpga_sim *sim, unsigned int n,
				   u64 bits)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t err = fpga_sim_port_err(sim, n);

	lockdep_assert_held(&sim->err_lock);
	fpga_sim_w1c_set(sim, err + PORT_ERROR, &port->err_seen, bits);
	fpga_sim_w1c(sim, err + PORT_FIRST_ERROR, &port->first_seen);
	if (!port->first_seen)
		fpga_sim_w1c_set(sim, err + PORT_FIRST_ERROR,
				 &port->first_seen, bits);
	trace_error_raise(sim, n, bits, fpga_sim_read(sim, err + PORT_ERROR));

	/* Masked errors are logged but do not interrupt */
	if (bits & ~fpga_sim_read(sim, err + PORT_ERROR_MASK))
		fpga_sim_irq_raise(sim, FPGA_SIM_PORT_ERR_VEC(n));
}

/**
 * fpga_sim_error_raise() - port @n detects errors @bits
 * @sim: the card
 * @n: port
 * @bits: PORT_ERR_* bits
 *
 * Sets them in PORT_ERROR (and PORT_FIRST_ERROR if that is 0) and raises
 * the port's error interrupt unless PORT_ERROR_MASK masks all of them.
 */
void fpga_sim_error_raise(struct fpga_sim *sim, unsigned int n, u64 bits)
{
	mutex_lock(&sim->err_lock);
	__fpga_sim_error_raise(sim, n, bits);
	mutex_unlock(&sim->err_lock);
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_error_raise);

/**
 * fpga_sim_error_inject() - the inject_error knob
 * @sim: the card
 * @n: port
 * @bits: nonzero error bits
 *
 * Return: 0, or -ENODEV once the card is being removed.
 */
int fpga_sim_error_inject(struct fpga_sim *sim, unsigned int n, u64 bits)
{
	int ret = -ENODEV;

	mutex_lock(&sim->err_lock);
	if (sim->live) {
		__fpga_sim_error_raise(sim, n, bits);
		ret = 0;
	}
	mutex_unlock(&sim->err_lock);
	return ret;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_error_inject);

/**
 * fpga_sim_error_reset() - a soft reset of port @n ends: errors clear
 * @sim: the card
 * @n: port
 */
void fpga_sim_error_reset(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t err = fpga_sim_port_err(sim, n);

	mutex_lock(&sim->err_lock);
	fpga_sim_take(sim, err + PORT_ERROR);
	fpga_sim_take(sim, err + PORT_FIRST_ERROR);
	fpga_sim_take(sim, err + PORT_MALFORMED_REQ0);
	fpga_sim_take(sim, err + PORT_MALFORMED_REQ1);
	port->err_seen = 0;
	port->first_seen = 0;
	mutex_unlock(&sim->err_lock);
}

/* What each RAS injection bit shows, and where */
static const struct {
	u64 inject;
	size_t status_reg;
	u64 status;
} fpga_sim_fme_injections[] = {
	{ FME_RAS_INJECT_CATAST, FME_RAS_CATFAT_ERROR,
	  FME_RAS_CATFAT_INJECTED_CATAST },
	{ FME_RAS_INJECT_FATAL, FME_RAS_CATFAT_ERROR,
	  FME_RAS_CATFAT_INJECTED_FATAL },
	{ FME_RAS_INJECT_NONFATAL, FME_RAS_NONFAT_ERROR,
	  FME_RAS_NONFAT_INJECTED_WARNING },
};

/**
 * fpga_sim_fme_error_step() - act on a change of the RAS injection bits
 * @sim: the card
 *
 * Return: true if software changed them.
 */
bool fpga_sim_fme_error_step(struct fpga_sim *sim)
{
	size_t base = FPGA_SIM_FME_GLOBAL_ERR;
	u64 inject = fpga_sim_read(sim, base + FME_RAS_ERROR_INJECT) &
		     FME_RAS_INJECT_MASK;
	bool irq = false;
	unsigned int i;
	u64 raised;

	if (inject == sim->fme_injected)
		return false;

	mutex_lock(&sim->err_lock);
	raised = inject & ~sim->fme_injected;
	for (i = 0; i < ARRAY_SIZE(fpga_sim_fme_injections); i++) {
		size_t reg = base + fpga_sim_fme_injections[i].status_reg;
		u64 status = fpga_sim_fme_injections[i].status;
		u64 cur = fpga_sim_read(sim, reg);
		/* The mask register is the one below the status register */
		u64 mask = fpga_sim_read(sim, reg - 8);

		if (inject & fpga_sim_fme_injections[i].inject)
			fpga_sim_write(sim, reg, cur | status);
		else
			fpga_sim_write(sim, reg, cur & ~status);
		if (raised & fpga_sim_fme_injections[i].inject && !(mask & status))
			irq = true;
	}
	sim->fme_injected = inject;
	if (irq && sim->live)
		fpga_sim_irq_raise(sim, FPGA_SIM_FME_ERR_VEC(sim->num_ports));
	mutex_unlock(&sim->err_lock);
	return true;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_fme_error_step);
