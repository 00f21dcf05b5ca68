/* cma.h - single-copy transfer between processes through the kernel (Cross Memory Attach:
 * process_vm_readv, Linux >= 3.2). The receiver pulls straight from the sender's buffer into its
 * own, so a rendezvous message crosses memory once. Availability depends on the kernel, seccomp
 * and ptrace policy: probe once at start, and callers fall back to the pipelined copy. */
#ifndef NODEMPI_SHM_CMA_H
#define NODEMPI_SHM_CMA_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

/* 1 when process_vm_readv works in this process (probed on our own pid). */
int shm_cma_probe(void);

/* Copy the remote byte stream described by remote[0..nremote) of process pid into the local
 * stream local[0..nlocal); both streams have `bytes` bytes. Returns 0, or an errno value (e.g.
 * EPERM when the kernel refuses cross-process access). */
int shm_cma_read(pid_t pid, const struct iovec *local, int nlocal, const struct iovec *remote,
                 int nremote, size_t bytes);

/* The other direction (process_vm_writev): copy the local stream into the remote one. Used by
 * one-sided operations on windows in user memory (src/rma). Same return values. */
int shm_cma_write(pid_t pid, const struct iovec *local, int nlocal, const struct iovec *remote,
                  int nremote, size_t bytes);

#endif
