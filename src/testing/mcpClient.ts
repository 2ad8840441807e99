// `ndb mcp` started as the contract says (`npm run --silent ndb -- mcp`) and driven by the MCP
// SDK's own client over stdio, for the MCP tests: every answer's structured result must be its
// text result too, and none is over the documented cap.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { MAX_RESULT_CHARS } from '../mcp/toolKit';

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: Array<{ type: string; text?: string }>;
}

export interface McpTestClient {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr: string[];
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  error(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function startMcp(extraArgs: string[] = []): Promise<McpTestClient> {
  const transport = new StdioClientTransport({ command: 'npm', args: ['run', '--silent', 'ndb', '--', 'mcp', ...extraArgs], cwd: REPO_ROOT, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'ndb-test', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolResult;
    expect(result.content[0]!.text!.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    if (!result.isError) expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
    return result;
  };
  return {
    client,
    stderr,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      return result.structuredContent!;
    },
    async error(name, args) {
      const result = await call(name, args);
      expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
      return result.content[0]!.text!;
    },
    close: () => client.close(),
  };
}
