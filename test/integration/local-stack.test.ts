import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, inject, it } from 'vitest';

/**
 * The local stack's servers (DynamoDB Local, fauxqs, the gateway, the identity provider) answer
 * without authentication, so they must listen on the loopback address only.
 */
const servers = (): Record<string, number> => {
  const stack = inject('stack');
  return {
    dynamodb: Number(new URL(stack.dynamodbEndpoint).port),
    sqs: Number(new URL(stack.sqsEndpoint).port),
    gateway: stack.port,
    identityProvider: Number(new URL(stack.oidcIssuer).port),
  };
};

/** This machine's own addresses other than loopback (only these are dialled). */
const ownAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal && !address.address.startsWith('fe80:'))
    .map((address) => address!.address);

/** Whether a TCP connection to host:port is accepted (refused or unreachable: false). */
const accepts = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });

/** The local addresses of the listening sockets on `port`, from /proc/net/tcp and tcp6 (Linux). */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A: LISTEN
      const [address, hexPort] = local.split(':');
      if (address && Number.parseInt(hexPort ?? '', 16) === port) found.push(address);
    }
  }
  return found;
}

/** The local addresses of the UDP sockets bound to `port`, from /proc/net/udp and udp6 (Linux). */
function udpAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ['/proc/net/udp', '/proc/net/udp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local] = line.trim().split(/\s+/);
      const [address, hexPort] = (local ?? '').split(':');
      if (address && Number.parseInt(hexPort ?? '', 16) === port) found.push(address);
    }
  }
  return found;
}

/** 127.0.0.1, ::1 or ::ffff:127.0.0.1 in /proc/net's hexadecimal notation (little-endian words). */
const LOOPBACK = new Set(['0100007F', '00000000000000000000000001000000', '0000000000000000FFFF00000100007F']);

describe('the local stack', () => {
  it('attack: the local emulators are not reachable on a non-loopback address', async () => {
    // Prepare
    const ports = servers();
    const addresses = ownAddresses();

    // Act
    const reachable: string[] = [];
    for (const [name, port] of Object.entries(ports)) {
      for (const address of addresses) if (await accepts(address, port)) reachable.push(`${name} on ${address}:${port}`);
    }
    const onLoopback = await Promise.all(Object.values(ports).map((port) => accepts('127.0.0.1', port)));

    // Assess: unreachable from this machine's other addresses, still served on loopback.
    expect(reachable).toEqual([]);
    expect(onLoopback).toEqual(Object.values(ports).map(() => true));
  });

  it.runIf(existsSync('/proc/net/tcp'))('attack: no stack server listens on a wildcard or non-loopback address', () => {
    // Prepare
    const ports = servers();

    // Act
    const listening = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, listeningAddresses(port)]));

    // Assess: every server listens, and only on loopback addresses.
    for (const [name, addresses] of Object.entries(listening)) {
      expect(addresses.length, `${name} listens`).toBeGreaterThan(0);
      expect(addresses.filter((address) => !LOOPBACK.has(address)), `${name} listens only on loopback`).toEqual([]);
    }
  });

  it.runIf(existsSync('/proc/net/udp'))('attack: the DNS server that verifies brand domains is bound to loopback only', () => {
    // Prepare
    const port = Number(inject('stack').dnsServer.split(':').at(-1));

    // Act
    const addresses = udpAddresses(port);

    // Assess
    expect(addresses.length, 'the DNS server is bound').toBeGreaterThan(0);
    expect(addresses.filter((address) => !LOOPBACK.has(address))).toEqual([]);
  });
});
