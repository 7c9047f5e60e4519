import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Elysia } from "elysia";
import { pageHeaders } from "./csp.ts";

/**
 * The web page at `/`: web/index.html, web/style.css (after uPlot's), the favicon, and web/app.ts
 * with its modules bundled in memory by Bun.build once per process (started when the plugin is created, i.e. at server start). Nothing
 * is loaded from outside this server, and the Content-Security-Policy says so to the browser.
 */
const WEB_DIR = fileURLToPath(new URL("../../web/", import.meta.url));

let bundle: Promise<string> | undefined;

/** The page's script, built from TypeScript on first use and kept for the life of the process. */
export function webBundle(): Promise<string> {
  bundle ??= (async () => {
    const built = await Bun.build({ entrypoints: [`${WEB_DIR}app.ts`], target: "browser", format: "esm", minify: true });
    const out = built.outputs[0];
    if (!built.success || !out) throw new Error(`web bundle failed: ${built.logs.map(String).join("\n")}`);
    return out.text();
  })();
  return bundle;
}

const headers = pageHeaders;

/** uPlot's own stylesheet, served with the page's (from the package, never a CDN). */
const UPLOT_CSS = fileURLToPath(import.meta.resolve("uplot/dist/uPlot.min.css"));

export const webRoutes = () => {
  const html = readFileSync(`${WEB_DIR}index.html`, "utf8");
  const css = `${readFileSync(UPLOT_CSS, "utf8")}\n${readFileSync(`${WEB_DIR}style.css`, "utf8")}`;
  const favicon = readFileSync(`${WEB_DIR}favicon.svg`);
  const script = webBundle();
  // A failed build is reported when the script is requested, not as an unhandled rejection at start.
  script.catch(() => {});
  return new Elysia({ name: "web-page" })
    .get("/", () => new Response(html, { headers: headers("text/html; charset=utf-8") }), { detail: { hide: true } })
    .get("/assets/style.css", () => new Response(css, { headers: headers("text/css; charset=utf-8") }), { detail: { hide: true } })
    .get("/favicon.svg", () => new Response(favicon, { headers: headers("image/svg+xml") }), { detail: { hide: true } })
    .get("/favicon.ico", () => new Response(favicon, { headers: headers("image/svg+xml") }), { detail: { hide: true } })
    .get("/assets/app.js", async () => new Response(await script, { headers: headers("text/javascript; charset=utf-8") }), { detail: { hide: true } });
};
