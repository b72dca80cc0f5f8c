import { definedFields } from '@cairn/core';
import type { Command } from 'commander';
import { type Action, isTerminal, positiveInt, safeId } from './command-action.js';
import { examples } from './help-examples.js';

/** `cairn workflow init|run` and `cairn runs list|show|continue`. */
export function registerRunCommands(program: Command, action: Action): void {
  const workflow = program
    .command('workflow')
    .description('workflow runs (run mode)')
    .addHelpText('after', examples.workflow);
  workflow
    .command('init [file]')
    .description('write a sample workflow to start from (workflow.yaml)')
    .option('--force', 'replace the file if it exists')
    .addHelpText('after', examples.workflowInit)
    .action(
      action(async (m, context, flags, file: string | undefined) =>
        m.initWorkflowFile(
          { io: context.io, colors: context.colors },
          { ...definedFields({ file }), force: flags.force === true },
        ),
      ),
    );
  workflow
    .command('run <file>')
    .description('start a run of the workflow in a YAML or JSON file')
    .option('--workflow <id>', 'which workflow, when the file is a package of several')
    .option('-i, --input <text>', 'what the run is asked to do')
    .option('--run-id <id>', 'the run id (default: generated)', safeId('run id', 'cairn runs list'))
    .addHelpText('after', examples.workflowRun)
    .action(
      action(async (m, context, flags, path: string) => {
        const file = await m.readWorkflowFile(path, flags.workflow as string | undefined);
        return m.withSession(
          context,
          (session) =>
            m.runWorkflowFile(
              {
                session,
                io: context.io,
                colors: context.colors,
                errColors: context.errColors,
                signal: context.signal,
              },
              {
                file,
                ...(typeof flags.input === 'string' ? { input: flags.input } : {}),
                ...(typeof flags.runId === 'string' ? { runId: flags.runId } : {}),
              },
            ),
          { workflows: [file.pkg], interactive: isTerminal(context) },
        );
      }),
    );

  const runs = program.command('runs').description('workflow runs in the store');
  runs
    .command('list')
    .option('-n, --limit <n>', 'how many', positiveInt('--limit'), 20)
    .option('--json', 'one JSON run state per line')
    .description('runs, most recently updated first')
    .addHelpText('after', examples.runsList)
    .action(
      action(async (m, context, flags) =>
        m.withStore(context, (store) =>
          m.listRuns(
            { store, io: context.io, colors: context.colors },
            { limit: flags.limit as number, json: flags.json === true },
          ),
        ),
      ),
    );
  runs
    .command('show')
    .argument('<runId>', 'the run', safeId('run id', 'cairn runs list'))
    .description('where a run stands, and its conversation')
    .addHelpText('after', examples.runsShow)
    .action(
      action(async (m, context, _flags, runId: string) =>
        m.withStore(context, (store) =>
          m.showRun(
            {
              store,
              io: context.io,
              colors: context.colors,
              verbose: context.settings.verbose,
              plain: context.settings.plain,
            },
            runId,
          ),
        ),
      ),
    );
  runs
    .command('continue')
    .argument('<runId>', 'the run', safeId('run id', 'cairn runs list'))
    .description('the next turn of a run, from where the store says it is (after any restart)')
    .option('-i, --input <text>', 'your reply to the run')
    .addHelpText('after', examples.runsContinue)
    .action(
      action(async (m, context, flags, runId: string) =>
        m.withSession(
          context,
          (session) =>
            m.continueRun(
              {
                session,
                io: context.io,
                colors: context.colors,
                errColors: context.errColors,
                signal: context.signal,
              },
              { runId, ...(typeof flags.input === 'string' ? { input: flags.input } : {}) },
            ),
          {
            interactive: isTerminal(context),
            checkStore: (store) => m.assertRunExists(store, runId),
          },
        ),
      ),
    );
  runs.addHelpText('after', examples.runs);
}
