import { AppError } from "../errors.ts";

export interface GateOptions {
  /** Documents parsed at once (one per worker thread). */
  concurrency: number;
  /** Documents allowed to wait for a slot; beyond it, 503 queue_full. */
  maxQueued: number;
  /** Documents one API key may have waiting or running; beyond it, 429 rate_limited. */
  maxPerKey: number;
  /** Retry-After for queue_full, seconds. */
  retryAfterS?: number;
  /** Bytes of uploads the server may hold in memory at once (read, queued or parsing); beyond it, 503. */
  maxInflightBytes?: number;
  /**
   * The share of maxInflightBytes one owner's uploads may hold, all its keys together; beyond it,
   * 429. Without it one owner's trickling uploads could fill the budget and starve every other owner.
   */
  maxOwnerInflightBytes?: number;
}

/**
 * A caller's place taken before its upload is read: one of its key's in-flight places and the
 * upload's declared bytes from the server-wide budget. Handed to enter() once the upload is read;
 * released with the ticket (or by itself when the upload is refused).
 */
export interface Hold {
  readonly key: string;
  readonly bytes: number;
  /** Gives the key place and the bytes back; idempotent. */
  release(): void;
}

/** A Hold whose `giveBack` runs on the first release only, however often release() is called. */
export function holdOf(key: string, bytes: number, giveBack: () => void): Hold {
  let released = false;
  return {
    key,
    bytes,
    release: () => {
      if (released) return;
      released = true;
      giveBack();
    },
  };
}

export interface Ticket {
  /** Resolves when the document may start; never rejects. */
  readonly started: Promise<void>;
  /**
   * A running document gives its running place to the next one waiting while it keeps its key
   * place and upload bytes until release (a scan gone to the OCR pool holds no parse thread).
   */
  stepAside(): void;
  /** Gives the slot (or the place in the queue) back; idempotent. */
  release(): void;
}

export const queueFull = (retryAfter: number) =>
  new AppError("queue_full", 503, "Too many documents are waiting to be parsed; retry shortly", { retryAfter });
export const rateLimited = (limit: number) =>
  new AppError("rate_limited", 429, `At most ${limit} parses may be in flight per API key`, { retryAfter: 1 });
export const uploadBudgetFull = (retryAfter: number) =>
  new AppError("queue_full", 503, "Too many uploads are being received or parsed; retry shortly", { retryAfter });
export const ownerUploadShareFull = (limit: number, retryAfter: number) =>
  new AppError("rate_limited", 429, `This account's uploads in flight already hold their share of the server's upload memory (${limit} bytes); retry when one ends`, { retryAfter });
export const shuttingDown = () => new AppError("service_unavailable", 503, "The service is shutting down", { retryAfter: 5 });

/**
 * Admission control for parses, sync and jobs alike: a FIFO of documents in front of the pool,
 * bounded in length and per key. Refusals are immediate, so a caller is never left waiting on a
 * queue it cannot get into.
 */
export class DocumentGate {
  private running = 0;
  private readonly waiting: Array<{ start: () => void }> = [];
  private readonly perKey = new Map<string, number>();
  private readonly perOwnerBytes = new Map<string, number>();
  private inflightBytes = 0;
  private closed = false;

  constructor(private readonly options: GateOptions) {}

  get runningCount(): number {
    return this.running;
  }
  get queuedCount(): number {
    return this.waiting.length;
  }
  /** Upload bytes currently held by admitted callers. */
  get heldBytes(): number {
    return this.inflightBytes;
  }

  /** Refuses new documents from now on (shutdown); those admitted carry on. */
  close(): void {
    this.closed = true;
  }

  /** Upload bytes `owner`'s admitted callers hold now. */
  ownerBytes(owner: string): number {
    return this.perOwnerBytes.get(owner) ?? 0;
  }

  /** Throws what enter() would throw now, without taking a place (to refuse before reading an upload). */
  check(key: string, bytes = 0, owner?: string): void {
    this.checkKey(key, bytes, owner);
    this.checkQueue();
  }

  private checkKey(key: string, bytes: number, owner: string | undefined): void {
    const { maxPerKey } = this.options;
    if (this.closed) throw shuttingDown();
    if ((this.perKey.get(key) ?? 0) >= maxPerKey) throw rateLimited(maxPerKey);
    this.checkBytes(bytes, owner);
  }

