/**
 * The browser page: takes one or many statements (picker or drop), parses them one after another
 * as jobs followed on their SSE streams (Cancel stops the batch), shows each file's progress and
 * verdict in a queue, renders a chosen result with its checks, charts and a paged table, and
 * downloads each parse or one CSV/XLSX of the whole batch. Bundled by Bun at server start
 * (src/http/web.ts); talks only to the server that served it. The API key lives in localStorage
 * and is sent only as a header.
 */
import { Api, rememberKey, storedKey } from "./api.ts";
import { batchCsv } from "./batch-files.ts";
import type { JobWorkbook } from "./batch-xlsx.ts";
import { Charts } from "./charts.ts";
import { $, node } from "./dom.ts";
import { money } from "./format.ts";
import { ProgressView } from "./progress.ts";
import { type QueueItem, QueueView, stemOf } from "./queue.ts";
import { ResultView } from "./result-view.ts";
import { TransactionTable } from "./table.ts";
import { InsightsView } from "./insights.ts";
import { type Envelope, isEnvelope, isParse, type Output, type ParseResponse, type RedactRef } from "./types.ts";
import { statementHeadline } from "./verdict.ts";
import { FRIENDLY, friendly } from "./words.ts";

const el = {
  key: $<HTMLInputElement>("api-key"),
  forget: $<HTMLButtonElement>("forget-key"),
  form: $<HTMLFormElement>("parse-form"),
  drop: $<HTMLDivElement>("drop-zone"),
  file: $<HTMLInputElement>("file"),
  fileName: $<HTMLParagraphElement>("file-name"),
  password: $<HTMLInputElement>("password"),
  submit: $<HTMLButtonElement>("submit"),
  error: $<HTMLDivElement>("error"),
  errorText: $<HTMLParagraphElement>("error-text"),
  errorDetail: $<HTMLParagraphElement>("error-detail"),
  batch: $<HTMLElement>("batch"),
  batchSummary: $<HTMLParagraphElement>("batch-summary"),
  batchCsv: $<HTMLButtonElement>("batch-csv"),
  batchXlsx: $<HTMLButtonElement>("batch-xlsx"),
  batchHint: $<HTMLParagraphElement>("batch-hint"),
  clear: $<HTMLButtonElement>("queue-clear"),
  dlJson: $<HTMLButtonElement>("download-json"),
  dlCsv: $<HTMLButtonElement>("download-csv"),
  dlRedacted: $<HTMLButtonElement>("download-redacted"),
  dlHint: $<HTMLParagraphElement>("download-hint"),
  usageList: $<HTMLDListElement>("usage-list"),
  usageText: $<HTMLParagraphElement>("usage-text"),
  usageRefresh: $<HTMLButtonElement>("usage-refresh"),
};

const apiKey = () => el.key.value.trim();
const api = new Api(apiKey);
const progress = new ProgressView();
const table = new TransactionTable();
const result = new ResultView(table, new Charts());
const insights = new InsightsView(table, apiKey);
const queue = new QueueView($<HTMLOListElement>("queue"), (item) => void view(item));

let running: QueueItem | undefined;
let stopping = false;
let shown: QueueItem | undefined;
let banks: Promise<Map<string, string>> | undefined;
const bankNames = () => (banks ??= api.bankNames());

// ---- API key --------------------------------------------------------------------------------
el.key.value = storedKey();
el.key.addEventListener("change", () => {
  rememberKey(apiKey());
  banks = undefined;
  void loadUsage();
});
el.forget.addEventListener("click", () => {
  rememberKey(undefined);
  el.key.value = "";
  el.usageList.replaceChildren();
  el.usageText.textContent = "Enter your API key to see your usage.";
});

