#!/usr/bin/env python3
"""instrument-seq.py IN.cu OUT.cu: adds timers to a lock-dataflow:persistent translation unit of
`finegrain show needleman-wunsch-seq --cuda` (a folded kernel over sequences): clock64() cycles per chunk of 32 steps in
three phases (the edge window with its wait for the band to the left, the wait for room in the ring, the steps), and
each band's start, first window and end on the global timer (ns), which give how long after its left neighbour a
band starts and how long it then runs, and each band's own cycles per chunk by phase (printed for bands 0, 1, 2, the middle one
and the last four). seq-driver.cu built with -DPROF prints them."""
import re
import sys

def block_end(lines, start):
    """Index of the line closing the block opened on line `start` (same indentation, a lone '}')."""
    indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
    return next(i for i in range(start + 1, len(lines)) if lines[i] == indent + '}')

def instrument(src, dst):
    text = open(src).read()
    bands = int(re.search(r'bands:\s+(\d+) bands', text).group(1))
    lines = text.split('\n')
    i_band = next(i for i, l in enumerate(lines) if 'for (int band =' in l)
    i_base = next(i for i, l in enumerate(lines) if 'for (int base = 0; base <' in l)
    i_window = next(i for i, l in enumerate(lines) if 'the window is complete before any lane reads it' in l)
    i_room = next(i for i in range(i_window, len(lines)) if '- 480 > room' in lines[i] or 'room)' in lines[i])
    inserts_after = {
        i_band: 'long long t_win = 0, t_room = 0, t_steps = 0, chunks = 0; unsigned long long g_start = fg_gtime(), g_first = 0;',
        i_base: 'long long c0 = clock64();',
        i_window: 'long long c1 = clock64(); t_win += c1 - c0; if (base == 0) g_first = fg_gtime();'
                  ' if (lane == 0 && band < 8 && base < 16 * 32) fg_chunk[(band * 16 + base / 32) * 2] = fg_gtime();',
        block_end(lines, i_room): 'long long c2 = clock64(); t_room += c2 - c1;',
    }
    inserts_before = {
        block_end(lines, i_base): 't_steps += clock64() - c2; chunks++;'
                                  ' if (lane == 0 && band < 8 && base < 16 * 32) fg_chunk[(band * 16 + base / 32) * 2 + 1] = fg_gtime();',
        block_end(lines, i_band): 'if (lane == 0) { fg_band[band * 3] = g_start; fg_band[band * 3 + 1] = g_first; fg_band[band * 3 + 2] = fg_gtime(); fg_phase[band * 4] = t_win; fg_phase[band * 4 + 1] = t_room; fg_phase[band * 4 + 2] = t_steps; fg_phase[band * 4 + 3] = chunks;'
                                  ' atomicAdd(&fg_prof[0], (unsigned long long) t_win); atomicAdd(&fg_prof[1], (unsigned long long) t_room);'
                                  ' atomicAdd(&fg_prof[2], (unsigned long long) t_steps); atomicAdd(&fg_prof[3], (unsigned long long) chunks); }',
    }
    out = []
    for i, line in enumerate(lines):
        if i in inserts_before:
            out.append(inserts_before[i])
        out.append(line)
        if i in inserts_after:
            out.append(inserts_after[i])
    header = ('#include "finegrain.cuh"\n#include <cstdio>\n#include <vector>\n#include <algorithm>\n'
              '__device__ unsigned long long fg_prof[4];\n__device__ unsigned long long fg_chunk[8 * 16 * 2];\n'
              f'__device__ unsigned long long fg_band[{bands} * 3];\n__device__ long long fg_phase[{bands} * 4];\n'
              '__device__ __forceinline__ unsigned long long fg_gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }\n'
              'extern "C" void fg_prof_reset() { unsigned long long z[4] = {0, 0, 0, 0}; cudaMemcpyToSymbol(fg_prof, z, sizeof z); }\n'
              'extern "C" void fg_prof_print() {\n'
              '    unsigned long long h[4]; cudaMemcpyFromSymbol(h, fg_prof, sizeof h);\n'
              '    printf("  cycles per chunk: window %.0f room %.0f steps %.0f (%llu chunks)\\n", (double) h[0] / h[3], (double) h[1] / h[3], (double) h[2] / h[3], h[3]);\n'
              f'    const int n = {bands}; std::vector<unsigned long long> g(n * 3); cudaMemcpyFromSymbol(g.data(), fg_band, n * 3 * 8);\n'
              '    unsigned long long t0 = g[0]; for (int b = 0; b < n; b++) t0 = std::min(t0, g[b * 3]);\n'
              '    double run = 0; for (int b = 0; b < n; b++) run += (double) (g[b * 3 + 2] - g[b * 3 + 1]);\n'
              '    printf("  bands %d: first window of band 0 at %.1f us, of band %d at %.1f us (%.2f us a band); a band runs %.1f us after its first window (mean); last ends at %.1f us\\n",\n'
              '        n, (g[1] - t0) / 1e3, n - 1, (g[(n - 1) * 3 + 1] - t0) / 1e3, (double) (g[(n - 1) * 3 + 1] - g[1]) / 1e3 / (n > 1 ? n - 1 : 1), run / n / 1e3, (g[(n - 1) * 3 + 2] - t0) / 1e3);\n'
              '    printf("  first window at band:"); for (int b = 0; b < n; b += std::max(1, n / 8)) printf(" %d:%.1f", b, (g[b * 3 + 1] - t0) / 1e3); printf(" us\\n");\n'
              '    printf("  end at band:"); for (int b = 0; b < n; b += std::max(1, n / 8)) printf(" %d:%.1f", b, (g[b * 3 + 2] - t0) / 1e3); printf(" us\\n");\n'
              '    std::vector<long long> ph(n * 4); cudaMemcpyFromSymbol(ph.data(), fg_phase, n * 4 * 8);\n'
              '    int picks[] = {0, 1, 2, n / 2, n - 4, n - 3, n - 2, n - 1};\n'
              '    for (int b : picks) printf("  band %d: first window %.1f us, end %.1f us, cycles per chunk: window %.0f room %.0f steps %.0f\\n", b, (g[b * 3 + 1] - t0) / 1e3, (g[b * 3 + 2] - t0) / 1e3, (double) ph[b * 4] / ph[b * 4 + 3], (double) ph[b * 4 + 1] / ph[b * 4 + 3], (double) ph[b * 4 + 2] / ph[b * 4 + 3]);\n'
              '    std::vector<unsigned long long> ch(256); cudaMemcpyFromSymbol(ch.data(), fg_chunk, 256 * 8);\n'
              '    printf("  window done / steps done (us from band 0\'s first window), bands 0-7, chunks 0-15:\\n");\n'
              '    for (int b = 0; b < std::min(n, 8); b++) { printf("   band %d:", b); for (int c = 0; c < 16; c++) printf(" %.1f/%.1f", (ch[(b * 16 + c) * 2] - (double) ch[0]) / 1e3, (ch[(b * 16 + c) * 2 + 1] - (double) ch[0]) / 1e3); printf("\\n"); }\n'
              '}\n')
    open(dst, 'w').write('\n'.join(out).replace('#include "finegrain.cuh"\n', header, 1))

if __name__ == '__main__':
    instrument(sys.argv[1], sys.argv[2])
