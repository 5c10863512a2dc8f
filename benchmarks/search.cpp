// nneonneo's 2048-ai expectimax (github.com/nneonneo/2048-ai, 2048.cpp), restated for a
// side-by-side benchmark: row tables, column tables, the row heuristic with his weights, a
// std::unordered_map transposition table, and his probability cut-off. Reads packed boards
// (uint64, little endian) from a file, searches each to a fixed depth, prints one line per
// board (best move and its value) and a final line: positions, moves evaluated, wall and CPU
// seconds.
//
// Build: g++ -O2 -o search search.cpp     Run: ./search boards.bin DEPTH [PROB_CUT]
// DEPTH counts max layers as boardai does; nneonneo's depth_limit is DEPTH - 1. DEPTH 0 is
// nneonneo's own adaptive depth (expectimax:preset=strong in boardai).
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <unordered_map>
#include <vector>
#include <algorithm>

typedef uint64_t board_t;
typedef uint16_t row_t;

static row_t row_left_table[65536];
static row_t row_right_table[65536];
static board_t col_up_table[65536];
static board_t col_down_table[65536];
static float heur_score_table[65536];

static const board_t ROW_MASK = 0xFFFFULL;
static const board_t COL_MASK = 0x000F000F000F000FULL;

static inline board_t unpack_col(row_t row) {
    board_t tmp = row;
    return (tmp | (tmp << 12ULL) | (tmp << 24ULL) | (tmp << 36ULL)) & COL_MASK;
}
static inline row_t reverse_row(row_t row) {
    return (row >> 12) | ((row >> 4) & 0x00F0) | ((row << 4) & 0x0F00) | (row << 12);
}
static inline board_t transpose(board_t x) {
    board_t a1 = x & 0xF0F00F0FF0F00F0FULL;
    board_t a2 = x & 0x0000F0F00000F0F0ULL;
    board_t a3 = x & 0x0F0F00000F0F0000ULL;
    board_t a = a1 | (a2 << 12) | (a3 >> 12);
    board_t b1 = a & 0xFF00FF0000FF00FFULL;
    board_t b2 = a & 0x00FF00FF00000000ULL;
    board_t b3 = a & 0x00000000FF00FF00ULL;
    return b1 | (b2 >> 24) | (b3 << 24);
}
static int count_empty(board_t x) {
    x |= (x >> 2) & 0x3333333333333333ULL;
    x |= (x >> 1);
    x = ~x & 0x1111111111111111ULL;
    x += x >> 32;
    x += x >> 16;
    x += x >> 8;
    x += x >> 4;
    return x & 0xf;
}

static int count_distinct_tiles(board_t board) {
    uint16_t bitset = 0;
    while (board) {
        bitset |= 1 << (board & 0xf);
        board >>= 4;
    }
    bitset >>= 1;  // don't count empty tiles
    int count = 0;
    while (bitset) {
        bitset &= bitset - 1;
        count++;
    }
    return count;
}

