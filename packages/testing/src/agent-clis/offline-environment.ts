/**
 * The environment of an offline CLI run. Built from scratch, not from `process.env`: a developer's
 * real API keys or proxy settings must never reach a CLI under test. Both vendors' variables are
 * set for every CLI, so any CLI of either vendor finds its stand-in and no telemetry endpoint.
 */
export function agentCliOfflineEnvironment(options: {
  home: string;
  /** The stand-in's `http://127.0.0.1:<port>`. */
  origin: string;
  /** Added last (e.g. `CLAUDE_CODE_ENABLE_TASKS=0`). */
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: options.origin,
    GOOGLE_GEMINI_BASE_URL: options.origin,
    ANTHROPIC_API_KEY: 'sk-ant-dummy',
    GEMINI_API_KEY: 'dummy-gemini-key',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...options.extra,
  };
}
