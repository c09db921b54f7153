/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_dfl internals shared by the bus, the enumeration, reset,
 * programming and the generic netlink family "fpga" (dfl-netlink.c).  Not
 * for feature drivers.
 */
#ifndef _FPGA_DFL_NL_H
#define _FPGA_DFL_NL_H

#include <linux/types.h>

struct device;
struct fpga_dfl_device;
struct work_struct;

int fpga_dfl_nl_init(void);
void fpga_dfl_nl_exit(void);
void fpga_dfl_nl_card_event(u8 cmd, int card_id, struct device *parent,
			    unsigned int num_ports);
void fpga_dfl_nl_irq_work(struct work_struct *work);
void fpga_dfl_nl_notify_reset(struct fpga_dfl_device *fdev, bool begin,
			      int err);
void fpga_dfl_nl_notify_programmed(int card_id, unsigned int port_num,
				   struct fpga_dfl_device *port, int err);
void fpga_dfl_nl_notify_port(u8 cmd, int card_id, unsigned int port_num,
			     int id);
void fpga_dfl_nl_notify_vf_reset(int card_id, unsigned int port_num,
				 bool begin, int err);

/* dfl-program.c, for netlink's PORT_PROGRAM */
size_t fpga_dfl_gbs_header_len(const void *buf, size_t len);

/* dfl-reset.c, for dfl-program.c */
int fpga_dfl_port_hdr_sftrst(void __iomem *hdr, struct device *dev,
			     bool reset);

#endif /* _FPGA_DFL_NL_H */
