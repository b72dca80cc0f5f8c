import type { ToolExecutionMetadata } from '@cairn/core';
import { useState } from 'preact/hooks';
import {
  ALREADY_DECIDED,
  ApprovalCard,
  type ApprovalControls,
  type ApprovalRefusal,
} from './approvals/approval-card.js';
import { alreadyDecidedText, decisionText, type ExecutionApproval } from './approvals/approval-text.js';
import { CodeBlock } from './code-block.js';
import { CommandOutputView, exitCodeLabel } from './command-output-view.js';
import { DiffView } from './diff-view.js';
import { formatDuration } from './format-time.js';

type Outcome = 'ok' | 'error' | 'unfinished';

const MARKS: Record<Outcome, { symbol: string; label: string }> = {
  ok: { symbol: '✓', label: 'succeeded' },
  error: { symbol: '✗', label: 'failed' },
  unfinished: { symbol: '…', label: 'unfinished' },
};

function outcomeOf(execution: ToolExecutionMetadata): Outcome {
  if (execution.status === 'unfinished') return 'unfinished';
  const { details } = execution;
  const commandFailed = details?.type === 'commandOutput' && details.exitCode !== 0;
  return execution.isError || commandFailed ? 'error' : 'ok';
}

/**
 * A tool call merged with its result: one summary line (outcome, what it did, exit code,
 * duration) that expands to the diff, the command output, the files or the raw output; under it,
 * how its approval was decided. A call waiting for approval is an `ApprovalCard`; an approved one
 * not finished yet, a running card.
 */
export function ToolExecutionCard({
  execution,
  approvals,
}: {
  execution: ToolExecutionMetadata;
  approvals?: ApprovalControls | undefined;
}) {
  // Here, not in the approval card: a refusal (409) is shown on the card once it shows the decision.
  const [refusal, setRefusal] = useState<ApprovalRefusal>();
  const { approval } = execution;
  if (execution.status === 'awaiting_approval' && approval !== undefined) {
    return (
      <ApprovalCard
        execution={execution}
        approval={approval}
        controls={approvals}
        refusal={refusal}
        onRefused={setRefusal}
      />
    );
  }
  if (execution.status === 'running') return <RunningToolCard toolName={execution.toolName} />;
  const outcome = outcomeOf(execution);
  const mark = MARKS[outcome];
  const { details } = execution;
  const summaryLine = (
    <span class="tool-line">
      <span class={`tool-mark ${outcome}`} role="img" aria-label={mark.label}>
        {mark.symbol}
      </span>
      <span class="tool-summary">{execution.summary}</span>
      {details?.type === 'commandOutput' && (
        <span class={`badge ${details.exitCode === 0 ? 'ok' : 'failed'}`}>
          {exitCodeLabel(details.exitCode)}
        </span>
      )}
      {execution.durationMs > 0 && <span class="tool-duration">{formatDuration(execution.durationMs)}</span>}
    </span>
  );
  const body = <ToolExecutionBody execution={execution} />;
  const hasBody = details !== undefined || execution.output.trim() !== '';
  return (
    <article class={`tool-card ${outcome}`} aria-label={`Tool execution: ${execution.summary}`}>
      {hasBody ? (
        <details>
          <summary>{summaryLine}</summary>
          <div class="tool-body">{body}</div>
        </details>
      ) : (
        <div class="tool-static">{summaryLine}</div>
      )}
      {approval?.outcome !== undefined && (
        <ApprovalOutcome approval={approval} reason={approvals?.reasons.get(approval.id)} refusal={refusal} />
      )}
    </article>
  );
}

// How the call's approval was decided; after a refused decision of this page, that it came too late.
function ApprovalOutcome({
  approval,
  reason,
  refusal,
}: {
  approval: ExecutionApproval;
  reason: string | undefined;
  refusal: ApprovalRefusal | undefined;
}) {
  return (
    <p class={`approval-outcome ${approval.outcome}`} aria-live="polite">
      {refusal?.code === ALREADY_DECIDED
        ? alreadyDecidedText(approval, refusal.message)
        : decisionText(approval, reason)}
      {refusal !== undefined && refusal.code !== ALREADY_DECIDED && ` (${refusal.message})`}
    </p>
  );
}

function ToolExecutionBody({ execution }: { execution: ToolExecutionMetadata }) {
  const { details } = execution;
  switch (details?.type) {
    case 'diff':
      return <DiffView diff={details} />;
    case 'commandOutput':
      return <CommandOutputView output={details} />;
    case 'fileList':
      return (
        <ul class="file-list" aria-label="Files">
          {details.files.map((file) => (
            <li key={file}>{file}</li>
          ))}
        </ul>
      );
    default:
      return <CodeBlock label="Tool output">{execution.output}</CodeBlock>;
  }
}

/** A tool the model called that is still running. */
export function RunningToolCard({ toolName }: { toolName: string }) {
  return (
    <article class="tool-card running" aria-label={`Running tool: ${toolName}`} aria-busy="true">
      <div class="tool-static">
        <span class="tool-line">
          <span class="spinner" aria-hidden="true" />
          <span class="tool-summary">Running {toolName}…</span>
        </span>
      </div>
    </article>
  );
}
