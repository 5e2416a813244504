#define _GNU_SOURCE
#include "CChangeWatch.h"
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <time.h>
#include <errno.h>
#include <sys/syscall.h>

int ccw_timerfd_create_realtime(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int ccw_timerfd_arm_absolute(int fd, int64_t seconds, int64_t nanoseconds) {
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)nanoseconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int ccw_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

int ccw_eventfd_signal(int fd) {
    uint64_t one = 1;
    return (int)write(fd, &one, sizeof one);
}

int ccw_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    // Headers older than Linux 5.3 do not know the call: the same answer an older kernel gives.
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}
