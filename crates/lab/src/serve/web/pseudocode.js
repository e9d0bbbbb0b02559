// The pseudocode beside the stepper, one text per algorithm the server can
// trace, and which lines a step of the trace executes.
"use strict";

const Pseudocode = (function () {
  const TEXTS = {
    minimax: [
      "function MINIMAX(node)",
      "  if node is a leaf: return EVAL(node)",
      "  if MAX is to move at node:",
      "    value ← −∞",
      "    for each child of node:",
      "      value ← max(value, MINIMAX(child))",
      "    return value",
      "  else:",
      "    value ← +∞",
      "    for each child of node:",
      "      value ← min(value, MINIMAX(child))",
      "    return value",
    ],
    failsoft: [
      "function ALPHABETA(node, α, β)",
      "  if node is a leaf: return EVAL(node)",
      "  if MAX is to move at node:",
      "    value ← −∞",
      "    for each child of node:",
      "      value ← max(value, ALPHABETA(child, α, β))",
      "      if value ≥ β: return value   ▹ β cutoff",
      "      α ← max(α, value)",
      "    return value",
      "  else:",
      "    value ← +∞",
      "    for each child of node:",
      "      value ← min(value, ALPHABETA(child, α, β))",
      "      if value ≤ α: return value   ▹ α cutoff",
      "      β ← min(β, value)",
      "    return value",
    ],
    failhard: [
      "function ALPHABETA(node, α, β)   ▹ returns a value in [α, β]",
      "  if node is a leaf: return EVAL(node)",
      "  if MAX is to move at node:",
      "    for each child of node:",
      "      value ← ALPHABETA(child, α, β)",
      "      if value ≥ β: return β   ▹ β cutoff",
      "      α ← max(α, value)",
      "    return α",
      "  else:",
      "    for each child of node:",
      "      value ← ALPHABETA(child, α, β)",
      "      if value ≤ α: return α   ▹ α cutoff",
      "      β ← min(β, value)",
      "    return β",
    ],
    pvs: [
      "function PVS(node, α, β)   ▹ values for the side to move",
      "  if node is a leaf: return EVAL(node) for the side to move",
      "  value ← −∞",
      "  for each child of node:",
      "    if child is the first:",
      "      score ← −PVS(child, −β, −α)",
      "    else:",
      "      score ← −PVS(child, −α−1, −α)   ▹ null window",
      "      if α < score < β:",
      "        score ← −PVS(child, −β, −α)   ▹ search again",
      "    value ← max(value, score)",
      "    if value ≥ β: return value   ▹ β cutoff",
      "    α ← max(α, value)",
      "  return value",
    ],
  };

  const NAMES = {
    minimax: "minimax",
    failsoft: "alpha-beta, fail-soft",
    failhard: "alpha-beta, fail-hard",
    pvs: "negamax with PVS",
  };

  // Line numbers per algorithm: [header, leaf, update MAX, update MIN, cut
  // MAX, cut MIN, return MAX, return MIN, window MAX, window MIN].
  const LINES = {
    minimax: { head: 0, leaf: 1, upd: [5, 10], cut: [-1, -1], ret: [6, 11], win: [-1, -1] },
    failsoft: { head: 0, leaf: 1, upd: [5, 12], cut: [6, 13], ret: [8, 15], win: [7, 14] },
    failhard: { head: 0, leaf: 1, upd: [4, 10], cut: [5, 11], ret: [7, 13], win: [6, 12] },
    pvs: { head: 0, leaf: 1, upd: [10, 10], cut: [11, 11], ret: [13, 13], win: [12, 12] },
  };

  let shown = { algo: null, lines: [] };

  function render(box, algo) {
    box.textContent = "";
    const ol = Lab.el("ol", { class: "pseudo", "data-algorithm": algo });
    TEXTS[algo].forEach((line, i) => ol.append(Lab.el("li", { "data-line": String(i), text: line })));
    box.append(Lab.el("div", { class: "pseudo-title", text: NAMES[algo] }), ol);
    shown = { algo, lines: [], box };
  }

  // The lines step `k` (0-based) of `tree` executes.
  function linesOf(algo, tree, k) {
    if (k < 0) return [];
    const s = tree.steps[k];
    const n = tree.nodes[s.node];
    const L = LINES[algo];
    const side = n.max || algo === "pvs" ? 0 : 1;
    const leaf = n.children.length === 0;
    if (s.kind === "enter") return leaf ? [L.leaf] : [L.head];
    if (s.kind === "cutoff") return [L.cut[side]];
    if (s.kind === "update") {
      const next = tree.steps[k + 1];
      const cuts = next && next.node === s.node && next.kind === "cutoff";
      return cuts || L.win[side] < 0 ? [L.upd[side]] : [L.upd[side], L.win[side]];
    }
    if (leaf) return [L.leaf];
    return n.cutoff && tree.steps[k - 1] && tree.steps[k - 1].kind === "cutoff" ? [L.cut[side]] : [L.ret[side]];
  }

  // Highlights the lines of step k, touching only the lines that change.
  function highlight(tree, k) {
    if (!shown.box) return;
    const now = tree ? linesOf(shown.algo, tree, k).filter((i) => i >= 0) : [];
    const items = shown.box.querySelectorAll("li");
    for (const i of shown.lines) if (!now.includes(i)) items[i].classList.remove("at");
    for (const i of now) items[i].classList.add("at");
    shown.lines = now;
    shown.box.dataset.lines = now.join(" ");
  }

  return { render, highlight, NAMES };
})();
