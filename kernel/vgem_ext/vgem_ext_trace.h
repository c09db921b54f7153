/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vgem_ext tracepoints, in the suite's trace system "fpga": buffers
 * created, exported as dma-bufs and imported from them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fpga

#if !defined(_VGEM_EXT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _VGEM_EXT_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(vgem_create,
	    TP_PROTO(u32 handle, u64 size, u32 flags, int result),
	    TP_ARGS(handle, size, flags, result),
	    TP_STRUCT__entry(__field(u32, handle)
			     __field(u64, size)
			     __field(u32, flags)
			     __field(int, result)
			     __field(pid_t, pid)),
	    TP_fast_assign(__entry->handle = handle;
			   __entry->size = size;
			   __entry->flags = flags;
			   __entry->result = result;
			   __entry->pid = task_tgid_nr(current);),
	    TP_printk("handle=%u size=%llu flags=%#x result=%d pid=%d",
		      __entry->handle, __entry->size, __entry->flags,
		      __entry->result, __entry->pid)
);

DECLARE_EVENT_CLASS(vgem_prime,
		    TP_PROTO(u32 handle, int fd, int result),
		    TP_ARGS(handle, fd, result),
		    TP_STRUCT__entry(__field(u32, handle)
				     __field(int, fd)
				     __field(int, result)),
		    TP_fast_assign(__entry->handle = handle;
				   __entry->fd = fd;
				   __entry->result = result;),
		    TP_printk("handle=%u fd=%d result=%d",
			      __entry->handle, __entry->fd, __entry->result)
);

DEFINE_EVENT(vgem_prime, vgem_export,
	     TP_PROTO(u32 handle, int fd, int result),
	     TP_ARGS(handle, fd, result)
);

DEFINE_EVENT(vgem_prime, vgem_import,
	     TP_PROTO(u32 handle, int fd, int result),
	     TP_ARGS(handle, fd, result)
);

#endif /* _VGEM_EXT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vgem_ext_trace
#include <trace/define_trace.h>
