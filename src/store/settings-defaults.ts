// Defaults of a batch's settings, written once. No imports: the CLI's option definitions load
// this with --help.

/** Files a batch downloads at once when neither a flag nor the pipeline file says. */
export const DEFAULT_DOWNLOAD_CONCURRENCY = 4;
