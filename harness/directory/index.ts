/**
 * The directory suite's entry point into the harness: checks that look at the directory itself
 * (binds, entries, attributes, group members), a free port for a directory that must not answer,
 * and listeners beside the directory (silent, client-certificate, UPN binds).
 */
export {
  addMember,
  canBind,
  createAccount,
  createUnit,
  deleteEntry,
  entryExists,
  findEntries,
  readAttribute,
  readBinaryAttribute,
  removeMember,
  type DirectoryAdmin,
} from './verify.js';
export { freePort } from './slapd.js';
export { clientCertListener, type Listener, type SilentListener, silentListener, upnListener } from './listeners.js';
