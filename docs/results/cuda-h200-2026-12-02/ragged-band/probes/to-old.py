# to-old.py IN.cu OUT.cu: a unit of the first probe generator (the last band steady, checked steps tested a column at a time) as main at 8e9c70e3 generates it: the steady chunk test of the band restored, the masks and the lane drop removed.
import re,sys
src=open(sys.argv[1]).read()
m=re.search(r'(\d+) bands of (\d+) columns',src)
bands,width=int(m.group(1)),int(m.group(2))
cols=int(re.search(r'size (\d+)x(\d+)',src).group(2))
full=cols//width
src=re.sub(r'(if \(base >= 32 && base \+ 31 < \d+) && ', lambda mm: mm.group(1)+' && band < %d && '%full, src, count=1)
src=re.sub(r'\(\((j(?: \+ \d+)?)\) < \d+ \? (v\d+) : INT_M(?:IN|AX)\)|\((j(?: \+ \d+)?) < \d+ \? (v\d+) : INT_M(?:IN|AX)\)', lambda mm: mm.group(2) or mm.group(4), src)
src=re.sub(r'\n *if \(j >= \d+\) \{[^\n]*I add nothing', '', src)
open(sys.argv[2],'w').write(src)
