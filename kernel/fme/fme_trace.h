/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_fme tracepoints (trace system "fpga"): perf events of the card's
 * PMU scheduled in and out.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fpga

#if !defined(_FPGA_FME_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FPGA_FME_TRACE_H

#include <linux/perf_event.h>
#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(pmu_event,
		    TP_PROTO(int card, const struct perf_event *event, int flags),
		    TP_ARGS(card, event, flags),
		    TP_STRUCT__entry(__field(int, card)
				     __field(u64, config)
				     __field(int, cpu)
				     __field(int, flags)),
		    TP_fast_assign(__entry->card = card;
				   __entry->config = event->attr.config;
				   __entry->cpu = event->cpu;
				   __entry->flags = flags;),
		    TP_printk("card=%d config=%#llx cpu=%d flags=%#x",
			      __entry->card, __entry->config, __entry->cpu,
			      __entry->flags)
);

DEFINE_EVENT(pmu_event, pmu_add,
	     TP_PROTO(int card, const struct perf_event *event, int flags),
	     TP_ARGS(card, event, flags)
);

DEFINE_EVENT(pmu_event, pmu_del,
	     TP_PROTO(int card, const struct perf_event *event, int flags),
	     TP_ARGS(card, event, flags)
);

#endif /* _FPGA_FME_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE fme_trace
#include <trace/define_trace.h>
