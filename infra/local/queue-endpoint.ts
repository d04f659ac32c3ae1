/**
 * The local SQS endpoint's own process: `node queue-endpoint.ts {listenPort} {fauxqsPort}` relays
 * every connection on 127.0.0.1:{listenPort} to fauxqs, which runs in the stack's process and
 * keeps the queues' messages there. Killing this process (by its PID, infra/local/stack.ts) is an
 * SQS outage as clients see one: connections refused or dropped, while the messages survive, as
 * SQS keeps them through an outage; starting it again on the same port ends it. Plain Node (no
 * npm package, erasable types only), so that Node runs this file as it is.
 */
import { connect, createServer, type Socket } from 'node:net';

const [listenPort, targetPort] = process.argv.slice(2).map(Number);
if (!listenPort || !targetPort) {
  console.error('usage: node queue-endpoint.ts {listenPort} {fauxqsPort}');
  process.exit(2);
}

const server = createServer((client: Socket) => {
  const upstream = connect(targetPort, '127.0.0.1');
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
  client.pipe(upstream);
  upstream.pipe(client);
});
server.on('error', (error) => {
  console.error(`queue endpoint: ${error.message}`);
  process.exit(1);
});
server.listen(listenPort, '127.0.0.1', () => console.log(`listening ${listenPort}`));
// The stack stops it with SIGTERM; a fault test kills it with SIGKILL. Its stdin is a pipe from the
// stack: when the stack's process ends, however it ends, the pipe closes and so does this process.
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('close', () => process.exit(0)).resume();
