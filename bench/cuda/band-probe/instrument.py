#!/usr/bin/env python3
"""instrument.py IN.cu OUT.cu: adds clock64() timers to a lock-dataflow:persistent translation unit of
`finegrain show needleman-wunsch --cuda`, around the four phases of a chunk of 32 steps: the input rows' copies, the
edge window (the wait for the band to the left included), the steps, and the finished rows' writes. Lane 0 of every
warp adds its totals to fg_prof[] at the end of each band; fg_prof_print() (nw-driver.cu with -DPROF) prints cycles per
chunk, averaged over every band and run."""
import sys

def instrument(src, dst):
    lines = open(src).read().split('\n')
    i_base = next(i for i, l in enumerate(lines) if 'for (int base = 0; base <' in l)
    indent = lines[i_base][:len(lines[i_base]) - len(lines[i_base].lstrip())]
    i_end = next(i for i in range(i_base + 1, len(lines)) if lines[i] == indent + '}')
    i_commit = next(i for i, l in enumerate(lines) if 'fg::cp_async_commit();' in l and i > i_base)
    i_window = next(i for i, l in enumerate(lines) if 'the window is complete before any lane reads it' in l)
    i_write = next(i for i, l in enumerate(lines) if 'max(base - 31, 0)' in l)
    while not (lines[i_write].strip().startswith('if (j <') or "every lane's values of this chunk" in lines[i_write]):
        i_write -= 1
    i_band = next(i for i, l in enumerate(lines) if 'for (int band =' in l)
    band_indent = lines[i_band][:len(lines[i_band]) - len(lines[i_band].lstrip())]
    i_band_end = next(i for i in range(i_base + 1, len(lines)) if lines[i] == band_indent + '}')
    inserts = {
        i_base + 1: 'long long c0 = clock64(), c1, c2, c3;',
        i_commit + 1: 'c1 = clock64(); t_copy += c1 - c0;',
        i_window + 1: 'c2 = clock64(); t_edge += c2 - c1;',
        i_write: 'c3 = clock64(); t_steps += c3 - c2;',
        i_end: 't_write += clock64() - c3; chunks++;',
        i_band_end: 'if (lane == 0) { atomicAdd(&fg_prof[0], (unsigned long long) t_copy); atomicAdd(&fg_prof[1], (unsigned long long) t_edge);'
                    ' atomicAdd(&fg_prof[2], (unsigned long long) t_steps); atomicAdd(&fg_prof[3], (unsigned long long) t_write);'
                    ' atomicAdd(&fg_prof[4], (unsigned long long) chunks); }',
    }
    out = []
    for i, line in enumerate(lines):
        if i in inserts:
            out.append(inserts[i])
        out.append(line)
        if i == i_band:
            out.append('long long t_copy = 0, t_edge = 0, t_steps = 0, t_write = 0, chunks = 0;')
    text = '\n'.join(out).replace('#include "finegrain.cuh"', '#include "finegrain.cuh"\n#include <cstdio>\n'
        '__device__ unsigned long long fg_prof[8];\n'
        'extern "C" void fg_prof_print() { unsigned long long h[8]; cudaMemcpyFromSymbol(h, fg_prof, sizeof h);'
        ' printf("  cycles per chunk: copy %.0f edge %.0f steps %.0f write %.0f (%llu chunks)\\n", (double) h[0] / h[4],'
        ' (double) h[1] / h[4], (double) h[2] / h[4], (double) h[3] / h[4], h[4]); }', 1)
    open(dst, 'w').write(text)

if __name__ == '__main__':
    instrument(sys.argv[1], sys.argv[2])