// ---- File choice: picker and drop zone, any number of files -----------------------------------
function choose(files: File[]) {
  if (files.length === 0) return;
  queue.add(files);
  el.fileName.textContent = queue.describe();
  el.batch.hidden = false;
  updateBatch();
}
el.file.addEventListener("change", () => {
  choose(Array.from(el.file.files ?? []));
  el.file.value = ""; // the same file can be chosen again
});
for (const type of ["dragenter", "dragover"] as const) {
  el.drop.addEventListener(type, (e) => {
    e.preventDefault();
    el.drop.classList.add("dragging");
  });
}
for (const type of ["dragleave", "drop"] as const) el.drop.addEventListener(type, () => el.drop.classList.remove("dragging"));
el.drop.addEventListener("drop", (e) => {
  e.preventDefault();
  choose(Array.from(e.dataTransfer?.files ?? []));
});
el.clear.addEventListener("click", () => {
  if (running) return;
  queue.clear();
  el.fileName.textContent = queue.describe();
  el.batch.hidden = true;
});

// ---- Errors in words ------------------------------------------------------------------------
function showError(env: Envelope, fileName?: string) {
  el.error.hidden = false;
  el.errorText.textContent = friendly(env.error_class);
  el.errorDetail.textContent = `${fileName ? `${fileName}: ` : ""}${env.error} (${env.error_class}${env.marker_coverage ? `, marker coverage ${env.marker_coverage}%` : ""})`;
}

// ---- Parse the queue, one file after another ------------------------------------------------
el.form.addEventListener("submit", (e) => {
  e.preventDefault();
  void runQueue();
});

progress.cancel.addEventListener("click", () => {
  stopping = true;
  progress.cancel.disabled = true;
  for (const item of queue.waiting) queue.set(item, "cancelled", "Not sent: cancelled");
  if (running?.job) void api.cancel(running.job);
});

async function runQueue() {
  el.error.hidden = true;
  if (!apiKey()) return showError({ error: "No API key entered", error_class: "missing_key" });
  const todo = queue.waiting;
  if (todo.length === 0) return showError({ error: "No file chosen", error_class: "missing_file" });
  const output = (new FormData(el.form).get("output") ?? "json") as Output;
  el.submit.disabled = true;
  el.clear.disabled = true;
  result.hide();
  shown = undefined;
  stopping = false;
  let first = true;
  try {
    for (const [n, item] of todo.entries()) {
      if (stopping || item.state !== "waiting") continue;
      progress.start(todo.length > 1 ? `File ${n + 1} of ${todo.length}: ${item.file.name}` : undefined);
      const refused = await parseOne(item, output);
      if (finished(item) && first) {
        first = false;
        await view(item);
        result.scrollTo();
      }
      // A refused key fails every file the same way: the rest are not sent.
      if (refused) for (const rest of queue.waiting) queue.set(rest, "failed", "Not sent: the key was refused");
      updateBatch();
    }
  } finally {
    running = undefined;
    el.submit.disabled = false;
    el.clear.disabled = false;
    updateBatch();
    void loadUsage();
  }
}

/** Read through a call: the state changed while the job ran, which a narrowed `item.state` would hide from the compiler. */
const finished = (item: QueueItem) => item.state === "done";

/** "38 transactions", or "35 transactions in 2 accounts" (the top level holds only the first section's rows). */
function rowsText(r: ParseResponse): string {
  const sections = r.accounts && r.accounts.length > 0 ? r.accounts : [r];
  const rows = sections.reduce((n, s) => n + s.transactions.length, 0).toLocaleString("en");
  return sections.length > 1 ? `${rows} transactions in ${sections.length} accounts` : `${rows} transactions`;
}

/** One file as a job, to its end; true when the server refused the key. */
async function parseOne(item: QueueItem, output: Output): Promise<boolean> {
  running = item;
  queue.set(item, "running", "Uploading…");
  try {
    const job = await api.createJob(item.file, { output, password: el.password.value });
    if ("error_class" in job) return fail(item, job);
    item.job = job;
    progress.queued();
    queue.set(item, "running", "Queued…");
    const outcome = await api.follow(job, output, (p) => {
      progress.update(p);
      queue.progress(item, p);
    });
    if (isEnvelope(outcome)) return fail(item, outcome);
    if (!isParse(outcome)) {
      const ref = outcome as RedactRef;
      progress.finish(`Done: 100% (${ref.redactions ?? 0} redactions)`);
      await redactedDownload(item, ref);
      queue.set(item, "done", `${ref.redactions ?? 0} redactions`);
      queue.verdict(item, undefined, { text: "Redacted", level: "ok" });
      return false;
    }
    item.result = outcome;
    progress.finish(`Done: 100% (${outcome.transactions.length} transactions)`);
    await prepareDownloads(item, outcome);
    queue.set(item, "done", rowsText(outcome));
    queue.verdict(item, statementHeadline(outcome));
    return false;
  } catch (err) {
    return fail(item, { error: err instanceof Error ? err.message : String(err), error_class: "network_error" });
  } finally {
    running = undefined;
  }
}

