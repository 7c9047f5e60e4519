import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFContext, type PDFObject } from "pdf-lib";
import { eachDict } from "./pdf-walk.ts";

/**
 * Action types that run code, start a program, send data out or open another file (PDF 32000-2
 * 12.6.4): none of them belongs in a redacted copy. Navigation inside the document (GoTo), named
 * actions, and plain web links stay.
 */
const ACTIVE_ACTIONS = new Set(["Launch", "SubmitForm", "JavaScript", "ImportData", "Rendition", "GoToR", "GoToE", "RichMediaExecute"]);

/** Keys that run something when the copy is opened or used (document open action, additional actions, a JavaScript action's body). */
const TRIGGER_KEYS = ["OpenAction", "AA", "JS"].map((k) => PDFName.of(k));
const A = PDFName.of("A");
const NEXT = PDFName.of("Next");

function isActive(context: PDFContext, raw: PDFObject | undefined): boolean {
  const action = raw === undefined ? undefined : context.lookup(raw);
  if (!(action instanceof PDFDict)) return false;
  const s = action.lookup(PDFName.of("S"));
  if (s instanceof PDFName && ACTIVE_ACTIONS.has(s.decodeText())) return true;
  // A web link whose target is script is script.
  const uri = s instanceof PDFName && s.decodeText() === "URI" ? action.lookup(PDFName.of("URI")) : undefined;
  return (uri instanceof PDFString || uri instanceof PDFHexString) && /^\s*(?:javascript|vbscript|data|file):/i.test(uri.decodeText());
}

/**
 * Removes every action that runs, launches, submits or opens another file, wherever it hangs: a
 * link's or a widget's /A (inline or indirect), every step of a /Next chain at any depth (a chain
 * keeps its harmless steps), an outline item's /A, and all open and additional actions. Returns
 * how many were removed.
 */
export function removeActiveContent(context: PDFContext): number {
  let removed = 0;
  eachDict(context, (dict) => {
    for (const k of TRIGGER_KEYS) if (dict.has(k)) {
      dict.delete(k);
      removed++;
    }
    if (isActive(context, dict.get(A))) {
      dict.delete(A);
      removed++;
    }
    const next = dict.get(NEXT);
    if (next === undefined) return;
    const chain = context.lookup(next);
    if (chain instanceof PDFArray) {
      const kept = chain.asArray().filter((step) => !isActive(context, step));
      removed += chain.size() - kept.length;
      if (kept.length !== chain.size()) dict.set(NEXT, context.obj(kept));
    } else if (isActive(context, next)) {
      dict.delete(NEXT);
      removed++;
    }
  });
  // An active action still referenced from somewhere not listed above (a name tree, a private key)
  // is emptied in place, so nothing of it is written.
  eachDict(context, (dict) => {
    const s = dict.lookup(PDFName.of("S"));
    if (!(s instanceof PDFName) || !ACTIVE_ACTIONS.has(s.decodeText())) return;
    for (const k of dict.keys()) dict.delete(k);
    removed++;
  });
  return removed;
}
