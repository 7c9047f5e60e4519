/**
 * The browser page: creates a parse job, follows its SSE stream with EventSource, renders the
 * result and offers the downloads. Bundled by Bun at server start (src/http/web.ts); talks only to
 * the server that served it. The API key lives in localStorage and is sent only as a header.
 */

interface Progress { stage: string; current: number; total: number }
interface Transaction { date: string; narration: string; debit: string; credit: string; balance: string; reference: string; currency: string }
interface ParseResponse {
  format_version: string;
  metadata: Record<string, string>;
  totals: { credit: string; debit: string };
  row_wise_reconcilable: boolean;
  transactions: Transaction[];
  /** Additive reconciliation report (see the README); only the fields the page shows. */
  checks?: { first_break_index?: number | null; balances_derived?: boolean };
}
interface Envelope { error: string; error_class: string; marker_coverage?: number }
/** A redact job's `result` event: where the document is, not a ParseResponse. */
interface RedactRef { result_url?: string; redactions?: number; content_type?: string }
type Outcome = ParseResponse | RedactRef | Envelope;
const isEnvelope = (o: Outcome): o is Envelope => "error_class" in o;
interface Snapshot { state: string; result?: ParseResponse; result_url?: string; redactions?: number; error?: string; error_class?: string }
type Output = "json" | "csv" | "redact";

const KEY_STORAGE = "statement-parser.api-key";
/** Wait between polls when the stream is unavailable, ms. */
const POLL_MS = 750;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const el = {
  key: $<HTMLInputElement>("api-key"),
  forget: $<HTMLButtonElement>("forget-key"),
  form: $<HTMLFormElement>("parse-form"),
  drop: $<HTMLDivElement>("drop-zone"),
  file: $<HTMLInputElement>("file"),
  fileName: $<HTMLParagraphElement>("file-name"),
  password: $<HTMLInputElement>("password"),
  submit: $<HTMLButtonElement>("submit"),
  progressCard: $<HTMLElement>("progress-card"),
  progress: $<HTMLProgressElement>("progress"),
  progressText: $<HTMLParagraphElement>("progress-text"),
  error: $<HTMLDivElement>("error"),
  errorText: $<HTMLParagraphElement>("error-text"),
  errorDetail: $<HTMLParagraphElement>("error-detail"),
  result: $<HTMLElement>("result"),
  badge: $<HTMLSpanElement>("badge"),
  metadata: $<HTMLDListElement>("metadata"),
  rowCount: $<HTMLParagraphElement>("row-count"),
  table: $<HTMLDivElement>("table-wrap"),
  tbody: document.querySelector("#transactions tbody") as HTMLTableSectionElement,
  totalDebit: $<HTMLTableCellElement>("total-debit"),
  totalCredit: $<HTMLTableCellElement>("total-credit"),
  dlJson: $<HTMLButtonElement>("download-json"),
  dlCsv: $<HTMLButtonElement>("download-csv"),
  dlRedacted: $<HTMLButtonElement>("download-redacted"),
  dlHint: $<HTMLParagraphElement>("download-hint"),
  sampleNote: $<HTMLParagraphElement>("sample-note"),
  usageList: $<HTMLDListElement>("usage-list"),
  usageText: $<HTMLParagraphElement>("usage-text"),
  usageRefresh: $<HTMLButtonElement>("usage-refresh"),
};

let chosen: File | undefined;
const downloads: { json?: Blob; csv?: Blob; redacted?: Blob; stem: string; redactedExt: string } = { stem: "statement", redactedExt: ".pdf" };

// ---- API key --------------------------------------------------------------------------------
/** Storage can be refused (private modes, blocked site data): the page then still works for this visit. */
function remember(value: string | undefined) {
  try {
    if (value) localStorage.setItem(KEY_STORAGE, value);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    // nothing to do: the key stays in the field only
  }
}
try {
  el.key.value = localStorage.getItem(KEY_STORAGE) ?? "";
} catch {
  el.key.value = "";
}
el.key.addEventListener("change", () => {
  remember(el.key.value.trim());
  void loadUsage();
});
el.forget.addEventListener("click", () => {
  remember(undefined);
  el.key.value = "";
  el.usageList.replaceChildren();
  el.usageText.textContent = "Enter your API key to see your usage.";
});
const apiKey = () => el.key.value.trim();
const authHeaders = (): Record<string, string> => ({ authorization: `Bearer ${apiKey()}` });

