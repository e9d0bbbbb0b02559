// SVG charts drawn by the page: the pieces (elements, legends) and two bar
// charts. Charts scale to their box's width (CSS) through the viewBox, so
// they fit a phone; the legend gets one line per entry and never clips.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";

  Lab.svg = function (tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // An <svg> of W x H user units with a title (for screen readers).
  Lab.svgRoot = function (W, H, title, cls) {
    const root = Lab.svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: `chart-svg ${cls || ""}`, role: "img" });
    root.append(Lab.svg("title", {}, title));
    return root;
  };

  // Legend entries [label, color, dash, kind] in columns of `colWidth`,
  // `perRow` per line, from (x, y); returns the height used.
  Lab.legend = function (root, entries, x, y, colWidth, perRow) {
    entries.forEach(([label, color, dash, kind], i) => {
      const lx = x + (i % perRow) * colWidth, ly = y + Math.floor(i / perRow) * 15;
      if (kind === "box") {
        root.append(Lab.svg("rect", { x: lx + 6, y: ly - 10, width: 12, height: 10, fill: color }));
      } else {
        root.append(Lab.svg("line", { x1: lx, x2: lx + 22, y1: ly - 4, y2: ly - 4, stroke: color, "stroke-width": 2, "stroke-dasharray": dash || "" }));
      }
      root.append(Lab.svg("text", { x: lx + 28, y: ly, class: "legend" }, label));
    });
    return Math.ceil(entries.length / perRow) * 15;
  };

  // Grouped vertical bars: one group per `groups` label, one bar per series
  // ({name, color}); value(group index, series index) or null; dashed
  // horizontal reference lines [{value, label}]; y from 0 to yMax, a grid
  // line every yStep.
  Lab.groupedBars = function ({ title, groups, series, value, refs, yMax, yStep, yLabel, xLabel }) {
    const W = 380, left = 44, right = 64, top = 12, plotH = 200;
    const legendTop = top + plotH + 44;
    const H = legendTop + Math.ceil(series.length / 2) * 15 + 6;
    const root = Lab.svgRoot(W, H, title, "bars");
    const y = (v) => top + plotH * (1 - Math.min(v, yMax) / yMax);
    const slot = (W - left - right) / Math.max(1, groups.length);
    const barW = Math.min(18, (slot - 8) / series.length);
    for (let t = 0; t <= yMax + 1e-9; t += yStep) {
      root.append(Lab.svg("line", { x1: left, x2: W - right, y1: y(t), y2: y(t), class: "grid" }));
      root.append(Lab.svg("text", { x: left - 6, y: y(t) + 4, class: "axis", "text-anchor": "end" }, t.toFixed(2)));
    }
    groups.forEach((g, gi) => {
      const x0 = left + gi * slot + (slot - barW * series.length) / 2;
      series.forEach((s, si) => {
        const v = value(gi, si);
        if (v === null || v === undefined) return;
        const bar = Lab.svg("rect", { x: x0 + si * barW, y: y(v), width: barW - 2, height: y(0) - y(v), fill: s.color, class: "bar", "data-series": s.name });
        bar.append(Lab.svg("title", {}, `${s.name}, ${g}: ${v.toFixed(3)}`));
        root.append(bar);
      });
      root.append(Lab.svg("text", { x: left + (gi + 0.5) * slot, y: top + plotH + 16, class: "axis", "text-anchor": "middle" }, g));
    });
    for (const r of refs || []) {
      root.append(Lab.svg("line", { x1: left, x2: W - right, y1: y(r.value), y2: y(r.value), stroke: "#555", "stroke-dasharray": "5 3" }));
      root.append(Lab.svg("text", { x: W - right + 4, y: y(r.value) + 4, class: "legend" }, r.label));
    }
    root.append(Lab.svg("text", { x: (left + W - right) / 2, y: top + plotH + 32, class: "axis", "text-anchor": "middle" }, xLabel));
    const mid = top + plotH / 2;
    root.append(Lab.svg("text", { x: 12, y: mid, class: "axis", "text-anchor": "middle", transform: `rotate(-90 12 ${mid})` }, yLabel));
    Lab.legend(root, series.map((s) => [s.name, s.color, "", "box"]), left - 30, legendTop, 170, 2);
    return root;
  };

  // Horizontal bars of ratios on a log scale around 1: a bar to the right
  // is more than 1, to the left less. rows: [{label, value, color, tip}].
  Lab.ratioBars = function ({ title, rows, xLabel }) {
    const W = 380, left = 132, right = 14, top = 8, rowH = 15;
    const H = top + rows.length * rowH + 40;
    const root = Lab.svgRoot(W, H, title, "bars");
    const logs = rows.map((r) => Math.log2(Math.max(r.value, 1e-3)));
    const lo = Math.min(-1, Math.floor(Math.min(...logs)));
    const hi = Math.max(1, Math.ceil(Math.max(...logs)));
    const x = (v) => left + ((Math.log2(v) - lo) / (hi - lo)) * (W - left - right);
    const bottom = top + rows.length * rowH;
    for (let e = lo; e <= hi; e++) {
      const v = 2 ** e;
      root.append(Lab.svg("line", { x1: x(v), x2: x(v), y1: top, y2: bottom, class: e === 0 ? "one" : "grid" }));
      const label = e >= 0 ? String(v) : `1/${2 ** -e}`;
      root.append(Lab.svg("text", { x: x(v), y: bottom + 14, class: "axis", "text-anchor": "middle" }, label));
    }
    rows.forEach((r, i) => {
      const yy = top + i * rowH;
      const a = x(1), b = x(Math.max(r.value, 2 ** lo));
      const bar = Lab.svg("rect", { x: Math.min(a, b), y: yy + 2, width: Math.max(1, Math.abs(b - a)), height: rowH - 4, fill: r.color, class: "bar", "data-label": r.label });
      bar.append(Lab.svg("title", {}, r.tip));
      root.append(bar);
      const text = Lab.svg("text", { x: left - 6, y: yy + rowH - 4, class: "legend", "text-anchor": "end" }, r.label);
      text.append(Lab.svg("title", {}, r.tip));
      root.append(text);
    });
    root.append(Lab.svg("text", { x: W / 2, y: bottom + 30, class: "axis", "text-anchor": "middle" }, xLabel));
    return root;
  };
})();
