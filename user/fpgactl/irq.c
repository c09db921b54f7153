// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl irq wait: bind an eventfd to a user interrupt (UINT) vector and
 * wait for it.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <unistd.h>

#include "fpgactl.h"

static int fc_irq_wait(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *vector_s = NULL, *timeout_s = NULL;
	bool vector_set = false, timeout_set = false;
	const struct fc_opt opts[] = {
		{ "vector", 'v', &vector_s, &vector_set },
		{ "timeout", 't', &timeout_s, &timeout_set },
		{ 0 }
	};
	uint64_t vector = 0, timeout = 0, count = 0;
	struct fpga_port *port;
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 1, 1, &a);
	if (!ret && vector_set)
		ret = fc_parse_u64(cmd, "--vector", vector_s, 4095, &vector);
	if (!ret && timeout_set)
		ret = fc_parse_u64(cmd, "--timeout", timeout_s, INT_MAX, &timeout);
	if (!ret)
		ret = fc_port_open(cmd, a.pos[0], 0, &port);
	if (ret)
		return ret;
	/* An eventfd on fpga_port, the UIO device on uio_fpga */
	ret = fpga_irq_wait(port, (unsigned int)vector,
			    timeout_set ? (int)timeout : -1, &count);
	if (ret == -ETIMEDOUT)
		fc_err("no interrupt on vector %" PRIu64 " of %s within %" PRIu64 " ms",
		       vector, fpga_port_ref(port)->devnode, timeout);
	else if (ret)
		fc_lib_err();
	fpga_port_close(port);
	if (ret)
		return FC_FAIL;
	fc_obj_open(NULL);
	fc_u64("vector", "vector %" PRIu64 ":", vector);
	fc_u64("count", " %" PRIu64 " interrupt(s)\n", count);
	fc_obj_close();
	return FC_OK;
}

const struct fc_cmd fc_irq_cmds[] = {
	{ .name = "wait", .path = "irq wait",
	  .args = "PORT [--vector N] [--timeout MS]", .run = fc_irq_wait,
	  .help = "Wait for a user interrupt (UINT) of the port: binds an eventfd to\n"
		  "vector N (DFL_FPGA_PORT_UINT_SET_IRQ), polls it, prints how many\n"
		  "interrupts arrived, and unbinds.  On a port bound to uio_fpga:\n"
		  "enables the UIO interrupt (vector 0 only) and waits on it.\n"
		  "Exits 1 on timeout.\n\n"
		  "Options:\n"
		  "  -v, --vector N    the user interrupt vector (default 0)\n"
		  "  -t, --timeout MS  give up after MS milliseconds (default: never)" },
	{ 0 }
};
