import { PDFArray, PDFDict, PDFStream, type PDFContext, type PDFObject } from "pdf-lib";

/**
 * Calls `visit` on every dictionary of the document: each indirect object's, a stream's, and every
 * dictionary nested directly inside them (an action written inline in a link's /A, the inline
 * /Next of that action, ...) at any depth. An explicit stack, so a deeply nested hostile object
 * costs memory in proportion to its size, not call-stack depth. References are not followed: the
 * objects they point to are visited as indirect objects of their own.
 */
export function eachDict(context: PDFContext, visit: (dict: PDFDict) => void): void {
  const stack: PDFObject[] = [];
  for (const [, obj] of context.enumerateIndirectObjects()) stack.push(obj);
  if (context.trailerInfo.Info) stack.push(context.trailerInfo.Info);
  while (stack.length > 0) {
    const o = stack.pop()!;
    const dict = o instanceof PDFStream ? o.dict : o instanceof PDFDict ? o : undefined;
    if (dict) {
      visit(dict);
      for (const [, v] of dict.entries()) if (v instanceof PDFDict || v instanceof PDFArray || v instanceof PDFStream) stack.push(v);
    } else if (o instanceof PDFArray) {
      for (const v of o.asArray()) if (v instanceof PDFDict || v instanceof PDFArray) stack.push(v);
    }
  }
}
