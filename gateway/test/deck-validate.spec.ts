import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DECK = '/usr/bin/deck';
const KONG_YML = resolve(__dirname, '..', 'kong.yml');

function deckValidate(file: string): { status: number | null; output: string } {
  if (!existsSync(DECK)) {
    expect.fail(
      `decK is not installed at ${DECK}. Run the project's installer (npm start / npm test install missing tools), ` +
        'or install the Debian package: sudo apt-get install deck',
    );
  }
  const result = spawnSync(DECK, ['validate', '-s', file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('deck validate', () => {
  it('accepts gateway/kong.yml', () => {
    const { status, output } = deckValidate(KONG_YML);
    expect(status, output).toBe(0);
  });

  it('really checks the schema: it refuses a field Kong does not know', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deck-'));
    try {
      const file = join(dir, 'kong.yml');
      writeFileSync(
        file,
        '_format_version: "3.0"\nservices:\n  - name: x\n    url: http://x:1\n    colour: blue\n',
      );
      const { status, output } = deckValidate(file);
      expect(status).not.toBe(0);
      expect(output).toContain('colour');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
