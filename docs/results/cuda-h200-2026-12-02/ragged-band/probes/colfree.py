# colfree.py IN.cu OUT.cu: a unit whose checked steps test each column, rewritten without those tests (the final point store tested by its column instead).
import re,sys
s=open(sys.argv[1]).read()
n=re.search(r'size (\d+)x(\d+)',s).group(2)
s=re.sub(r'if \(j < %s\) \{'%n, '/* column 0 */ {', s)
s=re.sub(r'if \(\(j \+ (\d+)\) < %s\) \{'%n, lambda m: '/* column %s */ {'%m.group(1), s)
s=re.sub(r'if \(\(?j(?: \+ \d+)?\)? < %s\) (o_\w+ = a_\w+;)'%n, r'\1', s)
s=re.sub(r'if \((i >= \d+) && (\(?j(?: \+ \d+)?\)?) >= (\d+)\) kept', lambda m: 'if (%s && %s >= %s && %s < %s) kept'%(m.group(1),m.group(2),m.group(3),m.group(2),n), s)
open(sys.argv[2],'w').write(s)
