// The pseudocode beside the stepper. The server sends the text of the
// algorithm it searched (in the chosen form) and, with every step, the
// lines that step executes: the page only highlights them.
"use strict";

const Pseudocode = (function () {
  const NAMES = {
    minimax: "minimax",
    failsoft: "alpha-beta, fail-soft",
    failhard: "alpha-beta, fail-hard",
    pvs: "negamax with PVS",
  };

  let shown = { lines: [] };

  function render(box, algo, tree) {
    box.textContent = "";
    const ol = Lab.el("ol", { class: "pseudo", "data-algorithm": algo });
    tree.pseudocode.forEach((line, i) => ol.append(Lab.el("li", { "data-line": String(i), text: line })));
    const strict = tree.test === ">" ? ", strict test (> β, < α)" : "";
    box.append(Lab.el("div", { class: "pseudo-title", text: NAMES[algo] + strict }), ol);
    shown = { lines: [], box };
  }

  // Highlights the lines of step k (0-based), touching only those that change.
  function highlight(tree, k) {
    if (!shown.box) return;
    const now = tree && k >= 0 ? tree.steps[k].lines : [];
    const items = shown.box.querySelectorAll("li");
    for (const i of shown.lines) if (!now.includes(i)) items[i].classList.remove("at");
    for (const i of now) items[i].classList.add("at");
    shown.lines = now;
    shown.box.dataset.lines = now.join(" ");
  }

  return { render, highlight, NAMES };
})();
