import type { RunSnapshot } from './shapes.js';

/** How a run's length is recorded when it ends, in both adapters. */
export interface RunTimes {
  /** Seconds by the service's own timestamps; null when it sent none usable (resq then measures). */
  serviceSeconds: number | null;
  /** It ended while no resq watched: without service times its length is unknown (null). */
  unwatched: boolean;
}

/** What an ended run's row keeps of its times. */
export function runTimes(run: RunSnapshot): RunTimes {
  return { serviceSeconds: run.serviceSeconds ?? null, unwatched: run.unwatched === true };
}

/** Seconds an item's runs took, to the millisecond; null when none has ended or one ended unwatched with no length known. */
export function chainSeconds(times: readonly { finishedAt: string | null; seconds: number | null }[]): number | null {
  let ms = 0;
  let ended = 0;
  for (const t of times) {
    if (!t.finishedAt) continue;
    if (t.seconds === null) return null;
    ms += Math.round(t.seconds * 1000);
    ended++;
  }
  return ended === 0 ? null : ms / 1000;
}
