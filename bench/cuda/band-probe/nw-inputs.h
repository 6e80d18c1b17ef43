// nw-inputs.h: the inputs nw-driver.cu and graph-driver.cu run a needleman-wunsch unit on: a random reference in
// [-10, 10] from a fixed seed, the halo -10 per row and column, penalty 10; both arrays R x C with the halo at row 0 and
// column 0.
#pragma once
#include <vector>

static const int NW_PENALTY = 10;

static void nw_inputs(long long R, long long C, std::vector<int>& ref, std::vector<int>& score) {
    ref.assign(R * C, 0);
    score.assign(R * C, 0);
    unsigned seed = 12345;
    for (long long k = 0; k < R * C; k++) { seed = seed * 1664525u + 1013904223u; ref[k] = (int) ((seed >> 16) % 21) - 10; }
    for (long long i = 0; i < R; i++) score[i * C] = (int) (-i * NW_PENALTY);
    for (long long j = 0; j < C; j++) score[j] = (int) (-j * NW_PENALTY);
}
