#include "CJPEGSupport.h"
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

struct ww_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t messageLength;
    int damaged;   // a warning that means pixels were lost (see ww_output_message)
};

static void ww_error_exit(j_common_ptr info) {
    struct ww_error_manager *manager = (struct ww_error_manager *)info->err;
    if (manager->message && manager->messageLength > 0) {
        (*info->err->format_message)(info, manager->message);
    }
    longjmp(manager->jump, 1);
}

// Warnings are not fatal. Those that mean pixels were lost (the data ended early, or a marker or
// restart was hit mid-scan: the decoder fills the rest with grey) mark the image damaged and keep
// their message; harmless ones (extraneous bytes before a marker, an unknown JFIF revision, common
// in camera files) are ignored.
static void ww_output_message(j_common_ptr info) {
    struct ww_error_manager *manager = (struct ww_error_manager *)info->err;
    int code = info->err->msg_code;
    if (code != JWRN_JPEG_EOF && code != JWRN_HIT_MARKER && code != JWRN_MUST_RESYNC) return;
    if (!manager->damaged && manager->message && manager->messageLength > 0) {
        (*info->err->format_message)(info, manager->message);
    }
    manager->damaged = 1;
}

// Every call sets its manager up the same way; the setjmp itself must stay in the caller's frame.
static struct jpeg_error_mgr *ww_error_manager_init(struct ww_error_manager *manager, char *buffer, size_t length) {
    struct jpeg_error_mgr *base = jpeg_std_error(&manager->base);
    manager->base.error_exit = ww_error_exit;
    manager->base.output_message = ww_output_message;
    manager->damaged = 0;
    manager->message = buffer;
    manager->messageLength = length;
    return base;
}

// At 8/8 libjpeg's output size is the image's size.
int ww_jpeg_dimensions(const uint8_t *data, size_t length, uint32_t *width, uint32_t *height,
                       char *error, size_t errorLength) {
    return ww_jpeg_output_size(data, length, 8, width, height, error, errorLength);
}

int ww_jpeg_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels, size_t stride,
                          uint32_t width, uint32_t height, char *error, size_t errorLength) {
    return ww_jpeg_decode_argb32_scaled(data, length, 8, pixels, stride, width, height, error, errorLength);
}

/* Creates the decoder over `data`, reads the header and sets the output size to scaleEighths/8.
 * Called after the caller's setjmp: libjpeg's errors jump back to the caller, which owns `info`. */
static void ww_open_scaled(struct jpeg_decompress_struct *info, const uint8_t *data, size_t length, int scaleEighths) {
    jpeg_create_decompress(info);
    jpeg_mem_src(info, data, (unsigned long)length);
    jpeg_read_header(info, TRUE);
    info->scale_num = (unsigned int)scaleEighths;
    info->scale_denom = 8;
    jpeg_calc_output_dimensions(info);
}

int ww_jpeg_output_size(const uint8_t *data, size_t length, int scaleEighths, uint32_t *width, uint32_t *height,
                        char *error, size_t errorLength) {
    struct jpeg_decompress_struct info;
    struct ww_error_manager manager;
    char buffer[JMSG_LENGTH_MAX] = {0};
    info.err = ww_error_manager_init(&manager, buffer, sizeof buffer);
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&info);
        snprintf(error, errorLength, "%s", buffer);
        return -1;
    }
    ww_open_scaled(&info, data, length, scaleEighths);
    *width = info.output_width;
    *height = info.output_height;
    jpeg_destroy_decompress(&info);
    return 0;
}

int ww_jpeg_decode_argb32_scaled(const uint8_t *data, size_t length, int scaleEighths, uint8_t *pixels, size_t stride,
                                 uint32_t width, uint32_t height, char *error, size_t errorLength) {
    struct jpeg_decompress_struct info;
    struct ww_error_manager manager;
    char buffer[JMSG_LENGTH_MAX] = {0};
    JSAMPLE *volatile row = NULL;
    info.err = ww_error_manager_init(&manager, buffer, sizeof buffer);
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&info);
        free(row);
        snprintf(error, errorLength, "%s", buffer);
        return -1;
    }
    ww_open_scaled(&info, data, length, scaleEighths);
    if (info.output_width != width || info.output_height != height) {
        jpeg_destroy_decompress(&info);
        snprintf(error, errorLength, "dimensions changed between reads");
        return -1;
    }
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&info);
    size_t components = (size_t)info.output_components;
    row = malloc((size_t)info.output_width * components);
    if (!row) {
        jpeg_destroy_decompress(&info);
        snprintf(error, errorLength, "out of memory");
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = { row };
        uint32_t y = info.output_scanline;
        jpeg_read_scanlines(&info, rows, 1);
        uint32_t *out = (uint32_t *)(pixels + (size_t)y * stride);
        for (uint32_t x = 0; x < info.output_width; x++) {
            const JSAMPLE *p = row + (size_t)x * components;
            uint32_t r, g, b;
            if (cmyk) {
                // Adobe writes CMYK inverted: the sample is already 255 - ink.
                uint32_t k = p[3];
                r = p[0] * k / 255; g = p[1] * k / 255; b = p[2] * k / 255;
            } else {
                r = p[0]; g = p[1]; b = p[2];
            }
            out[x] = 0xFF000000u | (r << 16) | (g << 8) | b;
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    if (manager.damaged) {
        snprintf(error, errorLength, "%s", buffer);
        return 1;
    }
    return 0;
}

// One encoder for packed RGB rows and for Cairo's ARGB32 rows (converted a row at a time).
static int ww_jpeg_encode(const uint8_t *pixels, size_t stride, int argb, uint32_t width, uint32_t height,
                          int quality, uint8_t **output, size_t *outputLength) {
    struct jpeg_compress_struct info;
    struct ww_error_manager manager;
    char buffer[JMSG_LENGTH_MAX] = {0};
    unsigned char *out = NULL;
    unsigned long outLength = 0;
    JSAMPLE *volatile row = NULL;
    if (argb) {
        row = malloc((size_t)width * 3);
        if (!row) return -1;
    }
    info.err = ww_error_manager_init(&manager, buffer, sizeof buffer);
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&info);
        free(row);
        free(out);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &out, &outLength);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        const uint8_t *line = pixels + (size_t)info.next_scanline * stride;
        JSAMPROW rows[1] = { (JSAMPROW)line };
        if (argb) {
            const uint32_t *in = (const uint32_t *)line;
            for (uint32_t x = 0; x < width; x++) {
                row[x * 3] = (JSAMPLE)((in[x] >> 16) & 0xFF);
                row[x * 3 + 1] = (JSAMPLE)((in[x] >> 8) & 0xFF);
                row[x * 3 + 2] = (JSAMPLE)(in[x] & 0xFF);
            }
            rows[0] = row;
        }
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(row);
    *output = out;
    *outputLength = outLength;
    return 0;
}

int ww_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                       uint8_t **output, size_t *outputLength) {
    return ww_jpeg_encode(rgb, (size_t)width * 3, 0, width, height, quality, output, outputLength);
}

int ww_jpeg_encode_argb32(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height, int quality,
                          uint8_t **output, size_t *outputLength) {
    return ww_jpeg_encode(pixels, stride, 1, width, height, quality, output, outputLength);
}

void ww_jpeg_free(uint8_t *buffer) { free(buffer); }
