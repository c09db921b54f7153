// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz: a seeded, reproducible, type-aware syscall fuzzer for the
 * suite's kernel interfaces.  This file is the core: the generator, the
 * workers and their choice of concern, and the checks at the end.  The
 * concerns are one file each: fuzz-port.c (port and FME nodes),
 * fuzz-sysfs.c (sysfs knobs, driver switching, hot-unplug), fuzz-uio.c,
 * fuzz-vgem.c, fuzz-perf.c (fpga_pmu_N) and fuzz-netlink.c (family "fpga").
 *
 *   fpga_fuzz [-s SEED] [-n CALLS] [-t SECONDS] [-w WORKERS] [-c AREAS]
 *
 * It prints the seed first and the call counts last.  The same seed and
 * worker count replay the same sequence of calls per worker; with -w 1
 * (no unplug from a second process) a run replays exactly, as far as the
 * kernel answers the same.  Exit status: 0 when every worker finished and
 * the suite still works afterwards (a fresh card copies data, the modules
 * unload); 1 otherwise.  Kernel splats are found by the VM harness in the
 * kernel log.
 */
#define _GNU_SOURCE		/* process_vm_readv(), process_vm_writev() */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "sim_util.h"
#include "nlb_util.h"
#include "uio_util.h"

#define MAX_WORKERS	16

const char *const fuzz_area_names[AREA_NUM] = {
	"port", "sysfs", "uio", "vgem", "perf", "netlink",
};

/* How often each concern is picked, out of their sum */
static const unsigned int area_weight[AREA_NUM] = {
	[AREA_PORT] = 30, [AREA_SYSFS] = 10, [AREA_UIO] = 15,
	[AREA_VGEM] = 20, [AREA_PERF] = 13, [AREA_NETLINK] = 12,
};

static uint64_t rng_state;

uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

void rnd_seed(uint64_t seed, int idx)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + idx + 1;
}

static const uint64_t interesting[] = {
	0, 1, 2, 7, 8, 63, 64, 4095, 4096, 4097, 65536, 1 << 20,
	256 * 1024, 0x7fffffff, 0x80000000, 0xffffffff, 1ull << 32,
	1ull << 40, 0x7ffffffff000ull, 0xfffffffffffff000ull, ~0ull,
	~0ull - 4095,
};

uint64_t rnd_value(void)
{
	switch (below(4)) {
	case 0:
		return interesting[below(ARRAY_LEN(interesting))];
	case 1:
		return below(16);
	case 2:
		return below(64) << 12;
	default:
		return rnd();
	}
}

/* A pointer argument: mostly valid memory, sometimes not */
void *rnd_ptr(struct worker *w, size_t need)
{
	switch (below(10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)0x10;	/* unmapped */
	case 2:
		return w->ro;
	case 3:		/* straddles the end of the mapping */
		return (char *)w->anon + ANON_PAGES * 4096 - need / 2;
	default:
		return w->anon;
	}
}

void rnd_fill(void *buf, size_t len)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = below(4) ? 0 : rnd();
}

sigjmp_buf fault_jmp;
volatile sig_atomic_t in_access;

