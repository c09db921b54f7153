// SPDX-License-Identifier: GPL-2.0-only
/*
 * MSI-X of a VF: its vectors are the port's user interrupts (the UINT
 * feature's, in vector order), each delivered to the eventfd the user
 * gives it, as vfio-pci delivers MSI-X.  The user (or QEMU, which emulates
 * the table itself) says which vectors it wants through
 * VFIO_DEVICE_SET_IRQS; nothing of the MSI-X table reaches the card.
 */
#include <linux/eventfd.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "fpga-compat.h"
#include "fpga-vfio.h"

static irqreturn_t fpga_vfio_msix_handler(int irq, void *arg)
{
	fpga_eventfd_signal(arg);
	return IRQ_HANDLED;
}

/* Vector @i to @ctx (NULL: none); under fv->lock */
static int fpga_vfio_msix_bind(struct fpga_vfio *fv, unsigned int i,
			       struct eventfd_ctx *ctx)
{
	int ret;

	if (fv->msix[i]) {
		free_irq(fv->irqs[i], fv->msix[i]);
		eventfd_ctx_put(fv->msix[i]);
		fv->msix[i] = NULL;
	}
	if (!ctx)
		return 0;
	ret = request_irq(fv->irqs[i], fpga_vfio_msix_handler, 0,
			  "fpga_vfio", ctx);
	if (ret) {
		eventfd_ctx_put(ctx);
		return ret;
	}
	fv->msix[i] = ctx;
	return 0;
}

/**
 * fpga_vfio_msix_off() - every vector unbound: a close, a removal
 * @fv: the VF
 */
void fpga_vfio_msix_off(struct fpga_vfio *fv)
{
	unsigned int i;

	mutex_lock(&fv->lock);
	for (i = 0; i < fv->num_irqs; i++)
		fpga_vfio_msix_bind(fv, i, NULL);
	mutex_unlock(&fv->lock);
}

/*
 * An eventfd per vector from @fds (-1: none).  A bad eventfd changes
 * nothing; a vector whose irq cannot be had stops there, the vectors
 * before it bound, the rest untouched (their eventfds put).
 */
static int fpga_vfio_msix_eventfds(struct fpga_vfio *fv, unsigned int start,
				   unsigned int count, const s32 *fds)
{
	struct eventfd_ctx *ctx[FPGA_VFIO_MAX_IRQS] = { };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < count && !ret; i++) {
		if (fds[i] == -1)
			continue;
		ctx[i] = fds[i] < 0 ? ERR_PTR(-EINVAL) : eventfd_ctx_fdget(fds[i]);
		if (IS_ERR(ctx[i])) {
			ret = PTR_ERR(ctx[i]);
			ctx[i] = NULL;
		}
	}
	mutex_lock(&fv->lock);
	for (i = 0; i < count; i++) {
		if (ret) {
			if (ctx[i])
				eventfd_ctx_put(ctx[i]);
			continue;
		}
		ret = fpga_vfio_msix_bind(fv, start + i, ctx[i]);
	}
	mutex_unlock(&fv->lock);
	return ret;
}

/**
 * fpga_vfio_set_msix() - VFIO_DEVICE_SET_IRQS on the MSI-X index
 * @fv: the VF
 * @hdr: the call, validated (vfio_set_irqs_validate_and_prepare())
 * @data: what follows it
 * @data_size: its length
 *
 * As vfio-pci: ACTION_TRIGGER with DATA_EVENTFD binds vectors start to
 * start + count - 1 (-1 unbinds one), DATA_NONE with count 0 unbinds
 * them all, and DATA_NONE or DATA_BOOL otherwise fire those vectors'
 * eventfds, as if the AFU had.  MASK and UNMASK: EINVAL.
 *
 * Return: 0 or -errno.
 */
int fpga_vfio_set_msix(struct fpga_vfio *fv, struct vfio_irq_set *hdr,
		       void __user *data, size_t data_size)
{
	u8 *buf = NULL;
	unsigned int i;
	int ret = 0;

	if ((hdr->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK) !=
	    VFIO_IRQ_SET_ACTION_TRIGGER)
		return -EINVAL;
	if (!hdr->count && (hdr->flags & VFIO_IRQ_SET_DATA_NONE)) {
		fpga_vfio_msix_off(fv);
		return 0;
	}
	if (data_size) {
		buf = memdup_user(data, data_size);
		if (IS_ERR(buf))
			return PTR_ERR(buf);
	}
	if (hdr->flags & VFIO_IRQ_SET_DATA_EVENTFD) {
		ret = fpga_vfio_msix_eventfds(fv, hdr->start, hdr->count,
					      (const s32 *)buf);
	} else {
		mutex_lock(&fv->lock);
		for (i = 0; i < hdr->count; i++)
			if (fv->msix[hdr->start + i] &&
			    (!buf || buf[i]))
				fpga_eventfd_signal(fv->msix[hdr->start + i]);
		mutex_unlock(&fv->lock);
	}
	kfree(buf);
	return ret;
}
