// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port soft reset: set PORT_HDR_CTRL.SFTRST and wait for the ACK to rise,
 * clear it and wait for the ACK to fall.  Both waits are bounded; a card
 * that never answers gives -ETIMEDOUT and the register value in the log,
 * never a hang.
 */
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/module.h>

#include "port.h"

#define FPGA_PORT_RESET_POLL_US	10

unsigned int fpga_port_reset_timeout_us = 100000;
module_param_named(reset_timeout_us, fpga_port_reset_timeout_us, uint, 0644);
MODULE_PARM_DESC(reset_timeout_us,
		 "How long to wait for each edge of the soft-reset ACK, in us (default 100000)");

static int fpga_port_wait_ack(struct fpga_port *port, bool want, const char *what)
{
	unsigned int timeout = READ_ONCE(fpga_port_reset_timeout_us);
	u64 v;
	int ret;

	ret = readq_poll_timeout(port->hdr + PORT_HDR_CTRL, v,
				 !!(v & PORT_CTRL_SFTRST_ACK) == want,
				 FPGA_PORT_RESET_POLL_US, timeout);
	if (ret)
		dev_err(&port->fdev->dev,
			"%s: soft-reset ACK did not %s within %u us (PORT_HDR_CTRL %#llx)\n",
			what, want ? "rise" : "fall", timeout, v);
	return ret;
}

/* Put the port in reset and wait for the ACK; caller holds port->lock */
int __fpga_port_disable(struct fpga_port *port)
{
	u64 v;

	lockdep_assert_held(&port->lock);
	v = readq(port->hdr + PORT_HDR_CTRL);
	writeq(v | PORT_CTRL_SFTRST, port->hdr + PORT_HDR_CTRL);
	return fpga_port_wait_ack(port, true, "reset");
}

/* Take the port out of reset; caller holds port->lock */
int __fpga_port_enable(struct fpga_port *port)
{
	u64 v;

	lockdep_assert_held(&port->lock);
	v = readq(port->hdr + PORT_HDR_CTRL);
	writeq(v & ~PORT_CTRL_SFTRST, port->hdr + PORT_HDR_CTRL);
	return fpga_port_wait_ack(port, false, "enable");
}

int fpga_port_enable(struct fpga_port *port)
{
	int ret;

	mutex_lock(&port->lock);
	ret = __fpga_port_enable(port);
	mutex_unlock(&port->lock);
	return ret;
}

/**
 * fpga_port_reset() - soft-reset the port and its AFU
 * @port: the port (not gone)
 *
 * Announced on the netlink group "events" (begin, end with the result),
 * whoever asked: ioctl, sysfs, netlink or the last close.
 *
 * Return: 0, or -ETIMEDOUT if the card did not acknowledge.
 */
int fpga_port_reset(struct fpga_port *port)
{
	int ret;

	fpga_dfl_nl_notify_reset(port->fdev, true, 0);
	mutex_lock(&port->lock);
	ret = __fpga_port_disable(port);
	/* Leave reset even when the ACK never came: do not wedge the port */
	if (ret)
		__fpga_port_enable(port);
	else
		ret = __fpga_port_enable(port);
	mutex_unlock(&port->lock);
	fpga_dfl_nl_notify_reset(port->fdev, false, ret);
	return ret;
}

/* fpga_dfl_driver.reset: the core holds the device lock, port is bound */
int fpga_port_dfl_reset(struct fpga_dfl_device *fdev)
{
	return fpga_port_reset(dev_get_drvdata(&fdev->dev));
}
