// Keeping and sharing the Tree view: its state in the address
// (#tree?game=text&tree=...&algo=pvs&test=>=&step=12, and an open practice
// question: &quiz=window&node=7&level=easy), restored on a reload or from a
// link, and the drawing downloaded as SVG or PNG, the tree as text.
"use strict";

const TreeShare = (function () {
  const NS = "http://www.w3.org/2000/svg";
  // Written by this view; any other key is kept as found.
  const KEYS = ["game", "tree", "fen", "moves", "depth", "algo", "test", "step"];
  // The practice's question, which quiz.js keeps here (see `keep`).
  const QUIZ_KEYS = ["quiz", "node", "level"];
  let written = null; // the address this view wrote last
  let timer = null;
  let quiz = {}; // the practice's keys and values while a question is open

  function params() {
    const h = location.hash;
    const i = h.indexOf("?");
    return new URLSearchParams(i < 0 ? "" : h.slice(i + 1));
  }

  // ":" "," "(" ")" are fine in an address: a tree stays legible in it.
  const enc = (v) => encodeURIComponent(v).replace(/%3A/gi, ":").replace(/%2C/gi, ",");

  // The state an address carries that this view did not write (a link, a
  // reload), or null.
  function wanted() {
    const p = params();
    if (location.hash === written || !p.has("game")) return null;
    const game = ["chess", "tictactoe", "text"].includes(p.get("game")) ? p.get("game") : "text";
    const algo = Pseudocode.NAMES[p.get("algo")] ? p.get("algo") : "failsoft";
    const step = p.get("step") === "end" ? Infinity : Math.max(0, Math.floor(Number(p.get("step")) || 0));
    return {
      game, algo, step, test: p.get("test") === ">" ? ">" : ">=",
      text: p.get("tree") || Lab.game.text, fen: p.get("fen"), moves: p.get("moves") || "",
      depth: Number(p.get("depth")) || 0,
    };
  }

  // Writes the drawn tree's state into the address, a moment after the last
  // change (stepping at 100 steps/s would flood the history API otherwise).
  function save() {
    clearTimeout(timer);
    timer = setTimeout(write, 120);
  }

  function write() {
    const S = TreeView.S;
    if (Lab.$("view-tree").hidden || !S.tree || !S.request) return;
    const r = S.request;
    const state = { game: r.game, algo: r.algorithm, test: r.test, step: S.at };
    if (r.game === "text") state.tree = r.text;
    if (r.game === "chess") state.fen = r.fen;
    if (r.game === "tictactoe") state.moves = r.moves;
    if (r.depth) state.depth = r.depth;
    const rest = [...params()].filter(([k]) => !KEYS.includes(k) && !QUIZ_KEYS.includes(k));
    const all = [...Object.entries(state), ...Object.entries(quiz), ...rest];
    const hash = "#tree?" + all.map(([k, v]) => `${k}=${enc(String(v))}`).join("&");
    if (hash !== location.hash) history.replaceState(null, "", hash);
    written = location.hash;
  }

  // The practice's question as the address keeps it ({} when none is open).
  function keep(question) {
    quiz = Object.fromEntries(Object.entries(question).filter(([k]) => QUIZ_KEYS.includes(k)));
    write();
  }

  // The question an address carries (a link, a reload), read before this
  // view rewrites the address, or null.
  function question() {
    const p = params();
    const node = Number(p.get("node"));
    if (!p.has("quiz") || !Number.isInteger(node) || node < 0) return null;
    return { type: p.get("quiz"), node, level: p.get("level") || "easy" };
  }

  // The drawing as a standalone SVG: the whole laid-out tree at this step,
  // with the page's tree styles inside.
  function svgText() {
    const d = TreeView.S.draw;
    if (!d) return null;
    const w = Math.ceil(d.lay.width), h = Math.ceil(d.lay.height);
    const svg = d.svg.cloneNode(true);
    svg.setAttribute("xmlns", NS);
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("width", String(w));
    svg.setAttribute("height", String(h));
    svg.setAttribute("style", `width:${w}px;height:${h}px;background:#fff`);
    const css = [];
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        if (rule.selectorText && /:root|\.tn\b|\.tree-svg/.test(rule.selectorText)) css.push(rule.cssText);
      }
    }
    const style = document.createElementNS(NS, "style");
    style.textContent = css.join("\n");
    const paper = document.createElementNS(NS, "rect");
    for (const [k, v] of Object.entries({ width: w, height: h, fill: "#fff" })) paper.setAttribute(k, v);
    svg.prepend(style, paper);
    return { text: new XMLSerializer().serializeToString(svg), w, h };
  }

  // The drawing as a PNG data URL, at twice the layout's size (capped).
  function pngDataUrl() {
    const s = svgText();
    if (!s) return Promise.reject(new Error("no drawing"));
    const scale = Math.min(2, 8000 / Math.max(s.w, s.h));
    return new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => {
        const canvas = document.createElement("canvas");
        canvas.width = Math.round(s.w * scale);
        canvas.height = Math.round(s.h * scale);
        const ctx = canvas.getContext("2d");
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
        resolve(canvas.toDataURL("image/png"));
      };
      img.onerror = () => reject(new Error("the drawing could not be rendered"));
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(s.text);
    });
  }

  function download(name, href) {
    const a = Lab.el("a", { href, download: name });
    document.body.append(a);
    a.click();
    a.remove();
  }

  function blobUrl(text, type) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    return url;
  }

  const note = (text) => (Lab.$("share-note").textContent = text);

  async function copyLink() {
    write();
    try {
      await navigator.clipboard.writeText(location.href);
      note("link copied");
    } catch (e) {
      note(location.href); // no clipboard: the link to copy by hand
    }
  }

  function init() {
    const on = (id, f) => Lab.$(id).addEventListener("click", f);
    on("share-link", copyLink);
    on("share-svg", () => {
      const s = svgText();
      if (s) download("tree.svg", blobUrl(s.text, "image/svg+xml"));
    });
    on("share-png", () => pngDataUrl().then((url) => download("tree.png", url), (e) => note(e.message)));
    on("share-text", () => {
      const r = TreeView.S.request;
      if (r && r.game === "text") download("tree.txt", blobUrl(r.text + "\n", "text/plain"));
      else note("tree text is for text trees; copy the link instead");
    });
  }

  window.addEventListener("DOMContentLoaded", init);
  return { wanted, save, write, keep, question, svgText, pngDataUrl };
})();
