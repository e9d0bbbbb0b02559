// The Tree view's controls: which tree the server searches (tree text, the
// chess position or the tic-tac-toe one) and with which algorithm, and the
// request that brings the trace. One Search searches what the fields show.
"use strict";

(function () {
  let asked = 0; // the newest request: an older answer arriving late is dropped

  // The request the fields describe now, and how to name it.
  function source() {
    const g = Lab.game;
    const depth = Number(Lab.$("tree-depth").value);
    if (g.kind === "chess") return { text: g.fen, max: Lab.limits.chess_tree_depth, req: { game: "chess", fen: g.fen, depth } };
    if (g.kind === "tictactoe") return { text: `after "${g.moves}"`, max: Lab.limits.tictactoe_tree_depth, req: { game: "tictactoe", moves: g.moves, depth } };
    return { text: "", max: 0, req: { game: "text", text: Lab.$("ed-text").value } };
  }

  const same = (a, b) => !!a && !!b && ["game", "text", "fen", "moves", "depth"].every((k) => a[k] === b[k]);

  // Searches the fields (or `req`) and shows the trace. The step stays where
  // it was if the new trace has it, else the end; `opts.step` sets it. A
  // refused request clears the drawing: no stale tree under a message.
  async function build(req, opts = {}) {
    TreeView.stop();
    Lab.showError("tree-error", null);
    if (!req) req = source().req;
    req = { ...req };
    if (req.game === "text") {
      Lab.$("ed-text").value = req.text;
      Lab.game.text = req.text;
      Lab.$("tree-text").value = req.text;
    }
    const algo = Lab.$("tree-algo").value;
    req.algorithm = algo;
    // The strict test is a form of the two alpha-beta searches only.
    const ab = algo === "failsoft" || algo === "failhard";
    Lab.$("tree-test").disabled = !ab;
    req.test = ab ? Lab.$("tree-test").value : ">=";
    const mine = ++asked;
    Lab.$("tree-build").disabled = true;
    try {
      const t = await Lab.api("POST", "/api/tree", req);
      if (mine !== asked) return;
      const S = TreeView.S;
      let at = opts.step;
      if (at === undefined) at = !S.tree ? 0 : S.at === S.tree.steps.length ? Infinity : S.at;
      S.request = req;
      TreeView.load(t, algo, at);
      Lab.$("tree-panel").dataset.state = "ready";
    } catch (e) {
      if (mine !== asked) return;
      Lab.showError("tree-error", e);
      TreeView.clear();
      TreeView.S.request = null;
      Lab.$("tree-panel").dataset.state = "error";
    } finally {
      if (mine === asked) Lab.$("tree-build").disabled = false;
      fields();
    }
  }

  // The fields follow the game; a note says when they differ from the drawing.
  function fields() {
    const src = source();
    const kind = Lab.game.kind;
    Lab.$("tree-game").value = kind;
    Lab.$("tree-text-label").hidden = kind !== "text";
    Lab.$("tree-source-label").hidden = kind === "text";
    Lab.$("tree-source").textContent = src.text;
    Lab.$("tree-depth-label").hidden = !src.max;
    Lab.$("tree-depth").max = String(src.max || 1);
    const drawn = TreeView.S.request;
    Lab.$("tree-pending").hidden = !drawn || same(drawn, src.req);
  }

  // Chooses the game for this view and the Position view alike.
  function chooseGame(kind) {
    Lab.chooseGame(kind);
    fields();
  }

  // Opens the state a link or a reload carries, if any, else the fields.
  async function open() {
    const want = TreeShare.wanted();
    if (want) {
      Lab.$("tree-algo").value = want.algo;
      Lab.$("tree-test").value = want.test;
      if (want.depth) Lab.$("tree-depth").value = String(want.depth);
      if (want.game === "chess" && want.fen && want.fen !== Lab.game.fen) {
        try {
          await Lab.setPosition(want.fen);
        } catch (e) {
          Lab.showError("tree-error", e);
        }
      }
      if (want.game === "tictactoe") Lab.game.moves = want.moves;
      if (want.game === "text") Lab.$("ed-text").value = want.text;
      chooseGame(want.game);
      return build(null, { step: want.step });
    }
    Lab.$("ed-text").value = Lab.game.text;
    fields();
    if (!same(TreeView.S.request, source().req)) return build();
    TreeShare.save();
  }

  Lab.treeBuild = build;

  Lab.views.tree = {
    init() {
      TreeView.init();
      Lab.$("tree-build").addEventListener("click", () => build());
      Lab.$("tree-game").addEventListener("change", (e) => {
        chooseGame(e.target.value);
        build();
      });
      Lab.$("tree-algo").addEventListener("change", () => build());
      Lab.$("tree-test").addEventListener("change", () => build());
      Lab.$("ed-text").addEventListener("input", fields);
      Lab.$("ed-text").addEventListener("keydown", (e) => e.key === "Enter" && build());
      Lab.$("tree-depth").addEventListener("input", fields);
      Lab.$("tree-depth").addEventListener("keydown", (e) => e.key === "Enter" && build());
      // A text typed in the Position view is the one searched here.
      Lab.$("tree-text").addEventListener("input", (e) => (Lab.game.text = e.target.value));
    },
    shown() {
      open();
    },
  };
})();
