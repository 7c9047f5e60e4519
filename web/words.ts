/** What each error class means for the person at the keyboard; the server's own message follows it on the page. */
export const FRIENDLY: Record<string, string> = {
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

export const friendly = (errorClass: string): string => FRIENDLY[errorClass] ?? "The statement could not be parsed.";
