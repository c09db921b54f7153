// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's thermal and power management features (FME private
 * features 0x1 and 0x2, upstream's register map in dfl-regs.h) and their
 * model: the card draws an idle power plus a share proportional to its
 * recent DMA throughput (the counter bank's bytes read and written), and
 * its temperature is the air's plus a rise proportional to that power.
 * Power follows the load with a time constant of 250 ms, temperature with
 * one of 2 s, so both rise under load and decay back when the card idles.
 *
 * The model advances in ticks of 10 ms of the card's clock, in integers:
 * the same DMA per tick gives the same readings, and both stay between
 * their idle values and their ceilings (the FPGA power limit, and the
 * temperature that limit gives) whatever the load.  The status bits of
 * the thresholds follow the readings: set while a reading is at or above
 * an enabled threshold (for power, a threshold of 0 is off).  The thermal
 * thresholds are the FIM's (read-only upstream); software may set the
 * power thresholds.  Nothing is throttled: the alarms only report.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/timekeeping.h>

#include "sim.h"

#define FPGA_SIM_SENSOR_TICK_MS		10
/* A longer pause has let everything settle: no need to catch up further */
#define FPGA_SIM_SENSOR_MAX_TICKS	1000
#define FPGA_SIM_IDLE_MW		20000
#define FPGA_SIM_MAX_MW			100000
/* 1 W more per 320 KiB of DMA in a tick, about 32 MB/s */
#define FPGA_SIM_BYTES_PER_W_TICK	(320 * SZ_1K)
#define FPGA_SIM_MAX_BYTES_TICK		\
	((u64)(FPGA_SIM_MAX_MW - FPGA_SIM_IDLE_MW) / 1000 * FPGA_SIM_BYTES_PER_W_TICK)
/* Thermal resistance to the air: 0.5 degrees per watt */
#define FPGA_SIM_MC_PER_W		500
#define FPGA_SIM_POWER_TAU		25	/* ticks */
#define FPGA_SIM_HEAT_TAU		200	/* ticks */
#define FPGA_SIM_AMBIENT		35
#define FPGA_SIM_AMBIENT_MAX		100

/* The FIM's thermal thresholds, degrees C; power thresholds at reset, W */
#define FPGA_SIM_TEMP_THRESHOLD1	80
#define FPGA_SIM_TEMP_THRESHOLD2	90
#define FPGA_SIM_TEMP_TRIP		100
#define FPGA_SIM_PWR_THRESHOLD1		80
#define FPGA_SIM_PWR_THRESHOLD2		95
/* The FPGA's power limit, 0.1 W; the Xeon's is not the card's to give */
#define FPGA_SIM_FPGA_LIMIT		(FPGA_SIM_MAX_MW / 100)

static u64 fpga_sim_sensor_dfh(unsigned int id, size_t next, bool eol)
{
	return FIELD_PREP(DFH_TYPE, DFH_TYPE_PRIVATE) | FIELD_PREP(DFH_ID, id) |
	       FIELD_PREP(DFH_NEXT, next) | (eol ? DFH_EOL : 0);
}

static u32 fpga_sim_heat_of(u32 power_mw)
{
	return power_mw * FPGA_SIM_MC_PER_W / 1000;
}

/* One tick's move of @x towards @target, by 1/@tau of the way */
static u32 fpga_sim_lag(u32 x, u32 target, int tau)
{
	return x + ((int)target - (int)x) / tau;
}

/* Every port says its AFU tolerates latency (PORT_HDR_CTRL.LATENCY) */
static bool fpga_sim_sensors_ltr(struct fpga_sim *sim)
{
	unsigned int n;

	for (n = 0; n < sim->num_ports; n++)
		if (!(fpga_sim_read(sim, sim->ports[n].hdr + PORT_HDR_CTRL) &
		      PORT_CTRL_LATENCY))
			return false;
	return true;
}

/* Set the status bits @mask of threshold register @ofs to @sts */
static void fpga_sim_sensors_status(struct fpga_sim *sim, size_t ofs, u64 mask,
				    u64 sts)
{
	u64 old = fpga_sim_read(sim, ofs);

	/* Software may store the thresholds: lose no store, retry next tick */
	if ((old & mask) != sts)
		fpga_sim_update(sim, ofs, old, (old & ~mask) | sts);
}

static void fpga_sim_sensors_alarms(struct fpga_sim *sim, unsigned int temp,
				    unsigned int watts)
{
	size_t ofs = FPGA_SIM_FME_THERMAL + FME_THERM_THRESHOLD;
	u64 thr = fpga_sim_read(sim, ofs), sts = 0;
	unsigned int t1, t2;

	if ((thr & FME_THERM_THRESHOLD1_EN) &&
	    temp >= FIELD_GET(FME_THERM_THRESHOLD1, thr))
		sts |= FME_THERM_THRESHOLD1_STS;
	if ((thr & FME_THERM_THRESHOLD2_EN) &&
	    temp >= FIELD_GET(FME_THERM_THRESHOLD2, thr))
		sts |= FME_THERM_THRESHOLD2_STS;
	fpga_sim_sensors_status(sim, ofs, FME_THERM_THRESHOLD1_STS |
				FME_THERM_THRESHOLD2_STS, sts);

	ofs = FPGA_SIM_FME_POWER + FME_PWR_THRESHOLD;
	thr = fpga_sim_read(sim, ofs);
	t1 = FIELD_GET(FME_PWR_THRESHOLD1, thr);
	t2 = FIELD_GET(FME_PWR_THRESHOLD2, thr);
	sts = 0;
	if (t1 && watts >= t1)
		sts |= FME_PWR_THRESHOLD1_STS;
	if (t2 && watts >= t2)
		sts |= FME_PWR_THRESHOLD2_STS;
	fpga_sim_sensors_status(sim, ofs, FME_PWR_THRESHOLD1_STS |
				FME_PWR_THRESHOLD2_STS, sts);
}

/**
 * fpga_sim_sensors_step() - advance the model by @ticks and show it
 * @sim: the card
 * @ticks: 10 ms ticks since the last step (0: only refresh the registers)
 *
 * The DMA the counter bank counted since the last step is spread evenly
 * over the ticks.  The model thread's, or a test's.
 */
void fpga_sim_sensors_step(struct fpga_sim *sim, unsigned int ticks)
{
	struct fpga_sim_sensors *s = &sim->sensors;
	u64 bytes, per_tick;
	unsigned int temp, watts, i;
	u32 power, heat;

	bytes = fpga_sim_cntr_get(sim, CNTR_CARD, CNTR_EVT_DMA_RD_BYTES) +
		fpga_sim_cntr_get(sim, CNTR_CARD, CNTR_EVT_DMA_WR_BYTES);
	if (ticks) {
		per_tick = div_u64(bytes - s->dma_bytes, ticks);
		per_tick = min_t(u64, per_tick, FPGA_SIM_MAX_BYTES_TICK);
		s->dma_bytes = bytes;
		power = FPGA_SIM_IDLE_MW +
			div_u64(per_tick * 1000, FPGA_SIM_BYTES_PER_W_TICK);
		heat = fpga_sim_heat_of(power);
		ticks = min_t(unsigned int, ticks, FPGA_SIM_SENSOR_MAX_TICKS);
		for (i = 0; i < ticks; i++) {
			s->power_mw = fpga_sim_lag(s->power_mw, power,
						   FPGA_SIM_POWER_TAU);
			s->heat_mc = fpga_sim_lag(s->heat_mc, heat,
						  FPGA_SIM_HEAT_TAU);
		}
	}

	/* The field starts at bit 0: its mask is its largest value */
	temp = READ_ONCE(s->ambient) + DIV_ROUND_CLOSEST(s->heat_mc, 1000);
	temp = min_t(unsigned int, temp, FME_THERM_TEMPERATURE);
	watts = DIV_ROUND_CLOSEST(s->power_mw, 1000);
	fpga_sim_write(sim, FPGA_SIM_FME_THERMAL + FME_THERM_RDSENSOR_FMT1,
		       FIELD_PREP(FME_THERM_TEMPERATURE, temp));
	fpga_sim_write(sim, FPGA_SIM_FME_POWER + FME_PWR_STATUS,
		       FIELD_PREP(FME_PWR_CONSUMED, watts) |
		       (fpga_sim_sensors_ltr(sim) ? FME_PWR_LTR : 0));
	fpga_sim_sensors_alarms(sim, temp, watts);
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_sim_sensors_step);

/* The card's time moved on: a step per whole tick gone by */
void fpga_sim_sensors_tick(struct fpga_sim *sim)
{
	struct fpga_sim_sensors *s = &sim->sensors;
	u64 ticks = div_u64(ktime_to_ms(ktime_get_coarse()) - s->last_ms,
			    FPGA_SIM_SENSOR_TICK_MS);

	if (!ticks)
		return;
	s->last_ms += ticks * FPGA_SIM_SENSOR_TICK_MS;
	fpga_sim_sensors_step(sim, min_t(u64, ticks, FPGA_SIM_SENSOR_MAX_TICKS));
}

/**
 * fpga_sim_sensors_layout() - the thermal and power features, at rest
 * @sim: the card
 *
 * Thermal, then power, then the PR engine (sim-pr.c), the FME's last.  The card starts as if it
 * had been idle for long: idle power, and the temperature that gives.
 */
void fpga_sim_sensors_layout(struct fpga_sim *sim)
{
	struct fpga_sim_sensors *s = &sim->sensors;
	size_t th = FPGA_SIM_FME_THERMAL, pw = FPGA_SIM_FME_POWER;

	fpga_sim_write(sim, th + DFH,
		       fpga_sim_sensor_dfh(FME_FEATURE_ID_THERMAL_MGMT,
					   pw - th, false));
	fpga_sim_write(sim, th + FME_THERM_THRESHOLD,
		       FIELD_PREP(FME_THERM_THRESHOLD1,
				  FPGA_SIM_TEMP_THRESHOLD1) |
		       FME_THERM_THRESHOLD1_EN |
		       FIELD_PREP(FME_THERM_THRESHOLD2,
				  FPGA_SIM_TEMP_THRESHOLD2) |
		       FME_THERM_THRESHOLD2_EN |
		       FIELD_PREP(FME_THERM_TRIP, FPGA_SIM_TEMP_TRIP) |
		       FME_THERM_THRESHOLD1_POLICY);
	fpga_sim_write(sim, th + FME_THERM_CAP, 0);

	fpga_sim_write(sim, pw + DFH,
		       fpga_sim_sensor_dfh(FME_FEATURE_ID_POWER_MGMT,
					   FPGA_SIM_FME_PR - pw, false));
	fpga_sim_write(sim, pw + FME_PWR_THRESHOLD,
		       FIELD_PREP(FME_PWR_THRESHOLD1, FPGA_SIM_PWR_THRESHOLD1) |
		       FIELD_PREP(FME_PWR_THRESHOLD2, FPGA_SIM_PWR_THRESHOLD2));
	fpga_sim_write(sim, pw + FME_PWR_XEON_LIMIT, 0);
	fpga_sim_write(sim, pw + FME_PWR_FPGA_LIMIT,
		       FIELD_PREP(FME_PWR_LIMIT, FPGA_SIM_FPGA_LIMIT) |
		       FME_PWR_LIMIT_EN);

	s->ambient = FPGA_SIM_AMBIENT;
	s->power_mw = FPGA_SIM_IDLE_MW;
	s->heat_mc = fpga_sim_heat_of(FPGA_SIM_IDLE_MW);
	s->dma_bytes = 0;
	s->last_ms = ktime_to_ms(ktime_get_coarse());
	fpga_sim_sensors_step(sim, 0);
}

static ssize_t ambient_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_fpga_sim(dev)->sensors.ambient));
}

/* The air around the card, in degrees C: how tests reach the thresholds */
static ssize_t ambient_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	unsigned int val;

	if (kstrtouint(buf, 0, &val) || val > FPGA_SIM_AMBIENT_MAX)
		return -EINVAL;
	WRITE_ONCE(to_fpga_sim(dev)->sensors.ambient, val);
	return count;
}
static DEVICE_ATTR_RW(ambient);

static struct attribute *fpga_sim_sensors_attrs[] = {
	&dev_attr_ambient.attr,
	NULL,
};

const struct attribute_group fpga_sim_sensors_group = {
	.name	= "sensors",
	.attrs	= fpga_sim_sensors_attrs,
};
