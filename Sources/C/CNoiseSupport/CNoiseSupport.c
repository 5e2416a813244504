#define _GNU_SOURCE
#include "CNoiseSupport.h"
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

void cns_enable_flush_to_zero(void) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() | 0x8040);
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= (1ULL << 24);
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

void cns_set_thread_name(const char *name) {
    char buf[16];
    int i = 0;
    for (; i < 15 && name[i]; i++) buf[i] = name[i];
    buf[i] = 0;
    pthread_setname_np(pthread_self(), buf);
}

int cns_request_realtime(int priority) {
    struct sched_param p = { .sched_priority = priority };
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &p);
}

int32_t cns_gettid(void) { return (int32_t)syscall(SYS_gettid); }

int cns_limit_rttime(long long microseconds) {
    struct rlimit r;
    if (getrlimit(RLIMIT_RTTIME, &r) != 0) return errno;
    if (r.rlim_max != RLIM_INFINITY && r.rlim_max <= (rlim_t)microseconds) return 0;
    r.rlim_cur = (rlim_t)microseconds;
    r.rlim_max = (rlim_t)microseconds;
    return setrlimit(RLIMIT_RTTIME, &r) == 0 ? 0 : errno;
}

long cns_rtprio_limit(void) {
    struct rlimit r;
    if (getrlimit(RLIMIT_RTPRIO, &r) != 0) return 0;
    if (r.rlim_cur == RLIM_INFINITY) return -1;
    return (long)r.rlim_cur;
}
