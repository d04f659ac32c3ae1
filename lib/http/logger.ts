import { Logger } from '@aws-lambda-powertools/logger';

let instance: Logger | undefined;

/**
 * The structured logger of every function (one per process). Whole events are never logged: they
 * carry API keys, cookies and signatures.
 *
 * Created on first use: setting up a Powertools logger (its console over stdout and stderr, its
 * configuration) is about a tenth of the resolver's cold start, and a scan that goes well logs
 * nothing (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk).
 */
export function logger(): Logger {
  instance ??= new Logger({ serviceName: 'product-passport' });
  return instance;
}