// ---- File choice: picker and drop zone --------------------------------------------------------
function choose(file: File | undefined) {
  chosen = file;
  el.fileName.textContent = file ? `${file.name} (${Math.max(1, Math.round(file.size / 1024))} KB)` : "No file chosen (PDF or XLSX)";
}
el.file.addEventListener("change", () => choose(el.file.files?.[0]));
for (const type of ["dragenter", "dragover"] as const) {
  el.drop.addEventListener(type, (e) => {
    e.preventDefault();
    el.drop.classList.add("dragging");
  });
}
for (const type of ["dragleave", "drop"] as const) el.drop.addEventListener(type, () => el.drop.classList.remove("dragging"));
el.drop.addEventListener("drop", (e) => {
  e.preventDefault();
  choose(e.dataTransfer?.files[0]);
});

// ---- Errors in words ------------------------------------------------------------------------
/** What each error class means for the person at the keyboard; the server's own message follows. */
const FRIENDLY: Record<string, string> = {
  missing_key: "Enter your API key first.",
  missing_file: "Choose a PDF or XLSX statement first.",
  network_error: "The server could not be reached.",
  auth_error: "The API key was not accepted. Check it is typed correctly and has not been revoked.",
  forbidden: "This key may not do that.",
  subscription_inactive: "The subscription for this key is not active. Renew it, or use a test key.",
  encrypted_source: "The statement is password-protected. Enter its password (or the right one) and try again.",
  scanned_document: "The statement is unreadable: it is a scan or picture with no text layer, which cannot be parsed.",
  layout_unrecognized: "The statement is unreadable: no transaction table was recognised in it.",
  empty_statement: "The statement has no transactions to read.",
  unsupported_format: "That file is not a statement we can read. Upload a PDF or XLSX statement.",
  payload_too_large: "The file is too large to upload.",
  too_many_pages: "The statement has too many pages.",
  rate_limited: "Too many parses at once or this month's cap is reached. Wait a moment and try again.",
  queue_full: "The service is busy. Try again in a few seconds.",
  parse_timeout: "The statement took too long to parse.",
  validation_error: "The request was not accepted.",
};

function showError(env: Envelope) {
  el.error.hidden = false;
  el.errorText.textContent = FRIENDLY[env.error_class] ?? "The statement could not be parsed.";
  el.errorDetail.textContent = `${env.error} (${env.error_class}${env.marker_coverage ? `, marker coverage ${env.marker_coverage}%` : ""})`;
}