  private checkBytes(bytes: number, owner: string | undefined): void {
    const { maxInflightBytes = Number.POSITIVE_INFINITY, maxOwnerInflightBytes = Number.POSITIVE_INFINITY, retryAfterS = 2 } = this.options;
    if (bytes <= 0) return;
    // The owner's share first (429: its own uploads are in the way, not other owners'). Like the
    // budget below, an upload larger than the share is let in when the owner holds nothing else.
    const own = owner === undefined ? 0 : this.ownerBytes(owner);
    if (own > 0 && own + bytes > maxOwnerInflightBytes) throw ownerUploadShareFull(maxOwnerInflightBytes, retryAfterS);
    // An upload larger than the whole budget is still let in when nothing else is held, so a
    // budget set below MAX_UPLOAD_BYTES slows big uploads down instead of refusing them forever.
    if (this.inflightBytes > 0 && this.inflightBytes + bytes > maxInflightBytes) throw uploadBudgetFull(retryAfterS);
  }

  private checkQueue(): void {
    const { concurrency, maxQueued, retryAfterS = 2 } = this.options;
    if (this.running >= concurrency && this.waiting.length >= maxQueued) throw queueFull(retryAfterS);
  }

  /**
   * Takes the key's in-flight place and `bytes` of the upload budget (and of `owner`'s share) at
   * once (checked and taken synchronously, so concurrent requests cannot all pass the check),
   * before the upload is read.
   */
  hold(key: string, bytes: number, owner?: string): Hold {
    this.check(key, bytes, owner);
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    return this.takeBytes(bytes, key, owner, () => {
      const n = (this.perKey.get(key) ?? 1) - 1;
      if (n > 0) this.perKey.set(key, n);
      else this.perKey.delete(key);
    });
  }

  /**
   * Only `bytes` of the upload budget, for an upload this process reads but the cluster admits (a
   * job on Redis: its key place and the queue are counted there, src/jobs/redis/admission.ts).
   */
  holdBytes(bytes: number, owner?: string): Hold {
    if (this.closed) throw shuttingDown();
    this.checkBytes(bytes, owner);
    return this.takeBytes(bytes, "", owner, () => {});
  }

  private takeBytes(bytes: number, key: string, owner: string | undefined, onRelease: () => void): Hold {
    this.inflightBytes += bytes;
    if (owner !== undefined) this.perOwnerBytes.set(owner, this.ownerBytes(owner) + bytes);
    return holdOf(key, bytes, () => {
      this.inflightBytes -= bytes;
      if (owner !== undefined) {
        const left = this.ownerBytes(owner) - bytes;
        if (left > 0) this.perOwnerBytes.set(owner, left);
        else this.perOwnerBytes.delete(owner);
      }
      onRelease();
    });
  }

  /**
   * A place in front of the pool. With a key, the key's place is taken now; with a Hold (taken
   * before the upload was read) only the queue is checked, and the ticket's release frees the hold.
   * On a refusal the hold is released too.
   */
  enter(keyOrHold: string | Hold): Ticket {
    let hold: Hold;
    if (typeof keyOrHold === "string") {
      this.check(keyOrHold);
      hold = this.hold(keyOrHold, 0);
    } else {
      hold = keyOrHold;
      try {
        if (this.closed) throw shuttingDown();
        this.checkQueue();
      } catch (e) {
        hold.release();
        throw e;
      }
    }
    return this.place(hold);
  }

  /**
   * A place in front of the pool for a document admitted elsewhere: a cluster job, whose per-key
   * and queue limits were counted in Redis (src/jobs/redis/admission.ts). Only shutdown refuses it.
   */
  enterAdmitted(): Ticket {
    if (this.closed) throw shuttingDown();
    return this.place({ key: "", bytes: 0, release: () => {} });
  }

  private place(hold: Hold): Ticket {
    const mustWait = this.running >= this.options.concurrency;

    let state: "waiting" | "running" | "aside" | "released" = "waiting";
    let resolveStart!: () => void;
    const started = new Promise<void>((r) => (resolveStart = r));
    const entry = {
      start: () => {
        state = "running";
        this.running++;
        resolveStart();
      },
    };
    if (mustWait) this.waiting.push(entry);
    else entry.start();

    const freeRunningPlace = () => {
      this.running--;
      this.waiting.shift()?.start();
    };
    return {
      started,
      stepAside: () => {
        if (state !== "running") return;
        state = "aside";
        freeRunningPlace();
      },
      release: () => {
        if (state === "released") return;
        const wasRunning = state === "running";
        const wasWaiting = state === "waiting";
        state = "released";
        hold.release();
        if (wasRunning) freeRunningPlace();
        else if (wasWaiting) {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
        }
      },
    };
  }
}
