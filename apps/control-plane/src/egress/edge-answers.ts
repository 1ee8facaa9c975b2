import type * as http from 'node:http';
import type { Duplex } from 'node:stream';

const REASONS: Record<number, string> = {
  200: 'Connection Established',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
};

/** A plain-text answer that says what was wrong, unless an answer has started already. */
export function answer(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${message}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-sessionboxer-edge': 'refused',
  });
  res.end(body);
}

/** The same answer written on a raw socket (a CONNECT that is not tunnelled, a bad request). */
export function answerSocket(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
      'content-type: text/plain; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'x-sessionboxer-edge: refused\r\n' +
      'connection: close\r\n\r\n' +
      body,
  );
}
