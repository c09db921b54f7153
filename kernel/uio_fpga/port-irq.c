// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port interrupts (error and user interrupts) delivered to eventfds, with
 * the semantics of upstream's DFL_FPGA_PORT_{ERR,UINT}_SET_IRQ: bind a
 * range of vectors to eventfds, an fd < 0 unbinds.  Bindings belong to the
 * port; they are dropped when the last file is closed.
 */
#include <linux/eventfd.h>
#include <linux/fpga-dfl.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "port.h"

static irqreturn_t fpga_port_irq_handler(int irq, void *data)
{
	struct fpga_port_irq *pirq = data;

	eventfd_signal(pirq->trigger, 1);
	return IRQ_HANDLED;
}

static int fpga_port_irqs_setup(struct fpga_port *port,
				struct fpga_port_irqs *irqs, u16 feature_id,
				const char *what)
{
	struct fpga_dfl_feature *feat;
	unsigned int i;

	feat = fpga_dfl_find_feature(port->fdev, feature_id);
	if (!feat)
		return 0;
	irqs->present = true;
	if (!feat->irq_count)
		return 0;
	irqs->irqs = kcalloc(feat->irq_count, sizeof(*irqs->irqs), GFP_KERNEL);
	if (!irqs->irqs)
		return -ENOMEM;
	irqs->count = feat->irq_count;
	for (i = 0; i < irqs->count; i++) {
		irqs->irqs[i].irq = feat->irqs[i];
		snprintf(irqs->irqs[i].name, sizeof(irqs->irqs[i].name),
			 "%s-%s%u", dev_name(&port->fdev->dev), what, i);
	}
	return 0;
}

int fpga_port_irqs_init(struct fpga_port *port)
{
	int ret;

	ret = fpga_port_irqs_setup(port, &port->err_irqs, PORT_FEATURE_ID_ERROR,
				   "err");
	if (ret)
		return ret;
	ret = fpga_port_irqs_setup(port, &port->uint_irqs, PORT_FEATURE_ID_UINT,
				   "uint");
	if (ret) {
		kfree(port->err_irqs.irqs);
		port->err_irqs.irqs = NULL;
		port->err_irqs.count = 0;
	}
	return ret;
}

static void fpga_port_irq_unbind(struct fpga_port_irq *pirq)
{
	if (!pirq->trigger)
		return;
	free_irq(pirq->irq, pirq);
	eventfd_ctx_put(pirq->trigger);
	pirq->trigger = NULL;
}

static int fpga_port_irq_bind(struct fpga_port_irq *pirq, int fd)
{
	struct eventfd_ctx *trigger;
	int ret;

	fpga_port_irq_unbind(pirq);
	if (fd < 0)
		return 0;

	trigger = eventfd_ctx_fdget(fd);
	if (IS_ERR(trigger))
		return PTR_ERR(trigger);
	pirq->trigger = trigger;
	ret = request_irq(pirq->irq, fpga_port_irq_handler, 0, pirq->name, pirq);
	if (ret) {
		eventfd_ctx_put(trigger);
		pirq->trigger = NULL;
	}
	return ret;
}

long fpga_port_ioctl_irq_num(struct fpga_port_irqs *irqs, void __user *arg)
{
	if (!irqs->present)
		return -EINVAL;
	return put_user(irqs->count, (__u32 __user *)arg);
}

long fpga_port_ioctl_set_irq(struct fpga_port *port,
			     struct fpga_port_irqs *irqs, void __user *arg)
{
	struct dfl_fpga_irq_set hdr;
	unsigned int i, end;
	s32 *fds;
	int ret = 0;

	if (!irqs->present)
		return -EINVAL;
	if (!irqs->count)
		return -ENOENT;
	if (copy_from_user(&hdr, arg, sizeof(hdr)))
		return -EFAULT;
	if (!hdr.count || check_add_overflow(hdr.start, hdr.count, &end) ||
	    end > irqs->count)
		return -EINVAL;

	fds = memdup_user(arg + sizeof(hdr), array_size(hdr.count, sizeof(*fds)));
	if (IS_ERR(fds))
		return PTR_ERR(fds);

	mutex_lock(&port->lock);
	for (i = 0; i < hdr.count; i++) {
		ret = fpga_port_irq_bind(&irqs->irqs[hdr.start + i], fds[i]);
		if (ret)
			break;
	}
	/* On failure, unbind what this call bound (as upstream does) */
	if (ret)
		while (i--)
			fpga_port_irq_unbind(&irqs->irqs[hdr.start + i]);
	mutex_unlock(&port->lock);

	kfree(fds);
	return ret;
}

/* Unbind every eventfd (last close) */
void fpga_port_irqs_release(struct fpga_port *port)
{
	unsigned int i;

	mutex_lock(&port->lock);
	for (i = 0; i < port->err_irqs.count; i++)
		fpga_port_irq_unbind(&port->err_irqs.irqs[i]);
	for (i = 0; i < port->uint_irqs.count; i++)
		fpga_port_irq_unbind(&port->uint_irqs.irqs[i]);
	mutex_unlock(&port->lock);
}

/* Unbind and free everything (remove) */
void fpga_port_irqs_free(struct fpga_port *port)
{
	fpga_port_irqs_release(port);
	kfree(port->err_irqs.irqs);
	kfree(port->uint_irqs.irqs);
	port->err_irqs.irqs = NULL;
	port->uint_irqs.irqs = NULL;
	port->err_irqs.count = 0;
	port->uint_irqs.count = 0;
}
