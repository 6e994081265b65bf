import { describe, expect, it } from 'vitest';
import { DEFAULT_DELAYS, parseDelays } from '../../../reference/scheduler/delays.js';

describe('scheduler delays', () => {
  it('are the defaults without a setting, and take name=ms pairs over them', () => {
    expect(parseDelays(undefined)).toEqual(DEFAULT_DELAYS);
    expect(parseDelays('')).toEqual(DEFAULT_DELAYS);
    expect(parseDelays('evaluationMs=0, defaultMinHealthyMs=2000')).toEqual({
      ...DEFAULT_DELAYS,
      evaluationMs: 0,
      defaultMinHealthyMs: 2000,
    });
  });

  it('refuse an unknown name and a value that is not a non-negative number, naming them', () => {
    expect(() => parseDelays('evalMs=1')).toThrow(/unknown scheduler delay "evalMs" \(one of evaluationMs,/);
    expect(() => parseDelays('gcMs=-1')).toThrow(/gcMs needs a non-negative number of milliseconds, got "-1"/);
    expect(() => parseDelays('gcMs')).toThrow(/gcMs needs a non-negative number/);
  });
});
