// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz: a seeded, reproducible, type-aware syscall fuzzer for the
 * suite's kernel interfaces: every ioctl of /dev/fpga-port.N and
 * /dev/fpga-fme.N with arguments built from their structs (interesting
 * values: 0, 1, -1, page boundaries, huge, unaligned; pointers that are
 * NULL, unmapped, read-only or valid), mmap/munmap/touch of the AFU
 * region, DMA maps of anonymous memory, NLB runs at random addresses,
 * eventfd bindings, sysfs writes to every knob, and simulated cards
 * created and deleted under the feet of the other workers (hot-unplug).
 *
 *   fpga_fuzz [-s SEED] [-n CALLS] [-t SECONDS] [-w WORKERS]
 *
 * It prints the seed first; the same seed and worker count replay the same
 * sequence of calls per worker (timing between workers differs).  Exit
 * status: 0 when every worker finished (crashes of the kernel are found by
 * the VM harness in the kernel log), 1 when a worker died of a signal it
 * did not expect.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fpga-dfl.h>

#include "sim_util.h"
#include "nlb_util.h"

#define MAX_FDS		8
#define MAX_MAPS	8
#define CARD_BASE	7000	/* card ids this fuzzer owns */
#define NUM_CARDS	3

/* xorshift64*: small, fast, and the same on every machine */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static const uint64_t interesting[] = {
	0, 1, 2, 7, 8, 63, 64, 4095, 4096, 4097, 65536, 1 << 20,
	256 * 1024, 0x7fffffff, 0x80000000, 0xffffffff, 1ull << 32,
	1ull << 40, 0x7ffffffff000ull, 0xfffffffffffff000ull, ~0ull,
	~0ull - 4095,
};

/* A value of the kind that breaks argument checks */
static uint64_t rnd_value(void)
{
	switch (below(4)) {
	case 0:
		return interesting[below(sizeof(interesting) /
					 sizeof(interesting[0]))];
	case 1:
		return below(16);
	case 2:
		return below(64) << 12;
	default:
		return rnd();
	}
}

struct worker {
	int fds[MAX_FDS];
	void *maps[MAX_MAPS];
	size_t map_len[MAX_MAPS];
	void *anon;		/* 64 pages of ordinary memory */
	void *ro;		/* a read-only page */
	uint64_t iovas[16];
	int efd;
	unsigned long calls;
	unsigned long faults;	/* SIGBUS/SIGSEGV caught on mapped access */
};

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t in_access;

