/** Raw socket servers for transport tests: answers dripped byte by byte, and answers far larger than any cap. */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SocketServer {
  baseUrl: string;
  /** Bytes of body each connection managed to write before it ended or the client closed it. */
  bodyBytesWritten: number[];
  close(): Promise<void>;
}

async function listen(onConnection: (socket: Socket, written: (bytes: number) => void) => void): Promise<SocketServer> {
  const bodyBytesWritten: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const index = bodyBytesWritten.push(0) - 1;
    let requestSeen = false;
    socket.on('data', (chunk) => {
      if (requestSeen || !chunk.toString('latin1').includes('\r\n\r\n')) return;
      requestSeen = true;
      onConnection(socket, (bytes) => (bodyBytesWritten[index] = (bodyBytesWritten[index] ?? 0) + bytes));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    bodyBytesWritten,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n';

/** Answers every request with a JSON body sent one byte every `everyMs`, for `forMs`, then ends it (a complete answer, late). */
export function drippingServer(everyMs: number, forMs: number): Promise<SocketServer> {
  const body = JSON.stringify({ error: 0, id: 1, shorturl: 'https://s.io/a' });
  return listen((socket, written) => {
    socket.write(HEAD);
    const started = Date.now();
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      if (Date.now() - started >= forMs) {
        clearInterval(timer);
        socket.end(body.slice(sent));
        return;
      }
      // The JSON's last byte waits for the end; spaces before it keep the answer going.
      const next = sent < body.length - 1 ? body[sent++]! : ' ';
      socket.write(next);
      written(1);
    }, everyMs);
    socket.on('close', () => clearInterval(timer));
  });
}

/** Answers every request with `totalBytes` of a JSON body as fast as the client reads, with no Content-Length. */
export function floodingServer(totalBytes: number): Promise<SocketServer> {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  return listen((socket, written) => {
    socket.write(HEAD);
    socket.write('{"error":0,"data":"');
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes && !socket.destroyed) {
        sent += chunk.length;
        written(chunk.length);
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed) socket.end('"}');
    };
    pump();
  });
}

/** Samples the process's resident memory until stopped; returns the peak growth over the start, in MB. */
export function rssPeak(): { stop: () => number } {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return {
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return Math.round((peak - start) / 1024 / 1024);
    },
  };
}
