import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PassportClient, type PassportClientOptions, type PublishPassportBody } from '../src/index.ts';
import { baseUrl } from '../../test/support/api.ts';

/** The SDK's client against the suite's local stack (or `options.baseUrl`). */
export const sdkClient = (apiKey: string, options: Partial<PassportClientOptions> = {}): PassportClient =>
  new PassportClient({ apiKey, baseUrl: baseUrl(), ...options });

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npx tsx FILE ARGS` (an example) or the CLI's bin as a user would, from the repository root,
 * and waits for it to end (at most 60 s; the stack's answers, not a fixed wait, set its pace).
 */
export function run(command: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const [file = '', ...args] = command;
    const child = spawn(file, args, { cwd: REPO, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A long-running child (a receiver, `events tail`): its output so far, a wait for a line, and stop. */
export function start(command: string[], env: Record<string, string> = {}) {
  const [file = '', ...args] = command;
  const child = spawn(file, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  return {
    output,
    /** Polls (every 50 ms, at most `timeoutMs`) until a line of stdout (or stderr) matches. */
    async waitForLine(pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout', timeoutMs = 45_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = output[stream].split('\n').find((l) => pattern.test(l));
        if (line) return line;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no line ${pattern} (exit ${child.exitCode}); stdout: ${output.stdout}; stderr: ${output.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('close', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** One request the stub received. */
export interface StubRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * What the stub does with a request: answer it itself (a status, headers, a body), pass it on to
 * the stack, or pass it on and then drop the connection without answering (an answer lost on the way).
 */
export type StubAction = { status: number; headers?: Record<string, string>; body?: unknown } | 'pass' | 'lose';

/**
 * A loopback HTTP stub in front of the local stack, for faults the stack does not make on demand:
 * 429 and 503 with Retry-After, a lost answer. `act` decides from the request and how many came
 * before it (of the same method and path).
 */
export async function startStub(act: (request: StubRequest, index: number) => StubAction) {
  const requests: StubRequest[] = [];
  const target = baseUrl();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: StubRequest = { at: Date.now(), method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers };
    const index = requests.filter((r) => r.method === request.method && r.path.split('?')[0] === request.path.split('?')[0]).length;
    requests.push(request);
    const action = act(request, index);
    if (typeof action === 'object') {
      res.writeHead(action.status, { 'content-type': 'application/json', 'request-id': `stub-${requests.length}`, ...action.headers });
      res.end(action.body === undefined ? '' : JSON.stringify(action.body));
      return;
    }
    const headers = Object.entries(req.headers).flatMap(([name, value]) => (name === 'host' || name === 'content-length' || name === 'connection' || value === undefined ? [] : [[name, String(value)] as [string, string]]));
    const answer = await fetch(`${target}${request.path}`, { method: request.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await answer.arrayBuffer());
    if (action === 'lose') {
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'content-length') out[name] = value;
    });
    res.writeHead(answer.status, out).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The house error object, as the stub answers a refusal. */
export const errorBody = (type: string, message: string) => ({ error: { type, code: type, message } });

/** A complete red wine passport (test/support/fixtures.ts's RED_WINE), typed by the SDK. */
export const WINE: PublishPassportBody['data'] = {
  productType: 'wine',
  colour: 'red',
  vintage: 2022,
  ingredients: ['Grapes', 'Preservative: sulphites'],
  nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 },
  allergens: { containsSulphites: true, containsEgg: false, containsFish: false, containsMilk: false },
  origin: { country: 'FR', region: 'Bordeaux', designation: 'AOC Bordeaux Supérieur' },
  producers: [{ name: 'Château Exemple', role: 'producer', country: 'FR' }],
};
