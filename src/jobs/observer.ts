/** A job's end as its observers hear of it, from whichever instance ended it. */
export interface JobEnd {
  id: string;
  owner: string;
  state: "done" | "failed";
  errorClass?: string;
  /** The canned sample was returned instead of a parse. */
  sample: boolean;
}

/**
 * Told when a job starts and when it ends, once each, by the instance that saw it happen (the jobs
 * list in the database, completion callbacks). Must not throw; slow work is its own business.
 */
export interface JobObserver {
  started(id: string): void;
  ended(end: JobEnd): void;
}
