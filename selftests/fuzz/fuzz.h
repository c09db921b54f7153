/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_fuzz: what the concerns (fuzz-port.c, fuzz-uio.c, ...) share: the
 * seeded generator, values and pointers of the kinds that break argument
 * checks, the per-worker state, and access to mappings that may be
 * revoked under us.
 */
#ifndef _FPGA_FUZZ_H
#define _FPGA_FUZZ_H

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_FDS		8
#define MAX_MAPS	8
#define CARD_BASE	7000	/* card ids this fuzzer owns */
#define NUM_CARDS	3
#define ANON_PAGES	64
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* The concerns, for -c and the per-concern call counts */
enum fuzz_area {
	AREA_PORT, AREA_SYSFS, AREA_UIO, AREA_VGEM, AREA_PERF, AREA_NETLINK,
	AREA_NUM
};

extern const char *const fuzz_area_names[AREA_NUM];

/* A mapping of a device, which unplug may revoke (SIGBUS) */
struct fuzz_map {
	void *p;
	size_t len;
	int writable;	/* the fuzzer may store to it (a policy) */
	int prot;	/* as mapped: without PROT_WRITE, nobody may store */
};

struct worker {
	int idx;
	/* port and FME nodes */
	int fds[MAX_FDS];
	struct fuzz_map maps[MAX_MAPS];
	uint64_t iovas[16];
	int efd;
	/* UIO devices of ports bound to uio_fpga */
	int uio_fds[4];
	struct fuzz_map uio_maps[4];
	/* vgem_ext: DRM files, GEM handles, dma-bufs, fences, mappings */
	int drm_fds[3];
	int vgem_fd;		/* Debian's vgem, a foreign exporter */
	uint32_t handles[16];
	uint32_t fences[8];
	int dmabufs[8];
	struct fuzz_map bo_maps[4];
	/* perf events of fpga_pmu_N */
	int perf_fds[8];
	/* generic netlink sockets; family id of "fpga" */
	int nl_fds[2];
	int nl_family;
	/* ordinary memory for arguments and DMA */
	void *anon;
	void *ro;
	unsigned long calls[AREA_NUM];
	unsigned long ok[AREA_NUM];	/* calls the kernel accepted */
	double ms[AREA_NUM];		/* wall time spent in each */
	unsigned long faults;	/* SIGBUS/SIGSEGV caught on mapped access */
	int mem_fd;		/* /proc/self/mem, for a debugger's access */
	unsigned long ro_written;	/* remote writes into read-only maps */
};

/* 0 (-R): DFL_FPGA_FME_PORT_PR only with arguments it refuses */
extern int fuzz_reprogram;

/* xorshift64*, seeded per worker in fuzz-core.c */
uint64_t rnd(void);
void rnd_seed(uint64_t seed, int idx);

static inline uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static inline int one_in(uint64_t n)
{
	return below(n) == 0;
}

uint64_t rnd_value(void);
void *rnd_ptr(struct worker *w, size_t need);
void rnd_fill(void *buf, size_t len);

/* A byte of @m at a random place, read or written; 0 or 1 if it faulted */
int fuzz_touch(struct worker *w, struct fuzz_map *m);
void fuzz_unmap(struct fuzz_map *m);
void fuzz_remote(struct worker *w, struct fuzz_map *m, int area,
		 size_t may_write_from);
void fuzz_close(int *fd);

/*
 * Accesses to device mappings run with in_access set, after
 * sigsetjmp(fault_jmp): a SIGBUS or SIGSEGV there (a mapping revoked by
 * unplug) jumps back and is counted, anywhere else it kills the worker as
 * it should.
 */
extern sigjmp_buf fault_jmp;
extern volatile sig_atomic_t in_access;

/* Count a call the kernel accepted: the fuzzer got past the checks */
#define FUZZ_OK(w, area, ret)	((w)->ok[area] += (ret) >= 0)

/* One call of each concern; each returns after one syscall or a few */
void fuzz_port(struct worker *w);
void fuzz_sysfs(struct worker *w);
void fuzz_unplug(struct worker *w);
void fuzz_uio(struct worker *w);
void fuzz_vgem(struct worker *w);
void fuzz_perf(struct worker *w);
void fuzz_netlink(struct worker *w);

/* Set-up in the parent before the workers start; fuzz-netlink.c */
int nl_family_id(void);

#endif /* _FPGA_FUZZ_H */
