/**
 * An error the scheduler answers with. The real scheduler writes its error bodies as plain text
 * (the jobs document leaves the format open), so the reference does the same.
 */
export class SchedError extends Error {
  /** The document gives this refusal's status itself (variants never change it). */
  documented = false;

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Marks an error whose status the document states (jobs-service.md Errors 1). */
export function documented(err: SchedError): SchedError {
  err.documented = true;
  return err;
}

export const badRequest = (message: string) => new SchedError(400, message);
export const forbidden = (message = 'Permission denied') => new SchedError(403, message);
export const notFound = (message = 'job not found') => new SchedError(404, message);
export const methodNotAllowed = () => new SchedError(405, 'Invalid method');
