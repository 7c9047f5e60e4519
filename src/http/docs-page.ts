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
  h2 { margin-top: 32px; border-bottom: 1px solid #d8dce3; }
  details.op { background: #fff; border: 1px solid #d8dce3; border-radius: 6px; margin: 8px 0; }
  details.op > summary { cursor: pointer; padding: 8px 12px; display: flex; gap: 12px; align-items: baseline; }
  .method { font: bold 12px monospace; padding: 2px 8px; border-radius: 4px; color: #fff; min-width: 52px; text-align: center; }
  .get { background: #2b7bd6; } .post { background: #1f9d55; } .delete { background: #d64545; } .put, .patch { background: #c98a1b; }
  .path { font-family: ui-monospace, monospace; font-weight: 600; }
  .body { padding: 0 16px 12px; }
  pre { background: #f1f3f6; padding: 8px; overflow: auto; border-radius: 4px; font-size: 13px; }
  table { border-collapse: collapse; } td, th { border: 1px solid #d8dce3; padding: 4px 8px; text-align: left; vertical-align: top; }
`;

// Plain browser JavaScript (it is served as written). The spec's path comes from the page's
// data-spec attribute, so the script is the same file whatever the page's configuration.
const SCRIPT = `(async () => {
  const root = document.getElementById("root");
  const el = (tag, attrs, ...children) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    for (const c of children) n.append(c);
    return n;
  };
  const json = (v) => el("pre", {}, JSON.stringify(v, null, 2));
  let spec;
  try {
    spec = await (await fetch(root.dataset.spec)).json();
  } catch (e) {
    root.textContent = "Could not load the API description: " + e;
    return;
  }
  root.textContent = "";
  root.append(el("h1", {}, (spec.info && spec.info.title) || "API"), el("p", {}, (spec.info && spec.info.description) || ""));
  const byTag = new Map();
  for (const [path, item] of Object.entries(spec.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !("responses" in op)) continue;
      const tag = (op.tags && op.tags[0]) || "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, op });
    }
  }
  for (const [tag, ops] of byTag) {
    root.append(el("h2", {}, tag));
    for (const { path, method, op } of ops) {
      const body = el("div", { class: "body" });
      if (op.description) body.append(el("p", {}, op.description));
      if (op.security && op.security.length) body.append(el("p", {}, "Auth: " + op.security.map((s) => Object.keys(s).join("+")).join(" or ")));
      if (op.parameters && op.parameters.length) {
        const t = el("table", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "in"), el("th", {}, "required"), el("th", {}, "schema")));
        for (const p of op.parameters) t.append(el("tr", {}, el("td", {}, p.name), el("td", {}, p.in), el("td", {}, String(!!p.required)), el("td", {}, JSON.stringify(p.schema || {}))));
        body.append(el("h4", {}, "Parameters"), t);
      }
      if (op.requestBody) {
        body.append(el("h4", {}, "Request body"));
        for (const [type, media] of Object.entries(op.requestBody.content || {})) body.append(el("div", {}, type), json(media.schema || {}));
      }
      body.append(el("h4", {}, "Responses"));
      for (const [status, res] of Object.entries(op.responses || {})) {
        const d = el("details", {}, el("summary", {}, status + (res.description ? " — " + res.description : "")));
        for (const [type, media] of Object.entries(res.content || {})) d.append(el("div", {}, type), json(media.schema || {}));
        body.append(d);
      }
      root.append(el("details", { class: "op" },
        el("summary", {}, el("span", { class: "method " + method }, method.toUpperCase()), el("span", { class: "path" }, path), el("span", {}, op.summary || "")),
        body));
    }
  }
  // Bodies are named schemas ($ref "#/components/schemas/X"): list them once, each with an anchor.
  const schemas = Object.entries((spec.components && spec.components.schemas) || {});
  if (schemas.length) {
    root.append(el("h2", {}, "Schemas"));
    for (const [name, schema] of schemas) {
      root.append(el("details", { class: "op", id: "schema-" + name }, el("summary", {}, el("span", { class: "path" }, name)), el("div", { class: "body" }, json(schema))));
    }
  }
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
