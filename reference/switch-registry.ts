/**
 * Every switch of the reference, gathered from the areas' tables (each area's `switches.ts`, or its
 * `switches/` folder, declares its switches where they take effect: see switches.ts): the catalogue
 * the harness lists (contract/switches.ts) and the names `Faults.has`/`Variants.has` accept.
 */
import type { FaultSpec, SwitchCatalogue, VariantSpec } from '../contract/switches.js';
import { directorySwitches } from './cloud-directory/switches.js';
import { schedulerSwitches } from './scheduler/switches/index.js';
import { coreAnswerSwitches } from './secrets/core-answer-switches.js';
import { coreAuthSwitches } from './secrets/core-auth-switches.js';
import { coreRouteSwitches } from './secrets/core-route-switches.js';
import { coreSwitches } from './secrets/core-switches.js';
import { coreWireSwitches } from './secrets/core-wire-switches.js';
import { cloudSwitches } from './secrets/engines/cloud/switches/index.js';
import { kvSwitches } from './secrets/engines/kv/switches.js';
import { ldapAnswerSwitches } from './secrets/engines/ldap/answer-switches.js';
import { ldapSwitches } from './secrets/engines/ldap/switches/index.js';
import { transitSwitches } from './secrets/engines/transit/switches/index.js';
import { userpassSwitches } from './secrets/engines/userpass/switches.js';
import { releaseSwitches } from './secrets/release/switches.js';

/** Every declared switch (a union of the tables' element types: spreading them into one array literal
 * would make the compiler reduce a union too large for it). */
type Declared =
  | (typeof coreSwitches)[number]
  | (typeof coreAuthSwitches)[number]
  | (typeof coreRouteSwitches)[number]
  | (typeof coreWireSwitches)[number]
  | (typeof coreAnswerSwitches)[number]
  | (typeof kvSwitches)[number]
  | (typeof transitSwitches)[number]
  | (typeof ldapSwitches)[number]
  | (typeof ldapAnswerSwitches)[number]
  | (typeof cloudSwitches)[number]
  | (typeof directorySwitches)[number]
  | (typeof userpassSwitches)[number]
  | (typeof schedulerSwitches)[number]
  | (typeof releaseSwitches)[number];

const tables: readonly Declared[] = ([] as Declared[]).concat(
  coreSwitches,
  coreAuthSwitches,
  coreRouteSwitches,
  coreWireSwitches,
  coreAnswerSwitches,
  kvSwitches,
  transitSwitches,
  ldapSwitches,
  ldapAnswerSwitches,
  cloudSwitches,
  directorySwitches,
  userpassSwitches,
  schedulerSwitches,
  releaseSwitches,
);

/** The name of every declared fault: `Faults.has` accepts nothing else. */
export type FaultName = Extract<Declared, { kind: 'fault' }>['name'];
/** The name of every declared legal variant: `Variants.has` accepts nothing else. */
export type VariantName = Extract<Declared, { kind: 'variant' }>['name'];

export const allFaults: readonly FaultSpec<FaultName>[] = tables.flatMap((s) =>
  s.kind === 'fault' ? [s.spec as FaultSpec<FaultName>] : [],
);
export const allVariants: readonly VariantSpec<VariantName>[] = tables.flatMap((s) =>
  s.kind === 'variant' ? [s.spec as VariantSpec<VariantName>] : [],
);

/** The catalogue the composition root hands the harness. */
export const switchCatalogue: SwitchCatalogue = { faults: allFaults, variants: allVariants };
