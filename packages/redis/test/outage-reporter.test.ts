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
    const sent = reporter.mark();
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
    reporter.succeeded(reporter.mark());
    expect(reporter.isDown).toBe(false);
    expect(recoveries).toEqual(['Svc Redis: realtime fan-out reaches Redis again.']);
    reporter.succeeded(reporter.mark());
    expect(recoveries).toHaveLength(1);
  });

  it('holds one outage while any connection fails, and ends it when all are back', () => {
    const { reporter, errors, recoveries } = make();
    reporter.failed(new Error('publisher down'));
    const reading = reporter.mark('reader');
    reporter.failed(new Error('reader down'), 'reader');
    expect(errors).toHaveLength(1);
    // The reader is back, the publisher is not: still one outage, nothing reported.
    reporter.succeeded(reporter.mark('reader'), 'reader');
    expect(reporter.isDown).toBe(true);
    expect(recoveries).toHaveLength(0);
    reporter.failed(new Error('publisher still down'));
    expect(errors).toHaveLength(1);
    reporter.failed(new Error('reader down again'), 'reader');
    // A read sent before the reader failed says nothing.
    reporter.succeeded(reading, 'reader');
    reporter.succeeded(reporter.mark());
    expect(recoveries).toHaveLength(0);
    reporter.succeeded(reporter.mark('reader'), 'reader');
    expect(reporter.isDown).toBe(false);
    expect(recoveries).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });

  it('does not begin a new outage for a command sent during the last one that fails after it ended', () => {
    const { reporter, errors, recoveries } = make();
    reporter.failed(new Error('Command timed out'), 'commands', reporter.mark());
    // Two commands sent while Redis is paused; it answers one and the other times out after the recovery.
    const answered = reporter.mark();
    const late = reporter.mark();
    reporter.succeeded(answered);
    reporter.failed(new Error('Command timed out'), 'commands', late);
    expect(errors).toHaveLength(1);
    expect(recoveries).toHaveLength(1);
    expect(reporter.isDown).toBe(false);
    // A command sent after the recovery that fails is a new outage.
    reporter.failed(new Error('Command timed out'), 'commands', reporter.mark());
    expect(errors).toHaveLength(2);
  });

  it('reports the next outage again', () => {
    const { reporter, errors } = make();
    reporter.failed(new Error('one'));
    reporter.succeeded(reporter.mark());
    const sent = reporter.mark();
    reporter.failed(new Error('two'));
    reporter.succeeded(sent);
    expect(errors).toHaveLength(2);
    expect(reporter.isDown).toBe(true);
  });
});