static void init_tables() {
    for (unsigned row = 0; row < 65536; ++row) {
        unsigned line[4] = {(row >> 0) & 0xf, (row >> 4) & 0xf, (row >> 8) & 0xf, (row >> 12) & 0xf};
        float sum = 0;
        int empty = 0, merges = 0, prev = 0, counter = 0;
        for (int i = 0; i < 4; ++i) {
            int rank = line[i];
            sum += pow(rank, 3.5f);
            if (rank == 0) {
                empty++;
            } else {
                if (prev == rank) counter++;
                else if (counter > 0) { merges += 1 + counter; counter = 0; }
                prev = rank;
            }
        }
        if (counter > 0) merges += 1 + counter;
        float mono_left = 0, mono_right = 0;
        for (int i = 1; i < 4; ++i) {
            if (line[i - 1] > line[i]) mono_left += pow(line[i - 1], 4.0f) - pow(line[i], 4.0f);
            else mono_right += pow(line[i], 4.0f) - pow(line[i - 1], 4.0f);
        }
        heur_score_table[row] = 200000.0f + 270.0f * empty + 700.0f * merges -
                                47.0f * std::min(mono_left, mono_right) - 11.0f * sum;
        // slide left
        for (int i = 0; i < 3; ++i) {
            int j;
            for (j = i + 1; j < 4; ++j) if (line[j] != 0) break;
            if (j == 4) break;
            if (line[i] == 0) { line[i] = line[j]; line[j] = 0; i--; }
            else if (line[i] == line[j]) {
                if (line[i] != 0xf) line[i]++;
                line[j] = 0;
            }
        }
        row_t result = (line[0] << 0) | (line[1] << 4) | (line[2] << 8) | (line[3] << 12);
        row_t rev_result = reverse_row(result);
        unsigned rev_row = reverse_row(row);
        row_left_table[row] = result;
        row_right_table[rev_row] = rev_result;
        col_up_table[row] = unpack_col(result);
        col_down_table[rev_row] = unpack_col(rev_result);
    }
}

static inline board_t execute_move(int move, board_t board) {
    board_t ret = board, t;
    switch (move) {
    case 0:  // up
        t = transpose(board);
        ret ^= (col_up_table[(t >> 0) & ROW_MASK] ^ unpack_col((t >> 0) & ROW_MASK)) << 0;
        ret ^= (col_up_table[(t >> 16) & ROW_MASK] ^ unpack_col((t >> 16) & ROW_MASK)) << 4;
        ret ^= (col_up_table[(t >> 32) & ROW_MASK] ^ unpack_col((t >> 32) & ROW_MASK)) << 8;
        ret ^= (col_up_table[(t >> 48) & ROW_MASK] ^ unpack_col((t >> 48) & ROW_MASK)) << 12;
        return ret;
    case 2:  // down
        t = transpose(board);
        ret ^= (col_down_table[(t >> 0) & ROW_MASK] ^ unpack_col((t >> 0) & ROW_MASK)) << 0;
        ret ^= (col_down_table[(t >> 16) & ROW_MASK] ^ unpack_col((t >> 16) & ROW_MASK)) << 4;
        ret ^= (col_down_table[(t >> 32) & ROW_MASK] ^ unpack_col((t >> 32) & ROW_MASK)) << 8;
        ret ^= (col_down_table[(t >> 48) & ROW_MASK] ^ unpack_col((t >> 48) & ROW_MASK)) << 12;
        return ret;
    case 3:  // left
        ret ^= board_t(row_left_table[(board >> 0) & ROW_MASK] ^ ((board >> 0) & ROW_MASK)) << 0;
        ret ^= board_t(row_left_table[(board >> 16) & ROW_MASK] ^ ((board >> 16) & ROW_MASK)) << 16;
        ret ^= board_t(row_left_table[(board >> 32) & ROW_MASK] ^ ((board >> 32) & ROW_MASK)) << 32;
        ret ^= board_t(row_left_table[(board >> 48) & ROW_MASK] ^ ((board >> 48) & ROW_MASK)) << 48;
        return ret;
    default:  // 1 right
        ret ^= board_t(row_right_table[(board >> 0) & ROW_MASK] ^ ((board >> 0) & ROW_MASK)) << 0;
        ret ^= board_t(row_right_table[(board >> 16) & ROW_MASK] ^ ((board >> 16) & ROW_MASK)) << 16;
        ret ^= board_t(row_right_table[(board >> 32) & ROW_MASK] ^ ((board >> 32) & ROW_MASK)) << 32;
        ret ^= board_t(row_right_table[(board >> 48) & ROW_MASK] ^ ((board >> 48) & ROW_MASK)) << 48;
        return ret;
    }
}

