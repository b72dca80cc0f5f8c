/**
 * The tool names the Codex converter gives its items (Codex's JSON has item types, not the model's
 * tool names). MCP calls are `mcp__<server>__<tool>`. Tool processors register under these names.
 */
export const CODEX_TOOL_NAMES = {
  command: 'command_execution',
  fileChange: 'file_change',
  webSearch: 'web_search',
  todoList: 'todo_list',
} as const;
