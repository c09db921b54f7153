// SPDX-License-Identifier: GPL-2.0-only
/* The one place uio_fpga's tracepoints are instantiated (uio_trace.h) */
#define CREATE_TRACE_POINTS
#include "uio_trace.h"
