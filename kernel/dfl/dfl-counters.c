// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card's counter bank (FME private feature 0xc0, dfl-regs.h): what
 * the FME's driver (perf PMU, counters/) and the port's (fdinfo) both
 * read.  The port reaches its card's bank through the core, which knows
 * the card's FME; the FME need not be bound to a driver.
 */
#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>

#include <fpga-suite/dfl-enum.h>

/**
 * fpga_dfl_cntr_cap() - what a counter bank has
 * @bank: the feature, at least CNTR_SIZE bytes
 * @cap: filled from CNTR_CAP, within what the driver knows and what the
 *	register block holds
 */
void fpga_dfl_cntr_cap(const struct fpga_dfl_feature *bank,
		       struct fpga_dfl_cntr_cap *cap)
{
	u64 v = readq(bank->ioaddr + CNTR_CAP);
	/* Only the blocks of events the register block holds whole */
	unsigned int fit = (bank->size - CNTR_BANK_SIZE(0)) / CNTR_BLOCK_SIZE *
			   CNTR_EVTS_PER_BLOCK;
	/* Fields first: FIELD_GET() inside min() is too long for 7.3's sparse */
	unsigned int ports = FIELD_GET(CNTR_CAP_NUM_PORTS, v);
	unsigned int events = FIELD_GET(CNTR_CAP_NUM_EVENTS, v);

	cap->num_ports = min_t(unsigned int, ports, FME_MAX_PORTS);
	cap->num_events = min3(events, (unsigned int)CNTR_NUM_EVENTS, fit);
	cap->clock_mhz = FIELD_GET(CNTR_CAP_CLOCK_MHZ, v);
}
EXPORT_SYMBOL_GPL(fpga_dfl_cntr_cap);

/**
 * fpga_dfl_port_cntr() - one of a port's counters in its card's bank
 * @port: the port; the caller is in its driver's unplug section, so the
 *	card and its FME are there
 * @event: CNTR_EVT_*
 * @val: the counter
 * @clock_mhz: the bank's clock (CNTR_CLOCK), 0 if it does not say
 *
 * Return: 0, or -EOPNOTSUPP if the card has no counter bank, or its bank
 * has no such counter for this port.
 */
int fpga_dfl_port_cntr(struct fpga_dfl_device *port, unsigned int event,
		       u64 *val, unsigned int *clock_mhz)
{
	struct fpga_dfl_device *fme = port->card->fme;
	struct fpga_dfl_feature *bank;
	struct fpga_dfl_cntr_cap cap;

	bank = fme ? fpga_dfl_find_feature(fme, FME_FEATURE_ID_COUNTERS) : NULL;
	if (!bank)
		return -EOPNOTSUPP;
	fpga_dfl_cntr_cap(bank, &cap);
	if (event >= cap.num_events || port->port_num >= cap.num_ports)
		return -EOPNOTSUPP;
	*val = readq(bank->ioaddr + CNTR_REG(port->port_num, event));
	*clock_mhz = cap.clock_mhz;
	return 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_cntr);

/**
 * fpga_dfl_cntr_clocks_to_ns() - a count of the bank's clock as time
 * @clocks: clock periods
 * @clock_mhz: the clock, not 0
 *
 * Return: nanoseconds, rounded down; U64_MAX if more.
 */
u64 fpga_dfl_cntr_clocks_to_ns(u64 clocks, unsigned int clock_mhz)
{
	u32 rem;
	u64 ns;

	/* Whole microseconds first: clocks * 1000 may not fit in 64 bits */
	ns = div_u64_rem(clocks, clock_mhz, &rem);
	if (check_mul_overflow(ns, (u64)NSEC_PER_USEC, &ns) ||
	    check_add_overflow(ns, div_u64((u64)rem * NSEC_PER_USEC, clock_mhz),
			       &ns))
		return U64_MAX;
	return ns;
}
EXPORT_SYMBOL_GPL(fpga_dfl_cntr_clocks_to_ns);
