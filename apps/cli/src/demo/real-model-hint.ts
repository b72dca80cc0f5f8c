/** How to leave the offline demo for a real model: shown by the demo banner and by the demo itself. */
export const REAL_MODEL_HINT =
  'To use a real model, set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or pass --provider / --base-url (any OpenAI-compatible server, such as Ollama).';
