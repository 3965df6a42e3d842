// A free loopback TCP port for a test's server, chosen below the kernel's ephemeral range. A port the
// kernel hands out (listen on port 0) comes from that range, the one outgoing connections take their
// local ports from: between its choice and its use (a worker started a minute after the stack's other
// processes), a connection may take it, and the server then fails with EADDRINUSE (it did in the n8n
// queue-mode suite: "Port 46557 is already in use"). Below the range, only a listener can take it.
'use strict';
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');

const LOWEST = 20_000;

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
function ephemeralStart() {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether a server can listen on `port` now (or, for 0, the port the kernel picked). */
function listens(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const picked = server.address().port;
      server.close(() => resolve(picked));
    });
  });
}

/** A free port, never one `taken` holds nor next to one (n8n's task broker listens on its port + 1); added to `taken`. */
async function freePort(taken = new Set()) {
  const end = ephemeralStart();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = end - LOWEST > 1_000 ? LOWEST + Math.floor(Math.random() * (end - LOWEST - 1)) : await listens(0);
    if (port === undefined || [port - 1, port, port + 1].some((near) => taken.has(near))) continue;
    if ((await listens(port)) !== port) continue;
    taken.add(port);
    return port;
  }
  throw new Error('no free loopback port found below the ephemeral range');
}

module.exports = { freePort };
