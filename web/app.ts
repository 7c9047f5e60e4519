/**
 * The browser page: creates a parse job, follows its SSE stream with EventSource (Cancel stops it),
 * renders the result with its checks, charts and a paged table, and offers the downloads of that one
 * parse. Bundled by Bun at server start (src/http/web.ts); talks only to the server that served it.
 * The API key lives in localStorage and is sent only as a header.
 */
import { Api, rememberKey, storedKey } from "./api.ts";
import { Charts } from "./charts.ts";
import { renderChecks } from "./checks.ts";
import { $, node } from "./dom.ts";
import { day, money, plural } from "./format.ts";
import { ProgressView } from "./progress.ts";
import { TransactionTable } from "./table.ts";
import { type Envelope, isEnvelope, isParse, type JobRef, type Output, type ParseResponse, type RedactRef, type Section } from "./types.ts";

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
  result: $<HTMLElement>("result"),
  tabs: $<HTMLDivElement>("sections"),
  badge: $<HTMLSpanElement>("badge"),
  metadata: $<HTMLDListElement>("metadata"),
  checks: $<HTMLElement>("checks"),
  rowCount: $<HTMLParagraphElement>("row-count"),
  details: $<HTMLElement>("details"),
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

const apiKey = () => el.key.value.trim();
const api = new Api(apiKey);
const progress = new ProgressView();
const table = new TransactionTable();
const charts = new Charts();

let chosen: File | undefined;
let running: JobRef | undefined;
const downloads: { json?: Blob; csv?: Blob; redacted?: Blob; stem: string; redactedExt: string } = { stem: "statement", redactedExt: ".pdf" };

// ---- API key --------------------------------------------------------------------------------
el.key.value = storedKey();
el.key.addEventListener("change", () => {
  rememberKey(apiKey());
  void loadUsage();
});
el.forget.addEventListener("click", () => {
  rememberKey(undefined);
  el.key.value = "";
  el.usageList.replaceChildren();
  el.usageText.textContent = "Enter your API key to see your usage.";
});

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
  job_cancelled: "The parse was cancelled. Nothing was counted.",
  job_expired: "That result has expired. Parse the statement again.",
  database_unavailable: "The service cannot reach its database right now. Try again in a few seconds.",
  upload_aborted: "The upload was interrupted. Try again.",
  upload_timeout: "The upload stalled and was stopped. Check your connection and try again.",
};

function showError(env: Envelope) {
  el.error.hidden = false;
  el.errorText.textContent = FRIENDLY[env.error_class] ?? "The statement could not be parsed.";
  el.errorDetail.textContent = `${env.error} (${env.error_class}${env.marker_coverage ? `, marker coverage ${env.marker_coverage}%` : ""})`;
}

// ---- Parse ----------------------------------------------------------------------------------
el.form.addEventListener("submit", (e) => {
  e.preventDefault();
  void run();
});

progress.cancel.addEventListener("click", () => {
  if (!running) return;
  progress.cancel.disabled = true;
  void api.cancel(running);
});

async function run() {
  el.error.hidden = true;
  if (!apiKey()) return showError({ error: "No API key entered", error_class: "missing_key" });
  if (!chosen) return showError({ error: "No file chosen", error_class: "missing_file" });
  const output = (new FormData(el.form).get("output") ?? "json") as Output;
  const file = chosen;
  el.submit.disabled = true;
  el.result.hidden = true;
  progress.start();
  try {
    const job = await api.createJob(file, { output, password: el.password.value });
    if ("error_class" in job) {
      progress.hide();
      return showError(job);
    }
    running = job;
    progress.queued();
    const outcome = await api.follow(job, output, (p) => progress.update(p));
    running = undefined;
    if (isEnvelope(outcome)) {
      progress.hide();
      return showError(outcome);
    }
    downloads.stem = file.name.replace(/\.[^.]+$/, "") || "statement";
    if (!isParse(outcome)) {
      const ref = outcome as RedactRef;
      progress.finish(`Done: 100% (${ref.redactions ?? 0} redactions)`);
      await prepareDownloads(job, output, undefined, file.name, ref);
      render(undefined, false);
    } else {
      // The canned sample (key past its free cap) says so in its JSON.
      const sample = outcome.sample === true;
      progress.finish(`Done: 100% (${outcome.transactions.length} transactions)`);
      await prepareDownloads(job, output, outcome, file.name);
      render(outcome, sample);
    }
  } catch (err) {
    progress.hide();
    showError({ error: err instanceof Error ? err.message : String(err), error_class: "network_error" });
  } finally {
    running = undefined;
    el.submit.disabled = false;
    void loadUsage();
  }
}

