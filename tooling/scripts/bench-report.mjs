// The results of tooling/scripts/bench-all.mjs: reading a bench's JSON line, and docs/benchmarks.md.
// Pure functions, no I/O.

/** The last line of `output` that is a report() JSON object (`{ bench, ok, figures: [...] }`). */
export function lastReport(output) {
  const lines = output.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index].trim();
    if (!line.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line);
      if (Array.isArray(parsed?.figures)) return parsed;
    } catch {
      // Not JSON after all: keep looking.
    }
  }
  return undefined;
}

/** A number for a table: more digits for small values, grouped thousands for big ones. */
export function formatNumber(value) {
  if (value === null || value === undefined) return 'n/a';
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (Number.isInteger(value) || magnitude >= 1000)
    return value.toLocaleString('en-US', { maximumFractionDigits: 0 });
  if (magnitude >= 100) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

const withUnit = (value, unit) => `${formatNumber(value)}${unit ? ` ${unit}` : ''}`;

/** Whether a figure met its goal: true, false, or undefined when it has none. */
export function goalMet(figure) {
  const ceiling = figure.goal ?? undefined;
  const floor = figure.goalAtLeast ?? undefined;
  if (ceiling === undefined && floor === undefined) return undefined;
  return (
    typeof figure.value === 'number' &&
    (ceiling === undefined || figure.value <= ceiling) &&
    (floor === undefined || figure.value >= floor)
  );
}

/** The goal as text: `≤ goal` (a ceiling) or `≥ goalAtLeast` (a floor), with the unit. */
export function goalText(figure) {
  const unit = figure.unit ? ` ${figure.unit}` : '';
  if (figure.goal !== undefined && figure.goal !== null) return `≤ ${figure.goal}${unit}`;
  if (figure.goalAtLeast !== undefined && figure.goalAtLeast !== null)
    return `≥ ${figure.goalAtLeast}${unit}`;
  return '—';
}

/** The peer cell: the baseline's value from the same run, with the ratio when both share a unit. */
export function peerCell(figure) {
  const { peer } = figure;
  if (peer === undefined || peer === null) return '—';
  let cell = `${peer.name}: ${withUnit(peer.value, peer.unit)}`;
  if (figure.unit && figure.unit === peer.unit && typeof figure.value === 'number' && peer.value)
    cell += ` (ratio ${formatNumber(figure.value / peer.value)})`;
  return cell;
}

/** Text cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function shorten(text, max = 160) {
  const flat = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:(]+$/, '')}…`;
}

/** A markdown table cell: no pipes, no raw HTML, one line. */
export const cell = (text) =>
  String(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');

// Characters two columns wide (CJK, fullwidth forms, emoji), as Biome counts them in a table.
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;

/**
 * A markdown table with its columns padded to one width (as Biome formats markdown, so the
 * generated file passes `biome check` as it is). `rows`: arrays of already-escaped cells.
 */
export function markdownTable(header, rows) {
  const length = (text) => [...text].reduce((sum, char) => sum + (WIDE.test(char) ? 2 : 1), 0);
  const widths = header.map((title, column) =>
    Math.max(3, length(title), ...rows.map((row) => length(row[column]))),
  );
  const line = (cells) =>
    `| ${cells.map((text, column) => text + ' '.repeat(widths[column] - length(text))).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

export function formatDuration(seconds) {
  if (seconds < 60) return `${seconds.toFixed(0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

const loadText = (load) => load.map((value) => value.toFixed(2)).join(' / ');

/** Counts over every run: figures, goals met and missed, benches failed. */
export function summarize(runs) {
  const summary = { benches: runs.length, figures: 0, goals: 0, met: 0, missed: [], failed: [] };
  for (const run of runs) {
    if (run.failure !== undefined) summary.failed.push(`${run.name} (${run.failure})`);
    for (const figure of run.result?.figures ?? []) {
      summary.figures++;
      const met = goalMet(figure);
      if (met === undefined) continue;
      summary.goals++;
      if (met) summary.met++;
      else summary.missed.push(`${run.name}: ${figure.name} = ${withUnit(figure.value, figure.unit)}`);
    }
  }
  return summary;
}

export function summaryLine(summary, seconds) {
  const parts = [
    `${summary.benches} bench${summary.benches === 1 ? '' : 'es'} in ${formatDuration(seconds)}`,
    `${summary.figures} figures`,
    `${summary.goals} goal${summary.goals === 1 ? '' : 's'}: ${summary.met} met, ${summary.missed.length} missed`,
    `${summary.failed.length} bench${summary.failed.length === 1 ? '' : 'es'} failed`,
  ];
  const line = `${parts.join('; ')}.`;
  const missed = summary.missed.length > 0 ? ` Missed: ${summary.missed.join('; ')}.` : '';
  const failed = summary.failed.length > 0 ? ` Failed: ${summary.failed.join('; ')}.` : '';
  return line + missed + failed;
}

/** The whole document. `info`: machine, node, dates, load, settings, options; `runs`: one per bench. */
export function renderMarkdown(info, runs) {
  const summary = summarize(runs);
  const peers = [
    ...new Set(
      runs.flatMap((run) => (run.result?.figures ?? []).flatMap((f) => (f.peer ? [f.peer.name] : []))),
    ),
  ];
  const settings = Object.entries(info.settings).map(([key, value]) => `\`${key}=${value}\``);
  if (info.crashTrials !== undefined)
    settings.push(
      `\`--crash-trials ${info.crashTrials.trials}\` (${info.crashTrials.benches.join(', ') || 'no bench takes it'})`,
    );
  const lines = [
    '# Benchmarks',
    '',
    `<!-- Generated by \`pnpm bench\` (tooling/scripts/bench-all.mjs). Do not edit: run it again. -->`,
    '',
    "Every package with a `bench` script measures its hot paths (storage appends and loads, the tool loop's " +
      'overhead per turn, stream parsing, compression, token counting, the server under 1,000 concurrent ' +
      'streaming conversations) and prints its figures as a table and one JSON line; `pnpm bench` at the ' +
      'root builds, runs them one after another (never in parallel: they measure time) and collects the ' +
      'figures here.',
    '',
    'Machines are noisy (this one is shared with other work), so a figure is never compared with a number ' +
      'measured on another day or machine: each bench measures its baseline or peer side by side in the same ' +
      'run (interleaved rounds, medians) and reports the ratio. The **peer, same run** column shows that ' +
      'baseline’s own value; absolute times only describe this machine at this load. A goal is a ceiling ' +
      '(`value ≤ goal`), or a floor for a share achieved (`value ≥ goal`).',
    '',
    `- Machine: ${info.cpus} × ${info.cpuModel}, ${info.memoryGB.toFixed(1)} GB RAM, ${info.os}`,
    `- Node ${info.node}; commit ${info.commit}`,
    `- Date: ${info.startedAt} (UTC), total ${formatDuration(info.totalSeconds)} ` +
      `(build ${formatDuration(info.buildSeconds)}, benches ${formatDuration(info.benchSeconds)})`,
    `- Load average (1 / 5 / 15 min): ${loadText(info.loadBefore)} before the run, ${loadText(info.loadAfter)} after`,
    `- Settings: ${settings.length === 0 ? 'defaults (full size)' : settings.join(', ')}`,
    ...(info.filter.length > 0 ? [`- Subset: \`--filter ${info.filter.join(' --filter ')}\``] : []),
    ...(peers.length > 0 ? [`- Peers and baselines measured in the same run: ${peers.join('; ')}`] : []),
    '',
    `**${summaryLine(summary, info.totalSeconds)}**`,
    '',
    '## Results',
    '',
  ];
  const rows = [];
  for (const run of runs) {
    for (const figure of run.result?.figures ?? []) {
      const met = goalMet(figure);
      rows.push(
        [
          run.name,
          figure.name,
          withUnit(figure.value, figure.unit),
          goalText(figure),
          met === undefined ? '—' : met ? 'yes' : '**no**',
          peerCell(figure),
          shorten(figure.detail) || '—',
        ].map(cell),
      );
    }
    if (run.failure !== undefined)
      rows.push(
        [
          run.name,
          `**bench failed**: ${run.failure}`,
          '—',
          '—',
          '**no**',
          '—',
          shorten(run.lastError) || '—',
        ].map(cell),
      );
  }
  lines.push(
    ...markdownTable(['Package', 'Figure', 'Value', 'Goal', 'Met', 'Peer, same run', 'Detail'], rows),
  );
  lines.push(
    '',
    '## Runs',
    '',
    ...runs.map(
      (run) =>
        `- \`${run.name}\` (\`${run.command}\` in \`${run.dir}\`): ${formatDuration(run.seconds)}, load ` +
        `${loadText(run.loadBefore)} before, ${run.exitCode === null ? `killed by ${run.signal}` : `exit code ${run.exitCode}`}` +
        (run.result?.bench ? ` — ${run.result.bench}` : ''),
    ),
    '',
    '## How to run',
    '',
    '```sh',
    'pnpm bench                          # build (turbo), run every bench, write docs/benchmarks.md',
    'pnpm bench --filter loop --filter store-fs --out /tmp/bench.md   # a subset, elsewhere',
    'pnpm bench --no-build               # skip the build (checks that each dist/ exists)',
    'pnpm bench --crash-trials 50        # fewer SIGKILL crash trials in the store benches (500 by default)',
    'BENCH_CONVERSATIONS=100 BENCH_IDLE_STREAMS=100 pnpm bench --filter server   # smaller server load',
    'pnpm --filter @cairn/store-fs bench -- --crash-trials 50                      # one bench on its own',
    '```',
    '',
    'The environment is passed to every bench: the `BENCH_*` variables of `apps/server/bench/run.mjs` ' +
      'set the server load’s size, and the ones set are listed under Settings above. The script exits ' +
      'with 2 when a bench fails to run or prints no JSON line, with 1 when a goal is missed (as each ' +
      'bench does), and with 0 otherwise; the table is written either way.',
    '',
  );
  return lines.join('\n');
}
