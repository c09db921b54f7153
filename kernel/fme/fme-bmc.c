// SPDX-License-Identifier: GPL-2.0-only
/*
 * FME private feature 0xe (upstream's FME_FEATURE_ID_MAX10_SPI): the SPI
 * master in front of a card's board management controller, and the BMC
 * on it, where OPAE's xfpga looks for an N3000's sensors:
 *
 *   dfl-fme.N/dfl_dev.M                  the feature (upstream's name)
 *     spi_master/spiB                    its SPI controller
 *       spiB.0                           the BMC (fme-bmc-hwmon.c)
 *         simbmc-hwmon.K.auto/hwmon/hwmonX  its sensors
 *
 * The register interface is the simulated card's (board=n3000,
 * <fpga-suite/sim-bmc.h>); upstream's spi-altera-dfl speaks to another.
 * A feature of another size is not this one: it is left alone.
 *
 * dfl_dev.M is a device of its own under dfl-fme.N (no bus: nothing but
 * the FME drives it), so it exists only with the upstream names.  Every
 * shift runs in the FME's unplug section: after removal, or a surprise
 * removal of the card, a transfer fails with -ENODEV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>

#include "fpga-compat.h"
#include <fpga-suite/sim-bmc.h>
#include "fme.h"

/*
 * The card's model answers within a few ms, but holds off while one AFU
 * run of another port goes on: a sensor read then times out
 */
#define FPGA_FME_SPI_POLL_US		20
#define FPGA_FME_SPI_TIMEOUT_US		(500 * USEC_PER_MSEC)

static DEFINE_IDA(fpga_fme_bmc_ida);

/**
 * struct fpga_fme_bmc - feature 0xe of an FME
 * @dev:	dfl_dev.M, the parent of the controller; its release frees this
 * @id:		M
 * @ctlr:	the SPI controller
 */
struct fpga_fme_bmc {
	struct device dev;
	int id;
	struct spi_controller *ctlr;
};

/* The controller's data: where its registers are and who guards them */
struct fpga_fme_spi {
	void __iomem *base;
	struct fpga_dfl_unplug *unplug;
};

/* Up to 8 bytes out of @tx (NULL: zeros) and into @rx (NULL: dropped) */
static int fpga_fme_spi_shift(struct fpga_fme_spi *fs, const u8 *tx, u8 *rx,
			      unsigned int len, bool sof)
{
	u64 cmd;
	int ret;

	writeq(tx ? sim_spi_pack(tx, len) : 0, fs->base + SIM_SPI_TX);
	writeq(FIELD_PREP(SIM_SPI_CMD_BYTES, len) |
	       (sof ? SIM_SPI_CMD_SOF : 0) | SIM_SPI_CMD_GO,
	       fs->base + SIM_SPI_CMD);
	ret = readq_poll_timeout(fs->base + SIM_SPI_CMD, cmd,
				 !(cmd & SIM_SPI_CMD_GO), FPGA_FME_SPI_POLL_US,
				 FPGA_FME_SPI_TIMEOUT_US);
	if (ret)
		return ret;
	if (rx)
		sim_spi_unpack(readq(fs->base + SIM_SPI_RX), rx, len);
	return 0;
}

static int fpga_fme_spi_transfer(struct fpga_fme_spi *fs,
				 struct spi_transfer *t, bool sof)
{
	const u8 *tx = t->tx_buf;
	u8 *rx = t->rx_buf;
	unsigned int done, n;
	int ret;

