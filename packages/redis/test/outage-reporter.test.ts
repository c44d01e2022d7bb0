import { OutageReporter } from '../src/outage-reporter';

describe('OutageReporter', () => {
  const make = () => {
    const errors: string[] = [];
    const recoveries: string[] = [];
    const reporter = new OutageReporter(
      'realtime fan-out',
      'events stay here',
      (error) => errors.push(error.message),
      (message) => recoveries.push(message),
    );
    return { reporter, errors, recoveries };
  };

  it('reports the first failure of an outage and its end, once each', () => {
    const { reporter, errors, recoveries } = make();
    const sent = reporter.mark;
    reporter.failed(new Error('Command timed out'));
    reporter.failed(new Error('connect ECONNREFUSED'));
    expect(errors).toEqual([expect.stringContaining('Command timed out')]);
    expect(reporter.isDown).toBe(true);
    // A command sent before the outage began and answered after it was reported does not end it.
    reporter.succeeded(sent);
    expect(reporter.isDown).toBe(true);
    reporter.failed(new Error('connect ECONNREFUSED'));
    expect(errors).toHaveLength(1);
    // One sent during the outage does.
    reporter.succeeded(reporter.mark);
    expect(reporter.isDown).toBe(false);
    expect(recoveries).toEqual(['Svc Redis: realtime fan-out reaches Redis again.']);
    reporter.succeeded(reporter.mark);
    expect(recoveries).toHaveLength(1);
  });

  it('reports the next outage again', () => {
    const { reporter, errors } = make();
    reporter.failed(new Error('one'));
    reporter.succeeded(reporter.mark);
    const sent = reporter.mark;
    reporter.failed(new Error('two'));
    reporter.succeeded(sent);
    expect(errors).toHaveLength(2);
    expect(reporter.isDown).toBe(true);
  });
});
