/**
 * The directory suite's entry point into the harness: checks that look at the directory itself
 * (binds, entries, group members) and a free port for a directory that must not answer.
 */
export {
  addMember,
  canBind,
  createAccount,
  deleteEntry,
  entryExists,
  findEntries,
  readAttribute,
  removeMember,
  type DirectoryAdmin,
} from './verify.js';
export { freePort } from './slapd.js';
