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

void fpga_port_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct fpga_port_file *pf = file->private_data;
	u64 pinned, mapped;

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
}
