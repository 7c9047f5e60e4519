/**
 * A parse's JSON on the main thread. The parse worker sends it as UTF-8 bytes (src/jobs/tasks.ts
 * Parsed), which is what a response sends: `utf8` holds them (the answer, a job's snapshot and its
 * stream's result event, Redis and the insights thread take them as they are) and `json`, the text,
 * is decoded from them each time something reads it as text (a CSV or workbook made from the
 * result, a completion callback's signed body). The text is not kept: beside the bytes it would
 * double what a kept result holds (59 MB on the 2,000-page bench statement with insights).
 */
export interface ResultText {
  json: string;
  /** The same JSON as UTF-8, when it arrived so (in a worker's SharedArrayBuffer, or an ArrayBuffer); an answer sends these bytes as they are. */
  utf8?: Uint8Array;
}

const decoder = new TextDecoder();

/** `fields` with `utf8` and a `json` read from it (enumerable, so the object reads as any other result). */
export function withUtf8<T extends object>(fields: T, utf8: Uint8Array): T & Required<ResultText> {
  return Object.defineProperties(fields, {
    utf8: { value: utf8, enumerable: true },
    json: { get: () => decoder.decode(utf8), enumerable: true },
  }) as T & Required<ResultText>;
}

/**
 * The body an answer sends for the JSON: the bytes when there are some, else the text. Bun sends a
 * view of shared memory as any other (test/jobs/result-text.test.ts); the DOM typings of a body
 * name only ArrayBuffer views.
 */
export const jsonBody = (r: ResultText): Uint8Array<ArrayBuffer> | string => (r.utf8 as Uint8Array<ArrayBuffer> | undefined) ?? r.json;

/** Bytes the JSON holds: the UTF-8 bytes, or two a character for the text. */
export const jsonBytesHeld = (r: ResultText): number => (r.utf8 ? r.utf8.byteLength : r.json.length * 2);
