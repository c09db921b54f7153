/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uio_fpga tracepoints (trace system "fpga"): a port bound to and unbound
 * from UIO, and its user interrupt reaching the UIO core.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fpga

#if !defined(_FPGA_UIO_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FPGA_UIO_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(uio_port,
		    TP_PROTO(int card, int port, int result),
		    TP_ARGS(card, port, result),
		    TP_STRUCT__entry(__field(int, card)
				     __field(int, port)
				     __field(int, result)),
		    TP_fast_assign(__entry->card = card;
				   __entry->port = port;
				   __entry->result = result;),
		    TP_printk("card=%d port=%d result=%d",
			      __entry->card, __entry->port, __entry->result)
);

DEFINE_EVENT(uio_port, uio_bind,
	     TP_PROTO(int card, int port, int result),
	     TP_ARGS(card, port, result)
);

DEFINE_EVENT(uio_port, uio_unbind,
	     TP_PROTO(int card, int port, int result),
	     TP_ARGS(card, port, result)
);

/* User interrupt 0 of the port handed to UIO (result: 1 if it was on) */
DEFINE_EVENT(uio_port, uio_irq,
	     TP_PROTO(int card, int port, int result),
	     TP_ARGS(card, port, result)
);

#endif /* _FPGA_UIO_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE uio_trace
#include <trace/define_trace.h>
