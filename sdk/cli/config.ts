import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `passport login` keeps the key (docs/cli.md#login): `$XDG_CONFIG_HOME/passport/config.json`
 * (`~/.config/passport/` without it; `%APPDATA%\passport\` on Windows), the file mode 0600 in a 0700
 * directory, so only the user reads it. PASSPORT_API_KEY and PASSPORT_BASE_URL override it.
 */
export interface Config {
  apiKey: string;
  baseUrl: string;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'passport');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'passport');
  return join(homedir(), '.config', 'passport');
}

export const configFile = (env: NodeJS.ProcessEnv = process.env): string => join(configDir(env), 'config.json');

export async function readConfig(env: NodeJS.ProcessEnv = process.env): Promise<Partial<Config>> {
  let stored: Partial<Config> = {};
  try {
    stored = JSON.parse(await readFile(configFile(env), 'utf8')) as Partial<Config>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return {
    ...stored,
    ...(env.PASSPORT_API_KEY ? { apiKey: env.PASSPORT_API_KEY } : {}),
    ...(env.PASSPORT_BASE_URL ? { baseUrl: env.PASSPORT_BASE_URL } : {}),
  };
}

/** Writes the config whole: a 0600 file beside it, renamed over it, so no reader sees half a file. */
export async function writeConfig(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = configFile(env);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
  return file;
}
