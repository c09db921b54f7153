// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl dma loopback: the NLB0 hello_fpga flow, verified byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>

#include <drm/vgem_ext_drm.h>

#include "fpgactl.h"
#include "fpga_vgem.h"

#define FC_LOOPBACK_TIMEOUT_MS	30000

static int fc_dma_loopback(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *size_s = NULL, *timeout_s = NULL, *alloc_s = NULL;
	bool size_set = false, timeout_set = false, alloc_set = false;
	bool wc = false;
	const struct fc_opt opts[] = {
		{ "size", 's', &size_s, &size_set },
		{ "timeout", 't', &timeout_s, &timeout_set },
		{ "alloc", 'a', &alloc_s, &alloc_set },
		{ "wc", 'w', NULL, &wc },
		{ 0 }
	};
	bool vgem;
	uint64_t size, timeout = FC_LOOPBACK_TIMEOUT_MS;
	struct fpga_nlb_result res;
	struct fpga_port *port;
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 1, 1, &a);
	if (ret)
		return ret;
	if (!size_set)
		return fc_usage_err(cmd, "--size is required");
	ret = fc_parse_size(cmd, "--size", size_s, &size);
	if (!ret && timeout_set)
		ret = fc_parse_u64(cmd, "--timeout", timeout_s, INT_MAX, &timeout);
	if (ret)
		return ret;
	if (!size || size % 64)
		return fc_usage_err(cmd, "--size %s: must be a positive multiple of 64 bytes (one cache line)",
				    size_s);
	if (size > FPGA_NLB_MAX_SIZE)
		return fc_usage_err(cmd, "--size %s: at most 4G", size_s);
	if (alloc_set && strcmp(alloc_s, "anon") && strcmp(alloc_s, "vgem"))
		return fc_usage_err(cmd, "--alloc %s: anon or vgem", alloc_s);
	vgem = alloc_set && !strcmp(alloc_s, "vgem");
	if (wc && !vgem)
		return fc_usage_err(cmd, "--wc needs --alloc vgem");

	/* Exclusive: nobody else may reset the AFU under us */
	ret = fc_port_open(cmd, a.pos[0], FPGA_OPEN_EXCL, &port);
	if (ret)
		return ret;
	if (vgem)
		ret = fpga_nlb_loopback_vgem(port, size, (unsigned int)timeout,
					     wc ? VGEM_EXT_BO_WC : 0, &res);
	else
		ret = fpga_nlb_loopback(port, size, (unsigned int)timeout, &res);
	if (ret && !(ret == -EIO && res.bytes)) {
		fpga_port_close(port);
		return fc_lib_err();
	}
	fc_obj_open(NULL);
	fc_u64("bytes", "loopback %" PRIu64 " bytes:", res.bytes);
	fc_bool("verified", NULL, res.verified);
	fc_text(" %s,", res.verified ? "verified" : "MISMATCH");
	if (!res.verified)
		fc_hex("mismatch", " first at 0x%" PRIx64 ",", res.mismatch);
	fc_double("seconds", " %.6f s,", res.seconds);
	fc_double("gbps", " %.3f GB/s", res.gbps);
	fc_u64("clocks", " (%" PRIu64 " AFU clocks)\n", res.clocks);
	fc_obj_close();
	if (ret)
		ret = fc_lib_err();
	fpga_port_close(port);
	return ret;
}

const struct fc_cmd fc_dma_cmds[] = {
	{ .name = "loopback", .path = "dma loopback",
	  .args = "PORT --size N[K|M|G] [--timeout MS] [--alloc anon|vgem [--wc]]",
	  .run = fc_dma_loopback,
	  .help = "Run the NLB0 loopback AFU (the hello_fpga flow): map a source, a\n"
		  "destination and a status buffer for DMA, reset the port, have the\n"
		  "AFU copy N bytes, and compare the buffers byte for byte.  Reports\n"
		  "the time and throughput.  Opens the port exclusively.\n\n"
		  "Options:\n"
		  "  -s, --size N[K|M|G]  bytes to copy, a multiple of 64 (up to 4G)\n"
		  "  -t, --timeout MS     wait at most MS for completion (default 30000)\n"
		  "  -a, --alloc anon|vgem  buffers of anonymous memory (default), or\n"
		  "                       vgem_ext buffers mapped as dma-bufs, whose\n"
		  "                       completion fence is polled (no DSM spin)\n"
		  "  -w, --wc             with vgem: write-combined buffers" },
	{ 0 }
};