async function envelopeOf(res: Response): Promise<Envelope> {
  const body: unknown = await res.json().catch(() => undefined);
  if (body && typeof body === "object" && "error_class" in body) return body as Envelope;
  if (body && typeof body === "object" && "detail" in body && Array.isArray((body as { detail: unknown }).detail)) {
    const detail = (body as { detail: { loc: string[]; msg: string }[] }).detail;
    return { error: detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; "), error_class: "validation_error" };
  }
  return { error: `HTTP ${res.status}`, error_class: res.status === 401 ? "auth_error" : "internal_error" };
}

// ---- Progress -------------------------------------------------------------------------------
/** The job's stages in words; a stage the page does not know is shown by its name. */
const STAGE_WORDS: Record<string, string> = {
  queued: "Waiting for a worker",
  pages: "Reading pages",
  extract: "Reading pages",
  assemble: "Assembling transactions",
  redact: "Redacting",
};

function showProgress(p: Progress) {
  const pct = p.total > 0 ? Math.min(100, Math.floor((p.current / p.total) * 100)) : 0;
  el.progress.value = pct;
  const stage = STAGE_WORDS[p.stage] ?? p.stage;
  el.progressText.textContent = p.total > 0 ? `${stage}: ${p.current} of ${p.total} (${pct}%)` : `${stage}…`;
}

// ---- Parse ----------------------------------------------------------------------------------
el.form.addEventListener("submit", (e) => {
  e.preventDefault();
  void run();
});

async function run() {
  el.error.hidden = true;
  if (!apiKey()) return showError({ error: "No API key entered", error_class: "missing_key" });
  if (!chosen) return showError({ error: "No file chosen", error_class: "missing_file" });
  const output = (new FormData(el.form).get("output") ?? "json") as Output;
  const file = chosen;
  el.submit.disabled = true;
  el.result.hidden = true;
  el.progressCard.hidden = false;
  el.progress.value = 0;
  el.progressText.textContent = "Uploading…";
  try {
    const body = new FormData();
    body.append("pdf", file, file.name);
    if (el.password.value) body.append("password", el.password.value);
    if (output === "redact") body.append("redact", "true");
    const res = await fetch(`/v1/parse/jobs${output === "csv" ? "?format=csv" : ""}`, { method: "POST", headers: authHeaders(), body });
    if (!res.ok) {
      el.progressCard.hidden = true;
      return showError(await envelopeOf(res));
    }
    const job = (await res.json()) as { job_id: string; stream_url: string; poll_url: string };
    el.progressText.textContent = "Queued…";
    const outcome = await follow(job, output);
    if (isEnvelope(outcome)) {
      el.progressCard.hidden = true;
      return showError(outcome);
    }
    el.progress.value = 100;
    downloads.stem = file.name.replace(/\.[^.]+$/, "") || "statement";
    if (!("transactions" in outcome)) {
      const ref = outcome as RedactRef;
      el.progressText.textContent = `Done: 100% (${ref.redactions ?? 0} redactions)`;
      await prepareDownloads(job, output, undefined, ref);
      render(undefined, false);
    } else {
      const result = outcome as ParseResponse;
      // The canned sample (key past its free cap) says so in its metadata; the snapshot confirms it.
      const sample = result.metadata.bank === "sample" && (await isSample(job.poll_url));
      el.progressText.textContent = `Done: 100% (${result.transactions.length} transactions)`;
      await prepareDownloads(job, output === "redact" ? "json" : output, result);
      render(result, sample);
    }
  } catch (err) {
    el.progressCard.hidden = true;
    showError({ error: err instanceof Error ? err.message : String(err), error_class: "network_error" });
  } finally {
    el.submit.disabled = false;
    void loadUsage();
  }
}

/** Follows the job on its SSE stream; if the stream fails before the result, polls the snapshot. */
function follow(job: { job_id: string; stream_url: string; poll_url: string }, output: Output): Promise<Outcome> {
  return new Promise((resolve) => {
    const source = new EventSource(job.stream_url);
    let settled = false;
    source.onmessage = (m) => {
      try {
        showProgress(JSON.parse(m.data) as Progress);
      } catch {
        // a malformed progress line is skipped; the result event still ends the job
      }
    };
    source.addEventListener("result", (m) => {
      settled = true;
      source.close();
      resolve(JSON.parse((m as MessageEvent<string>).data) as Outcome);
    });
    source.onerror = () => {
      if (settled) return;
      settled = true;
      source.close();
      poll(job.poll_url, output).then(resolve, (e: unknown) => resolve({ error: e instanceof Error ? e.message : String(e), error_class: "network_error" }));
    };
  });
}

async function poll(pollUrl: string, output: Output): Promise<Outcome> {
  for (;;) {
    const res = await fetch(pollUrl, { headers: authHeaders() });
    if (!res.ok) return envelopeOf(res);
    const snap = (await res.json()) as Snapshot & { progress?: Progress };
    if (snap.progress) showProgress(snap.progress);
    if (snap.state === "done" && snap.result) return snap.result;
    if (snap.state === "done" && output === "redact") return { result_url: snap.result_url, redactions: snap.redactions };
    if (snap.state === "failed") return { error: snap.error ?? "The job failed", error_class: snap.error_class ?? "internal_error" };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function prepareDownloads(job: { job_id: string }, output: Output, result: ParseResponse | undefined, ref?: RedactRef) {
  downloads.json = result && new Blob([`${JSON.stringify(result, null, 2)}\n`], { type: "application/json" });
  downloads.csv = undefined;
  downloads.redacted = undefined;
  let hint = "";
  if (output !== "json") {
    // csv and redact bytes come from the result endpoint, with the key.
    const res = await fetch(ref?.result_url || `/v1/parse/jobs/${encodeURIComponent(job.job_id)}/result`, { headers: authHeaders() });
    if (!res.ok) {
      showError(await envelopeOf(res));
    } else if (output === "csv") {
      downloads.csv = await res.blob();
    } else {
      downloads.redacted = await res.blob();
      downloads.redactedExt = downloads.redacted.type.includes("spreadsheet") ? ".xlsx" : ".pdf";
      const n = ref?.redactions ?? 0;
      hint = `${n} item${n === 1 ? "" : "s"} redacted.`;
    }
  }
  el.dlJson.disabled = !downloads.json;
  el.dlCsv.disabled = !downloads.csv;
  el.dlRedacted.disabled = !downloads.redacted;
  const missing = [!downloads.json && "JSON", !downloads.csv && "CSV", !downloads.redacted && "the redacted document"].filter(Boolean);
  el.dlHint.textContent = [hint, missing.length ? `For ${missing.join(" or ")}, choose that output and parse again.` : ""].filter(Boolean).join(" ");
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
el.dlJson.addEventListener("click", () => save(downloads.json, `${downloads.stem}.json`));
el.dlCsv.addEventListener("click", () => save(downloads.csv, `${downloads.stem}.csv`));
el.dlRedacted.addEventListener("click", () => save(downloads.redacted, `${downloads.stem}.redacted${downloads.redactedExt}`));

// ---- Rendering ------------------------------------------------------------------------------
/** "1234567.50" → "1,234,567.50", on the string: amounts are never turned into floats. */
function money(s: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(s);
  if (!m) return s;
  return `${m[1]}${(m[2] ?? "").replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${m[3] ?? ""}`;
}
const day = (iso: string) => (iso ? iso.slice(0, 10) : "");
const blankZero = (s: string) => (/^0+(\.0+)?$/.test(s) ? "" : money(s));

const METADATA_LABELS: [string, string][] = [
  ["bank", "Bank"],
  ["account_holder", "Account holder"],
  ["account_number_masked", "Account number"],
  ["statement_period_start", "Period start"],
  ["statement_period_end", "Period end"],
  ["opening_balance", "Opening balance"],
  ["closing_balance", "Closing balance"],
];

function cell(tag: "td" | "dt" | "dd", text: string, className?: string) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (className) c.className = className;
  return c;
}

async function isSample(pollUrl: string): Promise<boolean> {
  const res = await fetch(pollUrl, { headers: authHeaders() });
  return res.ok && ((await res.json()) as { sample?: boolean }).sample === true;
}

/** The result section: the parsed statement, or for a redact job only its downloads. */
function render(r: ParseResponse | undefined, sample: boolean) {
  el.result.hidden = false;
  el.sampleNote.hidden = !sample;
  el.table.hidden = !r;
  el.badge.hidden = !r;
  if (!r) {
    el.metadata.replaceChildren();
    el.rowCount.textContent = "The redacted document is ready. Parse with JSON or CSV output to see the transactions.";
    el.tbody.replaceChildren();
    return;
  }
  el.badge.textContent = r.row_wise_reconcilable ? "✓ Reconciled" : "✗ Not reconciled";
  el.badge.className = `badge ${r.row_wise_reconcilable ? "ok" : "bad"}`;
  el.badge.title = r.row_wise_reconcilable
    ? "Every balance equals the previous balance plus credit minus debit."
    : "Some balance does not follow from the previous one: check the rows against the document.";
  el.metadata.replaceChildren(
    ...METADATA_LABELS.flatMap(([k, label]) => {
      const v = r.metadata[k] ?? "";
      const shown = k.endsWith("_balance") ? money(v) : k.startsWith("statement_period") ? day(v) : v;
      return [cell("dt", label), cell("dd", shown || "—")];
    }),
  );
  const breakAt = r.checks?.first_break_index ?? null;
  const count = `${r.transactions.length} transaction${r.transactions.length === 1 ? "" : "s"}`;
  const notes = [
    breakAt !== null && !r.row_wise_reconcilable ? `The balance chain first breaks at row ${breakAt + 1} (highlighted).` : "",
    r.checks?.balances_derived ? "The statement has no balance column: balances were derived from the opening balance." : "",
  ].filter(Boolean);
  el.rowCount.textContent = [count, ...notes].join(" · ");
  el.tbody.replaceChildren(
    ...r.transactions.map((t, i) => {
      const tr = document.createElement("tr");
      if (i === breakAt && !r.row_wise_reconcilable) {
        tr.className = "break";
        tr.title = "The balance on this row does not follow from the previous balance, credit and debit.";
      }
      tr.append(cell("td", day(t.date), "date"), cell("td", t.narration), cell("td", blankZero(t.debit), "num"), cell("td", blankZero(t.credit), "num"), cell("td", money(t.balance), "num"));
      return tr;
    }),
  );
  el.totalDebit.textContent = money(r.totals.debit);
  el.totalCredit.textContent = money(r.totals.credit);
}

// ---- Usage panel ----------------------------------------------------------------------------
async function loadUsage() {
  if (!apiKey()) return;
  try {
    const res = await fetch("/v1/usage", { headers: authHeaders() });
    if (!res.ok) {
      const env = await envelopeOf(res);
      el.usageList.replaceChildren();
      el.usageText.textContent = `${FRIENDLY[env.error_class] ?? "Usage is unavailable."} (${env.error})`;
      return;
    }
    const u = (await res.json()) as { tier: string; period_parses: number; monthly_cap: number; overage_parses: number; projected_overage_naira: string };
    el.usageList.replaceChildren(
      cell("dt", "Tier"), cell("dd", u.tier),
      cell("dt", "Parses"), cell("dd", `${u.period_parses} of ${u.monthly_cap}`),
      cell("dt", "Overage parses"), cell("dd", String(u.overage_parses)),
      cell("dt", "Projected overage"), cell("dd", `₦${money(u.projected_overage_naira)}`),
    );
    el.usageText.textContent = "Only successful parses count.";
  } catch {
    el.usageText.textContent = "Usage is unavailable right now.";
  }
}
el.usageRefresh.addEventListener("click", () => void loadUsage());
void loadUsage();
