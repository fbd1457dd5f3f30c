/**
 * Waits for an event a test cannot be told of directly, by checking for it every few
 * milliseconds: resolves as soon as `seen()` holds, throws naming `what` if it has not
 * within `ms`. Use it instead of a fixed sleep: a quick machine goes on at once, a slow one
 * still waits long enough.
 */
export async function waitUntil(seen: () => boolean | Promise<boolean>, what: string, ms = 20_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await seen())) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
