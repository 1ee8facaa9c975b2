/**
 * What the race writer (race-writer.ts, a child process) and its test share. Kept apart from
 * the writer so that importing it does not run the writer's main() inside the test's process.
 */
/** How many places the `take` decider hands out. */
export const PLACES = 3;

/** What a child sends back. */
export interface RaceReport {
  pid: number;
  /** Appends that wrote, each with its event ids and where they went. */
  appended: { stream: string; ids: string[]; position: number; revision: number }[];
  /** ConcurrencyErrors seen (append) or commands refused with LIMIT_REACHED (take). */
  refused: number;
  /** Anything else that went wrong: must stay empty. */
  errors: string[];
}