static void on_fault(int sig)
{
	if (in_access)
		siglongjmp(fault_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A pointer argument: mostly valid memory, sometimes not */
static void *rnd_ptr(struct worker *w, size_t need)
{
	switch (below(10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)0x10;	/* unmapped */
	case 2:
		return w->ro;
	case 3:
		return (char *)w->anon + 64 * 4096 - need / 2; /* straddles */
	default:
		return w->anon;
	}
}

static int rnd_fd(struct worker *w)
{
	return w->fds[below(MAX_FDS)];
}

static void do_open(struct worker *w)
{
	char path[64];
	int i = below(MAX_FDS), flags = O_RDWR;

	if (w->fds[i] >= 0)
		close(w->fds[i]);
	snprintf(path, sizeof(path), "/dev/fpga-%s.%llu",
		 below(4) ? "port" : "fme", (unsigned long long)below(8));
	if (!below(8))
		flags |= O_EXCL;
	w->fds[i] = open(path, flags);
}

/* An ioctl of the port or FME ABI with a struct built for it */
static void do_ioctl(struct worker *w)
{
	static const unsigned long cmds[] = {
		DFL_FPGA_GET_API_VERSION, DFL_FPGA_CHECK_EXTENSION,
		DFL_FPGA_PORT_RESET, DFL_FPGA_PORT_GET_INFO,
		DFL_FPGA_PORT_GET_REGION_INFO, DFL_FPGA_PORT_DMA_MAP,
		DFL_FPGA_PORT_DMA_UNMAP, DFL_FPGA_PORT_ERR_GET_IRQ_NUM,
		DFL_FPGA_PORT_ERR_SET_IRQ, DFL_FPGA_PORT_UINT_GET_IRQ_NUM,
		DFL_FPGA_PORT_UINT_SET_IRQ, DFL_FPGA_FME_PORT_PR,
		DFL_FPGA_FME_PORT_RELEASE, DFL_FPGA_FME_PORT_ASSIGN,
		DFL_FPGA_FME_ERR_GET_IRQ_NUM, DFL_FPGA_FME_ERR_SET_IRQ,
	};
	unsigned long cmd = below(20) ? cmds[below(sizeof(cmds) / sizeof(cmds[0]))]
				      : (unsigned long)rnd();
	uint8_t *arg = w->anon;
	int fd = rnd_fd(w);

	/* Fill the argument area with a struct-shaped guess */
	for (int i = 0; i < 8; i++)
		((uint64_t *)arg)[i] = rnd_value();
	switch (cmd) {
	case DFL_FPGA_PORT_DMA_MAP: {
		struct dfl_fpga_port_dma_map *m = (void *)arg;

		m->argsz = below(4) ? sizeof(*m) : rnd_value();
		m->flags = below(3) ? below(4) : rnd_value();
		m->user_addr = below(2) ? (uintptr_t)w->anon + (below(64) << 12)
					: rnd_value();
		m->length = below(2) ? (below(8) + 1) << 12 : rnd_value();
		if (ioctl(fd, cmd, m) == 0)
			w->iovas[below(16)] = m->iova;
		return;
	}
	case DFL_FPGA_PORT_DMA_UNMAP: {
		struct dfl_fpga_port_dma_unmap *u = (void *)arg;

		u->argsz = below(4) ? sizeof(*u) : rnd_value();
		u->flags = below(4) ? 0 : rnd_value();
		u->iova = below(2) ? w->iovas[below(16)] : rnd_value();
		ioctl(fd, cmd, u);
		return;
	}
	case DFL_FPGA_PORT_ERR_SET_IRQ:
	case DFL_FPGA_PORT_UINT_SET_IRQ:
	case DFL_FPGA_FME_ERR_SET_IRQ: {
		struct dfl_fpga_irq_set *s = (void *)arg;

		s->start = below(3) ? below(5) : rnd_value();
		s->count = below(3) ? below(5) : rnd_value();
		for (int i = 0; i < 4; i++)
			s->evtfds[i] = below(3) ? w->efd : (int)rnd_value();
		ioctl(fd, cmd, s);
		return;
	}
	case DFL_FPGA_PORT_GET_INFO:
	case DFL_FPGA_PORT_GET_REGION_INFO:
		((uint32_t *)arg)[0] = below(4) ? 32 : rnd_value();
		((uint32_t *)arg)[2] = below(3);
		ioctl(fd, cmd, below(8) ? (void *)arg : rnd_ptr(w, 32));
		return;
	default:
		ioctl(fd, cmd, below(2) ? (unsigned long)rnd_value()
				       : (unsigned long)rnd_ptr(w, 64));
	}
}

static void do_mmap(struct worker *w)
{
	int i = below(MAX_MAPS);
	size_t len = below(2) ? 4096ull << below(7) : rnd_value() & 0xffffff;
	off_t off = below(2) ? (off_t)(below(64) << 12) : (off_t)rnd_value();
	void *p;

	if (w->maps[i])
		munmap(w->maps[i], w->map_len[i]);
	w->maps[i] = NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 below(6) ? MAP_SHARED : MAP_PRIVATE, rnd_fd(w), off);
	if (p != MAP_FAILED) {
		w->maps[i] = p;
		w->map_len[i] = len;
	}
}

/* Touch a mapping: may fault once the port is gone, which is fine */
static void do_touch(struct worker *w)
{
	int i = below(MAX_MAPS);
	volatile uint64_t *p = w->maps[i];
	size_t n;

	if (!p)
		return;
	n = w->map_len[i] / 8;
	in_access = 1;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		size_t k = below(n);

		/* Mostly harmless registers; sometimes the NLB's */
		if (below(2))
			(void)p[k];
		else if (k >= 0x1000 / 8 || below(4) == 0)
			p[k] = rnd_value();
	} else {
		w->faults++;
	}
	in_access = 0;
}

/* Start the NLB with addresses that are mapped, or not */
static void do_nlb(struct worker *w)
{
	volatile uint64_t *afu = NULL;

	for (int i = 0; i < MAX_MAPS && !afu; i++)
		if (w->maps[i] && w->map_len[i] >= 0x1000)
			afu = w->maps[i];
	if (!afu)
		return;
	in_access = 1;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		afu[0x138 / 8] = 0;
		afu[0x110 / 8] = below(2) ? w->iovas[below(16)] : rnd_value();
		afu[0x138 / 8] = 1;
		afu[0x120 / 8] = (below(2) ? w->iovas[below(16)] : rnd_value()) >> 6;
		afu[0x128 / 8] = (below(2) ? w->iovas[below(16)] : rnd_value()) >> 6;
		afu[0x130 / 8] = below(3) ? below(64) : rnd_value();
		afu[0x140 / 8] = 0x42000 | (below(2) << 28);
		afu[0x138 / 8] = 3;
	} else {
		w->faults++;
	}
	in_access = 0;
}

