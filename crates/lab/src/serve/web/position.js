// The Position view: a chess board set from a FEN or by clicking moves
// (the server checks each), tic-tac-toe, and textbook trees as text.
"use strict";

(function () {
  // The solid glyphs for both sides; CSS colours them.
  const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
  const FILES = "abcdefgh";
  let current = null; // the server's answer for the shown position
  let history = []; // earlier FENs, for taking moves back
  let selected = null; // the square picked first

  const squareName = (i) => FILES[i % 8] + String(8 - Math.floor(i / 8));

  // Sets the current position for every view; `remember`: Take back
  // returns to the one before.
  async function setFen(fen, remember) {
    Lab.showError("fen-error", null);
    const before = current && current.fen;
    try {
      const answer = await Lab.setPosition(fen);
      if (remember && before && before !== answer.fen) history.push(before);
    } catch (e) {
      refused(e);
    }
  }

  async function play(uci) {
    Lab.showError("fen-error", null);
    const before = current.fen;
    try {
      await Lab.setPosition(before, [uci]);
      history.push(before);
    } catch (e) {
      refused(e);
    }
  }

  // The board no longer matches the FEN field: say so on both.
  function refused(e) {
    Lab.showError("fen-error", `${e.message} (the board below is the position before, unchanged)`);
    Lab.$("board").classList.add("stale");
  }

  function show(answer) {
    current = answer;
    selected = null;
    Lab.$("fen").value = answer.fen;
    Lab.$("board").classList.remove("stale");
    Lab.showError("fen-error", null);
    Lab.$("promo").hidden = true;
    drawBoard();
    Lab.$("pos-info").textContent = Lab.describe(answer);
  }

  function targetsOf(from) {
    return current.moves.filter((m) => m.slice(0, 2) === from);
  }

  function drawBoard() {
    const board = Lab.$("board");
    board.textContent = "";
    const targets = selected ? targetsOf(selected).map((m) => m.slice(2, 4)) : [];
    current.squares.forEach((piece, i) => {
      const name = squareName(i);
      const dark = (Math.floor(i / 8) + (i % 8)) % 2 === 1;
      const sq = Lab.el("div", { class: `sq ${dark ? "dark" : "light"}`, "data-square": name });
      if (piece) sq.append(Lab.el("span", { class: piece === piece.toUpperCase() ? "pc white" : "pc black", text: GLYPHS[piece.toLowerCase()] }));
      if (name === selected) sq.classList.add("selected");
      if (targets.includes(name)) sq.classList.add("target");
      if (i % 8 === 0) sq.append(Lab.el("span", { class: "coord rank", text: name[1] }));
      if (i >= 56) sq.append(Lab.el("span", { class: "coord file", text: name[0] }));
      sq.addEventListener("click", () => click(name));
      board.append(sq);
    });
  }

  function click(name) {
    if (!current) return;
    if (selected) {
      const moves = targetsOf(selected).filter((m) => m.slice(2, 4) === name);
      if (moves.length === 1) return play(moves[0]);
      if (moves.length > 1) return askPromotion(moves);
    }
    selected = targetsOf(name).length > 0 && selected !== name ? name : null;
    drawBoard();
  }

  function askPromotion(moves) {
    const box = Lab.$("promo");
    box.textContent = "Promote to: ";
    for (const m of moves) {
      const b = Lab.el("button", { text: m.slice(4).toUpperCase() });
      b.addEventListener("click", () => play(m));
      box.append(b);
    }
    box.hidden = false;
  }

  // Tic-tac-toe.
  async function setTicTacToe(moves) {
    Lab.showError("ttt-error", null);
    try {
      const answer = await Lab.api("POST", "/api/tictactoe", { moves });
      Lab.game.moves = moves.trim();
      Lab.$("ttt-moves").value = Lab.game.moves;
      const board = Lab.$("ttt-board");
      board.textContent = "";
      answer.cells.forEach((mark, i) => {
        const name = "abc"[i % 3] + String(Math.floor(i / 3) + 1);
        const cell = Lab.el("div", { class: "cell", "data-cell": name, text: mark });
        if (answer.moves.includes(name)) {
          cell.classList.add("free");
          cell.addEventListener("click", () => setTicTacToe(`${Lab.game.moves} ${name}`));
        }
        board.append(cell);
      });
      let text = answer.winner ? `${answer.winner} has won` : answer.over ? "a draw" : `${answer.to_move} to move (X is MAX)`;
      Lab.$("ttt-info").textContent = text;
    } catch (e) {
      Lab.showError("ttt-error", e);
    }
  }

  // Text trees: the server parses and solves them.
  async function checkText() {
    Lab.showError("text-error", null);
    Lab.$("text-info").textContent = "";
    const text = Lab.$("tree-text").value;
    Lab.game.text = text;
    try {
      const t = await Lab.api("POST", "/api/tree", { game: "text", text });
      Lab.$("text-info").textContent =
        `value ${t.value_text}; ${t.nodes_visited} nodes visited, ${t.leaves} of ${t.total_leaves} leaves evaluated`;
    } catch (e) {
      Lab.showError("text-error", e);
    }
  }

  function chooseGame(kind) {
    Lab.game.kind = kind;
    for (const k of ["chess", "tictactoe", "text"]) Lab.$(`${k}-panel`).hidden = k !== kind;
  }

  Lab.views.position = {
    init() {
      Lab.$("game").addEventListener("change", (e) => chooseGame(e.target.value));
      Lab.$("fen-set").addEventListener("click", () => setFen(Lab.$("fen").value.trim(), true));
      Lab.$("fen").addEventListener("keydown", (e) => e.key === "Enter" && setFen(Lab.$("fen").value.trim(), true));
      Lab.$("fen-start").addEventListener("click", () => setFen(Lab.START_FEN, true));
      Lab.$("fen-published").addEventListener("click", () => setFen(Lab.PUBLISHED_FEN, true));
      Lab.$("fen-undo").addEventListener("click", () => history.length && setFen(history.pop(), false));
      Lab.$("ttt-set").addEventListener("click", () => setTicTacToe(Lab.$("ttt-moves").value));
      Lab.$("ttt-clear").addEventListener("click", () => setTicTacToe(""));
      Lab.$("text-check").addEventListener("click", checkText);
      for (const b of document.querySelectorAll("button.example")) {
        b.addEventListener("click", () => {
          Lab.$("tree-text").value = b.dataset.tree;
          checkText();
        });
      }
      Lab.$("tree-text").value = Lab.game.text;
      Lab.onPosition(show);
      setTicTacToe("");
    },
  };
  // Lets the other views switch the source of the Tree view.
  Lab.chooseGame = (kind) => {
    Lab.$("game").value = kind;
    chooseGame(kind);
  };
})();
