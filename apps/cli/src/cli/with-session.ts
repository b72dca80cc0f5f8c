import { statSync } from 'node:fs';
import { describeModel } from '@cairn/connect';
import type { ConversationStore } from '@cairn/core';
import { cliFailure } from '../cli-error.js';
import { describeApprovalRequest } from '../render/approval-text.js';
import {
  type CliSession,
  openSession,
  openSettingsStore,
  type SessionOptions,
} from '../session/open-session.js';
import type { CommandContext } from './command-context.js';

/**
 * Opens a session (model, store, runtime), prints which model is used and why, runs `work`, and
 * always closes the store and any demo server.
 */
export async function withSession(
  context: CommandContext,
  work: (session: CliSession) => Promise<number>,
  options: Omit<SessionOptions, 'onRefused'> = {},
): Promise<number> {
  const { io, errColors: colors } = context;
  assertWorkspace(context.settings.workspace);
  const session = await openSession(context.settings, io, {
    ...options,
    onRefused: (request) =>
      io.stderr.write(
        `${colors.yellow(`refused ${describeApprovalRequest(request)} (--approval never); allow it with --yes, or leave it to a decision with --approval ask`)}\n`,
      ),
  });
  try {
    io.stderr.write(
      `${session.model.demo ? colors.yellow(describeModel(session.model)) : colors.dim(describeModel(session.model))}\n`,
    );
    if (session.model.demo && context.settings.model.model !== undefined) {
      io.stderr.write(
        `${colors.yellow(`--model ${context.settings.model.model} is not used: there is no provider to send it to`)}\n`,
      );
    }
    if (session.model.demo || session.workspace !== io.cwd)
      io.stderr.write(`${colors.dim(`workspace: ${session.workspace}`)}\n`);
    return await work(session);
  } finally {
    await session.close();
  }
}

// Checked before a model is resolved or a store opened: every tool call would fail in a missing one.
function assertWorkspace(workspace: string | undefined): void {
  if (workspace === undefined || statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) return;
  throw cliFailure(
    'INVALID_ARGUMENT',
    `the workspace ${workspace} is not a directory`,
    "pass --workspace (or set CAIRN_WORKSPACE or the config file's workspace) to an existing directory",
  );
}

/** Runs `work` with just the store (listing, showing, exporting need no model). */
export async function withStore(
  context: CommandContext,
  work: (store: ConversationStore) => Promise<number>,
): Promise<number> {
  const store = await openSettingsStore(context.settings, context.io);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
