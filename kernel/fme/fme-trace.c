// SPDX-License-Identifier: GPL-2.0-only
/* The one place fpga_fme's tracepoints are instantiated (fme_trace.h) */
#define CREATE_TRACE_POINTS
#include "fme_trace.h"
