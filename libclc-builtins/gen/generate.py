"""Writes the generated builtin sources into the directory given as the argument.

`generate.py --list` prints the names of the files it writes (for CMake).
CMake runs it when a generator changes; every output is rewritten then.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cltypes import HEADER  # noqa: E402
import atomics  # noqa: E402
import conversions  # noqa: E402
import images  # noqa: E402
import relational  # noqa: E402
import vector_memory  # noqa: E402
import work_group  # noqa: E402
import vector_wrappers  # noqa: E402

GENERATORS = [("vector_wrappers.py", vector_wrappers.files), ("relational.py", relational.files),
              ("conversions.py", conversions.files),
              ("atomics.py", atomics.files),
              ("vector_memory.py", vector_memory.files), ("work_group.py", work_group.files),
              ("images.py", images.files)]


def all_files():
    result = {}
    for script, make in GENERATORS:
        for name, text in make().items():
            result[name] = HEADER.format(script=script) + text
    return result


def main():
    if sys.argv[1:] == ["--list"]:
        print(";".join(sorted(all_files())))
        return
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name, text in all_files().items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