function fail(item: QueueItem, env: Envelope): boolean {
  item.error = env;
  progress.hide();
  queue.set(item, env.error_class === "job_cancelled" ? "cancelled" : "failed", friendly(env.error_class));
  queue.verdict(item, undefined, { text: env.error_class === "job_cancelled" ? "Cancelled" : "Failed", level: "bad" });
  showError(env, queue.items.length > 1 ? item.file.name : undefined);
  return env.error_class === "auth_error" || env.error_class === "forbidden" || env.error_class === "subscription_inactive";
}

// ---- One parse's downloads ------------------------------------------------------------------
/** The redacted file keeps its kind: a PDF, an XLSX workbook, or an .xls (HTML or XML spreadsheet). */
function redactedExtension(type: string, uploaded: string): string {
  if (type.includes("pdf")) return ".pdf";
  if (type.includes("openxmlformats")) return ".xlsx";
  const own = /\.(xls|html?|xml)$/i.exec(uploaded)?.[0];
  return own ? own.toLowerCase() : ".xls";
}

async function redactedDownload(item: QueueItem, ref: RedactRef) {
  if (!item.job) return;
  const got = await api.result(item.job);
  if ("error_class" in got) return showError(got, item.file.name);
  item.downloads.redacted = got;
  item.downloads.redactedExt = redactedExtension(ref.content_type || got.type, item.file.name);
  item.downloads.redactions = ref.redactions ?? 0;
}

async function prepareDownloads(item: QueueItem, r: ParseResponse) {
  item.downloads.json = new Blob([`${JSON.stringify(r, null, 2)}\n`], { type: "application/json" });
  if (!item.job) return;
  // A json job converts to CSV (and a csv job's bytes are its result) without another parse.
  const got = await api.result(item.job, "csv");
  if ("error_class" in got) showError(got, item.file.name);
  else item.downloads.csv = got;
}

/** Shows one finished file's result and points the download buttons at it. */
async function view(item: QueueItem) {
  shown = item;
  queue.selected(item);
  const d = item.downloads;
  el.dlJson.disabled = !d.json;
  el.dlCsv.disabled = !d.csv;
  el.dlRedacted.disabled = !d.redacted;
  el.dlRedacted.hidden = !d.redacted;
  const n = d.redactions ?? 0;
  el.dlHint.textContent = d.redacted ? `${n} item${n === 1 ? "" : "s"} redacted. Redaction is its own parse: choose JSON or CSV to see the transactions.` : "";
  result.show(item.file.name, item.result, await bankNames());
  void insights.show(item.job, item.result);
}

