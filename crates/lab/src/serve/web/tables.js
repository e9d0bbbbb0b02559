// The Ordering and Ablation views: `lab ordering` and `lab ablate` as jobs,
// their tables growing position by position or technique by technique.
"use strict";

(function () {
  const pct = (x) => (x === null || x === undefined ? "-" : (100 * x).toFixed(1));

  const ORDERING = [
    { title: "ordering", get: (r) => r.ordering, cls: "text" },
    { title: "depth", get: (r) => String(r.depth) },
    { title: "nodes", get: (r) => Lab.fmtInt(r.nodes) },
    { title: "leaves", get: (r) => Lab.fmtInt(r.leaves) },
    { title: "b", get: (r) => Lab.fmtFixed(r.branching, 2) },
    { title: "1st-cut %", get: (r) => pct(r.first_cut_rate) },
    { title: "cut-idx", get: (r) => Lab.fmtFixed(r.mean_cut_index, 2) },
    { title: "EBF", get: (r) => Lab.fmtFixed(r.ebf, 2) },
    { title: "leaves/KM", get: (r) => Lab.fmtFixed(r.km_ratio, 2) },
    { title: "x", get: (r) => Lab.fmtFixed(r.exponent, 3) },
  ];

  const ID = [
    { title: "depth", get: (r) => String(r.depth) },
    { title: "minimax ID/d", get: (r) => Lab.fmtFixed(r.minimax_ratio, 3) },
    { title: "b/(b-1)", get: (r) => Lab.fmtFixed(r.b_over_b_minus_1, 3) },
    { title: "engine ID/d", get: (r) => Lab.fmtFixed(r.engine_ratio, 3) },
  ];

  const ABLATION = [
    { title: "switched off", get: (r) => r.switch, cls: "text" },
    { title: "nodes", get: (r) => Lab.fmtInt(r.nodes) },
    { title: "ratio", get: (r) => Lab.fmtFixed(r.node_ratio, 3) },
    { title: "time ms", get: (r) => Lab.fmtFixed(r.time_ms, 1) },
    { title: "EBF", get: (r) => Lab.fmtFixed(r.ebf, 2) },
    { title: "best move changed", get: (r) => String(r.best_move_changes) },
  ];

  Lab.views.ordering = {
    init() {
      Lab.depthOptions("ord-depth", Lab.limits.ordering_depth, 3);
      Lab.$("ord-positions").max = String(Lab.limits.ordering_positions);
      Lab.jobView({
        run: "ord-run", cancel: "ord-cancel", progress: "ord-progress", status: "ord-status", error: "ord-error",
        request: () => {
          const req = {
            kind: "ordering",
            depth: Number(Lab.$("ord-depth").value),
            eval: Lab.$("ord-eval").value,
            seed: Number(Lab.$("ord-seed").value),
          };
          const source = document.querySelector("input[name=ord-source]:checked").value;
          if (source === "fen") req.fen = Lab.$("cmp-fen").value.trim();
          else req.positions = Number(Lab.$("ord-positions").value);
          return req;
        },
        render: (s) => {
          Lab.table(Lab.$("ord-table"), ORDERING, s.rows);
          Lab.table(Lab.$("ord-id"), ID, (s.extra && s.extra.id) || []);
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
        request: () => ({
          kind: "ablate",
          depth: Number(Lab.$("abl-depth").value),
          positions: Number(Lab.$("abl-positions").value),
        }),
        render: (s) => Lab.table(Lab.$("abl-table"), ABLATION, s.rows),
      });
    },
  };
})();
