/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * fpga_bench_floor: what the kernel cannot do faster, measured in the
 * bench's own boot (selftests/bench, Documentation/benchmarks.md).  The
 * interface of /dev/fpga_bench_floor, for the benchmarks only: the module
 * is never installed or packaged, and this header is no ABI.
 */
#ifndef _FPGA_BENCH_FLOOR_H
#define _FPGA_BENCH_FLOOR_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define FPGA_BENCH_FLOOR_MAGIC	0xBF

/* FPGA_BENCH_FLOOR_BIND_PORT: map for the DMA device of fpga-port.<id> */
#define FPGA_BENCH_FLOOR_BIND_PORT	_IOW(FPGA_BENCH_FLOOR_MAGIC, 0, __u32)

/**
 * struct fpga_bench_floor_pin - what FPGA_BENCH_FLOOR_PIN pins
 * @addr:	user address, page aligned
 * @length:	bytes, a multiple of the page size
 * @flags:	FPGA_BENCH_FLOOR_MAP: also map for the bound port's DMA
 *		device (a scatter table, dma_map_sgtable())
 * @nents:	out, with FPGA_BENCH_FLOOR_MAP: the table's entries, i.e.
 *		the buffer's physical runs; else 0
 */
struct fpga_bench_floor_pin {
	__u64 addr;
	__u64 length;
	__u32 flags;
	__u32 nents;
};

#define FPGA_BENCH_FLOOR_MAP		_BITUL(0)

/* Pin (and map) a buffer; one at a time per open file, else -EBUSY */
#define FPGA_BENCH_FLOOR_PIN	_IOWR(FPGA_BENCH_FLOOR_MAGIC, 1, \
				      struct fpga_bench_floor_pin)
/* Undo FPGA_BENCH_FLOOR_PIN (unmap, unpin); -ENOENT if nothing is pinned */
#define FPGA_BENCH_FLOOR_UNPIN	_IO(FPGA_BENCH_FLOOR_MAGIC, 2)

/**
 * struct fpga_bench_floor_irq - the interrupt floor's answerer
 * @eventfd:	signalled once per doorbell; < 0 stops the answerer
 * @cpu:	the CPU its kernel thread runs on (the card's)
 */
struct fpga_bench_floor_irq {
	__s32 eventfd;
	__u32 cpu;
};

#define FPGA_BENCH_FLOOR_IRQ_BIND	_IOW(FPGA_BENCH_FLOOR_MAGIC, 3, \
					     struct fpga_bench_floor_irq)
/*
 * Answer the next <n> doorbells (__u32): returns once the answerer spins
 * on the doorbell.  It gives up after FPGA_BENCH_FLOOR_IDLE_MS without
 * one.  The doorbell: the first 64-bit word of the page mmap() gives at
 * offset 0; user space writes 1 there, the answerer clears it and
 * signals the eventfd.
 */
#define FPGA_BENCH_FLOOR_IRQ_ARM	_IOW(FPGA_BENCH_FLOOR_MAGIC, 4, __u32)
#define FPGA_BENCH_FLOOR_IDLE_MS	2000

#endif /* _FPGA_BENCH_FLOOR_H */
