/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_dfl tracepoints (trace system "fpga"): cards, port resets,
 * programmings and interrupts delivered to eventfds.  Only integers are recorded: nothing
 * is formatted unless someone reads the trace.
 *
 * The suite's trace headers are named foo_trace.h, not foo-trace.h:
 * TRACE_INCLUDE_FILE is a bare token and cannot hold a '-'.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fpga

#if !defined(_FPGA_DFL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FPGA_DFL_TRACE_H

#include <linux/tracepoint.h>

#include <fpga-suite/dfl-core.h>

TRACE_EVENT(card_add,
	    TP_PROTO(int card, unsigned int ports, bool fme),
	    TP_ARGS(card, ports, fme),
	    TP_STRUCT__entry(__field(int, card)
			     __field(unsigned int, ports)
			     __field(bool, fme)),
	    TP_fast_assign(__entry->card = card;
			   __entry->ports = ports;
			   __entry->fme = fme;),
	    TP_printk("card=%d ports=%u fme=%d",
		      __entry->card, __entry->ports, __entry->fme)
);

TRACE_EVENT(card_remove,
	    TP_PROTO(int card),
	    TP_ARGS(card),
	    TP_STRUCT__entry(__field(int, card)),
	    TP_fast_assign(__entry->card = card;),
	    TP_printk("card=%d", __entry->card)
);

TRACE_EVENT(port_reset_begin,
	    TP_PROTO(const struct fpga_dfl_device *fdev),
	    TP_ARGS(fdev),
	    TP_STRUCT__entry(__field(int, card)
			     __field(int, port)),
	    TP_fast_assign(__entry->card = fdev->card_id;
			   __entry->port = fdev->id;),
	    TP_printk("card=%d port=%d", __entry->card, __entry->port)
);

TRACE_EVENT(port_reset_end,
	    TP_PROTO(const struct fpga_dfl_device *fdev, int result, u64 start_ns),
	    TP_ARGS(fdev, result, start_ns),
	    TP_STRUCT__entry(__field(int, card)
			     __field(int, port)
			     __field(int, result)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->card = fdev->card_id;
			   __entry->port = fdev->id;
			   __entry->result = result;
			   __entry->duration_ns = ktime_get_ns() - start_ns;),
	    TP_printk("card=%d port=%d result=%d duration_ns=%llu",
		      __entry->card, __entry->port, __entry->result,
		      __entry->duration_ns)
);

/* Partial reconfiguration of a port (dfl-program.c) */
TRACE_EVENT(port_program_begin,
	    TP_PROTO(int card, unsigned int port_num),
	    TP_ARGS(card, port_num),
	    TP_STRUCT__entry(__field(int, card)
			     __field(unsigned int, port_num)),
	    TP_fast_assign(__entry->card = card;
			   __entry->port_num = port_num;),
	    TP_printk("card=%d port_num=%u", __entry->card, __entry->port_num)
);

TRACE_EVENT(port_program_end,
	    TP_PROTO(int card, unsigned int port_num,
		     const struct fpga_dfl_device *port, int result,
		     u64 start_ns),
	    TP_ARGS(card, port_num, port, result, start_ns),
	    TP_STRUCT__entry(__field(int, card)
			     __field(unsigned int, port_num)
			     __field(int, port)
			     __field(u64, afu_guid_h)
			     __field(u64, afu_guid_l)
			     __field(int, result)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->card = card;
			   __entry->port_num = port_num;
			   __entry->port = port ? port->id : -1;
			   __entry->afu_guid_h = port ? port->afu_guid_h : 0;
			   __entry->afu_guid_l = port ? port->afu_guid_l : 0;
			   __entry->result = result;
			   __entry->duration_ns = ktime_get_ns() - start_ns;),
	    TP_printk("card=%d port_num=%u port=%d afu=%016llx%016llx result=%d duration_ns=%llu",
		      __entry->card, __entry->port_num, __entry->port,
		      __entry->afu_guid_h, __entry->afu_guid_l,
		      __entry->result, __entry->duration_ns)
);

/* An interrupt of a feature reached its eventfd (error or user vector) */
TRACE_EVENT(irq_deliver,
	    TP_PROTO(const struct fpga_dfl_irq *dirq),
	    TP_ARGS(dirq),
	    TP_STRUCT__entry(__field(int, card)
			     __field(u16, fiu)
			     __field(int, dev)
			     __field(u16, feature)
			     __field(unsigned int, vector)
			     __field(int, irq)),
	    TP_fast_assign(__entry->card = dirq->owner->fdev->card_id;
			   __entry->fiu = dirq->owner->fdev->fiu_id;
			   __entry->dev = dirq->owner->fdev->id;
			   __entry->feature = dirq->owner->feature_id;
			   __entry->vector = dirq - dirq->owner->irqs;
			   __entry->irq = dirq->irq;),
	    TP_printk("card=%d %s=%d feature=%#x vector=%u irq=%d",
		      __entry->card,
		      __entry->fiu == DFH_ID_FIU_PORT ? "port" : "fme",
		      __entry->dev, __entry->feature, __entry->vector,
		      __entry->irq)
);

#endif /* _FPGA_DFL_TRACE_H */

/* Out of tree: define_trace.h finds this header next to dfl-trace.c */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE dfl_trace
#include <trace/define_trace.h>
