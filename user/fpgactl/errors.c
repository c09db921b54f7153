// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl errors: the port's error registers, from sysfs.
 */
#include <inttypes.h>

#include "fpgactl.h"

/* Bits the simulated card sets (dfl-regs.h PORT_ERR_*) */
static const struct {
	uint64_t bit;
	const char *name;
} fc_port_error_bits[] = {
	{ 1ULL << 0, "dma_fault" },
};

static void fc_errors_decode(uint64_t v)
{
	fc_arr_open("decoded");
	for (size_t i = 0; i < sizeof(fc_port_error_bits) /
			       sizeof(fc_port_error_bits[0]); i++) {
		if (v & fc_port_error_bits[i].bit)
			fc_str(NULL, " %s", fc_port_error_bits[i].name);
	}
	fc_arr_close();
}

int fc_cmd_errors(const struct fc_cmd *cmd, int argc, char **argv)
{
	bool clear = false;
	const struct fc_opt opts[] = {
		{ "clear", 'c', NULL, &clear },
		{ 0 }
	};
	struct fpga_port_errors e;
	struct fpga_port_ref ref;
	uint64_t cleared = 0;
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 1, 1, &a);
	if (!ret)
		ret = fc_port_lookup(cmd, a.pos[0], &ref);
	if (ret)
		return ret;
	if (clear && fpga_port_errors_clear(ref.id, &cleared))
		return fc_lib_err();
	if (fpga_port_errors_read(ref.id, &e))
		return fc_lib_err();

	fc_obj_open(NULL);
	fc_hex("errors", "errors 0x%" PRIx64, e.errors);
	fc_errors_decode(e.errors);
	fc_hex("first_error", "\nfirst_error 0x%" PRIx64, e.first_error);
	fc_str("first_malformed_req", "\nfirst_malformed_req %s\n",
	       e.first_malformed_req);
	if (clear)
		fc_hex("cleared", "cleared 0x%" PRIx64 "\n", cleared);
	fc_obj_close();
	return FC_OK;
}
