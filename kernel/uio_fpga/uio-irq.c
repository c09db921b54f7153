// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port's user interrupt 0 through UIO, with uio_pdrv_genirq's contract:
 * the handler disables the irq and counts the event; user space re-enables
 * it by writing 1 (and may disable it by writing 0) once it has serviced
 * the device.  An interrupt that arrives while disabled is not lost: the
 * irq core marks it pending and replays it on enable_irq().
 *
 * The UIO core requests the irq (a real Linux irq, info->irq) and frees it
 * in uio_unregister_device(), under its info_lock, which also serialises
 * irqcontrol: no irqcontrol runs after the irq is freed.
 */
#include <linux/interrupt.h>

#include "uio-fpga.h"
#include "uio_trace.h"

static irqreturn_t uio_fpga_irq_handler(int irq, struct uio_info *info)
{
	struct uio_fpga *uf = to_uio_fpga(info);

	/* An irq handler: interrupts are off, plain spin_lock suffices */
	spin_lock(&uf->irq_lock);
	trace_uio_irq(uf->fdev->card_id, uf->fdev->id, !uf->irq_disabled);
	if (!uf->irq_disabled) {
		uf->irq_disabled = true;
		disable_irq_nosync(irq);
	}
	spin_unlock(&uf->irq_lock);
	return IRQ_HANDLED;
}

/* write() of 1 enables, 0 disables; anything else is refused */
static int uio_fpga_irqcontrol(struct uio_info *info, s32 on)
{
	struct uio_fpga *uf = to_uio_fpga(info);
	unsigned long flags;

	if (on != 0 && on != 1)
		return -EINVAL;
	/*
	 * The flag keeps enable_irq() and disable_irq_nosync() balanced
	 * whatever user space writes, and the lock orders us against the
	 * handler disabling the irq on another CPU.
	 */
	spin_lock_irqsave(&uf->irq_lock, flags);
	if (on && uf->irq_disabled) {
		uf->irq_disabled = false;
		enable_irq(info->irq);
	} else if (!on && !uf->irq_disabled) {
		uf->irq_disabled = true;
		disable_irq_nosync(info->irq);
	}
	spin_unlock_irqrestore(&uf->irq_lock, flags);
	return 0;
}

/**
 * uio_fpga_irq_init() - describe the port's user interrupt 0 to UIO
 * @uf: the device; @uf->fdev is set
 *
 * A port without user interrupts gets UIO_IRQ_NONE: read() and write()
 * on its UIO device then fail with -EIO, as UIO defines.
 */
void uio_fpga_irq_init(struct uio_fpga *uf)
{
	struct fpga_dfl_feature *uint;

	uint = fpga_dfl_find_feature(uf->fdev, PORT_FEATURE_ID_UINT);
	if (!uint || !uint->irq_count) {
		uf->info.irq = UIO_IRQ_NONE;
		return;
	}
	uf->info.irq = uint->irqs[0];
	uf->info.irq_flags = 0;
	uf->info.handler = uio_fpga_irq_handler;
	uf->info.irqcontrol = uio_fpga_irqcontrol;
}
