import type { ScriptTurn } from '@cairn/testing';
import { demoSummary, summaryRequestTranscript } from './demo-summary.js';
import { tourTurn } from './demo-tour.js';
import { COMPLETE_STEP, workflowTurn } from './demo-workflow.js';
import { type ChatMessage, readChatRequest } from './read-chat-request.js';
import { REAL_MODEL_HINT } from './real-model-hint.js';
import { firstLine } from './tool-outcomes.js';

function laterTurnAnswer(question: string): string {
  const asked = question.trim() === '' ? '' : `You asked “${firstLine(question, 200)}”, but `;
  return `${asked}I cannot really answer: I am Cairn's scripted offline demo, not a language model, and all I can do is the tour of the sample project. ${REAL_MODEL_HINT}`;
}

function answer(messages: readonly ChatMessage[], toolNames: ReadonlySet<string>): ScriptTurn {
  const transcript = summaryRequestTranscript(messages);
  if (transcript !== undefined) return { text: demoSummary(transcript) };
  const latestUser = messages.findLastIndex((message) => message.role === 'user');
  // A workflow run offers complete_step: the demo walks its steps instead of touring the sample project.
  if (toolNames.has(COMPLETE_STEP)) return workflowTurn(messages, Math.max(latestUser, 0));
  // Anything said before the latest user message (a summary of it included) makes this a later turn.
  const laterTurn = messages
    .slice(0, Math.max(latestUser, 0))
    .some((message) => message.role === 'user' || message.role === 'assistant');
  if (laterTurn) return { text: laterTurnAnswer(messages[latestUser]?.content ?? '') };
  return tourTurn(messages, toolNames, latestUser);
}

/**
 * The demo model's answer to an OpenAI Chat Completions request body. A pure function of the
 * request, so the demo keeps no state and survives restarts: the first user message starts the
 * sample-project tour, whose progress is read from the tool results that follow it.
 */
export function demoTurn(body: unknown): ScriptTurn {
  const { messages, toolNames } = readChatRequest(body);
  // About 4 characters a token, so token counts and compression thresholds behave plausibly.
  const inputTokens = Math.max(1, Math.ceil((JSON.stringify(body) ?? '').length / 4));
  return { ...answer(messages, toolNames), usage: { inputTokens } };
}
