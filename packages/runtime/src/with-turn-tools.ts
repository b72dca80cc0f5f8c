import type { Tool } from '@cairn/core';
import { createToolHost, type ToolRegistry } from '@cairn/loop';

/**
 * The runtime's tools plus a turn's own (a run's `complete_step`). A call goes to the turn's tool
 * when it has one of that name (it wins a clash), else to the runtime's host — which keeps working
 * even when it cannot list its tools. The turn's tools are the runtime's own machinery: a tool
 * policy (written for the application's tools) never hides or refuses them.
 */
export function withTurnTools(base: ToolRegistry, extra: readonly Tool[] | undefined): ToolRegistry {
  if (extra === undefined || extra.length === 0) return base;
  const own = createToolHost(extra);
  const names = new Set(extra.map((tool) => tool.name));
  return {
    tools: [...base.tools.filter((tool) => !names.has(tool.name)), ...extra],
    get: (name) => own.get(name) ?? base.get(name),
    getVisibleTools: (visibility) => [
      ...base.getVisibleTools(visibility).filter((tool) => !names.has(tool.name)),
      ...own.getVisibleTools(),
    ],
    execute: (call, execution) => {
      if (!names.has(call.function.name)) return base.execute(call, execution);
      const { policy: _policy, ...unrestricted } = execution;
      return own.execute(call, unrestricted);
    },
  };
}
