// The Tree view's drawing: one SVG group per node, built once per layout
// and then updated node by node, so a step touches a few elements only.
// Pan with a drag, zoom with the wheel or the buttons.
"use strict";

const TreeDraw = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const H = TreeLayout.SIZE / 2;

  function svgEl(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }

  // `look(id)` says how a node looks now: {state, value, window, cut, name,
  // visit}; state is future, open, done or pruned, plus flags in `flags`.
  // `vb`, if given, is the view to keep (else the first view).
  function create(box, tree, lay, look, vb) {
    box.textContent = "";
    const svg = svgEl("svg", { class: "tree-svg", role: "img", "aria-label": "the search tree" });
    const layer = svgEl("g");
    svg.append(layer);
    const parts = new Map();
    for (const [id] of lay.x) parts.set(id, node(layer, tree, lay, id));
    box.append(svg);
    const d = { svg, parts, lay, look, vb: null, tree };
    if (vb) (d.vb = { ...vb }), applyView(d);
    else start(d);
    panZoom(d);
    return d;
  }

  function node(layer, tree, lay, id) {
    const n = tree.nodes[id];
    const x = lay.x.get(id), y = lay.y.get(id);
    const g = svgEl("g", { class: "tn", "data-node": String(id), transform: `translate(${x},${y})` });
    const leaf = !n.children.length && !(n.pruned && n.leaf_value === undefined);
    const h = leaf ? TreeLayout.LEAF / 2 : H; // leaves are smaller: the layout packs them
    if (n.parent !== null) {
      const px = lay.x.get(n.parent) - x, py = lay.y.get(n.parent) - y;
      g.append(svgEl("line", { class: "edge", x1: px, y1: py + H + 34, x2: 0, y2: -h }));
    }
    let shape;
    if (leaf) shape = svgEl("rect", { x: -h, y: -h, width: 2 * h, height: 2 * h, rx: 6 });
    else if (n.max) shape = svgEl("rect", { x: -H, y: -H, width: 2 * H, height: 2 * H });
    else shape = svgEl("circle", { r: H });
    shape.setAttribute("class", "shape");
    const t = (cls, dy, anchor) => svgEl("text", { class: cls, y: dy, "text-anchor": anchor || "middle" });
    const parts = { g, value: t("val", 5), win: t("win", h + 14), cut: t("cut", h + 28), name: t("name", -h - 5) };
    // A node searched again (PVS) says which visit is shown.
    parts.visit = svgEl("text", { class: "visit", x: h + 3, y: -h + 4, "text-anchor": "start" });
    g.append(shape, parts.value, parts.win, parts.cut, parts.name, parts.visit);
    if (lay.kids.has(id) === false && n.children.length) {
      parts.more = t("more", H + 42);
      parts.more.textContent = `+${count(tree, id)} below`;
      g.append(parts.more);
    }
    layer.append(g);
    return parts;
  }

  function count(tree, id) {
    let c = 0;
    const stack = [...tree.nodes[id].children];
    while (stack.length) {
      const k = stack.pop();
      c++;
      stack.push(...tree.nodes[k].children);
    }
    return c;
  }

  // Redraws node `id` (if drawn) from `look`.
  function refresh(d, id) {
    const p = d.parts.get(id);
    if (!p) return;
    const l = d.look(id);
    p.g.setAttribute("class", `tn ${l.state} ${l.flags.join(" ")}`.trim());
    set(p.value, l.value);
    set(p.win, l.window);
    set(p.cut, l.cut);
    set(p.name, l.name);
    set(p.visit, l.visit || "");
  }

  function set(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }

  function refreshAll(d) {
    for (const id of d.parts.keys()) refresh(d, id);
  }

  function applyView(d) {
    const v = d.vb;
    d.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  function boxSize(d) {
    const r = d.svg.getBoundingClientRect();
    return { w: Math.max(r.width, 100), h: Math.max(r.height, 100) };
  }

  // The whole tree in the box (never enlarged beyond 1.5 times).
  function fit(d) {
    const b = boxSize(d);
    const s = Math.max(d.lay.width / b.w, d.lay.height / b.h, 1 / 1.5);
    d.vb = { x: 0, y: 0, w: b.w * s, h: b.h * s };
    applyView(d);
  }

  // The first view: the whole tree if it fits at full size, else the
  // root's neighbourhood at full size, labels readable (the view follows
  // the search from there; Fit shows the whole tree smaller).
  function start(d) {
    fit(d);
    const b = boxSize(d);
    if (d.vb.w / b.w <= 1.001) return;
    const x = d.lay.x.get(0);
    d.vb = { x: x - b.w / 2, y: 0, w: b.w, h: b.h };
    applyView(d);
  }

  // Zooms by `factor` around the box point (fx, fy) in 0..1.
  function zoom(d, factor, fx = 0.5, fy = 0.5) {
    const v = d.vb;
    const w = v.w / factor, h = v.h / factor;
    d.vb = { x: v.x + (v.w - w) * fx, y: v.y + (v.h - h) * fy, w, h };
    applyView(d);
  }

  // Pans so that node `id` is in view, if it is not.
  function follow(d, id) {
    if (!d.lay.x.has(id)) return;
    const x = d.lay.x.get(id), y = d.lay.y.get(id), v = d.vb;
    const m = 50;
    if (x > v.x + m && x < v.x + v.w - m && y > v.y + m && y < v.y + v.h - m) return;
    d.vb = { ...v, x: x - v.w / 2, y: Math.max(0, y - v.h / 3) };
    applyView(d);
  }

  function panZoom(d) {
    d.svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = d.svg.getBoundingClientRect();
      zoom(d, e.deltaY < 0 ? 1.2 : 1 / 1.2, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
    }, { passive: false });
    let drag = null;
    d.svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, vb: { ...d.vb }, moved: false };
    });
    d.svg.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const r = d.svg.getBoundingClientRect();
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (!drag.moved) return;
      d.vb = { ...drag.vb, x: drag.vb.x - dx * drag.vb.w / r.width, y: drag.vb.y - dy * drag.vb.h / r.height };
      applyView(d);
    });
    const end = () => {
      // A drag is not a click on the node under the pointer.
      if (drag && drag.moved) d.svg.dataset.dragged = "1";
      drag = null;
    };
    d.svg.addEventListener("pointerup", end);
    d.svg.addEventListener("pointerleave", end);
  }

  return { create, refresh, refreshAll, fit, zoom, follow };
})();
