#!/usr/bin/env node
// Prints the pinned agent CLIs' versions and whether their runs are isolated, in one line for CI's
// summary: `agent CLIs: claude-code 2.1.197, gemini-cli 0.61.0, isolation: unshare -n`.
// Exits 1 when a CLI cannot be resolved. Needs @cairn/testing built.
import { agentCliIsolation, agentClis, resolveAgentCli } from '@cairn/testing/agent-clis';

const versions = Object.values(agentClis).map(
  (cli) => `${cli.name} ${resolveAgentCli(cli, import.meta.url).version}`,
);
const isolation = agentCliIsolation();
const isolated =
  isolation.kind === 'network-namespace' ? isolation.description : `none (${isolation.reason})`;
console.log(`agent CLIs: ${versions.join(', ')}, isolation: ${isolated}`);
