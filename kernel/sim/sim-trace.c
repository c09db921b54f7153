// SPDX-License-Identifier: GPL-2.0-only
/* The one place fpga_sim's tracepoints are instantiated (sim_trace.h) */
#define CREATE_TRACE_POINTS
#include "sim_trace.h"
