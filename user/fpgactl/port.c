// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl info and reset: one port.
 */
#include <inttypes.h>
#include <string.h>

#include <fpga/nlb0.h>

#include "fpgactl.h"

static void fc_region_flags(uint32_t flags)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ DFL_PORT_REGION_READ, "read" },
		{ DFL_PORT_REGION_WRITE, "write" },
		{ DFL_PORT_REGION_MMAP, "mmap" },
	};
	const char *sep = " flags ";

	fc_arr_open("flags");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].bit))
			continue;
		fc_text("%s", sep);
		fc_str(NULL, "%s", names[i].name);
		sep = ",";
	}
	fc_arr_close();
}

static void fc_info_regions(struct fpga_port *port, unsigned int num)
{
	struct dfl_fpga_port_region_info ri;

	fc_arr_open("regions");
	for (unsigned int i = 0; i < num; i++) {
		if (fpga_port_region_info(port, i, &ri)) {
			fc_err("%s", fpga_errmsg());
			continue;
		}
		fc_obj_open(NULL);
		fc_u64("index", "    region %" PRIu64, i);
		fc_str("name", " (%s):", i == DFL_PORT_REGION_INDEX_AFU ? "afu" :
			i == DFL_PORT_REGION_INDEX_STP ? "stp" : "other");
		fc_hex("size", " size 0x%" PRIx64, ri.size);
		fc_hex("offset", " offset 0x%" PRIx64, ri.offset);
		fc_region_flags(ri.flags);
		fc_text("\n");
		fc_obj_close();
	}
	fc_arr_close();
}

/* Sysfs attribute @attr of the port, printed when it can be read */
static void fc_info_attr(const struct fpga_port_ref *ref, const char *attr,
			 const char *key, const char *fmt)
{
	char path[sizeof(ref->sysfs) + 32], buf[128];

	snprintf(path, sizeof(path), "%s/%s", ref->sysfs, attr);
	if (!fpga_sysfs_read(path, buf, sizeof(buf)))
		fc_str(key, fmt, buf);
}

static void fc_info_irqs(struct fpga_port *port, enum fpga_irq_kind kind,
			 const char *key, const char *fmt)
{
	int n = fpga_irq_count(port, kind);

	if (n >= 0)
		fc_int(key, fmt, n);
}

int fc_cmd_info(const struct fc_cmd *cmd, int argc, char **argv)
{
	const struct fpga_port_ref *ref;
	struct dfl_fpga_port_info pi;
	struct fpga_port_errors e;
	struct fpga_dev_info d;
	struct fpga_port *port;
	struct fc_args a;
	char name[32];
	int ret, api;

	ret = fc_parse_args(cmd, argc, argv, NULL, 1, 1, &a);
	if (ret)
		return ret;
	ret = fc_port_open(cmd, a.pos[0], 0, &port);
	if (ret)
		return ret;
	ref = fpga_port_ref(port);
	api = fpga_port_api_version(port);
	if (api < 0 || fpga_port_info(port, &pi)) {
		fpga_port_close(port);
		return fc_lib_err();
	}
	if (fpga_dev_get(FPGA_DEV_PORT, ref->id, &d)) {
		memset(&d, 0, sizeof(d));
		d.card_id = -1;
	}

	snprintf(name, sizeof(name), FPGA_PORT_PREFIX "%d", ref->id);
	fc_obj_open(NULL);
	fc_str("name", "%s:", name);
	fc_int("id", NULL, ref->id);
	fc_str("dev", " dev %s", ref->devnode);
	if (d.card_id >= 0)
		fc_int("card_id", " card %" PRId64, d.card_id);
	if (d.card[0])
		fc_str("card", " (%s)", d.card);
	fc_info_attr(ref, "id", "port", " port %s on it");
	if (d.driver[0])
		fc_str("driver", " driver %s", d.driver);
	fc_text("\n   ");
	if (d.afu_id[0]) {
		fc_str("afu_id", " afu_id %s", d.afu_id);
		if (!strcmp(d.afu_id, NLB0_AFU_ID))
			fc_str("afu", " (%s)", "nlb0");
	}
	fc_info_attr(ref, "power_state", "power_state", " power_state %s");
	/* none: no IOMMU, DMA and the AFU's registers need CAP_SYS_RAWIO */
	fc_info_attr(ref, "dma_isolation", "dma_isolation",
		     " dma_isolation %s");
	/* Security.md: one DMA domain, so one trust domain, per port */
	fc_str("dma_shared_by", ", shared by %s (O_EXCL: one user)",
	       "all openers");
	fc_text("\n   ");
	fc_int("api_version", " api_version %" PRId64, api);
	fc_hex("flags", " flags 0x%" PRIx64, pi.flags);
	fc_u64("num_regions", " regions %" PRIu64, pi.num_regions);
	fc_u64("num_umsgs", " umsgs %" PRIu64, pi.num_umsgs);
	fc_info_irqs(port, FPGA_IRQ_UINT, "user_irqs", " user_irqs %" PRId64);
	fc_info_irqs(port, FPGA_IRQ_ERR, "error_irqs", " error_irqs %" PRId64);
	if (!fpga_port_errors_read(ref->id, &e))
		fc_hex("errors", " errors 0x%" PRIx64, e.errors);
	fc_text("\n");
	fc_info_regions(port, pi.num_regions);
	fc_obj_close();
	fpga_port_close(port);
	return FC_OK;
}

int fc_cmd_reset(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fpga_port *port;
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, NULL, 1, 1, &a);
	if (ret)
		return ret;
	ret = fc_port_open(cmd, a.pos[0], 0, &port);
	if (ret)
		return ret;
	ret = fpga_port_reset(port) ? fc_lib_err() : FC_OK;
	fpga_port_close(port);
	return ret;
}
