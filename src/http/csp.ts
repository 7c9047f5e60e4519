/**
 * The Content-Security-Policy of the pages this server serves (the web page at `/` and the API
 * reference at `/docs`): scripts, styles and requests from this origin only, no inline script or
 * style, nothing framed, no forms posted anywhere.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers for a page or one of its assets. */
export const pageHeaders = (contentType: string): Record<string, string> => ({
  "content-type": contentType,
  "content-security-policy": PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
});
