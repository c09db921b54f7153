// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl: look at and drive DFL FPGA ports.
 *
 *   fpgactl [-j|--json] [-p|--pretty] OBJECT [VERB] [ARGS]
 *
 * The output options may also follow the object, verb or arguments.
 *
 * Exit status: 0 done, 1 the operation failed, 2 the command line is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "fpgactl.h"

bool fc_json;
bool fc_pretty;

static int fc_cmd_help_top(const struct fc_cmd *cmd, int argc, char **argv);

static const struct fc_cmd fc_top_cmds[] = {
	{ .name = "list", .path = "list", .run = fc_cmd_list,
	  .help = "List every FME and port on the fpga_dfl bus (netlink dump, or sysfs), with\n"
		  "its card, bound driver, device node and AFU id.  Ports without a\n"
		  "driver show \"(no driver)\"." },
	{ .name = "info", .path = "info", .args = "PORT|FME", .run = fc_cmd_info,
	  .help = "Show a port: sysfs attributes (the AFU's id), API version, regions,\n"
		  "interrupts.  Or an FME (fpga-fme.N, dfl-fme.N, fpga_simID, a PCI\n"
		  "address, /dev/fpga-fme.N or a sysfs path): its card, ports,\n"
		  "bitstream id and PR interface id (compat_id)." },
	{ .name = "ps", .path = "ps", .args = "[PORT]", .run = fc_cmd_ps,
	  .help = "Show which processes have a port open: one row per open file of\n"
		  "/dev/fpga-port.N or /dev/dfl-port.N, with its PID, command, fd, port,\n"
		  "client id, the memory it pinned and mapped for DMA (mapped counts its\n"
		  "dma-bufs too), and its interrupts and resets, as the port driver shows\n"
		  "them in /proc/PID/fdinfo/FD; \"-\" for what it does not show.  Sorted\n"
		  "by port, PID and fd; with PORT, only that port's files.  Without root\n"
		  "only your own processes are seen.  The command is escaped as ls -b\n"
		  "escapes names (\\xNN).  A file whose fdinfo cannot be read is left out\n"
		  "with a warning, and the exit status is 1." },
	{ .name = "reset", .path = "reset", .args = "PORT", .run = fc_cmd_reset,
	  .help = "Reset the port and its AFU (DFL_FPGA_PORT_RESET)." },
	{ .name = "mmio", .path = "mmio", .run = fc_run_object,
	  .sub = fc_mmio_cmds },
	{ .name = "dma", .path = "dma", .run = fc_run_object,
	  .sub = fc_dma_cmds },
	{ .name = "errors", .path = "errors", .args = "PORT [--clear]",
	  .run = fc_cmd_errors,
	  .help = "Show the port's error registers; --clear clears the errors that\n"
		  "are set (which resets the port).\n\n"
		  "Options:\n"
		  "  --clear    write the current errors value back to clear it" },
	{ .name = "irq", .path = "irq", .run = fc_run_object,
	  .sub = fc_irq_cmds },
	{ .name = "perf", .path = "perf",
	  .args = "PORT|CARD [--time MS] [-- COMMAND [ARG...]]",
	  .run = fc_cmd_perf,
	  .help = "Count with the card's perf PMU (fpga_pmu_N) while COMMAND runs, or\n"
		  "for MS milliseconds (default 1000), and print every counter: DMA\n"
		  "bytes and lines, interrupts, resets, DMA faults.  A PORT counts that\n"
		  "port; a CARD (fpga_pmu_N, fpga-fme.N or /dev/fpga-fme.N) the whole\n"
		  "card, with its clock.  Needs no perf tool.  Fails if COMMAND does.\n\n"
		  "Options:\n"
		  "  -t, --time MS    count for MS milliseconds (no COMMAND)" },
	{ .name = "trace", .path = "trace",
	  .args = "[PORT] [--time MS] [-- COMMAND [ARG...]]",
	  .run = fc_cmd_trace,
	  .help = "Record the kernel tracepoints of the suite (trace system \"fpga\")\n"
		  "while COMMAND runs, or for MS milliseconds (default 1000), and print\n"
		  "them as one timeline: card add/remove, port reset begin/end, DMA\n"
		  "map/unmap, region mmap, interrupts raised by the card and delivered,\n"
		  "errors raised and cleared, the loopback engine's start and end, UIO\n"
		  "bind/unbind, vgem_ext buffers, PMU events.  With PORT, only that\n"
		  "port's events (and those naming no port).  Through tracefs, in a\n"
		  "private trace instance: needs root, not perf.  Fails if COMMAND does.\n\n"
		  "Options:\n"
		  "  -t, --time MS    trace for MS milliseconds (no COMMAND)" },
	{ .name = "sim", .path = "sim", .run = fc_run_object,
	  .sub = fc_sim_cmds },
	{ .name = "gbs", .path = "gbs", .run = fc_run_object,
	  .sub = fc_gbs_cmds },
	{ .name = "pr", .path = "pr", .args = "FME FILE [port N] [force]",
	  .run = fc_cmd_pr,
	  .help = "Partial reconfiguration: load FILE into port N (its number on the\n"
		  "card, default 0) through the card's FME (DFL_FPGA_FME_PORT_PR), then\n"
		  "print the port, found again (the kernel adds it anew), and its AFU id.\n"
		  "FILE is a GBS (fpgactl gbs make, OPAE's packager): it is checked, its\n"
		  "interface-uuid must be the FME's compat_id, and what follows its\n"
		  "metadata goes to the card, as OPAE's fpgaconf does; or a raw bitstream,\n"
		  "passed whole (a simulated card's is checked against compat_id too).\n"
		  "When the card refuses it, its errors/pr_err is shown decoded.\n\n"
		  "FME is a card number N, fpga-fme.N, dfl-fme.N, fpga_simID, a PCI\n"
		  "address (0000:3b:00.0), /dev/fpga-fme.N, /dev/dfl-fme.N or a sysfs\n"
		  "path.  Needs write access to the FME's node.\n\n"
		  "Keywords:\n"
		  "  port N    the port on the card (0 to its ports_num - 1)\n"
		  "  force     load even if the interface ids differ or the FME has none" },
	{ .name = "buf", .path = "buf", .run = fc_run_object,
	  .sub = fc_buf_cmds },
	{ .name = "bind", .path = "bind", .args = "PORT uio|port",
	  .run = fc_cmd_bind,
	  .help = "Switch the port's driver: uio_fpga (a UIO device /dev/uioX for\n"
		  "user-space drivers) or fpga_port (/dev/fpga-port.N), through\n"
		  "driver_override; loads the driver if needed.  The other commands\n"
		  "work on either." },
	{ .name = "monitor", .path = "monitor",
	  .args = "[--json] [--count N] [--timeout S]", .run = fc_cmd_monitor,
	  .help = "Print the events of the netlink family \"fpga\" as they happen,\n"
		  "one line each with a timestamp: card added/removed, port reset\n"
		  "begin/end, errors cleared, driver bound/unbound, port error\n"
		  "raised and interrupt counts (of bound eventfds, at most one\n"
		  "event per feature every 100 ms).  Ends on SIGINT or SIGTERM.\n\n"
		  "Options:\n"
		  "  --json        one JSON object per event (as -j)\n"
		  "  --count N     end after N events\n"
		  "  --timeout S   end after S seconds" },
	{ .name = "metrics", .path = "metrics", .args = "[--output FILE]",
	  .run = fc_cmd_metrics,
	  .help = "Print every card's and port's state in Prometheus' text format, for\n"
		  "the node exporter's textfile collector: cards and ports with their\n"
		  "AFU and PR interface ids, error registers, the counter bank's DMA\n"
		  "bytes and lines, interrupts, resets and DMA faults (root only), the\n"
		  "FME's temperature and power, and the open files of each port with\n"
		  "the memory they pinned and mapped (from fdinfo).  What cannot be\n"
		  "read is left out, with a warning unless it is simply absent.\n"
		  "Documentation/metrics.md lists the metrics.\n\n"
		  "Options:\n"
		  "  -o, --output FILE   write FILE atomically (a temporary file in its\n"
		  "                      directory, renamed over it), not stdout" },
	{ .name = "cdi", .path = "cdi", .args = "[--output FILE]",
	  .run = fc_cmd_cdi,
	  .help = "Print a Container Device Interface spec (kind fpga-suite.org/port)\n"
		  "for podman, containerd and CRI-O: a device per card, named after its\n"
		  "PCI address with '-' for ':' (0000-3b-00.0), with its FME's and ports'\n"
		  "nodes, and one per port, CARD-portP (P its number on the card), with\n"
		  "/dev/fpga-port.N, /dev/dfl-port.N, its /dev/uioX if bound to uio_fpga\n"
		  "(those that exist) and FPGA_PORT=fpga-port.N.  No port with a node:\n"
		  "no spec (with --output the file is removed).  See\n"
		  "Documentation/containers.md.\n\n"
		  "Options:\n"
		  "  -o, --output FILE   write FILE atomically (/etc/cdi/fpga-suite.json,\n"
		  "                      /var/run/cdi/fpga-suite.json), not stdout" },
	{ .name = "help", .path = "help", .args = "[OBJECT]",
	  .run = fc_cmd_help_top,
	  .help = "Show the commands, or those of OBJECT." },
	{ 0 }
};

