#include "CALSASupport.h"
#include <alsa/asoundlib.h>

static void cns_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void cns_alsa_silence_errors(void) { snd_lib_error_set_handler(cns_alsa_quiet); }
