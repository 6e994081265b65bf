import { variants as core } from './secrets/core-variants.js';
import { variants as kv } from './secrets/engines/kv/variants.js';
import { variants as transit } from './secrets/engines/transit/variants.js';
import { variants as ldap } from './secrets/engines/ldap/variants.js';
import { variants as cloud } from './secrets/engines/cloud/variants.js';
import { variants as userpass } from './secrets/engines/userpass/variants.js';
import { variants as scheduler } from './scheduler/variants.js';
import { variants as release } from './secrets/release/variants.js';

export const allVariants = [...core, ...kv, ...transit, ...ldap, ...cloud, ...userpass, ...scheduler, ...release];
