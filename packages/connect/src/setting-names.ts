/**
 * How the user gives each setting, as errors and start-up lines name it: a flag (`--base-url`), an
 * environment variable (`CAIRN_BASE_URL`), a config field. Names starting with `-` are flags, which
 * the user "passes"; anything else the user "sets".
 */
export interface SettingNames {
  provider: string;
  model: string;
  baseURL: string;
  apiKey: string;
  store: string;
  databaseUrl: string;
  dataDir: string;
}

/** The reference CLI's flags: what errors say when the caller names nothing. */
export const DEFAULT_SETTING_NAMES: Readonly<SettingNames> = Object.freeze({
  provider: '--provider',
  model: '--model',
  baseURL: '--base-url',
  apiKey: '--api-key',
  store: '--store',
  databaseUrl: '--database-url',
  dataDir: '--data-dir',
});

/** The caller's names over the defaults. */
export function settingNames(names: Partial<SettingNames> | undefined): SettingNames {
  return { ...DEFAULT_SETTING_NAMES, ...names };
}

export const isFlag = (name: string): boolean => name.startsWith('-');

/**
 * How to give any one of `names`: `set A or B or pass --c` (variables before flags, each kind
 * named once, duplicates dropped).
 */
export function howToSet(names: readonly string[]): string {
  const unique = [...new Set(names)];
  const set = unique.filter((name) => !isFlag(name));
  const pass = unique.filter(isFlag);
  return [
    ...(set.length === 0 ? [] : [`set ${set.join(' or ')}`]),
    ...(pass.length === 0 ? [] : [`pass ${pass.join(' or ')}`]),
  ].join(' or ');
}

/** A setting with its value, as the user would write it: `--store postgres`, `CAIRN_STORE=postgres`. */
export const withValue = (name: string, value: string): string =>
  isFlag(name) ? `${name} ${value}` : `${name}=${value}`;
