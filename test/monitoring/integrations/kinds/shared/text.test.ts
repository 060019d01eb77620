// The pieces of text every kind's messages share.
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../../../src/monitoring/integrations/kinds/shared/text.ts';

describe('formatDuration (Healthchecks\' format_duration)', () => {
  it('format_duration names whole weeks only', () => {
    expect(formatDuration(86400)).toBe('1 day');
    expect(formatDuration(604800)).toBe('1 week');
    expect(formatDuration(691200)).toBe('8 days');
    expect(formatDuration(5400)).toBe('1 hour 30 minutes');
  });
});
