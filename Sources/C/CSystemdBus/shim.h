// sd-bus, systemd's D-Bus library (libsystemd-dev), for the MPRIS player.
#include <systemd/sd-bus.h>
