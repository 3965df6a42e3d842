// Preloaded (node -r) into both servers of bench row 22 when their memory at rest is read: on SIGUSR2,
// a full garbage collection, then process.memoryUsage() on stderr as one line starting "memory ".
'use strict';
const { setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
process.on('SIGUSR2', () => {
  gc();
  process.stderr.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
});
