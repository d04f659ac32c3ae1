/**
 * The entries of a registry upload file in XML read back: the tests' own reader of the format
 * docs/registry.md#the-xml-file defines (the unit and the integration tests of the files use it).
 */
export function readXml(body: string): Record<string, unknown>[] {
  const unescape = (s: string) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_m, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '');
  const text = (block: string, name: string) => {
    const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(block);
    return m ? unescape(m[1] ?? '') : undefined;
  };
  return [...body.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map(([, block = '']) => {
    const entry: Record<string, unknown> = {
      upi: text(block, 'upi'),
      reoId: text(block, 'reoId'),
      facilitiesId: [...block.matchAll(/<facilityId>([^<]*)<\/facilityId>/g)].map((m) => unescape(m[1] ?? '')),
      liveURL: text(block, 'liveURL'),
      backupURL: text(block, 'backupURL'),
      commodityCode: text(block, 'commodityCode'),
      granularityLevel: text(block, 'granularityLevel'),
    };
    if (block.includes('<deactivated/>')) entry.deactivated = null;
    const deactivated = text(block, 'deactivated');
    if (deactivated !== undefined) entry.deactivated = deactivated === 'true';
    return entry;
  });
}

