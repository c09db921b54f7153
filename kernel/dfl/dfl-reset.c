// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port soft-reset handshake, shared by every driver that can own a
 * port (fpga_port, uio_fpga): set PORT_HDR_CTRL.SFTRST and wait for the
 * ACK to rise, clear it and wait for the ACK to fall.  Both waits are
 * bounded; a card that never answers gives -ETIMEDOUT and the register
 * value in the log, never a hang.  Callers serialise resets of a port.
 */
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

#include <fpga-suite/dfl-core.h>
#include "dfl_trace.h"

#define FPGA_DFL_RESET_POLL_US	10
/* The wait holds the port's lock: bounded, and 0 would mean forever */
#define FPGA_DFL_RESET_TIMEOUT_MAX_US	10000000U

static int fpga_dfl_reset_timeout_set(const char *val,
				      const struct kernel_param *kp)
{
	unsigned int us;
	int ret;

	ret = kstrtouint(val, 0, &us);
	if (ret)
		return ret;
	if (!us || us > FPGA_DFL_RESET_TIMEOUT_MAX_US) {
		pr_err("%s.%s: %u: the soft-reset timeout is 1 to %u us\n",
		       kp->mod ? kp->mod->name : "fpga_dfl", kp->name, us,
		       FPGA_DFL_RESET_TIMEOUT_MAX_US);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, us);
	return 0;
}

/*
 * The reset_timeout_us parameter of the drivers that reset ports
 * (fpga_port, uio_fpga): microseconds per edge of the ACK, 1 us to 10 s
 */
const struct kernel_param_ops fpga_dfl_reset_timeout_ops = {
	.set = fpga_dfl_reset_timeout_set,
	.get = param_get_uint,
};
EXPORT_SYMBOL_GPL(fpga_dfl_reset_timeout_ops);

static int fpga_dfl_port_wait_ack(struct fpga_dfl_device *fdev, bool want,
				  unsigned int timeout_us, const char *what)
{
	u64 v;
	int ret;

	ret = readq_poll_timeout(fdev->hdr.ioaddr + PORT_HDR_CTRL, v,
				 !!(v & PORT_CTRL_SFTRST_ACK) == want,
				 FPGA_DFL_RESET_POLL_US, timeout_us);
	if (ret)
		dev_err(&fdev->dev,
			"%s: soft-reset ACK did not %s within %u us (PORT_HDR_CTRL %#llx)\n",
			what, want ? "rise" : "fall", timeout_us, v);
	return ret;
}

/**
 * fpga_dfl_port_disable() - put a port in soft reset and wait for the ACK
 * @fdev: the port
 * @timeout_us: how long to wait for the ACK
 *
 * CTRL is read fresh: the ACK bit is the card's, never a stale copy.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_disable(struct fpga_dfl_device *fdev, unsigned int timeout_us)
{
	u64 v = readq(fdev->hdr.ioaddr + PORT_HDR_CTRL);

	writeq(v | PORT_CTRL_SFTRST, fdev->hdr.ioaddr + PORT_HDR_CTRL);
	return fpga_dfl_port_wait_ack(fdev, true, timeout_us, "reset");
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_disable);

/**
 * fpga_dfl_port_enable() - take a port out of soft reset, wait for the ACK
 * @fdev: the port
 * @timeout_us: how long to wait for the ACK to fall
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_enable(struct fpga_dfl_device *fdev, unsigned int timeout_us)
{
	u64 v = readq(fdev->hdr.ioaddr + PORT_HDR_CTRL);

	writeq(v & ~PORT_CTRL_SFTRST, fdev->hdr.ioaddr + PORT_HDR_CTRL);
	return fpga_dfl_port_wait_ack(fdev, false, timeout_us, "enable");
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_enable);

/**
 * fpga_dfl_port_reset() - soft-reset a port and its AFU
 * @fdev: the port
 * @timeout_us: how long to wait for each edge of the ACK
 *
 * The port leaves reset even when the first ACK never came, so that a
 * failed reset does not wedge it.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_reset(struct fpga_dfl_device *fdev, unsigned int timeout_us)
{
	u64 start = ktime_get_ns();
	int ret, ret2;

	trace_port_reset_begin(fdev);
	ret = fpga_dfl_port_disable(fdev, timeout_us);
	ret2 = fpga_dfl_port_enable(fdev, timeout_us);
	trace_port_reset_end(fdev, ret ?: ret2, start);
	return ret ?: ret2;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_reset);
