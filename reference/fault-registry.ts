import { faults as core } from './secrets/core-faults.js';
import { faults as kv } from './secrets/engines/kv/faults.js';
import { faults as transit } from './secrets/engines/transit/faults.js';
import { faults as ldap } from './secrets/engines/ldap/faults.js';
import { faults as cloud } from './secrets/engines/cloud/faults.js';
import { faults as userpass } from './secrets/engines/userpass/faults.js';
import { faults as scheduler } from './scheduler/faults.js';
import { faults as release } from './secrets/release/faults.js';

export const allFaults = [...core, ...kv, ...transit, ...ldap, ...cloud, ...userpass, ...scheduler, ...release];
