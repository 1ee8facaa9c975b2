import * as readline from 'node:readline/promises';

/**
 * Asks `question` on the terminal and takes y or yes. `yes` (--yes) answers for the operator;
 * without a terminal and without it, nothing can be asked, so it refuses.
 */
export async function confirm(question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    throw new Error(`${question}\nno terminal to ask on: pass --yes to confirm`);
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
