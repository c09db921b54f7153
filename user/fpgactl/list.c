// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl list: every FME and port, from one netlink dump of the family
 * "fpga" when it is there, else from sysfs alone; both work before (or
 * without) a port driver and print the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fpgactl.h"

static void fc_list_one(const struct fpga_dev_info *d)
{
	struct fpga_fme_ref ref;

	fc_obj_open(NULL);
	fc_str("name", "%s:", d->name);
	fc_str("type", NULL, d->type == FPGA_DEV_PORT ? "port" : "fme");
	fc_int("id", NULL, d->id);
	if (d->card_id >= 0)
		fc_int("card_id", " card %" PRId64, d->card_id);
	if (d->card[0])
		fc_str("card", " (%s)", d->card);
	if (d->driver[0])
		fc_str("driver", " driver %s", d->driver);
	else
		fc_str("driver", " (no driver)", NULL);
	if (d->devnode[0])
		fc_str("dev", " dev %s", d->devnode);
	if (d->type == FPGA_DEV_PORT && d->afu_id[0])
		fc_afu_id(d->afu_id);
	if (d->type == FPGA_DEV_FME) {
		fc_u64("ports_num", " ports %" PRIu64, d->ports_num);
		if (d->bitstream_id[0])
			fc_str("bitstream_id", " bitstream_id %s",
			       d->bitstream_id);
		/* A released port is in no dump: its FME says so */
		snprintf(ref.sysfs, sizeof(ref.sysfs), "%s" FPGA_SYSFS_BUS "/%s",
			 fpga_sysfs_root(), d->name);
		fc_released_ports(&ref);
	}
	fc_text("\n");
	fc_obj_close();
}

int fc_cmd_list(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fpga_dev_info *devs;
	struct fc_args a;
	size_t n;
	bool bus;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, NULL, 0, 0, &a);
	if (ret)
		return ret;
	ret = fpga_nl_dev_list(&devs, &n);
	bus = true;	/* the family lives in fpga_dfl, with the bus */
	if (ret == -ENOENT)
		ret = fpga_dev_list(&devs, &n, &bus);
	if (ret)
		return fc_lib_err();
	if (!bus)
		fc_err("no fpga_dfl bus in sysfs (load a card driver, e.g. 'modprobe fpga_sim')");
	fc_arr_open(NULL);
	for (size_t i = 0; i < n; i++)
		fc_list_one(&devs[i]);
	fc_arr_close();
	free(devs);
	return FC_OK;
}
