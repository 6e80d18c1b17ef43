#!/usr/bin/env python3
"""step-reduction.py IN.cu KIND OUT.cu: rewrites a lock-dataflow:persistent unit of smith-waterman-seq as the generator
emitted it before its max(h) with its cell was taken once a step (a test and a 64-bit point a cell:
`git show <that commit>^` and `finegrain show smith-waterman-seq --cuda ...`), to measure forms of the reduction.
KIND:
  none, st, nst  the tests deleted: all, the steady steps', the checked steps' (timing only: the best is wrong)
  max, max3      the step's max over the lane's columns and the best, no point (max chains / __vimax3_s32; timing only)
  xor            the step's values xor-ed into a register (timing only: what four more instructions a step cost)
  maxrow         max3 and the row where the lane's best rose; the column is left unknown (the point is off by it)
  sel, br        once a step: the row and the step's values kept by selects, or under a branch
  sts            once a step: the row by a select, the values by a predicated 16-byte shared store per four columns
  lopsteady      lop in the steady steps, the checked steps reducing nothing (timing only: what the checked steps' cost)
  vote           as lop, but the steady steps keep the row and values only when some lane's best rose (__any_sync)
  lop            once a step: a mask, -(int) min((unsigned) e - (unsigned) best, 1u), and and-or selects (the form the
                 generator emits since)
Results: docs/results/cuda-h200-2026-12-02/reduction-once-a-step/probes/runs.txt."""
import re, sys
src, kind, dst = sys.argv[1:4]

def drop(text, kind, dst):
    """Deletes the per-cell tests: every one (none), the steady steps' (st) or the checked steps' (nst)."""
    lines = text.split('\n')
    i_fast = next(i for i, l in enumerate(lines) if '#pragma unroll 8' in l)
    i_else = next(i for i in range(i_fast, len(lines)) if '} else {' in lines[i])
    i_end = next(i for i in range(i_else, len(lines)) if "the band's max" in lines[i])
    test = re.compile(r'^ *if \(red_\w+_at < 0 \|\| v\d+ > red_\w+\) \{')
    keep = []
    for n, l in enumerate(lines):
        steady, checked = i_fast < n < i_else, i_else < n < i_end
        if test.match(l) and ((kind in ('st', 'none') and steady) or (kind in ('nst', 'none') and checked)):
            continue
        keep.append(l)
    open(dst, 'w').write('\n'.join(keep))

text = open(src).read()
if kind in ('none', 'st', 'nst'):
    drop(text, kind, dst)
    sys.exit(0)
C = int(re.search(r'columns=(\d+)', text).group(1))
n = int(re.search(r'size (\d+)x', text).group(1))
lines = text.split('\n')
R = re.compile(r'^ *if \(red_h_max_at < 0 \|\| v\d+ > red_h_max\) \{')
lines = [l for l in lines if not R.match(l)]
def vimax3_start(indent):
    """The block's first line: nb, the best so far and the step's values (4 or 8 columns) reduced by __vimax3_s32."""
    if C == 4:
        return f'{indent}{{ const int t0 = __vimax3_s32(o_h_c0, o_h_c1, o_h_c2); const int nb = __vimax3_s32(red_h_max, t0, o_h_c3);'
    return (f'{indent}{{ const int t0 = __vimax3_s32(o_h_c0, o_h_c1, o_h_c2); const int t1 = __vimax3_s32(o_h_c3, o_h_c4, o_h_c5);'
            f' const int t2 = __vimax3_s32(t0, t1, o_h_c6); const int nb = __vimax3_s32(red_h_max, t2, o_h_c7);')

