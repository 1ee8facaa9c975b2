/** The wait tools block at most this long per call: the bridge itself times out at 20 s. */
export const WAIT_MAX_SECONDS = 20;
export const WAIT_DEFAULT_SECONDS = 15;

/** Polls `probe` until it gives a value or `seconds` pass; then the last probe's answer. */
export async function waitUntil<T>(
  seconds: number,
  probe: () => Promise<{ done: boolean; value: T }> | { done: boolean; value: T },
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + Math.min(seconds, WAIT_MAX_SECONDS) * 1000;
  for (;;) {
    const { done, value } = await probe();
    if (done || Date.now() >= until) return value;
    await new Promise((r) => setTimeout(r, Math.min(everyMs, Math.max(1, until - Date.now()))));
  }
}
