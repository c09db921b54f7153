/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What fpga_sim_kunit's suites share: a simulated card's register file
 * laid out by fpga_sim, with no model thread, no bus device and no
 * enumeration; each test plays software and steps the model by hand.
 */
#ifndef _FPGA_SIM_KUNIT_H
#define _FPGA_SIM_KUNIT_H

#include <kunit/test.h>

#include "../sim.h"

#define NUM_PORTS	2

struct sim_kunit {
	struct fpga_sim sim;
	struct device *parent;	/* fpga_sim_layout: the card's device */
	struct fpga_dfl_card *card;	/* and the card enumerated */
	int irqs[FPGA_SIM_MAX_VECS];
};

/* A suite's init and exit: the card in test->priv */
int sim_kunit_init(struct kunit *test);
void sim_kunit_exit(struct kunit *test);

#endif /* _FPGA_SIM_KUNIT_H */
