import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import dns2 from 'dns2';

/**
 * The local stack's DNS server (docs/brand-domains.md): a dns2 UDP server on 127.0.0.1 that
 * answers TXT queries from a JSON file under the stack's run directory, so that verifying a brand
 * domain runs end to end on one machine. `npm run admin -- dns set-txt` writes the file (from
 * another process); the server reads it on every query, so a record is live as soon as it is
 * written. Other names and types answer NXDOMAIN or an empty answer.
 */
export type TxtRecords = Record<string, string[]>;

/** The records file of the stack whose gateway runs on `port`. */
export const dnsRecordsFile = (dataDir: string, port: number): string => join(dataDir, 'run', `dns-${port}.json`);

const normalize = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

export function readTxtRecords(file: string): TxtRecords {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as TxtRecords;
  } catch {
    return {};
  }
}

/** Replaces the TXT records of `name` with `values` (none: removes them); atomic for readers. */
export function setTxtRecords(file: string, name: string, values: string[]): void {
  const records = readTxtRecords(file);
  if (values.length) records[normalize(name)] = values;
  else delete records[normalize(name)];
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** A TXT value as character-strings of at most 255 octets (RFC 1035 3.3.14), read back joined. */
function chunks(value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i += 255) out.push(value.slice(i, i + 255));
  return out.length ? out : [''];
}

export interface LocalDns {
  /** `127.0.0.1:port`, as DNS_SERVER takes it. */
  server: string;
  stop(): Promise<void>;
}

/** Starts the server on a free UDP port of 127.0.0.1, answering from `recordsFile`. */
export async function startDns(recordsFile: string): Promise<LocalDns> {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = question ? readTxtRecords(recordsFile)[normalize(question.name)] : undefined;
      if (!question || !values) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT) {
        for (const value of values) {
          response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 0, data: chunks(value) }));
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('The local DNS server did not report its port.');
  return {
    server: `127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
    },
  };
}
