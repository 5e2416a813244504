// zlib: deflate and crc32 for the widget renderer's PNG writer (WidgetRender/PNGEncoder.swift).
#include <zlib.h>
