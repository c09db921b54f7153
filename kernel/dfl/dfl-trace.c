// SPDX-License-Identifier: GPL-2.0-only
/* The one place fpga_dfl's tracepoints are instantiated (dfl_trace.h) */
#define CREATE_TRACE_POINTS
#include "dfl_trace.h"
