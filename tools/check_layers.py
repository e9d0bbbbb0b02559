#!/usr/bin/env python3
"""Checks the module layering of src/: uci -> engine -> search -> (board, eval).

Lists the `crate::X` / `super::X` edges of every file, then reports
  - a file that imports from a higher layer (e.g. search importing engine), and
  - import cycles between the files of src/search/ (mod.rs counted as "mod"
    for the items it defines; its `pub mod` / `pub use` lines are ignored).
Exits 1 if it finds either. Usage: python3 tools/check_layers.py [-v]
"""

import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
# Lower number = lower layer. A file may import only its own layer or lower.
# progress: the long commands' progress bar, a leaf that book and train share.
# rng: the seeded SplitMix64 generator, a leaf that search, book and train share.
# memory: the allocator's two calls (huge pages, trimming), for search and engine.
LAYERS = {"board": 0, "eval": 0, "tablebase": 0, "progress": 0, "rng": 0, "memory": 0, "search": 1, "book": 1, "engine": 2, "uci": 3, "train": 4}

# `use crate::a::b`, `crate::a::b::f(..)`, `use super::x`, `super::super::x`, and
# the names inside `use super::{x, y::z}` groups.
CRATE_PATH = re.compile(r"\bcrate::(\w+)(?:::(\w+))?")
SUPER_PATH = re.compile(r"\bsuper::(?:super::)*(\w+)")
SUPER_GROUP = re.compile(r"\buse\s+super::\{([^;]*)\};", re.S)


# Files outside the layering check (none today; `train` is the top layer:
# it drives search and eval, and nothing but main.rs may use it).
SKIP = ()


def strip_comments(text):
    """Drops comments, and `pub mod` / `pub use` lines: a module's facade
    re-exporting its children is not a dependency of its code."""
    lines = (line.split("//")[0] for line in text.splitlines())
    return "\n".join(l for l in lines if not l.lstrip().startswith(("pub mod", "pub use")))


def module_of(path):
    """`search/tt.rs` -> ("search", "tt"); `engine.rs` -> ("engine", None)."""
    rel = path.relative_to(SRC).with_suffix("")
    parts = rel.parts
    top = parts[0]
    sub = parts[1] if len(parts) > 1 else None
    return top, sub


def without_tests(text):
    """Drops a trailing `#[cfg(test)] mod tests { .. }` (tests may use anything)."""
    i = text.find("#[cfg(test)]")
    return text if i < 0 else text[:i]


def edges(path):
    text = strip_comments(without_tests(path.read_text()))
    top, sub = module_of(path)
    out = set()
    for m in CRATE_PATH.finditer(text):
        out.add((m.group(1), m.group(2) if m.group(1) == top else None))
    if sub not in (None, "mod"):  # `super::x` from search/foo.rs is search::x
        for m in SUPER_PATH.finditer(text):
            out.add((top, m.group(1)))
        for m in SUPER_GROUP.finditer(text):
            for name in re.findall(r"(?:^|,)\s*(\w+)", m.group(1)):
                out.add((top, name))
    if sub in (None, "mod") and (SRC / top).is_dir():  # mod.rs: `tt::X` is a child
        for m in re.finditer(r"(?<!::)\b(\w+)::", text):
            if (SRC / top / f"{m.group(1)}.rs").exists():
                out.add((top, m.group(1)))
    return out


def main():
    verbose = "-v" in sys.argv
    bad = []
    graph = {}  # search submodule -> search submodules it imports
    for path in sorted(SRC.rglob("*.rs")):
        top, sub = module_of(path)
        if top not in LAYERS or str(path.relative_to(SRC)).startswith(SKIP) or path.stem.endswith("_tests"):
            continue  # lab, bench, epd, main, lib: tools on top of everything
        deps = edges(path)
        if verbose:
            names = sorted(f"{a}::{b}" if b else a for a, b in deps)
            print(f"{path.relative_to(SRC)}: {', '.join(names)}")
        for dep_top, dep_sub in deps:
            if dep_top in LAYERS and LAYERS[dep_top] > LAYERS[top]:
                bad.append(f"{path.relative_to(SRC)} imports {dep_top} (a higher layer)")
            if top == "search" and dep_top == "search" and sub:
                # An item of search/mod.rs (`super::Shared`) is an edge to "mod".
                is_file = dep_sub and (SRC / "search" / f"{dep_sub}.rs").exists()
                target = dep_sub if is_file else "mod"
                if target != sub:
                    graph.setdefault(sub, set()).add(target)
    for cycle in cycles(graph):
        bad.append("search import cycle among: " + ", ".join(cycle[:-1]))
    for line in bad:
        print(line)
    print("ok" if not bad else f"{len(bad)} problem(s)")
    sys.exit(1 if bad else 0)


def cycles(graph):
    """One cycle per strongly connected component of more than one file."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c + [c[0]] for c in comps]


if __name__ == "__main__":
    main()
