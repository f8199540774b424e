// The baseline of every benchmark figure: a bare node:http server answering every request with a
// fixed JSON body (the bytes of the service's default events page), after reading the request body.
// Usage: node bench/baseline-server.mjs <body-file> [content-encoding]; prints {"port": N} once listening.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import process from 'node:process';

const body = readFileSync(process.argv[2]);
const headers = { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': String(body.length) };
if (process.argv[3]) headers['Content-Encoding'] = process.argv[3];

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
