/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_port tracepoints (trace system "fpga"): DMA mappings, AFU region
 * mmaps and port errors cleared.  "port" is the N of /dev/fpga-port.N.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fpga

#if !defined(_FPGA_PORT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FPGA_PORT_TRACE_H

#include <linux/tracepoint.h>

#include "port.h"

DECLARE_EVENT_CLASS(port_dma,
		    TP_PROTO(const struct fpga_port *port, const struct fpga_port_dma *dma),
		    TP_ARGS(port, dma),
		    TP_STRUCT__entry(__field(int, port)
				     __field(u64, iova)
				     __field(u64, length)
				     __field(u64, pages)
				     __field(pid_t, owner)
				     __field(bool, dmabuf)),
		    TP_fast_assign(__entry->port = port->id;
				   __entry->iova = dma->iova;
				   __entry->length = dma->length;
				   __entry->pages = dma->length >> PAGE_SHIFT;
				   __entry->owner = dma->owner;
				   __entry->dmabuf = dma->kind == FPGA_PORT_DMA_DMABUF;),
		    TP_printk("port=%d iova=%#llx length=%llu pages=%llu owner=%d kind=%s",
			      __entry->port, __entry->iova, __entry->length,
			      __entry->pages, __entry->owner,
			      __entry->dmabuf ? "dmabuf" : "user")
);

DEFINE_EVENT(port_dma, dma_map,
	     TP_PROTO(const struct fpga_port *port, const struct fpga_port_dma *dma),
	     TP_ARGS(port, dma)
);

DEFINE_EVENT(port_dma, dma_unmap,
	     TP_PROTO(const struct fpga_port *port, const struct fpga_port_dma *dma),
	     TP_ARGS(port, dma)
);

TRACE_EVENT(region_mmap,
	    TP_PROTO(const struct fpga_port *port, u64 offset, u64 size, int result),
	    TP_ARGS(port, offset, size, result),
	    TP_STRUCT__entry(__field(int, port)
			     __field(u64, offset)
			     __field(u64, size)
			     __field(int, result)),
	    TP_fast_assign(__entry->port = port->id;
			   __entry->offset = offset;
			   __entry->size = size;
			   __entry->result = result;),
	    TP_printk("port=%d region=0 offset=%#llx size=%#llx result=%d",
		      __entry->port, __entry->offset, __entry->size,
		      __entry->result)
);

/* PORT_ERROR was @value and the port driver cleared it */
TRACE_EVENT(error_clear,
	    TP_PROTO(const struct fpga_port *port, u64 value, int result),
	    TP_ARGS(port, value, result),
	    TP_STRUCT__entry(__field(int, port)
			     __field(u64, value)
			     __field(int, result)),
	    TP_fast_assign(__entry->port = port->id;
			   __entry->value = value;
			   __entry->result = result;),
	    TP_printk("port=%d port_error=%#llx result=%d",
		      __entry->port, __entry->value, __entry->result)
);

/* A user interrupt reached the DMA fences (before any of them signals) */
TRACE_EVENT(fence_irq,
	    TP_PROTO(const struct fpga_port *port, unsigned int vector),
	    TP_ARGS(port, vector),
	    TP_STRUCT__entry(__field(int, port)
			     __field(unsigned int, vector)),
	    TP_fast_assign(__entry->port = port->id;
			   __entry->vector = vector;),
	    TP_printk("port=%d vector=%u", __entry->port, __entry->vector)
);

#endif /* _FPGA_PORT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE port_trace
#include <trace/define_trace.h>