// ---- Downloads: every format of the one parse -------------------------------------------------
/** The redacted file keeps its kind: a PDF, an XLSX workbook, or an .xls (HTML or XML spreadsheet). */
function redactedExtension(type: string, uploaded: string): string {
  if (type.includes("pdf")) return ".pdf";
  if (type.includes("openxmlformats")) return ".xlsx";
  const own = /\.(xls|html?|xml)$/i.exec(uploaded)?.[0];
  return own ? own.toLowerCase() : ".xls";
}

async function prepareDownloads(job: JobRef, output: Output, result: ParseResponse | undefined, uploaded: string, ref?: RedactRef) {
  downloads.json = result && new Blob([`${JSON.stringify(result, null, 2)}\n`], { type: "application/json" });
  downloads.csv = undefined;
  downloads.redacted = undefined;
  let hint = "";
  if (output === "redact") {
    const got = await api.result(job);
    if ("error_class" in got) showError(got);
    else {
      downloads.redacted = got;
      downloads.redactedExt = redactedExtension(ref?.content_type || got.type, uploaded);
      const n = ref?.redactions ?? 0;
      hint = `${n} item${n === 1 ? "" : "s"} redacted. Redaction is its own parse: choose JSON or CSV to see the transactions.`;
    }
  } else {
    // A json job converts to CSV (and a csv job's bytes are its result) without another parse.
    const got = await api.result(job, "csv");
    if ("error_class" in got) showError(got);
    else downloads.csv = got;
  }
  el.dlJson.disabled = !downloads.json;
  el.dlCsv.disabled = !downloads.csv;
  el.dlRedacted.disabled = !downloads.redacted;
  el.dlRedacted.hidden = output !== "redact";
  el.dlHint.textContent = hint;
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
const METADATA_LABELS: [string, string][] = [
  ["bank", "Bank"],
  ["account_holder", "Account holder"],
  ["account_number_masked", "Account number"],
  ["statement_period_start", "Period start"],
  ["statement_period_end", "Period end"],
  ["opening_balance", "Opening balance"],
  ["closing_balance", "Closing balance"],
];

/** The result section: the parsed statement (a tab per account section), or for a redact job only its downloads. */
function render(r: ParseResponse | undefined, sample: boolean) {
  el.result.hidden = false;
  el.sampleNote.hidden = !sample;
  el.details.hidden = !r;
  el.badge.hidden = !r;
  charts.clear();
  if (!r) {
    el.tabs.replaceChildren();
    el.tabs.hidden = true;
    el.metadata.replaceChildren();
    el.checks.replaceChildren();
    el.rowCount.textContent = "The redacted document is ready.";
    return;
  }
  const sections: Section[] = r.accounts && r.accounts.length > 0 ? r.accounts : [r];
  el.tabs.hidden = sections.length < 2;
  el.tabs.replaceChildren(
    ...sections.map((s, i) => {
      const b = node("button", `${s.metadata.account_number_masked || `Account ${i + 1}`} · ${plural(s.transactions.length, "row")}`, "tab");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.addEventListener("click", () => showSection(sections, i, r));
      return b;
    }),
  );
  showSection(sections, 0, r);
}

function showSection(sections: Section[], i: number, r: ParseResponse) {
  const s = sections[i] ?? r;
  Array.from(el.tabs.children).forEach((b, j) => b.setAttribute("aria-selected", String(j === i)));
  el.badge.textContent = s.row_wise_reconcilable ? "✓ Reconciled" : "✗ Not reconciled";
  el.badge.className = `badge ${s.row_wise_reconcilable ? "ok" : "bad"}`;
  el.badge.title = s.row_wise_reconcilable
    ? "Every balance equals the previous balance plus credit minus debit."
    : "Some balance does not follow from the previous one: check the rows against the document.";
  el.metadata.replaceChildren(
    ...METADATA_LABELS.flatMap(([k, label]) => {
      const v = s.metadata[k] ?? "";
      const shown = k.endsWith("_balance") ? money(v) : k.startsWith("statement_period") ? day(v) : v;
      return [node("dt", label), node("dd", shown || "—")];
    }),
  );
  // Integrity is about the whole document, so it is shown with every section.
  renderChecks(el.checks, s, r.integrity);
  const breakAt = s.row_wise_reconcilable ? null : (s.checks?.first_break_index ?? null);
  const notes = [
    breakAt !== null ? `The balance chain first breaks at row ${breakAt + 1} (highlighted).` : "",
    s.checks?.balances_derived ? "The statement has no balance column: balances were derived from the opening balance." : "",
  ].filter(Boolean);
  el.rowCount.textContent = [plural(s.transactions.length, "transaction"), ...notes].join(" · ");
  table.show(s.transactions, { breakAt, roundingRows: s.checks?.kobo_rounding_rows ?? [] });
  el.totalDebit.textContent = money(s.totals.debit);
  el.totalCredit.textContent = money(s.totals.credit);
  charts.show(s.transactions);
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
