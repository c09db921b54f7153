// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AFUs the simulated card can run, by AFU GUID.
 *
 * A port starts with NLB0; a bitstream names the AFU to load by its GUID
 * (sim-pr.c), and only an AFU listed here can be loaded.
 */
#include <linux/string.h>

#include "sim.h"

static const struct fpga_sim_afu_model *const fpga_sim_afu_models[] = {
	&fpga_sim_nlb0_model,
	&fpga_sim_nlb3_model,
	&fpga_sim_he_lb_model,
};

/**
 * fpga_sim_afu_model_find() - the model of an AFU GUID
 * @guid_h: high 64 bits of the GUID
 * @guid_l: low 64 bits
 *
 * Return: the model, or NULL if the card has none for it.
 */
const struct fpga_sim_afu_model *fpga_sim_afu_model_find(u64 guid_h,
							 u64 guid_l)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fpga_sim_afu_models); i++)
		if (fpga_sim_afu_models[i]->guid_h == guid_h &&
		    fpga_sim_afu_models[i]->guid_l == guid_l)
			return fpga_sim_afu_models[i];
	return NULL;
}

/**
 * fpga_sim_afu_load() - port @n runs @model from now on
 * @sim: the card
 * @n: the port, which no driver uses (being laid out, or programmed)
 * @model: the AFU
 *
 * The AFU window is as after programming: zero but for the AFU header (an
 * AFU DFH, the end of the port's list, and the model's GUID) and what the
 * model lays out.
 */
void fpga_sim_afu_load(struct fpga_sim *sim, unsigned int n,
		       const struct fpga_sim_afu_model *model)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t afu = port->afu;

	memset(sim->regs + afu, 0, sim->afu_size);
	WRITE_ONCE(port->model, model);
	fpga_sim_write(sim, afu + DFH, fpga_sim_dfh(DFH_TYPE_AFU, 0, 0, true));
	fpga_sim_write(sim, afu + DFH_GUID_L, model->guid_l);
	fpga_sim_write(sim, afu + DFH_GUID_H, model->guid_h);
	if (model->layout)
		model->layout(sim, n);
}
