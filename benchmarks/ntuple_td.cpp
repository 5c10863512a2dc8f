// A plain C++ TD(0)-afterstate learner for 2048 with the 4x6 n-tuple network, in the style of
// the usual C++ programs (Yeh et al.'s / moporgic's TDL2048): 64-bit board, row tables for
// moves, each pattern read through its 8 isomorphisms as lists of cell shifts, backward update
// at the end of each episode, alpha split over the lookups. It exists only to time boardai's
// numba trainer against on the same machine (benchmarks/compare_ntuple.py).
//
// Build: g++ -O3 -march=native -o ntuple_td ntuple_td.cpp
// Run:   ./ntuple_td EPISODES SEED   -> prints "episodes moves seconds cpu_seconds avg_score"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

typedef uint64_t board;
static uint16_t row_left[65536], row_right[65536];
static uint32_t row_reward[65536];

static void init_tables() {
    for (int x = 0; x < 65536; x++) {
        int t[4], n = 0, out[4] = {0, 0, 0, 0}, k = 0, r = 0;
        for (int i = 0; i < 4; i++) if ((x >> (4 * i)) & 15) t[n++] = (x >> (4 * i)) & 15;
        for (int i = 0; i < n; i++) {
            if (i + 1 < n && t[i] == t[i + 1] && t[i] < 15) { out[k++] = t[i] + 1; r += 1 << (t[i] + 1); i++; }
            else out[k++] = t[i];
        }
        int left = 0, rev = 0, xr = 0;
        for (int j = 0; j < 4; j++) { left |= out[j] << (4 * j); rev |= out[j] << (4 * (3 - j)); xr |= ((x >> (4 * j)) & 15) << (4 * (3 - j)); }
        row_left[x] = left; row_reward[x] = r; row_right[xr] = rev;
    }
}

static inline board transpose(board x) {
    board a1 = x & 0xF0F00F0FF0F00F0FULL, a2 = x & 0x0000F0F00000F0F0ULL, a3 = x & 0x0F0F00000F0F0000ULL;
    board a = a1 | (a2 << 12) | (a3 >> 12);
    board b1 = a & 0xFF00FF0000FF00FFULL, b2 = a & 0x00FF00FF00000000ULL, b3 = a & 0x00000000FF00FF00ULL;
    return b1 | (b2 >> 24) | (b3 << 24);
}

static inline board slide_rows(board b, const uint16_t* t, int* reward) {
    board out = 0; int r = 0;
    for (int i = 0; i < 4; i++) { int row = (b >> (16 * i)) & 0xFFFF; out |= (board)t[row] << (16 * i); r += row_reward[row]; }
    *reward = r; return out;
}

static inline board move(board b, int a, int* reward) {  // 0 up 1 right 2 down 3 left
    if (a == 3) return slide_rows(b, row_left, reward);
    if (a == 1) return slide_rows(b, row_right, reward);
    board t = transpose(b);
    return transpose(slide_rows(t, a == 0 ? row_left : row_right, reward));
}

static uint64_t rng_state;
static inline uint64_t splitmix() {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL; z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static board spawn(board b) {
    int empty[16], n = 0;
    for (int i = 0; i < 16; i++) if (((b >> (4 * i)) & 15) == 0) empty[n++] = i;
    if (!n) return b;
    uint64_t bits = splitmix();
    int cell = empty[((bits >> 32) * n) >> 32];
    board tile = ((bits & 0xFFFFFFFFULL) < 429496729ULL) ? 2 : 1;
    return b | (tile << (4 * cell));
}

static const int N_PAT = 4, K = 6;
static const int patterns[N_PAT][K] = {{0, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 9}, {0, 1, 2, 4, 5, 6}, {4, 5, 6, 8, 9, 10}};
static int shifts[N_PAT][8][K];
static float* weights[N_PAT];

static void init_network() {
    for (int p = 0; p < N_PAT; p++) {
        weights[p] = (float*)calloc(1 << (4 * K), sizeof(float));
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < K; j++) {
                int c = patterns[p][j], r = c / 4, col = c % 4;
                if (i >= 4) col = 3 - col;                                       // mirror
                for (int t = 0; t < i % 4; t++) { int nr = col, nc = 3 - r; r = nr; col = nc; }  // rotate
                shifts[p][i][j] = 4 * (4 * r + col);
            }
    }
}

static inline size_t index_of(board b, const int* s) {
    size_t idx = 0;
    for (int j = 0; j < K; j++) idx |= ((b >> s[j]) & 15) << (4 * j);
    return idx;
}

static inline float estimate(board b) {
    float v = 0;
    for (int p = 0; p < N_PAT; p++) for (int i = 0; i < 8; i++) v += weights[p][index_of(b, shifts[p][i])];
    return v;
}

static inline float update(board b, float u) {
    float v = 0, split = u / (N_PAT * 8);
    for (int p = 0; p < N_PAT; p++) for (int i = 0; i < 8; i++) v += (weights[p][index_of(b, shifts[p][i])] += split);
    return v;
}

int main(int argc, char** argv) {
    long episodes = argc > 1 ? atol(argv[1]) : 1000;
    rng_state = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
    init_tables(); init_network();
    const float alpha = 0.1f;
    std::vector<board> path; std::vector<int> rewards;
    long total_moves = 0; double total_score = 0;
    auto t0 = std::chrono::steady_clock::now(); clock_t c0 = clock();
    for (long e = 0; e < episodes; e++) {
        board b = spawn(spawn(0)); path.clear(); rewards.clear(); long score = 0;
        for (;;) {
            int best_a = -1, best_r = 0; float best_q = -1e30f; board best_after = 0;
            for (int a = 0; a < 4; a++) {
                int r; board after = move(b, a, &r);
                if (after == b) continue;
                float q = r + estimate(after);
                if (q > best_q) { best_q = q; best_a = a; best_r = r; best_after = after; }
            }
            if (best_a < 0) break;
            path.push_back(best_after); rewards.push_back(best_r); score += best_r;
            b = spawn(best_after);
        }
        float target = 0;
        for (long t = (long)path.size() - 1; t >= 0; t--) {
            float err = target - estimate(path[t]);
            target = rewards[t] + update(path[t], alpha * err);
        }
        total_moves += path.size(); total_score += score;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = double(clock() - c0) / CLOCKS_PER_SEC;
    printf("%ld %ld %.3f %.3f %.1f\n", episodes, total_moves, secs, cpu, total_score / episodes);
    return 0;
}
