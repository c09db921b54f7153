// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port soft reset: the handshake, its timeout and its announcement are
 * fpga_dfl's (dfl-reset.c), shared with uio_fpga; here it is serialised by
 * port->lock, and a stopped AFU lets closed files' mappings go.
 */
#include <linux/module.h>

#include "port.h"

/* An alias of fpga_dfl.reset_timeout_us, the name this module shipped */
module_param_cb(reset_timeout_us, &fpga_dfl_reset_timeout_ops,
		&fpga_dfl_reset_timeout_us, 0644);
__MODULE_PARM_TYPE(reset_timeout_us, "uint");
MODULE_PARM_DESC(reset_timeout_us,
		 "fpga_dfl.reset_timeout_us under this module's name: the wait for each edge of the soft-reset ACK, 1 us to 10 s");

/* Put the port in reset and wait for the ACK; caller holds port->lock */
int __fpga_port_disable(struct fpga_port *port)
{
	lockdep_assert_held(&port->lock);
	return fpga_dfl_port_disable(port->fdev);
}

/* Take the port out of reset; caller holds port->lock */
int __fpga_port_enable(struct fpga_port *port)
{
	lockdep_assert_held(&port->lock);
	return fpga_dfl_port_enable(port->fdev);
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
 * __fpga_port_reset() - soft-reset the port and its AFU
 * @port: the port (not gone); caller holds port->lock
 *
 * Announced by fpga_dfl_port_reset(), whoever asked: ioctl, sysfs,
 * netlink or the last close.  Once the AFU is stopped, the mappings of
 * closed files are released.
 *
 * Return: 0, or -ETIMEDOUT if the card did not acknowledge (the port is
 * still released from reset, the closed files' mappings stay).
 */
int __fpga_port_reset(struct fpga_port *port)
{
	int ret;

	lockdep_assert_held(&port->lock);
	ret = fpga_dfl_port_reset(port->fdev);
	if (!ret)
		__fpga_port_dma_release_quarantine(port);
	return ret;
}

int fpga_port_reset(struct fpga_port *port)
{
	int ret;

	mutex_lock(&port->lock);
	ret = __fpga_port_reset(port);
	mutex_unlock(&port->lock);
	return ret;
}
