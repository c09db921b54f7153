// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl mmio: 32/64-bit reads and writes of the AFU's MMIO region
 * (region 0), and dumps of a range of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fpgactl.h"

#define FC_DUMP_DEFAULT_LEN	0x100

static int fc_mmio_width(const struct fc_cmd *cmd, bool set, const char *s,
			 unsigned int *width)
{
	*width = 8;
	if (!set)
		return FC_OK;
	if (!strcmp(s, "64"))
		*width = 8;
	else if (!strcmp(s, "32"))
		*width = 4;
	else
		return fc_usage_err(cmd, "--width is 32 or 64, not '%s'", s);
	return FC_OK;
}

/* Alignment is a usage error, checked before touching the device */
static int fc_mmio_aligned(const struct fc_cmd *cmd, uint64_t off,
			   unsigned int width)
{
	if (off % width)
		return fc_usage_err(cmd, "offset 0x%" PRIx64 " is not %u-byte aligned (--width %u)",
				    off, width, width * 8);
	return FC_OK;
}

static int fc_mmio_read1(struct fpga_port *port, uint64_t off,
			 unsigned int width, uint64_t *val)
{
	uint32_t v32 = 0;
	int ret;

	if (width == 8)
		return fpga_mmio_read64(port, off, val);
	ret = fpga_mmio_read32(port, off, &v32);
	*val = v32;
	return ret;
}

/* "PORT OFFSET [VALUE] [--width 32|64]": @npos positionals, OFFSET parsed */
static int fc_mmio_args(const struct fc_cmd *cmd, int argc, char **argv,
			int npos, struct fc_args *a, unsigned int *width,
			uint64_t *off)
{
	const char *width_s = NULL;
	bool width_set = false;
	const struct fc_opt opts[] = {
		{ "width", 'w', &width_s, &width_set },
		{ 0 }
	};
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, npos, npos, a);
	if (!ret)
		ret = fc_mmio_width(cmd, width_set, width_s, width);
	if (!ret)
		ret = fc_parse_u64(cmd, "OFFSET", a->pos[1], UINT64_MAX, off);
	return ret;
}

static int fc_mmio_read(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fpga_port *port;
	unsigned int width;
	struct fc_args a;
	uint64_t off, val;
	int ret;

	ret = fc_mmio_args(cmd, argc, argv, 2, &a, &width, &off);
	if (!ret)
		ret = fc_mmio_aligned(cmd, off, width);
	if (!ret)
		ret = fc_port_open(cmd, a.pos[0], 0, &port);
	if (ret)
		return ret;
	if (fc_mmio_read1(port, off, width, &val)) {
		ret = fc_lib_err();
	} else {
		fc_obj_open(NULL);
		fc_hex("offset", NULL, off);
		fc_u64("width", NULL, width * 8);
		fc_hex("value", width == 8 ? "0x%016" PRIx64 "\n" :
			"0x%08" PRIx64 "\n", val);
		fc_obj_close();
	}
	fpga_port_close(port);
	return ret;
}

static int fc_mmio_write(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fpga_port *port;
	unsigned int width;
	struct fc_args a;
	uint64_t off, val;
	int ret;

	ret = fc_mmio_args(cmd, argc, argv, 3, &a, &width, &off);
	if (!ret)
		ret = fc_parse_u64(cmd, "VALUE", a.pos[2],
				   width == 8 ? UINT64_MAX : UINT32_MAX, &val);
	if (!ret)
		ret = fc_mmio_aligned(cmd, off, width);
	if (!ret)
		ret = fc_port_open(cmd, a.pos[0], 0, &port);
	if (ret)
		return ret;
	if (width == 8)
		ret = fpga_mmio_write64(port, off, val);
	else
		ret = fpga_mmio_write32(port, off, (uint32_t)val);
	ret = ret ? fc_lib_err() : FC_OK;
	fpga_port_close(port);
	return ret;
}

static int fc_mmio_dump(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *width_s = NULL;
	bool width_set = false, has_len = false;
	const struct fc_opt opts[] = {
		{ "width", 'w', &width_s, &width_set },
		{ 0 }
	};
	uint64_t off = 0, len = FC_DUMP_DEFAULT_LEN, size, val;
	struct fpga_port *port;
	unsigned int width;
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 1, 2, &a);
	if (!ret)
		ret = fc_mmio_width(cmd, width_set, width_s, &width);
	if (ret)
		return ret;
	if (a.n == 2 && fpga_parse_range(a.pos[1], &off, &len, &has_len))
		return fc_usage_err(cmd, "OFFSET[+LEN]: %s", fpga_errmsg());
	if (!has_len)
		len = FC_DUMP_DEFAULT_LEN;
	ret = fc_mmio_aligned(cmd, off, width);
	if (ret)
		return ret;
	if (!len || len % width)
		return fc_usage_err(cmd, "length 0x%" PRIx64 " is not a positive multiple of %u bytes",
				    len, width);
	ret = fc_port_open(cmd, a.pos[0], 0, &port);
	if (ret)
		return ret;
	if (fpga_mmio_map(port)) {
		ret = fc_lib_err();
		goto out;
	}
	size = fpga_mmio_size(port);
	if (off >= size) {
		fc_err("offset 0x%" PRIx64 " is outside region 0 (size 0x%" PRIx64 ")",
		       off, size);
		ret = FC_FAIL;
		goto out;
	}
	if (len > size - off) {
		/* an explicit length past the end is an error; the default is cut */
		if (has_len) {
			fc_err("range 0x%" PRIx64 "+0x%" PRIx64 " is outside region 0 (size 0x%" PRIx64 ")",
			       off, len, size);
			ret = FC_FAIL;
			goto out;
		}
		len = size - off;
	}

	fc_arr_open(NULL);
	for (uint64_t o = off; o < off + len; o += width) {
		if (fc_mmio_read1(port, o, width, &val)) {
			fc_arr_close();
			ret = fc_lib_err();
			goto out;
		}
		if ((o - off) % 32 == 0)
			fc_text("%s0x%08" PRIx64 ":", o == off ? "" : "\n", o);
		fc_obj_open(NULL);
		fc_hex("offset", NULL, o);
		fc_hex("value", width == 8 ? " %016" PRIx64 : " %08" PRIx64, val);
		fc_obj_close();
	}
	fc_text("\n");
	fc_arr_close();
out:
	fpga_port_close(port);
	return ret;
}

const struct fc_cmd fc_mmio_cmds[] = {
	{ .name = "read", .path = "mmio read",
	  .args = "PORT OFFSET [--width 32|64]", .run = fc_mmio_read,
	  .help = "Read one register of the AFU's MMIO region (region 0) and print it.\n\n"
		  "Options:\n"
		  "  -w, --width 32|64   access width (default 64); OFFSET must be\n"
		  "                      aligned to it" },
	{ .name = "write", .path = "mmio write",
	  .args = "PORT OFFSET VALUE [--width 32|64]", .run = fc_mmio_write,
	  .help = "Write VALUE to one register of the AFU's MMIO region.\n\n"
		  "Options:\n"
		  "  -w, --width 32|64   access width (default 64); VALUE must fit" },
	{ .name = "dump", .path = "mmio dump",
	  .args = "PORT [OFFSET[+LEN]] [--width 32|64]", .run = fc_mmio_dump,
	  .help = "Print LEN bytes (default 0x100, cut at the end of the region) of\n"
		  "the AFU's MMIO region from OFFSET (default 0), 32 bytes a line.\n\n"
		  "Options:\n"
		  "  -w, --width 32|64   access width (default 64)" },
	{ 0 }
};
