// Trees of one's own in the Tree view: a random tree from a seed, leaf
// values edited by clicking, and best-first ordering (the practice
// questions are quiz.js's). Every tree is written as tree text and
// searched by the server, as `cutoff lab tree --tree TEXT` would search
// it; this file never computes a value.
"use strict";

(function () {
  const E = { selected: -1, unordered: null };
  const T = () => TreeView.S.tree;

  // A small seeded generator (mulberry32): the same seed, the same tree.
  function rng(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // Tree text for a full tree: inner nodes named A, B, C... level by level,
  // leaves by their values, as in textbooks.
  function randomText(branching, depth, seed) {
    const next = rng(seed);
    let letter = 0;
    const levels = [];
    for (let d = 0; d < depth; d++) levels.push(branching ** d);
    const names = levels.map((count) => Array.from({ length: count }, () => nameOf(letter++)));
    function node(d, i) {
      if (d === depth) return String(Math.floor(next() * 21) - 5);
      const kids = [];
      for (let k = 0; k < branching; k++) kids.push(node(d + 1, i * branching + k));
      return `${names[d][i]}:${d % 2 ? "min" : "max"}(${kids.join(",")})`;
    }
    return node(0, 0);
  }

  function nameOf(i) {
    const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    return i < 26 ? a[i] : a[Math.floor(i / 26) - 1] + a[i % 26];
  }

  // The tree text of a loaded text tree (every node is in the trace), with
  // leaf values from `values` where given and children in `order` if given.
  function textOf(tree, values, order) {
    function node(id) {
      const n = tree.nodes[id];
      const label = n.label ? `${n.label}:` : "";
      if (!n.children.length) return label + String(values.has(id) ? values.get(id) : n.leaf_value);
      const kids = (order && order.get(id)) || TreeLayout.movesOf(tree, id);
      return `${label}${n.max ? "max" : "min"}(${kids.map(node).join(",")})`;
    }
    return node(0);
  }

  async function search(text, keepOrder) {
    if (!keepOrder) {
      E.unordered = null;
      Lab.$("ed-best").checked = false;
    }
    Lab.$("ed-text").value = text;
    E.selected = -1;
    Lab.$("ed-leaf").hidden = true;
    await Lab.treeBuild({ game: "text", text }, { keepStep: true });
  }

  // Best first: children sorted by the minimax values the server returns
  // for the same text (MAX's best first at MAX nodes, MIN's at MIN nodes).
  async function bestFirst(on) {
    const t = T();
    if (!t || !t.text_tree) return;
    if (!on) return E.unordered && search(E.unordered, false);
    const text = Lab.$("ed-text").value || textOf(t, new Map());
    try {
      const mm = await Lab.api("POST", "/api/tree", { game: "text", text, algorithm: "minimax" });
      const order = new Map();
      mm.nodes.forEach((n, id) => {
        if (!n.children.length) return;
        const kids = [...n.children];
        kids.sort((a, b) => (n.max ? mm.nodes[b].value - mm.nodes[a].value : mm.nodes[a].value - mm.nodes[b].value));
        order.set(id, kids);
      });
      E.unordered = text;
      await search(textOf(mm, new Map(), order), true);
    } catch (e) {
      Lab.showError("tree-error", e);
    }
  }

  function leafClicked(id) {
    const t = T();
    if (!t || !t.text_tree) return false;
    const n = t.nodes[id];
    if (n.children.length || n.leaf_value === undefined) return false;
    E.selected = id;
    Lab.$("ed-leaf").hidden = false;
    Lab.$("ed-leaf-name").textContent = n.label || `leaf ${n.leaf_value}`;
    Lab.$("ed-value").value = String(n.leaf_value);
    Lab.$("ed-value").focus();
    return true;
  }

  function setValue() {
    const t = T();
    const v = Number(Lab.$("ed-value").value);
    if (!t || E.selected < 0) return;
    if (!Number.isInteger(v)) return Lab.showError("tree-error", "a leaf value is a whole number");
    search(textOf(t, new Map([[E.selected, v]])), false);
  }

  function panel() {
    const box = Lab.$("tree-editor");
    box.innerHTML = `<details id="ed-box"><summary>Trees of your own: editor, random trees, best-first ordering</summary>
      <div class="controls">
        <label>Branching <input id="ed-branching" type="number" min="2" max="4" value="2"></label>
        <label>Depth <input id="ed-depth" type="number" min="1" max="5" value="3"></label>
        <label>Seed <input id="ed-seed" type="number" min="0" value="1"></label>
        <button id="ed-random">Random tree</button>
        <label><input type="checkbox" id="ed-best"> best-first ordering</label>
      </div>
      <div id="ed-leaf" class="controls" hidden>Leaf <b id="ed-leaf-name"></b>:
        <input id="ed-value" type="number"> <button id="ed-set">Set</button></div>
      <p class="hint">Click a leaf to change its value; the step stays where it was. The same
        text gives the same search with <code>cutoff lab tree --tree TEXT --out tree.svg</code>.</p></details>`;
    const on = (id, f) => Lab.$(id).addEventListener("click", f);
    on("ed-random", () => {
      const b = clamp(Lab.$("ed-branching").value, 2, 4), d = clamp(Lab.$("ed-depth").value, 1, 5);
      search(randomText(b, d, clamp(Lab.$("ed-seed").value, 0, 2 ** 31)), false);
    });
    on("ed-set", setValue);
    Lab.$("ed-value").addEventListener("keydown", (e) => e.key === "Enter" && setValue());
    Lab.$("ed-best").addEventListener("change", (e) => bestFirst(e.target.checked));
    TreeView.S.onNodeClick = leafClicked;
  }

  function clamp(v, lo, hi) {
    const n = Math.floor(Number(v));
    return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : lo;
  }

  Lab.randomTreeText = randomText;
  window.addEventListener("DOMContentLoaded", panel);
})();
