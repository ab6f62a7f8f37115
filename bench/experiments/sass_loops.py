#!/usr/bin/env python3
"""sass_loops.py SASS [ENTRY_SUFFIX] [--hist START-END]: the loops of one entry
of a disassembly (bench/sass_local.sh's output), one line each: address range,
instruction count, HGMMA and BAR counts. ENTRY_SUFFIX picks the entry whose
.text label ends with it (default `_tma:`, the TMA entry). With --hist, the
opcode histogram of the instructions in START-END (hex addresses). A
developer's tool for static comparisons (sessions 43-44: a key loop's length
with and without TMA stores)."""
import collections, re, sys

def entry_instructions(path, suffix):
    fn, ins, labels, label = None, [], {}, None
    for line in open(path):
        s = line.strip()
        if '.text.' in s and s.endswith(':'):
            fn, label = s, None
            continue
        if not (fn and fn.endswith(suffix)):
            continue
        m = re.match(r'\.L_x_(\d+):', s)
        if m:
            label = int(m.group(1))
        m = re.search(r'/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
        if m:
            addr = int(m.group(1), 16)
            if label is not None and label not in labels:
                labels[label] = addr
            ins.append((addr, m.group(2).strip()))
    return ins, labels

def main():
    args = [a for a in sys.argv[1:] if a != '--hist']
    hist = '--hist' in sys.argv
    if len(args) < 1 or (hist and len(args) < 2):
        sys.exit('usage: sass_loops.py SASS [ENTRY_SUFFIX] [--hist START-END]')
    suffix = '_tma:'
    if hist:
        rng = args.pop()
    if len(args) > 1:
        suffix = args[1]
    ins, labels = entry_instructions(args[0], suffix)
    if not ins:
        sys.exit(f'sass_loops.py: no entry ending in {suffix!r}')
    if hist:
        lo, hi = (int(x, 16) for x in rng.split('-'))
        ops = collections.Counter(re.sub(r'^@!?U?P\w+\s+', '', t).split()[0] for a, t in ins if lo <= a <= hi)
        for op, n in ops.most_common():
            print(f'{op:24s}{n}')
        return
    print(f'{len(ins)} instructions')
    for addr, text in ins:
        m = re.search(r'\.L_x_(\d+)', text)
        if 'BRA' in text and m and labels.get(int(m.group(1)), addr) < addr:
            start = labels[int(m.group(1))]
            body = [t for a, t in ins if start <= a <= addr]
            hg = sum('HGMMA' in t for t in body)
            bar = sum('BAR.' in t and 'DEPBAR' not in t for t in body)
            print(f'loop {start:x}-{addr:x}: {len(body)} instructions, {hg} HGMMA, {bar} BAR')

main()
