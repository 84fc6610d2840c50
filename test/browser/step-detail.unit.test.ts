import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readStepDetail, readTerminalResult } from '../../web/src/session/fold/read-step.ts';
import { lineDiff } from '../../web/src/session/chat/line-diff.ts';

const side = (lines: ReturnType<typeof lineDiff>, drop: '-' | '+') =>
  lines.filter((line) => line.op !== drop).map((line) => line.text);
const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

describe('a step as it opens', () => {
  it('cuts a terminal result into its output, exit code and notes', () => {
    const result = [
      '$ npm test',
      'ran 3 tests',
      '[exit code 1]',
      'looks like [exit code 0]',
      '[exit code 1]',
      '[stopped: the time limit of 30 s was reached]',
      '[output cut at 65536 bytes]',
    ].join('\n');
    expect(readTerminalResult('npm test', result)).toEqual({
      output: 'ran 3 tests\n[exit code 1]\nlooks like [exit code 0]',
      exit: 'exit code 1',
      notes: ['stopped: the time limit of 30 s was reached', 'output cut at 65536 bytes'],
    });
    expect(readTerminalResult('ls', '$ ls\n[killed by SIGKILL]')).toEqual({
      output: '',
      exit: 'killed by SIGKILL',
      notes: [],
    });
  });

  it('shows a terminal result not in the tool shape as it is, with no exit code', () => {
    expect(readTerminalResult('ls', 'terminal could not start the command: ENOENT')).toEqual({
      output: 'terminal could not start the command: ENOENT',
      exit: null,
      notes: [],
    });
  });

  it('reads a write as its path, its content and what the file held before', () => {
    expect(
      readStepDetail('write_file', { path: 'src/a.ts', content: 'b\n' }, 'Wrote 2 bytes', 'a\n'),
    ).toEqual({ kind: 'write', path: 'src/a.ts', content: 'b\n', before: 'a\n' });
    expect(readStepDetail('write_file', { content: 7 }, 'refused', null)).toEqual({
      kind: 'text',
      args: '{\n  "content": 7\n}',
      result: 'refused',
    });
  });

  it('never throws on any arguments or result', () => {
    fc.assert(
      fc.property(fc.string(), fc.anything(), fc.string(), (tool, args, result) => {
        readStepDetail(tool, args, result, null);
        readStepDetail('terminal', args, result, null);
      }),
    );
  });
});

describe('a line diff', () => {
  it('marks the lines removed and added between two texts', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nx\nc\nd\n')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'd' },
    ]);
  });

  it('gives back both texts, and keeps every common line when the texts are small', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 12 })
      .map((lines) => lines.map((line) => `${line}\n`).join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = lineDiff(before, after);
        expect(side(diff, '+')).toEqual(linesOf(before));
        expect(side(diff, '-')).toEqual(linesOf(after));
        if (before === after) expect(diff.every((line) => line.op === ' ')).toBe(true);
      }),
    );
  });

  it('falls back to all removed then all added past its table limit, still giving back both texts', () => {
    const before = Array.from({ length: 600 }, (_, index) => `old ${index}`).join('\n');
    const after = Array.from({ length: 600 }, (_, index) => `new ${index}`).join('\n');
    const diff = lineDiff(before, after);
    expect(side(diff, '+')).toEqual(before.split('\n'));
    expect(side(diff, '-')).toEqual(after.split('\n'));
  });
});
