/** Types of relaunch.mjs (plain JavaScript so bin.mjs can use it before tsx is registered). */

/** Node flags of a backtest process (why: relaunch.mjs). */
export declare const BACKTEST_NODE_FLAGS: readonly string[];

/** The flags to relaunch `rexbot <argv>` with, or undefined to run it in this process. */
export declare function relaunchFlags(argv: readonly string[], execArgv?: readonly string[], env?: Record<string, string | undefined>): readonly string[] | undefined;

/** Run `script argv` in a new node process with `flags` added, passing on SIGINT/SIGTERM/SIGHUP; resolves with how it ended. */
export declare function runRelaunched(flags: readonly string[], script: string, argv: readonly string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

/** End this process as the relaunched one ended: by the same signal, or with its exit code. */
export declare function endLike(end: { code: number | null; signal: NodeJS.Signals | null }): void;

/** In a relaunched process: stop when the launcher is gone. Returns whether this process is a relaunched one. */
export declare function watchLauncher(): boolean;
