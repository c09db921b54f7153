// SPDX-License-Identifier: GPL-2.0-only
/*
 * Remote access to the card's mappings: /proc/PID/mem, ptrace and
 * process_vm_writev reach a PFN mapping of the AFU only through the
 * driver's vm_ops .access, which must not write where the mapping cannot
 * be written.  Otherwise a user with a read-only descriptor programs the
 * AFU, and on a card without an IOMMU its DMA reaches all memory.
 *
 * Each case runs as an unprivileged user (nobody) holding a node it may
 * only read, on the port (/dev/fpga-port.N) and on UIO (/dev/uioN), on a
 * card behind the simulated IOMMU and on one without it.  The limits are
 * generous: the debug tier's kernel is many times slower.
 */
#define _GNU_SOURCE		/* process_vm_writev() */
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "uio_util.h"
#include "nlb_util.h"

#define MAP_LEN		(2 * 4096)
#define NOBODY		65534
#define MARK		0x5a5a5a5a12345678ULL

FIXTURE(remote) {
	unsigned int card;
	char node[48];
	off_t offset;		/* of the AFU in the node's mmap space */
	int fd;			/* root's, read-write */
	volatile uint64_t *afu;	/* root's writable mapping */
};

FIXTURE_VARIANT(remote) {
	bool uio;
	bool iommu;
};

FIXTURE_VARIANT_ADD(remote, port_translated) { .uio = false, .iommu = true };
FIXTURE_VARIANT_ADD(remote, port_untranslated) { .uio = false, .iommu = false };
FIXTURE_VARIANT_ADD(remote, uio_translated) { .uio = true, .iommu = true };
FIXTURE_VARIANT_ADD(remote, uio_untranslated) { .uio = true, .iommu = false };

FIXTURE_SETUP(remote)
{
	char uio[32];
	int num, ret;

	self->fd = -1;
	self->afu = MAP_FAILED;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe uio_fpga"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, variant->iommu ? "1" : "0"));
	ret = sim_add(self->card, 1);
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "1"));
	ASSERT_EQ(0, ret);
	num = sim_port_number(self->card);
	ASSERT_GE(num, 0);
	if (variant->uio) {
		ASSERT_EQ(0, port_bind(num, "uio_fpga"));
		ASSERT_EQ(0, port_uio(num, uio, sizeof(uio)));
		snprintf(self->node, sizeof(self->node), "/dev/%s", uio);
		self->offset = UIO_MAP_AFU * sysconf(_SC_PAGESIZE);
	} else {
		snprintf(self->node, sizeof(self->node), "/dev/fpga-port.%d",
			 num);
		self->offset = 0;
	}
	self->fd = open(self->node, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->afu = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->fd, self->offset);
	ASSERT_NE(MAP_FAILED, self->afu);
	self->afu[NLB_SCRATCH / 8] = MARK;
	/* Others may read the node, as a group member who may only read */
	ASSERT_EQ(0, chmod(self->node, 0604));
}

FIXTURE_TEARDOWN(remote)
{
	chmod(self->node, 0600);
	if (self->afu != MAP_FAILED)
		munmap((void *)self->afu, MAP_LEN);
	if (self->fd >= 0)
		close(self->fd);
	sim_del(self->card);
	run_cmd("modprobe -r uio_fpga fpga_port fpga_sim fpga_dfl");
}

/* Write 8 bytes at @addr of this process through /proc/self/mem */
static int proc_mem_write(volatile uint64_t *addr, uint64_t v)
{
	int fd = open("/proc/self/mem", O_RDWR);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pwrite(fd, &v, sizeof(v), (off_t)(uintptr_t)addr);
	n = n == sizeof(v) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return n;
}

static int proc_mem_read(volatile uint64_t *addr, uint64_t *v)
{
	int fd = open("/proc/self/mem", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, v, sizeof(*v), (off_t)(uintptr_t)addr);
	n = n == sizeof(*v) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return n;
}

/*
 * A child that stops for its tracer; it inherited the mapping, so the
 * same address is the AFU in it too.  POKEDATA must fail, PEEKDATA read.
 */
