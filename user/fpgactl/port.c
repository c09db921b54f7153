// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl info and reset: one port.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

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

void fc_afu_id(const char *afu_id)
{
	const char *name = fpga_afu_name_str(afu_id);

	fc_str("afu_id", " afu_id %s", afu_id);
	if (name)
		fc_str("afu", " (%s)", name);
}

/* Ports the FME released from the host, by their numbers on the card */
void fc_released_ports(const struct fpga_fme_ref *ref)
{
	char path[sizeof(ref->sysfs) + 32], rel[128];

	snprintf(path, sizeof(path), "%s/released_ports", ref->sysfs);
	if (!fpga_sysfs_read(path, rel, sizeof(rel)) && rel[0])
		fc_str("released_ports", " released ports %s", rel);
}

/* An FME: its card, ports and the PR interface id its bitstream offers */
static int fc_info_fme(const struct fpga_fme_ref *ref)
{
	uint8_t ifid[FPGA_UUID_SIZE];
	char s[FPGA_UUID_STR];
	struct fpga_dev_info d;

	if (fpga_dev_get(FPGA_DEV_FME, ref->id, &d))
		return fc_lib_err();
	fc_obj_open(NULL);
	fc_str("name", "%s:", d.name);
	fc_str("type", NULL, "fme");
	fc_int("id", NULL, d.id);
	if (d.devnode[0])
		fc_str("dev", " dev %s", d.devnode);
	if (d.card_id >= 0)
		fc_int("card_id", " card %" PRId64, d.card_id);
	if (d.card[0])
		fc_str("card", " (%s)", d.card);
	if (d.driver[0])
		fc_str("driver", " driver %s", d.driver);
	else
		fc_str("driver", " (no driver)", NULL);
	fc_text("\n   ");
	fc_u64("ports_num", " ports %" PRIu64, d.ports_num);
	if (d.bitstream_id[0])
		fc_str("bitstream_id", " bitstream_id %s", d.bitstream_id);
	/* compat_id, 8-4-4-4-12 as OPAE's fpgainfo and GBS metadata show it */
	if (!fpga_fme_interface_id(ref, ifid)) {
		fpga_uuid_str(ifid, s);
		fc_str("interface_id", " interface_id %s", s);
	}
	fc_released_ports(ref);
	fc_text("\n");
	fc_obj_close();
	return FC_OK;
}

/*
 * PORT, or else FME: 0 and *is_fme, or FC_USAGE/FC_FAIL (told the user).
 * N is a port, as it always was.
 */
static int fc_info_lookup(const struct fc_cmd *cmd, const char *spec,
			  struct fpga_fme_ref *fme, bool *is_fme)
{
	struct fpga_port_ref ref;
	int pret, fret;

	*is_fme = false;
	pret = fpga_port_lookup(spec, &ref);
	if (!pret)
		return FC_OK;
	/* keep the port's message if the FME's lookup fails too */
	fret = fpga_fme_lookup(spec, fme);
	if (!fret) {
		*is_fme = true;
		return FC_OK;
	}
	/* A number is a port's: that message */
	if (pret == -EINVAL && fret == -EINVAL &&
	    strspn(spec, "0123456789") != strlen(spec))
		return fc_usage_err(cmd, "'%s' is neither a port nor an FME",
				    spec);
	if (pret == -EINVAL && fret != -EINVAL)	/* an FME's name */
		return fc_lib_err();
	return fc_port_lookup(cmd, spec, &ref);
}

int fc_cmd_info(const struct fc_cmd *cmd, int argc, char **argv)
{
	const struct fpga_port_ref *ref;
	struct dfl_fpga_port_info pi;
	struct fpga_port_errors e;
	struct fpga_fme_ref fme;
	struct fpga_dev_info d;
	struct fpga_port *port;
	struct fc_args a;
	char name[32];
	int ret, api;
	bool is_fme;

	ret = fc_parse_args(cmd, argc, argv, NULL, 1, 1, &a);
	if (!ret)
		ret = fc_info_lookup(cmd, a.pos[0], &fme, &is_fme);
	if (ret)
		return ret;
	if (is_fme)
		return fc_info_fme(&fme);
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
	if (d.afu_id[0])
		fc_afu_id(d.afu_id);
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
