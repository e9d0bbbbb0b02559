// Practice in the Tree view: questions on random text trees (a node's
// value, the window a node is entered with, the move that causes a cutoff,
// the leaves never evaluated), each answer checked against the server's
// trace of the real search and explained by the steps that decide it, with
// hints, a score and the next problem. Stepping is locked while a question
// is open; a new search (another algorithm, another tree) ends the quiz.
"use strict";

(function () {
  const LEVELS = { easy: [2, 3], medium: [3, 3], hard: [2, 5] }; // [moves per node, plies]
  const TYPES = {
    value: { algos: ["minimax", "failsoft", "failhard"], title: "a node's value" },
    window: { algos: ["failsoft", "failhard"], title: "the window (α, β) a node is entered with" },
    cutoff: { algos: ["failsoft", "failhard", "pvs"], title: "which move causes a cutoff" },
    pruned: { algos: ["failsoft", "failhard", "pvs"], title: "the leaves never evaluated" },
  };
  const Q = { on: false, loading: false, ask: null, answered: false, hinted: false, right: 0, asked: 0, hints: 0 };
  let linked = null; // a question the address carried, asked once its tree is drawn
  const S = TreeView.S;
  const $ = (id) => Lab.$(id);

  // A node as the drawing names it.
  function name(id) {
    const n = S.tree.nodes[id];
    if (n.label) return n.label;
    if (n.parent === null) return "the root";
    return n.children.length ? n.edge : `leaf ${n.leaf_value}`;
  }
  const who = (id) => {
    const n = S.tree.nodes[id];
    return n.children.length ? `${name(id)} (${n.max ? "MAX" : "MIN"})` : name(id);
  };
  const pretty = (t) => String(t).replace("+inf", "+∞").replace("-inf", "−∞");
  // The student's own text, as it goes into the feedback's HTML.
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

  // An answer or a trace's text as one spelling: "−∞" and "-inf" alike.
  function norm(text) {
    let t = String(text).trim().toLowerCase().replace(/[≥≤\s]/g, "").replace(/−/g, "-");
    t = t.replace(/∞|infinity/g, "inf").replace(/^\+/, "");
    return /^-?\d+$/.test(t) ? String(Number(t)) : t;
  }

  // A link that jumps the trace to (just after) step index `k`.
  function stepLink(k) {
    return `<a href="#" class="step-link" data-step="${k + 1}">step ${k + 1}</a>`;
  }

  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const searched = (id) => S.enter[id] >= 0 && S.tree.nodes[id].same_as === undefined;

  // The child whose return the step at index `k` of `node` takes in.
  function childBefore(node, k) {
    for (let j = k - 1; j >= 0; j--) {
      const s = S.tree.steps[j];
      if (s.kind === "leave" && S.tree.nodes[s.node].parent === node) return s.node;
    }
    return -1;
  }

  // The candidates of each question type on the loaded tree.
  function candidates(type) {
    const ids = S.tree.nodes.map((_, i) => i);
    const inner = (i) => S.tree.nodes[i].children.length > 0;
    if (type === "value") {
      const deep = ids.filter((i) => inner(i) && searched(i) && i !== 0);
      return deep.length ? deep : [0];
    }
    if (type === "window") {
      const all = ids.filter((i) => i !== 0 && searched(i));
      const finite = all.filter((i) => !/inf/.test(S.tree.steps[S.enter[i]].alpha_text + S.tree.steps[S.enter[i]].beta_text));
      return finite.length ? finite : all;
    }
    if (type === "cutoff") return ids.filter((i) => S.cutAt[i] >= 0 && childBefore(i, S.cutAt[i]) >= 0);
    return [0];
  }

  function newQuestion() {
    const algo = S.algo;
    const wanted = $("quiz-type").value;
    const types = (wanted === "any" ? Object.keys(TYPES) : [wanted])
      .filter((t) => TYPES[t].algos.includes(algo) && candidates(t).length);
    if (!types.length) return null;
    const type = pick(types);
    return { type, node: pick(candidates(type)), algo };
  }

  // Each type's prompt, answer fields, check and hint.
  const FORMS = {
    value: {
      prompt: (q) => `What value does ${who(q.node)} return to its parent? (The node is outlined.)`,
      fields: `<label>value <input id="quiz-value" size="6"></label>`,
      check(q) {
        const n = S.tree.nodes[q.node];
        const given = $("quiz-value").value;
        const truth = n.value_text.replace(/^[≥≤]\s*/, "");
        const ok = norm(given) === norm(truth);
        const leave = S.leave[q.node];
        let text = ok ? `Right: ${name(q.node)} returns ${pretty(n.value_text)}` : `Not ${esc(given) || "blank"}: ${name(q.node)} returns ${pretty(n.value_text)}`;
        text += ` (${stepLink(leave)}).`;
        const decided = S.touches[q.node].find((k) => S.tree.steps[k].kind === "update" && norm(S.tree.steps[k].best_text) === norm(truth));
        if (decided !== undefined) text += ` Its value became ${pretty(truth)} when it took in ${name(childBefore(q.node, decided))}'s value at ${stepLink(decided)}.`;
        if (n.bound === "lower") text += " It is a lower bound: a cutoff left moves unsearched that could only raise it.";
        if (n.bound === "upper") text += " It is an upper bound: a cutoff left moves unsearched that could only lower it.";
        return { ok, text, verdict: new Map([[q.node, ok ? "right" : "wrong"]]) };
      },
      hint(q) {
        const n = S.tree.nodes[q.node];
        const kids = n.children.filter((c) => !S.tree.nodes[c].pruned);
        const cut = n.children.length - kids.length;
        return `${who(q.node)} keeps the ${n.max ? "largest" : "smallest"} value its searched moves return; ` +
          `it searches ${kids.length} of its ${n.children.length} moves` + (cut ? ` (a cutoff skips ${cut}).` : ".");
      },
    },
    window: {
      prompt: (q) => `With which window (α, β) is ${who(q.node)} entered? Write −inf or +inf for ∞.`,
      fields: `<label>α <input id="quiz-alpha" size="6"></label> <label>β <input id="quiz-beta" size="6"></label>`,
      check(q) {
        const k = S.enter[q.node];
        const s = S.tree.steps[k];
        const a = norm($("quiz-alpha").value) === norm(s.alpha_text);
        const b = norm($("quiz-beta").value) === norm(s.beta_text);
        const ok = a && b;
        const head = ok ? "Right" : a ? "α is right, β is not" : b ? "β is right, α is not" : "Neither is right";
        let text = `${head}: ${name(q.node)} is entered with α = ${pretty(s.alpha_text)}, β = ${pretty(s.beta_text)} at ${stepLink(k)}.`;
        const parent = S.tree.nodes[q.node].parent;
        const before = S.touches[parent].filter((j) => j < k).pop();
        if (before !== undefined) {
          const p = S.tree.steps[before];
          text += ` It inherits ${name(parent)}'s window as it stood after ${stepLink(before)}` +
            (p.kind === "update" ? `, where ${name(parent)} took in ${name(childBefore(parent, before))}'s value.` : ", its own entry.");
        }
        return { ok, text, verdict: new Map([[q.node, ok ? "right" : "wrong"]]) };
      },
      hint(q) {
        const parent = S.tree.nodes[q.node].parent;
        return `A move is searched with its parent's window as it stands at that moment: look at ${name(parent)}'s α and β ` +
          `after it took in the moves before ${name(q.node)} (a MAX node raises α, a MIN node lowers β).`;
      },
    },
    cutoff: {
      prompt: (q) => `${who(q.node)} cuts off. Click the move whose value causes the cutoff.`,
      fields: "",
      check(q) {
        const k = S.cutAt[q.node];
        const right = childBefore(q.node, k);
        const chosen = q.picked;
        const ok = chosen === right;
        const test = pretty(S.cutText[q.node]);
        let text = ok ? "Right" : chosen === undefined ? "No move chosen" : `Not ${name(chosen)}`;
        if (!ok && chosen !== undefined) {
          const c = S.tree.nodes[chosen];
          if (c.parent !== q.node) text += ` (it is not one of ${name(q.node)}'s moves)`;
          else if (c.pruned) text += ` (it is never searched: the cutoff comes before it)`;
          else {
            const j = S.touches[q.node].find((i) => i > S.leave[chosen] && S.tree.steps[i].test === false);
            if (j !== undefined) text += ` (its value does not cut: ${pretty(S.tree.steps[j].test_text)}? no, at ${stepLink(j)})`;
          }
        }
        text += `: ${name(q.node)} cuts off after ${name(right)} returns ${pretty(S.tree.nodes[right].value_text)}, because ${test}, at ${stepLink(k)}.`;
        const verdict = new Map([[q.node, "asked"], [right, ok ? "right" : "missed"]]);
        if (!ok && chosen !== undefined) verdict.set(chosen, "wrong");
        return { ok, text, verdict };
      },
      hint(q) {
        const k = S.cutAt[q.node];
        const s = S.tree.steps[k];
        const n = S.tree.nodes[q.node];
        return n.max ? `A MAX node cuts off when a move's value reaches β; ${name(q.node)}'s β is ${pretty(s.beta_text)}.`
          : `A MIN node cuts off when a move's value falls to α; ${name(q.node)}'s α is ${pretty(s.alpha_text)}.`;
      },
    },
    pruned: {
      prompt: () => "Click every leaf the search never evaluates (none is possible), then Check.",
      fields: "",
      check() {
        const wrong = [], missed = [], verdict = new Map();
        let right = 0;
        S.tree.nodes.forEach((n, id) => {
          if (n.children.length || n.leaf_value === undefined || n.same_as !== undefined) return;
          const guessed = S.quiz.has(id);
          if (guessed && n.pruned) verdict.set(id, "right"), right++;
          else if (guessed) verdict.set(id, "wrong"), wrong.push(id);
          else if (n.pruned) verdict.set(id, "missed"), missed.push(id);
        });
        const ok = !wrong.length && !missed.length;
        const under = (id) => name(S.tree.nodes[id].parent);
        const parts = [ok ? `Right: ${right ? `these ${right} leaves are` : "every leaf is"} ${right ? "never evaluated" : "evaluated"}.` : `${right} right.`];
        for (const id of wrong.slice(0, 6)) parts.push(`${name(id)} under ${under(id)} is evaluated at ${stepLink(S.enter[id])} (red).`);
        for (const id of missed.slice(0, 6)) {
          const k = S.cut[id];
          parts.push(`${name(id)} under ${under(id)} is never evaluated` + (k >= 0 ? `: ${name(S.tree.steps[k].node)} cuts off at ${stepLink(k)} (dashed).` : " (dashed)."));
        }
        if (wrong.length + missed.length > 12) parts.push("…");
        return { ok, text: parts.join(" "), verdict };
      },
      hint() {
        const cuts = S.tree.nodes.map((_, i) => i).filter((i) => S.cutAt[i] >= 0 && S.tree.steps[S.cutAt[i]].pruned && S.tree.steps[S.cutAt[i]].pruned.length);
        return cuts.length ? `Cutoffs leave moves unsearched below ${cuts.map(name).join(", ")}: every leaf under a move never searched is never evaluated.`
          : "No node leaves a move unsearched in this search.";
      },
    },
  };

  // Stepping on or off (the stepper's controls, and TreeView.go itself).
  function lock(on) {
    S.locked = on;
    TreeView.stop();
    for (const el of document.querySelectorAll(".stepper button, .stepper input, .stepper select")) el.disabled = on;
  }

  // Shows the trace at step `k` (the quiz's own moves go past the lock).
  function jump(k) {
    const was = S.locked;
    S.locked = false;
    TreeView.go(k);
    S.locked = was;
  }

  function ask(q = newQuestion()) {
    Q.ask = q;
    Q.answered = false;
    Q.hinted = false;
    $("quiz-result").innerHTML = "";
    $("quiz-result").dataset.correct = "";
    $("quiz-hint-text").textContent = "";
    const box = $("quiz-question");
    if (!q) {
      box.textContent = `No question of this type for ${S.algo} on this tree: choose another type, or Next problem.`;
      Object.assign(box.dataset, { type: "", node: "" });
      $("quiz-fields").innerHTML = "";
      TreeShare.keep({});
      return;
    }
    TreeShare.keep({ quiz: q.type, node: q.node, level: $("quiz-level").value });
    jump(0);
    lock(true);
    TreeView.setShowAll(true);
    S.quiz = q.type === "pruned" ? new Set() : null;
    S.verdict = q.type === "pruned" ? null : new Map([[q.node, "asked"]]);
    TreeView.refresh();
    box.textContent = FORMS[q.type].prompt(q);
    Object.assign(box.dataset, { type: q.type, node: String(q.node) });
    $("quiz-fields").innerHTML = FORMS[q.type].fields;
    for (const input of $("quiz-fields").querySelectorAll("input")) {
      input.addEventListener("keydown", (e) => e.key === "Enter" && check());
    }
    $("quiz-check").disabled = false;
    $("quiz-hint").disabled = false;
  }

  function check() {
    const q = Q.ask;
    if (!Q.on || !q || Q.answered) return;
    const out = FORMS[q.type].check(q);
    Q.answered = true;
    Q.asked++;
    if (out.ok) Q.right++;
    if (Q.hinted) Q.hints++;
    S.verdict = out.verdict;
    if (q.type === "pruned") S.quiz = new Set();
    lock(false);
    TreeView.refresh();
    const el = $("quiz-result");
    el.innerHTML = out.text + " Click a step to see it, or step through the search.";
    el.dataset.correct = String(out.ok);
    $("quiz-check").disabled = true;
    $("quiz-hint").disabled = true;
    score();
  }

  function score() {
    const el = $("quiz-score");
    el.textContent = Q.asked ? `${Q.right} of ${Q.asked} right` + (Q.hints ? ` (${Q.hints} with a hint)` : "") : "";
    Object.assign(el.dataset, { right: Q.right, asked: Q.asked, hints: Q.hints });
  }

  function hint() {
    if (!Q.on || !Q.ask || Q.answered) return;
    Q.hinted = true;
    $("quiz-hint-text").textContent = FORMS[Q.ask.type].hint(Q.ask);
  }

  // A random tree of the chosen size, searched by the server, then a
  // question (a few more trees if one has none of the chosen type).
  async function next() {
    const [b, d] = LEVELS[$("quiz-level").value] || LEVELS.easy;
    let q = null;
    for (let tries = 0; tries < 10 && !q; tries++) {
      const seed = Math.floor(Math.random() * 2 ** 31);
      Q.loading = true;
      try {
        await Lab.treeBuild({ game: "text", text: Lab.randomTreeText(b, d, seed) });
      } finally {
        Q.loading = false;
      }
      if (!Q.on || !S.tree) return;
      q = newQuestion();
    }
    ask(q);
  }

  // `q`: the question to ask first (a link's), or a new one.
  function start(q) {
    Q.on = true;
    Object.assign(Q, { right: 0, asked: 0, hints: 0 });
    score();
    $("quiz-start").textContent = "End practice";
    $("quiz-panel").hidden = false;
    $("quiz-ended").textContent = "";
    $("tree-summary").hidden = true; // its counts would give answers away
    if (S.tree && S.tree.text_tree) ask(q);
    else next();
  }

  // The question a link or a reload carried, on the tree it drew: asked as
  // it was if it is one on this tree and algorithm, else a new one.
  function resume(want) {
    if (!S.tree || !S.tree.text_tree || !TYPES[want.type]) return;
    $("quiz-box").open = true;
    $("quiz-type").value = want.type;
    if (LEVELS[want.level]) $("quiz-level").value = want.level;
    const fits = TYPES[want.type].algos.includes(S.algo) && candidates(want.type).includes(want.node);
    start(fits ? { type: want.type, node: want.node, algo: S.algo } : undefined);
  }

  function end(why) {
    if (!Q.on) return;
    Q.on = false;
    Q.ask = null;
    lock(false);
    S.quiz = null;
    S.verdict = null;
    TreeView.setShowAll(false);
    TreeView.refresh();
    $("tree-summary").hidden = false;
    $("quiz-start").textContent = "Practice";
    $("quiz-panel").hidden = true;
    $("quiz-result").innerHTML = "";
    $("quiz-result").dataset.correct = "";
    $("quiz-ended").textContent = why ? `Practice ended: ${why}.` : "";
    TreeShare.keep({});
  }

  // A search the quiz did not ask for ends it: its answers were for another.
  function loaded(t, algo) {
    if (linked) {
      const want = linked;
      linked = null;
      setTimeout(() => resume(want), 0);
      return;
    }
    if (!Q.on || Q.loading) return;
    if (Q.ask && algo !== Q.ask.algo) end(`the algorithm changed to ${algo} (the question was on ${Q.ask.algo})`);
    else end("a new search");
  }

  function clicked(id) {
    if (!Q.on || !Q.ask || Q.answered) return false;
    const n = S.tree.nodes[id];
    if (Q.ask.type === "pruned") {
      if (n.children.length || n.leaf_value === undefined) return true;
      if (S.quiz.has(id)) S.quiz.delete(id);
      else S.quiz.add(id);
    } else if (Q.ask.type === "cutoff") {
      Q.ask.picked = id;
      S.verdict = new Map([[Q.ask.node, "asked"], [id, "guess"]]);
    }
    TreeView.refresh();
    return true; // no folding while a question is open
  }

  function panel() {
    const box = $("tree-quiz");
    const types = Object.entries(TYPES).map(([k, v]) => `<option value="${k}">${v.title}</option>`).join("");
    box.innerHTML = `<details id="quiz-box"><summary>Practice: questions on random trees, checked against the search</summary>
      <div class="controls">
        <label>Question <select id="quiz-type"><option value="any">any type</option>${types}</select></label>
        <label>Trees <select id="quiz-level"><option value="easy">easy: 2 moves, 3 plies</option>
          <option value="medium">medium: 3 moves, 3 plies</option><option value="hard">hard: 2 moves, 5 plies</option></select></label>
        <button id="quiz-start">Practice</button> <span id="quiz-score" class="hint"></span>
      </div>
      <div id="quiz-ended" class="hint"></div>
      <div id="quiz-panel" hidden>
        <p id="quiz-question" class="step-text"></p>
        <div class="controls"><span id="quiz-fields"></span>
          <button id="quiz-check">Check</button> <button id="quiz-hint">Hint</button>
          <button id="quiz-next">Next problem</button></div>
        <p id="quiz-hint-text" class="hint"></p>
        <div id="quiz-result" class="quiz-result"></div>
        <p class="hint">The questions are on the algorithm chosen above (minimax asks for values only);
          the answers come from the server's trace of the search. Stepping waits until you answer;
          another algorithm or a new search ends the practice.</p>
      </div></details>`;
    $("quiz-start").addEventListener("click", () => (Q.on ? end("") : start()));
    $("quiz-check").addEventListener("click", check);
    $("quiz-hint").addEventListener("click", hint);
    $("quiz-next").addEventListener("click", () => Q.on && next());
    $("quiz-type").addEventListener("change", () => Q.on && !Q.answered && ask());
    $("quiz-result").addEventListener("click", (e) => {
      const a = e.target.closest("a.step-link");
      if (!a) return;
      e.preventDefault();
      TreeView.go(Number(a.dataset.step));
    });
    const editorClick = S.onNodeClick;
    S.onNodeClick = (id) => clicked(id) || (editorClick ? editorClick(id) : false);
    S.onLoad = loaded;
    linked = TreeShare.question();
  }

  window.addEventListener("DOMContentLoaded", panel);
})();
