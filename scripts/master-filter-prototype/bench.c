// Times Sources/C/CNoiseKernels/Cascade.c against the prototype in cascade_skew2.c for 1…20
// sections (thread CPU time, best of 9, 8192-frame calls, stereo), and checks the prototype:
// against a double-precision direct form I cascade of the same float coefficients, and that
// splitting a signal into calls of varying length gives the same bits as one call. See run.sh.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cnk_cascade_avx2(int sections, const float *coefficients, float *state, float *x, long frameCount);
void proto_cascade(int sections, const float *coefficients, float gain, float *history, float *x, long frameCount);
void proto_cascade_avx2(int sections, const float *coefficients, float gain, float *history, float *x, long frameCount);
void proto_cascade_avx512vl(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// Twenty RBJ peaking sections, 40 Hz up in steps of ×1.4, Q 0.6, −6…+6 dB: Cascade.c's five
// coefficients, and the prototype's four with the product of the b0s as its gain.
static float c5[20 * 5], c4[20 * 4];
static void design(void) {
    for (int k = 0; k < 20; k++) {
        double w = 2 * M_PI * (40.0 * pow(1.4, k)) / 48000, alpha = sin(w) / (2 * 0.6);
        double A = pow(10, ((k % 5) - 2) * 3 / 40.0), a0 = 1 + alpha / A;
        double b0 = (1 + alpha * A) / a0, b1 = -2 * cos(w) / a0, b2 = (1 - alpha * A) / a0;
        double a1 = -2 * cos(w) / a0, a2 = (1 - alpha / A) / a0;
        c5[5 * k] = b0, c5[5 * k + 1] = b1, c5[5 * k + 2] = b2, c5[5 * k + 3] = a1, c5[5 * k + 4] = a2;
        c4[4 * k] = b1 / b0, c4[4 * k + 1] = b2 / b0, c4[4 * k + 2] = a1, c4[4 * k + 3] = a2;
    }
}

static unsigned seed = 7;
static float noise(void) {
    seed = seed * 1664525u + 1013904223u;
    return (int)(seed >> 8) * 1e-7f;
}

int main(void) {
    design();
    enum { N = 20000 };
    static float x[2 * N], y[2 * N], z[2 * N];
    static double ref[2 * N];
    for (int i = 0; i < 2 * N; i++) x[i] = noise();
    printf("accuracy (max |prototype - double|, same float coefficients) and splitting:\n");
    for (int ns = 1; ns <= 20; ns++) {
        float gain = 1;
        for (int k = 0; k < ns; k++) gain *= c5[5 * k];
        double h[21][4] = {{0}};
        for (int i = 0; i < N; i++)
            for (int ch = 0; ch < 2; ch++) {
                double v = x[2 * i + ch] * (double)gain;
                double in1 = h[0][ch], in2 = h[0][2 + ch];
                h[0][2 + ch] = in1, h[0][ch] = v;
                for (int k = 0; k < ns; k++) {
                    const float *q = c4 + 4 * k;
                    double out = v + q[0] * in1 + q[1] * in2 - q[3] * h[k + 1][2 + ch] - q[2] * h[k + 1][ch];
                    in1 = h[k + 1][ch], in2 = h[k + 1][2 + ch];
                    h[k + 1][2 + ch] = h[k + 1][ch], h[k + 1][ch] = out;
                    v = out;
                }
                ref[2 * i + ch] = v;
            }
        float hy[84] = {0}, hz[84] = {0};
        memcpy(y, x, sizeof x);
        for (int pos = 0, len = 1; pos < N; len = (len * 7 + 3) % 300 + 1) {
            int m = pos + len > N ? N - pos : len;
            proto_cascade_avx2(ns, c4, gain, hy, y + 2 * pos, m);
            pos += m;
        }
        memcpy(z, x, sizeof x);
        proto_cascade(ns, c4, gain, hz, z, N);
        double err = 0, peak = 0;
        for (int i = 0; i < 2 * N; i++) {
            err = fmax(err, fabs(y[i] - ref[i]));
            peak = fmax(peak, fabs(ref[i]));
        }
        printf("  %2d sections: %.1e (peak %.2f); split AVX2 = whole baseline: %s\n", ns, err, peak,
            memcmp(y, z, sizeof y) == 0 ? "yes" : "NO");
    }
    enum { M = 8192 };
    static float src[2 * M], buf[2 * M];
    for (int i = 0; i < 2 * M; i++) src[i] = noise();
    printf("ns per stereo frame (x 48000 = us per second of audio):\n");
    printf("  sections  Cascade.c  prototype(AVX2)  prototype(AVX-512VL registers)\n");
    for (int ns = 1; ns <= 20; ns++) {
        double best[3] = {1e9, 1e9, 1e9};
        float st[80] = {0}, h1[84] = {0}, h2[84] = {0};
        for (int r = 0; r < 9; r++) {
            for (int v = 0; v < 3; v++) {
                double t0 = now();
                for (int b = 0; b < 250; b++) {
                    memcpy(buf, src, sizeof buf);
                    if (v == 0) cnk_cascade_avx2(ns, c5, st, buf, M);
                    if (v == 1) proto_cascade_avx2(ns, c4, 0.5f, h1, buf, M);
                    if (v == 2) proto_cascade_avx512vl(ns, c4, 0.5f, h2, buf, M);
                }
                best[v] = fmin(best[v], now() - t0);
            }
        }
        printf("  %8d  %9.2f  %15.2f  %30.2f\n", ns, best[0] / (250.0 * M) * 1e9, best[1] / (250.0 * M) * 1e9,
            best[2] / (250.0 * M) * 1e9);
    }
    return 0;
}