static void fc_main_usage(FILE *f)
{
	fprintf(f,
		"Usage: fpgactl [OPTIONS] OBJECT [VERB] [ARGS]\n"
		"       fpgactl help [OBJECT]\n"
		"       fpgactl OBJECT [VERB] --help\n\n"
		"Commands:\n");
	fc_usage_table(f, fc_top_cmds);
	fprintf(f,
		"\n"
		"PORT is N, fpga-port.N, dfl-port.N (the upstream name), their /dev\n"
		"nodes or a sysfs path such as /sys/bus/fpga_dfl/devices/fpga-port.N.\n"
		"FME is card N's FME: N, fpga-fme.N, dfl-fme.N, fpga_simID, a PCI\n"
		"address, their /dev nodes or a sysfs path.\n"
		"Numbers may be decimal, 0x hex or 0 octal; sizes take a K, M or G\n"
		"suffix.\n\n"
		"Options (-j and -p also after OBJECT, VERB or ARGS, before any --):\n"
		"  -j, --json       JSON output\n"
		"  -p, --pretty     pretty-printed JSON output (implies --json)\n"
		"  -V, --version    print the version\n"
		"  -h, --help       this help\n\n"
		"Exit status: 0 done, 1 the operation failed, 2 usage error.\n"
		"See fpgactl(8).\n");
}

