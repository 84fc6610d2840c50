import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StartedProcess } from '../terminal/terminal-runner.ts';

/** How much of a server's stderr is kept to say why it stopped (its last bytes). */
const STDERR_TAIL_BYTES = 2048;

/**
 * The MCP stdio transport (newline-delimited JSON-RPC) over a process the terminal runner started in the
 * sandbox. The SDK's own `StdioClientTransport` spawns its process itself, outside any sandbox; this one
 * takes the sandboxed process. A line longer than `maxMessageBytes` closes the transport and kills the
 * server: a hostile server cannot make Forja hold an unbounded message.
 */
export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer: ReadBuffer;
  private stderrTail = Buffer.alloc(0);
  private closed = false;
  private readonly started: StartedProcess;

  constructor(started: StartedProcess, maxMessageBytes: number) {
    this.started = started;
    this.buffer = new ReadBuffer({ maxBufferSize: maxMessageBytes });
  }

  /** The last bytes the server wrote to stderr, as text. */
  stderr(): string {
    return this.stderrTail.toString('utf8');
  }

  async start(): Promise<void> {
    const { child } = this.started;
    child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      const joined = Buffer.concat([this.stderrTail, chunk]);
      this.stderrTail = joined.subarray(Math.max(0, joined.length - STDERR_TAIL_BYTES));
    });
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.once('error', (error) => this.onerror?.(error));
    child.once('close', () => this.ended());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const { stdin } = this.started.child;
    if (this.closed || stdin.destroyed) throw new Error('the server has stopped');
    await new Promise<void>((resolve, reject) =>
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve())),
    );
  }

  async close(): Promise<void> {
    this.started.kill();
    this.ended();
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
      for (;;) {
        const message = this.buffer.readMessage();
        if (message === null) break;
        this.onmessage?.(message);
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
    }
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
