/**
 * Bun's per-connection idle timer (HTTP_IDLE_TIMEOUT_S) closes connections that say nothing: a
 * client stalled in its headers, a keep-alive connection nobody uses. It is not reset by request
 * body bytes, so on a long upload it acts as a hard cap on the upload's duration, and it would cut
 * a quiet stream or a long sync parse. Those requests lift it for their own connection and put it
 * back when they end: a lifted timer left on a keep-alive connection would keep it open for ever.
 */

/** The one thing needed of Bun's server: its per-request idle timeout, in seconds (0: none). */
export interface IdleTimerServer {
  timeout(request: Request, seconds: number): void;
}

/** Lifts the idle timer of `request`'s connection; the returned function restores `idleS` (once). */
export function liftIdleTimer(server: IdleTimerServer | null | undefined, request: Request, idleS: number): () => void {
  server?.timeout(request, 0);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    try {
      server?.timeout(request, idleS);
    } catch {
      // The connection is already gone: nothing left to time out.
    }
  };
}

/**
 * `res` with `onEnd` called once its body has been read to the end (before the connection goes
 * back to keep-alive) or cancelled. Status and headers are kept.
 */
export function onBodyEnd(res: Response, onEnd: () => void): Response {
  if (!res.body) {
    onEnd();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await reader.read().catch((e: unknown) => {
        onEnd();
        throw e;
      });
      if (r.done) {
        onEnd();
        controller.close();
      } else controller.enqueue(r.value);
    },
    cancel(reason) {
      onEnd();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
