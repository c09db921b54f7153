/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Generic netlink family "fpga": inventory of the FMEs and ports on the
 * fpga_dfl bus, port control (reset, error clearing) and live events on
 * the multicast group "events".  Documentation/netlink.md describes every
 * command, attribute and event.
 */
#ifndef _UAPI_LINUX_FPGA_NETLINK_H
#define _UAPI_LINUX_FPGA_NETLINK_H

#define FPGA_NL_FAMILY_NAME	"fpga"
#define FPGA_NL_FAMILY_VERSION	1
#define FPGA_NL_MCGRP_EVENTS	"events"

/* Longest device, card or driver name carried, without the NUL */
#define FPGA_NL_NAME_MAX	31
/* Longest FPGA_NL_A_FIRMWARE name, without its NUL */
#define FPGA_NL_FIRMWARE_MAX	255

/**
 * enum fpga_nl_cmd - requests, and the events sent on "events"
 * @FPGA_NL_CMD_UNSPEC: not used
 * @FPGA_NL_CMD_DEV_GET: dump every FME and port (NLM_F_DUMP only); may
 *	be filtered by %FPGA_NL_A_CARD_ID
 * @FPGA_NL_CMD_PORT_RESET: reset a port (%FPGA_NL_A_DEV_ID or
 *	%FPGA_NL_A_DEV_NAME); needs CAP_NET_ADMIN
 * @FPGA_NL_CMD_PORT_CLEAR_ERRORS: clear a port's errors: also
 *	%FPGA_NL_A_PORT_ERRORS, the value to clear, which must be the
 *	current one; needs CAP_NET_ADMIN
 * @FPGA_NL_CMD_EVENT_CARD_ADDED: event: a card was enumerated
 * @FPGA_NL_CMD_EVENT_CARD_REMOVED: event: a card's devices are gone
 * @FPGA_NL_CMD_EVENT_RESET_BEGIN: event: a port reset starts
 * @FPGA_NL_CMD_EVENT_RESET_END: event: it ended (%FPGA_NL_A_ERRNO)
 * @FPGA_NL_CMD_EVENT_ERRORS_CLEARED: event: %FPGA_NL_A_PORT_ERRORS cleared
 * @FPGA_NL_CMD_EVENT_DRIVER_BOUND: event: a driver bound to a device
 * @FPGA_NL_CMD_EVENT_DRIVER_UNBOUND: event: it unbound
 * @FPGA_NL_CMD_EVENT_ERROR_RAISED: event: the port error interrupt fired;
 *	%FPGA_NL_A_PORT_ERRORS is the error register then
 * @FPGA_NL_CMD_EVENT_IRQ: event: interrupts of a feature vector since the
 *	last such event (%FPGA_NL_A_IRQ_COUNT); at most one per feature
 *	every 100 ms
 * @FPGA_NL_CMD_SIM_ADD: removed (EOPNOTSUPP): write "ID [PORTS]" to
 *	/sys/bus/fpga_sim/new_device, or run "fpgactl sim add"
 * @FPGA_NL_CMD_EVENT_PROGRAMMED: event: a port's AFU was programmed
 *	(partial reconfiguration) or the attempt failed (%FPGA_NL_A_ERRNO);
 *	the port's device was replaced: its %FPGA_NL_A_AFU_GUID is the AFU
 *	the card runs now
 * @FPGA_NL_CMD_PORT_PROGRAM: program the AFU behind a port (%FPGA_NL_A_DEV_ID
 *	or %FPGA_NL_A_DEV_NAME) with the bitstream in file
 *	%FPGA_NL_A_FIRMWARE of the firmware directory, as
 *	DFL_FPGA_FME_PORT_PR does; needs CAP_NET_ADMIN and CAP_SYS_ADMIN
 * @FPGA_NL_CMD_SIM_DEL: removed (EOPNOTSUPP): write "ID" to
 *	/sys/bus/fpga_sim/del_device, or run "fpgactl sim del"
 * @FPGA_NL_CMD_EVENT_PORT_RELEASED: event: a port was released from the
 *	host (DFL_FPGA_FME_PORT_RELEASE): its device is gone until it is
 *	assigned back; %FPGA_NL_A_PORT_NUM is its number on the card
 * @FPGA_NL_CMD_EVENT_PORT_ASSIGNED: event: a released port was assigned
 *	back (DFL_FPGA_FME_PORT_ASSIGN), under its name
 */
enum fpga_nl_cmd {
	FPGA_NL_CMD_UNSPEC,
	FPGA_NL_CMD_DEV_GET,
	FPGA_NL_CMD_PORT_RESET,
	FPGA_NL_CMD_PORT_CLEAR_ERRORS,
	FPGA_NL_CMD_EVENT_CARD_ADDED,
	FPGA_NL_CMD_EVENT_CARD_REMOVED,
	FPGA_NL_CMD_EVENT_RESET_BEGIN,
	FPGA_NL_CMD_EVENT_RESET_END,
	FPGA_NL_CMD_EVENT_ERRORS_CLEARED,
	FPGA_NL_CMD_EVENT_DRIVER_BOUND,
	FPGA_NL_CMD_EVENT_DRIVER_UNBOUND,
	FPGA_NL_CMD_EVENT_ERROR_RAISED,
	FPGA_NL_CMD_EVENT_IRQ,
	FPGA_NL_CMD_SIM_ADD,
	FPGA_NL_CMD_SIM_DEL,
	FPGA_NL_CMD_EVENT_PROGRAMMED,
	FPGA_NL_CMD_PORT_PROGRAM,
	FPGA_NL_CMD_EVENT_PORT_RELEASED,
	FPGA_NL_CMD_EVENT_PORT_ASSIGNED,

