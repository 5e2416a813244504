// libcurl through dlopen, at the first request: linking it (directly or through
// FoundationNetworking) makes every `weaver` start map and relocate libcurl and the ~25 libraries
// behind it (TLS, Kerberos, LDAP, SSH, IDN...), ~13 ms of a ~75 ms `weaver render` that never
// touches the network. The header gives the option numbers; the functions come from the library.
#include "CCurlLoader.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    // libcurl4's soname; the .deb depends on the package that ships it.
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (%s)", dlerror());
        return;
    }
#define SYM(field, name) \
    if (!(*(void **)&curl.field = dlsym(lib, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks %s", name); \
        return; \
    }
    SYM(global_init, "curl_global_init")
    SYM(easy_init, "curl_easy_init")
    SYM(easy_setopt, "curl_easy_setopt")
    SYM(easy_perform, "curl_easy_perform")
    SYM(easy_getinfo, "curl_easy_getinfo")
    SYM(easy_cleanup, "curl_easy_cleanup")
    SYM(easy_strerror, "curl_easy_strerror")
    SYM(slist_append, "curl_slist_append")
    SYM(slist_free_all, "curl_slist_free_all")
#undef SYM
    // Not thread-safe in older libcurl: done once, here, under pthread_once.
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed: %s", curl.easy_strerror(code));
        return;
    }
    loaded = 1;
}

int ww_curl_load(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (loaded) return 0;
    if (error && error_size) snprintf(error, error_size, "%s", load_error);
    return -1;
}

typedef struct {
    unsigned char *bytes;
    size_t count, capacity, limit;
    int too_large;
} body_buffer;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    body_buffer *b = context;
    size_t n = size * count;
    if (n > b->limit - b->count) {
        b->too_large = 1;
        return 0;   // stops the transfer: CURLE_WRITE_ERROR
    }
    if (b->count + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->count + n) capacity *= 2;
        if (capacity > b->limit) capacity = b->limit;
        unsigned char *grown = realloc(b->bytes, capacity);
        if (!grown) return 0;
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->count, data, n);
    b->count += n;
    return n;
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int ww_http_get(const char *url, const char *const *headers, size_t header_count,
                long idle_timeout_ms, long total_timeout_ms, size_t max_body,
                unsigned char **body, size_t *body_count, ww_http_outcome *outcome) {
    return ww_http_request(url, headers, header_count, NULL, 0, idle_timeout_ms, total_timeout_ms, max_body, body,
                           body_count, outcome);
}

int ww_http_request(const char *url, const char *const *headers, size_t header_count,
                    const unsigned char *post_body, size_t post_count,
                    long idle_timeout_ms, long total_timeout_ms, size_t max_body,
                    unsigned char **body, size_t *body_count, ww_http_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    *body = NULL;
    *body_count = 0;
    if (ww_curl_load(outcome->error, sizeof outcome->error) != 0) {
        outcome->curl_code = CURLE_FAILED_INIT;
        return outcome->curl_code;
    }
    CURL *easy = curl.easy_init();
    if (!easy) {
        outcome->curl_code = CURLE_FAILED_INIT;
        snprintf(outcome->error, sizeof outcome->error, "curl_easy_init failed");
        return outcome->curl_code;
    }
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);

    body_buffer buffer = {.limit = max_body};
    char detail[CURL_ERROR_SIZE] = "";
    // The idle limit: under 1 byte/s for this many whole seconds (libcurl's granularity), at
    // least 1; connecting has the same limit in milliseconds. The hard deadline covers it all.
    long idle_seconds = (idle_timeout_ms + 999) / 1000;
    if (idle_seconds < 1) idle_seconds = 1;
    curl.easy_setopt(easy, CURLOPT_URL, url);
    if (post_body) {
        // libcurl reads the body from our buffer during the call; the size option comes first.
        curl.easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_count);
        curl.easy_setopt(easy, CURLOPT_POSTFIELDS, (const char *)post_body);
    } else {
        curl.easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    }
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, list);
    // The string forms exist from libcurl 7.85; older ones take the bit masks.
    if (curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK ||
        curl.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK) {
        curl.easy_setopt(easy, (CURLoption)181 /* CURLOPT_PROTOCOLS */, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
        curl.easy_setopt(easy, (CURLoption)182 /* CURLOPT_REDIR_PROTOCOLS */, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    // A POST is not replayed at another address: a redirect answers it as the failure it is.
    curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, post_body ? 0L : 1L);
    curl.easy_setopt(easy, CURLOPT_MAXREDIRS, 5L);
    curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, idle_timeout_ms);
    curl.easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl.easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, idle_seconds);
    curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, total_timeout_ms);
    curl.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_body);
    curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, &buffer);
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, detail);
    // gzip and deflate answers are decoded; the cap applies to the decoded bytes.
    curl.easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    // No cookies, no credentials from ~/.netrc, no proxy settings beyond the environment's.
    curl.easy_setopt(easy, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);

    double started = seconds_now();
    CURLcode code = curl.easy_perform(easy);
    double elapsed = seconds_now() - started;
    long status = 0;
    curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    outcome->status = status;
    outcome->curl_code = code;
    if (code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && buffer.too_large)) outcome->too_large = 1;
    if (code == CURLE_OPERATION_TIMEDOUT) {
        outcome->timed_out = 1;
        outcome->timed_out_total = elapsed * 1000 >= (double)total_timeout_ms - 50;
    }
    if (code != CURLE_OK) {
        snprintf(outcome->error, sizeof outcome->error, "%s", detail[0] ? detail : curl.easy_strerror(code));
    }
    curl.slist_free_all(list);
    curl.easy_cleanup(easy);
    if (code == CURLE_OK) {
        *body = buffer.bytes;
        *body_count = buffer.count;
    } else {
        free(buffer.bytes);
    }
    return code;
}

void ww_http_free(unsigned char *body) { free(body); }
