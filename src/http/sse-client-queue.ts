/** One server-sent event as Hono's `writeSSE` takes it. */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** Bytes waiting for slow clients, over all event streams of this process (for tests and status). */
export const streamBuffers = { queuedBytes: 0, disconnected: 0 };

/** The default limit of one client's queue; a client further behind is disconnected and resumes from Last-Event-ID. */
export const DEFAULT_STREAM_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * What one event-stream client has not taken yet. Each write is awaited (it resolves when the connection has
 * taken the bytes), so a client that reads slowly holds its messages here, and only up to `limitBytes`: a
 * message that would pass the limit disconnects the client instead (`onOverflow`) and drops what it held.
 * A message is always accepted into an empty queue, so a client that reads makes progress whatever the sizes.
 */
export class SseClientQueue {
  private readonly queue: SseMessage[] = [];
  private queuedBytes = 0;
  private pumping: Promise<void> | null = null;
  private closed = false;
  private readonly write: (message: SseMessage) => Promise<void>;
  private readonly limitBytes: number;
  private readonly onOverflow: () => void;

  constructor(
    write: (message: SseMessage) => Promise<void>,
    limitBytes: number,
    onOverflow: () => void,
  ) {
    this.write = write;
    this.limitBytes = limitBytes;
    this.onOverflow = onOverflow;
  }

  /** Bytes queued or being written for this client. */
  get bytes(): number {
    return this.queuedBytes;
  }

  push(message: SseMessage): void {
    if (this.closed) return;
    const size = sizeOf(message);
    if (this.queuedBytes > 0 && this.queuedBytes + size > this.limitBytes) {
      streamBuffers.disconnected += 1;
      this.close();
      this.onOverflow();
      return;
    }
    this.queue.push(message);
    this.queuedBytes += size;
    streamBuffers.queuedBytes += size;
    this.pumping ??= this.pump();
  }

  /** Resolves when everything pushed so far has been written (or the queue is closed). */
  async drained(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  close(): void {
    this.closed = true;
    streamBuffers.queuedBytes -= this.queuedBytes;
    this.queuedBytes = 0;
    this.queue.length = 0;
  }

  private async pump(): Promise<void> {
    try {
      for (
        let message = this.queue.shift();
        message && !this.closed;
        message = this.queue.shift()
      ) {
        await this.write(message).catch(() => undefined);
        if (this.closed) return;
        const size = sizeOf(message);
        this.queuedBytes -= size;
        streamBuffers.queuedBytes -= size;
      }
    } finally {
      this.pumping = null;
    }
  }
}

function sizeOf(message: SseMessage): number {
  return message.data.length + message.event.length + (message.id?.length ?? 0) + 24;
}
