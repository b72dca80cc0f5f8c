#!/usr/bin/env node
// Prints the pinned agent CLIs' versions and whether their runs are isolated, in one line for CI's
// summary: `agent CLIs: claude-code 2.1.197, gemini-cli 0.61.0, codex 0.171.0, qwen-code 0.15.10,
// isolation: unshare -n` (every CLI of `agentClis`, at the version installed from the catalog).
// Exits 1 when a CLI cannot be resolved. Needs @cairn/testing built.
import { agentCliIsolation, agentClis, resolveAgentCli } from '@cairn/testing/agent-clis';

const versions = Object.values(agentClis).map(
  (cli) => `${cli.name} ${resolveAgentCli(cli, import.meta.url).version}`,
);
const isolation = agentCliIsolation();
const isolated =
  isolation.kind === 'network-namespace' ? isolation.description : `none (${isolation.reason})`;
console.log(`agent CLIs: ${versions.join(', ')}, isolation: ${isolated}`);
