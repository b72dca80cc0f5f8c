import { readFileSync } from 'node:fs';

/** The directory, inside each scenario run's own directory, that the CLI runs in. */
export const SCENARIO_WORK_DIRECTORY = 'work';

/**
 * The cwd every CLI of a recording ran in, as the recording shows it: the recorder writes each
 * run's directory as its manifest's `captured.pathPlaceholder` (the same on every machine), and
 * the CLI ran in `work/` inside it. `fixturesDirectory` holds the recording's `manifest.json`.
 */
export function recordedFixtureCwd(fixturesDirectory: URL): string {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', fixturesDirectory), 'utf8'));
  const placeholder = manifest?.captured?.pathPlaceholder;
  if (typeof placeholder !== 'string')
    throw new Error(`${fixturesDirectory.href}manifest.json has no captured.pathPlaceholder`);
  return `${placeholder}/${SCENARIO_WORK_DIRECTORY}`;
}
