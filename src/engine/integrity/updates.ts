import type { ByteFacts, IntegritySignal } from "./types.ts";

/**
 * Incremental updates: "edit and save" in most PDF editors appends the changed objects after the
 * original file instead of rewriting it. An update that replaces what a page draws is a content
 * change; one that only adds a signature, form values or annotations is normal (signing appends
 * one by design), and is only noted.
 */
export function updateSignals(facts: ByteFacts): IntegritySignal[] {
  const out: IntegritySignal[] = [];
  for (const u of facts.updates) {
    if (u.contentPages.length > 0) {
      const pages = u.contentPages.length === 1 ? `page ${u.contentPages[0]}` : `pages ${u.contentPages.slice(0, 6).join(", ")}${u.contentPages.length > 6 ? "…" : ""}`;
      out.push({
        code: "update_changes_content",
        severity: "warn",
        detail: `Incremental update ${u.index} (saved after the original) replaces what ${pages} draw${u.contentPages.length === 1 ? "s" : ""}.`,
        ...(u.contentPages.length === 1 ? { page: u.contentPages[0] } : {}),
      });
    } else {
      out.push({
        code: "incremental_update",
        severity: "info",
        detail: `Incremental update ${u.index} changes ${u.objects} object${u.objects === 1 ? "" : "s"} but no page content${u.signature ? " (a digital signature)" : ""}.`,
      });
    }
  }
  for (const c of facts.covered) out.push({ code: "covered_text", severity: "high", page: c.page, detail: `Page ${c.page}: ${c.detail}` });
  return out;
}
