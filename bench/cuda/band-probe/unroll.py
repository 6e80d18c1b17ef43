# unroll.py IN.cu OUT.cu STEADY [CHECKED]: the steady loop's unroll factor; optionally an unroll for the checked loop
import sys
src = open(sys.argv[1]).read()
src = src.replace('#pragma unroll 8   //', f'#pragma unroll {sys.argv[3]}   //', 1)
if len(sys.argv) > 4:
    a = src.index('#pragma unroll'); b = src.index('} else {', a)
    loop = '                    for (int k = 0; k < 32; k++) {\n'
    at = src.index(loop, b)
    src = src[:at] + f'                    #pragma unroll {sys.argv[4]}\n' + src[at:]
open(sys.argv[2], 'w').write(src)
