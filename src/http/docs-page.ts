import { Elysia } from "elysia";
import { pageHeaders } from "./csp.ts";

/**
 * A self-contained API reference page: it fetches the spec and renders it with a small script,
 * loading nothing from elsewhere (the usual Scalar/Swagger pages pull JS from a CDN, which
 * self-hosted and air-gapped installs cannot reach). The script and the styles are files served
 * beside the page, so the page carries the same Content-Security-Policy as the web page (no inline
 * script or style). DOM nodes are built with textContent, never innerHTML, so descriptions in the
 * spec cannot inject markup.
 */

const STYLE = `  body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2330; background: #f7f8fa; }
  header { background: #1d2330; color: #fff; padding: 16px 24px; }
  header a { color: #9cc3ff; }
  main { max-width: 1000px; margin: 0 auto; padding: 16px 24px 64px; }
  nav.toc { background: #fff; border: 1px solid #d8dce3; border-radius: 6px; padding: 8px 16px; }
  nav.toc a { margin-right: 12px; }
  h2 { margin-top: 32px; border-bottom: 1px solid #d8dce3; }
  details.op { background: #fff; border: 1px solid #d8dce3; border-radius: 6px; margin: 8px 0; }
  details.op > summary { cursor: pointer; padding: 8px 12px; display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
  .method { font: bold 12px monospace; padding: 2px 8px; border-radius: 4px; color: #fff; min-width: 52px; text-align: center; }
  .get { background: #2b7bd6; } .post { background: #1f9d55; } .delete { background: #d64545; } .put, .patch { background: #c98a1b; }
  .path { font-family: ui-monospace, monospace; font-weight: 600; }
  .body { padding: 0 16px 12px; }
  .md p { margin: 6px 0; }
  code { background: #f1f3f6; padding: 0 4px; border-radius: 3px; font-size: 13px; }
  pre { background: #f1f3f6; padding: 8px; overflow: auto; border-radius: 4px; font-size: 13px; }
  table { border-collapse: collapse; margin: 4px 0 8px; } td, th { border: 1px solid #d8dce3; padding: 4px 8px; text-align: left; vertical-align: top; }
  th { background: #f1f3f6; }
  .type { font-family: ui-monospace, monospace; font-size: 13px; color: #5b3fa8; }
  .req { color: #d64545; font-size: 12px; }
  .enum { font-size: 12px; color: #4a5263; }
`;

