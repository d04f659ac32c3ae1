/**
 * The AWS SDK's default credential provider, as bundled into the functions: an esbuild alias
 * replaces `@aws-sdk/credential-provider-node` with this module (infra/cdk/bundling.ts).
 *
 * Lambda always hands the function its role's credentials in the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), which is the first source the
 * SDK's default chain tries. The rest of that chain (SSO, shared ini files, web identity through
 * STS, the instance metadata service, ...) never runs in Lambda but costs about 75 KB of every
 * bundle. Local runs and scripts are not bundled and keep the full chain.
 */
import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init?: FromEnvInit) => fromEnv(init);
