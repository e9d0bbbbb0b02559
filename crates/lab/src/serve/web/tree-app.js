// The Tree view's controls: which game and algorithm the server searches,
// and the request that brings the trace.
"use strict";

(function () {
  function source() {
    const g = Lab.game;
    if (g.kind === "chess") return { text: `chess, ${g.fen}`, max: Lab.limits.chess_tree_depth, req: { game: "chess", fen: g.fen } };
    if (g.kind === "tictactoe") return { text: `tic-tac-toe after "${g.moves}"`, max: Lab.limits.tictactoe_tree_depth, req: { game: "tictactoe", moves: g.moves } };
    const text = Lab.$("tree-text").value;
    return { text: `the tree ${text}`, max: 0, req: { game: "text", text } };
  }

  // Searches `req` (or the Position view's game) and shows the trace.
  // A refused request clears the drawing: no stale tree under a message.
  async function build(req) {
    TreeView.stop();
    Lab.showError("tree-error", null);
    if (!req) {
      const src = source();
      req = src.req;
      if (src.max) req.depth = Number(Lab.$("tree-depth").value);
    }
    const algo = Lab.$("tree-algo").value;
    if (req.game === "text" && Lab.$("ed-text")) Lab.$("ed-text").value = req.text;
    req.algorithm = algo;
    // The strict test is a form of the two alpha-beta searches only.
    const ab = algo === "failsoft" || algo === "failhard";
    Lab.$("tree-test").disabled = !ab;
    req.test = ab ? Lab.$("tree-test").value : ">=";
    Lab.$("tree-build").disabled = true;
    try {
      const t = await Lab.api("POST", "/api/tree", req);
      TreeView.S.request = req;
      TreeView.load(t, algo);
      Lab.$("tree-panel").dataset.state = "ready";
    } catch (e) {
      Lab.showError("tree-error", e);
      TreeView.clear();
      Lab.$("tree-panel").dataset.state = "error";
    } finally {
      Lab.$("tree-build").disabled = false;
    }
  }

  Lab.treeBuild = build;

  Lab.views.tree = {
    init() {
      TreeView.init();
      Lab.$("tree-build").addEventListener("click", () => build());
      Lab.$("tree-algo").addEventListener("change", () => TreeView.S.tree && build(TreeView.S.request));
      Lab.$("tree-test").addEventListener("change", () => TreeView.S.tree && build(TreeView.S.request));
    },
    shown() {
      const src = source();
      Lab.$("tree-source").textContent = src.text;
      Lab.$("tree-depth-label").hidden = !src.max;
      Lab.$("tree-depth").max = String(src.max || 1);
    },
  };
})();
