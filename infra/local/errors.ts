/** A start-up problem the user can fix; `npm start` prints its message alone, without a stack. */
export class StartupError extends Error {
  override name = 'StartupError';
}
