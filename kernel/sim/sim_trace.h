/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_sim tracepoints (trace system "fpga"): what the simulated hardware
 * does.  "sim" is the card's fpga_sim id and "port" the port's index on
 * that card.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fpga

#if !defined(_FPGA_SIM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FPGA_SIM_TRACE_H

#include <linux/ktime.h>
#include <linux/tracepoint.h>

#include "sim.h"

TRACE_EVENT(engine_start,
	    TP_PROTO(const struct fpga_sim *sim, unsigned int n, u64 src_line,
		     u64 dst_line, u64 lines),
	    TP_ARGS(sim, n, src_line, dst_line, lines),
	    TP_STRUCT__entry(__field(unsigned int, sim)
			     __field(unsigned int, port)
			     __field(u64, src)
			     __field(u64, dst)
			     __field(u64, lines)),
	    TP_fast_assign(__entry->sim = sim->id;
			   __entry->port = n;
			   __entry->src = src_line * NLB_CACHE_LINE;
			   __entry->dst = dst_line * NLB_CACHE_LINE;
			   __entry->lines = lines;),
	    TP_printk("sim=%u port=%u src=%#llx dst=%#llx lines=%llu",
		      __entry->sim, __entry->port, __entry->src, __entry->dst,
		      __entry->lines)
);

TRACE_EVENT(engine_complete,
	    TP_PROTO(const struct fpga_sim *sim, unsigned int n, u64 lines,
		     u64 bytes, int result, ktime_t start),
	    TP_ARGS(sim, n, lines, bytes, result, start),
	    TP_STRUCT__entry(__field(unsigned int, sim)
			     __field(unsigned int, port)
			     __field(u64, lines)
			     __field(u64, bytes)
			     __field(int, result)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->sim = sim->id;
			   __entry->port = n;
			   __entry->lines = lines;
			   __entry->bytes = bytes;
			   __entry->result = result;
			   __entry->duration_ns = ktime_to_ns(ktime_sub(ktime_get(), start));),
	    TP_printk("sim=%u port=%u lines=%llu bytes=%llu result=%d duration_ns=%llu",
		      __entry->sim, __entry->port, __entry->lines, __entry->bytes,
		      __entry->result, __entry->duration_ns)
);

/* The PR engine ended a programming of port @n: @err is PR_ERR */
TRACE_EVENT(pr_end,
	    TP_PROTO(const struct fpga_sim *sim, unsigned int n, size_t len,
		     u64 err, const struct fpga_sim_afu_model *model),
	    TP_ARGS(sim, n, len, err, model),
	    TP_STRUCT__entry(__field(unsigned int, sim)
			     __field(unsigned int, port)
			     __field(size_t, len)
			     __field(u64, err)
			     __field(u64, afu_guid_h)
			     __field(u64, afu_guid_l)),
	    TP_fast_assign(__entry->sim = sim->id;
			   __entry->port = n;
			   __entry->len = len;
			   __entry->err = err;
			   __entry->afu_guid_h = model ? model->guid_h : 0;
			   __entry->afu_guid_l = model ? model->guid_l : 0;),
	    TP_printk("sim=%u port=%u len=%zu pr_err=%#llx afu=%016llx%016llx",
		      __entry->sim, __entry->port, __entry->len, __entry->err,
		      __entry->afu_guid_h, __entry->afu_guid_l)
);

/*
 * The card raises vector @vec of its irq domain: a port's error interrupt,
 * a port's user interrupt (vector = its index in the UINT feature) or the
 * FME's error interrupt
 */
TRACE_EVENT(irq_raise,
	    TP_PROTO(const struct fpga_sim *sim, unsigned int vec),
	    TP_ARGS(sim, vec),
	    TP_STRUCT__entry(__field(unsigned int, sim)
			     __field(unsigned int, vec)
			     __field(unsigned int, port)
			     __field(unsigned int, vector)
			     __field(u8, source)),
	    TP_fast_assign(__entry->sim = sim->id;
			   __entry->vec = vec;
			   __entry->port = vec / FPGA_SIM_VECS_PER_PORT;
			   __entry->vector = vec % FPGA_SIM_VECS_PER_PORT;
			   __entry->source = __entry->vector ? 1 : 0;
			   __entry->vector -= __entry->source;
			   __entry->source += 2 * (vec == FPGA_SIM_FME_ERR_VEC(sim->num_ports));),
	    TP_printk("sim=%u hwirq=%u source=%s port=%u vector=%u",
		      __entry->sim, __entry->vec,
		      __print_symbolic(__entry->source, { 0, "port-error" },
				       { 1, "user" }, { 2, "fme-error" }),
		      __entry->port, __entry->vector)
);

/* Port errors detected: @bits, and PORT_ERROR as it now reads */
TRACE_EVENT(error_raise,
	    TP_PROTO(const struct fpga_sim *sim, unsigned int n, u64 bits,
		     u64 reg),
	    TP_ARGS(sim, n, bits, reg),
	    TP_STRUCT__entry(__field(unsigned int, sim)
			     __field(unsigned int, port)
			     __field(u64, bits)
			     __field(u64, reg)),
	    TP_fast_assign(__entry->sim = sim->id;
			   __entry->port = n;
			   __entry->bits = bits;
			   __entry->reg = reg;),
	    TP_printk("sim=%u port=%u bits=%#llx port_error=%#llx",
		      __entry->sim, __entry->port, __entry->bits, __entry->reg)
);

#endif /* _FPGA_SIM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sim_trace
#include <trace/define_trace.h>
