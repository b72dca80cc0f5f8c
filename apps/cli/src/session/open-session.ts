import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type ResolvedModel, resolveModel } from '@cairn/connect';
import type { ConversationStore } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { createWorkspaceTools } from '@cairn/loop/tools';
import { type OtelSdk, startOtelSdk } from '@cairn/otel/node';
import { type AgentRuntime, createAgentRuntime, type WorkflowPackage } from '@cairn/runtime';
import type { ApprovalMode, CliSettings } from '../config/cli-settings.js';
import { startDemoFallback } from '../demo/demo-fallback.js';
import { createSampleWorkspace } from '../demo/sample-workspace.js';
import type { CliIO } from '../io.js';
import { type Approver, CLI_DECIDER, createApprover } from './approver.js';
import { connectCliMcpServers } from './mcp-tools.js';

/** What chat, one-shot prompts and runs work with: a store, a model, the workspace tools, the runtime. */
export interface CliSession {
  settings: CliSettings;
  store: ConversationStore;
  model: ResolvedModel;
  runtime: AgentRuntime;
  /** The directory the tools may touch. */
  workspace: string;
  approver: Approver;
  close(): Promise<void>;
}

/** The store, opened where the settings say (the data directory is created when missing). */
export async function openSettingsStore(settings: CliSettings, io: CliIO): Promise<ConversationStore> {
  // Damaged lines are moved aside, never deleted, and the user is told where they went.
  return openStore(settings, {
    names: { dataDir: '--data-dir or CAIRN_DATA_DIR' },
    onQuarantine: (report) =>
      io.stderr.write(
        `cairn: ${report.length} damaged bytes of conversation ${report.conversationId} were set aside in ${report.quarantineFile} (${report.reason}); the rest loads as usual\n`,
      ),
  });
}

/** How a command uses the session. */
export interface SessionOptions {
  onRefused?: Parameters<typeof createApprover>[1];
  workflows?: readonly WorkflowPackage[];
  /**
   * The command asks approvals at the terminal (it installs the question itself); otherwise a call
   * that needs one waits in the store (`cairn approvals`).
   */
  interactive?: boolean;
  /** `cairn demo`: work in the sample project, reset to its start, whichever model answers. */
  demoTour?: boolean;
  /**
   * Checks that need the store (does `--resume ID` exist?), run once it is open and before the
   * session is announced, so their failure is the command's only line.
   */
  checkStore?: (store: ConversationStore) => Promise<void>;
}

// Asked only where a command will really ask. With nobody to ask, the scripted demo's fixed calls
// in its own sample project may run; a real model's calls wait in the store for a decision
// (`cairn approvals`), unless the user allowed them (`--yes`) or refused them (`--approval never`).
function approvalMode(settings: CliSettings, model: ResolvedModel, options: SessionOptions): ApprovalMode {
  if (settings.approval !== undefined && (settings.approval !== 'ask' || options.interactive)) {
    return settings.approval;
  }
  return options.interactive || !model.demo ? 'ask' : 'always';
}

// The sample project is reset only by `cairn demo`: elsewhere it holds the user's own fixes.
async function sampleWorkspace(settings: CliSettings, reset: boolean): Promise<string> {
  const dir = join(settings.dataDir, 'demo-workspace');
  if (reset || !existsSync(dir)) await createSampleWorkspace(dir);
  return dir;
}

export async function openSession(
  settings: CliSettings,
  io: CliIO,
  options: SessionOptions = {},
): Promise<CliSession> {
  // Nothing configured: the offline demo, so a first run shows Cairn working without a key.
  const model = await resolveModel(settings.model, io.env, { fallback: () => startDemoFallback(io.env) });
  let store: ConversationStore | undefined;
  let mcp: Awaited<ReturnType<typeof connectCliMcpServers>> | undefined;
  let otel: OtelSdk | undefined;
  try {
    if (settings.otel) otel = await startOtelSdk({ serviceName: 'cairn', env: io.env });
    store = await openSettingsStore(settings, io);
    await options.checkStore?.(store);
    const demoTour = options.demoTour === true;
    const workspace =
      settings.workspace ?? (demoTour || model.demo ? await sampleWorkspace(settings, demoTour) : io.cwd);
    const approver = createApprover(approvalMode(settings, model, options), options.onRefused);
    const workspaceTools = createWorkspaceTools({ root: workspace });
    // MCP servers' tools beside the workspace tools, through the same host (policy, approval).
    mcp = await connectCliMcpServers(settings.mcpConfigFiles, { env: io.env, cwd: io.cwd });
    const tools = mcp === undefined ? workspaceTools : mcp.toolHost(workspaceTools);
    // One runtime: another model (`/model`) is passed per turn, which keeps provider metadata apart.
    const runtime = createAgentRuntime({
      store,
      model: model.adapter,
      tools,
      ...definedFields({ workflows: options.workflows, telemetry: otel?.telemetry }),
      settings: {
        projectRoot: workspace,
        approve: (request) => approver.approve(request),
        // Asked of the person at a terminal, whichever CLI process asks or decides later.
        approvals: { askedOf: CLI_DECIDER, decidedBy: CLI_DECIDER },
        ...definedFields({ maxTurns: settings.maxTurns }),
      },
    });
    const openedStore = store;
    const openedMcp = mcp;
    return {
      settings,
      store: openedStore,
      model,
      runtime,
      workspace,
      approver,
      async close() {
        // The spans of the last turn are exported before the process ends.
        await Promise.allSettled([openedStore.close(), model.close(), openedMcp?.close(), otel?.shutdown()]);
      },
    };
  } catch (error) {
    await Promise.allSettled([store?.close(), model.close(), mcp?.close(), otel?.shutdown()]);
    throw error;
  }
}
