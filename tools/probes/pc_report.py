#!/usr/bin/env python3
"""Where each thread spent its time, from tools/probes/pc_sampler.cpp's samples: by module,
then by function (symbols from nm, so a stripped module shows as its name and offset).
Usage: pc_report.py SAMPLES [TOP]   (SAMPLES.maps beside it)"""
import bisect
import collections
import subprocess
import sys


def read_maps(path):
    maps = []
    for line in open(path):
        parts = line.split(None, 5)
        if len(parts) < 6 or 'x' not in parts[1]:
            continue
        start, end = (int(x, 16) for x in parts[0].split('-'))
        maps.append((start, end, int(parts[2], 16), parts[5].strip()))
    maps.sort()
    return maps


def symbols(module, cache={}):
    if module in cache:
        return cache[module]
    table = []
    for flags in (['--defined-only'], ['-D', '--defined-only']):
        try:
            out = subprocess.run(['nm', '-C', *flags, module], capture_output=True, text=True).stdout
        except OSError:
            out = ''
        for line in out.splitlines():
            parts = line.split(' ', 2)
            if len(parts) == 3 and parts[1] in 'tTwWiI':
                table.append((int(parts[0], 16), parts[2]))
    table.sort()
    cache[module] = ([a for a, _ in table], [n for _, n in table])
    return cache[module]


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    lines = open(path).read().split('\n')
    pid = int(lines[0].split()[1])
    maps = read_maps(path + '.maps')
    starts = [m[0] for m in maps]
    by_thread = collections.defaultdict(list)
    for line in lines[1:]:
        if line:
            tid, address = line.split()
            by_thread[int(tid)].append(int(address, 16))
    for tid, addresses in sorted(by_thread.items(), key=lambda kv: -len(kv[1])):
        if len(addresses) < 20:
            continue
        modules = collections.Counter()
        functions = collections.Counter()
        for address in addresses:
            i = bisect.bisect_right(starts, address) - 1
            if i < 0 or address >= maps[i][1]:
                modules['?'] += 1
                functions['?'] += 1
                continue
            start, _, offset, module = maps[i]
            file_offset = address - start + offset
            name = module.rsplit('/', 1)[-1]
            modules[name] += 1
            # Shared objects here map their text at file offset == virtual address.
            addrs, names = symbols(module)
            j = bisect.bisect_right(addrs, file_offset) - 1
            functions[f'{name}: {names[j] if j >= 0 else hex(file_offset)}'] += 1
        total = len(addresses)
        print(f'== thread {tid}{" (main)" if tid == pid else ""}: {total} samples')
        for name, n in modules.most_common(8):
            print(f'  {100.0 * n / total:5.1f}%  {name}')
        for name, n in functions.most_common(top):
            print(f'    {100.0 * n / total:5.1f}%  {name[:150]}')


main()
