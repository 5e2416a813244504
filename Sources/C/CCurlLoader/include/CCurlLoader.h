#ifndef WW_CCURL_LOADER_H
#define WW_CCURL_LOADER_H

#include <stddef.h>

/// What one GET came to. `curl_code` is libcurl's CURLcode (0: the exchange completed, whatever
/// the status); `timed_out_total` says the hard deadline, not the idle limit, ended it.
typedef struct {
    long status;
    int curl_code;
    int too_large;
    int timed_out;
    int timed_out_total;
    char error[256];
} ww_http_outcome;

/// Loads libcurl (once per process). 0 on success; otherwise `error` holds the loader's reason.
int ww_curl_load(char *error, size_t error_size);

/// One bounded GET. `headers` are full header lines ("Accept: text/calendar"). The body is
/// malloc'ed into `*body` (free it with `ww_http_free`), at most `max_body` bytes: a larger
/// Content-Length is refused before the body, a longer body is cut off (`too_large`).
/// Only http and https, also across redirects (at most 5). Returns `curl_code`.
int ww_http_get(const char *url, const char *const *headers, size_t header_count,
                long idle_timeout_ms, long total_timeout_ms, size_t max_body,
                unsigned char **body, size_t *body_count, ww_http_outcome *outcome);

/// `ww_http_get`, or a POST of `post_count` bytes when `post_body` is not NULL (redirects not followed).
int ww_http_request(const char *url, const char *const *headers, size_t header_count,
                    const unsigned char *post_body, size_t post_count,
                    long idle_timeout_ms, long total_timeout_ms, size_t max_body,
                    unsigned char **body, size_t *body_count, ww_http_outcome *outcome);

void ww_http_free(unsigned char *body);

#endif
