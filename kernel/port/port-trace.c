// SPDX-License-Identifier: GPL-2.0-only
/* The one place fpga_port's tracepoints are instantiated (port_trace.h) */
#define CREATE_TRACE_POINTS
#include "port_trace.h"
