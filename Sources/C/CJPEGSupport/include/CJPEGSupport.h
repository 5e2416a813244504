#ifndef CJPEGSUPPORT_H
#define CJPEGSUPPORT_H
#include <stddef.h>
#include <stdint.h>

/// Reads only the JPEG header: width and height in pixels. Returns 0 on success, -1 on a corrupt
/// header (message in `error`).
int ww_jpeg_dimensions(const uint8_t *data, size_t length, uint32_t *width, uint32_t *height,
                       char *error, size_t errorLength);

/// Decodes a JPEG into Cairo's ARGB32 layout (premultiplied; opaque here), rows of `stride`
/// bytes, into `pixels` (stride * height bytes, allocated by the caller after checking the
/// dimensions). Grey, YCbCr, RGB and (Adobe inverted) CMYK inputs. Returns 0, -1 (message in
/// `error`), or 1: decoded, but pixels were lost (truncated or damaged data: the rest is grey;
/// libjpeg's first such warning in `error`). libjpeg reports errors by longjmp, which Swift cannot catch: that is why this is C.
int ww_jpeg_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels, size_t stride,
                          uint32_t width, uint32_t height, char *error, size_t errorLength);

/// Encodes packed RGB (3 bytes a pixel) as a baseline JPEG into a malloc'd buffer (`*output`,
/// freed by the caller with `free`). For test fixtures and the gallery's sample photo.
int ww_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                       uint8_t **output, size_t *outputLength);
/// The size a decode at `scaleEighths`/8 (1…16; libjpeg's DCT scaling) gives. 0, or -1 (message).
int ww_jpeg_output_size(const uint8_t *data, size_t length, int scaleEighths, uint32_t *width, uint32_t *height,
                        char *error, size_t errorLength);

/// `ww_jpeg_decode_argb32` at `scaleEighths`/8 of the size, scaled while decoding (a 48 MP photo
/// is read at a fraction of the memory); `width` and `height` are the scaled size.
int ww_jpeg_decode_argb32_scaled(const uint8_t *data, size_t length, int scaleEighths, uint8_t *pixels, size_t stride,
                                 uint32_t width, uint32_t height, char *error, size_t errorLength);

/// Encodes opaque Cairo ARGB32/RGB24 rows (`stride` bytes apart) as a baseline JPEG into a
/// malloc'd buffer freed with `ww_jpeg_free`. 0, or -1.
int ww_jpeg_encode_argb32(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height, int quality,
                          uint8_t **output, size_t *outputLength);
void ww_jpeg_free(uint8_t *buffer);
#endif
