/**
 * The documented answers of the jobs API's writes, as checks: the write response (Resources and
 * their fields > Common response fields) every write endpoint the document says answers one is
 * held to, field by field.
 */
import { bodyAt, type Check } from '../../harness/checks/index.js';

const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/**
 * "Write response: EvalID, EvalCreateIndex, JobModifyIndex, Warnings (string), Index, LastContact,
 * KnownLeader (boolean). EvalID and EvalCreateIndex are present only when an evaluation was
 * created." JobModifyIndex, Index, LastContact and KnownLeader always hold a value; Warnings holds
 * a string, and none may be left out (a field holding no value may be, issue 35 class 5); EvalID
 * and EvalCreateIndex name the evaluation when the write created one (`evaluation`).
 */
export function writeAnswer(opts: { evaluation: boolean }): Check[] {
  const checks = [
    bodyAt('/JobModifyIndex', isIndex, 'is an index'),
    bodyAt('/Index', isIndex, 'is an index'),
    bodyAt('/LastContact', Number.isInteger, 'is an integer'),
    bodyAt('/KnownLeader', (v: unknown) => typeof v === 'boolean', 'is a boolean'),
    bodyAt('/Warnings', (v: unknown) => v === undefined || typeof v === 'string', 'is a string (left out when empty)'),
  ];
  if (opts.evaluation)
    checks.push(
      bodyAt('/EvalID', (v: unknown) => typeof v === 'string' && v !== '', 'names the evaluation the write created'),
      bodyAt('/EvalCreateIndex', (v: unknown) => isIndex(v) && (v as number) > 0, 'is a positive index'),
    );
  return checks;
}
