import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBpeTokenizer } from './bpe-tokenizer.ts';
import { conservativeTokenizer } from './conservative-tokenizer.ts';

const REPOSITORY = new URL('../../', import.meta.url);
const samples = {
  json: readFileSync(new URL('package.json', REPOSITORY), 'utf8'),
  lockfile: readFileSync(new URL('package-lock.json', REPOSITORY), 'utf8').slice(0, 60_000),
  chinese:
    '指令文件是仓库中为代理编写的说明。每个目录可以有自己的文件，代理在工作时读取从根目录到其模块目录路径上的所有文件。'.repeat(
      10,
    ),
  japanese:
    'エージェントは作業するディレクトリのルールを読み込みます。ルートのファイルはすべてのエージェントに適用されます。'.repeat(
      10,
    ),
  korean:
    '에이전트는 작업하는 디렉터리의 규칙을 읽습니다. 루트 파일은 모든 에이전트에 적용됩니다.'.repeat(
      10,
    ),
  russian:
    'Агент читает правила каталога, в котором работает; файл в корне действует для всех агентов.'.repeat(
      10,
    ),
};

describe('conservativeTokenizer', () => {
  it.each(Object.entries(samples))(
    'does not undercount %s against o200k_base or cl100k_base',
    async (_kind, text) => {
      const estimate = conservativeTokenizer.count(text);
      expect(estimate.estimated).toBe(true);
      for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
        expect(estimate.tokens).toBeGreaterThanOrEqual(
          (await createBpeTokenizer(encoding)).count(text).tokens,
        );
      }
    },
  );

  it('never counts below bytes/4, nor a longer text below its prefix', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (text, more) => {
          const count = conservativeTokenizer.count(text).tokens;
          expect(count).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(text) / 4));
          expect(conservativeTokenizer.count(text + more).tokens).toBeGreaterThanOrEqual(count);
        },
      ),
    );
  });
});
