/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgem_ext: virtual GEM buffers for user-space drivers.
 *
 * The device is a DRM driver named "vgem_ext" (card and render nodes).
 * Besides the generic GEM ioctls (dumb create, map dumb, PRIME handle to
 * fd and back, gem close) it offers buffer creation with flags, a query,
 * and vgem-style fences.  Documentation/vgem_ext.md describes all of it.
 *
 * Modifications to all structs defined here are subject to
 * backwards-compatibility constraints.
 */
#ifndef _UAPI_VGEM_EXT_DRM_H_
#define _UAPI_VGEM_EXT_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_VGEM_EXT_BO_CREATE		0x00
#define DRM_VGEM_EXT_BO_INFO		0x01
#define DRM_VGEM_EXT_FENCE_ATTACH	0x02
#define DRM_VGEM_EXT_FENCE_SIGNAL	0x03

#define DRM_IOCTL_VGEM_EXT_BO_CREATE	DRM_IOWR(DRM_COMMAND_BASE + \
	DRM_VGEM_EXT_BO_CREATE, struct drm_vgem_ext_bo_create)
#define DRM_IOCTL_VGEM_EXT_BO_INFO	DRM_IOWR(DRM_COMMAND_BASE + \
	DRM_VGEM_EXT_BO_INFO, struct drm_vgem_ext_bo_info)
#define DRM_IOCTL_VGEM_EXT_FENCE_ATTACH	DRM_IOWR(DRM_COMMAND_BASE + \
	DRM_VGEM_EXT_FENCE_ATTACH, struct drm_vgem_ext_fence_attach)
#define DRM_IOCTL_VGEM_EXT_FENCE_SIGNAL	DRM_IOWR(DRM_COMMAND_BASE + \
	DRM_VGEM_EXT_FENCE_SIGNAL, struct drm_vgem_ext_fence_signal)

/**
 * struct drm_vgem_ext_bo_create - DRM_IOCTL_VGEM_EXT_BO_CREATE
 * @size:	in: bytes, rounded up to whole pages; out: the rounded size
 * @flags:	in: VGEM_EXT_BO_WC, VGEM_EXT_BO_POPULATE
 * @handle:	out: GEM handle in this file
 * @offset:	out: offset to mmap() the buffer at, on this file
 *
 * The struct has no padding: 24 bytes on every ABI.
 *
 * Errors: EINVAL unknown @flags, @size 0 or overflowing
 * when rounded up; ENOMEM @size larger than the memory of the system, or
 * VGEM_EXT_BO_POPULATE and the pages cannot be had (never the OOM killer);
 * EFAULT bad pointer.
 */
struct drm_vgem_ext_bo_create {
	__u64 size;
	__u32 flags;
/* CPU mappings write-combined (vgem's choice); default: cached */
#define VGEM_EXT_BO_WC		(1u << 0)
/* Allocate and pin the pages now, so later use cannot fail for memory */
#define VGEM_EXT_BO_POPULATE	(1u << 1)
	__u32 handle;
	__u64 offset;
};

/**
 * struct drm_vgem_ext_bo_info - DRM_IOCTL_VGEM_EXT_BO_INFO
 * @handle:	in: GEM handle (created, dumb, or imported from a dma-buf)
 * @pad:	must be zero
 * @size:	out: size in bytes
 * @offset:	out: offset to mmap() the buffer at on this file (imported
 *		buffers too: the mapping is the exporter's)
 * @flags:	out: VGEM_EXT_BO_WC, VGEM_EXT_BO_POPULATE as created, and
 *		VGEM_EXT_BO_IMPORTED, VGEM_EXT_BO_EXPORTED,
 *		VGEM_EXT_BO_RESIDENT (pages allocated), VGEM_EXT_BO_BUSY
 *		(an unsignalled fence)
 * @reserved:	out: zero
 *
 * Errors: EINVAL @pad not zero; ENOENT no such handle; EFAULT bad pointer.
 */
struct drm_vgem_ext_bo_info {
	__u32 handle;
	__u32 pad;
	__u64 size;
	__u64 offset;
	__u32 flags;
#define VGEM_EXT_BO_IMPORTED	(1u << 16)
#define VGEM_EXT_BO_EXPORTED	(1u << 17)
#define VGEM_EXT_BO_RESIDENT	(1u << 18)
#define VGEM_EXT_BO_BUSY	(1u << 19)
	__u32 reserved;
};

/**
 * struct drm_vgem_ext_fence_attach - DRM_IOCTL_VGEM_EXT_FENCE_ATTACH
 * @handle:	in: the buffer
 * @flags:	in: VGEM_EXT_FENCE_WRITE for a write fence, else a read fence
 * @out_fence:	out: the fence's id in this file, for FENCE_SIGNAL
 * @pad:	must be zero
 *
 * Attaches an unsignalled fence to the buffer's reservation object, as a
 * writer (exclusive) or a reader (shared).  Pollers of an exported dma-buf
 * see it: a write fence makes POLLIN and POLLOUT wait, a read fence
 * POLLOUT only.  The fence signals with FENCE_SIGNAL, when the file is
 * closed, or by itself after the module's fence_timeout_ms (10 s by
 * default) with the error ETIMEDOUT, so no reader waits forever.
 *
 * Errors: EINVAL unknown @flags or @pad not zero; ENOENT no such handle;
 * EACCES any fence, read or write, on an import of a dma-buf not open for
 * writing (exported without DRM_RDWR); EBUSY a write fence is requested and the
 * buffer has an unsignalled fence, or a read fence and it has an
 * unsignalled write fence; ENOSPC this file has 256 fences pending;
 * ENOMEM.
 */
struct drm_vgem_ext_fence_attach {
	__u32 handle;
	__u32 flags;
#define VGEM_EXT_FENCE_WRITE	(1u << 0)
	__u32 out_fence;
	__u32 pad;
};

/**
 * struct drm_vgem_ext_fence_signal - DRM_IOCTL_VGEM_EXT_FENCE_SIGNAL
 * @fence:	in: id from FENCE_ATTACH; the id is released
 * @flags:	must be zero
 *
 * Errors: EINVAL @flags not zero; ENOENT no such fence in this file
 * (also one already signalled through this ioctl); ETIMEDOUT the fence
 * had already signalled by itself (its timeout); the id is released.
 */
struct drm_vgem_ext_fence_signal {
	__u32 fence;
	__u32 flags;
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_VGEM_EXT_DRM_H_ */