// Plain browser JavaScript (it is served as written). The spec's path comes from the page's
// data-spec attribute, so the script is the same file whatever the page's configuration.
// Markdown in descriptions (paragraphs, "- " lists, code spans, bold, links) is turned into DOM
// nodes here, text always through textContent, links only to http(s) or same-site paths.
const SCRIPT = `(async () => {
  const root = document.getElementById("root");
  const el = (tag, attrs, ...children) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    for (const c of children) n.append(c);
    return n;
  };
  const json = (v) => el("pre", {}, typeof v === "string" ? v : JSON.stringify(v, null, 2));
  // Code spans, **bold** and [links](url).
  const INLINE = /(\`[^\`]+\`)|(\\*\\*[^*]+\\*\\*)|(\\[[^\\]]+\\]\\([^)\\s]+\\))/g;
  const inline = (text) => {
    const out = [];
    let last = 0;
    for (const m of text.matchAll(INLINE)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      const t = m[0];
      if (m[1]) out.push(el("code", {}, t.slice(1, -1)));
      else if (m[2]) out.push(el("strong", {}, t.slice(2, -2)));
      else {
        const label = t.slice(1, t.indexOf("]"));
        const href = t.slice(t.indexOf("](") + 2, -1);
        out.push(/^(https?:\\/\\/|\\/)/.test(href) ? el("a", { href }, label) : label);
      }
      last = m.index + t.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  };
  const markdown = (text) => {
    const box = el("div", { class: "md" });
    for (const block of String(text || "").split(/\\n\\s*\\n/)) {
      const lines = block.split("\\n").filter((l) => l.trim() !== "");
      if (lines.length === 0) continue;
      if (lines.every((l) => /^\\s*- /.test(l))) box.append(el("ul", {}, ...lines.map((l) => el("li", {}, ...inline(l.replace(/^\\s*- /, ""))))));
      else box.append(el("p", {}, ...inline(lines.join(" "))));
    }
    return box;
  };
  const refName = (ref) => ref.split("/").pop();
  const anchor = (name) => el("a", { href: "#schema-" + name }, name);
  // A schema as a reader wants it: a type line, and a table of fields for an object.
  const typeOf = (s) => {
    if (!s || typeof s !== "object") return ["any"];
    if (s.$ref) return [anchor(refName(s.$ref))];
    if (s.anyOf || s.oneOf) {
      const parts = [];
      (s.anyOf || s.oneOf).forEach((alt, i) => { if (i) parts.push(" | "); parts.push(...typeOf(alt)); });
      return parts;
    }
    if (s.type === "array") return ["array of ", ...typeOf(s.items)];
    if (s.const !== undefined) return [JSON.stringify(s.const)];
    const t = Array.isArray(s.type) ? s.type.join(" | ") : s.type || (s.properties ? "object" : "any");
    return [t + (s.format ? " (" + s.format + ")" : "")];
  };
  const enumLine = (s) => {
    if (!s || !Array.isArray(s.enum)) return null;
    const shown = s.enum.slice(0, 40).join(", ") + (s.enum.length > 40 ? ", … (" + s.enum.length + " in all)" : "");
    return el("div", { class: "enum" }, "one of: " + shown);
  };
  const schemaView = (s) => {
    const box = el("div", {});
    if (s && s.description) box.append(markdown(s.description));
    const props = s && s.properties;
    if (!props) {
      box.append(el("div", {}, el("span", { class: "type" }, ...typeOf(s))));
      const e = enumLine(s);
      if (e) box.append(e);
      return box;
    }
    const required = new Set(s.required || []);
    const t = el("table", {}, el("tr", {}, el("th", {}, "field"), el("th", {}, "type"), el("th", {}, "description")));
    for (const [name, p] of Object.entries(props)) {
      const desc = el("td", {});
      if (p.description) desc.append(markdown(p.description));
      const e = enumLine(p);
      if (e) desc.append(e);
      t.append(el("tr", {}, el("td", {}, el("code", {}, name), required.has(name) ? el("span", { class: "req" }, " required") : ""), el("td", {}, el("span", { class: "type" }, ...typeOf(p))), desc));
    }
    box.append(t);
    return box;
  };
  let spec;
  try {
    spec = await (await fetch(root.dataset.spec)).json();
  } catch (e) {
    root.textContent = "Could not load the API description: " + e;
    return;
  }
  root.textContent = "";
  root.append(el("h1", {}, (spec.info && spec.info.title) || "API"), markdown((spec.info && spec.info.description) || ""));
  // Operations grouped by tag, in the document's tag order (Parse first), then any other tag.
  const byTag = new Map();
  for (const t of spec.tags || []) byTag.set(t.name, { description: t.description, ops: [] });
  for (const [path, item] of Object.entries(spec.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !("responses" in op)) continue;
      const tag = (op.tags && op.tags[0]) || "Other";
      if (!byTag.has(tag)) byTag.set(tag, { ops: [] });
      byTag.get(tag).ops.push({ path, method, op });
    }
  }
  const groups = [...byTag].filter(([, g]) => g.ops.length > 0);
  root.append(el("nav", { class: "toc" }, ...groups.map(([tag]) => el("a", { href: "#tag-" + tag.replace(/\\W+/g, "-") }, tag)), el("a", { href: "#schemas" }, "Schemas")));
  const schemes = (spec.components && spec.components.securitySchemes) || {};
  for (const [tag, group] of groups) {
    root.append(el("h2", { id: "tag-" + tag.replace(/\\W+/g, "-") }, tag));
    if (group.description) root.append(markdown(group.description));
    for (const { path, method, op } of group.ops) {
      const body = el("div", { class: "body" });
      if (op.description) body.append(markdown(op.description));
      if (op.security && op.security.length) {
        body.append(el("p", {}, el("strong", {}, "Credentials: "), op.security.map((s) => Object.keys(s).map((k) => (schemes[k] && schemes[k].description) || k).join(" + ")).join(" or ")));
      }
      for (const sample of op["x-codeSamples"] || []) body.append(el("h4", {}, "Example request"), json(sample.source));
      if (op.parameters && op.parameters.length) {
        const t = el("table", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "in"), el("th", {}, "type"), el("th", {}, "description")));
        for (const p of op.parameters) {
          const desc = el("td", {});
          if (p.description) desc.append(markdown(p.description));
          const e = enumLine(p.schema);
          if (e) desc.append(e);
          t.append(el("tr", {}, el("td", {}, el("code", {}, p.name), p.required ? el("span", { class: "req" }, " required") : ""), el("td", {}, p.in), el("td", {}, el("span", { class: "type" }, ...typeOf(p.schema))), desc));
        }
        body.append(el("h4", {}, "Parameters"), t);
      }
      if (op.requestBody) {
        body.append(el("h4", {}, "Request body"));
        for (const [type, media] of Object.entries(op.requestBody.content || {})) {
          body.append(el("div", {}, el("code", {}, type)), schemaView(media.schema || {}));
          if (media.example !== undefined) body.append(json(media.example));
        }
      }
      body.append(el("h4", {}, "Responses"));
      for (const [status, res] of Object.entries(op.responses || {})) {
        const d = el("details", {}, el("summary", {}, status + (res.description ? " — " + res.description : "")));
        for (const [type, media] of Object.entries(res.content || {})) {
          d.append(el("div", {}, el("code", {}, type)), schemaView(media.schema || {}));
          if (media.example !== undefined) d.append(el("div", {}, "Example"), json(media.example));
        }
        body.append(d);
      }
      root.append(el("details", { class: "op", id: "op-" + method + path.replace(/\\W+/g, "-") },
        el("summary", {}, el("span", { class: "method " + method }, method.toUpperCase()), el("span", { class: "path" }, path), el("span", {}, op.summary || "")),
        body));
    }
  }
  // Bodies are named schemas ($ref "#/components/schemas/X"): each once, as a table, with an anchor.
  const schemas = Object.entries((spec.components && spec.components.schemas) || {});
  if (schemas.length) {
    root.append(el("h2", { id: "schemas" }, "Schemas"));
    for (const [name, schema] of schemas) {
      root.append(el("details", { class: "op", id: "schema-" + name }, el("summary", {}, el("span", { class: "path" }, name)), el("div", { class: "body" }, schemaView(schema))));
    }
  }
  // A link to a schema opens it.
  root.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[href^='#schema-']");
    const target = a && document.getElementById(a.getAttribute("href").slice(1));
    if (target) target.open = true;
  });
})();
`;

