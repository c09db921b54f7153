// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl bind PORT uio|port: switch a port between fpga_port
 * (/dev/fpga-port.N) and uio_fpga (/dev/uioX).
 */
#include <string.h>

#include "fpgactl.h"

int fc_cmd_bind(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fpga_port_ref ref;
	const char *driver;
	char uio[32] = "";
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, NULL, 2, 2, &a);
	if (ret)
		return ret;
	if (!strcmp(a.pos[1], "uio") || !strcmp(a.pos[1], FPGA_DRV_UIO))
		driver = FPGA_DRV_UIO;
	else if (!strcmp(a.pos[1], "port") || !strcmp(a.pos[1], FPGA_DRV_PORT))
		driver = FPGA_DRV_PORT;
	else
		return fc_usage_err(cmd, "'%s': bind to uio or port", a.pos[1]);
	ret = fc_port_lookup(cmd, a.pos[0], &ref);
	if (ret)
		return ret;
	if (fpga_port_bind(&ref, driver))
		return fc_lib_err();

	fc_obj_open(NULL);
	fc_str("port", "%s", strrchr(ref.sysfs, '/') + 1);
	fc_str("driver", ": %s", driver);
	if (!strcmp(driver, FPGA_DRV_UIO) &&
	    !fpga_uio_name(ref.sysfs, uio, sizeof(uio)))
		fc_str("uio", " (/dev/%s)", uio);
	else
		fc_str("devnode", " (%s)", ref.devnode);
	fc_text("\n");
	fc_obj_close();
	return FC_OK;
}
