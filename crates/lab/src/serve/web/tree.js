// The Tree view: the server's trace of the search drawn as a tree and
// replayed step by step, with the live window of every open node, the
// reason of every cutoff and the pseudocode line being executed.
"use strict";

const TreeView = (function () {
  const DRAW_BUDGET = 800; // nodes drawn at first; deeper levels open on demand
  const S = {
    tree: null, at: 0, algo: "failsoft", draw: null, collapsed: new Set(), levels: 0,
    enter: [], leave: [], cut: [], cutAt: [], cutText: [], touches: [], entered: [], enteredBy: [],
    canon: [], visits: [],
    timer: null, holder: -1, onNodeClick: null, onLoad: null, locked: false, showAll: false,
  };

  const inf = (t) => t.replace("+inf", "+∞").replace("-inf", "−∞");
  const isText = () => S.tree && S.tree.text_tree;

  // A node's name in sentences: the text's label, else its move, else "root".
  function name(n) {
    if (n.label) return n.label;
    if (n.parent === null) return "root";
    if (isText() && !n.children.length && n.leaf_value !== undefined) return `leaf ${n.leaf_value}`;
    return n.edge;
  }

  function index(t) {
    const len = t.nodes.length;
    S.enter = new Array(len).fill(-1);
    S.leave = new Array(len).fill(-1);
    S.cut = new Array(len).fill(-1);
    S.cutAt = new Array(len).fill(-1);
    S.cutText = new Array(len).fill("");
    S.touches = t.nodes.map(() => []);
    // A node searched again is one drawn node with several visits.
    S.canon = t.nodes.map((n, i) => (n.same_as === undefined ? i : n.same_as));
    S.visits = t.nodes.map(() => []);
    S.canon.forEach((c, i) => S.visits[c].push(i));
    S.entered = [];
    S.enteredBy = [];
    t.steps.forEach((s, i) => {
      S.touches[s.node].push(i);
      if (s.kind === "enter") {
        S.enter[s.node] = i;
        S.entered.push(name(t.nodes[s.node]));
      }
      if (s.kind === "leave") S.leave[s.node] = i;
      if (s.kind === "update" && s.test === true) S.cutText[s.node] = s.test_text;
      if (s.kind === "cutoff") {
        S.cutAt[s.node] = i;
        for (const p of s.pruned || []) S.cut[p] = i;
      }
      S.enteredBy.push(S.entered.length);
    });
    // Nodes below a pruned move are pruned by the same cutoff.
    t.nodes.forEach((n, i) => {
      if (n.pruned && S.cut[i] < 0 && n.parent !== null) S.cut[i] = S.cut[n.parent];
    });
  }

  // The last step before `at` that touched node `id`, or null.
  function live(id) {
    const list = S.touches[id];
    let lo = 0, hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < S.at) lo = mid + 1;
      else hi = mid;
    }
    return lo ? S.tree.steps[list[lo - 1]] : null;
  }

  // The visit of drawn node `id` the search has reached last (itself if none).
  function visitOf(id) {
    let best = id, when = -1;
    for (const v of S.visits[id]) {
      const k = S.tree.nodes[v].pruned ? S.cut[v] : S.enter[v];
      if (k >= 0 && k < S.at && k > when) (best = v), (when = k);
    }
    return best;
  }

  function stateOf(id) {
    const n = S.tree.nodes[id];
    if (n.pruned) return S.cut[id] >= 0 && S.cut[id] < S.at ? "pruned" : "future";
    if (S.enter[id] < 0 || S.enter[id] >= S.at) return "future";
    return S.leave[id] >= S.at || S.leave[id] < 0 ? "open" : "done";
  }

  // Why node `id` cut off: the inequality of the test that stopped it.
  function reason(id) {
    const k = S.cutAt[id];
    return k < 0 || k >= S.at ? "" : inf(S.cutText[id]);
  }

  // The test the current step evaluated and failed, if any: "4 ≥ β = 15? no".
  function failedTest() {
    const s = S.at > 0 ? S.tree.steps[S.at - 1] : null;
    return s && s.test === false ? `${inf(s.test_text)}? no` : "";
  }

  function look(drawn) {
    const id = visitOf(drawn);
    const n = S.tree.nodes[id];
    const state = stateOf(id);
    const flags = [];
    let visit = n.visit > 1 ? `visit ${n.visit}` : "";
    const group = S.draw && S.draw.lay.group.get(drawn);
    let value = "", window = "", cut = "", label = isText() ? n.label || "" : n.edge;
    if (n.leaf_value !== undefined) value = String(n.leaf_value);
    if (group) label = `${group} moves`;
    if (state === "open" || state === "done") {
      const s = live(id);
      if (state === "done") value = n.value_text;
      else if (n.children.length) value = inf(S.algo === "failhard" ? (n.max ? s.alpha_text : s.beta_text) : s.best_text || "?");
      else value = "?";
      if (S.algo !== "minimax") window = `α=${inf(s.alpha_text)} β=${inf(s.beta_text)}`;
      cut = reason(id);
    }
    const current = S.at > 0 && S.tree.steps[S.at - 1].node === id;
    if (current && !cut && failedTest()) (cut = failedTest()), flags.push("tested-no");
    if (n.bound && state === "done") flags.push("bound");
    if (state === "future" || state === "pruned") visit = "";
    if (current) flags.push("current");
    if (S.at === S.tree.steps.length && n.pv) flags.push("pv");
    if (drawn === S.holder && !current) flags.push("holds");
    if (S.collapsed.has(drawn) && n.children.length) flags.push("collapsed");
    if (!n.children.length && !(n.pruned && n.leaf_value === undefined)) flags.push("leaf");
    if (S.quiz && S.quiz.has(drawn)) flags.push("guess");
    if (S.verdict && S.verdict.has(drawn)) flags.push(S.verdict.get(drawn));
    return { state, flags, value, window, cut, name: label, visit };
  }

  // Shows trace `t`, at step `at` (clamped: Infinity is the end).
  function load(t, algo, at = 0) {
    stop();
    S.tree = t;
    S.algo = algo;
    S.quiz = null;
    S.verdict = null;
    index(t);
    S.levels = TreeLayout.levelsWithin(t, DRAW_BUDGET);
    S.collapsed = TreeLayout.collapseBelow(t, S.levels);
    let summary = `${t.title}: value ${t.value_text}; ${t.nodes_visited} nodes visited, ` +
      `${t.leaves} leaves evaluated, ${t.pruned} moves pruned`;
    if (t.distinct_leaves < t.leaves) summary += ` (${t.distinct_leaves} distinct: ${t.leaves - t.distinct_leaves} searched again)`;
    if (t.total_leaves !== null) summary += ` (${t.total_leaves - t.distinct_leaves} of ${t.total_leaves} leaves never evaluated)`;
    // Named as the drawing names them: a text tree's leaf by its value.
    const pv = t.nodes.filter((n) => n.pv && n.parent !== null && n.same_as === undefined).map(name);
    if (pv.length) summary += `; principal variation ${pv.join(" ")}`;
    const el = Lab.$("tree-summary");
    el.textContent = summary;
    Object.assign(el.dataset, { value: t.value_text, nodes: t.nodes_visited, leaves: t.leaves, pruned: t.pruned });
    Pseudocode.render(Lab.$("pseudo"), algo, t);
    S.at = Math.max(0, Math.min(t.steps.length, at));
    Lab.$("step-slider").max = String(t.steps.length);
    redraw();
    if (S.onLoad) S.onLoad(t, algo);
  }

  // Lays the tree out again and rebuilds the drawing (after a collapse or
  // an edit): the view stays where it was if the drawing keeps its size.
  function redraw() {
    const lay = TreeLayout.layout(S.tree, S.collapsed);
    const old = S.draw;
    const keep = old && (old.tree === S.tree || (old.lay.width === lay.width && old.lay.height === lay.height)) ? old.vb : null;
    S.draw = TreeDraw.create(Lab.$("tree"), S.tree, lay, look, keep);
    S.draw.svg.classList.toggle("all", S.showAll);
    S.draw.svg.addEventListener("click", clicked);
    S.holder = holderOf();
    TreeDraw.refreshAll(S.draw);
    after();
  }

  // The drawn node standing for the current one (itself, or the collapsed
  // ancestor it is hidden in).
  function holderOf() {
    if (!S.at) return -1;
    let id = S.canon[S.tree.steps[S.at - 1].node];
    while (id !== null && !S.draw.parts.has(id)) id = S.tree.nodes[id].parent;
    return id === null ? -1 : id;
  }

  // The nodes a step changes when done or undone.
  function touched(k) {
    const s = S.tree.steps[k];
    const out = [s.node];
    const stack = [...(s.pruned || [])];
    while (stack.length) {
      const p = stack.pop();
      out.push(p);
      stack.push(...S.tree.nodes[p].children);
    }
    return out;
  }

  // The quiz locks stepping while a question is open (S.locked).
  function go(k) {
    if (!S.tree || S.locked) return;
    const to = Math.max(0, Math.min(S.tree.steps.length, k));
    const from = S.at;
    if (to === from) return after();
    const last = S.tree.steps.length;
    const changed = new Set();
    if (Math.abs(to - from) === 1) {
      for (const id of touched(Math.min(from, to))) changed.add(id);
      if (from > 0) changed.add(S.tree.steps[from - 1].node);
      if (to === last || from === last) S.tree.nodes.forEach((n, i) => n.pv && changed.add(i));
    }
    S.at = to;
    const oldHolder = S.holder;
    S.holder = holderOf();
    if (Math.abs(to - from) !== 1) TreeDraw.refreshAll(S.draw);
    else {
      changed.add(oldHolder);
      changed.add(S.holder);
      for (const id of changed) if (id >= 0) TreeDraw.refresh(S.draw, S.canon[id]);
    }
    after();
  }

  // Everything outside the drawing that follows a step. Before the first
  // step the whole tree is drawn faint: the tree about to be searched.
  function after() {
    describe();
    S.draw.svg.classList.toggle("start", S.at === 0);
    Lab.$("step-slider").value = String(S.at);
    if (typeof TreeShare !== "undefined") TreeShare.save();
    Pseudocode.highlight(S.tree, S.at - 1);
    if (S.holder >= 0) TreeDraw.follow(S.draw, S.holder);
  }

  // The child whose return step `k` (an update or research) takes in.
  function lastChild(k) {
    const steps = S.tree.steps;
    for (let j = k - 1; j >= 0; j--) {
      if (steps[j].kind === "leave" && S.tree.nodes[steps[j].node].parent === steps[k].node) return steps[j].node;
    }
    return steps[k].node;
  }

  function describe() {
    const el = Lab.$("step-text");
    const t = S.tree;
    Lab.$("step-count").textContent = `step ${S.at} of ${t.steps.length}`;
    const win = Lab.$("step-window");
    win.textContent = "";
    if (S.at === 0) {
      el.textContent = "Before the search. Step forward (→) to follow it in visiting order.";
      el.dataset.kind = "start";
      el.dataset.label = "";
      for (const k of ["alpha", "beta", "best"]) win.dataset[k] = "";
    } else {
      const s = t.steps[S.at - 1];
      const n = t.nodes[s.node];
      const who = n.children.length ? `${name(n)} (${n.max ? "MAX" : "MIN"})` : name(n);
      const w = `α = ${inf(s.alpha_text)}, β = ${inf(s.beta_text)}`;
      const again = n.visit > 1 ? ` again (visit ${n.visit}, the full window)` : "";
      if (s.kind === "enter") el.textContent = `enter ${who}${again} with ${S.algo === "minimax" ? "no window" : w}`;
      const test = s.test === undefined ? "" : `${inf(s.test_text)}? ${s.test ? "yes" : "no"}`;
      if (s.kind === "update") {
        const child = t.nodes[lastChild(S.at - 1)];
        let text = `${who} takes in ${name(child)}'s ${inf(child.value_text)}: value ${inf(s.best_text)}`;
        if (test) text += `; ${test}` + (s.test ? "" : `, so now ${w}`);
        el.textContent = text;
      }
      if (s.kind === "research") {
        const child = t.nodes[lastChild(S.at - 1)];
        el.textContent = `${who}: after ${name(child)}'s null-window search, is ${test}` +
          (s.test ? `: search ${name(child)} again with the full window` : ": no search again");
      }
      if (s.kind === "leave") el.textContent = `${who} returns ${inf(n.value_text)}${n.children.length ? "" : " (a leaf: evaluated)"}` +
        (n.bound === "lower" ? " (a lower bound: the node is worth at least this)" : "") +
        (n.bound === "upper" ? " (an upper bound: the node is worth at most this)" : "");
      if (s.kind === "cutoff") {
        const pruned = s.pruned || [];
        const names = pruned.map((p) => name(t.nodes[p])).join(", ");
        el.textContent = `${who} cuts off because ${reason(s.node)}: ` + (pruned.length
          ? `${pruned.length} move(s) never searched (${names})`
          : "it was the last move, none is left to prune; it returns at once");
      }
      el.dataset.kind = s.kind;
      el.dataset.label = name(n);
      win.dataset.alpha = s.alpha_text;
      win.dataset.beta = s.beta_text;
      win.dataset.best = s.best_text;
      win.dataset.node = String(s.node);
      if (S.algo !== "minimax") win.textContent = `${name(n)}: ${w}, value so far ${inf(s.best_text) || "none"}`;
    }
    const count = S.at ? S.enteredBy[S.at - 1] : 0;
    const shown = S.entered.slice(Math.max(0, count - 40), count);
    if (count > 40) shown.unshift("…");
    Lab.$("step-order").textContent = `visiting order: ${shown.join(" ")}`;
    Lab.$("step-order").dataset.count = String(count);
  }

  function clicked(e) {
    const svg = S.draw.svg;
    if (svg.dataset.dragged) return delete svg.dataset.dragged;
    const g = e.target.closest("g.tn");
    if (!g) return;
    const id = Number(g.dataset.node);
    if (S.onNodeClick && S.onNodeClick(id)) return;
    if (!S.tree.nodes[id].children.length) return;
    if (S.collapsed.has(id)) S.collapsed.delete(id);
    else S.collapsed.add(id);
    redraw();
  }

  function setLevels(levels) {
    if (!S.tree) return;
    S.levels = Math.max(1, levels);
    S.collapsed = TreeLayout.collapseBelow(S.tree, S.levels);
    redraw();
  }

  function stop() {
    if (S.timer) clearInterval(S.timer);
    S.timer = null;
    Lab.$("step-play").textContent = "Play";
  }

  function playPause() {
    if (S.timer || !S.tree || S.locked) return stop();
    if (S.at === S.tree.steps.length) go(0);
    Lab.$("step-play").textContent = "Pause";
    const delay = 1000 / Number(Lab.$("step-speed").value);
    S.timer = setInterval(() => (S.at < S.tree.steps.length ? go(S.at + 1) : stop()), delay);
  }

  // The step after the next cutoff (from the current one on).
  function nextCutoff() {
    const steps = S.tree.steps;
    for (let k = S.at; k < steps.length; k++) if (steps[k].kind === "cutoff") return k + 1;
    return steps.length;
  }

  // The step after the return of the node being searched: the current
  // node's, or its parent's once it has returned (the root's before step 1).
  function endOfNode() {
    if (!S.at) return S.tree.steps.length;
    const s = S.tree.steps[S.at - 1];
    let id = s.node;
    if (s.kind === "leave" && S.tree.nodes[id].parent !== null) id = S.tree.nodes[id].parent;
    return S.leave[id] < 0 ? S.tree.steps.length : S.leave[id] + 1;
  }

  // Keys step the search only when aimed at the page, not at a field, a
  // select or a button (Space presses a focused button, as it should).
  function key(e) {
    if (Lab.$("view-tree").hidden || !S.tree || e.altKey || e.ctrlKey || e.metaKey) return;
    const at = (sel) => e.target.closest && e.target.closest(sel);
    if (at("input, textarea, select, [contenteditable]")) return;
    const moves = {
      ArrowRight: () => go(S.at + 1), ArrowLeft: () => go(S.at - 1), Home: () => go(0), End: () => go(Infinity),
      c: () => go(nextCutoff()), u: () => go(endOfNode()),
    };
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (moves[k]) {
      stop();
      moves[k]();
    } else if (k === " " && !at("button, a, summary")) playPause();
    else return;
    e.preventDefault();
  }

  // A closed select changes with the arrow keys in Chromium, and its change
  // searches again: arrows on a select of this view do nothing; it opens
  // with Alt+Down, Space or a click.
  function guardSelect(e) {
    if (e.target.tagName === "SELECT" && !e.altKey && e.key.startsWith("Arrow")) e.preventDefault();
  }

  function init() {
    const on = (id, f) => Lab.$(id).addEventListener("click", f);
    on("step-first", () => { stop(); go(0); });
    on("step-back", () => { stop(); go(S.at - 1); });
    on("step-fwd", () => { stop(); go(S.at + 1); });
    on("step-last", () => { stop(); go(Infinity); });
    on("step-play", playPause);
    on("step-cut", () => { stop(); go(nextCutoff()); });
    on("step-out", () => { stop(); go(endOfNode()); });
    Lab.$("step-slider").addEventListener("input", (e) => { stop(); go(Number(e.target.value)); });
    Lab.$("view-tree").addEventListener("keydown", guardSelect);
    on("tab-tree", () => pane("tree"));
    on("tab-pseudo", () => pane("pseudo"));
    on("tree-more", () => setLevels(S.levels + 1));
    on("tree-fewer", () => setLevels(S.levels - 1));
    on("tree-fit", () => S.draw && TreeDraw.fit(S.draw));
    on("tree-zoom-in", () => S.draw && TreeDraw.zoom(S.draw, 1.25));
    on("tree-zoom-out", () => S.draw && TreeDraw.zoom(S.draw, 0.8));
    Lab.$("tree-all").addEventListener("change", (e) => setShowAll(e.target.checked));
    Lab.$("step-speed").addEventListener("change", () => S.timer && (stop(), playPause()));
    document.addEventListener("keydown", key);
  }

  // On a narrow screen the tree and the pseudocode share the place: a tab each.
  function pane(which) {
    Lab.$("tree-panel").dataset.pane = which;
    Lab.$("tab-tree").setAttribute("aria-selected", String(which === "tree"));
    Lab.$("tab-pseudo").setAttribute("aria-selected", String(which === "pseudo"));
  }

  // For the editor and the quiz: the state, a full refresh, the whole tree.
  function setShowAll(on) {
    S.showAll = on;
    Lab.$("tree-all").checked = on;
    if (S.draw) S.draw.svg.classList.toggle("all", on);
  }

  // After a refused request: nothing left to step or draw.
  function clear() {
    stop();
    S.tree = null;
    S.draw = null;
    Lab.$("tree").textContent = "";
    Lab.$("tree-summary").textContent = "";
    Lab.$("step-text").textContent = "";
    Lab.$("step-window").textContent = "";
    Lab.$("step-order").textContent = "";
    Lab.$("step-count").textContent = "step 0 of 0";
    Lab.$("step-slider").max = "0";
    Lab.$("pseudo").textContent = "";
  }

  return { S, init, load, go, clear, nextCutoff, endOfNode, refresh: () => S.draw && TreeDraw.refreshAll(S.draw), setShowAll, stop };
})();
