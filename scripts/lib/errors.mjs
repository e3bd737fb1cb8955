/** A build failure the user can act on: printed as one line, without a stack. */
export class BuildError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BuildError';
  }
}
