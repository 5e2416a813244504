// Pango 1.50 (Debian 12's) starts two threads for every new font pattern it meets: one runs
// FcFontSetMatch, one FcFontSetSort, and the caller waits for the first at once. A `weaver render` of
// a small widget meets 12 patterns (each text size and weight, each icon size): 24 threads created
// and joined in a process that lives ~20 ms, ~1.5 ms of its CPU (clone, stacks, malloc arenas) and
// more of its wall time on a busy machine (issue 41 item 25). This definition of g_thread_new, in
// the executable and so found before GLib's, runs those two jobs on the calling thread, as Pango
// did before 1.49: the same fontconfig calls on the same data, so the same fonts and pictures.
// Every other thread (Pango's FcInit among them, whose caller holds a lock the job takes) is
// started by GLib's own g_thread_new. Later Pango runs these jobs on one long-lived thread of
// another name, which this leaves alone.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include "CPangoFontJobs.h"

// GLib's types and calls, declared here so the target needs no GLib headers.
typedef void *(*GThreadFunc)(void *data);
typedef struct _GThread GThread;
extern GThread *g_thread_self(void);
extern GThread *g_thread_ref(GThread *thread);

static atomic_long run_inline;

long c_pango_font_jobs_run_inline(void) { return atomic_load(&run_inline); }

GThread *g_thread_new(const char *name, GThreadFunc func, void *data) {
    if (name != NULL
        && (strcmp(name, "[pango] FcFontSetMatch") == 0 || strcmp(name, "[pango] FcFontSetSort") == 0)) {
        func(data);
        atomic_fetch_add(&run_inline, 1);
        // The caller unrefs the thread it gets: a reference of its own to this one.
        return g_thread_ref(g_thread_self());
    }
    static GThread *(*glib_thread_new)(const char *, GThreadFunc, void *);
    if (glib_thread_new == NULL) {
        glib_thread_new = (GThread * (*)(const char *, GThreadFunc, void *)) dlsym(RTLD_NEXT, "g_thread_new");
    }
    return glib_thread_new(name, func, data);
}
