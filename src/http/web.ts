import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BunPlugin } from "bun";
import { Elysia } from "elysia";
import { pageHeaders } from "./csp.ts";

/**
 * The web page at `/`: web/index.html, web/style.css (after uPlot's), the favicon, and web/app.ts
 * with its modules bundled in memory by Bun.build once per process (started when the plugin is created, i.e. at server start);
 * web/batch-xlsx.ts likewise, on its first request. Nothing
 * is loaded from outside this server, and the Content-Security-Policy says so to the browser.
 */
const WEB_DIR = fileURLToPath(new URL("../../web/", import.meta.url));

const bundles = new Map<string, Promise<string>>();

/**
 * exceljs for the browser is its own prebuilt file (package.json "browser"); the bundler is pointed
 * at it explicitly, since under some runtimes (bun test) it resolved the Node entry instead, which
 * reads `process` and fails in a browser.
 */
const EXCELJS_BROWSER = fileURLToPath(import.meta.resolve("exceljs/dist/exceljs.min.js"));
const browserExceljs: BunPlugin = {
  name: "exceljs-browser",
  setup(b) {
    b.onResolve({ filter: /^exceljs$/ }, () => ({ path: EXCELJS_BROWSER }));
  },
};

/** A script of the page, built from TypeScript on first use and kept for the life of the process. */
function build(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = (async () => {
      const built = await Bun.build({ entrypoints: [`${WEB_DIR}${entry}`], target: "browser", format: "esm", minify: true, plugins: [browserExceljs] });
      const out = built.outputs[0];
      if (!built.success || !out) throw new Error(`web bundle failed: ${built.logs.map(String).join("\n")}`);
      return out.text();
    })();
    bundles.set(entry, bundle);
  }
  return bundle;
}

/** The page's own script (built at server start). */
export const webBundle = (): Promise<string> => build("app.ts");
/**
 * The batch workbook writer (exceljs, ~1 MB): a script of its own, built and fetched only when
 * someone downloads a batch as XLSX, so the page stays small for everyone else.
 */
export const batchXlsxBundle = (): Promise<string> => build("batch-xlsx.ts");

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
    .get("/assets/app.js", async () => new Response(await script, { headers: headers("text/javascript; charset=utf-8") }), { detail: { hide: true } })
    .get("/assets/batch-xlsx.js", async () => new Response(await batchXlsxBundle(), { headers: headers("text/javascript; charset=utf-8") }), { detail: { hide: true } });
};
