/**
 * What the simulated cloud directory chooses on its own: the form of the client ids and secrets it
 * issues. The documents fix no format for either (they are the directory's, passed on by the
 * engine); the switches (switches.ts) replace these by name.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export const directoryRules = {
  /** A new application's client id: a UUID, as the upstream product's directory issues. */
  newClientId: (): string => randomUUID(),
  /** A new client secret: 40 URL-safe characters. */
  newSecretText: (): string => randomBytes(30).toString('base64url'),
};

export type DirectoryRules = typeof directoryRules;
