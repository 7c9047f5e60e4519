/** Talking to the server that served the page: the key, jobs, their stream, results and usage. */
import type { BankList, Envelope, JobRef, Outcome, Output, Progress, Snapshot } from "./types.ts";

const KEY_STORAGE = "statement-parser.api-key";
/** Wait between polls when the stream is unavailable, ms. */
const POLL_MS = 750;

/** Storage can be refused (private modes, blocked site data): the page then still works for this visit. */
export function rememberKey(value: string | undefined): void {
  try {
    if (value) localStorage.setItem(KEY_STORAGE, value);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    // nothing to do: the key stays in the field only
  }
}

export function storedKey(): string {
  try {
    return localStorage.getItem(KEY_STORAGE) ?? "";
  } catch {
    return "";
  }
}

export class Api {
  constructor(private readonly key: () => string) {}

  headers(): Record<string, string> {
    return { authorization: `Bearer ${this.key()}` };
  }

  async createJob(file: File, o: { output: Output; password: string }): Promise<JobRef | Envelope> {
    const body = new FormData();
    body.append("pdf", file, file.name);
    if (o.password) body.append("password", o.password);
    if (o.output === "redact") body.append("redact", "true");
    const res = await fetch(`/v1/parse/jobs${o.output === "csv" ? "?format=csv" : ""}`, { method: "POST", headers: this.headers(), body });
    if (!res.ok) return envelopeOf(res);
    return (await res.json()) as JobRef;
  }

  /** Asks the server to stop the job; its stream then ends with a job_cancelled envelope. */
  async cancel(job: JobRef): Promise<void> {
    await fetch(job.poll_url, { method: "DELETE", headers: this.headers() });
  }

  /** The finished job's result in a format, from the same parse (no second metered parse). */
  async result(job: JobRef, format?: "json" | "csv" | "xlsx"): Promise<Blob | Envelope> {
    const res = await fetch(`/v1/parse/jobs/${encodeURIComponent(job.job_id)}/result${format ? `?format=${format}` : ""}`, { headers: this.headers() });
    if (!res.ok) return envelopeOf(res);
    return res.blob();
  }

  /** Bank names by id, for showing `metadata.bank`; empty when the list cannot be had (the ids are shown then). */
  async bankNames(): Promise<Map<string, string>> {
    try {
      const res = await fetch("/v1/banks", { headers: this.headers() });
      if (!res.ok) return new Map();
      return new Map(((await res.json()) as BankList).banks.map((b) => [b.id, b.name]));
    } catch {
      return new Map();
    }
  }

  async snapshot(job: JobRef): Promise<Snapshot | Envelope> {
    const res = await fetch(job.poll_url, { headers: this.headers() });
    if (!res.ok) return envelopeOf(res);
    return (await res.json()) as Snapshot;
  }

  /** Follows the job on its SSE stream; if the stream fails before the result, polls the snapshot. */
  follow(job: JobRef, output: Output, onProgress: (p: Progress) => void): Promise<Outcome> {
    return new Promise((resolve) => {
      const source = new EventSource(job.stream_url);
      let settled = false;
      source.onmessage = (m) => {
        try {
          onProgress(JSON.parse(m.data) as Progress);
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
        this.poll(job, output, onProgress).then(resolve, (e: unknown) => resolve({ error: e instanceof Error ? e.message : String(e), error_class: "network_error" }));
      };
    });
  }

  private async poll(job: JobRef, output: Output, onProgress: (p: Progress) => void): Promise<Outcome> {
    for (;;) {
      const snap = await this.snapshot(job);
      if ("error_class" in snap && !("state" in snap)) return snap;
      const s = snap as Snapshot;
      if (s.progress) onProgress(s.progress);
      if (s.state === "done" && s.result) return s.result;
      if (s.state === "done" && output === "redact") return { result_url: s.result_url, redactions: s.redactions };
      if (s.state === "failed") return { error: s.error ?? "The job failed", error_class: s.error_class ?? "internal_error" };
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

/** Any error response as an envelope: the server's own, a 422 validation body, or the bare status. */
export async function envelopeOf(res: Response): Promise<Envelope> {
  const body: unknown = await res.json().catch(() => undefined);
  if (body && typeof body === "object" && "error_class" in body) return body as Envelope;
  if (body && typeof body === "object" && "detail" in body && Array.isArray((body as { detail: unknown }).detail)) {
    const detail = (body as { detail: { loc: string[]; msg: string }[] }).detail;
    return { error: detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; "), error_class: "validation_error" };
  }
  return { error: `HTTP ${res.status}`, error_class: res.status === 401 ? "auth_error" : "internal_error" };
}
