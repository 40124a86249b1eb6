#!/usr/bin/env python3
"""Fails when source units include each other in a circle.

A unit is a header and its .cpp (foo.h + foo.cpp). Unit A depends on unit B when either of
A's files includes B's header. Each layer of docs/architecture.md builds on the units below
it in one direction: a circle (event -> queue -> event) means two units that cannot be
understood, tested or changed one without the other, and is broken with an interface that
the lower unit declares and the upper one implements.

    check_include_cycles.py <repository>
"""
import os
import re
import sys

LAYERS = ["base", "libclc-builtins", "backends", "platform", "icd", "apps"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit_graph(root):
    graph = {}
    for layer in LAYERS:
        for folder, _, files in os.walk(os.path.join(root, layer)):
            for name in files:
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                unit = os.path.splitext(path)[0]
                with open(os.path.join(root, path), errors="replace") as source:
                    included = INCLUDE.findall(source.read())
                deps = graph.setdefault(unit, set())
                for header in included:
                    if os.path.exists(os.path.join(root, header)):
                        other = os.path.splitext(header)[0]
                        if other != unit:
                            deps.add(other)
    return graph


def circles(graph):
    """The strongly connected components of more than one unit (Tarjan, iteratively)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            unit, pending = work[-1]
            advanced = False
            for other in pending:
                if other not in graph:
                    continue
                if other not in index:
                    index[other] = low[other] = counter
                    counter += 1
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph[other]))))
                    advanced = True
                    break
                if other in on_stack:
                    low[unit] = min(low[unit], index[other])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[unit])
            if low[unit] == index[unit]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == unit:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main():
    root = sys.argv[1]
    found = circles(unit_graph(root))
    for component in found:
        print("units that include each other in a circle: " + " <-> ".join(component))
    if not found:
        print("no two units include each other in a circle")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
