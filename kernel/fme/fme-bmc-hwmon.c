// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's BMC on its SPI bus (fme-bmc.c), and its sensors as
 * a hwmon device, "simbmc", on a child platform device simbmc-hwmon.K.auto:
 * the path OPAE's xfpga globs for an N3000's sensors, each named by its
 * *_label.  Every reading is one register read of the BMC
 * (<fpga-suite/sim-bmc.h>), in hwmon's units.
 *
 * The platform device has no driver: it only places the hwmon device
 * where OPAE looks and lm-sensors lists it.  Removal takes the hwmon
 * device first; a file left open then reads -ENODEV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hwmon.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>

#include <fpga-suite/sim-bmc.h>
#include "fme.h"

/**
 * struct fpga_fme_bmc_chip - the BMC, bound to its SPI device
 * @spi:	the SPI device
 * @pdev:	simbmc-hwmon.K.auto
 * @hwmon:	its hwmon device
 * @lock:	one frame in @tx and @rx at a time
 * @tx:		the frame out
 * @rx:		the frame in
 */
struct fpga_fme_bmc_chip {
	struct spi_device *spi;
	struct platform_device *pdev;
	struct device *hwmon;
	struct mutex lock;	/* @tx, @rx */
	u8 tx[SIM_BMC_FRAME_LEN] ____cacheline_aligned;
	u8 rx[SIM_BMC_FRAME_LEN];
};

struct fpga_fme_bmc_sensor {
	enum hwmon_sensor_types type;
	int channel;
	unsigned int index;	/* SIM_BMC_REG_SENSOR(index) */
	const char *label;
};

static const struct fpga_fme_bmc_sensor fpga_fme_bmc_sensors[] = {
	{ hwmon_temp, 0, SIM_BMC_FPGA_TEMP, "FPGA Die Temperature" },
	{ hwmon_temp, 1, SIM_BMC_BOARD_TEMP, "Board Temperature" },
	{ hwmon_in, 0, SIM_BMC_12V_VOLTAGE, "12V Backplane Voltage" },
	{ hwmon_curr, 0, SIM_BMC_12V_CURRENT, "12V Backplane Current" },
	{ hwmon_power, 0, SIM_BMC_BOARD_POWER, "Board Power" },
};

static const struct fpga_fme_bmc_sensor *
fpga_fme_bmc_sensor(enum hwmon_sensor_types type, int channel)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fpga_fme_bmc_sensors); i++)
		if (fpga_fme_bmc_sensors[i].type == type &&
		    fpga_fme_bmc_sensors[i].channel == channel)
			return &fpga_fme_bmc_sensors[i];
	return NULL;
}

/* BMC register @addr: 0, or -ENODEV once the card is gone */
static int fpga_fme_bmc_read(struct fpga_fme_bmc_chip *chip, u16 addr,
			     u32 *val)
{
	struct spi_transfer t = {
		.len = SIM_BMC_FRAME_LEN,
	};
	int ret;

	mutex_lock(&chip->lock);
	sim_bmc_read_frame(addr, chip->tx);
	t.tx_buf = chip->tx;
	t.rx_buf = chip->rx;
	ret = spi_sync_transfer(chip->spi, &t, 1);
	if (!ret)
		ret = sim_bmc_read_reply(chip->rx, val);
	mutex_unlock(&chip->lock);
	return ret;
}

static umode_t fpga_fme_bmc_visible(const void *drvdata,
				    enum hwmon_sensor_types type, u32 attr,
				    int channel)
{
	return fpga_fme_bmc_sensor(type, channel) ? 0444 : 0;
}

static int fpga_fme_bmc_hwmon_read(struct device *dev,
				   enum hwmon_sensor_types type, u32 attr,
				   int channel, long *val)
{
	const struct fpga_fme_bmc_sensor *s = fpga_fme_bmc_sensor(type, channel);
	u32 v;
	int ret;

	if (!s)
		return -EOPNOTSUPP;
	ret = fpga_fme_bmc_read(dev_get_drvdata(dev),
				SIM_BMC_REG_SENSOR(s->index), &v);
	if (ret)
		return ret;
	*val = (s32)v;
	return 0;
}

