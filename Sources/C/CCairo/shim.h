// Cairo (PNG and SVG surfaces), Pango through pangocairo (text shaping, bidi, fallback), and
// fontconfig (the renderer pins its own font configuration so output does not depend on the host).
#include <cairo.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
