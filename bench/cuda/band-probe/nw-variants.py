#!/usr/bin/env python3
"""nw-variants.py IN.cu KIND OUT.cu: rewrites a needleman-wunsch lock-dataflow:persistent unit (full matrix, tiny-lock)
to measure what a part of a chunk costs or what a change would buy. The probes that leave a part out give wrong scores
(nw-driver.cu says MISMATCH): only their time is read. KIND:
  nowb    no write-back of the finished rows (a probe)
  nocopy  no copies of the input rows (a probe)
  nopoll  the window reads each edge word once, without waiting for its ready bit (a probe: no band waits for another)
  steps   all three: what the steps alone take
  plain   the DPX forms spelled as max and add (nvcc picks the instructions)
  pstore  the steps' edge stores as one predicated st.relaxed.gpu each, with no compiler memory barrier"""
import re
import sys


def nowb(t):
    return re.sub(r'\n *f\.\w+\[[^\n]*= out_\w+\[[^\n]*;', '', t)


def nocopy(t):
    return re.sub(r'\n *fg::cp_async\(&in_[^\n]*;', '', t)


def nopoll(t):
    return re.sub(r'while \(\((word\d+) >> 32\) == 0\);', 'while (0);', t)


def split_args(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
            continue
        depth += ch == '('
        depth -= ch == ')'
        cur += ch
    out.append(cur.strip())
    return out


def plain(t):
    res, k, name = '', 0, '__viaddmax_s32('
    while True:
        m = t.find(name, k)
        if m < 0:
            return res + t[k:]
        j, depth = m + len(name), 1
        while depth:
            depth += {'(': 1, ')': -1}.get(t[j], 0)
            j += 1
        a, b, c = split_args(t[m + len(name):j - 1])
        res += t[k:m] + f'max(({a}) + ({b}), ({c}))'
        k = j


def pstore(t):
    t, n = re.subn(r'if \(([^{}\n]*)\) \{\n *fg::store_relaxed_gpu\((&tokens\[[^\n]*?\]), ([^\n]*?)\);(   // [^\n]*)?\n *\}',
                   r'fg_store_relaxed_gpu_if(\1, \2, \3);', t)
    helper = ('__device__ __forceinline__ void fg_store_relaxed_gpu_if(bool p, fg::u64* word, fg::u64 value) {\n'
              '    asm volatile("{ .reg .pred q; setp.ne.b32 q, %0, 0; @q st.relaxed.gpu.global.b64 [%1], %2; }"'
              ' :: "r"((int) p), "l"(word), "l"(value));\n}\n')
    return t.replace('#include "finegrain.cuh"\n', '#include "finegrain.cuh"\n' + helper, 1) if n else t


KINDS = {'nowb': [nowb], 'nocopy': [nocopy], 'nopoll': [nopoll], 'steps': [nowb, nocopy, nopoll], 'plain': [plain],
         'pstore': [pstore]}

if __name__ == '__main__':
    source, kind, target = sys.argv[1:4]
    text = open(source).read()
    for rewrite in KINDS[kind]:
        changed = rewrite(text)
        if changed == text:
            sys.exit(f'nw-variants.py: {kind}: {rewrite.__name__} found nothing to rewrite in {source}')
        text = changed
    open(target, 'w').write(text)
