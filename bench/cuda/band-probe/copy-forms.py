#!/usr/bin/env python3
"""copy-forms.py IN.cu FORM OUT.cu: rewrites how a data-parallel unit generated for sm_90 copies its tile, to compare
the copy's spellings on a GPU (the measurements of 2026-12-01 in docs/results/cuda-h200-2026-12-01/copy-rounds).

IN.cu fetched in parts (a loop per box, `for (int m = t; ...)`), as `finegrain show --cuda --schedule data-parallel:16
--arch sm_90` spells the sequence samples (and spelled Needleman-Wunsch at 579d5d44):

  whole      one loop over the whole 17 x 17 copy with every field's cp.async in it (the form before parts)
  halofirst  the state fields' boxes first, then the inputs' (every box still a loop of its own)
  fused      Needleman-Wunsch only: one loop over its three boxes (289 words), the box chosen per word
  pre        Needleman-Wunsch only: the reference's box copied before the block waits for the launch before it

Time Needleman-Wunsch's units with graph-driver.cu; a sequence sample's rewritten unit replaces the one in its
exported bundle's row, and the bundle's run.sh builds, times and checks it.
"""
import re
import sys

src, form, out = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
start = src.index('        // copy the words of each field')
end = src.index('        fg::cp_async_wait_all();')
loops = re.split(r'(?=        for \(int m = t;)', src[start:end])[1:]
if not loops:
    sys.exit('copy-forms: ' + sys.argv[1] + ' copies its tile whole already')

if form == 'whole':
    address = [l for l in loops[0].splitlines() if re.match(r'\s+const (int i|int j|bool inside|long long g) =', l)]
    copies = []
    for line in ''.join(loops).splitlines():
        if 'cp_async_or_zero' in line and line not in copies:
            copies.append(line)
    body = ['        // copy the tile and its halo of every field into shared memory, by asynchronous copies',
            '        for (int w = t; w < 289; w += 16) {'] + address + copies + ['        }']
    src = src[:start] + '\n'.join(body) + '\n' + src[end:]
elif form == 'halofirst':
    inputs = [l for l in loops if "'reference'" in l]
    states = [l for l in loops if "'reference'" not in l]
    src = src[:start] + ''.join(states + inputs) + src[end:]
elif form in ('fused', 'pre'):
    n = int(re.search(r'const bool inside = i < (\d+)', src).group(1))
    if len(loops) != 3 or "'reference'" not in loops[0]:
        sys.exit('copy-forms: ' + form + ' rewrites Needleman-Wunsch units fetched in three boxes')
    if form == 'fused':
        fused = f'''        for (int m = t; m < 289; m += 16) {{
            const bool ref = m < 256;   // 'reference' [1, 17) x [1, 17), then 'score' [0, 1) x [0, 17) and [1, 17) x [0, 1)
            const int w = ref ? (m / 16 + 1) * 17 + m % 16 + 1 : (m < 273 ? m - 256 : (m - 272) * 17);
            const int i = i0 + w / 17 - 1;
            const int j = j0 + w % 17 - 1;
            const bool inside = i < {n} && j < {n};
            const long long g = ((long long) (i + 1)) * {n + 1} + (j + 1);
            int* const dst = ref ? &s_reference[w] : &s_score[w];
            const int* const src = ref ? &f.reference[inside ? g : 0] : &f.score[inside ? g : 0];
            fg::cp_async_or_zero(dst, src, inside);
        }}
'''
        src = src[:start] + fused + src[end:]
    else:
        wait = '        fg::wait_for_previous_launch();'
        src = src[:start] + ''.join(loops[1:]) + src[end:]
        at = src.index(wait)
        src = src[:at] + loops[0] + src[at:]
else:
    sys.exit('copy-forms: FORM is whole, halofirst, fused or pre')
open(out, 'w').write(src)
