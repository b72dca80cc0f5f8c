import { isGiven, oneLine } from './one-line.js';

/** Who the model is asked to be. Every part is optional and only appears in the prompt when given. */
export interface AgentPersona {
  /** The agent's id; not shown to the model. */
  id?: string;
  name?: string;
  /** What the agent does ("Code reviewer"). */
  role?: string;
  /** Who the agent is, in a sentence or a paragraph. */
  identity?: string;
  communicationStyle?: string;
  /** Rules the agent follows, one per entry. */
  principles?: readonly string[];
  /** The agent's own instructions, sent as written after the persona. */
  systemPrompt?: string;
}

/** The persona part of the system prompt (empty when nothing is given). */
export function describePersona(agent: AgentPersona | undefined): string {
  if (agent === undefined) return '';
  const lines: string[] = [];
  if (isGiven(agent.name)) lines.push(`You are ${oneLine(agent.name)}.`);
  if (isGiven(agent.role)) lines.push(`Role: ${oneLine(agent.role)}`);
  if (isGiven(agent.identity)) lines.push(`Identity: ${agent.identity.trim()}`);
  if (isGiven(agent.communicationStyle))
    lines.push(`Communication style: ${agent.communicationStyle.trim()}`);
  const principles = (agent.principles ?? []).filter(isGiven);
  if (principles.length > 0) {
    lines.push('Principles:', ...principles.map((principle) => `- ${oneLine(principle)}`));
  }
  const persona = lines.join('\n');
  const instructions = isGiven(agent.systemPrompt) ? agent.systemPrompt.trim() : '';
  return [persona, instructions].filter((part) => part !== '').join('\n\n');
}
