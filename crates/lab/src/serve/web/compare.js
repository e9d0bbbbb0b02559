// The Compare view: `lab compare` as a job, its table filled row by row,
// and nodes against depth on a log scale with the textbook's b^(d/2) and
// b^(3d/4) lines (computed by the server); on the published position, the
// paper's node counts and times beside ours. The Scores view: `lab scores`
// as a job, beside the paper's Table 1 (the server marks agreement).
"use strict";

(function () {
  const COLORS = { minimax: "#c0392b", alphabeta: "#2471a3", "alphabeta+ordering": "#27ae60",
    "alphabeta+ordering+tt+id": "#8e44ad", engine: "#d68910" };

  const COLUMNS = [
    { title: "algorithm", get: (r) => r.algorithm, cls: "text",
      help: "minimax and alphabeta: the textbook pseudocode; +ordering: Cutoff's move picker; +tt+id: with a transposition table and iterative deepening; engine: Cutoff's full search" },
    { title: "depth", get: (r) => String(r.depth), help: "plies searched below the root" },
    { title: "nodes", get: (r) => Lab.fmtInt(r.nodes), cls: "nodes", help: "positions visited, the root included (+tt+id: all iterations summed)" },
    { title: "leaves", get: (r) => Lab.fmtInt(r.leaves), cls: "leaves", help: "positions evaluated (not counted for the engine)" },
    { title: "time ms", get: (r) => Lab.fmtFixed(r.time_ms, 2), cls: "time",
      help: "wall time of this search in milliseconds: the median of the runs where repeated (minimax and alphabeta), else one run" },
    { title: "min–max ms", get: spread, cls: "spread",
      help: "the fastest and slowest of the repeated runs, and how many (repeats stop after 0.3 s); one run: no spread" },
    { title: "value", get: (r) => r.value_text, help: "centipawns for the side to move at the root; +M3 mates in 3 plies" },
    { title: "best", get: (r) => r.best_move || "-", cls: "text", help: "the best move found, in UCI notation" },
  ];

  function spread(r) {
    const t = r.timing;
    return t ? `${Lab.fmtFixed(t.min_ms, 2)}–${Lab.fmtFixed(t.max_ms, 2)} (${t.runs} runs)` : "-";
  }

  // The paper's count: ✓ where ours is the same, ⇄ where it is printed in
  // the other algorithm's row (its depth-3 swap).
  function publishedNodes(r) {
    if (r.published_nodes === undefined) return "";
    const mark = r.published_swapped ? " ⇄" : r.published_nodes === r.nodes ? " ✓" : "";
    return Lab.fmtInt(r.published_nodes) + mark;
  }

  const PUBLISHED = [
    { title: "published nodes", get: publishedNodes, cls: "published",
      help: "the paper's count for this algorithm and depth: ✓ the same as ours; ⇄ printed in the other algorithm's row (the swap, see the note below)" },
    { title: "published s", get: (r) => (r.published_s === undefined ? "" : String(r.published_s)),
      help: "the paper's running time in seconds (one run, in Python, on its machine)" },
  ];

  function render(status) {
    const published = status.rows.some((r) => r.published_nodes !== undefined);
    const columns = published ? [...COLUMNS.slice(0, 3), PUBLISHED[0], ...COLUMNS.slice(3, 6), PUBLISHED[1], ...COLUMNS.slice(6)] : COLUMNS;
    Lab.table(Lab.$("cmp-table"), columns, status.rows, (r) => ({
      "data-algorithm": r.algorithm,
      "data-depth": String(r.depth),
    }));
    Lab.$("cmp-published-note").hidden = !published;
    Lab.$("cmp-timing-note").hidden = !status.rows.length;
    const reference = status.extra && status.extra.reference;
    Lab.$("cmp-chart").textContent = "";
    if (status.rows.length) Lab.$("cmp-chart").append(chart(status.rows, reference));
  }

  const svg = Lab.svg;

  // Nodes (log scale) against depth; one polyline per algorithm.
  function chart(rows, reference) {
    const names = [...new Set(rows.map((r) => r.algorithm))];
    const entries = names.length + (reference ? 2 : 0);
    // The legend below the axis title: one line per entry, so none clips.
    const W = 380, left = 50, right = 12, top = 14, bottom = 52 + 15 * entries;
    const H = 234 + bottom;
    const maxDepth = Math.max(...rows.map((r) => r.depth), reference ? reference.lines.length : 1);
    const values = rows.map((r) => r.nodes);
    if (reference) for (const [, p, q] of reference.lines) values.push(p, q);
    const lo = Math.floor(Math.log10(Math.max(1, Math.min(...values))));
    const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...values))));
    const x = (d) => left + (maxDepth === 1 ? 0.5 : (d - 1) / (maxDepth - 1)) * (W - left - right);
    const y = (n) => top + (1 - (Math.log10(Math.max(n, 1)) - lo) / (hi - lo)) * (H - top - bottom);
    const root = Lab.svgRoot(W, H, "nodes visited against depth, log scale");
    for (let e = lo; e <= hi; e++) {
      root.append(svg("line", { x1: left, x2: W - right, y1: y(10 ** e), y2: y(10 ** e), class: "grid" }));
      root.append(svg("text", { x: left - 6, y: y(10 ** e) + 4, class: "axis", "text-anchor": "end" }, `1e${e}`));
    }
    for (let d = 1; d <= maxDepth; d++) {
      root.append(svg("text", { x: x(d), y: H - bottom + 16, class: "axis", "text-anchor": "middle" }, String(d)));
    }
    root.append(svg("text", { x: (left + W - right) / 2, y: H - bottom + 32, class: "axis", "text-anchor": "middle" }, "depth"));
    root.append(svg("text", { x: 14, y: (top + H - bottom) / 2, class: "axis", "text-anchor": "middle",
      transform: `rotate(-90 14 ${(top + H - bottom) / 2})` }, "nodes"));
    const legend = [];
    if (reference) {
      const b = reference.branching.toFixed(1);
      line(root, reference.lines.map(([d, p]) => [x(d), y(p)]), "#777", "6 4");
      line(root, reference.lines.map(([d, , q]) => [x(d), y(q)]), "#777", "2 3");
      legend.push([`b^(d/2), b = ${b}`, "#777", "6 4"], [`b^(3d/4)`, "#777", "2 3"]);
    }
    for (const name of names) {
      const pts = rows.filter((r) => r.algorithm === name).map((r) => [x(r.depth), y(r.nodes)]);
      const color = COLORS[name] || "#333";
      line(root, pts, color, "");
      for (const [px, py] of pts) root.append(svg("circle", { cx: px, cy: py, r: 3, fill: color }));
      legend.push([name, color, ""]);
    }
    Lab.legend(root, legend, 12, H - bottom + 50, 0, 1);
    return root;
  }

  function line(root, pts, color, dash) {
    if (pts.length === 0) return;
    root.append(svg("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none",
      stroke: color, "stroke-width": 2, "stroke-dasharray": dash }));
  }

  Lab.views.compare = {
    init() {
      Lab.depthOptions("cmp-depth", Lab.limits.compare_depth, 4);
      Lab.jobView({
        run: "cmp-run", cancel: "cmp-cancel", progress: "cmp-progress", status: "cmp-status", error: "cmp-error",
        results: "cmp-results",
        request: () => ({
          kind: "compare",
          fen: Lab.current.fen,
          depth: Number(Lab.$("cmp-depth").value),
          eval: Lab.$("cmp-eval").value,
          published: Lab.$("cmp-published-rules").checked,
          textbook_only: Lab.$("cmp-textbook").checked,
          runs: Number(Lab.$("cmp-runs").value),
        }),
        render,
      });
    },
  };

  const SCORES = [
    { title: "move", get: (r) => r.move, cls: "text", help: "the root move, in UCI notation" },
    { title: "score", get: (r) => r.score_text, cls: "score",
      help: "alpha-beta's value of the position after the move, searched this many plies below it, for the side to move at the root (+M3: mate in 3 plies; +inf: the published rules' flat mate)" },
    { title: "published", get: (r) => (r.published === undefined ? "" : r.published), cls: "published",
      help: "the paper's Table 1 score for this move (Inf: a forced mate)" },
    { title: "agrees", get: (r) => (r.agrees === undefined ? "" : r.agrees ? "✓" : "✗"), cls: "agrees",
      help: "✓: our score is the published one (any mate counts as its Inf)" },
  ];

  Lab.views.scores = {
    init() {
      Lab.depthOptions("scr-depth", Lab.limits.scores_depth, 3);
      Lab.jobView({
        run: "scr-run", cancel: "scr-cancel", progress: "scr-progress", status: "scr-status", error: "scr-error",
        results: "scr-results",
        request: () => ({
          kind: "scores",
          fen: Lab.current.fen,
          depth: Number(Lab.$("scr-depth").value),
          published: Lab.$("scr-published-rules").checked,
        }),
        render: (s) => {
          const compared = s.rows.some((r) => r.published !== undefined);
          Lab.table(Lab.$("scr-table"), compared ? SCORES : SCORES.slice(0, 2), s.rows, (r) => ({ "data-move": r.move }));
          const agree = s.rows.filter((r) => r.agrees).length;
          Lab.$("scr-summary").textContent = compared && s.state === "done"
            ? `${agree} of ${s.rows.length} moves score as published.` : "";
          Lab.$("scr-published-note").hidden = !compared;
        },
      });
    },
  };
})();
