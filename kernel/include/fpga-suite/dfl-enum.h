/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_dfl internals: a card while its DFL is enumerated (dfl-enum.c), and
 * the two halves of fpga_dfl_card_add() that the KUnit suites call (the
 * core's parser suite, and fpga_sim's, which checks its register file as
 * the core reads it).  Card and feature drivers use dfl-core.h only.
 */
#ifndef _FPGA_DFL_ENUM_H
#define _FPGA_DFL_ENUM_H

#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <fpga-suite/dfl-core.h>

/* Upper bound on features per FIU, so that a corrupt list cannot run away */
#define FPGA_DFL_MAX_FEATURES	64
/*
 * Upper bound on register blocks claimed on one card: a DFH block per
 * feature, and DFHv1 registers elsewhere
 */
#define FPGA_DFL_MAX_CLAIMS	(2 * FPGA_DFL_MAX_FEATURES * (FME_MAX_PORTS + 1))

/* Owner of a claim: a port's index, or this for the FME */
#define FPGA_DFL_CLAIM_FME	FME_MAX_PORTS
/* A port not named by the FME's port offset registers (yet) */
#define FPGA_DFL_NO_PORT_NUM	UINT_MAX

struct fpga_dfl_claim {
	resource_size_t start;
	resource_size_t end;
	unsigned int owner;
};

/**
 * struct fpga_dfl_card - a card whose DFL has been enumerated
 * @info:	the card driver's description (irqs copied)
 * @id:		card number
 * @dir:	the FIUs' parent when the card driver asked for a directory
 *		(fpga_dfl_card_info.card_dir), else NULL
 * @fme:	the card's FME, if any
 * @ports:	the card's ports, in the order they were found; NULL for a
 *		port that did not come back after programming
 * @num_ports:	number of entries in @ports
 * @port_num:	each port's number on the card: the n of the FME's
 *		FME_HDR_PORT_OFST(n) naming it, which DFL_FPGA_FME_PORT_PR's
 *		port_id and the PR engine's RGN_ID take (a port no FME
 *		register names gets the lowest number neither a port nor
 *		an FME register has)
 * @port_fme:	each port is named by an FME register, and so known to the
 *		PR engine by its number
 * @port_ofs:	offset of each port's header, where it is walked again
 * @port_region: each port's region (dfl-region.c), or NULL
 * @regions:	the fpga_region devices made for the FIUs (dfl-region.c)
 * @num_regions: number of entries in @regions
 * @claims:	register blocks taken by a feature, each with its FIU:
 *		kept, so that a port walked again after programming cannot
 *		take another FIU's registers
 * @num_claims:	number of entries in @claims
 * @claim_owner: the FIU the walk is in (struct fpga_dfl_claim.owner)
 * @rewalk:	a single port is walked again (fpga_dfl_port_rewalk())
 * @rewalk_port: its index
 * @walk_port_num: the number of the next port found (the FME register
 *		being walked), or FPGA_DFL_NO_PORT_NUM
 * @num_reports: malformed entries reported while walking
 * @last_report: offset of the last one
 * @port_released: each port was released (DFL_FPGA_FME_PORT_RELEASE):
 *		its device is gone from the host until it is assigned again
 * @released_id: a released port's system-wide number (fpga-port.N),
 *		kept for its assignment
 * @released_override: its driver override, or NULL
 * @lock:	serialises programming (dfl-program.c), which replaces a
 *		port, release and assignment with the card's addition and
 *		removal; protects @removing, the @port_released state and
 *		@num_vfs
 * @removing:	fpga_dfl_card_remove() has begun
 * @num_vfs:	VFs enabled, each presenting a released port (dfl-sriov.c)
 * @vf_place:	the place (as @ports) of the port each VF presents
 * @abandon_lock: protects @abandoned, held while they are released
 * @abandoned:	per port, by its place (as @ports), DMA its driver left
 *		mapped for an AFU that did not stop (struct
 *		fpga_dfl_abandoned): the port takes no new user until a
 *		reset of it succeeds (dfl-reset.c)
 */
struct fpga_dfl_card {
	struct fpga_dfl_card_info info;
	int id;
	struct device *dir;
	struct fpga_dfl_device *fme;
	struct fpga_dfl_device *ports[FME_MAX_PORTS];
	unsigned int num_ports;
	unsigned int port_num[FME_MAX_PORTS];
	bool port_fme[FME_MAX_PORTS];
	resource_size_t port_ofs[FME_MAX_PORTS];
	struct device *port_region[FME_MAX_PORTS];
	struct device *regions[FME_MAX_PORTS + 1];
	unsigned int num_regions;
	struct fpga_dfl_claim *claims;
	unsigned int num_claims;
	unsigned int claim_owner;
	bool rewalk;
	unsigned int rewalk_port;
	unsigned int walk_port_num;
	unsigned int num_reports;
	resource_size_t last_report;
	bool port_released[FME_MAX_PORTS];
	int released_id[FME_MAX_PORTS];
	char *released_override[FME_MAX_PORTS];
	struct mutex lock;	/* programming vs add and removal; @removing */
	bool removing;
	unsigned int num_vfs;
	unsigned int vf_place[FME_MAX_PORTS];
	struct mutex abandon_lock;	/* abandoned */
	struct list_head abandoned[FME_MAX_PORTS];
};

struct fpga_dfl_card *
fpga_dfl_card_enumerate(const struct fpga_dfl_card_info *info);
void fpga_dfl_card_discard(struct fpga_dfl_card *card);

/* dfl-reset.c: release what was abandoned, the AFU of port @port_num stopped */
void fpga_dfl_port_release_abandoned(struct fpga_dfl_card *card,
				     unsigned int port_num, const char *why);
void fpga_dfl_card_release_abandoned(struct fpga_dfl_card *card);
bool fpga_dfl_port_has_abandoned(struct fpga_dfl_card *card,
				 unsigned int port_num);

/* dfl-sriov.c: VFs hold ports, which are not assigned back meanwhile */
bool fpga_dfl_card_vfs_enabled(struct fpga_dfl_card *card);

/* For dfl-program.c: a port walked again, and added to the bus */
struct fpga_dfl_device *fpga_dfl_port_rewalk(struct fpga_dfl_card *card,
					     unsigned int n,
					     resource_size_t ofs);
int fpga_dfl_port_index(struct fpga_dfl_card *card, unsigned int port_num);
void fpga_dfl_port_id_free(int id);
int fpga_dfl_device_add(struct fpga_dfl_card *card,
			struct fpga_dfl_device *fdev);

#endif /* _FPGA_DFL_ENUM_H */
