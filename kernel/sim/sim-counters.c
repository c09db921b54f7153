// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's counter bank: an FME private feature with a
 * free-running clock and, per port and for the whole card, one 64-bit
 * counter per CNTR_EVT_* event (layout in dfl-regs.h).
 *
 * Counters are exact: each event is added where the model does it, under
 * sim->cntr_lock, and stored with one 64-bit WRITE_ONCE so that a reader
 * (the perf PMU, through readq) never sees half an update.  The card total
 * of an event is the sum of the ports' counters, plus events of the card
 * itself (the FME error interrupt).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>

#include "sim.h"

#define FPGA_SIM_NS_PER_CLOCK	(NSEC_PER_USEC / FPGA_SIM_CLOCK_MHZ)

static size_t fpga_sim_cntr_ofs(unsigned int port, unsigned int event)
{
	return FPGA_SIM_FME_COUNTERS + CNTR_REG(port, event);
}

/**
 * fpga_sim_cntr_layout() - the counter bank's header and capability
 * @sim: the card
 * @next: DFH next offset
 * @eol: last feature of the FME
 */
void fpga_sim_cntr_layout(struct fpga_sim *sim, size_t next, bool eol)
{
	fpga_sim_write(sim, FPGA_SIM_FME_COUNTERS + DFH,
		       FIELD_PREP(DFH_TYPE, DFH_TYPE_PRIVATE) |
		       FIELD_PREP(DFH_ID, FME_FEATURE_ID_COUNTERS) |
		       FIELD_PREP(DFH_NEXT, next) | (eol ? DFH_EOL : 0));
	fpga_sim_write(sim, FPGA_SIM_FME_COUNTERS + CNTR_CAP,
		       FIELD_PREP(CNTR_CAP_NUM_PORTS, sim->num_ports) |
		       FIELD_PREP(CNTR_CAP_NUM_EVENTS, CNTR_NUM_EVENTS) |
		       FIELD_PREP(CNTR_CAP_CLOCK_MHZ, FPGA_SIM_CLOCK_MHZ));
	sim->t0 = ktime_get();
}

/**
 * fpga_sim_cntr_add() - count @val events on port @port and the card
 * @sim: the card
 * @port: port number, or CNTR_CARD for an event of the card itself
 * @event: CNTR_EVT_*
 * @val: how many
 *
 * Process context.
 */
void fpga_sim_cntr_add(struct fpga_sim *sim, unsigned int port,
		       unsigned int event, u64 val)
{
	size_t ofs;

	spin_lock(&sim->cntr_lock);
	if (port < sim->num_ports) {
		ofs = fpga_sim_cntr_ofs(port, event);
		fpga_sim_write(sim, ofs, fpga_sim_read(sim, ofs) + val);
	}
	ofs = fpga_sim_cntr_ofs(CNTR_CARD, event);
	fpga_sim_write(sim, ofs, fpga_sim_read(sim, ofs) + val);
	spin_unlock(&sim->cntr_lock);
}

/**
 * fpga_sim_cntr_get() - read one counter
 * @sim: the card
 * @port: port number or CNTR_CARD
 * @event: CNTR_EVT_*
 *
 * Return: its value.
 */
u64 fpga_sim_cntr_get(struct fpga_sim *sim, unsigned int port,
		      unsigned int event)
{
	return fpga_sim_read(sim, fpga_sim_cntr_ofs(port, event));
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_cntr_get);

/**
 * fpga_sim_cntr_clocks() - clock ticks since @start
 * @sim: the card
 * @start: a ktime_get() value
 *
 * Return: whole periods of the FPGA_SIM_CLOCK_MHZ clock.
 */
u64 fpga_sim_cntr_clocks(struct fpga_sim *sim, ktime_t start)
{
	return div_u64(ktime_to_ns(ktime_sub(ktime_get(), start)),
		       FPGA_SIM_NS_PER_CLOCK);
}

/**
 * fpga_sim_afu_busy() - port @n's AFU ends a run begun at @start
 * @sim: the card
 * @n: the port
 * @start: ktime_get() when the run began
 *
 * Counted once, at the end: before software can see the run end (START
 * clear, the DSM), so that what it reads then includes the run.
 *
 * Return: the run's length in clocks, as the DSM reports it.
 */
u64 fpga_sim_afu_busy(struct fpga_sim *sim, unsigned int n, ktime_t start)
{
	u64 clocks = fpga_sim_cntr_clocks(sim, start);

	fpga_sim_cntr_add(sim, n, CNTR_EVT_AFU_BUSY, clocks);
	return clocks;
}

/*
 * Advance CNTR_CLOCK, and the sensors that integrate the counters over
 * time; the model calls this every pass, at most every 10 us, and a DMA
 * run every 1 MiB
 */
void fpga_sim_cntr_tick(struct fpga_sim *sim)
{
	fpga_sim_write(sim, FPGA_SIM_FME_COUNTERS + CNTR_CLOCK,
		       fpga_sim_cntr_clocks(sim, sim->t0));
	fpga_sim_sensors_tick(sim);
}
