// libdeflate: DEFLATE/zlib streams and CRC-32 for the widget renderer's PNG writer
// (WidgetRender/PNGEncoder.swift). Whole-buffer only, about twice zlib's speed at its fastest level.
#include <libdeflate.h>
