// The Tree view: the server's alpha-beta trace drawn as an outline that
// opens level by level, replayed step by step in visiting order.
"use strict";

(function () {
  const RENDER_LIMIT = 2500; // rows drawn at once; deeper levels open on demand
  let tree = null; // the server's answer
  let at = 0; // steps done
  let expanded = new Set();
  let timer = null;
  let enterStep = [], leaveStep = [], cutStep = [];

  const label = (n) => n.edge || "root";

  function source() {
    const g = Lab.game;
    if (g.kind === "chess") return { text: `chess, ${g.fen}`, max: Lab.limits.chess_tree_depth, req: { game: "chess", fen: g.fen } };
    if (g.kind === "tictactoe") return { text: `tic-tac-toe after "${g.moves}"`, max: Lab.limits.tictactoe_tree_depth, req: { game: "tictactoe", moves: g.moves } };
    const text = Lab.$("tree-text").value;
    return { text: `the tree ${text}`, max: 0, req: { game: "text", text } };
  }

  async function build() {
    stop();
    Lab.showError("tree-error", null);
    const src = source();
    const req = src.req;
    if (src.max) req.depth = Number(Lab.$("tree-depth").value);
    Lab.$("tree-build").disabled = true;
    try {
      load(await Lab.api("POST", "/api/tree", req));
    } catch (e) {
      Lab.showError("tree-error", e);
    } finally {
      Lab.$("tree-build").disabled = false;
    }
  }

  function load(t) {
    tree = t;
    enterStep = new Array(t.nodes.length).fill(-1);
    leaveStep = new Array(t.nodes.length).fill(-1);
    cutStep = new Array(t.nodes.length).fill(-1);
    t.steps.forEach((s, i) => {
      if (s.kind === "enter") enterStep[s.node] = i;
      if (s.kind === "leave") leaveStep[s.node] = i;
      if (s.kind === "cutoff") for (const p of s.pruned) cutStep[p] = i;
    });
    let summary = `${t.title}: value ${t.value_text}; ${t.nodes_visited} nodes visited, ` +
      `${t.leaves} leaves evaluated, ${t.pruned} moves pruned`;
    if (t.total_leaves !== null) summary += ` (${t.total_leaves - t.leaves} of ${t.total_leaves} leaves never evaluated)`;
    if (t.pv.length) summary += `; principal variation ${t.pv.join(" ")}`;
    Lab.$("tree-summary").textContent = summary;
    collapseToPv();
    go(t.steps.length);
  }

  function collapseToPv() {
    expanded = new Set(tree.nodes.map((n, i) => (n.pv ? i : -1)).filter((i) => i >= 0));
    expanded.add(0);
  }

  // What a node shows after `at` steps: future, open (entered), done, pruned.
  function stateOf(id) {
    const n = tree.nodes[id];
    if (n.pruned) return cutStep[id] < at ? "pruned" : "future";
    if (enterStep[id] >= at) return "future";
    return leaveStep[id] >= at ? "open" : "done";
  }

  function go(k) {
    if (!tree) return;
    at = Math.max(0, Math.min(tree.steps.length, k));
    if (at > 0) {
      for (let p = tree.nodes[tree.steps[at - 1].node].parent; p !== null; p = tree.nodes[p].parent) expanded.add(p);
      if (tree.steps[at - 1].kind === "cutoff") expanded.add(tree.steps[at - 1].node);
    }
    render();
  }

  function describe() {
    const el = Lab.$("step-text");
    Lab.$("step-count").textContent = `step ${at} of ${tree.steps.length}`;
    if (at === 0) {
      el.textContent = "Before the search. Step forward to follow alpha-beta in visiting order.";
      el.dataset.kind = "start";
      el.dataset.label = "";
    } else {
      const s = tree.steps[at - 1];
      const n = tree.nodes[s.node];
      const who = `${label(n)} (${n.max ? "MAX" : "MIN"})`;
      if (s.kind === "enter") el.textContent = `enter ${who} with window ${n.window_text}`;
      if (s.kind === "leave") el.textContent = `${who} returns ${n.value_text}${n.children.length ? "" : " (a leaf: evaluated)"}`;
      if (s.kind === "cutoff") {
        const names = s.pruned.map((p) => tree.nodes[p].edge).join(", ");
        el.textContent = `${who} cuts off: ${s.pruned.length} move(s) never searched (${names})`;
      }
      el.dataset.kind = s.kind;
      el.dataset.label = label(n);
    }
    const entered = [];
    for (let i = 0; i < at; i++) if (tree.steps[i].kind === "enter") entered.push(label(tree.nodes[tree.steps[i].node]));
    const shown = entered.length > 40 ? ["…", ...entered.slice(-40)] : entered;
    Lab.$("step-order").textContent = `visiting order: ${shown.join(" ")}`;
    Lab.$("step-order").dataset.count = String(entered.length);
  }

  function render() {
    describe();
    const box = Lab.$("tree");
    box.textContent = "";
    const budget = { left: RENDER_LIMIT };
    const ul = Lab.el("ul", { class: "tree-root" });
    ul.append(row(0, budget));
    box.append(ul);
    if (budget.left <= 0) box.append(Lab.el("p", { class: "hint", text: `Only ${RENDER_LIMIT} rows are drawn at once; collapse some nodes to see others.` }));
    const current = box.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function row(id, budget) {
    budget.left--;
    const n = tree.nodes[id];
    const state = stateOf(id);
    const li = Lab.el("li", { "data-node": String(id) });
    const line = Lab.el("div", { class: `node ${state}` });
    const final = at === tree.steps.length;
    if (n.pv && final) line.classList.add("pv");
    if (at > 0 && tree.steps[at - 1].node === id) line.classList.add("current");
    const open = expanded.has(id);
    const toggle = Lab.el("span", { class: "toggle", text: n.children.length ? (open ? "\u25BE" : "\u25B8") : "\u00B7" });
    if (n.children.length) {
      toggle.addEventListener("click", () => {
        if (open) expanded.delete(id);
        else expanded.add(id);
        render();
      });
    }
    line.append(toggle, Lab.el("span", { class: "edge", text: label(n) }),
      Lab.el("span", { class: "who", text: n.max ? "\u25B2" : "\u25BC" }));
    if (state === "open" || state === "done") line.append(Lab.el("span", { class: "window", text: n.window_text }));
    if (state === "done") line.append(Lab.el("span", { class: "value", text: `= ${n.value_text}` }));
    if (state === "open") line.append(Lab.el("span", { class: "value", text: "searching" }));
    if (n.cutoff && (state === "done" || cutStep[n.children[n.children.length - 1]] < at)) line.append(Lab.el("span", { class: "badge cut", text: "cut-off" }));
    if (state === "pruned") line.append(Lab.el("span", { class: "badge", text: "pruned" }));
    if (n.children.length && !open) line.append(Lab.el("span", { class: "count", text: `${n.children.length} children` }));
    li.append(line);
    if (open && n.children.length) {
      const ul = Lab.el("ul");
      for (const c of n.children) {
        if (budget.left <= 0) break;
        ul.append(row(c, budget));
      }
      li.append(ul);
    }
    return li;
  }

  // Opens the next level below the deepest open one, within the row limit.
  function expandLevel() {
    if (!tree) return;
    let frontier = tree.nodes.map((_, i) => i).filter((i) => !expanded.has(i) && tree.nodes[i].children.length &&
      (tree.nodes[i].parent === null || expanded.has(tree.nodes[i].parent)));
    let rows = tree.nodes.filter((n, i) => n.parent === null || expanded.has(n.parent)).length;
    for (const i of frontier) {
      rows += tree.nodes[i].children.length;
      if (rows > RENDER_LIMIT) break;
      expanded.add(i);
    }
    render();
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    Lab.$("step-play").textContent = "Play";
  }

  function playPause() {
    if (timer || !tree) return stop();
    if (at === tree.steps.length) go(0);
    Lab.$("step-play").textContent = "Pause";
    timer = setInterval(() => (at < tree.steps.length ? go(at + 1) : stop()), 500);
  }

  Lab.views.tree = {
    init() {
      Lab.$("tree-build").addEventListener("click", build);
      Lab.$("step-first").addEventListener("click", () => { stop(); go(0); });
      Lab.$("step-back").addEventListener("click", () => { stop(); go(at - 1); });
      Lab.$("step-fwd").addEventListener("click", () => { stop(); go(at + 1); });
      Lab.$("step-last").addEventListener("click", () => { stop(); go(Infinity); });
      Lab.$("step-play").addEventListener("click", playPause);
      Lab.$("tree-level").addEventListener("click", expandLevel);
      Lab.$("tree-collapse").addEventListener("click", () => tree && (collapseToPv(), render()));
    },
    shown() {
      const src = source();
      Lab.$("tree-source").textContent = src.text;
      Lab.$("tree-depth-label").hidden = !src.max;
      Lab.$("tree-depth").max = String(src.max || 1);
    },
  };
})();
