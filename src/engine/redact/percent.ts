/**
 * Text with every percent-encoded byte (`%37` -> "7") decoded, so personal data hidden in a URL
 * or an attribute ("?acct=%32%30%37%39…") is seen by the same rules as plain text. Runs of escapes
 * are decoded as UTF-8 where they form valid UTF-8 and byte by byte otherwise; a '%' not followed by
 * two hex digits stays as written.
 */
export function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
  });
}
