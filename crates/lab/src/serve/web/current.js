// The current chess position, one for every view: set in any of them (the
// server checks it), shown in all, and kept in localStorage so that a
// reload keeps it.
"use strict";

(function () {
  const KEY = "cutoff-lab-fen";
  const listeners = [];

  function stored() {
    try {
      return localStorage.getItem(KEY);
    } catch (e) {
      return null; // storage refused (private mode): the default it is
    }
  }

  // The server's answer for the current position (null until the first).
  Lab.current = null;

  // Calls `f(answer)` now (if known) and after every change.
  Lab.onPosition = function (f) {
    listeners.push(f);
    if (Lab.current) f(Lab.current);
  };

  // Sets the current position from a FEN (and moves); rejects with the
  // server's message, and then nothing changes.
  Lab.setPosition = async function (fen, moves) {
    const body = moves && moves.length ? { fen, moves } : { fen };
    const answer = await Lab.api("POST", "/api/position", body);
    Lab.current = answer;
    Lab.game.fen = answer.fen;
    try {
      localStorage.setItem(KEY, answer.fen);
    } catch (e) {
      // not kept over a reload, but every view still shares it
    }
    for (const f of listeners) f(answer);
    return answer;
  };

  // The stored FEN, or the published position; a stored FEN the server
  // refuses (an older page's) falls back to the published one.
  Lab.loadPosition = async function () {
    try {
      await Lab.setPosition(stored() || Lab.PUBLISHED_FEN);
    } catch (e) {
      await Lab.setPosition(Lab.PUBLISHED_FEN);
    }
  };

  Lab.describe = function (p) {
    let text = `${p.side === "white" ? "White" : "Black"} to move, ${p.moves.length} legal moves`;
    if (p.check) text += ", in check";
    if (p.over) text += `; over: ${p.over}`;
    return text;
  };

  // The bar at the top of a view: the current FEN and a way to change it.
  // `box` holds data-error, the id of the view's message line.
  function positionBar(box) {
    const errorId = box.dataset.error;
    const fen = Lab.el("code", { class: "posbar-fen" });
    const info = Lab.el("span", { class: "hint posbar-info" });
    const change = Lab.el("button", { class: "posbar-change", text: "Change", title: "set another position for every view" });
    const input = Lab.el("input", { class: "posbar-input", spellcheck: "false", "aria-label": "FEN" });
    const set = Lab.el("button", { class: "posbar-set", text: "Set" });
    const start = Lab.el("button", { class: "posbar-start", text: "Start position" });
    const published = Lab.el("button", { class: "posbar-published", text: "Published position" });
    const board = Lab.el("a", { href: "#position", text: "on the board" });
    const edit = Lab.el("div", { class: "controls posbar-edit" }, input, set, start, published, board);
    edit.hidden = true;
    box.append(Lab.el("div", { class: "posbar-line" }, Lab.el("b", { text: "Position " }), fen, " ", info, " ", change), edit);
    const apply = async (text) => {
      Lab.showError(errorId, null);
      try {
        await Lab.setPosition(text.trim());
        edit.hidden = true;
      } catch (e) {
        Lab.showError(errorId, `The position was not changed: ${e.message}`);
      }
    };
    change.addEventListener("click", () => {
      edit.hidden = false;
      input.value = Lab.current ? Lab.current.fen : "";
      input.focus();
    });
    set.addEventListener("click", () => apply(input.value));
    input.addEventListener("keydown", (e) => e.key === "Enter" && apply(input.value));
    start.addEventListener("click", () => apply(Lab.START_FEN));
    published.addEventListener("click", () => apply(Lab.PUBLISHED_FEN));
    Lab.onPosition((p) => {
      edit.hidden = true;
      fen.textContent = p.fen;
      info.textContent = `(${Lab.describe(p)})`;
    });
  }

  Lab.initPositionBars = function () {
    for (const box of document.querySelectorAll(".posbar")) positionBar(box);
  };
})();
