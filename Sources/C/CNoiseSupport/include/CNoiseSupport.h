#ifndef CNOISESUPPORT_H
#define CNOISESUPPORT_H
#include <stdint.h>

/// Sets flush-to-zero and denormals-are-zero for the calling thread (x86 MXCSR bits 15 and 6;
/// FZ bit 24 of FPCR on arm64). Per thread: call it on the render thread itself.
void cns_enable_flush_to_zero(void);

/// Names the calling thread (at most 15 characters are kept by Linux).
void cns_set_thread_name(const char *name);

/// Asks for SCHED_FIFO at `priority` for the calling thread. Returns 0 or an errno value.
int cns_request_realtime(int priority);

/// The kernel thread id of the calling thread.
int32_t cns_gettid(void);

/// Lowers RLIMIT_RTTIME (soft and hard) to `microseconds` when it is higher: rtkit grants real
/// time only to a process whose runaway real-time thread the kernel would stop. 0 or an errno value.
int cns_limit_rttime(long long microseconds);

/// RLIMIT_RTPRIO soft limit of this process (-1 when unlimited).
long cns_rtprio_limit(void);

#endif
