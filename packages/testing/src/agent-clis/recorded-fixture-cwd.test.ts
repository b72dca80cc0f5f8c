import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedFixtureCwd } from './recorded-fixture-cwd.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function fixturesWithManifest(manifest: unknown): URL {
  const directory = mkdtempSync(join(tmpdir(), 'cairn-recorded-cwd-'));
  directories.push(directory);
  writeFileSync(join(directory, 'manifest.json'), JSON.stringify(manifest));
  return pathToFileURL(`${directory}/`);
}

describe('recordedFixtureCwd', () => {
  it("is the manifest's path placeholder with the scenario's work directory in it", () => {
    const fixtures = fixturesWithManifest({ captured: { pathPlaceholder: '/tmp/cairn-agent-cli-XXXXXX' } });
    expect(recordedFixtureCwd(fixtures)).toBe('/tmp/cairn-agent-cli-XXXXXX/work');
  });

  it('reads the repository recording of @cairn/agent-cli', () => {
    const fixtures = new URL('../../../agent-cli/fixtures/real/', import.meta.url);
    expect(recordedFixtureCwd(fixtures)).toMatch(/^\/tmp\/cairn-agent-cli-X+\/work$/);
  });

  it('says which manifest lacks the placeholder', () => {
    const fixtures = fixturesWithManifest({ captured: {} });
    expect(() => recordedFixtureCwd(fixtures)).toThrow(/manifest\.json has no captured\.pathPlaceholder/);
  });
});