function save(blob: Blob | undefined, name: string) {
  if (!blob) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
el.dlJson.addEventListener("click", () => shown && save(shown.downloads.json, `${stemOf(shown.file.name)}.json`));
el.dlCsv.addEventListener("click", () => shown && save(shown.downloads.csv, `${stemOf(shown.file.name)}.csv`));
el.dlRedacted.addEventListener("click", () => shown && save(shown.downloads.redacted, `${stemOf(shown.file.name)}.redacted${shown.downloads.redactedExt}`));

// ---- The batch: one file of every parsed statement --------------------------------------------
/** The statements that go into the batch files: parsed, and not the canned sample. */
const batchResults = (): ParseResponse[] => queue.items.flatMap((i) => (i.state === "done" && i.result && i.result.sample !== true ? [i.result] : []));

function updateBatch() {
  const count = (s: QueueItem["state"]) => queue.items.filter((i) => i.state === s).length;
  const parsed = batchResults();
  const rows = parsed.reduce((a, r) => a + (r.accounts?.length ? r.accounts : [r]).reduce((b, s) => b + s.transactions.length, 0), 0);
  const parts = [`${count("done")} parsed`, `${count("failed")} failed`];
  if (count("cancelled")) parts.push(`${count("cancelled")} cancelled`);
  if (count("waiting") || count("running")) parts.push(`${count("waiting") + count("running")} to go`);
  el.batchSummary.textContent = `${queue.items.length} file${queue.items.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
  el.batchCsv.disabled = parsed.length === 0 || running !== undefined;
  el.batchXlsx.disabled = el.batchCsv.disabled;
  const samples = queue.items.filter((i) => i.result?.sample === true).length;
  el.batchHint.textContent =
    parsed.length === 0
      ? "The batch files hold every parsed statement's rows under one header."
      : `${parsed.length} statement${parsed.length === 1 ? "" : "s"}, ${rows.toLocaleString("en")} rows under one header (bank and account columns tell them apart)${samples ? `; ${samples} sample result${samples === 1 ? "" : "s"} left out` : ""}.`;
}

el.batchCsv.addEventListener("click", () => save(batchCsv(batchResults()), "statements.csv"));
el.batchXlsx.addEventListener("click", () => void downloadXlsx());

/** The server's workbook of each statement in the batch (converted from its kept result, not parsed again). */
async function jobWorkbooks(): Promise<JobWorkbook[]> {
  const items = queue.items.filter((i) => i.state === "done" && i.job && i.result && i.result.sample !== true);
  return Promise.all(
    items.map(async (i) => {
      const got = i.job ? await api.result(i.job, "xlsx") : undefined;
      if (!got || "error_class" in got) throw new Error(`${i.file.name}: ${got?.error ?? "no job"}`);
      return { name: i.file.name, bytes: await got.arrayBuffer() };
    }),
  );
}

async function downloadXlsx() {
  el.batchXlsx.disabled = true;
  const label = el.batchXlsx.textContent;
  el.batchXlsx.textContent = "Preparing XLSX…";
  try {
    // exceljs is loaded only now, from this server, as its own script.
    // A URL made at run time: the bundler must leave this import to the browser.
    const url = new URL("/assets/batch-xlsx.js", location.href).href;
    const [{ batchXlsx }, books] = await Promise.all([import(url) as Promise<typeof import("./batch-xlsx.ts")>, jobWorkbooks()]);
    save(await batchXlsx(books), "statements.xlsx");
  } catch (e) {
    showError({ error: e instanceof Error ? e.message : String(e), error_class: "network_error" });
  } finally {
    el.batchXlsx.textContent = label;
    el.batchXlsx.disabled = false;
  }
}

// ---- Usage panel ----------------------------------------------------------------------------
async function loadUsage() {
  if (!apiKey()) return;
  try {
    const res = await fetch("/v1/usage", { headers: api.headers() });
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as Partial<Envelope>;
      el.usageList.replaceChildren();
      el.usageText.textContent = `${FRIENDLY[body.error_class ?? ""] ?? "Usage is unavailable."} (${body.error ?? `HTTP ${res.status}`})`;
      return;
    }
    const u = (await res.json()) as { tier: string; period_parses: number; monthly_cap: number; overage_parses: number; projected_overage_naira: string };
    el.usageList.replaceChildren(
      node("dt", "Tier"), node("dd", u.tier),
      node("dt", "Parses"), node("dd", `${u.period_parses} of ${u.monthly_cap}`),
      node("dt", "Overage parses"), node("dd", String(u.overage_parses)),
      node("dt", "Projected overage"), node("dd", `₦${money(u.projected_overage_naira)}`),
    );
    el.usageText.textContent = "Only successful parses count.";
  } catch {
    el.usageText.textContent = "Usage is unavailable right now.";
  }
}
el.usageRefresh.addEventListener("click", () => void loadUsage());
void loadUsage();
