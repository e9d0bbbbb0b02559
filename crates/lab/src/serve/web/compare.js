// The Compare view: `lab compare` as a job, its table filled row by row,
// and nodes against depth on a log scale with the textbook's b^(d/2) and
// b^(3d/4) lines (computed by the server).
"use strict";

(function () {
  const COLORS = { minimax: "#c0392b", alphabeta: "#2471a3", "alphabeta+ordering": "#27ae60",
    "alphabeta+ordering+tt+id": "#8e44ad", engine: "#d68910" };

  const COLUMNS = [
    { title: "algorithm", get: (r) => r.algorithm, cls: "text" },
    { title: "depth", get: (r) => String(r.depth) },
    { title: "nodes", get: (r) => Lab.fmtInt(r.nodes), cls: "nodes" },
    { title: "leaves", get: (r) => Lab.fmtInt(r.leaves), cls: "leaves" },
    { title: "time ms", get: (r) => Lab.fmtFixed(r.time_ms, 2) },
    { title: "value", get: (r) => r.value_text },
    { title: "best", get: (r) => r.best_move || "-", cls: "text" },
  ];

  function render(status) {
    Lab.table(Lab.$("cmp-table"), COLUMNS, status.rows, (r) => ({
      "data-algorithm": r.algorithm,
      "data-depth": String(r.depth),
    }));
    const reference = status.extra && status.extra.reference;
    Lab.$("cmp-chart").textContent = "";
    if (status.rows.length) Lab.$("cmp-chart").append(chart(status.rows, reference));
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Nodes (log scale) against depth; one polyline per algorithm.
  function chart(rows, reference) {
    const W = 380, H = 330, left = 50, right = 12, top = 14, bottom = 96;
    const maxDepth = Math.max(...rows.map((r) => r.depth), reference ? reference.lines.length : 1);
    const values = rows.map((r) => r.nodes);
    if (reference) for (const [, p, q] of reference.lines) values.push(p, q);
    const lo = Math.floor(Math.log10(Math.max(1, Math.min(...values))));
    const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...values))));
    const x = (d) => left + (maxDepth === 1 ? 0.5 : (d - 1) / (maxDepth - 1)) * (W - left - right);
    const y = (n) => top + (1 - (Math.log10(Math.max(n, 1)) - lo) / (hi - lo)) * (H - top - bottom);
    const root = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "chart-svg", role: "img" });
    root.append(svg("title", {}, "nodes visited against depth, log scale"));
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
    const names = [...new Set(rows.map((r) => r.algorithm))];
    for (const name of names) {
      const pts = rows.filter((r) => r.algorithm === name).map((r) => [x(r.depth), y(r.nodes)]);
      const color = COLORS[name] || "#333";
      line(root, pts, color, "");
      for (const [px, py] of pts) root.append(svg("circle", { cx: px, cy: py, r: 3, fill: color }));
      legend.push([name, color, ""]);
    }
    legend.forEach(([label, color, dash], i) => {
      const lx = 12 + (i % 2) * 180, ly = H - bottom + 50 + Math.floor(i / 2) * 15;
      root.append(svg("line", { x1: lx, x2: lx + 22, y1: ly - 4, y2: ly - 4, stroke: color, "stroke-width": 2, "stroke-dasharray": dash }));
      root.append(svg("text", { x: lx + 28, y: ly, class: "legend" }, label));
    });
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
      Lab.$("cmp-fen").value = Lab.PUBLISHED_FEN;
      Lab.$("cmp-published").addEventListener("click", () => (Lab.$("cmp-fen").value = Lab.PUBLISHED_FEN));
      Lab.$("cmp-from-position").addEventListener("click", () => (Lab.$("cmp-fen").value = Lab.game.fen));
      Lab.jobView({
        run: "cmp-run", cancel: "cmp-cancel", progress: "cmp-progress", status: "cmp-status", error: "cmp-error",
        request: () => ({
          kind: "compare",
          fen: Lab.$("cmp-fen").value.trim(),
          depth: Number(Lab.$("cmp-depth").value),
          eval: Lab.$("cmp-eval").value,
          published: Lab.$("cmp-published-rules").checked,
          textbook_only: Lab.$("cmp-textbook").checked,
        }),
        render,
      });
    },
  };
})();
