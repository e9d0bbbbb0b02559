// Shows docs/search.md (compiled into the server) as a page, so the lab's
// links to a technique's section work offline. A small Markdown subset:
// headings (with GitHub's anchors), paragraphs, lists, code blocks, tables.
"use strict";

(function () {
  const escape = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const slug = (t) => t.toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-");

  function inline(text) {
    return escape(text)
      .replace(/`([^`]+)`/g, "<code>$1</code>")
      .replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>")
      .replace(/\*([^*\s][^*]*)\*/g, "<i>$1</i>")
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, url) =>
        `<a href="${/^(https?:|#)/.test(url) ? url : "#"}">${label}</a>`);
  }

  function table(lines) {
    const cells = (l) => l.replace(/^\||\|$/g, "").split("|").map((c) => inline(c.trim()));
    const [head, , ...body] = lines;
    const row = (l, tag) => `<tr>${cells(l).map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`;
    return `<div class="scroll"><table class="numbers doc-table"><thead>${row(head, "th")}</thead>` +
      `<tbody>${body.map((l) => row(l, "td")).join("")}</tbody></table></div>`;
  }

  // Splits the text into blocks and renders each.
  function render(md) {
    const lines = md.split("\n");
    const out = [];
    let i = 0;
    const take = (test) => {
      const block = [];
      while (i < lines.length && test(lines[i])) block.push(lines[i++]);
      return block;
    };
    while (i < lines.length) {
      const line = lines[i];
      const heading = /^(#{1,4}) (.*)$/.exec(line);
      if (heading) {
        const n = heading[1].length;
        out.push(`<h${n + 1} id="${slug(heading[2])}">${inline(heading[2])}</h${n + 1}>`);
        i++;
      } else if (line.startsWith("```")) {
        i++;
        const code = take((l) => !l.startsWith("```"));
        i++;
        out.push(`<pre>${escape(code.join("\n"))}</pre>`);
      } else if (line.startsWith("|")) {
        out.push(table(take((l) => l.startsWith("|"))));
      } else if (/^\s*([-*]|\d+\.) /.test(line)) {
        const items = take((l) => l.trim() !== "" && !l.startsWith("#")).join("\n").split(/\n(?=(?:[-*]|\d+\.) )/);
        out.push(`<ul>${items.map((t) => `<li>${inline(t.replace(/^\s*([-*]|\d+\.) /, ""))}</li>`).join("")}</ul>`);
      } else if (line.trim() === "") {
        i++;
      } else {
        const para = take((l) => l.trim() !== "" && !/^(#|```|\|)/.test(l));
        out.push(`<p>${inline(para.join(" "))}</p>`);
      }
    }
    return out.join("\n");
  }

  window.addEventListener("DOMContentLoaded", async () => {
    const main = document.getElementById("doc");
    try {
      const response = await fetch("/docs/search.md");
      main.innerHTML = render(await response.text());
      const target = location.hash && document.getElementById(location.hash.slice(1));
      if (target) target.scrollIntoView();
    } catch (e) {
      main.textContent = `cannot load docs/search.md: ${e.message}`;
    }
  });
})();