export function renderDocsPage(specPath: string, title: string, assets: { script: string; style: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(assets.style)}">
<script src="${escapeHtml(assets.script)}" defer></script>
</head>
<body>
<header><strong>${escapeHtml(title)}</strong> &middot; <a href="${escapeHtml(specPath)}">${escapeHtml(specPath)}</a></header>
<main id="root" data-spec="${escapeHtml(specPath)}">Loading ${escapeHtml(specPath)}…</main>
</body>
</html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** GET `path` (the page), `path`/docs.js and `path`/docs.css, each with the page CSP. */
export const docsPageRoutes = ({ path, specPath, title }: { path: string; specPath: string; title: string }) => {
  const assets = { script: `${path}/docs.js`, style: `${path}/docs.css` };
  const page = renderDocsPage(specPath, title, assets);
  return new Elysia({ name: "docs-page" })
    .get(path, () => new Response(page, { headers: pageHeaders("text/html; charset=utf-8") }), { detail: { hide: true } })
    .get(assets.script, () => new Response(SCRIPT, { headers: pageHeaders("text/javascript; charset=utf-8") }), { detail: { hide: true } })
    .get(assets.style, () => new Response(STYLE, { headers: pageHeaders("text/css; charset=utf-8") }), { detail: { hide: true } });
};