static int fpga_fme_bmc_hwmon_read_string(struct device *dev,
					  enum hwmon_sensor_types type,
					  u32 attr, int channel,
					  const char **str)
{
	const struct fpga_fme_bmc_sensor *s = fpga_fme_bmc_sensor(type, channel);

	if (!s)
		return -EOPNOTSUPP;
	*str = s->label;
	return 0;
}

static const struct hwmon_ops fpga_fme_bmc_hwmon_ops = {
	.is_visible	= fpga_fme_bmc_visible,
	.read		= fpga_fme_bmc_hwmon_read,
	.read_string	= fpga_fme_bmc_hwmon_read_string,
};

static const struct hwmon_channel_info *fpga_fme_bmc_hwmon_info[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_LABEL,
			   HWMON_T_INPUT | HWMON_T_LABEL),
	HWMON_CHANNEL_INFO(in, HWMON_I_INPUT | HWMON_I_LABEL),
	HWMON_CHANNEL_INFO(curr, HWMON_C_INPUT | HWMON_C_LABEL),
	HWMON_CHANNEL_INFO(power, HWMON_P_INPUT | HWMON_P_LABEL),
	NULL
};

static const struct hwmon_chip_info fpga_fme_bmc_hwmon_chip = {
	.ops	= &fpga_fme_bmc_hwmon_ops,
	.info	= fpga_fme_bmc_hwmon_info,
};

/* Is it the BMC this driver knows, with every sensor it names? */
static int fpga_fme_bmc_identify(struct fpga_fme_bmc_chip *chip)
{
	u32 id, num;
	int ret;

	ret = fpga_fme_bmc_read(chip, SIM_BMC_REG_ID, &id);
	if (!ret)
		ret = fpga_fme_bmc_read(chip, SIM_BMC_REG_NUM_SENSORS, &num);
	if (ret)
		return ret;
	if (id != SIM_BMC_ID || num < SIM_BMC_NUM_SENSORS) {
		dev_err(&chip->spi->dev, "not the simulated BMC: id %#x, %u sensors\n",
			id, num);
		return -ENODEV;
	}
	return 0;
}

static int fpga_fme_bmc_spi_probe(struct spi_device *spi)
{
	struct fpga_fme_bmc_chip *chip;
	int ret;

	chip = devm_kzalloc(&spi->dev, sizeof(*chip), GFP_KERNEL);
	if (!chip)
		return -ENOMEM;
	chip->spi = spi;
	mutex_init(&chip->lock);
	ret = fpga_fme_bmc_identify(chip);
	if (ret)
		goto err_mutex;

	chip->pdev = platform_device_register_data(&spi->dev, "simbmc-hwmon",
						   PLATFORM_DEVID_AUTO, NULL, 0);
	if (IS_ERR(chip->pdev)) {
		ret = PTR_ERR(chip->pdev);
		goto err_mutex;
	}
	chip->hwmon = hwmon_device_register_with_info(&chip->pdev->dev,
						      "simbmc", chip,
						      &fpga_fme_bmc_hwmon_chip,
						      NULL);
	if (IS_ERR(chip->hwmon)) {
		ret = PTR_ERR(chip->hwmon);
		platform_device_unregister(chip->pdev);
		goto err_mutex;
	}
	spi_set_drvdata(spi, chip);
	return 0;

err_mutex:
	mutex_destroy(&chip->lock);
	return ret;
}

/* The hwmon device first: its files are gone before the bus is */
static void fpga_fme_bmc_spi_remove(struct spi_device *spi)
{
	struct fpga_fme_bmc_chip *chip = spi_get_drvdata(spi);

	hwmon_device_unregister(chip->hwmon);
	platform_device_unregister(chip->pdev);
	mutex_destroy(&chip->lock);
}

static const struct spi_device_id fpga_fme_bmc_ids[] = {
	{ FPGA_FME_BMC_MODALIAS },
	{ }
};

static struct spi_driver fpga_fme_bmc_driver = {
	.driver		= {
		.name	= "fpga_sim_bmc",
	},
	.id_table	= fpga_fme_bmc_ids,
	.probe		= fpga_fme_bmc_spi_probe,
	.remove		= fpga_fme_bmc_spi_remove,
};

int fpga_fme_bmc_init(void)
{
	return spi_register_driver(&fpga_fme_bmc_driver);
}

void fpga_fme_bmc_exit(void)
{
	spi_unregister_driver(&fpga_fme_bmc_driver);
}