static void on_fault(int sig)
{
	if (in_access)
		siglongjmp(fault_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

int fuzz_touch(struct worker *w, struct fuzz_map *m)
{
	volatile uint64_t *p = m->p;
	size_t k;
	int faulted = 0;

	if (!p || m->len < 8)
		return 0;
	k = below(m->len / 8);
	in_access = 1;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		if (m->writable && below(2))
			p[k] = rnd_value();
		else
			(void)p[k];
	} else {
		w->faults++;
		faulted = 1;
	}
	in_access = 0;
	return faulted;
}

/*
 * A debugger's access to @m, at a random place inside it: a read or a
 * write through /proc/self/mem (the driver's vm_ops .access) or
 * process_vm_readv/writev (which cannot pin a PFN mapping: EFAULT).  A
 * write goes where the mapping is writable at @may_write_from or beyond
 * (the places a store of the fuzzer's may go), or anywhere in a mapping
 * made without PROT_WRITE, where the kernel must refuse it: one it
 * accepts there is counted in ro_written, and fails the run.
 */
void fuzz_remote(struct worker *w, struct fuzz_map *m, int area,
		 size_t may_write_from)
{
	uint8_t buf[16];
	size_t len = 1 + below(sizeof(buf)), off;
	int write = below(2), mem = below(2);
	struct iovec local = { .iov_base = buf, .iov_len = len }, remote;
	ssize_t n;

	if (!m->p || m->len < sizeof(buf))
		return;
	off = below(m->len - len + 1);
	if (write && (m->prot & PROT_WRITE) && off < may_write_from)
		write = 0;
	rnd_fill(buf, len);
	remote = (struct iovec){ .iov_base = (char *)m->p + off, .iov_len = len };
	if (mem && write)
		n = pwrite(w->mem_fd, buf, len, (off_t)(uintptr_t)remote.iov_base);
	else if (mem)
		n = pread(w->mem_fd, buf, len, (off_t)(uintptr_t)remote.iov_base);
	else if (write)
		n = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
	else
		n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	FUZZ_OK(w, area, n);
	if (write && n > 0 && !(m->prot & PROT_WRITE)) {
		w->ro_written++;
		printf("# worker %d: %s wrote %zd bytes into a read-only mapping at +%#zx\n",
		       w->idx, mem ? "/proc/self/mem" : "process_vm_writev",
		       n, off);
		fflush(stdout);
	}
}

void fuzz_unmap(struct fuzz_map *m)
{
	if (m->p)
		munmap(m->p, m->len);
	m->p = NULL;
	m->len = 0;
}

void fuzz_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void worker_init(struct worker *w, int idx)
{
	struct sigaction sa = { .sa_handler = on_fault };
	int *fdsets[] = { w->fds, w->uio_fds, w->drm_fds, w->dmabufs,
			  w->perf_fds, w->nl_fds };
	size_t lens[] = { MAX_FDS, ARRAY_LEN(w->uio_fds),
			  ARRAY_LEN(w->drm_fds), ARRAY_LEN(w->dmabufs),
			  ARRAY_LEN(w->perf_fds), ARRAY_LEN(w->nl_fds) };

	memset(w, 0, sizeof(*w));
	w->idx = idx;
	for (size_t s = 0; s < ARRAY_LEN(fdsets); s++)
		for (size_t i = 0; i < lens[s]; i++)
			fdsets[s][i] = -1;
	w->efd = eventfd(0, EFD_NONBLOCK);
	/* This worker's own memory: opened after the fork */
	w->mem_fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	w->vgem_fd = -1;
	w->nl_family = -1;
	/*
	 * A guard page after the argument memory: a pointer or DMA range
	 * that runs off its end must fault there, not land in whatever
	 * mapping happens to follow it (the shared results, say).
	 */
	w->anon = mmap(NULL, (ANON_PAGES + 1) * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	w->ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (w->anon == MAP_FAILED || w->ro == MAP_FAILED || w->mem_fd < 0 ||
	    mprotect((char *)w->anon + ANON_PAGES * 4096, 4096, PROT_NONE))
		_exit(2);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	/* A closed pipe or socket must not kill a worker */
	signal(SIGPIPE, SIG_IGN);
}

static void (*const area_fn[AREA_NUM])(struct worker *) = {
	[AREA_PORT] = fuzz_port, [AREA_SYSFS] = fuzz_sysfs,
	[AREA_UIO] = fuzz_uio, [AREA_VGEM] = fuzz_vgem,
	[AREA_PERF] = fuzz_perf, [AREA_NETLINK] = fuzz_netlink,
};

/* Counts the workers hand back, in memory shared with the parent */
struct result {
	unsigned long n;
	unsigned long calls[AREA_NUM];
	unsigned long ok[AREA_NUM];
	double ms[AREA_NUM];
	unsigned long faults;
	unsigned long ro_written;
	int done;
};

static void worker_run(int idx, uint64_t seed, unsigned long calls,
		       double deadline, unsigned int areas, int unplug,
		       struct result *res)
{
	unsigned int total = 0, pick;
	unsigned long n = 0;
	struct worker w;
	double t0;

	worker_init(&w, idx);
	rnd_seed(seed, idx);
	for (int a = 0; a < AREA_NUM; a++)
		if (areas & (1u << a))
			total += area_weight[a];

	while (n < calls && now_ms() < deadline) {
		/* The first worker unplugs cards under the others */
		t0 = now_ms();
		if (unplug && idx == 0 && one_in(50)) {
			fuzz_unplug(&w);
			w.ms[AREA_SYSFS] += now_ms() - t0;
			w.calls[AREA_SYSFS]++;
			n++;
			continue;
		}
		pick = below(total);
		for (int a = 0; a < AREA_NUM; a++) {
			if (!(areas & (1u << a)))
				continue;
			if (pick < area_weight[a]) {
				area_fn[a](&w);
				w.ms[a] += now_ms() - t0;
				w.calls[a]++;
				break;
			}
			pick -= area_weight[a];
		}
		n++;
	}
	res->n = n;
	memcpy(res->calls, w.calls, sizeof(res->calls));
	memcpy(res->ok, w.ok, sizeof(res->ok));
	memcpy(res->ms, w.ms, sizeof(res->ms));
	res->faults = w.faults;
	res->ro_written = w.ro_written;
	res->done = 1;
	printf("# worker %d: %lu calls, %lu faults caught\n", idx, n,
	       w.faults);
	fflush(stdout);
	_exit(0);
}

static unsigned int parse_areas(const char *list)
{
	unsigned int mask = 0;
	char *s = strdup(list), *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int a;

		for (a = 0; a < AREA_NUM; a++)
			if (!strcmp(tok, fuzz_area_names[a]))
				break;
		if (a < AREA_NUM) {
			mask |= 1u << a;
		} else if (!strcmp(tok, "all")) {
			mask |= (1u << AREA_NUM) - 1;
		} else {
			fprintf(stderr, "fpga_fuzz: unknown area \"%s\"\n", tok);
			mask = 0;
			break;
		}
	}
	free(s);
	return mask;
}

/* A whole decimal or 0x number from @arg, or -1 with a message */
static int parse_num(int opt, const char *arg, unsigned long long *val)
{
	char *end;

	errno = 0;
	*val = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-') {
		fprintf(stderr, "fpga_fuzz: -%c wants a number, not \"%s\"\n",
			opt, arg);
		return -1;
	}
	return 0;
}

