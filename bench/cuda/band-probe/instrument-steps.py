#!/usr/bin/env python3
"""instrument-steps.py IN.cu OUT.cu: adds a clock64() timer after every step of chunks 0 to 3 and of chunk 64 of bands
0 to 3 of a lock-dataflow:persistent translation unit (`finegrain show KERNEL --cuda`), the first taken where the steps
start (after the window and the wait for room). seq-driver.cu built with -DPROF prints each chunk's cycles step by step:
whether a slow chunk is slow in every step or in a few."""
import re
import sys

CHUNKS = {0: 0, 1: 1, 2: 2, 3: 3, 64: 4}

def block_end(lines, start):
    indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
    return next(i for i in range(start + 1, len(lines)) if lines[i] == indent + '}')

def instrument(src, dst):
    lines = open(src).read().split('\n')
    slot = ' '.join(f'base == {32 * c} ? {s} :' for c, s in CHUNKS.items()) + ' -1'
    record = 'if (lane == 0 && band < 4) {{ const int fg_c = {slot}; if (fg_c >= 0) fg_step[(band * 5 + fg_c) * 33 + {at}] = clock64(); }}'
    i_steps = next(i for i, l in enumerate(lines) if l.strip().startswith('if (base >= 32 && base + 31 <'))
    loops = [i for i, l in enumerate(lines) if l.strip() == 'for (int k = 0; k < 32; k++) {']
    before = {i_steps: record.format(slot=slot, at=0)}
    for i in loops:
        before[block_end(lines, i)] = record.format(slot=slot, at='k + 1')
    out = []
    for i, line in enumerate(lines):
        if i in before:
            out.append(before[i])
        out.append(line)
    header = ('#include "finegrain.cuh"\n#include <cstdio>\n'
              '__device__ long long fg_step[4 * 5 * 33];\n'
              'extern "C" void fg_prof_reset() {}\n'
              'extern "C" void fg_prof_print() {\n'
              '    long long h[4 * 5 * 33]; cudaMemcpyFromSymbol(h, fg_step, sizeof h);\n'
              '    const int chunk[5] = {' + ', '.join(str(c) for c in CHUNKS) + '};\n'
              '    for (int b = 0; b < 4; b++) for (int c = 0; c < 5; c++) {\n'
              '        const long long* t = h + (b * 5 + c) * 33;\n'
              '        printf("  band %d chunk %2d: %6lld cycles:", b, chunk[c], t[32] - t[0]);\n'
              '        for (int k = 1; k <= 32; k++) printf(" %lld", t[k] - t[k - 1]);\n'
              '        printf("\\n");\n'
              '    }\n'
              '}\n')
    open(dst, 'w').write('\n'.join(out).replace('#include "finegrain.cuh"\n', header, 1))

if __name__ == '__main__':
    instrument(sys.argv[1], sys.argv[2])
