// The Ordering and Ablation views: `lab ordering` and `lab ablate` as jobs,
// their tables growing position by position or technique by technique,
// each with a chart and every column and technique explained.
"use strict";

(function () {
  const pct = (x) => (x === null || x === undefined ? "-" : (100 * x).toFixed(1));

  const ORDERING = [
    { title: "ordering", get: (r) => r.ordering, cls: "text",
      help: "minimax: no pruning; oracle: the best move first (from an exact search); engine: Cutoff's move picker; random: a seeded shuffle" },
    { title: "depth", get: (r) => String(r.depth), help: "plies searched below the root" },
    { title: "nodes", get: (r) => Lab.fmtInt(r.nodes), help: "positions visited, the root included, summed over the positions" },
    { title: "leaves", get: (r) => Lab.fmtInt(r.leaves), help: "positions evaluated, summed over the positions" },
    { title: "b", get: (r) => Lab.fmtFixed(r.branching, 2), help: "mean branching factor of the full (minimax) tree: legal moves per inner node" },
    { title: "1st-cut %", get: (r) => pct(r.first_cut_rate), help: "share of the nodes that cut off where the first move tried already cut" },
    { title: "cut-idx", get: (r) => Lab.fmtFixed(r.mean_cut_index, 2), help: "mean position (1 = first) of the move that cut off, at nodes that cut" },
    { title: "EBF", get: (r) => Lab.fmtFixed(r.ebf, 2), help: "effective branching factor: this depth's nodes over the previous depth's" },
    { title: "leaves/KM", get: (r) => Lab.fmtFixed(r.km_ratio, 2), help: "leaves over the Knuth-Moore minimum b^ceil(d/2) + b^floor(d/2) - 1 (1 = a perfectly ordered tree)" },
    { title: "x", get: (r) => Lab.fmtFixed(r.exponent, 3), help: "x in leaves = b^(x*d) per position: 0.5 perfect ordering, 0.75 random, 1 minimax" },
  ];

  const ID = [
    { title: "depth", get: (r) => String(r.depth), help: "the last iteration's depth" },
    { title: "minimax ID/d", get: (r) => Lab.fmtFixed(r.minimax_ratio, 3), help: "minimax: nodes of iterations 1..d over nodes of depth d alone" },
    { title: "b/(b-1)", get: (r) => Lab.fmtFixed(r.b_over_b_minus_1, 3), help: "the textbook's estimate of that ratio" },
    { title: "engine ID/d", get: (r) => Lab.fmtFixed(r.engine_ratio, 3), help: "engine ordering: iterative deepening with the table over one search of depth d without them (below 1: the iterations pay for themselves)" },
  ];

  const ORDER_COLORS = { minimax: "#c0392b", oracle: "#27ae60", engine: "#2471a3", random: "#d68910" };

  // x per ordering and depth, against the textbook's three regimes.
  function orderingChart(rows) {
    const depths = [...new Set(rows.map((r) => r.depth))];
    const names = Object.keys(ORDER_COLORS);
    const find = (d, name) => rows.find((r) => r.depth === d && r.ordering === name);
    return Lab.groupedBars({
      title: "the exponent x (leaves = b^(x*d)) of each ordering, by depth",
      groups: depths.map(String),
      series: names.map((name) => ({ name, color: ORDER_COLORS[name] })),
      value: (gi, si) => {
        const r = find(depths[gi], names[si]);
        return r ? r.exponent : null;
      },
      refs: [{ value: 0.5, label: "perfect" }, { value: 0.75, label: "random" }, { value: 1, label: "minimax" }],
      yMax: 1.25, yStep: 0.25, yLabel: "x", xLabel: "depth",
    });
  }

  // Where search.md describes each switch, and what it does in a line.
  const DOC = "/doc.html";
  const SWITCHES = {
    none: ["the full search, every technique on", ""],
    TT: ["transposition table: results of positions met before", "transposition-table"],
    Aspiration: ["aspiration windows: each iteration starts with a narrow window", "iterative-deepening-and-aspiration-windows"],
    PVS: ["principal variation search: null windows after the first move", "the-core-negamax-alpha-beta-with-pvs"],
    Quiescence: ["quiescence search: captures until the position is quiet", "quiescence-search"],
    QuiescenceChecks: ["quiet checks at quiescence's first ply", "quiescence-search"],
    QsearchSEE: ["skip losing captures (by SEE) in quiescence", "quiescence-search"],
    DeltaPruning: ["skip captures that cannot reach alpha in quiescence", "quiescence-search"],
    Killers: ["killer moves: quiet moves that cut in sibling nodes", "move-ordering"],
    Countermove: ["countermove: the quiet reply that last refuted this move", "move-ordering"],
    History: ["history: quiet moves ordered by past cut-offs", "move-ordering"],
    NullMove: ["null move pruning: pass, and cut if still above beta", "pruning-and-reductions"],
    ReverseFutility: ["reverse futility pruning: fail high on a static evaluation far above beta", "pruning-and-reductions"],
    Razoring: ["razoring: a quiescence search decides nodes far below alpha", "pruning-and-reductions"],
    Futility: ["futility pruning: skip quiet moves that cannot reach alpha", "pruning-and-reductions"],
    LateMovePruning: ["late move pruning: skip the last quiet moves at low depth", "pruning-and-reductions"],
    LMR: ["late move reductions: later moves searched shallower", "pruning-and-reductions"],
    SEEPruning: ["SEE pruning: skip moves that lose material by static exchange", "pruning-and-reductions"],
    IIR: ["internal iterative reduction: one ply less without a hash move", "pruning-and-reductions"],
    ProbCut: ["ProbCut: a shallow search proves a capture beats beta", "pruning-and-reductions"],
    CheckExtension: ["check extension: checks searched one ply deeper", "extensions"],
    SingularExtension: ["singular extension: a move far better than the rest searched deeper", "extensions"],
    MateDistancePruning: ["mate distance pruning: no search for mates no shorter than one found", "draws-and-mates"],
    CorrectionHistory: ["correction history: the static evaluation corrected by past searches", "correction-history"],
    NNUE: ["the network: off means the hand-crafted evaluation instead", ""],
  };
  const explain = (name) => (SWITCHES[name] || [name, ""])[0];

  function switchCell(r) {
    const [text, anchor] = SWITCHES[r.switch] || ["", ""];
    const cell = anchor ? Lab.el("a", { href: `${DOC}#${anchor}`, target: "_blank", text: r.switch }) : r.switch;
    return Lab.el("span", { title: text }, cell);
  }

  const ABLATION = [
    { title: "switched off", get: switchCell, cls: "text", help: "the technique turned off for this row (none: the full search); the link opens its description" },
    { title: "nodes", get: (r) => Lab.fmtInt(r.nodes), help: "nodes of the engine's search, summed over the positions" },
    { title: "ratio", get: (r) => Lab.fmtFixed(r.node_ratio, 3), help: "nodes over the full search's: above 1, the technique saves nodes; below 1, it spends them" },
    { title: "time ms", get: (r) => Lab.fmtFixed(r.time_ms, 1), help: "wall time of the row, in milliseconds" },
    { title: "EBF", get: (r) => Lab.fmtFixed(r.ebf, 2), help: "effective branching factor: the last iteration's nodes over the one before" },
    { title: "best move changed", get: (r) => String(r.best_move_changes), help: "positions whose best move differs from the full search's" },
  ];

  // Ratio per switch: right of 1, the technique saves nodes.
  function ablationChart(rows) {
    return Lab.ratioBars({
      title: "nodes with each technique switched off, over the full search's",
      rows: rows.filter((r) => r.switch !== "none").map((r) => ({
        label: r.switch,
        value: r.node_ratio,
        color: r.node_ratio >= 1 ? "#2471a3" : "#d68910",
        tip: `${r.switch} off: ${r.node_ratio.toFixed(3)} times the nodes (${explain(r.switch)})`,
      })),
      xLabel: "nodes switched off / nodes of the full search, log scale",
    });
  }

  const source = (name) => document.querySelector(`input[name=${name}]:checked`).value;

  function draw(id, chart) {
    const box = Lab.$(id);
    box.textContent = "";
    if (chart) box.append(chart);
  }

  Lab.views.ordering = {
    init() {
      Lab.depthOptions("ord-depth", Lab.limits.ordering_depth, 3);
      Lab.$("ord-positions").max = String(Lab.limits.ordering_positions);
      Lab.jobView({
        run: "ord-run", cancel: "ord-cancel", progress: "ord-progress", status: "ord-status", error: "ord-error",
        results: "ord-results",
        request: () => {
          const req = {
            kind: "ordering",
            depth: Number(Lab.$("ord-depth").value),
            eval: Lab.$("ord-eval").value,
            seed: Number(Lab.$("ord-seed").value),
          };
          if (source("ord-source") === "fen") req.fen = Lab.current.fen;
          else req.positions = Number(Lab.$("ord-positions").value);
          return req;
        },
        render: (s) => {
          Lab.table(Lab.$("ord-table"), ORDERING, s.rows);
          Lab.table(Lab.$("ord-id"), ID, (s.extra && s.extra.id) || []);
          draw("ord-chart", s.rows.length ? orderingChart(s.rows) : null);
        },
      });
    },
  };

  Lab.views.ablation = {
    init() {
      Lab.depthOptions("abl-depth", Lab.limits.ablate_depth, 5);
      Lab.$("abl-positions").max = String(Lab.limits.ablate_positions);
      Lab.jobView({
        run: "abl-run", cancel: "abl-cancel", progress: "abl-progress", status: "abl-status", error: "abl-error",
        results: "abl-results",
        request: () => {
          const req = { kind: "ablate", depth: Number(Lab.$("abl-depth").value) };
          if (source("abl-source") === "fen") req.fen = Lab.current.fen;
          else req.positions = Number(Lab.$("abl-positions").value);
          return req;
        },
        render: (s) => {
          Lab.table(Lab.$("abl-table"), ABLATION, s.rows);
          draw("abl-chart", s.rows.length > 1 ? ablationChart(s.rows) : null);
        },
      });
    },
  };
})();
