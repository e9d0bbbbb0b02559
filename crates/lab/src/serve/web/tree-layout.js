// Where each node of the Tree view sits: the layout of the command line's
// SVG trees (crates/lab/src/svg.rs), ported so that collapsing a subtree
// can lay the tree out again in the page, and made compact: a leaf takes
// the width of its value or name (a 3x3x3 tree fits 1280 px at full size),
// an inner node at least the width of its window and cutoff texts, a
// folded node a full slot. A parent is centred over its first and last
// child. Several pruned siblings without children become one stub.
"use strict";

const TreeLayout = (function () {
  const SLOT = 78, STUB = 58, LEVEL = 110, SIZE = 40, LEAF = 24, TOP = 40, LEFT = 8;
  const LEAF_SLOT = 28, INNER = 76, CHAR = 7.5; // px; CHAR: a 12-13 px character
  const GROUP_MIN = 4; // this many pruned leaf siblings or more share one stub

  // The children drawn under `id`: searched ones, then either every pruned
  // one or a single stub standing for them (`group` maps it to the count).
  function drawnChildren(tree, id, group) {
    const kids = movesOf(tree, id);
    const stubs = kids.filter((c) => tree.nodes[c].pruned && !tree.nodes[c].children.length);
    if (stubs.length < GROUP_MIN) return kids;
    group.set(stubs[0], stubs.length);
    return kids.filter((c) => !stubs.includes(c) || c === stubs[0]);
  }

  // A node's children one per move: a node PVS searched again is drawn once,
  // at its first visit (the later visits name it in \`same_as\`).
  function movesOf(tree, id) {
    return tree.nodes[id].children.filter((c) => tree.nodes[c].same_as === undefined);
  }

  // Lays out the nodes not hidden under a collapsed node. Returns
  // {x, y: Map id -> px, kids: Map id -> drawn children, group, width, height}.
  function layout(tree, collapsed) {
    const x = new Map(), y = new Map(), kids = new Map(), group = new Map(), from = new Map();
    let next = 0, deepest = 0;
    // Iterative post-order: a chess tree can be deep enough for recursion
    // to be a worry, and each node is visited twice at most.
    const stack = [[0, false]];
    while (stack.length) {
      const [id, done] = stack.pop();
      const n = tree.nodes[id];
      y.set(id, TOP + n.depth * LEVEL + SIZE / 2);
      deepest = Math.max(deepest, n.depth);
      const open = !collapsed.has(id) && n.children.length > 0;
      if (!open) {
        const own = n.children.length ? SLOT : group.has(id) ? STUB : leafWidth(tree, n);
        x.set(id, LEFT + next + own / 2);
        next += own;
        continue;
      }
      if (!done) {
        const cs = drawnChildren(tree, id, group);
        kids.set(id, cs);
        from.set(id, next);
        stack.push([id, true]);
        for (let i = cs.length - 1; i >= 0; i--) stack.push([cs[i], false]);
      } else {
        // Too narrow for its texts: the subtree moves to the middle of INNER.
        const width = next - from.get(id);
        if (width < INNER) {
          shift(kids, x, id, (INNER - width) / 2);
          next = from.get(id) + INNER;
        }
        const cs = kids.get(id);
        x.set(id, (x.get(cs[0]) + x.get(cs[cs.length - 1])) / 2);
      }
    }
    return { x, y, kids, group, width: LEFT * 2 + next, height: TOP + (deepest + 1) * LEVEL };
  }

  // A leaf's width: its value or its name, whichever is longer.
  function leafWidth(tree, n) {
    const value = n.leaf_value !== undefined ? String(n.leaf_value) : n.value_text || "";
    const name = tree.text_tree ? n.label || "" : n.edge || "";
    return Math.max(LEAF_SLOT, CHAR * Math.max(value.length, name.length) + 8);
  }

  // Moves the drawn descendants of `id` right by `dx`.
  function shift(kids, x, id, dx) {
    const stack = [...kids.get(id)];
    while (stack.length) {
      const c = stack.pop();
      x.set(c, x.get(c) + dx);
      if (kids.has(c)) stack.push(...kids.get(c));
    }
  }

  // How many levels (depths from 0) fit in `budget` drawn nodes; at least two.
  function levelsWithin(tree, budget) {
    const perDepth = [];
    for (const n of tree.nodes) if (n.same_as === undefined) perDepth[n.depth] = (perDepth[n.depth] || 0) + 1;
    let total = 0;
    for (let d = 0; d < perDepth.length; d++) {
      total += perDepth[d];
      if (total > budget) return Math.max(2, d);
    }
    return perDepth.length;
  }

  // The nodes to collapse so that depths 0..levels-1 are drawn.
  function collapseBelow(tree, levels) {
    const out = new Set();
    tree.nodes.forEach((n, i) => {
      if (n.children.length && n.depth >= levels - 1) out.add(i);
    });
    return out;
  }

  return { layout, levelsWithin, collapseBelow, movesOf, SIZE, LEAF, SLOT, LEVEL };
})();
