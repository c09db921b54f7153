// SPDX-License-Identifier: GPL-2.0-only
/*
 * Program an AFU into a port of a simulated card, for the shell tests:
 * a bitstream of the card's format (pr_util.h) naming the AFU's GUID,
 * through DFL_FPGA_FME_PORT_PR on the card's FME.
 *
 * usage: afu_program FME_DEV PORT AFU_GUID [INTERFACE_ID]
 * Exit status: 0 programmed, 1 failed, 2 usage.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "pr_util.h"

int main(int argc, char **argv)
{
	const char *intf = argc > 4 ? argv[4] : FPGA_SIM_INTERFACE_ID;
	uint8_t *bs;
	size_t len;
	int fd, ret;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s FME_DEV PORT AFU_GUID [INTERFACE_ID]\n",
			argv[0]);
		return 2;
	}
	bs = pr_bitstream(argv[3], intf, 0, &len);
	if (!bs) {
		fprintf(stderr, "afu_program: bad GUID %s or %s\n", argv[3], intf);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	ret = pr_program(fd, strtoul(argv[2], NULL, 0), bs, len);
	close(fd);
	free(bs);
	if (ret) {
		fprintf(stderr, "afu_program: %s port %s: %s\n", argv[1],
			argv[2], strerror(-ret));
		return 1;
	}
	return 0;
}