static int ptrace_poke(volatile uint64_t *addr, uint64_t *peeked)
{
	int status, ret = 0;
	long word;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -ECHILD;
	}
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, pid, (void *)addr, NULL);
	if (errno)
		ret = -errno;
	*peeked = (uint64_t)word;
	if (!ret && ptrace(PTRACE_POKEDATA, pid, (void *)addr,
			   (void *)0x1111222233334444ULL) == 0)
		ret = 1;	/* the write went through */
	else if (!ret)
		ret = -errno;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return ret;
}

/*
 * As nobody, with the node opened read-only and the AFU mapped PROT_READ:
 * 0 if every remote write is refused and reads work, else the step.
 */
static int unprivileged_remote_writes(const char *node, off_t offset)
{
	volatile uint64_t *afu;
	struct iovec local, remote;
	uint64_t v = 0, mine;
	int fd, ret;

	if (setgid(NOBODY) || setuid(NOBODY))
		return 10;
	/* Changing uid made the process undumpable, which bars ptrace */
	if (prctl(PR_SET_DUMPABLE, 1))
		return 11;
	fd = open(node, O_RDWR);
	if (fd >= 0 || errno != EACCES)
		return 12;
	fd = open(node, O_RDONLY);
	if (fd < 0)
		return 13;
	if (mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 offset) != MAP_FAILED)
		return 14;
	afu = mmap(NULL, MAP_LEN, PROT_READ, MAP_SHARED, fd, offset);
	if (afu == MAP_FAILED)
		return 15;
	if (afu[NLB_SCRATCH / 8] != MARK)
		return 16;

	/* A debugger reads ... */
	if (proc_mem_read(&afu[NLB_SCRATCH / 8], &v) || v != MARK)
		return 20;
	/* ... but does not write what the process itself cannot */
	ret = proc_mem_write(&afu[NLB_SCRATCH / 8], 0x1111);
	if (ret != -EIO)
		return ret ? 21 : 22;
	ret = ptrace_poke(&afu[NLB_SCRATCH / 8], &v);
	if (ret == 1)
		return 23;
	if (ret != -EIO || v != MARK)
		return 24;
	/* process_vm_writev() pins pages, which a PFN mapping has none of */
	mine = 0x2222;
	local = (struct iovec){ .iov_base = &mine, .iov_len = 8 };
	remote = (struct iovec){ .iov_base = (void *)&afu[NLB_SCRATCH / 8],
				 .iov_len = 8 };
	if (process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != -1)
		return 25;
	if (afu[NLB_SCRATCH / 8] != MARK)
		return 26;
	munmap((void *)afu, MAP_LEN);
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(remote, read_only_mapping_is_not_written_remotely, 120)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(unprivileged_remote_writes(self->node, self->offset));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("step %d failed", WEXITSTATUS(status));
	}
	EXPECT_EQ(MARK, self->afu[NLB_SCRATCH / 8]);
}

/*
 * Root too: a mapping made without PROT_WRITE is not written by a
 * debugger, even from a file open for writing; once mprotect() makes it
 * writable, it is (mmap checked the right to write at the start).
 */
TEST_F_TIMEOUT(remote, only_a_writable_mapping_is_written_remotely, 120)
{
	volatile uint64_t *ro;
	uint64_t v = 0;

	ro = mmap(NULL, MAP_LEN, PROT_READ, MAP_SHARED, self->fd, self->offset);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-EIO, proc_mem_write(&ro[NLB_SCRATCH / 8], 0x3333));
	EXPECT_EQ(MARK, self->afu[NLB_SCRATCH / 8]);
	ASSERT_EQ(0, mprotect((void *)ro, MAP_LEN, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, proc_mem_write(&ro[NLB_SCRATCH / 8], 0x3333));
	EXPECT_EQ(0x3333, self->afu[NLB_SCRATCH / 8]);
	EXPECT_EQ(0, proc_mem_read(&ro[NLB_SCRATCH / 8], &v));
	EXPECT_EQ(0x3333, v);
	munmap((void *)ro, MAP_LEN);
}

TEST_HARNESS_MAIN