static inline float score_helper(board_t board, const float *table) {
    return table[(board >> 0) & ROW_MASK] + table[(board >> 16) & ROW_MASK] +
           table[(board >> 32) & ROW_MASK] + table[(board >> 48) & ROW_MASK];
}
static inline float score_heur_board(board_t board) {
    return score_helper(board, heur_score_table) + score_helper(transpose(board), heur_score_table);
}

struct trans_table_entry_t { uint8_t depth; float heuristic; };
struct eval_state {
    std::unordered_map<board_t, trans_table_entry_t> trans_table;
    int maxdepth = 0, curdepth = 0, cachehits = 0;
    unsigned long moves_evaled = 0;
    int depth_limit = 0;
    float cprob_thresh = 0.0001f;
};

static float score_move_node(eval_state &state, board_t board, float cprob);

static float score_tilechoose_node(eval_state &state, board_t board, float cprob) {
    if (cprob < state.cprob_thresh || state.curdepth >= state.depth_limit) {
        state.maxdepth = std::max(state.curdepth, state.maxdepth);
        return score_heur_board(board);
    }
    if (state.curdepth < 15) {
        auto i = state.trans_table.find(board);
        if (i != state.trans_table.end()) {
            trans_table_entry_t entry = i->second;
            if (entry.depth <= state.curdepth) { state.cachehits++; return entry.heuristic; }
        }
    }
    int num_open = count_empty(board);
    cprob /= num_open;
    float res = 0.0f;
    board_t tmp = board, tile_2 = 1;
    while (tile_2) {
        if ((tmp & 0xf) == 0) {
            res += score_move_node(state, board | tile_2, cprob * 0.9f) * 0.9f;
            res += score_move_node(state, board | (tile_2 << 1), cprob * 0.1f) * 0.1f;
        }
        tmp >>= 4;
        tile_2 <<= 4;
    }
    res = res / num_open;
    if (state.curdepth < 15) {
        trans_table_entry_t entry = {static_cast<uint8_t>(state.curdepth), res};
        state.trans_table[board] = entry;
    }
    return res;
}

static float score_move_node(eval_state &state, board_t board, float cprob) {
    float best = 0.0f;
    state.curdepth++;
    for (int move = 0; move < 4; ++move) {
        board_t newboard = execute_move(move, board);
        state.moves_evaled++;
        if (board != newboard) best = std::max(best, score_tilechoose_node(state, newboard, cprob));
    }
    state.curdepth--;
    return best;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: search boards.bin DEPTH [PROB_CUT]\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    std::vector<board_t> boards;
    board_t b;
    while (fread(&b, sizeof b, 1, f) == 1) boards.push_back(b);
    fclose(f);
    int depth = atoi(argv[2]);
    float cut = argc > 3 ? atof(argv[3]) : 0.0001f;
    init_tables();
    unsigned long total = 0;
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    std::vector<int> best_moves;
    std::vector<float> best_values;
    for (board_t board : boards) {
        int best_move = -1;
        float best = -1.0f;
        for (int move = 0; move < 4; ++move) {
            eval_state state;  // a fresh table per root move, as 2048.cpp does
            // DEPTH 0: nneonneo's adaptive depth, max(3, distinct tiles - 2).
            state.depth_limit = depth > 0 ? depth - 1 : std::max(3, count_distinct_tiles(board) - 2);
            state.cprob_thresh = cut;
            board_t newboard = execute_move(move, board);
            float res = 0.0f;
            if (newboard != board) res = score_tilechoose_node(state, newboard, 1.0f) + 1e-6f;
            total += state.moves_evaled + 1;  // the root move itself, as boardai counts
            if (res > best) { best = res; best_move = move; }
        }
        best_moves.push_back(best_move);
        best_values.push_back(best);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    for (size_t i = 0; i < boards.size(); ++i) printf("%d %.3f\n", best_moves[i], best_values[i]);
    printf("total %zu %lu %.6f %.6f\n", boards.size(), total, secs, cpu);
    return 0;
}
