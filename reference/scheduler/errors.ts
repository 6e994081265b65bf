/**
 * An error the scheduler answers with. The real scheduler writes its error bodies as plain text
 * (the jobs document leaves the format open), so the reference does the same.
 */
export class SchedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new SchedError(400, message);
export const forbidden = (message = 'Permission denied') => new SchedError(403, message);
export const notFound = (message = 'job not found') => new SchedError(404, message);
export const methodNotAllowed = () => new SchedError(405, 'Invalid method');
