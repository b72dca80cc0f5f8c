// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the configuration syntax under test
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from './mcp-config.js';

const env = { TOKEN: 'secret', EMPTY: '' };

describe('parseMcpConfig', () => {
  it('reads stdio and http servers, expanding ${VAR} and ${VAR:-default} in every string', () => {
    const servers = parseMcpConfig(
      {
        mcpServers: {
          local: { command: 'npx', args: ['-y', 'pkg', '${HOME_DIR:-/tmp}'], env: { KEY: '${TOKEN}' } },
          remote: {
            type: 'http',
            url: '${BASE:-https://example.com}/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}', Empty: '${EMPTY:-none}' },
          },
        },
      },
      { env },
    );
    expect(servers).toEqual({
      local: { command: 'npx', args: ['-y', 'pkg', '/tmp'], env: { KEY: 'secret' } },
      remote: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer secret', Empty: 'none' },
      },
    });
  });

  it('names the server and the field of a mistake', () => {
    expect(() =>
      parseMcpConfig({ mcpServers: { files: { args: [] } } }, { env, source: '.mcp.json' }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^MCP configuration \.mcp\.json, server "files": field command /),
        details: { server: 'files', field: 'command' },
      }),
    );
    expect(() => parseMcpConfig({ mcpServers: { web: { type: 'http', url: 'ftp://x' } } }, { env })).toThrow(
      /server "web": field url/,
    );
    expect(() => parseMcpConfig({ mcpServers: { web: { type: 'http', url: '${NOPE}' } } }, { env })).toThrow(
      /server "web" field url: the environment variable NOPE is not set/,
    );
    expect(() => parseMcpConfig({ servers: {} }, { env })).toThrow(/mcpServers/);
    expect(() => parseMcpConfig({ mcpServers: { 'a b': { command: 'x' } } }, { env })).toThrow(
      /not a server name/,
    );
  });
});
