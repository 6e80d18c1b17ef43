#!/usr/bin/env python3
"""guarded-variants.py IN.cu OUT.cu KIND[+KIND...]: rewrites of a one-warp lock-dataflow:persistent unit (finegrain show
... --cuda) for seq-driver.cu, around its chunks that are not steady (the loop after the steady one: the guarded
steps, or the checked steps of a unit generated before them). Kinds, applied left to right:
  uN     that loop unrolled N times (#pragma unroll N)
  split  the edge window waited for in two halves: the rows lane 0 reads in steps 0 to 15 at the chunk's start, the
         rest before step 16 (in both loops), so that a band may start a chunk once its left neighbour has computed
         row base + 15; the free counter then says base - 1
  A      the halo row taken above the domain by selects instead of a branch (same results)
  P      kept stores as predicated stores in inline PTX instead of a branch (same results)
  N      no kept stores (the kept values are lost: timing only)
  R      the reduction taken as the steady steps take it, rows outside the domain counted (timing only)"""
import re
import sys


def block_end(text, open_at):
    depth = 0
    for p in range(open_at, len(text)):
        if text[p] == '{':
            depth += 1
        elif text[p] == '}':
            depth -= 1
            if depth == 0:
                return p
    raise ValueError('unbalanced braces')


def second_loop_start(s):
    return s.index('} else {\n', s.index('#pragma unroll 8   // lets the compiler start'))


def unroll(s, n):
    i = second_loop_start(s)
    j = s.index('for (int k = 0; k < 32; k++) {', i)
    seg = re.sub(r'\n *#pragma unroll \d+[^\n]*', '', s[i:j])
    indent = s[s.rindex('\n', 0, j) + 1:j]
    return s[:i] + seg + f'#pragma unroll {n}   // (probe)\n' + indent + s[j:]


def split(s):
    start = s.index('for (int x = lane; x < fresh; x += 32) {')
    end = block_end(s, s.index('{', start))
    copy = s[start:end + 1]
    test = 'if (row >= -1 && row <= last) {'
    assert copy.count(test) == 1
    first, second = copy.replace(test, 'if (at <= 16 && row >= -1 && row <= last) {'), copy.replace(test, 'if (at > 16 && row >= -1 && row <= last) {')
    s = s[:start] + first + s[end + 1:]
    s, n = re.subn(r'fg::store_release_gpu\(&freed\[band\], base \+ 31\)', 'fg::store_release_gpu(&freed[band], base - 1)', s)
    assert n == 1
    out, pos, loops = [], 0, 0
    for m in re.finditer(r'\n( *)(#pragma unroll[^\n]*\n *)?for \(int k = 0; k < 32; k\+\+\) \{', s):
        if m.start() < pos:
            continue
        ind = m.group(1)
        brace = s.index('{', m.start() + 1 + len(ind) + len(m.group(2) or ''))
        close = block_end(s, brace)
        new = ('\n' + ind + '#pragma unroll 1\n' + ind + 'for (int h = 0; h < 32; h += 16) {   // two halves of the chunk\n'
               + ind + '    if (h > 0) {\n' + second + '\n' + ind + '        __syncwarp();   // the window\'s second half is complete\n'
               + ind + '    }\n' + ind + '    ' + (m.group(2) or '').strip() + '\n' + ind + '    for (int k = h; k < h + 16; k++) {'
               + s[brace + 1:close] + '}\n' + ind + '}')
        out.append(s[pos:m.start()] + new)
        pos = close + 1
        loops += 1
    assert loops == 2, loops
    return ''.join(out) + s[pos:]


def ablate(s, kind):
    cut = second_loop_start(s)
    head, tail = s[:cut], s[cut:]
    if kind == 'A':
        def selects(m):
            return ''.join(f'{m.group(1)}{o} = i < 0 ? {a} : {o};\n' for o, a in re.findall(r'(o_\w+) = (a_\w+);', m.group(0)))
        tail, n = re.subn(r'( *)if \(i < 0\) \{\n(?: *//[^\n]*\n)?((?: *o_\w+ = a_\w+;\n)+) *\}\n', selects, tail, count=1)
        assert n == 1
    elif kind == 'P':
        tail, n = re.subn(r'if \(([^\n]*?)\) (kept_\w+)\[([^\n]*?)\] = (v\d+);', r'fg_store_if(\1, &\2[\3], \4);', tail)
        assert n >= 1
        head = head.replace('namespace ', '__device__ __forceinline__ void fg_store_if(bool store, int* word, int value) {\n'
                            '    asm volatile("{ .reg .pred q; setp.ne.b32 q, %0, 0; @q st.global.b32 [%1], %2; }" :: "r"((int) store), '
                            '"l"(word), "r"(value));\n}\nnamespace ', 1)
    elif kind == 'N':
        tail, n = re.subn(r'\n *if \([^\n]*?\) kept_\w+\[[^\n]*?\] = v\d+;[^\n]*', '', tail)
        assert n >= 1
    elif kind == 'R':
        tail, n = re.subn(r'inside \? (max\(red\w+, [^\n]*?\)) : red\w+;', r'\1;', tail, count=1)
        assert n == 1
        tail, n = re.subn(r' \| \(inside \? red\w+_row >> 31 : 0\)', '', tail, count=1)
        assert n == 1
    return head + tail


def main():
    s = open(sys.argv[1]).read()
    for kind in sys.argv[3].split('+'):
        if re.fullmatch(r'u\d+', kind):
            s = unroll(s, int(kind[1:]))
        elif kind == 'split':
            s = split(s)
        elif kind in ('A', 'P', 'N', 'R'):
            s = ablate(s, kind)
        else:
            sys.exit(f'guarded-variants.py: unknown kind {kind}')
    open(sys.argv[2], 'w').write(s)


if __name__ == '__main__':
    main()