	for (done = 0; done < t->len; done += n, sof = false) {
		n = min_t(unsigned int, t->len - done, SIM_SPI_MAX_BYTES);
		ret = fpga_fme_spi_shift(fs, tx ? tx + done : NULL,
					 rx ? rx + done : NULL, n, sof);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A message is a frame: chip select 0 (the only one) asserted before its
 * first byte, and again after a transfer that asks for cs_change.  Its
 * status is the caller's (spi_sync() returns it): an error returned here
 * would only make the SPI core log one more line, for a card that is gone.
 */
static int fpga_fme_spi_transfer_message(struct spi_controller *ctlr,
					 struct spi_message *msg)
{
	struct fpga_fme_spi *fs = spi_controller_get_devdata(ctlr);
	struct spi_transfer *t;
	bool sof = true;
	int idx, ret = 0;

	if (!fpga_dfl_hw_enter(fs->unplug, &idx)) {
		ret = -ENODEV;
		goto out;
	}
	list_for_each_entry(t, &msg->transfers, transfer_list) {
		ret = fpga_fme_spi_transfer(fs, t, sof);
		if (ret)
			break;
		msg->actual_length += t->len;
		sof = t->cs_change;
	}
	fpga_dfl_hw_exit(fs->unplug, idx);
out:
	msg->status = ret;
	spi_finalize_current_message(ctlr);
	return 0;
}

static void fpga_fme_bmc_release(struct device *dev)
{
	struct fpga_fme_bmc *bmc = container_of(dev, struct fpga_fme_bmc, dev);

	ida_free(&fpga_fme_bmc_ida, bmc->id);
	kfree(bmc);
}

static const struct device_type fpga_fme_bmc_type = {
	.name		= "dfl_fme_bmc",
	.release	= fpga_fme_bmc_release,
};

/* The controller under @bmc, with the BMC on chip select 0 */
static int fpga_fme_bmc_spi_add(struct fpga_fme_bmc *bmc, struct fpga_fme *fme,
				void __iomem *base)
{
	struct spi_board_info info = {
		.modalias	= FPGA_FME_BMC_MODALIAS,
		.chip_select	= 0,
		.mode		= SPI_MODE_0,
	};
	struct spi_controller *ctlr;
	struct fpga_fme_spi *fs;
	int ret;

	ctlr = spi_alloc_host(&bmc->dev, sizeof(*fs));
	if (!ctlr)
		return -ENOMEM;
	fs = spi_controller_get_devdata(ctlr);
	fs->base = base;
	fs->unplug = &fme->unplug;
	ctlr->bus_num = -1;
	ctlr->num_chipselect = 1;
	ctlr->mode_bits = 0;
	ctlr->bits_per_word_mask = SPI_BPW_MASK(8);
	ctlr->transfer_one_message = fpga_fme_spi_transfer_message;
	ret = spi_register_controller(ctlr);
	if (ret) {
		spi_controller_put(ctlr);
		return ret;
	}
	bmc->ctlr = ctlr;
	if (!spi_new_device(ctlr, &info)) {
		spi_unregister_controller(ctlr);
		bmc->ctlr = NULL;
		return -ENODEV;
	}
	return 0;
}

/**
 * fpga_fme_bmc_add() - the BMC of an FME with feature 0xe
 * @fme: the FME, with its dfl-fme.N node
 * @fdev: its device
 *
 * An FME without the feature, or without its upstream names, has no BMC;
 * one whose BMC cannot be reached works without it (the log says so).
 */
void fpga_fme_bmc_add(struct fpga_fme *fme, struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *feat;
	struct fpga_fme_bmc *bmc;
	int ret;

	feat = fpga_dfl_find_feature(fdev, FME_FEATURE_ID_MAX10_SPI);
	if (!feat || feat->size < SIM_SPI_SIZE || !fme->dfl_node)
		return;
	bmc = kzalloc(sizeof(*bmc), GFP_KERNEL);
	if (!bmc)
		return;
	bmc->id = ida_alloc(&fpga_fme_bmc_ida, GFP_KERNEL);
	if (bmc->id < 0) {
		kfree(bmc);
		return;
	}
	/* From here on the release frees it */
	device_initialize(&bmc->dev);
	bmc->dev.parent = &fme->dfl_node->dev;
	bmc->dev.type = &fpga_fme_bmc_type;
	ret = dev_set_name(&bmc->dev, "dfl_dev.%d", bmc->id);
	if (!ret)
		ret = device_add(&bmc->dev);
	if (!ret) {
		ret = fpga_fme_bmc_spi_add(bmc, fme, feat->ioaddr);
		if (ret)
			device_del(&bmc->dev);
	}
	if (ret) {
		dev_warn(&fdev->dev, "no BMC: %d\n", ret);
		put_device(&bmc->dev);
		return;
	}
	fme->bmc = bmc;
}

/**
 * fpga_fme_bmc_remove() - remove the BMC, its sensors first
 * @fme: the FME
 *
 * No transfer reaches the card once this returns.
 */
void fpga_fme_bmc_remove(struct fpga_fme *fme)
{
	struct fpga_fme_bmc *bmc = fme->bmc;

	if (!bmc)
		return;
	spi_unregister_controller(bmc->ctlr);
	device_unregister(&bmc->dev);
	fme->bmc = NULL;
}
