import type { ScriptTurn } from '@cairn/testing';
import type { ChatMessage } from './read-chat-request.js';
import { REAL_MODEL_HINT } from './real-model-hint.js';
import {
  SAMPLE_BUGGY_LINE,
  SAMPLE_FIXED_LINE,
  SAMPLE_SECOND_BUG_SYMPTOM,
  SAMPLE_SOURCE_PATH,
  SAMPLE_TEST_COMMAND,
} from './sample-workspace.js';
import {
  exitCodeOf,
  firstLine,
  keyFailureLine,
  toolResultsAfter,
  wasInterrupted,
  wasRefused,
} from './tool-outcomes.js';

/** The workspace tools (`@cairn/loop/tools`) the tour calls. */
type TourTool = 'read_file' | 'edit_file' | 'list_dir' | 'run_command';

interface TourStep {
  tool: TourTool;
  /** What the step is called in the final answer. */
  label: string;
  arguments: Record<string, unknown>;
  /** What the model says before the call, having seen the results so far. */
  intro(results: ReadonlyMap<TourTool, string>): string;
  /** The final answer's line about the call's result (refusals and interruptions are handled for it). */
  report(result: string): string;
}

const COMMAND = `\`${SAMPLE_TEST_COMMAND}\``;

const edited = (result: string | undefined) => result?.startsWith('Updated ') === true;

function afterEdit(result: string | undefined): string {
  if (result === undefined) return 'I cannot edit files here, so the typo stays.';
  return edited(result) ? 'Fixed.' : 'The edit did not go through, so the typo stays.';
}

function commandReport(result: string): string {
  const exitCode = exitCodeOf(result);
  if (exitCode === undefined) {
    return /^(Command |Could not start)/.test(result)
      ? `- ${COMMAND} did not finish: “${firstLine(result)}”.`
      : `- ${COMMAND} passed.`;
  }
  const failed = `- ${COMMAND} failed with exit code ${exitCode}: “${keyFailureLine(result)}”.`;
  return result.includes(SAMPLE_SECOND_BUG_SYMPTOM)
    ? `${failed} That is the second bug, left for you on purpose: \`shout('Ada')\` returned ${SAMPLE_SECOND_BUG_SYMPTOM}, because \`shout\` calls toLowerCase() where it means toUpperCase(). Fix it in ${SAMPLE_SOURCE_PATH} and run the tests again.`
    : failed;
}

// The tour: read the buggy file, fix it, look around, run the tests (which still fail, on purpose).
const TOUR: readonly TourStep[] = [
  {
    tool: 'read_file',
    label: `Reading ${SAMPLE_SOURCE_PATH}`,
    arguments: { path: SAMPLE_SOURCE_PATH },
    intro: () => 'Let me look at the sample project.',
    report: () =>
      `- I read ${SAMPLE_SOURCE_PATH}: \`greet\` used \`nmae\`, a typo for \`name\`, so every call threw a ReferenceError.`,
  },
  {
    tool: 'edit_file',
    label: 'The edit',
    arguments: { path: SAMPLE_SOURCE_PATH, old_string: SAMPLE_BUGGY_LINE, new_string: SAMPLE_FIXED_LINE },
    intro: () =>
      'Found it: `greet` uses `nmae`, a typo for `name`, so every call throws a ReferenceError. Let me fix it.',
    report: (result) =>
      edited(result)
        ? `- I fixed the typo with edit_file: ${SAMPLE_SOURCE_PATH} really changed on disk.`
        : `- The edit failed: “${firstLine(result)}”.`,
  },
  {
    tool: 'list_dir',
    label: 'Listing the project',
    arguments: { path: '.' },
    intro: (results) => `${afterEdit(results.get('edit_file'))} Let me see what else is in the project.`,
    report: (result) =>
      result.includes('test/')
        ? `- The project holds ${result.trim().split('\n').join(', ')}.`
        : `- Listing the project gave “${firstLine(result)}”.`,
  },
  {
    tool: 'run_command',
    label: COMMAND,
    arguments: { command: SAMPLE_TEST_COMMAND },
    intro: (results) =>
      results.get('list_dir')?.includes('test/') === true
        ? 'There is a test folder: let me run the tests.'
        : 'Let me run the tests.',
    report: commandReport,
  },
];

const CLOSING = `This was Cairn's scripted offline demo: the tool calls and their results were real, but these words were scripted, not written by a language model. ${REAL_MODEL_HINT}`;

function reportOf(step: TourStep, result: string): string {
  if (wasInterrupted(result)) return `- ${step.label} was interrupted before it finished.`;
  if (wasRefused(result)) return `- ${step.label} did not happen: “${firstLine(result)}”.`;
  return step.report(result);
}

function finalAnswer(plan: readonly TourStep[], results: readonly string[]): string {
  const lines = plan.flatMap((step, index) => {
    const result = results[index];
    return result === undefined ? [] : [reportOf(step, result)];
  });
  return ['Here is what happened:', ...lines, '', CLOSING].join('\n');
}

/** The tour stops unless the file it reads is the sample's, still buggy: it must not touch other projects. */
function stoppedAnswer(readResult: string): string {
  const reason = readResult.includes(SAMPLE_FIXED_LINE)
    ? `${SAMPLE_SOURCE_PATH} is already fixed, so the tour has nothing left to do; start the demo again to reset the sample project.`
    : `${SAMPLE_SOURCE_PATH} is not the sample file this scripted tour expects (read_file said “${firstLine(readResult)}”), so I stopped rather than change anything.`;
  return `${reason} ${CLOSING}`;
}

const NO_READ_TOOL = `This is Cairn's scripted offline demo, not a language model. Its tour of the sample project needs the workspace tools (read_file, edit_file, list_dir, run_command), and read_file is not available here. ${REAL_MODEL_HINT}`;

/**
 * The tour's next turn, from the tool results since the user's message at `latestUser`: the n-th
 * result means step n+1 is next (steps whose tool is not offered are left out), and once every
 * step has its result, the final answer, which reports what really happened.
 */
export function tourTurn(
  messages: readonly ChatMessage[],
  toolNames: ReadonlySet<string>,
  latestUser: number,
): ScriptTurn {
  if (!toolNames.has('read_file')) return { text: NO_READ_TOOL };
  const plan = TOUR.filter((step) => toolNames.has(step.tool));
  const results = toolResultsAfter(messages, latestUser);
  const byTool = new Map(
    plan.flatMap((step, index) => {
      const result = results[index];
      return result === undefined ? [] : [[step.tool, result] as const];
    }),
  );
  const read = byTool.get('read_file');
  if (read !== undefined && !read.includes(SAMPLE_BUGGY_LINE)) return { text: stoppedAnswer(read) };
  const step = plan[results.length];
  if (step === undefined) return { text: finalAnswer(plan, results) };
  return {
    text: step.intro(byTool),
    // Unique in the conversation (it grows every turn), and the same when the history is replayed.
    toolCalls: [{ id: `call_demo_${messages.length}`, name: step.tool, arguments: step.arguments }],
  };
}