def step_block(indent, checked=False):
    vals = [f'o_h_c{c}' for c in range(C)]
    m = vals[0]
    for v in vals[1:]:
        m = f'max({m}, {v})'
    out = [f'{indent}{{ const int sm = {m};   // the step\'s max over my columns']
    if kind == 'max':
        out.append(f'{indent}  red_h_max = max(red_h_max, sm); }}')
        return out
    if kind == 'xor':
        out[0] = f'{indent}{{ ' + ' '.join(f'red_row ^= o_h_c{c};' for c in range(C))
        out.append(f'{indent}}}')
        return out
    if kind == 'lopsteady' and checked:
        return []
    if kind in ('lop', 'lopsteady') or (kind == 'vote' and checked):
        out[0] = vimax3_start(indent)
        out.append(f'{indent}  const int mask = -(int) min((unsigned) nb - (unsigned) red_h_max, 1u)' + (' | (red_row >> 31)' if checked else '') + ';   // -1 where the step beats my best')
        out.append(f'{indent}  red_h_max = nb; red_row = (i & mask) | (red_row & ~mask);')
        out += [f'{indent}  rv{c} = (o_h_c{c} & mask) | (rv{c} & ~mask);' for c in range(C)]
        out.append(f'{indent}}}')
        return out
    if kind == 'vote' and not checked:
        out[0] = vimax3_start(indent)
        out.append(f'{indent}  if (__any_sync(0xffffffffu, nb != red_h_max)) {{   // some lane\'s best rose: rare once scores settle')
        out.append(f'{indent}    const int mask = -(int) min((unsigned) nb - (unsigned) red_h_max, 1u);')
        out.append(f'{indent}    red_row = (i & mask) | (red_row & ~mask);')
        out += [f'{indent}    rv{c} = (o_h_c{c} & mask) | (rv{c} & ~mask);' for c in range(C)]
        out.append(f'{indent}  }}')
        out.append(f'{indent}  red_h_max = nb; }}')
        return out
    if kind in ('maxrow', 'max3'):
        out[0] = vimax3_start(indent)
        if kind == 'maxrow':
            out.append(f'{indent}  red_row = nb != red_h_max ? i : red_row;')
        out.append(f'{indent}  red_h_max = nb; }}')
        return out
    if kind == 'sts':
        out[0] = vimax3_start(indent)
        out.append(f'{indent}  const bool imp = ' + ('red_row < 0 || ' if checked else '') + 'nb != red_h_max;')
        out.append(f'{indent}  red_h_max = nb; red_row = imp ? i : red_row;')
        for q in range(C // 4):
            out.append(f'{indent}  if (imp) s_best_row[{q}][lane] = make_int4(o_h_c{4*q}, o_h_c{4*q+1}, o_h_c{4*q+2}, o_h_c{4*q+3});')
        out.append(f'{indent}}}')
        return out
    if kind == 'sel':
        out.append(f'{indent}  const bool imp = red_row < 0 || sm > red_h_max;')
        out.append(f'{indent}  red_h_max = imp ? sm : red_h_max; red_row = imp ? i : red_row;')
        out += [f'{indent}  rv{c} = imp ? o_h_c{c} : rv{c};' for c in range(C)]
        out.append(f'{indent}}}')
    else:
        out.append(f'{indent}  if (red_row < 0 || sm > red_h_max) {{ red_h_max = sm; red_row = i; ' + ' '.join(f'rv{c} = o_h_c{c};' for c in range(C)) + ' }')
        out.append(f'{indent}}}')
    return out
res = []
i_fast = next(i for i, l in enumerate(lines) if '#pragma unroll 8' in l)
done_steady = False
for k, l in enumerate(lines):
    s = l.strip()
    if s.startswith('long long red_h_max_at = -1;'):
        res.append(l)
        ind = l[:len(l) - len(l.lstrip())]
        res.append(ind + 'int red_row = -1;   // the row of my first best (-1: none yet)')
        res.append(ind + ' '.join(f'int rv{c} = 0;' for c in range(C)) + '   // that row\'s values of my columns')
        if kind == 'sts':
            res.append(ind + f'__shared__ int4 s_best_row[{C // 4}][32];   // my best row\'s values, 4 columns a word')
        continue
    if k > i_fast and not done_steady and s == 'h_h_c0_0 = o_h_c0;':
        ind = l[:len(l) - len(l.lstrip())]
        res += step_block(ind)
        done_steady = True
    if s == '} else if (i < 0 && i >= -1) {':
        ind = l[:len(l) - len(l.lstrip())] + '    '
        res += step_block(ind, True)
    if "the band's max(h), from its lanes'" in l:
        ind = l[:len(l) - len(l.lstrip())]
        if kind == 'sts':
            res.append(ind + 'if (red_row >= 0) { ' + ' '.join(f'const int4 q{q} = s_best_row[{q}][lane]; rv{4*q} = q{q}.x; rv{4*q+1} = q{q}.y; rv{4*q+2} = q{q}.z; rv{4*q+3} = q{q}.w;' for q in range(C // 4)) + ' }')
        sel = ' : '.join(f'rv{c} == red_h_max ? {c}' for c in range(C - 1)) + f' : {C - 1}'
        res.append(ind + f'if (red_row >= 0) red_h_max_at = (long long) red_row * {n} + j + ({sel});   // the first of my columns holding it')
    res.append(l)
open(dst, 'w').write('\n'.join(res))
