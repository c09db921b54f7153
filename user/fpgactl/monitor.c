// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl monitor: the events of the netlink group "events" as they
 * happen, one line (or one JSON object) each with a timestamp, like
 * "ip monitor".  Ends on SIGINT/SIGTERM, after --count events or after
 * --timeout seconds.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "fpgactl.h"

static volatile sig_atomic_t fc_monitor_stop;

static void fc_monitor_signal(int sig)
{
	(void)sig;
	fc_monitor_stop = 1;
}

struct fc_monitor {
	uint64_t seen;
	bool failed;
};

static void fc_monitor_print(const struct fpga_nl_event *ev, void *arg)
{
	struct fc_monitor *m = arg;
	char ts[64], frac[24];
	struct timespec now;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(frac, sizeof(frac), ".%06u",
		 (unsigned int)(now.tv_nsec / 1000) % 1000000);
	strncat(ts, frac, sizeof(ts) - strlen(ts) - 1);

	fc_obj_open(NULL);
	fc_str("time", "[%s]", ts);
	fc_str("event", " %s", ev->what);
	if (ev->dev[0])
		fc_str("dev", " %s", ev->dev);
	if (ev->card_id >= 0)
		fc_int("card_id", " card %" PRId64, ev->card_id);
	if (ev->card[0])
		fc_str("card", " (%s)", ev->card);
	if (ev->has_num_ports)
		fc_u64("ports", " ports %" PRIu64, ev->num_ports);
	/* A port by its number: released, assigned, or held by a VF */
	if (ev->has_port_num)
		fc_u64("port_num", " port %" PRIu64, ev->port_num);
	if (ev->driver[0])
		fc_str("driver", " driver %s", ev->driver);
	if (ev->has_result) {
		fc_int("result", " result %" PRId64, ev->result);
		if (ev->result)
			fc_str("error", " (%s)", strerror(-ev->result));
	}
	if (ev->has_errors)
		fc_hex("errors", " errors 0x%" PRIx64, ev->errors);
	if (ev->has_irq) {
		fc_hex("feature", " feature 0x%" PRIx64, ev->feature_id);
		fc_u64("vector", " vector %" PRIu64, ev->vector);
		fc_u64("count", " count %" PRIu64, ev->irq_count);
	}
	fc_text("\n");
	fc_obj_close();
	/* One line per event, out now: the document is this event */
	if (fc_out_end())
		m->failed = true;
	m->seen++;
}

int fc_cmd_monitor(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *count_s = NULL, *timeout_s = NULL;
	bool json = false, count_set = false, timeout_set = false;
	const struct fc_opt opts[] = {
		{ "count", 'c', &count_s, &count_set },
		{ "timeout", 't', &timeout_s, &timeout_set },
		{ "json", 'j', NULL, &json },
		{ 0 }
	};
	struct fc_monitor m = { 0 };
	struct fpga_nl_monitor *mon;
	struct sigaction sa = { .sa_handler = fc_monitor_signal };
	uint64_t count = 0, timeout = 0;
	struct timespec end, now;
	struct fc_args a;
	int ret, rd;

	ret = fc_parse_args(cmd, argc, argv, opts, 0, 0, &a);
	if (!ret && count_set)
		ret = fc_parse_u64(cmd, "--count", count_s, UINT64_MAX, &count);
	if (!ret && timeout_set)
		ret = fc_parse_u64(cmd, "--timeout", timeout_s, 86400 * 365,
				   &timeout);
	if (ret)
		return ret;
	if (json)
		fc_json = true;

	/*
	 * Before the socket: a signal while it opens (a slow host) still
	 * ends the monitor cleanly.  No SA_RESTART: poll() returns at once
	 * with EINTR.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (fpga_nl_monitor_open(&mon, fc_monitor_print, &m))
		return fc_lib_err();
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout;

	ret = FC_OK;
	while (!fc_monitor_stop && (!count || m.seen < count) && !m.failed) {
		struct pollfd pfd = { .fd = fpga_nl_monitor_fd(mon),
				      .events = POLLIN };
		int wait = -1;

		if (timeout) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > end.tv_sec ||
			    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
				break;
			wait = (end.tv_sec - now.tv_sec) * 1000 +
			       (end.tv_nsec - now.tv_nsec) / 1000000 + 1;
		}
		if (poll(&pfd, 1, wait) < 0) {
			if (errno == EINTR)
				continue;
			fc_err("poll: %s", strerror(errno));
			ret = FC_FAIL;
			break;
		}
		if (!(pfd.revents & POLLIN))
			continue;
		/* Lost events are told, and listening goes on */
		rd = fpga_nl_monitor_read(mon);
		if (rd == -ENOBUFS) {
			fc_err("%s", fpga_errmsg());
		} else if (rd) {
			ret = fc_lib_err();
			break;
		}
	}
	fpga_nl_monitor_close(mon);
	if (m.failed)
		ret = FC_FAIL;
	return ret;
}
