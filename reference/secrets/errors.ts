/** An error the secrets service answers with: status >= 400 and `{errors: [...]}`. */
export class SvcError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join('; ') || `status ${status}`);
  }
}

export const badRequest = (...messages: string[]) => new SvcError(400, messages);
export const forbidden = (...messages: string[]) =>
  new SvcError(403, messages.length ? messages : ['permission denied']);
export const notFound = (...messages: string[]) => new SvcError(404, messages);
export const unsupportedPath = () => new SvcError(404, ['unsupported path']);
export const methodNotAllowed = () => new SvcError(405, ['unsupported operation']);

/**
 * A refusal by the ACL (a valid token whose policies do not grant the path), kept apart from a
 * missing or unknown token: the documents let the former answer 404 to avoid leaking state.
 */
export class PermissionDenied extends SvcError {
  constructor(
    /** Whether the refused path exists (known for engine paths; a refusal must not tell). */
    readonly pathExists?: boolean,
  ) {
    super(403, ['permission denied']);
  }
}

export const permissionDenied = (pathExists?: boolean) => new PermissionDenied(pathExists);
