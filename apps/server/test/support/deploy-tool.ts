import { defineTool } from '@cairn/loop';
import { z } from 'zod';

/** `deploy`: needs approval; each run pushes its target to `effects`, the side effect tests count. */
export function deployTool(effects: string[]) {
  return defineTool({
    name: 'deploy',
    description: 'Deploys',
    category: 'shell',
    input: z.object({ target: z.enum(['staging', 'production']) }),
    needsApproval: true,
    execute: ({ target }) => {
      effects.push(target);
      return `deployed to ${target}`;
    },
  });
}
