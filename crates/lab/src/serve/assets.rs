//! The page's files, compiled into the binary: the lab works offline and
//! from any directory.

const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("web/index.html"),
    ),
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("web/index.html"),
    ),
    (
        "/app.css",
        "text/css; charset=utf-8",
        include_str!("web/app.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("web/app.js"),
    ),
    (
        "/position.js",
        "text/javascript; charset=utf-8",
        include_str!("web/position.js"),
    ),
    (
        "/compare.js",
        "text/javascript; charset=utf-8",
        include_str!("web/compare.js"),
    ),
    (
        "/tree.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tree.js"),
    ),
    (
        "/tree-layout.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tree-layout.js"),
    ),
    (
        "/tree-draw.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tree-draw.js"),
    ),
    (
        "/pseudocode.js",
        "text/javascript; charset=utf-8",
        include_str!("web/pseudocode.js"),
    ),
    (
        "/tree-editor.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tree-editor.js"),
    ),
    (
        "/tree-app.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tree-app.js"),
    ),
    (
        "/tree-share.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tree-share.js"),
    ),
    (
        "/tree.css",
        "text/css; charset=utf-8",
        include_str!("web/tree.css"),
    ),
    (
        "/tables.js",
        "text/javascript; charset=utf-8",
        include_str!("web/tables.js"),
    ),
    (
        "/current.js",
        "text/javascript; charset=utf-8",
        include_str!("web/current.js"),
    ),
    (
        "/charts.js",
        "text/javascript; charset=utf-8",
        include_str!("web/charts.js"),
    ),
    (
        "/quiz.js",
        "text/javascript; charset=utf-8",
        include_str!("web/quiz.js"),
    ),
    (
        "/quiz.css",
        "text/css; charset=utf-8",
        include_str!("web/quiz.css"),
    ),
    (
        "/views.css",
        "text/css; charset=utf-8",
        include_str!("web/views.css"),
    ),
    (
        "/doc.html",
        "text/html; charset=utf-8",
        include_str!("web/doc.html"),
    ),
    (
        "/doc.js",
        "text/javascript; charset=utf-8",
        include_str!("web/doc.js"),
    ),
    // The search's documentation, for the links from the Ablation view.
    (
        "/docs/search.md",
        "text/markdown; charset=utf-8",
        include_str!("../../../../docs/search.md"),
    ),
];

/// The content type and text of the file at `path`.
pub fn get(path: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, t, text)| (t, text))
}
