// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz, sysfs: writes of odd values to every knob of the suite's own
 * devices, reads of their attributes, ports switched between fpga_port and
 * uio_fpga, and (fuzz_unplug) simulated cards deleted and recreated under
 * the other workers.  Only paths below the suite's buses, its devices and
 * its modules' parameters are ever written: never /sys/power or a device
 * of the VM itself.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "sim_util.h"
#include "uio_util.h"

static const char *const vals[] = {
	"1", "0", "0x1", "-1", "y", "", "\n", "18446744073709551615",
	"99999999999999999999", "0x8000000000000000", "fpga_port",
	"uio_fpga", "1 2 3", "0x", "  1", "2",
};

static const char *rnd_val(void)
{
	return vals[below(ARRAY_LEN(vals))];
}

static unsigned int rnd_card(void)
{
	return CARD_BASE + below(NUM_CARDS);
}

/* Knobs of a port, of a simulated card, of a module: written */
static void sysfs_knob(struct worker *w)
{
	static const char *const port_files[] = {
		"reset", "errors/errors", "power_state",
	};
	static const char *const sim_files[] = {
		"fail_reset_ack", "port0/inject_error", "port0/fail_dma",
		"port1/inject_error", "port1/fail_dma",
	};
	static const char *const params[] = {
		"fpga_port/parameters/reset_timeout_us",
		"uio_fpga/parameters/reset_timeout_us",
		"uio_fpga/parameters/dma_size",
		"uio_fpga/parameters/dma_buffers",
		"vgem_ext/parameters/fence_timeout_ms",
	};
	char path[256];
	const char *val = rnd_val();

	switch (below(8)) {
	case 0 ... 3:
		snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%llu/%s",
			 (unsigned long long)below(8),
			 port_files[below(ARRAY_LEN(port_files))]);
		break;
	case 4 ... 6:
		snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/%s",
			 rnd_card(), sim_files[below(ARRAY_LEN(sim_files))]);
		break;
	default:
		/* Small numbers only: a timeout of hours would hang a test */
		snprintf(path, sizeof(path), "/sys/module/%s",
			 params[below(ARRAY_LEN(params))]);
		val = below(2) ? "1000" : below(2) ? "4096" : "0";
		if (strstr(path, "dma_buffers"))
			val = below(2) ? "3" : "1";
		else if (strstr(path, "fence_timeout"))
			val = below(2) ? "500" : "10000";
		else if (strstr(path, "reset_timeout"))
			val = below(4) ? "100000" : "1";
	}
	FUZZ_OK(w, AREA_SYSFS, sysfs_write(path, val));
}

/* Attributes read: ports, FMEs, cards, UIO devices, PMUs */
static void sysfs_read_any(struct worker *w)
{
	static const char *const files[] = {
		DFL_DEVICES "/fpga-port.%u/afu_id",
		DFL_DEVICES "/fpga-port.%u/id",
		DFL_DEVICES "/fpga-port.%u/errors/first_error",
		DFL_DEVICES "/fpga-port.%u/errors/first_malformed_req",
		DFL_DEVICES "/fpga-port.%u/regions/0/size",
		DFL_DEVICES "/fpga-port.%u/power_state",
		DFL_DEVICES "/fpga-fme.%u/bitstream_id",
		DFL_DEVICES "/fpga-fme.%u/ports_num",
		"/sys/class/uio/uio%u/maps/map2/addr",
		"/sys/class/uio/uio%u/maps/map0/size",
		"/sys/class/uio/uio%u/name",
		"/sys/bus/event_source/devices/fpga_pmu_%u/cpumask",
		"/sys/bus/event_source/devices/fpga_pmu_%u/events/dma_rd_bytes",
		SIM_BUS "/devices/fpga_sim700%u/counters/clock",
		SIM_BUS "/devices/fpga_sim700%u/port0/dma_faults",
		/* the FMEs' sensors and board n3000's BMC: the VM's hwmon devices */
		"/sys/class/hwmon/hwmon%u/temp1_input",
		"/sys/class/hwmon/hwmon%u/power1_input",
		"/sys/class/hwmon/hwmon%u/in0_label",
	};
	char path[256], buf[256];

	snprintf(path, sizeof(path), files[below(ARRAY_LEN(files))],
		 (unsigned int)below(8));
	/* Reads into a pointer the kernel must check, too */
	if (one_in(8)) {
		int fd = open(path, O_RDONLY);

		if (fd >= 0) {
			if (read(fd, rnd_ptr(w, 64), 64) < 0)
				(void)0;	/* EFAULT is the answer */
			close(fd);
		}
		return;
	}
	FUZZ_OK(w, AREA_SYSFS, sysfs_read(path, buf, sizeof(buf)));
}

/* Move a port between its two drivers, whoever holds it open */
static void sysfs_rebind(void)
{
	int port = sim_port_number_at(rnd_card(), below(2));
	char path[256], name[32];

	if (port < 0)
		return;
	snprintf(name, sizeof(name), "fpga-port.%d", port);
	switch (below(4)) {
	case 0:
		port_bind(port, "uio_fpga");
		break;
	case 1:
		port_bind(port, "fpga_port");
		break;
	case 2:		/* unbound for a while: both drivers' files fail */
		snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/driver/unbind",
			 port);
		sysfs_write(path, below(2) ? name : rnd_val());
		break;
	default:	/* back to whatever matches */
		snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/driver_override",
			 port);
		sysfs_write(path, "\n");
		sysfs_write(DFL_BUS "/drivers_probe", name);
	}
}

void fuzz_sysfs(struct worker *w)
{
	switch (below(10)) {
	case 0 ... 4:
		sysfs_knob(w);
		break;
	case 5 ... 7:
		sysfs_read_any(w);
		break;
	default:
		sysfs_rebind();
	}
}

#define SIM_LAYOUT_PARAM	"/sys/module/fpga_sim/parameters/dfl_layout"

static const char *const sim_layouts[] = {
	"dfhv1", "loop", "outside", "next0", "unknown_type", "bad_irq",
	"dfh2_fme_feature", "dfh2_port", "dfh2_afu", "short_feature",
	"afu_uint_id", "afu_on_port", "afu_on_fme", "feature_on_afu",
	"afu_unaligned", "cntr8", "port0_vf", "port0_absent",
};

/* Hot-unplug: a card disappears and comes back, whatever is open */
void fuzz_unplug(struct worker *w)
{
	unsigned int id = rnd_card();
	char buf[32];

	(void)w;
	switch (below(6)) {
	case 0 ... 2:
		sim_del(id);
		break;
	case 3 ... 4:
		/* Now and then a malformed or future list (fpga_sim's layouts) */
		if (!below(4))
			sysfs_write(SIM_LAYOUT_PARAM,
				    sim_layouts[below(ARRAY_LEN(sim_layouts))]);
		if (one_in(4)) {
			/* board n3000: a BMC behind an SPI master to tear down */
			snprintf(buf, sizeof(buf), "%u %u board=n3000", id,
				 1 + (unsigned int)below(4));
			sysfs_write(SIM_BUS "/new_device", buf);
		} else {
			sim_add(id, 1 + below(4));
		}
		sysfs_write(SIM_LAYOUT_PARAM, "normal");
		break;
	default:	/* odd requests, always for a card of ours */
		snprintf(buf, sizeof(buf), "%u %s", id, rnd_val());
		sysfs_write(SIM_BUS "/new_device", buf);
	}
}