/* Cards, drivers and modules the workers start from */
static int setup(void)
{
	int port;

	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"))
		return -1;
	/* Optional concerns: their calls fail harmlessly without them */
	if (run_cmd("modprobe uio_fpga"))
		printf("# uio_fpga not loaded\n");
	if (run_cmd("modprobe vgem_ext"))
		printf("# vgem_ext not loaded\n");
	run_cmd("modprobe vgem 2>/dev/null");	/* a foreign exporter for PRIME */
	for (int i = 0; i < NUM_CARDS; i++)
		sim_add(CARD_BASE + i, 2);
	/* One port of the first card starts on uio_fpga */
	port = sim_port_number_at(CARD_BASE, 1);
	if (port >= 0 && port_bind(port, "uio_fpga"))
		printf("# could not bind fpga-port.%d to uio_fpga\n", port);
	return 0;
}

/*
 * An AFU that did not acknowledge its reset when its port went away keeps
 * the memory it may still be writing (Documentation/security.md), and a
 * dma-buf kept so holds its exporter's module.  Did the kernel say so?
 */
static bool kernel_kept_dma(void)
{
	char rec[1024];
	bool kept = false;
	ssize_t n;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return false;
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;	/* overwritten records: read on */
		rec[n] = '\0';
		if (strstr(rec, "did not stop at removal"))
			kept = true;
	}
	close(fd);
	return kept;
}

/* Unload the suite; vgem_ext may stay where the kernel kept an AFU's DMA */
static int unload_after_fuzzing(void)
{
	if (!unload_suite_modules())
		return 0;
	if (!kernel_kept_dma())
		return -1;
	printf("# vgem_ext stays loaded: an AFU that did not stop keeps a dma-buf of it\n");
	return run_cmd("for m in uio_fpga fpga_port fpga_fme fpga_sim fpga_dfl; do "
		       "[ ! -d /sys/module/$m ] || rmmod $m || exit 1; done");
}

/*
 * After the storm: the modules unload (nothing leaked a reference), and
 * loaded again with their default parameters (the fuzzer wrote odd ones)
 * a fresh card copies data, byte for byte.
 */
static int suite_still_works(void)
{
	int port, ret;

	for (int i = 0; i < NUM_CARDS; i++)
		sim_del(CARD_BASE + i);
	if (unload_after_fuzzing()) {
		printf("# modules could not be unloaded after fuzzing\n");
		return 0;
	}
	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme") ||
	    sim_add(CARD_BASE, 1)) {
		printf("# a card cannot be created after fuzzing\n");
		return 0;
	}
	port = sim_port_number(CARD_BASE);
	ret = port < 0 ? -1 :
	      run_cmd("fpgactl dma loopback %d --size 256K >/dev/null", port);
	sim_del(CARD_BASE);
	if (ret)
		printf("# NLB loopback on a fresh card failed after fuzzing (%d)\n",
		       ret);
	return ret == 0;
}

