# step-reduction.py IN.cu OUT.cu [vimax3]: the steady steps' max-with-position reduction made once a step with selects: the
# step's maximum over my columns, the first column that holds it, one compare with the running best (no branch)
import re, sys
src = open(sys.argv[1]).read()
a = src.index('#pragma unroll 8'); b = src.index('} else {', a)
steady = src[a:b]
pat = re.compile(r'\n\s*if \((red_\w+_at) < 0 \|\| (v\d+) > (red_\w+)\) \{ \3 = \2; \1 = \(long long\) i \* (\d+) \+ (\(j \+ \d+\)|j); \}   // the first point keeps a tie')
cols = pat.findall(steady)
assert cols, "no reduction"
steady = pat.sub('', steady)
at, _, best, width, _ = cols[0]
vs = [re.search(r'(o_\w+_c\d+) = ' + c[1] + ';', steady).group(1) for c in cols]
ind = ' ' * 24
m = vs[0]
lines = []
if len(sys.argv) > 3 and sys.argv[3] == 'vimax3' and len(vs) == 4:
    lines.append(f'{ind}const int step_max = __vimax3_s32({vs[0]}, {vs[1]}, max({vs[2]}, {vs[3]}));   // my columns\' maximum in this step')
else:
    expr = vs[0]
    for v in vs[1:]:
        expr = f'max({expr}, {v})'
    lines.append(f'{ind}const int step_max = {expr};   // my columns\' maximum in this step')
first = str(len(vs) - 1)
for c in range(len(vs) - 2, -1, -1):
    first = f'{vs[c]} == step_max ? {c} : {first}'
lines.append(f'{ind}const int step_col = {first};   // the first of my columns that holds it')
lines.append(f'{ind}const bool better = {at} < 0 || step_max > {best};')
lines.append(f'{ind}{best} = better ? step_max : {best};')
lines.append(f'{ind}{at} = better ? (long long) i * {width} + j + step_col : {at};   // the first point keeps a tie')
anchor = re.search(r'\n(\s*)h_\w+_c0_0 = o_\w+_c0;', steady)
steady = steady[:anchor.start()] + '\n' + '\n'.join(lines) + steady[anchor.start():]
open(sys.argv[2], 'w').write(src[:a] + steady + src[b:])
