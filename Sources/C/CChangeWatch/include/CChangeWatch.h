#ifndef CCHANGEWATCH_H
#define CCHANGEWATCH_H
#include <stdint.h>

/// timerfd, eventfd and pidfd_open, which Glibc's Swift module does not import. Each returns what the system
/// call returns (-1 with errno set on failure); the Swift side retries EINTR and names the call.

/// A CLOCK_REALTIME timerfd, non-blocking and close-on-exec.
int ccw_timerfd_create_realtime(void);

/// Arms `fd` to expire once at the absolute CLOCK_REALTIME time `seconds` + `nanoseconds`, and to
/// be cancelled (read fails with ECANCELED) when someone sets the clock.
int ccw_timerfd_arm_absolute(int fd, int64_t seconds, int64_t nanoseconds);

/// A non-blocking, close-on-exec eventfd starting at 0.
int ccw_eventfd(void);

/// Adds 1 to an eventfd. Async-signal-safe (one write).
int ccw_eventfd_signal(int fd);

/// `pidfd_open(pid, 0)` (Linux 5.3): a descriptor that becomes readable when process `pid` exits.
/// It is close-on-exec. -1 with errno ENOSYS on older kernels (or headers), EPERM where a seccomp
/// filter forbids the call, ESRCH when there is no such process.
int ccw_pidfd_open(int pid);

#endif
