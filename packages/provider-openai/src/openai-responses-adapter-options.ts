import type { OpenAIAdapterOptions } from './openai-adapter-options.js';

export interface OpenAIResponsesAdapterOptions extends Omit<OpenAIAdapterOptions, 'maxTokensParameter'> {
  /**
   * Ask for reasoning summaries (`reasoning: { summary: 'auto' }`) and the encrypted reasoning
   * (`include: ['reasoning.encrypted_content']`), which are kept on the message and replayed.
   * Default: true for OpenAI's reasoning models (GPT-5 but its `-chat` ids, o1, o3, o4, Codex),
   * false for any other, which would refuse the fields.
   */
  reasoning?: boolean;
  /**
   * Let OpenAI keep the responses (`store: true`). Default false: the conversation is the log's,
   * sent whole every turn, and reasoning travels encrypted with it.
   */
  store?: boolean;
}
