import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cairnErrorThrownBy } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { resolveCliSettings } from './cli-settings.js';

const project = (config?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-settings-'));
  if (config !== undefined) {
    writeFileSync(
      join(dir, 'cairn.config.json'),
      typeof config === 'string' ? config : JSON.stringify(config),
    );
  }
  return dir;
};

describe('resolveCliSettings', () => {
  it('uses the XDG data dir and the fs store by default', () => {
    const cwd = project();
    expect(resolveCliSettings({}, { HOME: '/home/ada' }, cwd)).toMatchObject({
      store: 'fs',
      dataDir: '/home/ada/.local/share/cairn',
      model: {},
      verbose: false,
    });
    expect(resolveCliSettings({}, { HOME: '/home/ada', XDG_DATA_HOME: '/xdg' }, cwd).dataDir).toBe(
      '/xdg/cairn',
    );
  });

  it('takes flags over the environment over the config file', () => {
    const cwd = project({
      provider: 'gemini',
      model: 'from-config',
      store: 'sqlite',
      approval: 'never',
      maxTurns: 7,
    });
    const env = {
      HOME: '/h',
      CAIRN_MODEL: 'from-env',
      CAIRN_STORE: 'postgres',
      DATABASE_URL: 'postgres://x',
    };
    const settings = resolveCliSettings({ model: 'from-flag' }, env, cwd);
    expect(settings.model).toEqual({
      provider: 'gemini',
      providerFrom: `${join(cwd, 'cairn.config.json')} (provider)`,
      model: 'from-flag',
    });
    // Where the provider came from is what the start-up line names as the model's source.
    expect(resolveCliSettings({}, { ...env, CAIRN_PROVIDER: 'openai' }, cwd).model).toMatchObject({
      provider: 'openai',
      providerFrom: 'CAIRN_PROVIDER',
    });
    expect(resolveCliSettings({ provider: 'anthropic' }, env, cwd).model.providerFrom).toBe('--provider');
    expect(settings.store).toBe('postgres');
    expect(settings.approval).toBe('never');
    expect(settings.maxTurns).toBe(7);
    expect(resolveCliSettings({}, env, cwd).model.model).toBe('from-env');
    expect(resolveCliSettings({ yes: true }, env, cwd).approval).toBe('always');
  });

  it('resolves config paths against the config file, flags against the working directory', () => {
    const cwd = project();
    mkdirSync(join(cwd, 'conf'));
    writeFileSync(join(cwd, 'conf', 'c.json'), JSON.stringify({ dataDir: 'data', workspace: '../ws' }));
    const settings = resolveCliSettings({ config: 'conf/c.json' }, {}, cwd);
    expect(settings.dataDir).toBe(join(cwd, 'conf', 'data'));
    expect(settings.workspace).toBe(join(cwd, 'ws'));
    expect(resolveCliSettings({ config: 'conf/c.json', dataDir: 'here' }, {}, cwd).dataDir).toBe(
      join(cwd, 'here'),
    );
  });

  it('only turns colour off for --no-color (commander leaves color: true otherwise)', () => {
    const cwd = project();
    expect(resolveCliSettings({ color: true }, {}, cwd).color).toBeUndefined();
    expect(resolveCliSettings({ color: false }, {}, cwd).color).toBe(false);
  });

  it('takes --plain from the flag or CAIRN_PLAIN, and refuses a CAIRN_PLAIN it cannot read', () => {
    const cwd = project();
    expect(resolveCliSettings({}, {}, cwd).plain).toBe(false);
    expect(resolveCliSettings({ plain: true }, {}, cwd).plain).toBe(true);
    expect(resolveCliSettings({}, { CAIRN_PLAIN: '1' }, cwd).plain).toBe(true);
    expect(resolveCliSettings({}, { CAIRN_PLAIN: 'false' }, cwd).plain).toBe(false);
    expect(resolveCliSettings({}, { CAIRN_PLAIN: '' }, cwd).plain).toBe(false);
    const bad = cairnErrorThrownBy(() => resolveCliSettings({}, { CAIRN_PLAIN: 'yes' }, cwd));
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect(bad.message).toContain('CAIRN_PLAIN must be one of 1, true, 0, false');
  });

  it('names the bad field of a config file, and the fix', () => {
    const misspelt = cairnErrorThrownBy(() => resolveCliSettings({}, {}, project({ modle: 'x' })));
    expect(misspelt.code).toBe('INVALID_ARGUMENT');
    expect(misspelt.message).toContain('modle');
    expect(misspelt.details?.fix).toContain('valid fields are');
    const wrongType = cairnErrorThrownBy(() => resolveCliSettings({}, {}, project({ maxTurns: -1 })));
    expect(wrongType.message).toMatch(/cairn\.config\.json: maxTurns: /);
    const key = cairnErrorThrownBy(() => resolveCliSettings({}, {}, project({ apiKey: 'sk-secret' })));
    expect(key.details?.fix).toContain('API keys go in the environment');
    expect(key.message).not.toContain('sk-secret');
    expect(cairnErrorThrownBy(() => resolveCliSettings({}, {}, project('{ not json'))).message).toContain(
      'is not valid JSON',
    );
    expect(
      cairnErrorThrownBy(() => resolveCliSettings({ config: 'missing.json' }, {}, project())).message,
    ).toContain('cannot read the config file');
  });

  it('refuses unknown providers, stores and approval modes', () => {
    const cwd = project();
    expect(cairnErrorThrownBy(() => resolveCliSettings({ provider: 'openia' }, {}, cwd)).message).toContain(
      '--provider must be one of',
    );
    expect(cairnErrorThrownBy(() => resolveCliSettings({}, { CAIRN_STORE: 'redis' }, cwd)).message).toContain(
      'CAIRN_STORE must be one of',
    );
    expect(cairnErrorThrownBy(() => resolveCliSettings({ approval: 'maybe' }, {}, cwd)).code).toBe(
      'INVALID_ARGUMENT',
    );
  });
});
