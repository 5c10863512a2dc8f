/* The same work as boardai's slide_all in plain C: 65536-entry row tables (left, right,
 * reward), transpose for up/down, every board slid in all four directions, afterstates and
 * rewards stored. Built and run by benchmarks/compare_engine.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint16_t LEFT[65536], RIGHT[65536];
static uint32_t REWARD[65536];

static void build(void) {
    for (int x = 0; x < 65536; x++) {
        int t[4], n = 0, out[4] = {0, 0, 0, 0}, k = 0, r = 0;
        for (int i = 0; i < 4; i++) { int e = (x >> (4 * i)) & 15; if (e) t[n++] = e; }
        for (int i = 0; i < n;) {
            if (i + 1 < n && t[i] == t[i + 1]) { int e = t[i] + 1; r += 1 << e; if (e > 15) e = 15; out[k++] = e; i += 2; }
            else out[k++] = t[i++];
        }
        int row = 0, rev = 0, xr = 0;
        for (int j = 0; j < 4; j++) {
            row |= out[j] << (4 * j); rev |= out[j] << (4 * (3 - j));
            xr |= ((x >> (4 * j)) & 15) << (4 * (3 - j));
        }
        LEFT[x] = row; REWARD[x] = r; RIGHT[xr] = rev;
    }
}

static inline uint64_t transpose(uint64_t x) {
    uint64_t a1 = x & 0xF0F00F0FF0F00F0FULL, a2 = x & 0x0000F0F00000F0F0ULL, a3 = x & 0x0F0F00000F0F0000ULL;
    uint64_t a = a1 | (a2 << 12) | (a3 >> 12);
    uint64_t b1 = a & 0xFF00FF0000FF00FFULL, b2 = a & 0x00FF00FF00000000ULL, b3 = a & 0x00000000FF00FF00ULL;
    return b1 | (b2 >> 24) | (b3 << 24);
}

static inline uint64_t rows(uint64_t b, const uint16_t *t, int64_t *reward) {
    uint64_t r0 = b & 0xFFFF, r1 = (b >> 16) & 0xFFFF, r2 = (b >> 32) & 0xFFFF, r3 = b >> 48;
    *reward = (int64_t)REWARD[r0] + REWARD[r1] + REWARD[r2] + REWARD[r3];
    return (uint64_t)t[r0] | ((uint64_t)t[r1] << 16) | ((uint64_t)t[r2] << 32) | ((uint64_t)t[r3] << 48);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: slide BOARDS.bin REPEAT\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    fseek(f, 0, SEEK_END); long n = ftell(f) / 8; fseek(f, 0, SEEK_SET);
    uint64_t *boards = malloc(8 * n), *after = malloc(32 * n);
    int64_t *rewards = malloc(32 * n);
    if (fread(boards, 8, n, f) != (size_t)n) return 1;
    build();
    int repeat = atoi(argv[2]);
    for (int rep = 0; rep < repeat; rep++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (long i = 0; i < n; i++) {
            uint64_t b = boards[i], t = transpose(b);
            after[4 * i + 0] = transpose(rows(t, LEFT, &rewards[4 * i + 0]));
            after[4 * i + 1] = rows(b, RIGHT, &rewards[4 * i + 1]);
            after[4 * i + 2] = transpose(rows(t, RIGHT, &rewards[4 * i + 2]));
            after[4 * i + 3] = rows(b, LEFT, &rewards[4 * i + 3]);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double dt = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        uint64_t check = 0;
        for (long i = 0; i < 4 * n; i++) check ^= after[i] + (uint64_t)rewards[i];
        printf("%.6e %llu\n", 4.0 * n / dt, (unsigned long long)check);
    }
    return 0;
}
