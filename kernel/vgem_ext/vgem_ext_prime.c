// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRIME export and import: the DRM core's helpers, traced.  This file also
 * instantiates vgem_ext's tracepoints (vgem_ext_trace.h).
 */
#include <drm/drm_prime.h>

#include "vgem_ext_drv.h"

#define CREATE_TRACE_POINTS
#include "vgem_ext_trace.h"

int vgem_ext_prime_handle_to_fd(struct drm_device *dev, struct drm_file *file,
				u32 handle, u32 flags, int *prime_fd)
{
	int ret = drm_gem_prime_handle_to_fd(dev, file, handle, flags,
					     prime_fd);

	trace_vgem_export(handle, ret ? -1 : *prime_fd, ret);
	return ret;
}

int vgem_ext_prime_fd_to_handle(struct drm_device *dev, struct drm_file *file,
				int prime_fd, u32 *handle)
{
	int ret = drm_gem_prime_fd_to_handle(dev, file, prime_fd, handle);

	trace_vgem_import(ret ? 0 : *handle, prime_fd, ret);
	return ret;
}
