// SPDX-License-Identifier: GPL-2.0-only
/* The one place fpga_dfl's tracepoints are instantiated (dfl-trace.h) */
#define CREATE_TRACE_POINTS
#include "dfl-trace.h"
