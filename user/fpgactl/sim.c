// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl sim: create and remove simulated cards (fpga_sim).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fpgactl.h"

static int fc_sim_add(const struct fc_cmd *cmd, int argc, char **argv)
{
	char card[32], board[FPGA_SIM_BOARD_MAX];
	int ports[FPGA_SIM_MAX_PORTS], n, fme;
	const char *board_arg = NULL;
	uint64_t id, nports = 1;
	bool board_set = false;
	struct fc_args a;
	int ret;
	const struct fc_opt kws[] = {
		{ "board", 0, &board_arg, &board_set },
		{ 0 }
	};

	ret = fc_parse_keywords(cmd, argc, argv, kws, 1, 2, &a);
	if (!ret)
		ret = fc_parse_u64(cmd, "ID", a.pos[0], FPGA_SIM_MAX_ID, &id);
	if (!ret && a.n == 2) {
		ret = fc_parse_u64(cmd, "NUM_PORTS", a.pos[1], UINT64_MAX,
				   &nports);
		if (!ret && (nports < 1 || nports > FPGA_SIM_MAX_PORTS))
			ret = fc_usage_err(cmd, "NUM_PORTS is 1 to %d, not %s",
					   FPGA_SIM_MAX_PORTS, a.pos[1]);
	}
	if (!ret && board_set && fpga_sim_board_check(board_arg))
		ret = fc_usage_err(cmd, "board: %s", fpga_errmsg());
	if (ret)
		return ret;
	if (fpga_sim_add(id, (unsigned int)nports, board_arg))
		return fc_lib_err();

	/* What was created: creation is synchronous */
	snprintf(card, sizeof(card), "fpga_sim%" PRIu64, id);
	n = fpga_sim_ports(id, ports, FPGA_SIM_MAX_PORTS);
	fme = fpga_sim_fme(id);
	/* An fpga_sim older than boards has no "board" file: say nothing */
	if (fpga_sim_board(id, board, sizeof(board)))
		board[0] = '\0';
	fc_obj_open(NULL);
	fc_str("card", "%s", card);
	fc_u64("id", NULL, id);
	if (board[0])
		fc_str("board", strcmp(board, "sim") ? " (%s)" : NULL, board);
	fc_text(":");
	if (fme >= 0)
		fc_int("fme", " fpga-fme.%" PRId64, fme);
	fc_arr_open("ports");
	for (int i = 0; i < n; i++)
		fc_int(NULL, " fpga-port.%" PRId64, ports[i]);
	fc_arr_close();
	fc_text("\n");
	fc_obj_close();
	return FC_OK;
}

static int fc_sim_del(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fc_args a;
	uint64_t id;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, NULL, 1, 1, &a);
	if (!ret)
		ret = fc_parse_u64(cmd, "ID", a.pos[0], FPGA_SIM_MAX_ID, &id);
	if (ret)
		return ret;
	if (fpga_sim_del(id))
		return fc_lib_err();
	return FC_OK;
}

const struct fc_cmd fc_sim_cmds[] = {
	{ .name = "add", .path = "sim add", .args = "ID [NUM_PORTS] [board BOARD]",
	  .run = fc_sim_add,
	  .help = "Create simulated card fpga_simID with NUM_PORTS ports (1 to 4,\n"
		  "default 1) through /sys/bus/fpga_sim/new_device, and print its FME\n"
		  "and ports.  ID is 0 to 2147483647.  BOARD is the card it is\n"
		  "modelled on: sim (the default) or n3000 (Intel's N3000 ids and a\n"
		  "BMC with sensors).  Needs the fpga_sim module." },
	{ .name = "del", .path = "sim del", .args = "ID", .run = fc_sim_del,
	  .help = "Remove simulated card fpga_simID (/sys/bus/fpga_sim/del_device)." },
	{ 0 }
};
