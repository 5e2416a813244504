#ifndef CALSASUPPORT_H
#define CALSASUPPORT_H
/// Replaces alsa-lib's default error printer (stderr) with one that prints nothing.
void cns_alsa_silence_errors(void);
#endif
