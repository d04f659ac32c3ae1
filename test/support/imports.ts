import { call, type ApiResponse } from './api.ts';
import { until } from './until.ts';

/** An import job read until it has finished (succeeded or failed), for at most 60 s (docs/testing.md: never a fixed wait). */
export const finishedImport = (key: string, importId: string): Promise<ApiResponse> =>
  until(
    `import ${importId} to finish`,
    async () => {
      const job = await call('GET', `/v1/imports/${importId}`, { key });
      return job.body.status === 'succeeded' || job.body.status === 'failed' ? job : undefined;
    },
    60_000,
    50,
  );
