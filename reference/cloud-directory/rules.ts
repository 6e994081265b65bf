/**
 * What the simulated cloud directory chooses on its own: the form of the client ids and secrets it
 * issues, and how long a new secret takes to authenticate. The documents fix none of these (they
 * are the directory's, passed on by the engine); the switches (switches.ts) replace these by name.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export const directoryRules = {
  /** A new application's client id: a UUID, as the upstream product's directory issues. */
  newClientId: (): string => randomUUID(),
  /** A new client secret: 40 URL-safe characters. */
  newSecretText: (): string => randomBytes(30).toString('base64url'),
  /** How long a new secret takes to authenticate (ms): at once. */
  secretPropagationMs: 0,
};

export type DirectoryRules = typeof directoryRules;
