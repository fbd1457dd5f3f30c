/** What a window says of a run that ended while no resq watched it and whose length is unknown. */
export function unwatchedText(finishedAt: string | null): string {
  return `ended while resq was stopped, at or before ${finishedAt ?? 'its resume'}`;
}
