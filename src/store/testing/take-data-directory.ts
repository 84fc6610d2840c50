/**
 * A process that tries to take a data directory (the lock tests start several at once). It prints `ready`,
 * waits for a line on stdin (so all takers try at the same moment), tries, prints one JSON line
 * `{pid, owner, message?}` and then keeps what it took until stdin ends or it is killed.
 *   node src/store/testing/take-data-directory.ts DIRECTORY
 */
import { createInterface } from 'node:readline';
import { lockDataDirectory } from '../data-directory-lock.ts';

const directory = process.argv[2];
if (directory === undefined) throw new Error('usage: take-data-directory.ts DIRECTORY');
const lines = createInterface({ input: process.stdin });
let tried = false;
lines.on('line', () => {
  if (tried) return;
  tried = true;
  try {
    lockDataDirectory(directory);
    process.stdout.write(`${JSON.stringify({ pid: process.pid, owner: true })}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(`${JSON.stringify({ pid: process.pid, owner: false, message })}\n`);
  }
});
lines.on('close', () => process.exit(0));
process.stdout.write('ready\n');
