import type { Progress } from "../engine/types.ts";

/** Least time between two progress events of one stage, ms. */
export const PROGRESS_EVERY_MS = 100;

/**
 * The one rule for a job's progress events, in process (Job) and on Redis (redis/queue.ts):
 * progress only moves forward within a stage, and of one stage's steps at most one goes out every
 * PROGRESS_EVERY_MS, the latest winning. A new stage goes out at once, after the previous stage's
 * last unsent step, and so does a stage's last step (current = total): a stream shows each stage
 * start and end. A 2,000-page parse is then some 30 events, not 2,000 (each one an SSE write, a
 * client wake-up and, on Redis, a stream entry), while a poll still reads the latest step.
 */
export class ProgressPace {
  private last: Progress;
  private unsent = false;
  private sentAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (p: Progress) => void,
    initial: Progress,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {
    this.last = initial;
  }

  /** The latest step taken, sent or not. */
  get latest(): Progress {
    return this.last;
  }

  /** Takes `p` if it moves forward (a new stage, or further in this one); false when it is dropped. */
  report(p: Progress): boolean {
    const newStage = p.stage !== this.last.stage;
    if (!newStage && p.current <= this.last.current) return false;
    if (newStage) this.flush();
    this.last = { stage: p.stage, current: p.current, total: p.total };
    this.unsent = true;
    const wait = this.sentAt + this.everyMs - performance.now();
    if (newStage || p.current >= p.total || wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
    return true;
  }

  /** Sends the latest step if it has not gone out yet. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.unsent) return;
    this.unsent = false;
    this.sentAt = performance.now();
    this.send(this.last);
  }

  /** Drops a pending step without sending it (the job has ended). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsent = false;
  }
}
