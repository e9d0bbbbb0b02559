// The lab's page: views switched by the URL's #fragment, a JSON API client,
// and jobs polled until they finish. Every number shown comes from the
// server; this code only draws.
"use strict";

const Lab = {
  PUBLISHED_FEN: "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
  START_FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  limits: null,
  // The game the Tree view searches (set by the Position view).
  // The Tree view opens on the chapter's A..J tree.
  game: {
    kind: "text", fen: "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", moves: "",
    text: "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))",
  },
  views: {},
  activeJobs: new Set(),
};

Lab.$ = (id) => document.getElementById(id);

// Calls the API; resolves to the JSON answer, rejects with the server's message.
Lab.api = async function (method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("the lab server does not answer (is `cutoff lab serve` still running?)");
  }
  let json = null;
  try {
    json = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    throw new Error(json && json.error ? json.error : `error ${response.status}`);
  }
  return json;
};

Lab.showError = function (id, error) {
  const el = Lab.$(id);
  el.textContent = error ? String(error.message || error) : "";
};

Lab.el = function (tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};

Lab.fmtInt = (n) => (n === null || n === undefined ? "-" : Number(n).toLocaleString("en-US"));
Lab.fmtFixed = (x, digits) => (x === null || x === undefined ? "-" : Number(x).toFixed(digits));

// Fills <select id> with 1..max, choosing `chosen`.
Lab.depthOptions = function (id, max, chosen) {
  const select = Lab.$(id);
  select.textContent = "";
  for (let d = 1; d <= max; d++) {
    const o = Lab.el("option", { value: String(d), text: String(d) });
    if (d === chosen) o.selected = true;
    select.append(o);
  }
};

// A table from column specs [{title, help, get(row), cls}] and rows; help
// is the column's tooltip.
Lab.table = function (table, columns, rows, rowAttrs) {
  table.textContent = "";
  const head = Lab.el("tr");
  for (const c of columns) head.append(Lab.el("th", c.help ? { text: c.title, title: c.help } : { text: c.title }));
  table.append(Lab.el("thead", {}, head));
  const body = Lab.el("tbody");
  for (const r of rows) {
    const tr = Lab.el("tr", rowAttrs ? rowAttrs(r) : {});
    for (const c of columns) {
      const v = c.get(r);
      tr.append(v instanceof Node ? Lab.el("td", { class: c.cls || "" }, v) : Lab.el("td", { class: c.cls || "", text: v }));
    }
    body.append(tr);
  }
  table.append(body);
};

