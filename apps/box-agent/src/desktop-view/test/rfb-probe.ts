import type * as net from 'node:net';
import type { WebSocket } from 'ws';

/** Where a probe's bytes go: a box's connection, or a browser's WebSocket to the relay. */
export interface RfbWire {
  write(bytes: Buffer | string): void;
  onData(listener: (bytes: Buffer) => void): void;
  onClose(listener: () => void): void;
}

export function socketWire(socket: net.Socket): RfbWire {
  return {
    write: (bytes) => void socket.write(bytes),
    onData: (listener) => void socket.on('data', listener),
    onClose: (listener) => void socket.on('close', listener),
  };
}

export function webSocketWire(ws: WebSocket): RfbWire {
  return {
    write: (bytes) => ws.send(typeof bytes === 'string' ? Buffer.from(bytes) : bytes),
    onData: (listener) => void ws.on('message', (data: Buffer) => listener(data)),
    onClose: (listener) => void ws.on('close', listener),
  };
}

/**
 * A minimal RFB 3.8 client for tests: enough to finish the handshake, move the pointer and
 * ask for a frame, byte for byte as noVNC does.
 */
export class RfbProbe {
  private buffer = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  private closed = false;
  width = 0;
  height = 0;
  /** Bytes per pixel of the server's pixel format (raw rectangles are width × height × this). */
  bytesPerPixel = 4;

  constructor(private readonly socket: RfbWire) {
    socket.onData((d: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.waiter?.();
    });
    socket.onClose(() => {
      this.closed = true;
      this.waiter?.();
    });
  }

  async read(n: number, timeoutMs = 10_000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.buffer.length < n) {
      if (this.closed) throw new Error(`the view closed after ${this.buffer.length} of ${n} bytes`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${n} bytes within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** ProtocolVersion, security None, ClientInit (shared), ServerInit. */
  async handshake(): Promise<void> {
    const version = (await this.read(12)).toString('latin1');
    if (!version.startsWith('RFB 003.')) throw new Error(`not RFB: ${JSON.stringify(version)}`);
    this.socket.write('RFB 003.008\n');
    const count = (await this.read(1))[0];
    const types = [...(await this.read(count))];
    if (!types.includes(1)) throw new Error(`no None security type among ${types.join(',')}`);
    this.socket.write(Buffer.from([1]));
    const result = (await this.read(4)).readUInt32BE(0);
    if (result !== 0) throw new Error(`security result ${result}`);
    this.socket.write(Buffer.from([1]));
    const init = await this.read(24);
    this.width = init.readUInt16BE(0);
    this.height = init.readUInt16BE(2);
    this.bytesPerPixel = init.readUInt8(4) / 8;
    await this.read(init.readUInt32BE(20));
  }

  pointer(x: number, y: number, buttons = 0): void {
    const m = Buffer.alloc(6);
    m.writeUInt8(5, 0);
    m.writeUInt8(buttons, 1);
    m.writeUInt16BE(x, 2);
    m.writeUInt16BE(y, 4);
    this.socket.write(m);
  }

  /**
   * A full-screen, non-incremental FramebufferUpdateRequest; resolves with the update's header
   * (the rectangles' pixels are left unread: call it last, or on a fresh probe).
   */
  async frame(): Promise<{ type: number; rectangles: number }> {
    const m = Buffer.alloc(10);
    m.writeUInt8(3, 0);
    m.writeUInt16BE(this.width, 6);
    m.writeUInt16BE(this.height, 8);
    this.socket.write(m);
    const head = await this.read(4);
    return { type: head[0], rectangles: head.readUInt16BE(2) };
  }

  /** Asks for what changed (incremental: only the changes, when there are any). */
  requestUpdate(incremental = true): void {
    const m = Buffer.alloc(10);
    m.writeUInt8(3, 0);
    m.writeUInt8(incremental ? 1 : 0, 1);
    m.writeUInt16BE(this.width, 6);
    m.writeUInt16BE(this.height, 8);
    this.socket.write(m);
  }

  /** One whole FramebufferUpdate of raw rectangles (the only encoding a probe asks for). */
  async update(timeoutMs = 10_000): Promise<Array<{ x: number; y: number; w: number; h: number }>> {
    const head = await this.read(4, timeoutMs);
    if (head[0] !== 0) throw new Error(`server message ${head[0]}, not a FramebufferUpdate`);
    const rects = [];
    for (let i = 0; i < head.readUInt16BE(2); i++) {
      const r = await this.read(12, timeoutMs);
      const rect = {
        x: r.readUInt16BE(0),
        y: r.readUInt16BE(2),
        w: r.readUInt16BE(4),
        h: r.readUInt16BE(6),
      };
      if (r.readInt32BE(8) !== 0) throw new Error(`encoding ${r.readInt32BE(8)}, not raw`);
      await this.read(rect.w * rect.h * this.bytesPerPixel, timeoutMs);
      rects.push(rect);
    }
    return rects;
  }
}
