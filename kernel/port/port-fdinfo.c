// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an open port file uses, in /proc/PID/fdinfo/FD: the keys follow
 * DRM's fdinfo usage stats (Documentation/gpu/drm-usage-stats.rst), with
 * an fpga- prefix, so that a tool finds who holds which port and what it
 * pinned without asking the driver (fpgactl ps).  Documented in
 * Documentation/fdinfo.md; keys are only ever added.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "port.h"

/* The bytes the file's DMA mappings pin (user memory) and map (all) */
static void fpga_port_fdinfo_dma(struct fpga_port_file *pf, u64 *pinned,
				 u64 *mapped)
{
	struct fpga_port_dma *dma;
	struct rb_node *node;

	*pinned = 0;
	*mapped = 0;
	mutex_lock(&pf->dma_lock);
	for (node = rb_first(&pf->dma_maps); node; node = rb_next(node)) {
		dma = rb_entry(node, struct fpga_port_dma, node);
		*mapped += dma->length;
		if (dma->kind == FPGA_PORT_DMA_USER)
			*pinned += dma->length;
	}
	mutex_unlock(&pf->dma_lock);
}

/**
 * fpga_port_fdinfo_open() - what fdinfo counts from for a new file
 * @pf: the file, not yet visible
 *
 * In the port's unplug section.
 */
void fpga_port_fdinfo_open(struct fpga_port_file *pf)
{
	unsigned int mhz;

	pf->afu_busy = !fpga_dfl_port_cntr(pf->port->fdev, CNTR_EVT_AFU_BUSY,
					   &pf->afu_busy_start, &mhz) && mhz;
}

/*
 * The AFU's busy time since the file was opened, whoever started its
 * jobs: the card counts per port, not per opener.  False once the port
 * is gone, or if the card cannot tell.
 */
static bool fpga_port_fdinfo_busy(struct fpga_port_file *pf, u64 *ns)
{
	struct fpga_port *port = pf->port;
	unsigned int mhz;
	bool ok = false;
	u64 now;
	int idx;

	if (!pf->afu_busy || !fpga_dfl_hw_enter(&port->unplug, &idx))
		return false;
	if (!fpga_dfl_port_cntr(port->fdev, CNTR_EVT_AFU_BUSY, &now, &mhz) &&
	    mhz) {
		/* Free running, 64 bits: the difference is right across a wrap */
		*ns = fpga_dfl_cntr_clocks_to_ns(now - pf->afu_busy_start, mhz);
		ok = true;
	}
	fpga_dfl_hw_exit(&port->unplug, idx);
	return ok;
}

void fpga_port_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct fpga_port_file *pf = file->private_data;
	u64 pinned, mapped, busy_ns;

	fpga_port_fdinfo_dma(pf, &pinned, &mapped);
	seq_puts(m, "fpga-driver:\tfpga_port\n");
	seq_printf(m, "fpga-port:\t%s\n", dev_name(&pf->port->chardev));
	seq_printf(m, "fpga-client-id:\t%llu\n", pf->client_id);
	/* Mappings are whole pages: KiB is exact */
	seq_printf(m, "fpga-memory-pinned:\t%llu KiB\n", pinned >> 10);
	seq_printf(m, "fpga-memory-mapped:\t%llu KiB\n", mapped >> 10);
	seq_printf(m, "fpga-interrupts:\t%lld\n",
		   atomic64_read(&pf->irqs_delivered));
	seq_printf(m, "fpga-resets:\t%lld\n", atomic64_read(&pf->resets));
	/* DRM's drm-engine-<name>; omitted where the card cannot measure it */
	if (fpga_port_fdinfo_busy(pf, &busy_ns))
		seq_printf(m, "fpga-engine-afu:\t%llu ns\n", busy_ns);
}