int fuzz_reprogram = 1;

int main(int argc, char **argv)
{
	unsigned long calls = 20000, sum[AREA_NUM] = { 0 }, ok[AREA_NUM] = { 0 };
	double ms[AREA_NUM] = { 0 };
	unsigned long total = 0, faults = 0, ro_written = 0;
	unsigned int areas = (1u << AREA_NUM) - 1;
	double seconds = 60, deadline;
	uint64_t seed = time(NULL) ^ getpid();
	int workers = 3, opt, failed = 0, unplug = 1, i;
	unsigned long long num = 0;
	struct result *res;

	while ((opt = getopt(argc, argv, "s:n:t:w:c:UR")) != -1) {
		if (strchr("sntw", opt) && parse_num(opt, optarg, &num))
			return 2;
		switch (opt) {
		case 's':
			seed = num;
			break;
		case 'n':
			calls = num;
			break;
		case 't':
			seconds = num;
			break;
		case 'w':
			workers = num > MAX_WORKERS ? 0 : num;
			break;
		case 'c':
			areas = parse_areas(optarg);
			break;
		case 'U':
			unplug = 0;
			break;
		case 'R':
			fuzz_reprogram = 0;
			break;
		default:
			fprintf(stderr,
				"usage: %s [-s SEED] [-n CALLS] [-t SECONDS] [-w WORKERS]\n"
				"       [-c port,sysfs,uio,vgem,perf,netlink] [-U (no unplug)]\n"
				"       [-R (no programming that reaches the card)]\n",
				argv[0]);
			return 2;
		}
	}
	if (workers < 1 || workers > MAX_WORKERS || !areas || !calls ||
	    !seconds) {
		fprintf(stderr,
			"fpga_fuzz: 1-%d workers, known areas, calls and seconds above 0\n",
			MAX_WORKERS);
		return 2;
	}
	printf("# fpga_fuzz seed %llu, %d workers, %lu calls each, %.0f s at most\n",
	       (unsigned long long)seed, workers, calls, seconds);
	printf("# replay: fpga_fuzz -s %llu -w %d -n %lu%s\n",
	       (unsigned long long)seed, workers, calls, unplug ? "" : " -U");
	fflush(stdout);

	if (setup())
		return 4;
	res = mmap(NULL, sizeof(*res) * MAX_WORKERS, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return 1;

	deadline = now_ms() + seconds * 1000;
	for (i = 0; i < workers; i++)
		if (fork() == 0)
			worker_run(i, seed, calls, deadline, areas, unplug,
				   &res[i]);
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
	for (i = 0; i < workers; i++) {
		unsigned long counted = 0;

		for (int a = 0; a < AREA_NUM; a++) {
			sum[a] += res[i].calls[a];
			ok[a] += res[i].ok[a];
			ms[a] += res[i].ms[a];
			counted += res[i].calls[a];
		}
		/* Each call counted once, or the fuzzer wrote where it must not */
		if (counted != res[i].n) {
			printf("# worker %d: %lu calls, but %lu by concern\n",
			       i, res[i].n, counted);
			failed = 1;
		}
		total += counted;
		faults += res[i].faults;
		ro_written += res[i].ro_written;
	}
	printf("# calls:");
	for (int a = 0; a < AREA_NUM; a++)
		printf(" %s %lu", fuzz_area_names[a], sum[a]);
	printf("; %lu faults caught\n# accepted:", faults);
	/* How deep the fuzzer got: calls the kernel did not refuse */
	for (int a = 0; a < AREA_NUM; a++)
		printf(" %s %lu", fuzz_area_names[a], ok[a]);
	/* Where the time goes (summed over workers): what to tune first */
	printf("\n# seconds:");
	for (int a = 0; a < AREA_NUM; a++)
		printf(" %s %.0f", fuzz_area_names[a], ms[a] / 1000);
	printf("\n");
	/* A debugger must not write what the process itself cannot */
	if (ro_written) {
		printf("# %lu remote writes into read-only mappings went through\n",
		       ro_written);
		failed = 1;
	}

	if (!suite_still_works())
		failed = 1;
	if (unload_after_fuzzing()) {
		printf("# modules could not be unloaded after the last check\n");
		failed = 1;
	}
	printf("# fpga_fuzz seed %llu: %lu calls, %s\n",
	       (unsigned long long)seed, total, failed ? "FAILED" : "done");
	return failed;
}
