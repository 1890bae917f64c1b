import { describe, expect, it } from 'vitest';
import { leaseTakenOverRecord } from '../../../cli/output/leaseTakenOverLine.js';
import { pollReport } from './pollReportFixture.js';

describe('leaseTakenOverRecord', () => {
  it('says whose lease was taken over, by pid and host for a local run', () => {
    const report = pollReport({ leaseTakenOverFrom: 'build-7:4242:mg1a2b3c' });
    expect(leaseTakenOverRecord(report)).toEqual({
      level: 'warn',
      kind: 'lifecycle',
      message: `${report.organization.name}: the run that held its lease (pid 4242 on build-7) is no longer running; polling in its place`,
      fields: {
        event: 'lease-taken-over',
        organization: report.organization.name,
        organizationId: report.organization.id,
        previousOwner: 'build-7:4242:mg1a2b3c',
      },
    });
  });

  it('has nothing to say of a cycle that took no lease over', () => {
    expect(leaseTakenOverRecord(pollReport())).toBeUndefined();
  });
});
