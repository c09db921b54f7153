// SPDX-License-Identifier: GPL-2.0-only
/*
 * The board a card is modelled on, chosen per card in new_device
 * ("ID [NUM_PORTS] [board=NAME]"):
 *
 *   sim    the suite's own card (the default): PCI ids 0000:d5f1
 *   n3000  Intel's PAC N3000 as OPAE knows it: PCI ids 8086:0b30 and a
 *          BMC behind FME feature 0xe (sim-bmc.c), so that OPAE's
 *          fpgainfo temp and power read its sensors
 *
 * The board changes only the PCI ids and that feature: the rest of the
 * card is the same on both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "sim.h"

static const char *const fpga_sim_board_names[] = {
	[FPGA_SIM_BOARD_SIM]	= "sim",
	[FPGA_SIM_BOARD_N3000]	= "n3000",
};

const char *fpga_sim_board_name(enum fpga_sim_board board)
{
	return fpga_sim_board_names[board];
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_board_name);

/**
 * fpga_sim_board_parse() - a "board=NAME" word of new_device
 * @word: the word, without blanks
 * @board: where the board goes
 *
 * Return: 0; -ENOENT if @word is no board option (perhaps a number);
 * -EINVAL for an unknown board.
 */
int fpga_sim_board_parse(const char *word, enum fpga_sim_board *board)
{
	static const char key[] = "board=";
	int i;

	if (strncmp(word, key, sizeof(key) - 1))
		return -ENOENT;
	i = match_string(fpga_sim_board_names,
			 ARRAY_SIZE(fpga_sim_board_names),
			 word + sizeof(key) - 1);
	if (i < 0)
		return -EINVAL;
	*board = i;
	return 0;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_board_parse);

static ssize_t board_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  fpga_sim_board_name(to_fpga_sim(dev)->board));
}
DEVICE_ATTR_RO(board);
