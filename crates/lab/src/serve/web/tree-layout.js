// Where each node of the Tree view sits: the layout of the command line's
// SVG trees (crates/lab/src/svg.rs), ported so that collapsing a subtree
// can lay the tree out again in the page. Leaves take one slot, a pruned
// stub three quarters of one; a parent is centred over its first and last
// child. Several pruned siblings without children become one stub.
"use strict";

const TreeLayout = (function () {
  const SLOT = 78, STUB_SLOT = 0.75, LEVEL = 110, SIZE = 40, TOP = 40, LEFT = 20;
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
    const x = new Map(), y = new Map(), kids = new Map(), group = new Map();
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
        const own = n.pruned && !n.children.length ? STUB_SLOT : 1;
        x.set(id, LEFT + (next + own / 2) * SLOT);
        next += own;
        continue;
      }
      if (!done) {
        const cs = drawnChildren(tree, id, group);
        kids.set(id, cs);
        stack.push([id, true]);
        for (let i = cs.length - 1; i >= 0; i--) stack.push([cs[i], false]);
      } else {
        const cs = kids.get(id);
        x.set(id, (x.get(cs[0]) + x.get(cs[cs.length - 1])) / 2);
      }
    }
    return { x, y, kids, group, width: LEFT * 2 + next * SLOT, height: TOP + (deepest + 1) * LEVEL };
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

  return { layout, levelsWithin, collapseBelow, movesOf, SIZE, SLOT, LEVEL };
})();