static int fc_cmd_help_top(const struct fc_cmd *cmd, int argc, char **argv)
{
	char *help_argv[] = { NULL, "--help", NULL };
	const struct fc_cmd *c;
	bool ambiguous;

	if (argc > 2)
		return fc_usage_err(cmd, "unexpected argument '%s'", argv[2]);
	if (argc < 2) {
		fc_main_usage(stdout);
		return FC_OK;
	}
	/* "fpgactl help mmio" = "fpgactl mmio help" */
	c = fc_find(fc_top_cmds, argv[1], &ambiguous);
	if (!c)
		return fc_usage_err(cmd, "\"%s\" is %s", argv[1],
				    ambiguous ? "ambiguous" : "not a command");
	help_argv[0] = argv[1];
	return c->run(c, 2, help_argv);
}

/* -j/--json, -p/--pretty (and iproute2's -json, -pretty): 1 if @o is one */
static int fc_output_option(const char *o)
{
	if (!strcmp(o, "-j") || !strcmp(o, "--json") || !strcmp(o, "-json")) {
		fc_json = true;
		return 1;
	}
	if (!strcmp(o, "-p") || !strcmp(o, "--pretty") ||
	    !strcmp(o, "-pretty")) {
		fc_json = true;
		fc_pretty = true;
		return 1;
	}
	return 0;
}

/*
 * The output options are taken wherever they are typed, before or after
 * the object and verb ("fpgactl list --json"), as git and kubectl take
 * theirs; they are removed from @argv.  What follows "--" is a command's
 * own (perf, trace) and is left alone.  Returns the new argc.
 */
static int fc_take_output_options(int argc, char **argv)
{
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (!fc_output_option(argv[i]))
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

int main(int argc, char **argv)
{
	int i, ret;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];

		if (fc_output_option(o)) {
			continue;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			fc_main_usage(stdout);
			return FC_OK;
		} else if (!strcmp(o, "-V") || !strcmp(o, "--version")) {
			printf("fpgactl %s\n", FPGACTL_VERSION);
			return FC_OK;
		} else if (!strcmp(o, "--")) {
			i++;
			break;
		} else {
			fc_err("unknown option '%s'", o);
			fprintf(stderr, "Try 'fpgactl help'.\n");
			return FC_USAGE;
		}
	}
	if (i == argc) {
		fc_main_usage(stderr);
		return FC_USAGE;
	}

	argc = i + fc_take_output_options(argc - i, argv + i);
	if (i == argc) {
		fc_main_usage(stderr);
		return FC_USAGE;
	}
	fc_out_begin();
	ret = fc_dispatch("", fc_top_cmds, argc - i, argv + i);
	if (ret == FC_HELP)
		ret = FC_OK;
	if (fc_out_end() && !ret)
		ret = FC_FAIL;
	return ret;
}