	__FPGA_NL_CMD_MAX,
	FPGA_NL_CMD_MAX = __FPGA_NL_CMD_MAX - 1
};

/* FPGA_NL_A_DEV_TYPE */
enum fpga_nl_dev_type {
	FPGA_NL_DEV_FME,
	FPGA_NL_DEV_PORT,
};

/**
 * enum fpga_nl_attr - attributes
 * @FPGA_NL_A_UNSPEC: not used
 * @FPGA_NL_A_PAD: padding for 64-bit attributes
 * @FPGA_NL_A_DEV_NAME: string, "fpga-port.N" or "fpga-fme.N"
 * @FPGA_NL_A_DEV_TYPE: u32, enum fpga_nl_dev_type
 * @FPGA_NL_A_DEV_ID: u32, the N of the name
 * @FPGA_NL_A_CARD_ID: u32, card number (the FME's N)
 * @FPGA_NL_A_CARD_NAME: string, the card's device (e.g. "fpga_sim3")
 * @FPGA_NL_A_PORT_NUM: u32, the port's number on its card: the n of the
 *	FME's FME_HDR_PORT_OFST(n) naming it, as DFL_FPGA_FME_PORT_PR's
 *	port_id and the port's sysfs id (ports the PF does not have, a VF's
 *	or not implemented, leave gaps)
 * @FPGA_NL_A_AFU_GUID: 16 bytes, the AFU's GUID, most significant first
 *	(the order sysfs afu_id prints it)
 * @FPGA_NL_A_MMIO_SIZE: u64, size of the AFU MMIO region in bytes
 * @FPGA_NL_A_PORT_ERRORS: u64, port error register (ERROR)
 * @FPGA_NL_A_PORT_FIRST_ERROR: u64, port FIRST_ERROR register
 * @FPGA_NL_A_DRIVER: string, the bound driver (absent if none)
 * @FPGA_NL_A_ERRNO: s32, result of a reset or programming (0 or -errno)
 * @FPGA_NL_A_NUM_PORTS: u32, ports enumerated on a card
 * @FPGA_NL_A_FME_PORTS_NUM: u32, FME header NUM_PORTS field
 * @FPGA_NL_A_FME_BITSTREAM_ID: u64, FME header BITSTREAM_ID
 * @FPGA_NL_A_FEATURE_ID: u32, the private feature an interrupt belongs to
 *	(0x10 port error, 0x12 port user interrupts, 0x4 FME error)
 * @FPGA_NL_A_IRQ_VECTOR: u32, the vector within that feature
 * @FPGA_NL_A_IRQ_COUNT: u64, interrupts counted
 * @FPGA_NL_A_SIM_ID: unused since SIM_ADD and SIM_DEL were removed
 * @FPGA_NL_A_SIM_PORTS: unused since SIM_ADD and SIM_DEL were removed
 * @FPGA_NL_A_FIRMWARE: string, a file of the firmware directory
 *	(/lib/firmware): an OPAE GBS file or a bitstream as the card takes it
 */
enum fpga_nl_attr {
	FPGA_NL_A_UNSPEC,
	FPGA_NL_A_PAD,
	FPGA_NL_A_DEV_NAME,
	FPGA_NL_A_DEV_TYPE,
	FPGA_NL_A_DEV_ID,
	FPGA_NL_A_CARD_ID,
	FPGA_NL_A_CARD_NAME,
	FPGA_NL_A_PORT_NUM,
	FPGA_NL_A_AFU_GUID,
	FPGA_NL_A_MMIO_SIZE,
	FPGA_NL_A_PORT_ERRORS,
	FPGA_NL_A_PORT_FIRST_ERROR,
	FPGA_NL_A_DRIVER,
	FPGA_NL_A_ERRNO,
	FPGA_NL_A_NUM_PORTS,
	FPGA_NL_A_FME_PORTS_NUM,
	FPGA_NL_A_FME_BITSTREAM_ID,
	FPGA_NL_A_FEATURE_ID,
	FPGA_NL_A_IRQ_VECTOR,
	FPGA_NL_A_IRQ_COUNT,
	FPGA_NL_A_SIM_ID,
	FPGA_NL_A_SIM_PORTS,
	FPGA_NL_A_FIRMWARE,

	__FPGA_NL_A_MAX,
	FPGA_NL_A_MAX = __FPGA_NL_A_MAX - 1
};

#define FPGA_NL_GUID_LEN	16

#endif /* _UAPI_LINUX_FPGA_NETLINK_H */