// Starts a job and polls it; `onStatus` gets every status. Returns a
// controller with cancel(). The server cancels jobs nobody polls.
Lab.runJob = function (request, onStatus) {
  let id = null;
  let stopped = false;
  const controller = {
    cancel() {
      stopped = true;
      if (id !== null) {
        Lab.activeJobs.delete(id);
        Lab.api("POST", `/api/jobs/${id}/cancel`).catch(() => {});
      }
    },
    done: null,
  };
  controller.done = (async () => {
    const started = await Lab.api("POST", "/api/jobs", request);
    id = started.id;
    Lab.activeJobs.add(id);
    if (stopped) controller.cancel();
    for (;;) {
      const status = await Lab.api("GET", `/api/jobs/${id}`);
      onStatus(status);
      if (status.state !== "running") {
        Lab.activeJobs.delete(id);
        return status;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return controller;
};

// Wires Run/Cancel buttons of a view to a job. `results` is the box of
// the view's tables and charts: emptied when a run starts, marked stale
// when its run fails or the position it was run on is no longer current.
Lab.jobView = function ({ run, cancel, progress, status, error, results, request, render }) {
  let job = null;
  let ranOn = null; // the FEN of the results shown, if they have one
  const box = Lab.$(results);
  const finish = () => {
    Lab.$(run).disabled = false;
    Lab.$(cancel).disabled = true;
    job = null;
  };
  Lab.onPosition((p) => {
    if (ranOn && ranOn !== p.fen) Lab.markStale(box, "these results are for another position; run again");
  });
  Lab.$(cancel).addEventListener("click", () => job && job.cancel());
  Lab.$(run).addEventListener("click", () => {
    if (job) job.cancel();
    Lab.showError(error, null);
    Lab.markStale(box, null);
    render({ rows: [], extra: null });
    let req;
    try {
      req = request();
    } catch (e) {
      Lab.showError(error, e);
      return;
    }
    ranOn = req.fen || null;
    Lab.$(run).disabled = true;
    Lab.$(cancel).disabled = false;
    Lab.progress(progress, status, { state: "starting" });
    const mine = Lab.runJob(req, (s) => {
      if (job !== mine) return; // a run replaced by a newer one
      Lab.progress(progress, status, s);
      if (s.error) Lab.showError(error, `The run failed: ${s.error}`);
      render(s);
      if (s.state === "failed" || s.state === "cancelled") {
        Lab.markStale(box, `${s.state}: the rows below are only what finished before it stopped`);
      }
    });
    job = mine;
    mine.done.then(() => job === mine && finish(), (e) => {
      if (job !== mine) return;
      Lab.showError(error, `Not run: ${e.message}`);
      Lab.progress(progress, status, { state: "failed" });
      finish();
    });
  });
};

// Marks a box of results stale with a note (null: fresh again).
Lab.markStale = function (box, note) {
  box.classList.toggle("stale", note !== null);
  let label = box.querySelector(":scope > .stale-note");
  if (!label) {
    label = Lab.el("div", { class: "stale-note" });
    box.prepend(label);
  }
  label.textContent = note || "";
  label.hidden = note === null;
};

const seconds = (ms) => (ms < 10000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

// The progress bar and its line: nodes searched against the estimated
// total (or the budget), the time so far and the time left at this rate.
Lab.progress = function (barId, textId, s) {
  const bar = Lab.$(barId);
  const text = Lab.$(textId);
  text.dataset.state = s.state;
  if (s.nodes !== undefined) text.dataset.nodes = String(s.nodes);
  if (s.state !== "running") {
    bar.max = 1;
    bar.value = s.state === "done" ? 1 : 0;
    text.textContent = s.state === "done" ? `done: ${Lab.fmtInt(s.nodes)} nodes in ${seconds(s.elapsed_ms)}` : s.state;
    return;
  }
  let line = `${s.progress}: ${Lab.fmtInt(s.nodes)} nodes`;
  if (s.estimate && s.nodes < s.estimate) {
    bar.max = s.estimate;
    bar.value = s.nodes;
    line += ` of about ${Lab.fmtInt(s.estimate)}`;
    if (s.nodes > 0 && s.elapsed_ms > 0) {
      const left = ((s.estimate - s.nodes) * s.elapsed_ms) / s.nodes;
      line += `, about ${seconds(left)} left`;
    }
  } else if (s.estimate) {
    bar.removeAttribute("value"); // past the estimate: busy, no false 99%
    line += `, more than the ${Lab.fmtInt(s.estimate)} estimated`;
  } else {
    bar.removeAttribute("value"); // no guess yet: the bar says "busy"
  }
  if (s.budget) line += ` (budget ${Lab.fmtInt(s.budget)})`;
  text.textContent = `${line}; ${seconds(s.elapsed_ms)}`;
};

Lab.show = function () {
  // "#tree?algo=pvs&step=12": the view, then its own state (tree-share.js).
  const name = (location.hash || "#position").slice(1).split("?")[0];
  const view = Lab.views[name] ? name : "position";
  for (const v of Object.keys(Lab.views)) {
    Lab.$(`view-${v}`).hidden = v !== view;
  }
  for (const a of document.querySelectorAll("nav a")) {
    a.classList.toggle("active", a.dataset.view === view);
  }
  if (Lab.views[view].shown) Lab.views[view].shown();
};

// Jobs of a page that goes away are cancelled at once (polling would stop
// anyway, and the server cancels unpolled jobs after a few seconds).
window.addEventListener("pagehide", () => {
  for (const id of Lab.activeJobs) navigator.sendBeacon(`/api/jobs/${id}/cancel`);
});

window.addEventListener("DOMContentLoaded", async () => {
  try {
    Lab.limits = await Lab.api("GET", "/api/limits");
  } catch (e) {
    document.body.prepend(Lab.el("div", { class: "error", text: String(e.message) }));
    return;
  }
  for (const v of Object.values(Lab.views)) v.init();
  Lab.initPositionBars();
  await Lab.loadPosition();
  window.addEventListener("hashchange", Lab.show);
  Lab.show();
  document.body.dataset.ready = "true";
});