static void do_sysfs(void)
{
	static const char *const files[] = {
		"reset", "errors/errors", "driver_override",
	};
	static const char *const sim_files[] = {
		"fail_reset_ack", "port0/inject_error", "port0/fail_dma",
		"port1/inject_error",
	};
	static const char *const vals[] = {
		"1", "0", "0x1", "-1", "y", "", "\n", "18446744073709551615",
		"99999999999999999999", "0x8000000000000000", "fpga_port",
	};
	char path[256];
	const char *val = vals[below(sizeof(vals) / sizeof(vals[0]))];

	if (below(2)) {
		snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%llu/%s",
			 (unsigned long long)below(8),
			 files[below(sizeof(files) / sizeof(files[0]))]);
	} else {
		snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%llu/%s",
			 (unsigned long long)(CARD_BASE + below(NUM_CARDS)),
			 sim_files[below(sizeof(sim_files) / sizeof(sim_files[0]))]);
	}
	/* Never leave a port overridden away from its driver for long */
	if (strstr(path, "driver_override"))
		val = below(2) ? "\n" : "fpga_port";
	sysfs_write(path, val);
}

/* Hot-unplug: a card disappears and comes back, whatever is open */
static void do_card(void)
{
	unsigned int id = CARD_BASE + below(NUM_CARDS);

	if (below(2))
		sim_del(id);
	else
		sim_add(id, 1 + below(4));
}

static void do_dma_anon(struct worker *w)
{
	void *va = (char *)w->anon + (below(56) << 12);
	uint64_t iova = 0;

	if (!dma_map(rnd_fd(w), va, (1 + below(8)) << 12, below(4), &iova))
		w->iovas[below(16)] = iova;
}

static void worker_run(int idx, uint64_t seed, unsigned long calls,
		       double deadline)
{
	struct worker w = { .efd = eventfd(0, EFD_NONBLOCK) };
	struct sigaction sa = { .sa_handler = on_fault };

	rng_state = seed * 0x9e3779b97f4a7c15ull + idx + 1;
	for (int i = 0; i < MAX_FDS; i++)
		w.fds[i] = -1;
	w.anon = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	w.ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w.anon == MAP_FAILED || w.ro == MAP_FAILED)
		_exit(2);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);

	while (w.calls < calls && now_ms() < deadline) {
		switch (below(100)) {
		case 0 ... 9:
			do_open(&w);
			break;
		case 10 ... 54:
			do_ioctl(&w);
			break;
		case 55 ... 64:
			do_mmap(&w);
			break;
		case 65 ... 79:
			do_touch(&w);
			break;
		case 80 ... 84:
			do_nlb(&w);
			break;
		case 85 ... 89:
			do_dma_anon(&w);
			break;
		case 90 ... 97:
			do_sysfs();
			break;
		default:
			if (idx == 0)	/* one worker unplugs */
				do_card();
			else
				do_sysfs();
		}
		w.calls++;
	}
	printf("# worker %d: %lu calls, %lu faults caught\n", idx, w.calls,
	       w.faults);
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned long calls = 20000;
	double seconds = 60;
	uint64_t seed = time(NULL) ^ getpid();
	int workers = 3, opt, failed = 0, i;
	double deadline;

	while ((opt = getopt(argc, argv, "s:n:t:w:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			calls = strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			break;
		case 'w':
			workers = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n CALLS] [-t SECONDS] [-w WORKERS]\n",
				argv[0]);
			return 2;
		}
	}
	if (workers < 1 || workers > 16)
		workers = 3;
	printf("# fpga_fuzz seed %llu, %d workers, %lu calls each, %.0f s at most\n",
	       (unsigned long long)seed, workers, calls, seconds);
	printf("# replay: fpga_fuzz -s %llu -w %d -n %lu\n",
	       (unsigned long long)seed, workers, calls);
	fflush(stdout);

	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"))
		return 4;
	for (i = 0; i < NUM_CARDS; i++)
		sim_add(CARD_BASE + i, 2);

	deadline = now_ms() + seconds * 1000;
	for (i = 0; i < workers; i++)
		if (fork() == 0)
			worker_run(i, seed, calls, deadline);
	for (i = 0; i < workers; i++) {
		int st;

		if (wait(&st) < 0)
			break;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("# a worker died: %s %d\n",
			       WIFSIGNALED(st) ? "signal" : "exit",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			failed = 1;
		}
	}

	/* Everything must still come apart cleanly */
	for (i = 0; i < NUM_CARDS; i++)
		sim_del(CARD_BASE + i);
	if (unload_suite_modules()) {
		printf("# modules could not be unloaded after fuzzing\n");
		failed = 1;
	}
	printf("# fpga_fuzz seed %llu: %s\n", (unsigned long long)seed,
	       failed ? "FAILED" : "done");
	return failed;
}
