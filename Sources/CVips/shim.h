// Swift cannot call C variadic functions, so every libvips call that takes `...` options is
// wrapped here in a `static inline` function with fixed arguments. Only SheafMedia imports this.
#ifndef SHEAF_CVIPS_SHIM_H
#define SHEAF_CVIPS_SHIM_H
#include <vips/vips.h>
#include <malloc.h>

/// Large buffers (a progressive JPEG's coefficients, a PNG's rows) come from mmap and go back to
/// the system when freed. glibc otherwise raises its mmap threshold after the first such free and
/// keeps later ones in its heaps, so peak memory grows with every large image of a run.
static inline void sheaf_vips_return_large_buffers(void) {
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_ARENA_MAX, 4);
}

/// Ignores libvips' own warnings ("VIPS-WARNING **: ..."): Sheaf reports failures itself.
static void sheaf_vips_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static inline void sheaf_vips_silence_warnings(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, sheaf_vips_quiet_log, NULL);
}

/// Opens an image from a source and reads only its header (sequential access: no pixels yet).
static inline VipsImage *sheaf_vips_header(VipsSource *source) {
    return vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL,
                                      "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// A thumbnail that fits a `size` x `size` box, shrunk on load where the format allows it,
/// EXIF orientation applied, never enlarged; truncated or broken files fail instead of giving grey.
/// libvips 8.14's thumbnail_source does not hand its `fail_on` to the loader (checked here: a
/// truncated JPEG gave a thumbnail); the loader option string does reach it.
static inline int sheaf_vips_thumbnail(VipsSource *source, VipsImage **out, int size) {
    return vips_thumbnail_source(source, out, size, "height", size, "size", VIPS_SIZE_DOWN,
                                 "option_string", "fail_on=truncated", NULL);
}

/// Flattens an alpha channel onto white (a JPEG has no transparency).
static inline int sheaf_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[1] = {255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 1);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

/// Converts to another interpretation (16-bit RGB or grey down to 8 bits, scaled, not clipped).
static inline int sheaf_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

/// Encodes a JPEG in memory without metadata; free `*buffer` with g_free.
static inline int sheaf_vips_jpeg(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

static inline void sheaf_vips_unref(void *object) { g_object_unref(object); }

#endif
