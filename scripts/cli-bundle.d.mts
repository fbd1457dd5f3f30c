/** Writes the CLI's bundle for the project at `root` into `outdir` (see cli-bundle.mjs). */
export declare function buildCliBundle(root: string, outdir: string): Promise<void>;
/** What a checkout's bundle is built from, as a 16-character hex fingerprint. */
export declare function inputsFingerprint(root: string): string;
/** The folder of an up-to-date bundle of the checkout at `root`, and whether this call built it. */
export declare function checkoutBundle(root: string, cache?: string): Promise<{ dir: string; built: boolean }>;
