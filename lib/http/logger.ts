import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The structured logger of every function. Whole events are never logged: they carry API keys,
 * cookies and signatures.
 */
export const logger = new Logger({ serviceName: 'product-passport' });
