/**
 * A legal variant of the embedded reference may not meet an assumption of the catalogue (the
 * documents are silent, the suite assumes one behaviour, the variant shows another). A run with
 * that variant on switches the assumption off, exactly as a vendor's config would for a product
 * that behaves so; an assumption the user set explicitly is left as set.
 */
import type { TargetConfig } from '../config/types.js';
import type { VariantSpec } from '../../contract/switches.js';

/** `variants`: the embedded target's catalogue of variants (contract/target.ts). */
export function applyVariantAssumptions(
  cfg: TargetConfig,
  variants: readonly VariantSpec[],
  log: (m: string) => void,
): void {
  const on = new Set(cfg.reference.variants);
  for (const v of variants) {
    if (!on.has(v.name)) continue;
    for (const id of v.assumptions ?? []) {
      if (id in cfg.assumptions) continue;
      cfg.assumptions[id] = false;
      log(`variant ${v.name} switches off assumption ${id}`);
    }
  }
}
